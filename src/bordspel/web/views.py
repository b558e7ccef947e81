"""JSON views of games for the browser: the position, its picture and the legal moves.

Moves are described by their parts (square names, colours, pieces) so that the page can
offer them click by click; the rules stay in the engines, which list and check the moves.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from bordspel import svg
from bordspel.ai import LEVELS
from bordspel.core import Outcome, State, available_games, game_class, game_part, game_spec
from bordspel.web.actions import outcome
from bordspel.web.seats import seat_choices
from bordspel.web.store import StoredGame

__all__ = ["game_view", "generic_move_parts", "meta", "move_parts", "record_text"]

SQUARE = re.compile(r"[a-z]+[0-9]+")


def move_parts(game: str, move: Any) -> dict[str, Any]:
    """A move's click paths (lists of ``square:b3``/``piece:A``/``move:<text>`` tokens) and the
    toolbar choices it needs, by the game's own ``move_parts`` or the generic default."""
    parts = game_part(game, "move_parts")
    return generic_move_parts(move) if parts is None else dict(parts(move))


def generic_move_parts(move: Any) -> dict[str, Any]:
    """Click the squares a move's text names (``b2``, ``a1-c3``), or choose the move by its text."""
    text = move.to_str()
    words = [word for word in re.split(r"[^a-z0-9]+", text) if word]
    if words and all(SQUARE.fullmatch(word) for word in words):
        return {"paths": [[f"square:{word}" for word in words]]}
    return {"paths": [[f"move:{text}"]]}


def game_view(stored: StoredGame) -> dict[str, Any]:
    """What every viewer of the game sees (no tokens)."""
    state: State = stored.game.state
    spec = game_spec(state.name)
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
        "legal": []
        if ended
        else [{"text": m.to_str(), **move_parts(state.name, m)} for m in state.legal_moves()],
        "choices": [
            {"key": key, "options": [list(option) for option in options]} for key, options in spec.choices
        ],
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
