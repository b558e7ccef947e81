"""The generic SVG picture of a grid game: its ``grid()`` rows, one labelled disc per piece.

``bordspel.svg.render`` draws a game with it when the game has no picture of its own.
"""

from __future__ import annotations

from bordspel.core import Grid, State
from bordspel.svg import INK, MARGIN, _caption, _document, _grid, _labels, _squares, el

__all__ = ["render_grid"]

COLOURS = ("#d1453b", "#2f6fcf", "#1e9e8a", "#7b3fa0", "#f0b928", "#f28c28")
CELL = 64.0


def render_grid(state: State, size: int = 400, interactive: bool = False) -> str:
    """``state.grid()`` drawn as a board (the position string in a box when it has no grid)."""
    if not isinstance(state, Grid):
        width = 2 * MARGIN + 8 * CELL
        text = el(
            "text", state.to_str(), x=width / 2, y=width / 2, font_size=14, text_anchor="middle", fill=INK
        )
        return _document(width, width + 24, [text, _caption(state, width)], size)
    rows = list(state.grid())
    height, width = len(rows), max(len(row) for row in rows)
    body = _grid(height, width, CELL, "#f4efe4", "#c9bfa9") + _labels(height, width, CELL)
    symbols = sorted({ch for row in rows for ch in row} - {"."})
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                body += _piece(ch, COLOURS[symbols.index(ch) % len(COLOURS)], r, c)
    if interactive:
        body += _squares(height, width, CELL)
    side = 2 * MARGIN + width * CELL
    return _document(side, max(side, 2 * MARGIN + height * CELL) + 24, [*body, _caption(state, side)], size)


def _piece(symbol: str, colour: str, row: int, col: int) -> list[str]:
    cx, cy = MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL
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
