"""What every SVG picture of a position shares: the board frame and its orientation, square
labels, highlighted squares, arrows, the last-move marker and the caption.

Each game draws its own pieces with these (``games/<game>/svg.py``); :func:`bordspel.svg.render`
chooses the drawing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from bordspel.core import State, parse_square, square_name

__all__ = [
    "ARROW_COLOUR",
    "HIGHLIGHT_COLOUR",
    "INK",
    "LAST_MOVE_COLOUR",
    "MARGIN",
    "ORIENTATIONS",
    "Frame",
    "Options",
    "board",
    "click_targets",
    "document",
    "el",
    "finish",
    "group",
    "last_move_marks",
    "overlays",
    "square_boxes",
]

INK = "#333333"
MARGIN = 22
LAST_MOVE_COLOUR = "#f2a900"
HIGHLIGHT_COLOUR = "#0e9f9a"
ARROW_COLOUR = "#1f7a3d"
ORIENTATIONS = (0, 90, 180, 270)
Square = tuple[int, int]


@dataclass(frozen=True)
class Frame:
    """A board of ``rows`` x ``cols`` squares of ``cell`` units, turned ``orientation`` degrees clockwise.

    Square (0, 0) is ``a1``, drawn top-left when ``orientation`` is 0.
    """

    rows: int
    cols: int
    cell: float
    orientation: int = 0

    def place(self, row: float, col: float) -> tuple[float, float]:
        """Where (row, col) is drawn, as (display row, display column); fractions allowed."""
        last_row, last_col = self.rows - 1, self.cols - 1
        turn = self.orientation
        if turn == 90:
            return col, last_row - row
        if turn == 180:
            return last_row - row, last_col - col
        if turn == 270:
            return last_col - col, row
        return row, col

    def corner(self, row: int, col: int) -> tuple[float, float]:
        """The (x, y) of the top-left corner of the square's drawing."""
        shown_row, shown_col = self.place(row, col)
        return MARGIN + shown_col * self.cell, MARGIN + shown_row * self.cell

    def centre(self, row: float, col: float) -> tuple[float, float]:
        """The (x, y) of the middle of the square's drawing."""
        shown_row, shown_col = self.place(row, col)
        return MARGIN + (shown_col + 0.5) * self.cell, MARGIN + (shown_row + 0.5) * self.cell

    @property
    def width(self) -> float:
        """The drawing's width, margins included."""
        return 2 * MARGIN + self.cell * (self.rows if self.orientation in (90, 270) else self.cols)

    @property
    def height(self) -> float:
        """The drawing's height, margins included."""
        return 2 * MARGIN + self.cell * (self.cols if self.orientation in (90, 270) else self.rows)


@dataclass(frozen=True)
class Options:
    """What a game's drawing is asked to show besides the position (see :func:`render`)."""

    interactive: bool = False
    last_move: Any = None
    squares: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()
    orientation: int = 0
    caption: bool = True
    piece_letters: bool = False


def el(tag: str, text: str | None = None, /, **attrs: object) -> str:
    """One SVG element; ``stroke_width=2`` is written ``stroke-width="2"``, floats with 1 decimal."""
    parts = []
    for name, value in attrs.items():
        shown = f"{value:.1f}" if isinstance(value, float) else str(value)
        parts.append(f'{name.rstrip("_").replace("_", "-")}="{escape(shown)}"')
    head = f"<{tag} {' '.join(parts)}"
    return f"{head}/>" if text is None else f"{head}>{escape(text)}</{tag}>"


def group(body: Sequence[str], **attrs: object) -> str:
    """``<g>`` around ``body``."""
    return el("g", **attrs)[:-2] + ">" + "".join(body) + "</g>"


def document(width: float, height: float, body: list[str], size: int, beside: str = "") -> str:
    """The ``<svg>`` document of ``width`` x ``height`` units around ``body``, ``size`` pixels wide."""
    scale = size / width
    extra = f' data-beside="{beside}"' if beside else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height * scale:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif"{extra}>'
        + "".join(body)
        + "</svg>"
    )


def board(frame: Frame, fill: str, line: str) -> list[str]:
    """The board: its squares, grid lines and the labels the notation names them by."""
    width, height = frame.width - 2 * MARGIN, frame.height - 2 * MARGIN
    out = [el("rect", x=MARGIN, y=MARGIN, width=width, height=height, fill=fill, stroke=INK, rx=3)]
    for i in range(1, round(width / frame.cell)):
        x = MARGIN + i * frame.cell
        out.append(el("line", x1=x, y1=MARGIN, x2=x, y2=MARGIN + height, stroke=line))
    for i in range(1, round(height / frame.cell)):
        y = MARGIN + i * frame.cell
        out.append(el("line", x1=MARGIN, y1=y, x2=MARGIN + width, y2=y, stroke=line))
    return out + _labels(frame)


def _labels(frame: Frame) -> list[str]:
    """Column letters and row numbers at the edges the turned board shows them on."""
    sideways = frame.orientation in (90, 270)
    font = min(14.0, max(10.0, frame.cell / 4))
    out = []
    for col in range(frame.cols):
        out.append(_label(square_name(0, col)[:-1], frame.centre(0, col), not sideways, font))
    for row in range(frame.rows):
        out.append(_label(str(row + 1), frame.centre(row, 0), sideways, font))
    return out


