"""Santorini's batch of games for ``bordspel.rl.vector``: the compiled kernel of
``santorini_core`` (without gods; its greedy player takes two colours)."""

from __future__ import annotations

from typing import Any

from bordspel._native import load
from bordspel.core import State
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.evaluation import load_weights

__all__ = ["batch"]

OPPONENTS = {"random": 0, "greedy": 1}
"""The opponents the kernel plays itself, by their codes."""


def batch(start: State, num_envs: int, seat: int, opponent: str | None) -> Any:
    """The compiled batch for ``opponent`` (None: self-play), or None without the kernel, with
    gods, or for the greedy player of three colours."""
    core = load("santorini_core")
    if core is None or (opponent is not None and opponent not in OPPONENTS):
        return None
    assert isinstance(start, SantoriniState)
    if start.powers is not None or (opponent == "greedy" and start.colours != 2):
        return None
    code = 0 if opponent is None else OPPONENTS[opponent]
    return core.Batch(start, num_envs, seat, code, load_weights())
