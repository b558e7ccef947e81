"""The HTTP server under the app: uvicorn, with a deadline for a request's headers, in one
process or in several on one port (:func:`serve`).

With ``workers`` > 1, uvicorn's supervisor (``uvicorn.supervisors.Multiprocess``) starts that
many processes that share the listening socket (the kernel hands each new connection to one of
them) and starts a new one when one dies. Each builds its own app from the settings the parent
leaves in the environment (``BORDSPEL_SERVE``, JSON); they share the games through the store,
and their live updates through ``bordspel.web.fanout``.

uvicorn closes idle keep-alive connections, but a client that sends its headers or its body a
byte at a time holds a connection for as long as it likes (slowloris), and enough of them take
every file the process may open. :class:`HeaderDeadline` closes a connection whose request line
and headers are not complete ``HEADER_TIMEOUT`` seconds after it opened (or after the previous
response), answers 408 to a request whose body is not complete ``ConnectionLimits.body_timeout``
seconds after its headers, and refuses a connection past the process's cap or its address's at
once: a fixed 503 written before any parsing, and the connection closed.

Each process logs as ``logs`` says (``bordspel.web.logs``: JSON lines or text, and the level);
on SIGTERM or Ctrl-C the app drains itself first (``create_app``: streams end with a retry hint,
its workers take no new job) while uvicorn waits for the requests in flight.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import resource
import socket
import weakref
from collections import Counter
from contextlib import suppress
from dataclasses import asdict, dataclass, replace
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState
from uvicorn.supervisors import Multiprocess

from bordspel.web.logs import configure_logging

__all__ = [
    "BODY_TIMEOUT",
    "HEADER_TIMEOUT",
    "ConnectionLimits",
    "HeaderDeadline",
    "ServerConfig",
    "app_from_environment",
    "serve",
    "server_config",
]

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's line and headers."""
BODY_TIMEOUT = 10.0
"""Seconds a client has to send a request's whole body once its headers are in."""
CONNECTIONS_PER_ADDRESS = 64
"""Connections one address may hold open in one process (a browser opens about 6)."""
MAX_CONNECTIONS = 4096
"""Connections one process holds open at most (and never more than half its open-file limit)."""
REFUSAL_RETRY = 5
"""The ``Retry-After`` seconds of a connection refused for being one too many."""


