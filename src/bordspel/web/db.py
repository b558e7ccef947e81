"""The databases under the game store: an SQLite file (embedded) or a PostgreSQL server.

:func:`open_database` takes a file path (SQLite, the default) or a ``postgresql://`` URL
(PostgreSQL through psycopg 3 and its connection pool, the ``postgres`` extra). Both give
:class:`Connection` objects inside transactions, and one way of writing SQL for both:

- placeholders are ``?`` (PostgreSQL's ``%s`` is made from them; write ``%`` as it is);
- the few words that differ are written as ``{name}`` with a name of ``WORDS`` (``{float}``:
  SQLite's ``REAL``, PostgreSQL's ``DOUBLE PRECISION``; ``{skip_locked}``: nothing in SQLite,
  whose write transactions run one at a time, ``FOR UPDATE SKIP LOCKED`` in PostgreSQL);
- a write transaction (``db.transaction()``) sees the rows it reads unchanged until it ends
  only in SQLite; in PostgreSQL write with a condition (``UPDATE ... WHERE version = ?``) and
  look at ``rowcount``, or take ``connection.lock(name)`` first;
- ``db.transaction(write=False)`` is one consistent snapshot for several reads.

Errors: a database that is locked or unreachable for longer than ``BUSY_TIMEOUT`` seconds
raises :class:`Busy` (503 with Retry-After in the app), in both.

The schema version lives in the database (SQLite's ``PRAGMA user_version``; in PostgreSQL the
one row of ``bordspel_schema``); :func:`upgrade` applies the store's migrations
(``bordspel.web.migrations``) up to the latest, one transaction for all of them.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

from bordspel.core import BordspelError

__all__ = [
    "BUSY_TIMEOUT",
    "CHANNEL",
    "CONNECT_TIMEOUT",
    "POOL_SIZE",
    "WORDS",
    "Busy",
    "Connection",
    "Database",
    "Postgres",
    "Rows",
    "SQLite",
    "Step",
    "hide_password",
    "open_database",
    "schema_status",
    "upgrade",
]

BUSY_TIMEOUT = 2.0
"""Seconds a request waits for a lock or a pooled connection before the store gives up (``Busy``)."""

CONNECT_TIMEOUT = 10
"""Seconds to wait for PostgreSQL when the store opens (it is refused at once when it is down)."""

CHANNEL = "bordspel_games"
"""PostgreSQL's notification channel for changed games (``Connection.notify``)."""

POOL_SIZE = 10
"""PostgreSQL connections one process keeps at most (each web process has its own pool)."""

WORDS: dict[str, dict[str, str]] = {
    "sqlite": {"float": "REAL", "skip_locked": ""},
    "postgresql": {"float": "DOUBLE PRECISION", "skip_locked": "FOR UPDATE SKIP LOCKED"},
}
"""The SQL that differs between the two, by dialect: ``{name}`` in a query becomes the word."""


class Busy(BordspelError):
    """The database is locked by another writer; try again shortly."""


class Rows(Protocol):
    """What a query gives back (a DB-API cursor): its rows, and the rows a write changed."""

    rowcount: int

    def fetchone(self) -> Any:
        """The next row, or None."""

    def fetchall(self) -> list[Any]:
        """The rows that are left."""

    def __iter__(self) -> Iterator[Any]:
        """The rows, one by one."""


@lru_cache(maxsize=512)
def dialect_sql(dialect: str, sql: str) -> str:
    """``sql`` (``?`` placeholders, ``{word}``s) as the dialect's database reads it."""
    words = WORDS[dialect]
    sql = re.sub(r"\{(\w+)\}", lambda found: words.get(found[1], found[0]), sql)
    return sql.replace("%", "%%").replace("?", "%s") if dialect == "postgresql" else sql


