"""A player's profile: their ratings per pool with each rated game's change, and their games.

The result of each finished game is kept in its row (``games.winners``, written by
:func:`record_winners` in the transaction that ends the game), so the list of a player's games
needs no replay. The list is the latest ``GAMES_SHOWN`` games.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Any

from bordspel.web.accounts import Account
from bordspel.web.actions import outcome
from bordspel.web.db import Connection
from bordspel.web.graphs import queue_graph
from bordspel.web.ratings import MU, PUZZLE_POOL, Rating, update_ratings
from bordspel.web.store import GameStore, StoredGame

__all__ = ["GAMES_SHOWN", "keep_results", "player_view", "record_winners", "result_of"]

GAMES_SHOWN = 200


def record_winners(db: Connection, stored: StoredGame) -> None:
    """Keep the winning seats of a game that just ended (``GameStore.on_end``), whether it was
    aborted, and when it ended."""
    ended = outcome(stored)
    if ended is not None:
        db.execute(
            "UPDATE games SET winners = ?, aborted = ?, ended = ? WHERE id = ?",
            (json.dumps(sorted(ended.winners)), int(stored.aborted()), time.time(), stored.id),
        )


def keep_results(store: GameStore) -> GameStore:
    """``store``, doing in the transaction that ends a game what accounts need: its winners
    kept, a rated game rated, and its evaluation graph queued (every process that changes
    games: the app and the workers)."""
    store.on_end.extend((record_winners, update_ratings, queue_graph))
    return store


def player_view(store: GameStore, account: Account) -> dict[str, Any]:
    """``username``, ``ratings`` per pool (``rating``, ``deviation``, ``games``, ``provisional``
    and ``history``: the rating after each rated game, or each rated puzzle in the pool
    ``puzzles``) and ``games``, the latest first."""
    with store.db.transaction(write=False) as db:
        return {"username": account.username, "ratings": _ratings(db, account), "games": _games(db, account)}


def _ratings(db: Connection, account: Account) -> dict[str, Any]:
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    query = "SELECT pool, game_id, mu, created FROM rating_changes WHERE account_id = ? ORDER BY created"
    for pool, game_id, mu, created in db.execute(query, (account.id,)).fetchall():
        history[pool].append({"game": game_id, "rating": round(mu), "time": created})
    history[PUZZLE_POOL] = _puzzle_history(db, account)
    query = "SELECT pool, mu, sigma, games FROM ratings WHERE account_id = ? ORDER BY pool"
    return {
        pool: {**Rating(mu, sigma, games).view(), "history": history[pool]}
        for pool, mu, sigma, games in db.execute(query, (account.id,)).fetchall()
    }


def _puzzle_history(db: Connection, account: Account) -> list[dict[str, Any]]:
    """The puzzle rating after each rated attempt: each attempt keeps its change from the one before."""
    query = "SELECT puzzle_id, delta, created FROM puzzle_attempts WHERE account_id = ? ORDER BY created"
    history, rating = [], MU
    for puzzle_id, delta, created in db.execute(query, (account.id,)).fetchall():
        rating += float(delta)
        history.append({"puzzle": puzzle_id, "rating": round(rating), "time": created})
    return history


def _games(db: Connection, account: Account) -> list[dict[str, Any]]:
    query = (
        "SELECT games.id, games.game, games.created, games.rated, games.seats, games.winners, games.aborted,"
        " seats.seat "
        "FROM seats JOIN games ON games.id = seats.game_id WHERE seats.account_id = ? "
        "ORDER BY games.created DESC LIMIT ?"
    )
    rows = db.execute(query, (account.id, GAMES_SHOWN)).fetchall()
    players = _players(db, [row[0] for row in rows])
    games: dict[str, dict[str, Any]] = {}
    for game_id, game, created, rated, seats, winners, aborted, seat in rows:
        if game_id in games:  # one account in several seats (a game at one keyboard)
            continue
        won = None if winners is None else json.loads(winners)
        games[game_id] = {
            "id": game_id,
            "game": game,
            "created": created,
            "rated": bool(rated),
            "seats": json.loads(seats),
            "players": players[game_id],
            "you": seat,
            "result": "aborted" if aborted else result_of(won, seat),
        }
    return list(games.values())


def result_of(winners: list[int] | None, seat: int) -> str:
    """``win``, ``loss``, ``draw`` or ``ongoing`` (no ``winners`` yet) for the player in ``seat``."""
    if winners is None:
        return "ongoing"
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def _players(db: Connection, game_ids: list[str]) -> dict[str, list[str | None]]:
    """The username in each seat of each game (None: anonymous or the computer)."""
    found: dict[str, list[str | None]] = defaultdict(list)
    for start in range(0, len(game_ids), 100):
        chunk = game_ids[start : start + 100]
        marks = ", ".join("?" * len(chunk))
        query = (
            "SELECT game_id, username FROM seats LEFT JOIN accounts ON accounts.id = seats.account_id "
            f"WHERE game_id IN ({marks}) ORDER BY game_id, seat"
        )
        for game_id, username in db.execute(query, chunk).fetchall():
            found[game_id].append(username)
    return found
