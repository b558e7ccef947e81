"""The server's logs: one line per request and per event, as JSON lines or as text.

``configure_logging("json")`` writes each record as one JSON object (``time``, ``level``,
``logger``, ``message``, and the ``request_id`` of the request being served, if any, with the
record's own fields such as ``status`` and ``seconds``), for a log collector;
``configure_logging("text")`` writes the same as readable lines. The request id is the client's
``X-Request-ID`` when it is a short plain token (a reverse proxy's), a new one otherwise; it is
sent back in the answer's ``X-Request-ID`` header.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any, TextIO

__all__ = ["FIELDS", "JsonLines", "configure_logging", "new_request_id", "request_id"]

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
)
"""A record's own fields that a log line carries (``extra={...}`` of a logging call)."""
request_id: ContextVar[str] = ContextVar("request_id", default="")
"""The id of the request being served (empty outside one)."""
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def new_request_id(given: str | None) -> str:
    """The client's id when it is a plain token of at most 64 characters, else a new one."""
    return given if given and REQUEST_ID.fullmatch(given) else secrets.token_hex(8)


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
    """Send bordspel's and uvicorn's error logs to ``stream`` (stderr) in ``form`` (``json`` or ``text``)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    level = level.upper() if isinstance(level, str) else level
    formatter = JsonLines() if form == "json" else _Text("%(asctime)s %(levelname)s %(name)s: %(message)s")
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    for name in ("bordspel", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
