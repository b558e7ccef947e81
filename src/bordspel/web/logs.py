"""The server's logs: one line per request and per event, as JSON lines or as text.

``configure_logging("json")`` writes each record as one JSON object (``time``, ``level``,
``logger``, ``message``, and the ``request_id`` of the request being served, if any, with the
record's own fields such as ``status`` and ``seconds``), for a log collector;
``configure_logging("text")`` writes the same as readable lines. The request id is the client's
``X-Request-ID`` when it is a short plain token (a reverse proxy's), a new one otherwise; it is
sent back in the answer's ``X-Request-ID`` header.

Warnings and errors are rate-limited (:class:`RateLimited`): of one kind (logger, level and the
message's first line) at most ``BURST`` lines a minute get through, and the next line let through
says how many were left out (``suppressed``), so an error storm (a process out of file handles
fails every ``accept()``) cannot fill a disk. The standard library has no such filter, and the
small packages on PyPI that offer one are not maintained; this is thirty lines.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import threading
import time
from contextvars import ContextVar
from typing import Any, TextIO

__all__ = ["BURST", "FIELDS", "JsonLines", "RateLimited", "configure_logging", "new_request_id", "request_id"]

FIELDS = (
    "request_id",
    "method",
    "path",
    "route",
    "status",
    "seconds",
    "client",
    "game",
    "version",
    "computer",
    "loop",
    "suppressed",
)
"""A record's own fields that a log line carries (``extra={...}`` of a logging call)."""
request_id: ContextVar[str] = ContextVar("request_id", default="")
"""The id of the request being served (empty outside one)."""
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def new_request_id(given: str | None) -> str:
    """The client's id when it is a plain token of at most 64 characters, else a new one."""
    return given if given and REQUEST_ID.fullmatch(given) else secrets.token_hex(8)


BURST = 10
"""Warnings or errors of one kind that get through in ``PERIOD`` seconds."""
PERIOD = 60.0
KINDS = 1000
"""Kinds of lines remembered at most (the oldest windows are forgotten first)."""


class RateLimited(logging.Filter):
    """At most ``burst`` warnings and errors of one kind each ``period`` seconds; the first line of
    the next period carries ``suppressed``, how many were left out. Info lines all pass."""

    def __init__(self, burst: int = BURST, period: float = PERIOD) -> None:
        super().__init__()
        self.burst, self.period = burst, period
        self._windows: dict[tuple[str, int, str], list[float]] = {}
        """Each kind's window: [its start, lines let through, lines left out]."""
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` gets through (counting it either way)."""
        if record.levelno < logging.WARNING:
            return True
        kind = (record.name, record.levelno, str(record.msg).split("\n", 1)[0][:120])
        now = time.monotonic()
        with self._lock:
            window = self._windows.get(kind)
            if window is None or now - window[0] >= self.period:
                if window is not None and window[2]:
                    record.suppressed = int(window[2])
                self._windows[kind] = [now, 1, 0]
                self._forget_old()
                return True
            passes = window[1] < self.burst
            window[1 if passes else 2] += 1
            return passes

    def _forget_old(self) -> None:
        if len(self._windows) > KINDS:
            for kind, _ in sorted(self._windows.items(), key=lambda item: item[1][0])[: KINDS // 2]:
                del self._windows[kind]


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = {name: getattr(record, name) for name in FIELDS if hasattr(record, name)}
    if "request_id" not in fields and request_id.get():
        fields["request_id"] = request_id.get()
    return fields


class JsonLines(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's time, level, logger, message and fields (and its exception, as text)."""
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class _Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = " ".join(f"{name}={value}" for name, value in _fields(record).items())
        return f"{text}  {fields}" if fields else text


def configure_logging(form: str, level: int | str = logging.INFO, stream: TextIO | None = None) -> None:
    """Send bordspel's, uvicorn's and asyncio's error logs to ``stream`` (stderr) in ``form``
    (``json`` or ``text``), warnings and errors rate-limited (``RateLimited``)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    level = level.upper() if isinstance(level, str) else level
    formatter = JsonLines() if form == "json" else _Text("%(asctime)s %(levelname)s %(name)s: %(message)s")
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    handler.addFilter(RateLimited())
    for name in ("bordspel", "uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
