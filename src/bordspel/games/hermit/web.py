"""Hermit's moves for the browser: choose a colour and placement, then click the block's square."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.hermit.engine import HermitMove

__all__ = ["move_parts"]


def move_parts(move: HermitMove) -> dict[str, Any]:
    square = square_name(move.row, move.col)
    return {
        "paths": [[f"square:{square}"]],
        "choices": {"colour": move.colour, "placement": move.placement},
    }
