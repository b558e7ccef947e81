"""SVG pictures of positions: ``svg.render(state)`` returns an SVG document as a string.

One drawing function per game: its GameSpec's ``svg`` part, or one registered here by the
state's type (``functools.singledispatch``); a game with neither is drawn by
``bordspel.svg_grid`` from its ``grid()``. Jupyter shows states
through ``State._repr_svg_``, which imports this module only when asked.
"""

from __future__ import annotations

import functools
from html import escape

from bordspel.core import State, game_part, square_name
from bordspel.games.hermit.engine import HermitState
from bordspel.games.quarto.engine import QuartoState
from bordspel.games.santorini.engine import SIZE, SantoriniState, height

__all__ = ["BLOCK_COLOURS", "DOME_COLOUR", "PIECE_COLOURS", "WORKER_COLOURS", "render"]

BLOCK_COLOURS = {"R": "#d1453b", "Y": "#f0b928", "B": "#2f6fcf"}
WORKER_COLOURS = ("#f28c28", "#7b3fa0", "#1e9e8a")
DOME_COLOUR = "#2c5aa0"
PIECE_COLOURS = ("#b8322a", "#2a5db0")
INK = "#333333"
MARGIN = 22


@functools.singledispatch
def render(state: State, size: int = 400, interactive: bool = False) -> str:
    """An SVG picture of ``state``, about ``size`` pixels wide.

    ``interactive`` lays a transparent ``<rect class="square" data-square="b3">`` over every
    square (and ``data-piece`` over Quarto's pieces to give) for a page to click on.
    """
    picture = game_part(state.name, "svg")
    if picture is not None:
        return str(picture(state, size, interactive))
    from bordspel.svg_grid import render_grid

    return render_grid(state, size, interactive)


def el(tag: str, text: str | None = None, **attrs: object) -> str:
    """One SVG element; ``stroke_width=2`` is written ``stroke-width="2"``, floats with 1 decimal."""
    parts = []
    for name, value in attrs.items():
        shown = f"{value:.1f}" if isinstance(value, float) else str(value)
        parts.append(f'{name.rstrip("_").replace("_", "-")}="{escape(shown)}"')
    head = f"<{tag} {' '.join(parts)}"
    return f"{head}/>" if text is None else f"{head}>{escape(text)}</{tag}>"


def _document(width: float, height_: float, body: list[str], size: int) -> str:
    scale = size / width
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height_ * scale:.0f}" '
        f'viewBox="0 0 {width:.0f} {height_:.0f}" font-family="Helvetica, Arial, sans-serif">'
        + "".join(body)
        + "</svg>"
    )


def _labels(rows: int, cols: int, cell: float) -> list[str]:
    """Column letters above and row numbers left of the board, as the notation names them."""
    out = []
    for col in range(cols):
        x = MARGIN + (col + 0.5) * cell
        out.append(
            el("text", square_name(0, col)[:-1], x=x, y=15, font_size=12, text_anchor="middle", fill=INK)
        )
    for row in range(rows):
        y = MARGIN + (row + 0.5) * cell + 4
        out.append(el("text", str(row + 1), x=10, y=y, font_size=12, text_anchor="middle", fill=INK))
    return out


def _grid(rows: int, cols: int, cell: float, fill: str, line: str) -> list[str]:
    width, height_ = cols * cell, rows * cell
    out = [el("rect", x=MARGIN, y=MARGIN, width=width, height=height_, fill=fill, stroke=INK)]
    for i in range(1, cols):
        x = MARGIN + i * cell
        out.append(el("line", x1=x, y1=MARGIN, x2=x, y2=MARGIN + height_, stroke=line))
    for i in range(1, rows):
        y = MARGIN + i * cell
        out.append(el("line", x1=MARGIN, y1=y, x2=MARGIN + width, y2=y, stroke=line))
    return out


def _squares(rows: int, cols: int, cell: float) -> list[str]:
    """The click targets of an interactive picture, one per square."""
    return [
        el("rect", x=MARGIN + c * cell, y=MARGIN + r * cell, width=cell, height=cell, fill="transparent",
           class_="square", data_square=square_name(r, c))
        for r in range(rows)
        for c in range(cols)
    ]  # fmt: skip


def _caption(state: State, width: float) -> str:
    outcome = state.outcome()
    if outcome is None:
        text = f"player {state.to_move + 1} to move"
    elif outcome.is_draw:
        text = f"draw: {outcome.termination}"
    else:
        winners = " and ".join(str(p + 1) for p in sorted(outcome.winners))
        text = f"player {winners} won: {outcome.termination}"
    return el("text", text, x=width / 2, y=width + 12, font_size=13, text_anchor="middle", fill=INK)


# -- Hermit --------------------------------------------------------------------------------------
@render.register
def _hermit(state: HermitState, size: int = 400, interactive: bool = False) -> str:
    n, cell = state.n, 48.0
    body = _grid(n, n, cell, "#f6f1e7", "#d8cfbf") + _labels(n, n, cell)
    for block in state.blocks():
        wide = 2 if block.placement == "H" else 1
        tall = 2 if block.placement == "V" else 1
        x, y = MARGIN + block.col * cell + 5, MARGIN + block.row * cell + 5
        colour = BLOCK_COLOURS[block.colour]
        body.append(
            el("rect", x=x, y=y, width=wide * cell - 10, height=tall * cell - 10, rx=5, fill=colour,
               stroke="#00000066", stroke_width=1.5)
        )  # fmt: skip
        if block.placement == "U":  # an upright block seen from above: its top face
            face = cell - 28
            body.append(el("rect", x=x + 9, y=y + 9, width=face, height=face, rx=3, fill="#ffffff55",
                           stroke="#00000033"))  # fmt: skip
    if interactive:
        body += _squares(n, n, cell)
    side = 2 * MARGIN + n * cell
    return _document(side, side + 24, [*body, _caption(state, side)], size)