def _label(text: str, centre: tuple[float, float], on_top: bool, font: float) -> str:
    x, y = (centre[0], 15.0) if on_top else (10.0, centre[1] + 4)
    return el("text", text, x=x, y=y, font_size=font, text_anchor="middle", fill=INK)


def click_targets(frame: Frame) -> list[str]:
    """The click targets of an interactive picture, one per square."""
    out = []
    for row in range(frame.rows):
        for col in range(frame.cols):
            x, y = frame.corner(row, col)
            out.append(el("rect", x=x, y=y, width=frame.cell, height=frame.cell, fill="transparent",
                          class_="square", data_square=square_name(row, col)))  # fmt: skip
    return out


Box = tuple[float, float, float, float]


def square_boxes(frame: Frame, squares: Iterable[Square]) -> list[Box]:
    """(x, y, width, height) of each square."""
    return [(*frame.corner(row, col), frame.cell, frame.cell) for row, col in sorted(squares)]


def outline(boxes: Iterable[Box], colour: str, kind: str, width: float = 4.0) -> list[str]:
    """Rings just inside ``boxes`` (the pieces keep their colours: no tint), with a dark inner line."""
    inset = width / 2 + 1
    out = []
    for x, y, wide, high in boxes:
        box = {"x": x + inset, "y": y + inset, "width": wide - 2 * inset, "height": high - 2 * inset, "rx": 4}
        out.append(el("rect", **box, fill="none", stroke=colour, stroke_width=width, class_=kind))
        out.append(el("rect", **box, fill="none", stroke="#00000066", stroke_width=1.0))
    return out


def last_move_marks(boxes: Iterable[Box]) -> list[str]:
    """The squares (or block) the last move touched, ringed; drawn under the pieces."""
    return outline(boxes, LAST_MOVE_COLOUR, "last-move", 5.0)


def overlays(frame: Frame, options: Options) -> list[str]:
    """Highlighted squares and arrows over the pieces: call after drawing them.

    Raises NotationError for a square name that is not on the board.
    """
    on_board = functools.partial(parse_square, rows=frame.rows, cols=frame.cols)
    out = outline(square_boxes(frame, map(on_board, options.squares)), HIGHLIGHT_COLOUR, "highlight", 3.0)
    return out + [arrow(frame, on_board(start), on_board(end)) for start, end in options.arrows]


def arrow(frame: Frame, start: Square, end: Square) -> str:
    """An arrow from ``start`` to ``end``, clear of both squares' middles, where a piece and its
    label stand: it leaves from beside the piece on ``start`` and stops short of the middle of ``end``."""
    (x1, y1), (x2, y2) = frame.centre(*start), frame.centre(*end)
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    lift, stop = (frame.cell * 0.3, frame.cell * 0.22) if length > frame.cell * 0.9 else (0.0, 0.0)
    x1, y1, x2, y2 = x1 + ux * lift, y1 + uy * lift, x2 - ux * stop, y2 - uy * stop
    head, half = frame.cell * 0.26, frame.cell * 0.15
    bx, by = x2 - ux * head, y2 - uy * head
    corners = ((x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
    shaft = el("line", x1=x1, y1=y1, x2=bx, y2=by, stroke=ARROW_COLOUR, stroke_width=frame.cell * 0.1,
               stroke_linecap="round")  # fmt: skip
    return group([shaft, el("polygon", points=points, fill=ARROW_COLOUR)], class_="arrow", opacity="0.8")


def arrival(body: Sequence[str], options: Options, shift: tuple[float, float] | None) -> str:
    """The piece that just moved, marked for a page to animate (``shift``: from where, None: placed)."""
    if not options.interactive:
        return "".join(body)
    dx, dy = shift if shift is not None else (0.0, 0.0)
    return group(body, class_="arrive", data_dx=f"{dx:.1f}", data_dy=f"{dy:.1f}")


def caption(state: State, width: float, y: float) -> str:
    """Who is to move, or who won, under the board."""
    outcome = state.outcome()
    if outcome is None:
        text = f"player {state.to_move + 1} to move"
    elif outcome.is_draw:
        text = f"draw: {outcome.termination}"
    else:
        winners = " and ".join(str(p + 1) for p in sorted(outcome.winners))
        text = f"player {winners} won: {outcome.termination}"
    return el("text", text, x=width / 2, y=y, font_size=13, text_anchor="middle", fill=INK)


def finish(
    state: State,
    frame: Frame,
    body: list[str],
    options: Options,
    size: int,
    below: float = 0,
    tray: Sequence[str] = (),
) -> str:
    """The document: the board ``frame`` and ``below`` units under it, and the caption if asked.

    A ``tray`` (drawn in the ``below`` units, as wide as the board: Quarto's pieces to give) is
    grouped (``class="tray"``) so that a page may lay it beside the board instead; without a
    caption the picture then says how: ``data-beside="width height dx dy"``, the picture's size
    with the tray beside the board and the tray's shift there.
    """
    width, height = frame.width, frame.height + below
    if tray:
        body = [*body, group(tray, class_="tray")]
    beside = ""
    if tray and not options.caption:
        wide, high = 2 * width - MARGIN, max(frame.height, below + 2 * MARGIN)
        beside = f"{wide:.0f} {high:.0f} {width - MARGIN:.0f} {MARGIN - frame.height:.0f}"
    if options.caption:
        body = [*body, caption(state, width, height + 10)]
        height += 24
    return document(width, height, body, size, beside)
