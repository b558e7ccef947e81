"""Stopping a long run cleanly: SIGTERM and SIGINT become an exception the run saves on.

A run that must resume (a solve, a training run) does its work inside :func:`stop_on_signals`;
a signal raises :class:`Stopped` where the run is, the run writes what it has and lets it go on
up, and the command says where the run is saved and exits with ``128 + signum``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["SIGNALS", "Stopped", "stop_on_signals"]

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(Exception):
    """The run was asked to stop (SIGTERM or SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGINT raise ``Stopped`` (once: a second one is ignored) while inside (in the
    main thread; elsewhere, where Python handles no signals, it does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _: FrameType | None) -> None:
        for each in SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        raise Stopped(signum)

    previous = [signal.signal(each, stop) for each in SIGNALS]
    try:
        yield
    finally:
        for each, handler in zip(SIGNALS, previous, strict=True):
            signal.signal(each, handler)
