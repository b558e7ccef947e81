"""The generic SVG picture of a grid game: its ``grid()`` rows, one labelled disc per piece.

``bordspel.svg.render`` draws a game with it when the game has no picture of its own; the
last move marks the squares its text names (``b2``, ``a1-c3``).
"""

from __future__ import annotations

import re
from typing import Any

from bordspel.core import BordspelError, Grid, State, parse_square
from bordspel.picture import (
    INK,
    Frame,
    Options,
    Square,
    board,
    click_targets,
    document,
    el,
    finish,
    last_move_marks,
    overlays,
    square_boxes,
)

__all__ = ["draw"]

COLOURS = ("#d1453b", "#2f6fcf", "#1e9e8a", "#7b3fa0", "#f0b928", "#f28c28")
CELL = 64.0
SQUARE = re.compile(r"[a-z]+[0-9]+")


def draw(state: State, options: Options, size: int) -> str:
    """``state.grid()`` drawn as a board (the position string in a box when it has no grid)."""
    if not isinstance(state, Grid):
        width = 8 * CELL
        text = el(
            "text", state.to_str(), x=width / 2, y=width / 2, font_size=14, text_anchor="middle", fill=INK
        )
        return document(width, width, [text], size)
    rows = list(state.grid())
    frame = Frame(len(rows), max(len(row) for row in rows), CELL, options.orientation)
    body = board(frame, "#f4efe4", "#c9bfa9")
    body += last_move_marks(square_boxes(frame, _named(options.last_move, frame)))
    symbols = sorted({ch for row in rows for ch in row} - {"."})
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                body += _piece(ch, COLOURS[symbols.index(ch) % len(COLOURS)], *frame.centre(r, c))
    body += overlays(frame, options)
    if options.interactive:
        body += click_targets(frame)
    return finish(state, frame, body, options, size)


def _named(move: Any, frame: Frame) -> list[Square]:
    """The squares a move's text names, those on the board."""
    if move is None:
        return []
    found = []
    for name in SQUARE.findall(str(move.to_str())):
        try:
            found.append(parse_square(name, frame.rows, frame.cols))
        except BordspelError:
            continue
    return found


def _piece(symbol: str, colour: str, cx: float, cy: float) -> list[str]:
    return [
        el("circle", cx=cx, cy=cy, r=CELL / 2 - 8, fill=colour, stroke=INK, stroke_width=2),
        el(
            "text",
            symbol,
            x=cx,
            y=cy + 7,
            font_size=20,
            font_weight="bold",
            text_anchor="middle",
            fill="white",
        ),
    ]