class Connection:
    """A connection inside a transaction, speaking the store's SQL (``?``, ``{word}``)."""

    def __init__(self, raw: Any, dialect: str) -> None:
        self.raw = raw
        """The driver's own connection (sqlite3 or psycopg), for what only one of them has."""
        self.dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """Run one statement."""
        return cast(Rows, self.raw.execute(dialect_sql(self.dialect, sql), tuple(params)))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""
        if rows:
            self.raw.cursor().executemany(dialect_sql(self.dialect, sql), [tuple(row) for row in rows])

    def notify(self, payload: str) -> None:
        """Announce ``payload`` (a game's id) on ``CHANNEL`` when this transaction commits:
        PostgreSQL's ``NOTIFY``; nothing in SQLite, whose listeners watch the file instead
        (``bordspel.web.fanout``)."""
        if self.dialect == "postgresql":
            self.execute("SELECT pg_notify(?, ?)", (CHANNEL, payload))

    def lock(self, name: str) -> None:
        """Hold the lock ``name`` to the end of this write transaction (other holders wait).

        SQLite's write transactions run one at a time already; PostgreSQL takes an advisory lock.
        """
        if self.dialect == "postgresql":
            self.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (name,))


Step = str | Callable[[Connection], None]
"""One step of a migration: a statement, or a function for what SQL alone cannot do."""


