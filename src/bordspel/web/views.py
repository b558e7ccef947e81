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
from bordspel.ai.registry import BASELINE, level_options
from bordspel.core import (
    BordspelError,
    Outcome,
    State,
    available_games,
    game_class,
    game_spec,
)
from bordspel.guide import guide_of, move_parts
from bordspel.web.actions import ABORTED, outcome
from bordspel.web.ratings import computer_ratings
from bordspel.web.seats import HUMAN, seat_choices
from bordspel.web.store import NotFound, StoredGame

__all__ = [
    "BadPosition",
    "board_view",
    "game_titles",
    "game_view",
    "meta",
    "position_view",
    "record_text",
    "rules_view",
    "start_options",
]

MAX_REASON = 200
"""Characters of a refusal's reason that quote what a client sent, at most."""


class BadPosition(BordspelError):
    """A position the analysis board cannot read."""


def _legal(state: State) -> list[dict[str, Any]]:
    """The legal moves with their parts (and the guide's other orders of their clicks), the prompt
    of each click, and what to show on the way."""
    guide = guide_of(state.name)
    moves = []
    for move in state.legal_moves():
        parts = move_parts(state.name, move)
        parts["paths"] = [*parts["paths"], *guide.orders(state, move)]
        moves.append({"text": move.to_str(), **parts, **guide.clicks(state, move)})
    return moves


def _picture(stored: StoredGame, ply: int, interactive: bool) -> str:
    game = stored.game
    last = game.moves[ply - 1] if ply else None
    return svg.render(
        game.states[ply], size=520, interactive=interactive, last_move=last, caption=False, piece_letters=True
    )


def game_view(stored: StoredGame) -> dict[str, Any]:
    """What every viewer of the game sees (no tokens)."""
    state: State = stored.game.state
    return {
        **_board(state, outcome(stored), _picture(stored, stored.ply, interactive=True)),
        "id": stored.id,
        "seats": stored.seats,
        "version": stored.version,
        "ply": stored.ply,
        "moves": [move.to_str() for move in stored.game.moves],
        "options": start_options(state),
        "takeback": stored.takeback,
        "players": stored.players,
        "rated": stored.rated,
        "abortable": not stored.is_over() and not stored.everyone_moved(),
        "ratings": None,
        "rating_changes": None,
        "rematch": stored.rematch,
        "clock": None if stored.clock is None else stored.clock.view(stored.loaded),
    }


def _board(state: State, ended: Outcome | None, picture: str) -> dict[str, Any]:
    """A position as a page shows and plays it: its picture, legal moves with their clicks, the
    words of each click, the seats' colours and the game's toolbar choices."""
    guide, spec = guide_of(state.name), game_spec(state.name)
    return {
        "game": state.name,
        "to_move": state.to_move,
        "position": state.to_str(),
        "legal": [] if ended else _legal(state),
        "title": game_titles(state.name),
        "rules": guide.rules is not None,
        "prompts": guide.prompts(state),
        "seat_colours": guide.seat_colours(state),
        "seat_notes": guide.seat_notes(state),
        "choices": [
            {"key": key, "options": [list(option) for option in options]} for key, options in spec.choices
        ],
        "outcome": None if ended is None else _outcome_view(ended),
        "svg": picture,
    }


def board_view(game: str, position: str | None, move: str | None = None) -> dict[str, Any]:
    """The analysis board: ``position`` of ``game`` (None: its start) after ``move``, if given, to
    look at and play on freely; no game is stored or changed. NotFound for an unknown game."""
    if game not in available_games():
        raise NotFound("there is no such game")
    cls = game_class(game)
    state: State = cls.initial() if position is None else _within_limits(_read(cls, position))
    last = None
    if move is not None:
        last = state.parse_move(move)
        state = state.apply(last)
    picture = svg.render(state, size=520, interactive=True, last_move=last, caption=False, piece_letters=True)
    return {**_board(state, state.outcome(), picture), "seats": [HUMAN] * state.num_players}


def _read(cls: type[State], position: str) -> State:
    """The position, or a refusal that quotes at most the start of what was sent."""
    try:
        return cls.from_str(position)
    except BordspelError as error:
        reason = str(error)
        raise BadPosition(reason if len(reason) <= MAX_REASON else f"{reason[:MAX_REASON]}…") from None


def _within_limits(state: State) -> State:
    """The position, when its numbers and flags (a board's size, the players) are within the game's
    limits for a new game: a board bigger than the game allows would cost unbounded work."""
    limits = type(state).option_limits
    for name, value in state.options().items():
        if name in limits and isinstance(value, (bool, int)):
            limits[name].check(name, value)
    return state


