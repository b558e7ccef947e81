"""Ratings of accounts, one per pool (a game and its variant), updated once per rated game.

A game's pool comes from its options through the registry (the game's ``rating_pool`` part:
``hermit-small``, ``santorini-3p-gods``, ``quarto-advanced``; the game's name when it has none).
Ratings are OpenSkill's Plackett-Luce model (``openskill``), which rates two players, several
players and teams alike; its defaults scaled by 60 (``mu`` 1500, ``sigma`` 500, ``beta`` 250,
``tau`` 5), so that numbers read like the familiar 1500-based ones. The rating shown is ``mu``.

The update runs in the transaction of the change that ends the game (``GameStore.on_end``),
so it happens exactly once, for a win, a draw, a resignation or a flag fall alike; each account's
change is kept by game id (``rating_changes``), which makes a second update of a game a no-op.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from bordspel.core import BordspelError, Part, State, game_part
from bordspel.web.actions import outcome, team
from bordspel.web.db import Connection
from bordspel.web.lobby import Challenge
from bordspel.web.options import start_state
from bordspel.web.store import GameStore, StoredGame

__all__ = [
    "COMPUTER_RATINGS_PART",
    "MU",
    "PUZZLE_POOL",
    "RATING_POOL_PART",
    "SIGMA",
    "Rating",
    "challenge_ratings",
    "computer_ratings",
    "model",
    "pool_of",
    "rating_view",
    "update_ratings",
]

MU = 1500.0
PUZZLE_POOL = "puzzles"
"""The pool of the puzzle ratings (``bordspel.web.puzzles``), beside the games' pools."""
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
PROVISIONAL = 200.0
"""A rating whose ``sigma`` is above this is provisional (shown with a ``?``)."""


class RatingPool(Protocol):
    """A game's ``rating_pool(state) -> str``."""

    def __call__(self, state: Any, /) -> str: ...


RATING_POOL_PART: Part[RatingPool] = Part("rating_pool", "a function rating_pool(state) -> str", callable)
COMPUTER_RATINGS_PART: Part[Mapping[str, int]] = Part(
    "computer_ratings", "a mapping of levels to ratings", lambda found: isinstance(found, Mapping)
)


@dataclass(frozen=True)
class Rating:
    """An account's rating in one pool: OpenSkill's ``mu`` and ``sigma``, and its rated games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    def view(self) -> dict[str, Any]:
        """As the profile shows it: ``rating`` (``mu``, rounded), ``deviation``, ``games``,
        ``provisional``."""
        return {
            "rating": round(self.mu),
            "deviation": round(self.sigma),
            "games": self.games,
            "provisional": self.sigma > PROVISIONAL,
        }

    def shown(self) -> dict[str, Any]:
        """As a game and the lobby show it next to a name: ``rating`` and ``provisional``."""
        return {"rating": round(self.mu), "provisional": self.sigma > PROVISIONAL}


@cache
def model() -> Any:
    """OpenSkill's Plackett-Luce model with the parameters above (imported on first use)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def pool_of(state: State) -> str:
    """The rating pool of a game with the options of ``state``."""
    found = game_part(state.name, RATING_POOL_PART)
    return state.name if found is None else found(state)


def computer_ratings(game: str) -> dict[str, int]:
    """The fixed ratings of the computer's levels in ``game`` (empty when not measured)."""
    found = game_part(game, COMPUTER_RATINGS_PART)
    return {} if found is None else {level: int(rating) for level, rating in found.items()}


def _rating(db: Connection, account: str, pool: str) -> Rating:
    query = "SELECT mu, sigma, games FROM ratings WHERE account_id = ? AND pool = ?"
    row = db.execute(query, (account, pool)).fetchone()
    return Rating() if row is None else Rating(float(row[0]), float(row[1]), int(row[2]))


def _teams(stored: StoredGame) -> list[list[int]]:
    """The seats grouped by team (one seat a team but in team games), in seat order."""
    teams: list[list[int]] = []
    for seat in range(len(stored.seats)):
        if not any(seat in found for found in teams):
            teams.append(sorted(team(stored, seat)))
    return teams


