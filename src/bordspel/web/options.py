"""The game options a client may choose, within limits the server declares per game.

The library itself takes larger boards and piece files by path; a server on a network offers
only what stays quick to play and render, and never lets a client name a file: a Quarto piece
set is a built-in set's name or the text of a piece file (the spec's format), checked here.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import Any

from bordspel.core import BordspelError, State, game_class
from bordspel.quarto import DEFAULT_PIECES, DUTCH_PIECES, PieceSet

__all__ = ["LIMITS", "PIECE_SETS", "BadOption", "Choice", "Flag", "IntRange", "PieceText", "start_state"]

PIECE_SETS = {"standard": DEFAULT_PIECES, "dutch": DUTCH_PIECES}
PIECE_TEXT_LIMIT = 2048
"""Characters of an uploaded piece file (16 pieces and a header fit easily)."""


class BadOption(BordspelError):
    """An option the server does not offer, or a value outside its limits."""


@dataclass(frozen=True)
class IntRange:
    low: int
    high: int

    def check(self, name: str, value: object) -> int:
        if type(value) is not int or not self.low <= value <= self.high:
            raise BadOption(f"option {name!r} is a whole number from {self.low} to {self.high}")
        return value

    def describe(self) -> dict[str, Any]:
        return {"min": self.low, "max": self.high}


@dataclass(frozen=True)
class Choice:
    values: tuple[int, ...]

    def check(self, name: str, value: object) -> int:
        if type(value) is not int or value not in self.values:
            raise BadOption(f"option {name!r} is one of {', '.join(map(str, self.values))}")
        return value

    def describe(self) -> dict[str, Any]:
        return {"choices": list(self.values)}


@dataclass(frozen=True)
class Flag:
    def check(self, name: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise BadOption(f"option {name!r} is true or false")
        return value

    def describe(self) -> dict[str, Any]:
        return {"flag": True}


@dataclass(frozen=True)
class PieceText:
    """A built-in piece set's name, or a piece file's text in the spec's format."""

    def check(self, name: str, value: object) -> PieceSet:
        if not isinstance(value, str) or len(value) > PIECE_TEXT_LIMIT:
            raise BadOption(f"option {name!r} is {' or '.join(PIECE_SETS)}, or a piece file's text")
        if value in PIECE_SETS:
            return PIECE_SETS[value]
        if "\n" not in value:
            raise BadOption(f"option {name!r} names no piece set: choose {', '.join(PIECE_SETS)}")
        return _parse_piece_text(value)

    def describe(self) -> dict[str, Any]:
        return {"choices": list(PIECE_SETS), "text": PIECE_TEXT_LIMIT}


Limit = IntRange | Choice | Flag | PieceText

LIMITS: dict[str, dict[str, Limit]] = {
    "hermit": {"size": IntRange(1, 16)},
    "santorini": {"players": Choice((2, 3, 4)), "finite_supply": Flag()},
    "quarto": {"advanced": Flag(), "pieces": PieceText()},
}
"""Per game: each option a client may set, and its limit; any other option is refused."""


def start_state(game: str, options: object) -> State:
    """The start position of ``game`` with the client's ``options``, checked against the limits."""
    if game not in LIMITS:
        raise BadOption(f"unknown game {game!r}: choose one of {', '.join(sorted(LIMITS))}")
    if not isinstance(options, dict):
        raise BadOption("give 'options' as an object")
    limits = LIMITS[game]
    unknown = [name for name in options if name not in limits]
    if unknown:
        raise BadOption(f"{game} has no option {unknown[0][:40]!r}; it takes {', '.join(limits)}")
    checked = {name: limits[name].check(name, value) for name, value in options.items()}
    return game_class(game).initial(**checked)


def _parse_piece_text(text: str) -> PieceSet:
    """Check an uploaded piece file with the library's own reader (which reads files)."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as handle:
        try:
            handle.write(text)
            handle.flush()
            return PieceSet.from_file(handle.name)
        except (ValueError, BordspelError) as error:  # UnicodeError is a ValueError
            reason = str(error).replace(handle.name, "the piece file")
            raise BadOption(reason) from None