# -- Santorini -------------------------------------------------------------------------------------
def _tower(x: float, y: float, cell: float, level: int) -> list[str]:
    out = []
    for step in range(min(level, 3)):
        inset = 4 + step * 9
        shade = ("#fbfbf7", "#ecebe4", "#dcdbd2")[step]
        side = cell - 2 * inset
        out.append(el("rect", x=x + inset, y=y + inset, width=side, height=side, fill=shade, stroke="#8a8a80",
                      stroke_width=1.2))  # fmt: skip
    if level == 4:
        out.append(el("circle", cx=x + cell / 2, cy=y + cell / 2, r=cell / 2 - 16, fill=DOME_COLOUR))
    if level:
        out.append(el("text", str(level), x=x + cell - 6, y=y + cell - 6, font_size=11, text_anchor="end",
                      fill="#555"))  # fmt: skip
    return out


@render.register
def _santorini(state: SantoriniState, size: int = 400, interactive: bool = False) -> str:
    cell = 72.0
    body = _grid(SIZE, SIZE, cell, "#bcd99a", "#9dbf7b") + _labels(SIZE, SIZE, cell)
    for index in range(SIZE * SIZE):
        x, y = MARGIN + (index % SIZE) * cell, MARGIN + (index // SIZE) * cell
        body += _tower(x, y, cell, height(state.levels, index))
    for worker, index in enumerate(state.workers):
        if index < 0:
            continue
        cx, cy = MARGIN + (index % SIZE + 0.5) * cell, MARGIN + (index // SIZE + 0.5) * cell
        colour = WORKER_COLOURS[worker // 2 % len(WORKER_COLOURS)]
        body.append(el("circle", cx=cx, cy=cy, r=15, fill=colour, stroke=INK, stroke_width=2))
        body.append(el("text", chr(65 + worker), x=cx, y=cy + 5, font_size=14, font_weight="bold",
                       text_anchor="middle", fill="white"))  # fmt: skip
    if interactive:
        body += _squares(SIZE, SIZE, cell)
    side = 2 * MARGIN + SIZE * cell
    return _document(side, side + 24, [*body, _caption(state, side)], size)


# -- Quarto ------------------------------------------------------------------------------------------
def piece_svg(code: int, cx: float, cy: float, scale: float = 1.0) -> str:
    """One piece seen from above: size, colour, shape, and a hole when hollow (code bits 0-3)."""
    radius = (20.0 if code & 1 == 0 else 13.0) * scale
    fill = PIECE_COLOURS[code >> 1 & 1]
    if code & 4 == 0:
        side = 2 * radius
        shape = el("rect", x=cx - radius, y=cy - radius, width=side, height=side, rx=2 * scale, fill=fill,
                   stroke=INK, stroke_width=1.5)  # fmt: skip
    else:
        shape = el("circle", cx=cx, cy=cy, r=radius, fill=fill, stroke=INK, stroke_width=1.5)
    if code & 8 == 0:
        shape += el("circle", cx=cx, cy=cy, r=radius * 0.45, fill="#f3ead9", stroke=INK, stroke_width=1)
    return shape


@render.register
def _quarto(state: QuartoState, size: int = 400, interactive: bool = False) -> str:
    cell = 64.0
    body = _grid(4, 4, cell, "#e9dcc3", "#cbb894") + _labels(4, 4, cell)
    for square in range(16):
        cx, cy = MARGIN + (square % 4 + 0.5) * cell, MARGIN + (square // 4 + 0.5) * cell
        code = state.piece_at(square)
        if code is None:
            body.append(el("circle", cx=cx, cy=cy, r=24, fill="none", stroke="#cbb894", stroke_width=1.5))
        else:
            body.append(piece_svg(code, cx, cy))
    for _, line in state.winning_lines():
        for c in (c for c in range(16) if line >> c & 1):
            x, y = MARGIN + (c % 4) * cell, MARGIN + (c // 4) * cell
            body.append(el("rect", x=x + 2, y=y + 2, width=cell - 4, height=cell - 4, fill="none",
                           stroke="#1a9c3a", stroke_width=4))  # fmt: skip
    if interactive:
        body += _squares(4, 4, cell)
    board = 2 * MARGIN + 4 * cell
    body += _quarto_side(state, board, interactive)
    return _document(board + 150, board + 24, [*body, _caption(state, board)], size)


def _quarto_side(state: QuartoState, left: float, interactive: bool = False) -> list[str]:
    """The piece in hand and the pieces still to give, beside the board."""
    chars = state.pieces.chars
    out = [el("text", "in hand", x=left + 10, y=MARGIN + 6, font_size=13, fill=INK)]
    if state.hand >= 0:
        out.append(piece_svg(state.hand, left + 40, MARGIN + 40))
        out.append(el("text", chars[state.hand], x=left + 72, y=MARGIN + 45, font_size=14, fill=INK))
    out.append(el("text", "to give", x=left + 10, y=MARGIN + 86, font_size=13, fill=INK))
    for i, code in enumerate(state.available()):
        cx, cy = left + 22 + (i % 4) * 30, MARGIN + 108 + (i // 4) * 44
        out.append(piece_svg(code, cx, cy, 0.6))
        out.append(el("text", chars[code], x=cx, y=cy + 22, font_size=10, text_anchor="middle", fill=INK))
        if interactive:
            target = el("rect", x=cx - 15, y=cy - 15, width=30, height=42, fill="transparent", class_="piece",
                        data_piece=chars[code])  # fmt: skip
            out.append(target)
    return out
