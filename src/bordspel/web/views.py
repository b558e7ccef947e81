"""JSON views of games for the browser: the position, its picture and the legal moves.

Moves are described by their parts (square names, colours, pieces) so that the page can
offer them click by click; the rules stay in the engines, which list and check the moves.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from bordspel import svg
from bordspel.ai import LEVELS
from bordspel.core import Outcome, State, available_games, game_class, square_name
from bordspel.games.santorini.turns import GodTurn
from bordspel.hermit import HermitMove
from bordspel.quarto import QuartoMove
from bordspel.santorini import SIZE, Placement, Turn
from bordspel.web.actions import outcome
from bordspel.web.seats import seat_choices
from bordspel.web.store import StoredGame

__all__ = ["game_view", "meta", "move_parts", "record_text"]


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
def _god_turn(move: GodTurn) -> dict[str, Any]:
    """A Santorini god turn: its actions in order (a move has ``source``, every action ``target``)."""
    actions = [
        {"kind": a.kind, "source": _sq(a.source if a.source >= 0 else None), "target": _sq(a.target)}
        for a in move.actions
    ]
    return {"kind": "actions", "actions": actions}


@move_parts.register
def _quarto(move: QuartoMove) -> dict[str, Any]:
    square = None if move.square is None else square_name(move.square // 4, move.square % 4)
    return {"square": square, "give": move.give}


def game_view(stored: StoredGame) -> dict[str, Any]:
    """What every viewer of the game sees (no tokens)."""
    state: State = stored.game.state
    ended = outcome(stored)
    return {
        "id": stored.id,
        "game": state.name,
        "seats": stored.seats,
        "version": stored.version,
        "ply": stored.ply,
        "to_move": state.to_move,
        "position": state.to_str(),
        "moves": [move.to_str() for move in stored.game.moves],
        "legal": [] if ended else [{"text": m.to_str(), **move_parts(m)} for m in state.legal_moves()],
        "takeback": stored.takeback,
        "outcome": None if ended is None else _outcome_view(ended),
        "svg": svg.render(state, size=520, interactive=True),
    }


def _outcome_view(ended: Outcome) -> dict[str, Any]:
    return {"winners": sorted(ended.winners), "termination": ended.termination, "result": ended.result_str()}


def record_text(stored: StoredGame) -> str:
    """The game record with who sat where and any resignation; readable by ``Game.from_record``."""
    tags = {f"Seat{i + 1}": spec for i, spec in enumerate(stored.seats)}
    if stored.resigned is not None:
        ended = outcome(stored)
        assert ended is not None
        tags.update(
            Termination="resignation",
            Resigned=str(stored.resigned + 1),
            Winners=" ".join(str(seat + 1) for seat in sorted(ended.winners)),
        )
    stored.game.tags.update(tags)
    return stored.game.to_record()


def meta() -> dict[str, Any]:
    """The games, the options a start page can offer with their limits, and the seats' choices."""
    games = {}
    for name in available_games():
        cls = game_class(name)
        limits = cls.option_limits
        params = inspect.signature(cls.initial).parameters
        options = {key: params[key].default for key in limits if isinstance(params[key].default, (bool, int))}
        games[name] = {
            "options": options,
            "limits": {key: limit.describe() for key, limit in limits.items()},
            "seats": cls.initial().num_players,
            "levels": seat_choices(name)[1:],
        }
    return {"games": games, "levels": list(LEVELS)}
