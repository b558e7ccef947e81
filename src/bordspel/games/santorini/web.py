"""Santorini's moves for the browser: click the two setup squares (in either order), or the
worker, its target and the build."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.santorini.engine import SIZE, Placement, Turn

__all__ = ["move_parts"]


def _sq(cell: int) -> str:
    return f"square:{square_name(cell // SIZE, cell % SIZE)}"


def move_parts(move: Placement | Turn) -> dict[str, Any]:
    """The browser's clicks for ``move``: the two setup squares, or worker, target and build."""
    if isinstance(move, Placement):
        first, second = _sq(move.first), _sq(move.second)
        return {"paths": [[first, second], [second, first]]}
    build = [] if move.build is None else [_sq(move.build)]
    return {"paths": [[_sq(move.source), _sq(move.target), *build]]}
