"""Quarto in the terminal: pieces drawn with all four characteristics, the piece in hand and
the pieces still to give."""

from __future__ import annotations

from typing import Any

from bordspel.ansi import RESET, framed, marked
from bordspel.games.quarto.engine import PieceSet, QuartoMove, QuartoState

__all__ = ["piece_glyph", "piece_legend", "render"]

_PIECE_COLOURS = ("\x1b[1;31m", "\x1b[1;34m")
_HEIGHTS = ("▲", "▽")
_SHAPES = (("[", "]"), ("(", ")"))
_FILLINGS = ("○", "●")
_PLAIN_COLOURS = ("▪", "▫")


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


def render(state: QuartoState, last: Any = None, *, colour: bool = True) -> str:
    """The board and the pieces in hand and to give, the last placed piece marked (in reverse
    video, or between ``>`` and ``<`` in plain text)."""
    pieces = state.pieces
    placed = last.square if isinstance(last, QuartoMove) else None
    width = 7 if colour else 8
    empty = ("\x1b[2m" if colour else "") + ".".center(width) + (RESET if colour else "")
    rows = []
    for r in range(4):
        row = []
        for c in range(4):
            code = state.piece_at(4 * r + c)
            mark = placed == 4 * r + c
            row.append(empty if code is None else _cell(piece_glyph(pieces, code, colour), mark, colour))
        rows.append(row)
    hand = "-" if state.hand < 0 else piece_glyph(pieces, state.hand, colour)
    to_give = " ".join(piece_glyph(pieces, code, colour) for code in state.available()) or "-"
    lines = [framed(rows, width), f"in hand: {hand}", f"to give: {to_give}"]
    return "\n".join([*lines, f"   ({piece_legend(pieces, colour)})"])


def _cell(glyph: str, mark: bool, colour: bool) -> str:
    """A piece on the board; the one just placed in reverse video, or as ``>[A▲○▪]<`` in plain text."""
    if colour:
        return marked(f" {glyph} ", mark)
    return f">{glyph}<" if mark else f" {glyph} "
