"""Coloured terminal pictures of positions (ANSI escape codes), one function per game.

``render(state, last=move)`` marks the squares of the move that led to ``state`` (shown in
reverse video): the block, the worker's start, target and build, the placed piece.
"""

from __future__ import annotations

import functools
from typing import Any

from bordspel.core import State, square_name
from bordspel.games.santorini.turns import GodTurn
from bordspel.hermit import HermitMove, HermitState
from bordspel.quarto import PieceSet, QuartoMove, QuartoState
from bordspel.santorini import SIZE, Placement, SantoriniState, Turn, height

__all__ = ["notes", "piece_glyph", "piece_legend", "render"]

RESET = "\x1b[0m"
MARK = "\x1b[7m"
_HERMIT = {"R": "\x1b[97;41m", "Y": "\x1b[30;43m", "B": "\x1b[97;44m", ".": "\x1b[2m"}
_LEVELS = ("\x1b[30;102m", "\x1b[30;47m", "\x1b[30;107m", "\x1b[30;100m", "\x1b[97;44m")
_WORKERS = ("\x1b[1;38;5;208m", "\x1b[1;35m", "\x1b[1;36m")
_PIECE_COLOURS = ("\x1b[1;31m", "\x1b[1;34m")
_HEIGHTS = ("▲", "▽")
_SHAPES = (("[", "]"), ("(", ")"))
_FILLINGS = ("○", "●")
_PLAIN_COLOURS = ("▪", "▫")


@functools.singledispatch
def render(state: State, last: Any = None, *, colour: bool = True) -> str:
    """The position as coloured text for a terminal, with coordinates on the edges.

    ``last``: the move that led here, whose squares are marked. ``colour=False``: plain text
    (the position's own picture; Quarto adds its pieces' characteristics as symbols).
    """
    return str(state)


def _framed(rows: list[list[str]], width: int) -> str:
    columns = "".join(square_name(0, c)[:-1].center(width) for c in range(len(rows[0])))
    lines = ["   " + columns]
    lines += [f"{r + 1:>2} " + "".join(row) for r, row in enumerate(rows)]
    return "\n".join(lines)


def _marked(cell: str, marked: bool) -> str:
    return MARK + cell.replace(RESET, RESET + MARK) + RESET if marked else cell


@render.register
def _hermit(state: HermitState, last: Any = None, *, colour: bool = True) -> str:
    if not colour:
        return str(state)
    marks = last.squares if isinstance(last, HermitMove) else set()
    rows = [
        [_marked(f"{_HERMIT[ch]} {ch} {RESET}", (r, c) in marks) for c, ch in enumerate(row)]
        for r, row in enumerate(state.rows())
    ]
    return _framed(rows, 3)


@functools.singledispatch
def notes(state: State) -> str:
    """What a player should know besides the board (Santorini: the god cards), or ""."""
    return ""


@notes.register
def _santorini_notes(state: SantoriniState) -> str:
    return "\n".join(state.god_cards())


def _santorini_marks(last: Any) -> set[int]:
    if isinstance(last, GodTurn):
        return {cell for action in last.actions for cell in (action.source, action.target) if cell >= 0}
    if isinstance(last, Turn):
        return {last.source, last.target} | ({last.build} if last.build is not None else set())
    if isinstance(last, Placement):
        return {last.first, last.second}
    return set()


@render.register
def _santorini(state: SantoriniState, last: Any = None, *, colour: bool = True) -> str:
    if not colour:
        return str(state)
    letters = {cell: chr(65 + w) for w, cell in enumerate(state.workers) if cell >= 0}
    marks = _santorini_marks(last)
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            cell = r * SIZE + c
            level = height(state.levels, cell)
            worker = letters.get(cell)
            mark = f"{_WORKERS[(ord(worker) - 65) // 2 % 3]}{worker}" if worker else " "
            row.append(_marked(f"{_LEVELS[level]}{level}{mark}{_LEVELS[level]} {RESET}", cell in marks))
        rows.append(row)
    gods = [f"{seat + 1} {(state.god_of(seat) or '-').capitalize()}" for seat in range(state.players)]
    return _framed(rows, 3) + ("\n   gods: " + " · ".join(gods) if state.powers is not None else "")


def piece_glyph(pieces: PieceSet, code: int, colour: bool = True) -> str:
    """A piece drawn with all four characteristics: ``[A▲○]`` is the first value of each.

    The first characteristic shows as ▲/▽, the second as red/blue (▪/▫ in plain text), the
    third as [ ]/( ), the fourth as ○/●, in the order of the piece set (size, colour, shape,
    filling by default).
    """
    opening, closing = _SHAPES[code >> 2 & 1]
    body = f"{pieces.chars[code]}{_HEIGHTS[code & 1]}{_FILLINGS[code >> 3 & 1]}"
    if not colour:
        return f"{opening}{body}{_PLAIN_COLOURS[code >> 1 & 1]}{closing}"
    return f"{_PIECE_COLOURS[code >> 1 & 1]}{opening}{body}{closing}{RESET}"


def piece_legend(pieces: PieceSet, colour: bool = True) -> str:
    """What the glyphs mean, in the piece set's own words."""
    colours = tuple(f"{code}■{RESET}" for code in _PIECE_COLOURS) if colour else _PLAIN_COLOURS
    symbols = (_HEIGHTS, colours, ("[ ]", "( )"), _FILLINGS)
    return " · ".join(f"{a} {first}, {b} {second}" for (first, second), (a, b) in zip(pieces.values, symbols))


@render.register
def _quarto(state: QuartoState, last: Any = None, *, colour: bool = True) -> str:
    pieces = state.pieces
    placed = last.square if isinstance(last, QuartoMove) and colour else None
    width = 7 if colour else 8
    empty = ("\x1b[2m" if colour else "") + ".".center(width) + (RESET if colour else "")
    rows = []
    for r in range(4):
        row = []
        for c in range(4):
            code = state.piece_at(4 * r + c)
            cell = empty if code is None else f" {piece_glyph(pieces, code, colour)} "
            row.append(_marked(cell, placed == 4 * r + c))
        rows.append(row)
    hand = "-" if state.hand < 0 else piece_glyph(pieces, state.hand, colour)
    to_give = " ".join(piece_glyph(pieces, code, colour) for code in state.available()) or "-"
    lines = [_framed(rows, width), f"in hand: {hand}", f"to give: {to_give}"]
    return "\n".join([*lines, f"   ({piece_legend(pieces, colour)})"])
