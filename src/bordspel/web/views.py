"""JSON views of games for the browser: the position, its picture and the legal moves.

Moves are described by their parts (square names, colours, pieces) so that the page can
offer them click by click; the rules stay in the engines, which list and check the moves.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from bordspel import svg
from bordspel.core import State, available_games, game_class, square_name
from bordspel.hermit import HermitMove
from bordspel.quarto import QuartoMove
from bordspel.santorini import SIZE, Placement, Turn
from bordspel.web.store import StoredGame

__all__ = ["game_view", "meta", "move_parts"]


@functools.singledispatch
def move_parts(move: Any) -> dict[str, Any]:
    """A move's parts for the page's clicks."""
    raise TypeError(f"no parts known for {type(move).__name__}")


@move_parts.register
def _hermit(move: HermitMove) -> dict[str, Any]:
    return {"colour": move.colour, "placement": move.placement, "square": square_name(move.row, move.col)}


def _sq(cell: int | None) -> str | None:
    return None if cell is None else square_name(cell // SIZE, cell % SIZE)


@move_parts.register
def _placement(move: Placement) -> dict[str, Any]:
    return {"kind": "place", "squares": [_sq(move.first), _sq(move.second)]}


@move_parts.register
def _turn(move: Turn) -> dict[str, Any]:
    return {"kind": "turn", "source": _sq(move.source), "target": _sq(move.target), "build": _sq(move.build)}


@move_parts.register
def _quarto(move: QuartoMove) -> dict[str, Any]:
    square = None if move.square is None else square_name(move.square // 4, move.square % 4)
    return {"square": square, "give": move.give}


def game_view(stored: StoredGame) -> dict[str, Any]:
    state: State = stored.game.state
    outcome = state.outcome()
    return {
        "id": stored.id,
        "game": state.name,
        "seats": stored.seats,
        "ply": stored.ply,
        "to_move": state.to_move,
        "position": state.to_str(),
        "moves": [move.to_str() for move in stored.game.moves],
        "legal": [{"text": m.to_str(), **move_parts(m)} for m in state.legal_moves()],
        "outcome": None
        if outcome is None
        else {
            "winners": sorted(outcome.winners),
            "termination": outcome.termination,
            "result": outcome.result_str(),
        },
        "svg": svg.render(state, size=520, interactive=True),
    }


def meta() -> dict[str, Any]:
    """The games and the options a start page can offer (numbers and yes/no choices)."""
    games = {}
    for name in available_games():
        cls = game_class(name)
        params = inspect.signature(cls.initial).parameters.values()
        options = {p.name: p.default for p in params if isinstance(p.default, (bool, int))}
        games[name] = {"options": options, "seats": _seats(cls)}
    return {"games": games, "levels": ["easy", "medium", "hard", "perfect"]}


def _seats(cls: type[State]) -> int:
    return cls.initial().num_players
