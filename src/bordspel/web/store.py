"""Stored games in SQLite (standard library only): every game and move, one transaction a change.

A game row holds its registered game name, its start position string, who plays each seat, a
version that every change increments, a pending takeback request and a resignation; move rows
hold the moves in order with the version of their notation; seat rows hold a hash of each seat's
secret token. A change is checked against the version the caller saw: when another change landed
first, nothing is written (``Conflict``).

The schema's version is ``PRAGMA user_version``: 0 is the first release's schema, and
``MIGRATIONS`` bring any older file up to date when it is opened.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bordspel.ai import LEVELS
from bordspel.core import BordspelError, State, game_class
from bordspel.record import Game

__all__ = [
    "NOTATION",
    "Busy",
    "Conflict",
    "Forbidden",
    "GameStore",
    "NotFound",
    "StoredGame",
    "TooMany",
    "creator_hash",
    "default_db_path",
]

NOTATION = 1
"""The version of the move notation written with each stored move."""

BUSY_TIMEOUT = 2.0
"""Seconds a write waits for another writer before the store gives up (``Busy``)."""

SCHEMA_V0 = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        start TEXT NOT NULL,
        seats TEXT NOT NULL,
        created REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
)


class NotFound(BordspelError):
    """No game has that id."""


class Conflict(BordspelError):
    """The game moved on since the caller looked (another change landed first)."""


class Forbidden(BordspelError):
    """The caller does not hold the seat the request needs."""


class Busy(BordspelError):
    """The database is locked by another writer; try again shortly."""


class TooMany(BordspelError):
    """A limit on how often one address may do something was reached (429)."""


def creator_hash(address: str) -> str:
    """What the store keeps of a creator's address: a hash, enough to count its games."""
    return hashlib.sha256(f"bordspel creator {address}".encode()).hexdigest()[:24] if address else ""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/bordspel/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "bordspel" / "games.sqlite3"


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class StoredGame:
    """A game as stored: its seats, record, version, takeback request and resignation."""

    id: str
    seats: list[str]
    """Per seat: ``human`` or a level of the computer (``easy``, ``hard``, ...)."""
    game: Game
    version: int = 0
    """Incremented by every change: move, undo, takeback request or answer, resignation."""
    takeback: int | None = None
    """The seat that asks to take back its last move, if any."""
    resigned: int | None = None
    """The seat that resigned, if any."""

    @property
    def ply(self) -> int:
        """The number of moves played."""
        return len(self.game.moves)

    @property
    def state(self) -> State:
        """The current position."""
        return self.game.state

    def is_over(self) -> bool:
        """Whether the game has ended, by the rules or by resignation."""
        return self.resigned is not None or self.game.state.is_over()


Edit = Callable[[StoredGame, "int | None"], None]
"""A change to a loaded game, given the seat of the caller's token (None: no token)."""


def _migrate_0_to_1(db: sqlite3.Connection) -> None:
    """Versions, takebacks, resignations, seat tokens and notation versions; named levels only."""
    for statement in (
        "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN takeback INTEGER",
        "ALTER TABLE games ADD COLUMN resigned INTEGER",
        f"ALTER TABLE moves ADD COLUMN notation INTEGER NOT NULL DEFAULT {NOTATION}",
        """CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            PRIMARY KEY (game_id, seat)
        )""",
        "UPDATE games SET version = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)",
    ):
        db.execute(statement)
    for game_id, seats in db.execute("SELECT id, seats FROM games").fetchall():
        db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(_named_seats(seats)), game_id))


