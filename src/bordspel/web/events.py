"""Live updates: a Server-Sent Events stream of a game's version.

Every change the app stores wakes the game's listeners (``Changes.notify``); each stream also
looks at the stored version every few seconds, so changes made by another server process show
up too. A stream ends after ``lifetime`` seconds and the browser's EventSource reconnects by
itself, so no connection outlives a server shutdown for long.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import suppress

from bordspel.web.store import Busy

__all__ = ["Changes", "StreamSlots", "version_stream"]

RECONNECT_MS = 1000


class Changes:
    """Per game, an event that is set (and replaced) when the game changes."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}

    def event(self, game_id: str) -> asyncio.Event:
        """The event the next change of ``game_id`` sets; take it before reading the version."""
        return self._events.setdefault(game_id, asyncio.Event())

    def notify(self, game_id: str) -> None:
        """Wake everyone waiting for a change of ``game_id``."""
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()


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

    def give_back(self, client: str) -> None:
        """A stream of ``client`` has ended."""
        self._open[client] -= 1
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
    while time.monotonic() < end:
        changed = changes.event(game_id)
        current = await version()
        if current != last:
            yield f"event: version\ndata: {json.dumps({'version': current})}\n\n"
            last = current
        else:
            yield ": still here\n\n"
        with suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), min(poll, max(0.0, end - time.monotonic())))
