"""Stored games in SQLite (standard library only): every game and move, one transaction a move.

A game row holds its registered game name, its start position string and who plays each seat;
move rows hold the moves in order. A move is checked by the engine before it is stored, and the
caller names the ply it saw: when another move landed first, nothing is written (``Conflict``).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bordspel.core import BordspelError, game_class
from bordspel.record import Game

__all__ = ["Conflict", "GameStore", "NotFound", "StoredGame", "default_db_path"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    seats TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""


class NotFound(BordspelError):
    """No game has that id."""


class Conflict(BordspelError):
    """The game moved on since the caller looked (another move or undo landed first)."""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/bordspel/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "bordspel" / "games.sqlite3"


@dataclass
class StoredGame:
    id: str
    seats: list[str]
    """Per seat: ``human`` or an AI player specification (a level such as ``hard``)."""
    game: Game

    @property
    def ply(self) -> int:
        return len(self.game.moves)


class GameStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: other writers wait, and a failure writes nothing."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def create(self, name: str, options: dict[str, Any], seats: list[str]) -> StoredGame:
        start = game_class(name).initial(**options)
        if len(seats) != start.num_players:
            raise BordspelError(f"{name} with these options has {start.num_players} seats, not {len(seats)}")
        game_id = secrets.token_urlsafe(8)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, game, start, seats, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, start.name, start.to_str(), json.dumps(seats), time.time()),
            )
        return StoredGame(game_id, seats, Game(start))

    def load(self, game_id: str) -> StoredGame:
        with self._connect() as db:
            return self._load(db, game_id)

    def _load(self, db: sqlite3.Connection, game_id: str) -> StoredGame:
        row = db.execute("SELECT game, start, seats FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        name, start, seats = row
        game = Game(game_class(name).from_str(start))
        for (move,) in db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)):
            game.play(move)
        return StoredGame(game_id, json.loads(seats), game)

    def play(self, game_id: str, ply: int, move: str) -> StoredGame:
        """Check and store ``move`` as move number ``ply + 1``; refuses if the game moved on."""
        with self._transaction() as db:
            stored = self._load(db, game_id)
            if ply != stored.ply:
                raise Conflict(f"the game is at move {stored.ply}, not {ply}: another move came first")
            played = stored.game.play(move)
            db.execute(
                "INSERT INTO moves (game_id, ply, move, created) VALUES (?, ?, ?, ?)",
                (game_id, ply, played.to_str(), time.time()),
            )
        return stored

    def undo(self, game_id: str, ply: int, to_ply: int) -> StoredGame:
        """Take back the moves after ``to_ply`` (the caller saw the game at ``ply``)."""
        with self._transaction() as db:
            stored = self._load(db, game_id)
            if ply != stored.ply:
                raise Conflict(f"the game is at move {stored.ply}, not {ply}: another move came first")
            if not 0 <= to_ply <= stored.ply:
                raise BordspelError(f"cannot take back to move {to_ply} of {stored.ply}")
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, to_ply))
            while stored.ply > to_ply:
                stored.game.undo()
        return stored
