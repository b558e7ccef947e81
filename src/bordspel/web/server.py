"""The HTTP server under the app: uvicorn, with a deadline for a request's headers, in one
process or in several on one port (:func:`serve`).

With ``workers`` > 1, uvicorn's supervisor (``uvicorn.supervisors.Multiprocess``) starts that
many processes that share the listening socket (the kernel hands each new connection to one of
them) and starts a new one when one dies. Each builds its own app from the settings the parent
leaves in the environment (``BORDSPEL_SERVE``, JSON); they share the games through the store,
and their live updates through ``bordspel.web.fanout``.

uvicorn closes idle keep-alive connections, but a client that sends its headers a byte at a time
holds a connection for as long as it likes (slowloris). :class:`HeaderDeadline` closes a
connection whose request line and headers are not complete ``HEADER_TIMEOUT`` seconds after it
opened, or after the previous response.

Each process logs as ``logs`` says (``bordspel.web.logs``: JSON lines or text, and the level);
on SIGTERM or Ctrl-C the app drains itself first (``create_app``: streams end with a retry hint,
its workers take no new job) while uvicorn waits for the requests in flight.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from dataclasses import asdict
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from bordspel.web.logs import configure_logging

__all__ = ["HEADER_TIMEOUT", "HeaderDeadline", "app_from_environment", "serve", "server_config"]

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's line and headers."""


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose headers come too slowly."""

    header_timeout = HEADER_TIMEOUT
    _headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: its first request's headers are due."""
        super().connection_made(transport)
        self._start_clock()

    def data_received(self, data: bytes) -> None:
        """Read on; once a request's headers are in, they are no longer due."""
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in
            self._stop_clock()

    def on_response_complete(self) -> None:
        """A response was sent: the next request's headers on this connection are due."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._start_clock()  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: nothing is due any more."""
        self._stop_clock()
        super().connection_lost(exc)

    def _start_clock(self) -> None:
        self._stop_clock()
        self._headers_due = self.loop.call_later(self.header_timeout, self._too_slow)

    def _stop_clock(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _too_slow(self) -> None:
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def server_config(app: Any, forwarded_allow_ips: str | None = None, **settings: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the header deadline. A client's address is the
    connection's own, unless it comes from one of ``forwarded_allow_ips`` (the reverse proxy's
    addresses, comma-separated): then uvicorn takes it from the proxy's ``X-Forwarded-For``."""
    return uvicorn.Config(
        app,
        http=HeaderDeadline,
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips,
        **settings,
    )


def serve(
    listener: socket.socket,
    workers: int,
    db: str,
    settings: Any,
    logs: tuple[str, str],
    forwarded_allow_ips: str | None = None,
    **options: Any,
) -> None:
    """Serve ``create_app(db, settings, **options)`` on ``listener`` in ``workers`` processes
    until Ctrl-C or SIGTERM, logging as ``logs`` (format, level) says, believing the
    ``X-Forwarded-For`` of ``forwarded_allow_ips`` only (see ``server_config``). The store is
    opened (its schema upgraded) here first, once."""
    from bordspel.web.app import create_app
    from bordspel.web.store import GameStore

    quiet: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 3, "log_config": None}
    configure_logging(*logs)
    if workers == 1:
        app = create_app(db, settings, **options)
        uvicorn.Server(server_config(app, forwarded_allow_ips, **quiet)).run(sockets=[listener])
        return
    GameStore(db).close()
    os.environ[ENVIRONMENT] = json.dumps({"db": db, "settings": asdict(settings), "logs": logs, **options})
    config = server_config(
        f"{__name__}:app_from_environment", forwarded_allow_ips, factory=True, workers=workers, **quiet
    )
    Multiprocess(config, sockets=[listener]).run()


ENVIRONMENT = "BORDSPEL_SERVE"


def app_from_environment() -> Any:
    """The app of one of several processes, from the settings ``serve`` left in the environment."""
    from bordspel.web.app import ApiSettings, create_app

    options = json.loads(os.environ[ENVIRONMENT])
    configure_logging(*options.pop("logs"))
    return create_app(options.pop("db"), ApiSettings(**options.pop("settings")), **options)
