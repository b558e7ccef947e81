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

from bordspel.core import Part, State, game_part
from bordspel.web.actions import outcome, team
from bordspel.web.db import Connection
from bordspel.web.store import StoredGame

__all__ = [
    "COMPUTER_RATINGS_PART",
    "MU",
    "RATING_POOL_PART",
    "SIGMA",
    "Rating",
    "computer_ratings",
    "model",
    "pool_of",
    "update_ratings",
]

MU = 1500.0
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
    first, everyone else shares second, a draw ranks all first. Once per game id."""
    ended = outcome(stored)
    if not stored.rated or ended is None:
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
                "INSERT INTO rating_changes (game_id, account_id, pool, mu, sigma, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (stored.id, accounts[seat], pool, new.mu, new.sigma, now),
            )


def _store(db: Connection, account: str, pool: str, rating: Rating) -> None:
    db.execute(
        "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (account_id, pool) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
        (account, pool, rating.mu, rating.sigma, rating.games),
    )
