"""A real Redis server for the tests: Debian's ``redis-server`` on a free loopback port, nothing
saved. Without it the tests that need it are skipped, or fail when ``BORDSPEL_REQUIRE_REDIS=1``
(as in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from redis import Redis
from redis.exceptions import RedisError

from tests.live import free_port


def require() -> str:
    """The path of ``redis-server``, or a skip (a failure under ``BORDSPEL_REQUIRE_REDIS=1``)."""
    program = shutil.which("redis-server")
    if program is None and os.environ.get("BORDSPEL_REQUIRE_REDIS") == "1":
        pytest.fail("no redis-server (BORDSPEL_REQUIRE_REDIS=1): apt-get install redis-server")
    if program is None:
        pytest.skip("no redis-server (apt-get install redis-server)")
    return program


@contextmanager
def redis_server(program: str = "redis-server") -> Iterator[str]:
    """A Redis server of its own until the block ends: its ``redis://`` URL."""
    port, folder = free_port(), tempfile.mkdtemp(prefix="bordspel-redis-")
    options = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([program, *options, "--dir", folder], stdout=subprocess.DEVNULL)
    try:
        client, deadline = Redis(port=port), time.monotonic() + 20
        while time.monotonic() < deadline:
            with suppress(RedisError):
                if client.ping():
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
