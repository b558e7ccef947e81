"""Hermit's moves for the browser: choose a colour and placement, then click the block's square."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.hermit.engine import HermitMove, HermitState

__all__ = ["COMPUTER_RATINGS", "buttons", "move_parts", "rating_pool"]

SIZE_BANDS = ((5, "small"), (8, "medium"))
"""Boards up to 5x5 are small, up to 8x8 medium, larger ones large: one rating pool each."""

COMPUTER_RATINGS = {"easy": 920, "medium": 1720, "hard": 2110}
"""The levels' fixed ratings, from the ladder on 7x7 (``docs/web.md``, Ratings); ``perfect`` was
not measured (its solver is too slow on 7x7), so it shows no rating rather than ``hard``'s."""


def move_parts(move: HermitMove) -> dict[str, Any]:
    """The browser's clicks for ``move``: its square, with its colour and placement chosen."""
    square = square_name(move.row, move.col)
    return {
        "paths": [[f"square:{square}"]],
        "choices": {"colour": move.colour, "placement": move.placement},
    }


def buttons(start: HermitState) -> tuple[str, ...]:
    """No clicks besides the squares and the toolbar's colour and placement."""
    return ()


def rating_pool(state: HermitState) -> str:
    """``hermit-small`` (up to 5x5), ``hermit-medium`` (up to 8x8) or ``hermit-large``."""
    band = next((name for largest, name in SIZE_BANDS if state.n <= largest), "large")
    return f"hermit-{band}"
