# cython: boundscheck=True, wraparound=True, annotation_typing=False
"""Random games and perft with gods on the walk's packed records, without turn objects.

A :class:`Spot` is a position as the turn generator reads it (its ``Position``): the board as
the walk leaves it, the memos, Athena's seats, the seat to move, who is out and who won. The
children of a spot are the distinct outcomes the walk writes (:func:`outcomes`, in the order of
the engine's legal turns), and :func:`child` plays one: the next seat, and the engine's rule
for a seat left without a turn. No turn or engine position is built along the way, and every
power is the one of ``gods.py`` (the generator runs it), so :func:`perft` and
:func:`random_outcomes` count and play what ``SantoriniState`` does
(``tests/test_santorini_gods_play.py`` holds them together).

The module is plain Python, the reference; ``pip install .`` also compiles it with Cython
(``gods_play.pxd`` gives the C types) as ``bordspel._native.santorini_gods_play``.
"""

from __future__ import annotations

import random
from typing import Any

from bordspel._native import twin
from bordspel.games.santorini import generator as reference_generator
from bordspel.games.santorini.generator import Powers

__all__ = ["Spot", "child", "outcomes", "perft", "random_outcomes", "settled", "spot_of"]

generator: Any = twin("santorini_generator", reference_generator)
"""The turn generator: ``generator.py`` compiled by ``pip install .``, else itself."""


class Spot:
    """A position with gods after the setup, made from packed records: what the generator reads."""

    def __init__(
        self,
        players: int,
        levels: tuple[int, int, int, int],
        workers: tuple[int, ...],
        supply: tuple[int, int, int, int] | None,
        turn: int,
        out: int,
        winners: frozenset[int] | None,
        powers: Powers | None,
    ) -> None:
        self.players = players
        self.levels = levels
        self.workers = workers
        self.supply = supply
        self.turn = turn
        self.out = out
        self.winners = winners
        self.powers = powers

    @property
    def colours(self) -> int:
        """The number of worker colours."""
        return 2 if self.players == 4 else self.players

    def team(self, seat: int) -> frozenset[int]:
        """The seats that move ``seat``'s workers."""
        colours = self.colours
        return frozenset([s for s in range(self.players) if s % colours == seat % colours])

    def fields(self) -> tuple[Any, ...]:
        """What the spot holds, as ``SantoriniState._make`` takes it."""
        return (
            self.players,
            self.levels,
            self.workers,
            self.turn,
            self.supply,
            self.out,
            self.winners,
            self.powers,
        )

    def __hash__(self) -> int:
        return hash(self.fields())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spot) and self.fields() == other.fields()


def spot_of(state: Any) -> Spot:
    """The spot of an engine position with gods (``SantoriniState``) after the setup."""
    return Spot(
        state.players,
        state.levels,
        state.workers,
        state.supply,
        state.turn,
        state.out,
        state.winners,
        state.powers,
    )


def outcomes(spot: Spot) -> list[Any]:
    """The outcomes of the legal turns of the player to move, as the generator writes them (the
    packed board, the memos, Athena's seats, the winners), in the order of the engine's legal
    turns (``generator.table``): a turn is the line of fewest actions to its outcome (the first
    generated of those), in the order the walk first reaches the outcomes; where two outcomes
    are reached by the same actions, the turn stays in the first one's place and leads to the
    last one, as in the engine's table of turns."""
    walk, memos, played, lines = generator.walked(spot)
    outcome = generator.outcomes_of(spot, walk, memos, played)
    by_key: dict[Any, int] = {}
    keys: list[Any] = []
    kept: list[tuple[int, ...]] = []
    for line in lines:
        key = outcome(line)
        known = by_key.get(key)
        if known is None:
            by_key[key] = len(keys)
            keys.append(key)
            kept.append(line[0])
        elif len(line[0]) < len(kept[known]):
            kept[known] = line[0]
    by_turn: dict[tuple[int, ...], int] = {}
    found: list[Any] = []
    for key, actions in zip(keys, kept):
        known = by_turn.get(actions)
        if known is None:
            by_turn[actions] = len(found)
            found.append(key)
        else:
            found[known] = key
    return found


def child(spot: Spot, outcome: Any) -> Spot:
    """The position a turn's ``outcome`` leads to, with the next seat in the game to move (not
    yet settled: :func:`settled` finds whether that seat has a turn as it walks it)."""
    packed, memos, up, winners = outcome
    g1, g2, g3, dome, workers, supply = packed
    powers = spot.powers
    assert powers is not None, "a spot has gods"
    if memos != powers.memos or up != powers.up:
        powers = Powers(powers.gods, memos, up)
    pieces = None
    if spot.supply is not None:
        pieces = (supply & 255, supply >> 8 & 255, supply >> 16 & 255, supply >> 24 & 255)
    cells = generator.gods.cells_of(workers, len(spot.workers))
    after = Spot(spot.players, (g1, g2, g3, dome), cells, pieces, spot.turn, spot.out, winners, powers)
    if winners is None:
        after.turn = next_seat(after, spot.turn)
    return after


def next_seat(spot: Spot, seat: int) -> int:
    """The seat after ``seat`` that is still in the game."""
    for offset in range(1, spot.players + 1):
        following = (seat + offset) % spot.players
        if not spot.out >> following & 1:
            return following
    return seat


def settled(spot: Spot) -> list[Any]:
    """The outcomes of ``spot`` once the engine's rule for a seat without a turn is applied to it
    (in place): with two or four players that seat loses; with three it is out (its workers
    leave the board) and the next seat moves, the last one left winning. Empty when it is over."""
    while spot.winners is None:
        found = outcomes(spot)
        if found:
            return found
        if spot.players != 3:
            spot.winners = frozenset(range(spot.players)) - spot.team(spot.turn)
            break
        colour = spot.turn % spot.colours
        cells = list(spot.workers)
        cells[2 * colour] = cells[2 * colour + 1] = -1
        spot.workers = tuple(cells)
        spot.out |= 1 << spot.turn
        remaining = [s for s in range(3) if not spot.out >> s & 1]
        if len(remaining) == 1:
            spot.winners = frozenset(remaining)
            break
        spot.turn = next_seat(spot, spot.turn)
    return []


def perft(spot: Spot, depth: int) -> int:
    """The number of turn sequences of length ``depth`` from ``spot`` (as ``State.perft``)."""
    if depth <= 0:
        return 1
    found = settled(spot)
    if depth == 1:
        return len(found)
    total = 0
    for outcome in found:
        total += perft(child(spot, outcome), depth - 1)
    return total


def random_outcomes(spot: Spot, rng: random.Random) -> list[Spot]:
    """A random game from ``spot`` to its end: each turn drawn uniformly among the distinct
    outcomes, as ``SantoriniState.random_move`` draws among the legal turns (the same draws
    from ``rng``); the spots after each turn."""
    played = []
    found = settled(spot)
    while found:
        spot = child(spot, rng.choice(found))
        found = settled(spot)
        played.append(spot)
    return played
