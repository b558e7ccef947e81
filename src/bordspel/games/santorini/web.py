"""Santorini's moves for the browser: click the two setup squares (in either order), or the
worker, its target and the build; a god turn's actions one after the other."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.santorini.engine import SIZE, Placement, Turn
from bordspel.games.santorini.turns import Action, GodTurn

__all__ = ["DOME", "move_parts"]

DOME = "button:dome"
"""The click, after its square, that makes a build a dome at any level (Atlas, Selene)."""


def _sq(cell: int) -> str:
    return f"square:{square_name(cell // SIZE, cell % SIZE)}"


def _clicks(action: Action) -> list[str]:
    """An action's clicks: a move's two squares, a build's or removal's square, a dome's square and Dome."""
    if action.kind == "move":
        return [_sq(action.source), _sq(action.target)]
    return [_sq(action.target), DOME] if action.kind == "dome" else [_sq(action.target)]


def move_parts(move: Placement | Turn | GodTurn) -> dict[str, Any]:
    """The browser's clicks for ``move``: the setup squares, worker/target/build, or a god turn's actions."""
    if isinstance(move, GodTurn):
        return {"paths": [[click for action in move.actions for click in _clicks(action)]]}
    if isinstance(move, Placement):
        first, second = _sq(move.first), _sq(move.second)
        return {"paths": [[first, second], [second, first]]}
    build = [] if move.build is None else [_sq(move.build)]
    return {"paths": [[_sq(move.source), _sq(move.target), *build]]}
