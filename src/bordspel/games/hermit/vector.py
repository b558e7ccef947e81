"""Hermit's batch of games for ``bordspel.rl.vector``: the compiled kernel of ``hermit_core``
(boards up to 8x8)."""

from __future__ import annotations

from typing import Any

from bordspel._native import load
from bordspel.core import State
from bordspel.games.hermit.engine import HermitState

__all__ = ["batch"]

OPPONENTS = {"random": 0, "greedy": 1}
"""The opponents the kernel plays itself, by their codes."""


def batch(start: State, num_envs: int, seat: int, opponent: str | None) -> Any:
    """The compiled batch for ``opponent`` (None: self-play), or None without the kernel or
    beyond 8x8."""
    core = load("hermit_core")
    if core is None or (opponent is not None and opponent not in OPPONENTS):
        return None
    assert isinstance(start, HermitState)
    if start.n > 8:
        return None
    return core.Batch(start, num_envs, seat, 0 if opponent is None else OPPONENTS[opponent])
