"""Santorini in bulk: random games by the batch and perft, compiled when the extension is built.

:func:`random_games` plays uniformly random games from a position. With a seed it is
reproducible, and the compiled module (``bordspel._native.santorini_core``) and the pure-Python
reference :func:`pure_random_games` play the very same games: both draw from SplitMix64 and
play the ``k``-th legal move (in ``legal_moves`` order) for ``k`` drawn below the move count.
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

from bordspel._native import load
from bordspel.core import BordspelError
from bordspel.games.santorini.engine import SantoriniState

__all__ = ["RandomGames", "SplitMix64", "compiled", "pure_random_games", "random_games"]

_CORE = load("santorini_core")
_MASK64 = (1 << 64) - 1


class RandomGames(NamedTuple):
    """What a batch of random games ended in."""

    winners: list[frozenset[int]]
    """The winning seats of each game, in the order played."""
    plies: int
    """The moves played in all the games together."""


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood), as the compiled module has it."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` from the top 32 bits of the next draw."""
        return ((self.next() >> 32) * n) >> 32


def random_games(state: SantoriniState, n: int, seed: int | None = None) -> RandomGames:
    """Play ``n`` uniformly random games from ``state`` to the end (compiled when built)."""
    if n < 0:
        raise BordspelError(f"the number of games must be 0 or more, not {n}")
    seed = secrets.randbits(64) if seed is None else seed & _MASK64
    if _CORE is None or state.powers is not None:  # the compiled module knows no god powers
        return pure_random_games(state, n, seed)
    masks, plies = _CORE.random_games(state, n, seed)
    seats = {mask: _seats(mask) for mask in set(masks)}
    return RandomGames([seats[mask] for mask in masks], int(plies))


def pure_random_games(state: SantoriniState, n: int, seed: int) -> RandomGames:
    """The pure-Python reference of :func:`random_games`: the same games for the same seed."""
    rng = SplitMix64(seed)
    winners: list[frozenset[int]] = []
    plies = 0
    for _ in range(n):
        game = state
        while game.winners is None:
            moves = game.legal_moves()
            game = game.apply_unchecked(moves[rng.below(len(moves))])
            plies += 1
        winners.append(game.winners)
    return RandomGames(winners, plies)


def compiled() -> bool:
    """Whether the compiled module is in use (built, and ``BORDSPEL_PURE`` not set)."""
    return _CORE is not None


def _seats(mask: int) -> frozenset[int]:
    return frozenset(seat for seat in range(4) if mask >> seat & 1)
