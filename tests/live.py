"""A live uvicorn server in a thread on a free loopback port, for tests that need real HTTP."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from starlette.applications import Starlette

from bordspel.web.server import server_config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def serving(app: Starlette) -> Iterator[str]:
    """The app served on ``http://127.0.0.1:<port>`` until the block ends."""
    port = free_port()
    config = server_config(
        app, host="127.0.0.1", port=port, log_level="critical", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
