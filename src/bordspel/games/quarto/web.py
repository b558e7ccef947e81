"""Quarto's moves for the browser: click the square for the piece in hand, then the piece to give."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.quarto.engine import QuartoMove, QuartoState

__all__ = ["COMPUTER_RATINGS", "buttons", "move_parts", "rating_pool"]

COMPUTER_RATINGS = {"easy": 200, "medium": 1535, "hard": 1800, "perfect": 1890}
"""The levels' fixed ratings, from the ladder (``docs/web.md``, Ratings)."""


def move_parts(move: QuartoMove) -> dict[str, Any]:
    """The browser's clicks for ``move``: the square, then the piece to hand over."""
    square = [] if move.square is None else [f"square:{square_name(move.square // 4, move.square % 4)}"]
    give = [] if move.give is None else [f"piece:{move.give}"]
    return {"paths": [[*square, *give]]}


def buttons(start: QuartoState) -> tuple[str, ...]:
    """The clicks besides the squares: a piece to hand over, one per piece of the set."""
    return tuple(f"piece:{char}" for char in start.pieces.chars)


def rating_pool(state: QuartoState) -> str:
    """``quarto``, or ``quarto-advanced`` (the 2x2 squares win too)."""
    return "quarto-advanced" if state.advanced else "quarto"
