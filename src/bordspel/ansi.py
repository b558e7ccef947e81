"""Coloured terminal pictures of positions (ANSI escape codes).

``render(state, last=move)`` marks the squares of the move that led to ``state`` (shown in
reverse video). Each game draws its own picture (its GameSpec's ``ansi`` part); a game without
one is drawn from its ``grid()`` rows when it has them, else as its position string.
"""

from __future__ import annotations

from typing import Any, Protocol

from bordspel.core import Grid, Part, State, game_part, square_name

__all__ = [
    "ANSI_PART",
    "MARK",
    "RESET",
    "TerminalPicture",
    "framed",
    "grid_picture",
    "marked",
    "notes",
    "render",
]


class TerminalPicture(Protocol):
    """A game's terminal picture: ``render(state, last, colour=...)`` returns the text."""

    def __call__(self, state: Any, last: Any = None, *, colour: bool = True) -> str: ...


ANSI_PART: Part[TerminalPicture] = Part("ansi", "a function render(state, last, *, colour) -> str", callable)
"""The ``ansi`` part of a GameSpec (by convention ``<package>.ansi:render``)."""

RESET = "\x1b[0m"
MARK = "\x1b[7m"
_SEATS = ("\x1b[1;31m", "\x1b[1;34m", "\x1b[1;32m", "\x1b[1;35m")


def render(state: State, last: Any = None, *, colour: bool = True) -> str:
    """The position as coloured text for a terminal, with coordinates on the edges.

    ``last``: the move that led here, whose squares are marked. ``colour=False``: plain text
    (the position's own picture; Quarto adds its pieces' characteristics as symbols).
    """
    picture = game_part(state.name, ANSI_PART)
    if picture is not None:
        return str(picture(state, last, colour=colour))
    return grid_picture(state, colour=colour)


def notes(state: State) -> str:
    """What a player should know besides the board (Santorini's god cards): the state's
    ``notes()`` when it has them, else ""."""
    told = getattr(state, "notes", None)
    return str(told()) if callable(told) else ""


def grid_picture(state: State, *, colour: bool = True) -> str:
    """The generic picture: ``state.grid()`` (rows of one character a square, ``.`` empty) framed."""
    if not isinstance(state, Grid) or not colour:
        return str(state)
    rows = list(state.grid())
    symbols = sorted({ch for row in rows for ch in row} - {"."})
    paint = {ch: _SEATS[i % len(_SEATS)] for i, ch in enumerate(symbols)}
    cells = [[f"{paint.get(ch, chr(27) + '[2m')} {ch} {RESET}" for ch in row] for row in rows]
    return framed(cells, 3)


def framed(rows: list[list[str]], width: int) -> str:
    """Rows of cells ``width`` characters wide, with column letters above and row numbers left."""
    columns = "".join(square_name(0, c)[:-1].center(width) for c in range(len(rows[0])))
    lines = ["   " + columns]
    lines += [f"{r + 1:>2} " + "".join(row) for r, row in enumerate(rows)]
    return "\n".join(lines)


def marked(cell: str, mark: bool) -> str:
    """``cell`` in reverse video when ``mark``."""
    return MARK + cell.replace(RESET, RESET + MARK) + RESET if mark else cell
