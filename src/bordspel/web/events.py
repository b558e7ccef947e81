"""Live updates: Server-Sent Events streams of a game's version (and its chat's), the lobby's,
and an account's games.

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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

from bordspel.web.db import Busy
from bordspel.web.metrics import OPEN_STREAMS

__all__ = ["Changes", "Numbered", "StreamSlots", "snapshot_stream", "version_stream"]

RECONNECT_MS = 1000
CLOSING_RECONNECT_MS = 2000
"""The retry hint of a stream ended by a shutdown: time for a restarted server to listen again."""


class Changes:
    """Per game, an event that is set (and replaced) when the game changes."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}
        self._watchers: Counter[str] = Counter()
        self._groups: dict[str, set[asyncio.Event]] = {}
        """Per key, the events of streams that wait for a change of any of several keys."""
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
        for group in self._groups.values():
            for event in group:
                event.set()

    def notify(self, game_id: str) -> None:
        """Wake everyone waiting for a change of ``game_id``."""
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()
        for waiting in self._groups.pop(game_id, ()):
            waiting.set()

    def notify_all(self) -> None:
        """Wake every stream (after a listener missed what happened while it reconnected)."""
        for game_id in {*self._events, *self._groups}:
            self.notify(game_id)

    @contextmanager
    def any_of(self, keys: frozenset[str]) -> Iterator[asyncio.Event]:
        """An event that the next change of any of ``keys`` sets, while the block runs (and the
        keys counted as watched, so that other processes' changes of them are heard too)."""
        event = asyncio.Event()
        if self.closed:
            event.set()
        with ExitStack() as stack:
            for key in keys:
                stack.enter_context(self.watching(key))
                self._groups.setdefault(key, set()).add(event)
            try:
                yield event
            finally:
                for key in keys:
                    group = self._groups.get(key, set())
                    group.discard(event)
                    if not group:
                        self._groups.pop(key, None)

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


CLOSING = f"retry: {CLOSING_RECONNECT_MS}\nevent: closing\ndata: {{}}\n\n"
"""The last message of a stream ended by a shutdown."""


def _told(event: str, current: object, last: object) -> str:
    """SSE text: ``event`` with ``current`` when it differs from ``last``, else a heartbeat."""
    return f"event: {event}\ndata: {json.dumps(current)}\n\n" if current != last else ": still here\n\n"


Numbered = tuple[str, Callable[[], Awaitable[int]]]
"""A numbered part of a stream: the key whose changes wake it, and how to read its number."""


async def version_stream(
    parts: Mapping[str, Numbered], changes: Changes, lifetime: float, poll: float
) -> AsyncIterator[str]:
    """SSE text: for each part, ``event: <name>`` with ``{"<name>": n}`` whenever its number
    changes. A game's ``version`` and its ``chat``'s count share one stream: a browser opens at
    most six connections to a site, so a page's streams must be few."""
    yield f"retry: {RECONNECT_MS}\n\n"
    end, last = time.monotonic() + lifetime, dict[str, int]()
    keys = frozenset(key for key, _ in parts.values())
    while time.monotonic() < end:
        with changes.any_of(keys) as changed:
            if changes.closed:
                yield CLOSING
                return
            current = {name: await read() for name, (_, read) in parts.items()}
            yield _changed_parts(current, last)
            last = current
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(poll, max(0.0, end - time.monotonic())))


def _changed_parts(current: dict[str, int], last: dict[str, int]) -> str:
    """SSE text: an event for each part whose number changed, else a heartbeat."""
    told = [
        f"event: {name}\ndata: {json.dumps({name: value})}\n\n"
        for name, value in current.items()
        if last.get(name) != value
    ]
    return "".join(told) or ": still here\n\n"


async def snapshot_stream(
    read: Callable[[], Awaitable[dict[str, Any]]],
    keys: Callable[[dict[str, Any]], frozenset[str]],
    changes: Changes,
    lifetime: float,
    poll: float,
) -> AsyncIterator[str]:
    """SSE text: ``event: snapshot`` with what ``read`` gives whenever it differs from the last
    one sent; read again when any of the ``keys`` of the last snapshot changes, or after ``poll``
    seconds (a key that is not known yet: a new game)."""
    yield f"retry: {RECONNECT_MS}\n\n"
    end, last = time.monotonic() + lifetime, None
    watched: frozenset[str] = frozenset()
    while time.monotonic() < end:
        with changes.any_of(watched) as changed:
            if changes.closed:
                yield CLOSING
                return
            current = await read()
            yield _told("snapshot", current, last)
            last = current
            if keys(current) != watched:
                watched = keys(current)
                continue  # listen to the new keys before waiting
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(poll, max(0.0, end - time.monotonic())))