def position_view(stored: StoredGame, ply: int) -> dict[str, Any]:
    """The position after ``ply`` moves, for replaying the game; NotFound past its end."""
    if not 0 <= ply <= stored.ply:
        raise NotFound(f"the game has {stored.ply} moves: there is no position after {ply}")
    position = stored.game.states[ply].to_str()
    return {"ply": ply, "position": position, "svg": _picture(stored, ply, interactive=False)}


def rules_view(game: str) -> dict[str, Any]:
    """A game's rules in each language, with pictures by the project's renderer; NotFound if unknown."""
    if game not in available_games() or guide_of(game).rules is None:
        raise NotFound("there is no such game")
    return _rules(game)


def game_titles(game: str) -> dict[str, str]:
    """The game's name in each language."""
    rules = guide_of(game).rules
    if rules is None:
        return {"en": game.capitalize(), "nl": game.capitalize()}
    return {lang: text["title"] for lang, text in rules().items()}


@functools.cache
def _rules(game: str) -> dict[str, Any]:
    guide = guide_of(game)
    assert guide.rules is not None
    return {"texts": guide.rules(), "pictures": guide.examples()}


def _outcome_view(ended: Outcome) -> dict[str, Any]:
    result = "*" if ended.termination == ABORTED else ended.result_str()
    return {"winners": sorted(ended.winners), "termination": ended.termination, "result": result}


def record_text(stored: StoredGame) -> str:
    """The game record with who sat where (``SeatN``: ``human`` or the computer's level; ``PlayerN``:
    the account's name), whether it was rated, its time control and any resignation or flag fall
    (the result then is the game's, with its ``Termination``; an aborted game's is ``*`` with
    ``Termination "aborted"``); readable by ``Game.from_record``."""
    tags = {f"Seat{i + 1}": spec for i, spec in enumerate(stored.seats)}
    tags.update({f"Player{i + 1}": name for i, name in enumerate(stored.players) if name is not None})
    if stored.rated:
        tags["Rated"] = "yes"
    if stored.clock is not None:
        tags["TimeControl"] = stored.clock.control.label()
    loser = stored.resigned if stored.resigned is not None else stored.flag_down()
    ended = outcome(stored)
    if stored.aborted():
        tags["Termination"] = ABORTED  # the result stays "*": nobody won
    elif loser is not None and ended is not None:
        tags["Resigned" if ended.termination == "resignation" else "Flagged"] = str(loser + 1)
        stored.game.ending = ended
    stored.game.tags.update(tags)
    return stored.game.to_record()


def start_options(state: State) -> dict[str, Any]:
    """The game's options that a start page offers (a rematch starts with them)."""
    limits = {key: limit.describe() for key, limit in type(state).option_limits.items()}
    return {
        key: value for key, value in state.options().items() if key in limits and _offered(value, limits[key])
    }


def _offered(default: object, limit: dict[str, Any]) -> bool:
    """Whether a start page offers the option: a flag, a number, or a text chosen seat by seat
    (its value: each seat's choice joined by commas, ``-`` for none, ``random`` to draw)."""
    return isinstance(default, (bool, int)) or (isinstance(default, str) and bool(limit.get("per_seat")))


def meta() -> dict[str, Any]:
    """The games, the options a start page can offer with their limits, and the seats' choices:
    the ``levels`` to offer players and the frozen ``baselines`` (``hard-v1``), kept for research
    (a seat may still be one), the levels' fixed ``level_ratings`` (``bordspel.web.ratings``) and
    the ``level_options`` of the levels that play only some options (``zero``: its networks')."""
    games = {}
    for name in available_games():
        levels = seat_choices(name)[1:]
        cls = game_class(name)
        limits = {key: limit.describe() for key, limit in cls.option_limits.items()}
        params = inspect.signature(cls.initial).parameters
        options = {key: params[key].default for key in limits if _offered(params[key].default, limits[key])}
        games[name] = {
            "title": game_titles(name),
            "rules": guide_of(name).rules is not None,
            "options": options,
            "option_words": guide_of(name).option_words(),
            "choice_notes": guide_of(name).choice_notes(),
            "limits": limits,
            "seats": cls.initial().num_players,
            "levels": [level for level in levels if not level.endswith(BASELINE)],
            "baselines": [level for level in levels if level.endswith(BASELINE)],
            "level_ratings": computer_ratings(name),
            "level_options": level_options(name),
        }
    return {"games": games, "levels": list(LEVELS)}
