"""What an account is told wherever it is on the site: its games, and in which it is to move.

``GET /api/notices`` streams a snapshot of the account's games (``account_games``) whenever it
changes: its games in progress and those that ended in the last ``RECENT`` seconds, the newest
``SHOWN``, each with whether it is the account's move, a takeback asked by another player, a
rematch waiting for the account's seat, and the result once over. A page compares each snapshot
with the one before: a new game is a challenge accepted (or a rematch offered), a game whose
``your_move`` turned true is the account's move, a game that turned ``over`` has ended. The
stream wakes when one of these games changes, in any process (``bordspel.web.fanout``), or the
lobby does (a challenge accepted starts a game), and looks again every few seconds anyway.
"""

from __future__ import annotations

import time
from typing import Any

from bordspel.core import Outcome
from bordspel.web.actions import ABORTED, outcome
from bordspel.web.db import Connection
from bordspel.web.lobby import LOBBY
from bordspel.web.profiles import result_of
from bordspel.web.seats import HUMAN
from bordspel.web.store import UNCLAIMED, GameStore, NotFound, StoredGame
from bordspel.web.views import game_titles

__all__ = ["RECENT", "SHOWN", "NoticeReader", "notice_keys"]

SHOWN = 20
"""Games a snapshot holds at most (the newest)."""
RECENT = 3600.0
"""Seconds a finished game stays in the snapshots (so that its end is told)."""


class NoticeReader:
    """The snapshots of one account's stream; a game is read again only when its version changed."""

    def __init__(self, store: GameStore, account: str) -> None:
        self.store, self.account = store, account
        self._seen: dict[str, tuple[int, dict[str, Any]]] = {}

    def snapshot(self) -> dict[str, Any]:
        """``games``: the account's games in progress and recently ended, newest first."""
        with self.store.db.transaction(write=False) as db:
            rows = _recent_games(db, self.account, time.time() - RECENT)
        games = []
        for game_id, version, seat, unclaimed in rows:
            entry = self._entry(game_id, int(version), int(seat))
            if entry is not None:
                games.append({**entry, "rematch_offer": bool(unclaimed)})
        self._seen = {game["id"]: self._seen[game["id"]] for game in games}
        return {"games": games}

    def _entry(self, game_id: str, version: int, seat: int) -> dict[str, Any] | None:
        kept = self._seen.get(game_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        try:
            stored = self.store.load(game_id)
        except NotFound:
            return None
        entry = _entry(stored, seat)
        self._seen[game_id] = (stored.version, entry)
        return entry


def _recent_games(db: Connection, account: str, since: float) -> list[tuple[Any, ...]]:
    query = (
        "SELECT games.id, games.version, seats.seat, seats.token_hash LIKE ? FROM seats"
        " JOIN games ON games.id = seats.game_id"
        " WHERE seats.account_id = ? AND (games.over = 0 OR games.ended > ?)"
        " ORDER BY games.created DESC LIMIT ?"
    )
    rows = db.execute(query, (f"{UNCLAIMED}%", account, since, SHOWN * 2)).fetchall()
    unique: dict[str, tuple[Any, ...]] = {}
    for row in rows:  # one account in several seats: the first
        unique.setdefault(row[0], row)
    return list(unique.values())[:SHOWN]


def _entry(stored: StoredGame, seat: int) -> dict[str, Any]:
    """One game as the snapshot tells it to the player in ``seat``."""
    ended = outcome(stored)
    over = ended is not None
    return {
        "id": stored.id,
        "game": stored.state.name,
        "title": game_titles(stored.state.name),
        "version": stored.version,
        "you": seat,
        "opponents": [name for other, name in enumerate(stored.players) if other != seat and name],
        "your_move": not over and stored.state.to_move == seat and stored.seats[seat] == HUMAN,
        "takeback": stored.takeback is not None and stored.takeback != seat,
        "over": over,
        "result": None if ended is None else _result(ended, seat),
    }


def _result(ended: Outcome, seat: int) -> str:
    return "aborted" if ended.termination == ABORTED else result_of(sorted(ended.winners), seat)


def notice_keys(snapshot: dict[str, Any]) -> frozenset[str]:
    """What a stream listens to: the snapshot's games, and the lobby (where games start)."""
    return frozenset({LOBBY, *(game["id"] for game in snapshot["games"])})