class Database(ABC):
    """Where the store's tables live; connections come from :meth:`transaction`."""

    dialect: str
    """``sqlite`` or ``postgresql``: the key of ``WORDS``."""

    @abstractmethod
    def describe(self) -> str:
        """Where the data is, for people (a PostgreSQL URL without its password)."""

    @abstractmethod
    def _connection(self) -> Any:
        """A context manager giving a raw connection in autocommit mode."""

    @abstractmethod
    def _is_busy(self, error: Exception) -> bool:
        """Whether ``error`` means locked, overloaded or unreachable (try again later)."""

    @abstractmethod
    def _begin(self, write: bool) -> str:
        """The statement that starts a write transaction, or a read-only snapshot."""

    @abstractmethod
    def schema_version(self, connection: Connection) -> int:
        """The version of the schema stored (0 for an empty database)."""

    @abstractmethod
    def set_schema_version(self, connection: Connection, version: int) -> None:
        """Record that the schema is at ``version``."""

    @abstractmethod
    def close(self) -> None:
        """Let go of pooled connections (nothing for SQLite)."""

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back (nothing written) when it
        raises. ``write=False``: a consistent snapshot for reading only."""
        try:
            with self._connection() as raw:
                connection = Connection(raw, self.dialect)
                raw.execute(self._begin(write))
                try:
                    yield connection
                except BaseException:
                    raw.execute("ROLLBACK")
                    raise
                raw.execute("COMMIT")
        except Exception as error:
            if self._is_busy(error):
                raise Busy(f"the game store is busy; try again in a moment ({self.dialect})") from None
            raise


class SQLite(Database):
    """An SQLite file (WAL journal, foreign keys on, private to its owner): one process or several
    on one machine; a write transaction holds the file's write lock (``BEGIN IMMEDIATE``)."""

    dialect = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        os.chmod(self.path, 0o600)
        self._use_wal()

    def _use_wal(self) -> None:
        """Switch the file to the WAL journal. SQLite does not wait for the lock this takes
        (no busy timeout), so a new file opened by several processes at once (``serve --workers``
        and a worker starting together) tries again, for up to ``BUSY_TIMEOUT`` seconds."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                with self._connection() as raw:
                    raw.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if not self._is_busy(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def describe(self) -> str:
        return str(self.path)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        raw = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            raw.execute("PRAGMA foreign_keys = ON")
            raw.execute("PRAGMA synchronous = NORMAL")  # WAL: safe against crashes, fsync per checkpoint
            yield raw
        finally:
            raw.close()

    def _is_busy(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.OperationalError) and any(
            word in str(error) for word in ("locked", "busy")
        )

    def _begin(self, write: bool) -> str:
        return "BEGIN IMMEDIATE" if write else "BEGIN"

    def close(self) -> None:
        """Nothing to let go of: each transaction opens and closes its own connection."""

    def schema_version(self, connection: Connection) -> int:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])

    def set_schema_version(self, connection: Connection, version: int) -> None:
        connection.execute(f"PRAGMA user_version = {int(version)}")


class Postgres(Database):
    """A PostgreSQL database, through a pool of ``POOL_SIZE`` connections per process: many
    processes on many machines. Writes wait at most ``BUSY_TIMEOUT`` for a row lock. Each
    connection is checked (one round trip) as it leaves the pool, so a restart of the server
    costs no request."""

    dialect = "postgresql"

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise BordspelError(
                "a PostgreSQL store needs the postgres extra: pip install 'bordspel[postgres]'"
            ) from None
        self.url = url
        self._errors: type[Exception] = psycopg.OperationalError
        try:
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
        except psycopg.OperationalError as error:
            raise BordspelError(f"cannot reach PostgreSQL at {self.describe()}: {error}".strip()) from None
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            configure=_configure,
            check=ConnectionPool.check_connection,  # a connection a restart closed is replaced, not used
            timeout=BUSY_TIMEOUT,
            name="bordspel",
            open=True,
        )

    def describe(self) -> str:
        return hide_password(self.url)

    def _connection(self) -> Any:
        return self.pool.connection()

    def _is_busy(self, error: Exception) -> bool:
        return isinstance(error, self._errors)

    def _begin(self, write: bool) -> str:
        return "BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"

    def close(self) -> None:
        self.pool.close()

    def schema_version(self, connection: Connection) -> int:
        (exists,) = connection.execute("SELECT to_regclass('bordspel_schema') IS NOT NULL").fetchone()
        if not exists:
            return 0
        row = connection.execute("SELECT version FROM bordspel_schema").fetchone()
        return 0 if row is None else int(row[0])

    def set_schema_version(self, connection: Connection, version: int) -> None:
        connection.execute("CREATE TABLE IF NOT EXISTS bordspel_schema (version INTEGER NOT NULL)")
        connection.execute("DELETE FROM bordspel_schema")
        connection.execute("INSERT INTO bordspel_schema (version) VALUES (?)", (version,))


def _configure(raw: Any) -> None:
    """Each new PostgreSQL connection: a lock is waited for ``BUSY_TIMEOUT`` at most."""
    raw.execute(f"SET lock_timeout = {int(BUSY_TIMEOUT * 1000)}")


def hide_password(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def open_database(location: str | Path) -> Database:
    """The database at ``location``: a ``postgresql://`` (or ``postgres://``) URL, else an SQLite file."""
    text = str(location)
    if text.startswith(("postgresql://", "postgres://")):
        return Postgres(text)
    return SQLite(location)


def upgrade(db: Database, base: Sequence[str], migrations: Sequence[Sequence[Step]]) -> tuple[int, int]:
    """Bring ``db`` to the latest schema: ``base`` (the first schema) on an empty database, then
    ``migrations[n]`` for each version n from the stored one. Returns (version before, after)."""
    latest = len(migrations)
    with db.transaction() as connection:
        connection.lock("bordspel schema")  # processes starting together migrate one at a time
        before = db.schema_version(connection)
        if before > latest:
            raise BordspelError(
                f"{db.describe()} comes from a newer bordspel (schema {before} > {latest}): upgrade bordspel"
            )
        for statement in base if before == 0 else ():
            connection.execute(statement)
        for migration in migrations[before:]:
            for step in migration:
                step(connection) if callable(step) else connection.execute(step)
        if before < latest:
            db.set_schema_version(connection, latest)
    return before, latest


def schema_status(db: Database, latest: int) -> str:
    """One line: where the data is and its schema version against ``latest``."""
    with db.transaction(write=False) as connection:
        version = db.schema_version(connection)
    state = "up to date" if version == latest else "behind: run bordspel db upgrade"
    if version > latest:
        state = "from a newer bordspel"
    return f"{db.describe()}: schema {version} of {latest} ({state})"
