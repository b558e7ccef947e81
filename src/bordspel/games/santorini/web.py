"""Santorini's moves for the browser: click the two setup squares (in either order), or the
worker, its target and the build; a god turn's actions one after the other, in any order the
rules allow that reaches the same position (:func:`other_orders`)."""

from __future__ import annotations

from typing import Any

from bordspel.games.santorini import generator
from bordspel.games.santorini.board import CELLS
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.turns import Action, GodTurn, square_text

__all__ = ["COMPUTER_RATINGS", "DOME", "buttons", "move_parts", "other_orders", "rating_pool"]

COMPUTER_RATINGS = {"easy": 990, "medium": 1500, "hard": 1780, "perfect": 2020}
"""The levels' fixed ratings, from the two-player ladder without gods (``docs/web.md``, Ratings)."""

DOME = "button:dome"
"""The click, after its square, that makes a build a dome at any level (Atlas, Selene)."""


SQUARE_CLICKS = tuple(f"square:{square_text(cell)}" for cell in range(CELLS))
"""The click on each cell's square."""


def _sq(cell: int) -> str:
    return SQUARE_CLICKS[cell]


def _clicks(action: Action) -> list[str]:
    """An action's clicks: a move's two squares, a build's or removal's square, a dome's square and Dome."""
    if action.kind == "move":
        return [_sq(action.source), _sq(action.target)]
    return [_sq(action.target), DOME] if action.kind == "dome" else [_sq(action.target)]


def _path(actions: tuple[Action, ...]) -> list[str]:
    """The clicks of a turn's actions, one after the other."""
    return [click for action in actions for click in _clicks(action)]


def move_parts(move: Placement | Turn | GodTurn) -> dict[str, Any]:
    """The browser's clicks for ``move``: the setup squares, worker/target/build, or a god turn's
    actions; a turn that moves no worker (Hermes builds only) waits for End turn (``confirm``)."""
    if isinstance(move, GodTurn):
        parts: dict[str, Any] = {"paths": [_path(move.actions)]}
        if all(action.kind != "move" for action in move.actions):
            parts["confirm"] = True
        return parts
    if isinstance(move, Placement):
        first, second = _sq(move.first), _sq(move.second)
        return {"paths": [[first, second], [second, first]]}
    build = [] if move.build is None else [_sq(move.build)]
    return {"paths": [[_sq(move.source), _sq(move.target), *build]]}


def other_orders(state: SantoriniState, move: Placement | Turn | GodTurn) -> list[list[str]]:
    """More clicks for ``move``: its builds in another order that its god allows and that reaches
    the same position (Demeter's two builds either way round)."""
    if not isinstance(move, GodTurn):
        return []
    return [_path(actions) for actions in generator.orders(state).get(move, ())]


def buttons(start: SantoriniState) -> tuple[str, ...]:
    """The clicks besides the squares: the one that makes a build a dome (Atlas, Selene)."""
    return (DOME,)


def rating_pool(state: SantoriniState) -> str:
    """``santorini-2p``, ``-3p`` or ``-4p``, with ``-gods`` when any seat has a god."""
    gods = state.powers is not None and any(state.powers.gods)
    return f"santorini-{state.players}p{'-gods' if gods else ''}"
