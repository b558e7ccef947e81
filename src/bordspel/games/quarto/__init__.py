"""Quarto: the engine (``engine``), the players' knowledge and exact solver (``ai``), the RL
codec, the terminal picture, the browser's move parts and the CLI solver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import GameSpec

__all__ = ["SPEC"]


def longest_game(options: Mapping[str, Any]) -> int:
    """The first hand-over, then one placement a square."""
    return 17


SPEC = GameSpec(
    name="quarto",
    package=__name__,
    state=f"{__name__}.engine:QuartoState",
    parameters={"advanced": False},
    players=(2, 2),
    variants=({}, {"advanced": True}),
    max_length=longest_game,
    native=("quarto_solver", "quarto_playout"),
)
