"""Quarto: the engine (``engine``), the players' knowledge and exact solver (``ai``), the RL
codec, the terminal picture, the browser's move parts and the CLI solver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import GameSpec

__all__ = ["SPEC"]

_PARTS = "bordspel.games.quarto"


def longest_game(options: Mapping[str, Any]) -> int:
    """The first hand-over, then one placement a square."""
    return 17


SPEC = GameSpec(
    name="quarto",
    state=f"{_PARTS}.engine:QuartoState",
    knowledge=f"{_PARTS}.ai:KNOWLEDGE",
    codec=f"{_PARTS}.codec:CODEC",
    ansi=f"{_PARTS}.ansi:render",
    move_parts=f"{_PARTS}.web:move_parts",
    solver=f"{_PARTS}.cli:solve",
    parameters={"advanced": False},
    players=(2, 2),
    variants=({}, {"advanced": True}),
    max_length=longest_game,
)
