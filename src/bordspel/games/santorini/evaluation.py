"""A linear Santorini evaluation on bitboard features, with weights fitted to game outcomes.

Each feature is counted per colour and taken as "mine minus the others' mean", so one weight
vector serves two, three and four players. The weights live in ``weights.json``
beside this module, written by ``benchmarks/texel_santorini.py`` (a Texel-style fit: the
logistic of the evaluation predicts the game's result; see that script).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files

from bordspel.core import State
from bordspel.games.santorini.board import (
    CELLS,
    SIZE,
    Levels,
    height,
    move_targets,
    occupied_mask,
    winning_steps,
)
from bordspel.games.santorini.engine import SantoriniState

__all__ = ["FEATURES", "LinearEvaluation", "features", "load_weights"]

FEATURES = (
    "on level 1",
    "on level 2",
    "reach",
    "mobility",
    "climbs",
    "threats",
    "centre",
    "threat to move",
)
"""What the evaluation counts per colour (see ``features``)."""

CENTRE = tuple(4 - abs(c // SIZE - 2) - abs(c % SIZE - 2) for c in range(CELLS))


def _colour_features(levels: Levels, occupied: int, cells: list[int]) -> list[float]:
    """The features of one colour's workers (``cells``), without "threat to move"."""
    g1, g2, g3, dome = levels
    counts = [0.0] * (len(FEATURES) - 1)
    for cell in cells:
        level = height(levels, cell)
        targets = move_targets(levels, occupied, cell)
        if level in (1, 2):  # a worker on level 3 (put there by a power) has not won
            counts[level - 1] += 1
        counts[2] += (targets & g1).bit_count() + (targets & g2).bit_count() + (targets & g3).bit_count()
        counts[3] += targets.bit_count()
        counts[4] += bool(targets & (g1, g2, g3, dome)[level]) if level < 3 else 0
        counts[5] += bool(winning_steps(levels, cell, targets))
        counts[6] += CENTRE[cell]
    return counts


def features(state: State, seat: int) -> list[float]:
    """The feature vector of ``state`` for ``seat``'s colour: its counts minus the others' mean;
    "threat to move" is +1 when the colour to move is ``seat``'s and threatens to climb onto
    level 3, -1 when another colour to move does."""
    assert isinstance(state, SantoriniState)
    workers = state.workers
    occupied = occupied_mask(workers)
    colours = state.colours
    per_colour = [
        _colour_features(state.levels, occupied, [c for c in workers[2 * k : 2 * k + 2] if c >= 0])
        for k in range(colours)
    ]
    mine = state.colour_of(seat)
    others = [f for k, f in enumerate(per_colour) if k != mine]
    share = 1.0 / max(1, len(others))
    vector = [per_colour[mine][i] - share * sum(f[i] for f in others) for i in range(len(FEATURES) - 1)]
    mover = state.colour_of(state.to_move)
    to_move_threat = 1.0 if per_colour[mover][5] else 0.0
    vector.append(to_move_threat if mover == mine else -to_move_threat)
    return vector


@dataclass(frozen=True)
class LinearEvaluation:
    """``weights`` (one per feature) times the features; a module-level class so players pickle."""

    weights: tuple[float, ...]

    def __call__(self, state: State, seat: int) -> float:
        return sum(w * f for w, f in zip(self.weights, features(state, seat)))


def load_weights() -> tuple[float, ...]:
    """The fitted weights shipped with bordspel (in the order of ``FEATURES``)."""
    text = files("bordspel.games.santorini").joinpath("weights.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return tuple(float(data["weights"][name]) for name in FEATURES)
