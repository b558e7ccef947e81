"""Santorini's moves for the browser: click the two setup squares (in either order), or the
worker, its target and the build."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.santorini.engine import SIZE, Placement, Turn
from bordspel.games.santorini.turns import GodTurn

__all__ = ["move_parts"]


def _sq(cell: int) -> str:
    return f"square:{square_name(cell // SIZE, cell % SIZE)}"


def move_parts(move: Placement | Turn | GodTurn) -> dict[str, Any]:
    """The browser's clicks for ``move``: the setup squares, worker/target/build, or a god turn's squares."""
    if isinstance(move, GodTurn):  # the squares of its actions in order (a move: from and to)
        return {"paths": [[_sq(c) for a in move.actions for c in (a.source, a.target) if c >= 0]]}
    if isinstance(move, Placement):
        first, second = _sq(move.first), _sq(move.second)
        return {"paths": [[first, second], [second, first]]}
    build = [] if move.build is None else [_sq(move.build)]
    return {"paths": [[_sq(move.source), _sq(move.target), *build]]}
