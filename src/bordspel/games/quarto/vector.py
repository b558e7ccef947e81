"""Quarto's batch of games for ``bordspel.rl.vector``: the compiled kernel of ``quarto_playout``."""

from __future__ import annotations

from typing import Any

from bordspel._native import load
from bordspel.core import State
from bordspel.games.quarto.engine import QuartoState

__all__ = ["batch"]

OPPONENTS = {"random": 0, "greedy": 1}
"""The opponents the kernel plays itself, by their codes."""


def batch(start: State, num_envs: int, seat: int, opponent: str | None) -> Any:
    """The compiled batch for ``opponent`` (None: self-play), or None without the kernel."""
    core = load("quarto_playout")
    if core is None or (opponent is not None and opponent not in OPPONENTS):
        return None
    assert isinstance(start, QuartoState)
    code = 0 if opponent is None else OPPONENTS[opponent]
    return core.Batch(start.filled, start.ones, start.hand, start.turn, start.advanced, num_envs, seat, code)
