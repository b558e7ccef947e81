"""What the browser tells a new player about a game: the words of each click, what to show on
the way, the seats' colours and notes, and the rules page with pictures.

A game gives its ``Guide``; a game without one gets :data:`PLAIN` (no words beyond "Your turn",
no rules page).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bordspel.core import Part, game_part

__all__ = [
    "GUIDE_PART",
    "MOVE_PARTS_PART",
    "PLAIN",
    "Guide",
    "MoveParts",
    "Rules",
    "generic_move_parts",
    "guide_of",
    "move_parts",
]

SQUARE = re.compile(r"[a-z]+[0-9]+")

Rules = Mapping[str, Mapping[str, Any]]
"""Per language: ``title`` and ``sections``, each (heading, paragraphs, picture name or None)."""


def _no_clicks(state: Any, move: Any) -> dict[str, Any]:
    """No prompts for the clicks of a move."""
    return {"steps": []}


def _no_orders(state: Any, move: Any) -> list[list[str]]:
    """No click paths beyond the move parts'."""
    return []


def _no_words(state: Any) -> dict[str, dict[str, str]]:
    """No words of the game's own: the front end's plain prompts."""
    return {"en": {}, "nl": {}}


def _no_colours(state: Any) -> list[str | None]:
    """No seat colours."""
    return [None] * int(state.num_players)


def _no_notes(state: Any) -> dict[str, list[str | None]]:
    """No notes on the seats."""
    return {"en": [None] * int(state.num_players)}


@dataclass(frozen=True)
class Guide:
    """What a front end tells a player about one game: prompts per click, seat colours, rules."""

    clicks: Callable[[Any, Any], dict[str, Any]] = _no_clicks
    """``clicks(state, move)``: ``steps`` (a prompt key per click), and optionally ``preview``
    ({squares, colour}: shown while pointing at the move's square) and ``slide`` ([i, j, ...]: the
    piece on click i's square is drawn on the square of the latest of the other clicks made)."""
    orders: Callable[[Any, Any], list[list[str]]] = _no_orders
    """``orders(state, move)``: more click paths for the move (its actions in another order that
    reaches the same position), each with the prompts of ``clicks``."""
    prompts: Callable[[Any], dict[str, dict[str, str]]] = _no_words
    """``prompts(state)``: per language, the words of each prompt key and ``over:<termination>``,
    and optionally ``typed``: the parts of a move as the terminal types it (``worker, move,
    build``), where the clicks' words speak of clicking (the terminal joins those otherwise:
    "Place piece K, then hand your opponent a piece")."""
    seat_colours: Callable[[Any], list[str | None]] = _no_colours
    """``seat_colours(state)``: each seat's colour on the board, or None."""
    seat_notes: Callable[[Any], dict[str, list[str | None]]] = _no_notes
    """``seat_notes(state)``: per language (English when the page's is missing), each seat's note
    shown under its name (a god card), or None."""
    option_words: Callable[[], dict[str, dict[str, str]]] = dict
    """``option_words()``: per language, the start page's label of each option, in words that say
    what it does (the option's name where a language has none)."""
    choice_notes: Callable[[], dict[str, dict[str, str]]] = dict
    """``choice_notes()``: per language, a note on each value of an option chosen seat by seat
    (a god's power), shown under the seat's choice on the start page."""
    rules: Callable[[], Rules] | None = None
    """The rules page's text per language (None: no rules page)."""
    examples: Callable[[], dict[str, str]] = dict
    """The rules page's pictures (SVG) by name."""


PLAIN = Guide()

GUIDE_PART: Part[Guide] = Part("guide", "a Guide", lambda found: isinstance(found, Guide))
"""The ``guide`` part of a GameSpec (by convention ``<package>.guide:GUIDE``)."""


def guide_of(game: str) -> Guide:
    """The game's ``Guide`` (its GameSpec's ``guide`` part), or :data:`PLAIN`."""
    found = game_part(game, GUIDE_PART)
    return PLAIN if found is None else found


class MoveParts(Protocol):
    """A game's click paths: ``move_parts(move)`` returns ``paths``, ``choices`` and ``confirm``."""

    def __call__(self, move: Any, /) -> Mapping[str, Any]: ...


MOVE_PARTS_PART: Part[MoveParts] = Part("move_parts", "a function move_parts(move) -> dict", callable)
"""The ``move_parts`` part of a GameSpec (by convention ``<package>.web:move_parts``)."""


def move_parts(game: str, move: Any) -> dict[str, Any]:
    """A move's click paths (lists of ``square:b3``/``piece:A``/``move:<text>`` tokens), the
    toolbar choices it needs and ``confirm`` (wait for End turn rather than play it at the last
    click), by the game's own ``move_parts`` or the generic default."""
    parts = game_part(game, MOVE_PARTS_PART)
    return generic_move_parts(move) if parts is None else dict(parts(move))


def generic_move_parts(move: Any) -> dict[str, Any]:
    """Click the squares a move's text names (``b2``, ``a1-c3``), or choose the move by its text."""
    text = move.to_str()
    words = [word for word in re.split(r"[^a-z0-9]+", text) if word]
    if words and all(SQUARE.fullmatch(word) for word in words):
        return {"paths": [[f"square:{word}" for word in words]]}
    return {"paths": [[f"move:{text}"]]}
