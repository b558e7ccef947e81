"""Request checks in front of the app, and the headers on every answer.

- ``Host`` must be the server's own address (its host name or a loopback/IP literal, with its
  port) or an allowed host, so that another site's name pointing here (DNS rebinding) fails;
- an ``Origin``, when a browser sends one, must be the same origin as ``Host`` or an allowed
  origin, so that another page cannot post in the user's name (CSRF);
- API posts must say ``Content-Type: application/json`` (a plain form cannot) and carry at most
  ``max_body`` bytes;
- every answer carries a Content-Security-Policy without inline scripts, ``frame-ancestors
  'none'``, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.

Refusals are JSON ``{"error": ...}``: 403, 413 or 415.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "Guard", "GuardSettings"]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
LOOPBACK_NAMES = {"localhost"}


class ClientGone(Exception):
    """The client went (or was cut off) before its request's body was in."""


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class GuardSettings:
    """What the request guard allows: extra hosts and origins, and the largest body."""

    allowed_hosts: frozenset[str] = field(default_factory=frozenset)
    """Extra ``Host`` values (``name`` or ``name:port``), e.g. the public name behind a proxy."""
    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    """Extra origins (``https://games.example.org``) whose pages may post."""
    max_body: int = 64 * 1024

    @classmethod
    def of(cls, hosts: Iterable[str], origins: Iterable[str], max_body: int = 64 * 1024) -> GuardSettings:
        """Settings from host names and origins as given on the command line."""
        return cls(
            frozenset(h.lower() for h in hosts), frozenset(o.lower().rstrip("/") for o in origins), max_body
        )


class Guard:
    """ASGI middleware: checks Host, Origin, Content-Type and body size; adds security headers."""

    def __init__(self, app: ASGIApp, settings: GuardSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        try:
            headers = Headers(scope=scope)
            self._check_host(scope, headers)
            self._check_origin(headers)
            if scope["method"] == "POST":
                _check_content_type(scope, headers)
                receive = await self._read_body(receive, headers)
        except Refused as refusal:
            await _refuse(send, refusal)
            return
        except ClientGone:  # the body never came (the server answered 408): nothing to answer
            return
        await self.app(scope, receive, send)

    def _check_host(self, scope: Scope, headers: Headers) -> None:
        host = headers.get("host", "").lower()
        if host in self.settings.allowed_hosts or _hostname(host) in self.settings.allowed_hosts:
            return
        server = scope.get("server") or ("", None)
        if _port(host) == server[1] and _is_own_name(_hostname(host), str(server[0]).lower()):
            return
        raise Refused(403, "this server does not answer to that host name (see --allowed-host)")

    def _check_origin(self, headers: Headers) -> None:
        origin = headers.get("origin")
        if origin is None:
            return  # not a browser's cross-origin request: curl, scripts, same-origin GETs
        origin = origin.lower().rstrip("/")
        if origin in self.settings.allowed_origins:
            return
        if origin != "null" and urlsplit(origin).netloc == headers.get("host", "").lower():
            return
        raise Refused(403, "requests from other sites are refused (see --allowed-origin)")

    async def _read_body(self, receive: Receive, headers: Headers) -> Receive:
        """Read the whole (small) body, refusing more than ``max_body`` bytes; replay it to the app."""
        limit = self.settings.max_body
        length = headers.get("content-length", "")
        if length.isascii() and length.isdigit() and (len(length) > 12 or int(length) > limit):
            raise Refused(413, f"the request body is larger than {limit} bytes")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise ClientGone
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                raise Refused(413, f"the request body is larger than {limit} bytes")
            if not message.get("more_body", False):
                whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                return _replay([whole], receive)


def _check_content_type(scope: Scope, headers: Headers) -> None:
    if not str(scope["path"]).startswith("/api/"):
        return
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused(415, "send the request body as JSON, with Content-Type: application/json")


def _hostname(host: str) -> str:
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if ":" in host else host


def _port(host: str) -> int | None:
    name = _hostname(host)
    rest = host[len(name) :]
    if not rest:
        return 80
    digits = rest[1:]
    if not (rest.startswith(":") and digits.isascii() and digits.isdigit() and len(digits) < 7):
        return None
    return int(digits)


def _is_own_name(name: str, server_host: str) -> bool:
    """The server's own host, a loopback name, or any IP literal (which no other site can use)."""
    if name in (server_host, *LOOPBACK_NAMES):
        return True
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def _replay(messages: list[Message], then: Receive) -> Receive:
    """Hand out ``messages`` first, then what ``then`` receives (a disconnect, later)."""

    async def receive() -> Message:
        return messages.pop(0) if messages else await then()

    return receive


def _with_headers(send: Send) -> Send:
    async def sender(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sender


async def _refuse(send: Send, refusal: Refused) -> None:
    body = json.dumps({"error": str(refusal)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
