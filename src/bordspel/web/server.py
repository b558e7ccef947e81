"""The HTTP server under the app: uvicorn, with a deadline for a request's headers.

uvicorn closes idle keep-alive connections, but a client that sends its headers a byte at a time
holds a connection for as long as it likes (slowloris). :class:`HeaderDeadline` closes a
connection whose request line and headers are not complete ``HEADER_TIMEOUT`` seconds after it
opened, or after the previous response.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_TIMEOUT", "HeaderDeadline", "server_config"]

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


def server_config(app: Any, **settings: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the header deadline."""
    return uvicorn.Config(app, http=HeaderDeadline, **settings)