def update_ratings(db: Connection, stored: StoredGame) -> None:
    """The ratings after a rated game that just ended (``GameStore.on_end``): winners rank
    first, everyone else shares second, a draw ranks all first; an aborted game changes nothing.
    Once per game id."""
    ended = outcome(stored)
    if not stored.rated or ended is None or stored.aborted():
        return
    if db.execute("SELECT 1 FROM rating_changes WHERE game_id = ?", (stored.id,)).fetchone():
        return
    accounts = dict(
        db.execute("SELECT seat, account_id FROM seats WHERE game_id = ?", (stored.id,)).fetchall()
    )
    pool, teams = pool_of(stored.game.states[0]), _teams(stored)
    db.lock(f"ratings {pool}")  # PostgreSQL: two games of the pool that end at once rate one by one
    before = [[_rating(db, accounts[seat], pool) for seat in group] for group in teams]
    ranks = [1 if ended.is_draw or ended.winners & set(group) else 2 for group in teams]
    rated = model().rate(
        [[model().rating(mu=r.mu, sigma=r.sigma) for r in group] for group in before], ranks=ranks
    )
    now = time.time()
    for group, old_group, new_group in zip(teams, before, rated):
        for seat, old, new in zip(group, old_group, new_group):
            _store(db, accounts[seat], pool, Rating(new.mu, new.sigma, old.games + 1))
            db.execute(
                "INSERT INTO rating_changes (game_id, account_id, pool, mu, sigma, created, delta) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (stored.id, accounts[seat], pool, new.mu, new.sigma, now, new.mu - old.mu),
            )


def rating_view(store: GameStore, stored: StoredGame) -> dict[str, Any]:
    """A rated game's ``ratings`` (per seat: its account's ``rating`` in the game's pool now and
    whether it is ``provisional``) and ``rating_changes`` (per seat: the rounded change this game
    made, or None for all while it goes on or when it was aborted)."""
    pool = pool_of(stored.game.states[0])
    with store.db.transaction(write=False) as db:
        query = "SELECT account_id FROM seats WHERE game_id = ? ORDER BY seat"
        accounts = [account for (account,) in db.execute(query, (stored.id,)).fetchall()]
        ratings = [_rating(db, account, pool) for account in accounts]
        query = "SELECT account_id, delta FROM rating_changes WHERE game_id = ?"
        deltas = dict(db.execute(query, (stored.id,)).fetchall())
    return {
        "ratings": [rating.shown() for rating in ratings],
        "rating_changes": [_rounded(deltas.get(account)) for account in accounts] if deltas else None,
    }


def challenge_ratings(
    store: GameStore, challenges: list[Challenge]
) -> dict[str, list[dict[str, Any] | None]]:
    """Per rated challenge, the rating of each player seated at it in the challenge's pool
    (None: a player without an account)."""
    pools = {found.id: pool for found in challenges if found.rated and (pool := _pool(found))}
    with store.db.transaction(write=False) as db:
        return {
            found.id: [_shown(db, name, pools[found.id]) for name in found.players]
            for found in challenges
            if found.id in pools
        }


def _shown(db: Connection, username: str | None, pool: str) -> dict[str, Any] | None:
    return None if username is None else _rating_of(db, username, pool).shown()


def _pool(challenge: Challenge) -> str | None:
    """The challenge's pool (None for a game this server no longer has)."""
    try:
        return pool_of(start_state(challenge.game, challenge.options))
    except BordspelError:
        return None


def _rating_of(db: Connection, username: str, pool: str) -> Rating:
    row = db.execute("SELECT id FROM accounts WHERE username = ?", (username,)).fetchone()
    return Rating() if row is None else _rating(db, str(row[0]), pool)


def _rounded(delta: float | None) -> int | None:
    return None if delta is None else round(delta)


def _store(db: Connection, account: str, pool: str, rating: Rating) -> None:
    db.execute(
        "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (account_id, pool) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
        (account, pool, rating.mu, rating.sigma, rating.games),
    )
