"""Quarto's moves for the browser: click the square for the piece in hand, then the piece to give."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.quarto.engine import QuartoMove

__all__ = ["move_parts"]


def move_parts(move: QuartoMove) -> dict[str, Any]:
    square = [] if move.square is None else [f"square:{square_name(move.square // 4, move.square % 4)}"]
    give = [] if move.give is None else [f"piece:{move.give}"]
    return {"paths": [[*square, *give]]}