def default_max_connections() -> int:
    """``MAX_CONNECTIONS``, or half the process's open-file limit when that is lower: the other
    half stays for the store, the workers' pipes and the connections being refused."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else max(16, min(MAX_CONNECTIONS, soft // 2))


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a request's body may take, and how many connections a process and one address
    may hold open; ``trusted`` addresses (the reverse proxy's, as ``--forwarded-allow-ips`` names
    them) are not held to the per-address cap."""

    body_timeout: float = BODY_TIMEOUT
    per_process: int | None = None
    """None: ``default_max_connections()``."""
    per_address: int = CONNECTIONS_PER_ADDRESS
    trusted: str | None = None

    def is_trusted(self, address: str) -> bool:
        """Whether ``address`` is one of the ``trusted`` ones (``*``: every address)."""
        names = [name.strip() for name in (self.trusted or "").split(",") if name.strip()]
        if "*" in names:
            return True
        with suppress(ValueError):
            ip = ipaddress.ip_address(address)
            return any(ip in ipaddress.ip_network(name, strict=False) for name in names)
        return address in names


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration with the connection limits (picklable: ``--workers`` hands it on)."""

    def __init__(self, app: Any, limits: ConnectionLimits, **settings: Any) -> None:
        super().__init__(app, **settings)
        self.limits = replace(limits, per_process=limits.per_process or default_max_connections())


_OPEN: weakref.WeakKeyDictionary[ServerState, Counter[str]] = weakref.WeakKeyDictionary()
"""Open connections per address, per server (a process runs one)."""


def _refusal(reason: str) -> bytes:
    body = json.dumps({"error": reason}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
        f"retry-after: {REFUSAL_RETRY}\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


TOO_MANY_HERE = _refusal("the server has too many open connections: try again in a few seconds")
TOO_MANY_YOURS = _refusal("too many open connections from your address: close some and try again")
UNREADABLE = "send HTTP/1.1 with a Host header, and a request line and headers of at most 16 KiB"
"""What a request that h11 cannot read should have been (uvicorn's h11 reads up to 16 KiB)."""
BODY_TOO_SLOW = json.dumps({"error": "the request body came too slowly: send it at once"}).encode()


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol with deadlines for a request's headers and its body, and caps on
    the connections a process and one address hold open."""

    header_timeout = HEADER_TIMEOUT
    _due: asyncio.TimerHandle | None = None
    _due_state: object | None = None
    _counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: refused at once past a cap, else its first request's headers are due."""
        super().connection_made(transport)
        refusal = self._refusal()
        if refusal is not None:
            transport.write(refusal)
            transport.close()
            return
        self._arm()

    def _refusal(self) -> bytes | None:
        """The answer to a connection one too many (None: it is welcome), counting it if welcome."""
        limits = self._limits()
        if len(self.connections) > (limits.per_process or MAX_CONNECTIONS):
            return TOO_MANY_HERE
        address = self.client[0] if self.client else ""
        counts = _OPEN.setdefault(self.server_state, Counter())
        if counts[address] >= limits.per_address and not limits.is_trusted(address):
            return TOO_MANY_YOURS
        counts[address] += 1
        self._counted = address
        return None

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read (no Host header, a request line or headers past its limit):
        a JSON 400, as every other refusal, saying what to send instead; then the connection ends."""
        if self.conn.our_state is not h11.IDLE:  # a response is under way: no second one inside it
            self.transport.close()
            return
        reason = f"{msg.rstrip('.')}: {UNREADABLE}"
        body = json.dumps({"error": reason}).encode()
        head = (
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()

    def _limits(self) -> ConnectionLimits:
        """The server's limits (a plain ``uvicorn.Config`` has the defaults)."""
        limits = getattr(self.config, "limits", None)
        return limits if isinstance(limits, ConnectionLimits) else ConnectionLimits()

    def data_received(self, data: bytes) -> None:
        """Read on; the headers' deadline gives way to the body's once they are in, and that to
        none once the body is in."""
        super().data_received(data)
        self._arm()

    def on_response_complete(self) -> None:
        """A response was sent: the next request on this connection (its headers, or its body
        when they came with the last one) is due."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def _arm(self) -> None:
        """The clock for what the client owes now: its headers, its body, or nothing (a deadline
        already running for the same part runs on)."""
        state = self.conn.their_state
        if state is h11.IDLE and self._due_state is not h11.IDLE:
            self._start_clock(h11.IDLE, self.header_timeout)
        elif state is h11.SEND_BODY and self._due_state is not h11.SEND_BODY:
            self._start_clock(h11.SEND_BODY, self._limits().body_timeout)
        elif state is not h11.IDLE and state is not h11.SEND_BODY:
            self._stop_clock()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: nothing is due any more, and its address holds one fewer."""
        self._stop_clock()
        if self._counted is not None:
            counts = _OPEN.get(self.server_state, Counter())
            counts[self._counted] -= 1
            if counts[self._counted] <= 0:
                del counts[self._counted]
            self._counted = None
        super().connection_lost(exc)

    def _start_clock(self, state: object, seconds: float) -> None:
        self._stop_clock()
        self._due_state = state
        self._due = self.loop.call_later(seconds, self._too_slow)

    def _stop_clock(self) -> None:
        if self._due is not None:
            self._due.cancel()
        self._due, self._due_state = None, None

    def _too_slow(self) -> None:
        state, self._due = self.conn.their_state, None
        if self.transport.is_closing() or state is not self._due_state:
            return
        cycle = self.cycle
        if state is h11.SEND_BODY and cycle is not None and not cycle.response_started:
            self.loop.create_task(self._request_timeout(cycle))  # 408, then the connection closes
        else:
            self.transport.close()

    async def _request_timeout(self, cycle: Any) -> None:
        """Answer 408 to a request whose body did not arrive in time; the app reading it hears
        that the client is gone; the connection closes."""
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        await cycle.send({"type": "http.response.start", "status": 408, "headers": headers})
        await cycle.send({"type": "http.response.body", "body": BODY_TOO_SLOW})
        cycle.disconnected = True
        cycle.message_event.set()
        self.transport.close()


def server_config(
    app: Any,
    forwarded_allow_ips: str | None = None,
    limits: ConnectionLimits | None = None,
    **settings: Any,
) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the deadlines and caps of ``limits``. A client's
    address is the connection's own, unless it comes from one of ``forwarded_allow_ips`` (the
    reverse proxy's addresses, comma-separated): then uvicorn takes it from the proxy's
    ``X-Forwarded-For``, and the proxy is not held to the per-address cap."""
    limits = replace(limits or ConnectionLimits(), trusted=forwarded_allow_ips)
    return ServerConfig(
        app,
        limits,
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
    limits: ConnectionLimits | None = None,
    **options: Any,
) -> None:
    """Serve ``create_app(db, settings, **options)`` on ``listener`` in ``workers`` processes
    until Ctrl-C or SIGTERM, logging as ``logs`` (format, level) says, believing the
    ``X-Forwarded-For`` of ``forwarded_allow_ips`` only and holding connections to ``limits``
    (see ``server_config``). The store is opened (its schema upgraded) here first, once."""
    from bordspel.web.app import create_app
    from bordspel.web.store import GameStore

    quiet: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 3, "log_config": None}
    configure_logging(*logs)
    if workers == 1:
        app = create_app(db, settings, **options)
        uvicorn.Server(server_config(app, forwarded_allow_ips, limits, **quiet)).run(sockets=[listener])
        return
    GameStore(db).close()
    os.environ[ENVIRONMENT] = json.dumps({"db": db, "settings": asdict(settings), "logs": logs, **options})
    config = server_config(
        f"{__name__}:app_from_environment",
        forwarded_allow_ips,
        limits,
        factory=True,
        workers=workers,
        **quiet,
    )
    Multiprocess(config, sockets=[listener]).run()


ENVIRONMENT = "BORDSPEL_SERVE"


def app_from_environment() -> Any:
    """The app of one of several processes, from the settings ``serve`` left in the environment."""
    from bordspel.web.app import ApiSettings, create_app

    options = json.loads(os.environ[ENVIRONMENT])
    configure_logging(*options.pop("logs"))
    return create_app(options.pop("db"), ApiSettings(**options.pop("settings")), **options)