def _named_seats(seats: str) -> list[str]:
    """The first release stored any player text; what is not a plain level becomes ``medium``."""
    return [seat if seat in ("human", *LEVELS) else "medium" for seat in json.loads(seats)]


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """Who created each game (a hash of the address), for the limit on new games."""
    db.execute("ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE INDEX games_by_creator ON games (creator, created)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_migrate_0_to_1, _migrate_1_to_2)
"""``MIGRATIONS[n]`` takes a database from ``user_version`` n to n + 1."""

LATEST = len(MIGRATIONS)


class GameStore:
    """Games and their moves in an SQLite file, each change in one transaction."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        os.chmod(self.path, 0o600)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode = WAL")
            self._migrate(db)

    def _migrate(self, db: sqlite3.Connection) -> None:
        with _transaction(db):
            for statement in SCHEMA_V0:
                db.execute(statement)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > LATEST:
                raise BordspelError(f"{self.path} comes from a newer bordspel (schema {version} > {LATEST})")
            for migrate in MIGRATIONS[version:]:
                migrate(db)
            db.execute(f"PRAGMA user_version = {LATEST}")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = NORMAL")  # WAL: safe against crashes, fsync per checkpoint
            yield db
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise Busy("the game store is busy; try again in a moment") from None
            raise
        finally:
            db.close()

    # -- reading -----------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame:
        """The stored game ``game_id`` (NotFound if there is none)."""
        with self._connect() as db:
            return self._load(db, game_id)

    def version(self, game_id: str) -> int:
        """The game's version (cheap: no replay)."""
        with self._connect() as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        return int(row[0])

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat whose token this is (None without a token); Forbidden for a wrong token."""
        with self._connect() as db:
            return _seat_of(db, game_id, token)

    def _load(self, db: sqlite3.Connection, game_id: str) -> StoredGame:
        row = db.execute(
            "SELECT game, start, seats, version, takeback, resigned FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        name, start, seats, version, takeback, resigned = row
        game = Game(game_class(name).from_str(start))
        query = "SELECT move, notation FROM moves WHERE game_id = ? ORDER BY ply"
        for move, notation in db.execute(query, (game_id,)):
            if notation > NOTATION:
                raise BordspelError(f"game {game_id} has moves in a newer notation ({notation})")
            game.play(move)
        return StoredGame(game_id, json.loads(seats), game, version, takeback, resigned)

    # -- writing -----------------------------------------------------------------------------
    def create(
        self, start: State, seats: list[str], creator: str = "", per_minute: int | None = None
    ) -> tuple[StoredGame, list[str]]:
        """A new game from ``start``, and a fresh secret token for each seat. With ``per_minute``,
        ``TooMany`` when ``creator`` (an address) made that many games in the last minute: the
        count is in the store, so it holds for every process that serves it."""
        game_id = secrets.token_urlsafe(8)
        tokens = [secrets.token_urlsafe(18) for _ in seats]
        who, now = creator_hash(creator), time.time()
        with self._connect() as db, _transaction(db):
            if per_minute is not None:
                query = "SELECT COUNT(*) FROM games WHERE creator = ? AND created > ?"
                (recent,) = db.execute(query, (who, now - 60)).fetchone()
                if recent >= per_minute:
                    raise TooMany(f"at most {per_minute} new games a minute from one address: wait a minute")
            db.execute(
                "INSERT INTO games (id, game, start, seats, created, creator) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, start.name, start.to_str(), json.dumps(seats), now, who),
            )
            db.executemany(
                "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?)",
                [(game_id, seat, token_hash(token)) for seat, token in enumerate(tokens)],
            )
        return StoredGame(game_id, seats, Game(start)), tokens

    def change(self, game_id: str, version: int, token: str | None, edit: Edit) -> StoredGame:
        """Apply ``edit`` to the game the caller saw at ``version``.

        The game is read and edited outside the write lock; the write transaction only checks
        that the version is still the one read, so writers hold the lock for microseconds.
        """
        with self._connect() as db:
            with _transaction(db, "BEGIN"):  # one consistent snapshot of the game and its moves
                stored = self._load(db, game_id)
                seat = _seat_of(db, game_id, token)
            _same_version(stored.version, version)
            before = stored.ply
            edit(stored, seat)
            stored.version += 1
            with _transaction(db):
                (current,) = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
                _same_version(current, version)
                self._write(db, stored, min(before, stored.ply))
        return stored

    def _write(self, db: sqlite3.Connection, stored: StoredGame, kept: int) -> None:
        """Store the game's row and its moves after the first ``kept`` (which did not change)."""
        db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (stored.id, kept))
        db.executemany(
            "INSERT INTO moves (game_id, ply, move, created, notation) VALUES (?, ?, ?, ?, ?)",
            [
                (stored.id, ply, move.to_str(), time.time(), NOTATION)
                for ply, move in enumerate(stored.game.moves[kept:], kept)
            ],
        )
        db.execute(
            "UPDATE games SET version = ?, takeback = ?, resigned = ? WHERE id = ?",
            (stored.version, stored.takeback, stored.resigned, stored.id),
        )


def _same_version(current: int, seen: int) -> None:
    if current != seen:
        raise Conflict(f"the game is at version {current}, not {seen}: it changed since")


def _seat_of(db: sqlite3.Connection, game_id: str, token: str | None) -> int | None:
    if token is None:
        return None
    row = db.execute(
        "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?", (game_id, token_hash(token))
    ).fetchone()
    if row is None:
        raise Forbidden("this link does not hold a seat of this game")
    return int(row[0])


@contextmanager
def _transaction(db: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> Iterator[None]:
    """One transaction (by default a write: other writers wait briefly); a failure writes nothing."""
    db.execute(begin)
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
