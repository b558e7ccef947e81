"""Live updates: a Server-Sent Events stream of a game's version.

Every change the app stores wakes the game's listeners (``Changes.notify``), and so does every
change another process stores (``bordspel.web.fanout``); each stream also looks at the stored
version every few seconds, whatever happens. A stream ends after ``lifetime`` seconds and the
browser's EventSource reconnects by itself. When the server shuts down (``Changes.close``), every
stream ends at once with a retry hint, so that the browser reconnects (to another process, or to
this one once it is back).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress

from bordspel.web.db import Busy
from bordspel.web.metrics import OPEN_STREAMS

__all__ = ["Changes", "StreamSlots", "version_stream"]

RECONNECT_MS = 1000
CLOSING_RECONNECT_MS = 2000
"""The retry hint of a stream ended by a shutdown: time for a restarted server to listen again."""


class Changes:
    """Per game, an event that is set (and replaced) when the game changes."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: Counter[str] = Counter()
        self.closed = False

    def event(self, game_id: str) -> asyncio.Event:
        """The event the next change of ``game_id`` sets; take it before reading the version."""
        event = self._events.setdefault(game_id, asyncio.Event())
        if self.closed:
            event.set()
        return event

    def close(self) -> None:
        """The server shuts down: wake every listener, now and from now on."""
        self.closed = True
        for event in self._events.values():
            event.set()

    def notify(self, game_id: str) -> None:
        """Wake everyone waiting for a change of ``game_id``."""
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def notify_all(self) -> None:
        """Wake every stream (after a listener missed what happened while it reconnected)."""
        for game_id in list(self._events):
            self.notify(game_id)

    @contextmanager
    def watching(self, game_id: str) -> Iterator[None]:
        """Count a stream of ``game_id`` as open while the block runs."""
        self._watchers[game_id] += 1
        try:
            yield
        finally:
            self._watchers[game_id] -= 1
            if not self._watchers[game_id]:
                del self._watchers[game_id]
                self._events.pop(game_id, None)

    def watched(self) -> frozenset[str]:
        """The games that some stream of this process watches."""
        return frozenset(self._watchers)


class StreamSlots:
    """The open streams, counted per client address and in all: past either limit a new stream
    is refused with ``Busy`` (503 with Retry-After), so open streams cannot slow the moves."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client, self.total = per_client, total
        self._open: Counter[str] = Counter()

    def take(self, client: str) -> None:
        """Count one more stream of ``client``, or refuse it."""
        if self._open[client] >= self.per_client:
            raise Busy(
                f"too many live streams from your address (at most {self.per_client}): close some pages"
            )
        if sum(self._open.values()) >= self.total:
            raise Busy("the server has as many live streams as it serves: try again shortly")
        self._open[client] += 1
        OPEN_STREAMS.inc()

    def give_back(self, client: str) -> None:
        """A stream of ``client`` has ended."""
        self._open[client] -= 1
        OPEN_STREAMS.dec()
        if self._open[client] <= 0:
            del self._open[client]

    async def held(self, client: str, stream: AsyncIterator[str]) -> AsyncIterator[str]:
        """``stream``, counting as one of ``client``'s until it ends (``take`` it first)."""
        try:
            async for text in stream:
                yield text
        finally:
            self.give_back(client)


async def version_stream(
    game_id: str, version: Callable[[], Awaitable[int]], changes: Changes, lifetime: float, poll: float
) -> AsyncIterator[str]:
    """SSE text: ``event: version`` with ``{"version": n}`` whenever the version changes."""
    yield f"retry: {RECONNECT_MS}\n\n"
    end, last = time.monotonic() + lifetime, None
    with changes.watching(game_id):
        while time.monotonic() < end:
            changed = changes.event(game_id)
            if changes.closed:
                yield f"retry: {CLOSING_RECONNECT_MS}\nevent: closing\ndata: {{}}\n\n"
                return
            current = await version()
            if current != last:
                yield f"event: version\ndata: {json.dumps({'version': current})}\n\n"
                last = current
            else:
                yield ": still here\n\n"
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(poll, max(0.0, end - time.monotonic())))
