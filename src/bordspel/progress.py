"""Progress lines for long commands: rewritten in place on a terminal, plain lines elsewhere.

On a terminal each update overwrites the last (``\\r``); in a log or a pipe an update is written
as a line of its own, at most once every ``every`` seconds, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressLine"]


class ProgressLine:
    """One progress line on ``stream`` (standard error by default)."""

    def __init__(self, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.in_place = self.stream.isatty()
        self.written = -float("inf")
        self.pending = ""

    def update(self, text: str) -> None:
        """Show ``text`` as the current progress."""
        if self.in_place:
            self.stream.write("\r" + text)
            self.stream.flush()
            return
        self.pending = text
        if time.monotonic() - self.written >= self.every:
            self._write_pending()

    def close(self) -> None:
        """End the line (and write the last update that a log has not seen yet)."""
        if self.in_place:
            self.stream.write("\n")
        elif self.pending:
            self._write_pending()
        self.stream.flush()

    def _write_pending(self) -> None:
        self.stream.write(self.pending + "\n")
        self.stream.flush()
        self.pending = ""
        self.written = time.monotonic()
