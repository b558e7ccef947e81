"""Live updates across processes: every change of a game, made by any process, wakes the
streams of that game in every process (``Changes.notify``) within a few tens of milliseconds.

The store announces each change it writes (``GameStore.change``), and one task per web process
(:func:`listen`, started by the app) hears them:

- **PostgreSQL**: ``NOTIFY bordspel_games`` in the change's own transaction (sent when it
  commits, never for a change rolled back), heard on one ``LISTEN`` connection per process.
- **Redis** (``--pubsub redis://...``, the ``redis`` extra): the store publishes the game's id
  on the channel ``bordspel:games`` after the commit; each process subscribes to it. For
  deployments whose PostgreSQL cannot hold a ``LISTEN`` connection (behind a pooler in
  transaction mode), or that have Redis already.
- **SQLite** (several processes on one machine): no messages at all. Each process looks at
  the file's ``PRAGMA data_version``, which changes whenever another connection commits, every
  ``SQLITE_POLL`` seconds on one connection of its own, and only when something changed reads
  the versions of the games its streams watch (one query), and how many messages the chats
  they watch hold (``bordspel.web.chat``). The look is a read of the WAL
  index in shared memory: it costs microseconds and takes no lock.

A process whose listener lost its connection reconnects every ``RETRY`` seconds and then wakes
every stream once (they read their version again: nothing missed is lost). Streams also read
their version every ``events_poll`` seconds whatever happens (see ``bordspel.web.events``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

from bordspel.web.db import CHANNEL, Database, Postgres, SQLite
from bordspel.web.events import Changes

__all__ = ["CHAT_PREFIX", "REDIS_CHANNEL", "RETRY", "SQLITE_POLL", "listen", "redis_publisher"]

REDIS_CHANNEL = "bordspel:games"
CHAT_PREFIX = "chat:"
"""How the key of a game's chat begins (``bordspel.web.chat``): the rest is the game's id."""
SQLITE_POLL = 0.02
"""Seconds between two looks at an SQLite file's ``data_version``."""
RETRY = 1.0
"""Seconds before a listener that lost its connection tries again."""
LOG = logging.getLogger("bordspel.web")


async def listen(db: Database, pubsub: str | None, changes: Changes) -> None:
    """Wake ``changes`` for every change announced on ``pubsub`` (a Redis URL) or else by the
    database, until cancelled."""
    if pubsub:
        await _redis(pubsub, changes)
    elif isinstance(db, Postgres):
        await _postgres(db.url, changes)
    elif isinstance(db, SQLite):
        await _sqlite(db.path, changes)


async def _retrying(kind: str) -> None:
    LOG.warning("live updates: lost the connection to %s; trying again in %s s", kind, RETRY)
    await asyncio.sleep(RETRY)


async def _postgres(url: str, changes: Changes) -> None:
    import psycopg

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                changes.notify_all()  # whatever changed while we were not listening
                async for message in connection.notifies():
                    changes.notify(message.payload)
        except (psycopg.OperationalError, OSError):
            await _retrying("PostgreSQL")


async def _redis(url: str, changes: Changes) -> None:
    from redis.asyncio import Redis
    from redis.exceptions import ConnectionError as RedisDown

    while True:
        try:
            async with Redis.from_url(url) as client, client.pubsub() as pubsub:
                await pubsub.subscribe(REDIS_CHANNEL)
                changes.notify_all()
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        changes.notify(message["data"].decode())
        except (RedisDown, OSError):
            await _retrying("Redis")


def redis_publisher(url: str) -> Callable[[str], None]:
    """A function that publishes a game's id on Redis (errors are logged: the change stands)."""
    from redis import Redis
    from redis.exceptions import RedisError

    client = Redis.from_url(url, socket_timeout=1.0)

    def publish(game_id: str) -> None:
        try:
            client.publish(REDIS_CHANNEL, game_id)
        except RedisError as error:
            LOG.warning("live updates: could not publish on Redis (%s); streams see it later", error)

    return publish


async def _sqlite(path: Path, changes: Changes) -> None:
    watcher = _DataVersion(path)
    try:
        while True:
            await asyncio.sleep(SQLITE_POLL)
            watched = changes.watched()
            if watched:
                with suppress(sqlite3.OperationalError):  # busy: look again next time
                    for game_id in await asyncio.to_thread(watcher.changed, watched):
                        changes.notify(game_id)
    finally:
        watcher.close()


class _DataVersion:
    """An SQLite file's ``data_version`` on a connection of its own, and the versions last seen
    of the games watched."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.data_version = -1
        self.seen: dict[str, int] = {}
        self.watched: frozenset[str] = frozenset()

    def changed(self, watched: frozenset[str]) -> list[str]:
        """The watched games whose version changed since the last look (a new one counts)."""
        (data_version,) = self.connection.execute("PRAGMA data_version").fetchone()
        if data_version == self.data_version and watched == self.watched:
            return []
        self.data_version, self.watched = data_version, watched
        versions = dict(self._versions(sorted(watched)))
        changed = [game_id for game_id, version in versions.items() if self.seen.get(game_id) != version]
        self.seen = versions
        return changed

    def _versions(self, keys: list[str]) -> Iterator[tuple[str, int]]:
        """The version of each watched game, and the message count of each watched chat."""
        games = [key for key in keys if not key.startswith(CHAT_PREFIX)]
        chats = [key.removeprefix(CHAT_PREFIX) for key in keys if key.startswith(CHAT_PREFIX)]
        yield from self._read("SELECT id, version FROM games WHERE id IN ({})", games)
        counts = "SELECT game_id, COUNT(*) FROM chat_messages WHERE game_id IN ({}) GROUP BY game_id"
        yield from ((CHAT_PREFIX + key, count) for key, count in self._read(counts, chats))

    def _read(self, query: str, ids: list[str]) -> Iterator[tuple[str, int]]:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            yield from self.connection.execute(query.format(",".join("?" * len(chunk))), chunk)

    def close(self) -> None:
        self.connection.close()
