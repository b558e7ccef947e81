"""Santorini's picture: towers as stacked tiers under domes, workers in their player's colour.

Each level is a tier of its own size and shade with a shadow under it, so levels 1, 2 and 3
read at a glance as one, two or three steps; a dome is a blue cap. With four players (two
teams) or a finite supply, a strip under the board names the teams and counts the pieces left.
"""

from __future__ import annotations

from bordspel.core import square_name
from bordspel.games.santorini.board import SIZE, height
from bordspel.games.santorini.engine import BOX_SUPPLY, Placement, SantoriniState, Turn
from bordspel.picture import (
    INK,
    MARGIN,
    Frame,
    Options,
    Square,
    arrival,
    board,
    click_targets,
    el,
    finish,
    group,
    last_move_marks,
    overlays,
    square_boxes,
)

__all__ = ["DOME_COLOUR", "WORKER_COLOURS", "draw", "seat_colours"]

WORKER_COLOURS = ("#d7263d", "#f4f4f4", "#8e44ad")
WORKER_INK = ("#ffffff", "#222222", "#ffffff")
DOME_COLOUR = "#1d4e9e"
TIER_FILLS = ("#fbfaf5", "#e3ded0", "#c4bca7")
TIER_INSETS = (4.0, 13.0, 21.0)
CELL = 72.0
STRIP = 54.0


def seat_colours(state: SantoriniState) -> list[str | None]:
    """Each seat's workers' colour (partners share one with four players)."""
    return [WORKER_COLOURS[state.colour_of(seat)] for seat in range(state.num_players)]


def _cell(index: int) -> Square:
    return divmod(index, SIZE)


def tower(x: float, y: float, cell: float, level: int) -> list[str]:
    """The tiers of a tower of ``level`` (4: three tiers under a dome) on the square at (x, y)."""
    out = []
    for step in range(min(level, 3)):
        inset = TIER_INSETS[step]
        side = cell - 2 * inset
        out.append(el("rect", x=x + inset + 2.5, y=y + inset + 3.5, width=side, height=side, rx=3,
                      fill="#00000040"))  # fmt: skip
        out.append(el("rect", x=x + inset, y=y + inset, width=side, height=side, rx=3, fill=TIER_FILLS[step],
                      stroke="#6f6a5c", stroke_width=1.6))  # fmt: skip
    if level == 4:
        cx, cy, radius = x + cell / 2, y + cell / 2, cell / 2 - 20
        out.append(el("circle", cx=cx, cy=cy, r=radius, fill=DOME_COLOUR, stroke="#0d2a5c", stroke_width=1.5))
        out.append(el("circle", cx=cx - radius / 3, cy=cy - radius / 3, r=radius / 3, fill="#ffffff55"))
    if level:
        out.append(el("text", str(level), x=x + cell - 5, y=y + cell - 5, font_size=10, text_anchor="end",
                      fill="#5a564c"))  # fmt: skip
    return out


def worker(cx: float, cy: float, index: int, colour: int, at: str) -> list[str]:
    """A worker: a disc in its colour with its letter, and a shadow (``data-at``: its square)."""
    parts = [
        el("circle", cx=cx + 2, cy=cy + 3, r=16, fill="#00000055"),
        el("circle", cx=cx, cy=cy, r=16, fill=WORKER_COLOURS[colour], stroke=INK, stroke_width=2.5,
           class_="worker"),
        el("text", chr(65 + index), x=cx, y=cy + 5, font_size=15, font_weight="bold", text_anchor="middle",
           fill=WORKER_INK[colour]),
    ]  # fmt: skip
    return [group(parts, class_="token", data_at=at)]


def _moved(move: object) -> tuple[list[Square], dict[int, int | None]]:
    """The squares the last move touched, and for each arrived worker's cell where it came from."""
    if isinstance(move, Turn):
        touched = [_cell(c) for c in (move.source, move.target, move.build) if c is not None]
        return touched, {move.target: move.source}
    if isinstance(move, Placement):
        return [_cell(move.first), _cell(move.second)], {move.first: None, move.second: None}
    return [], {}


def draw(state: SantoriniState, options: Options, size: int) -> str:
    """The Santorini board: tiers, domes and workers, as an SVG document ``size`` pixels wide."""
    frame = Frame(SIZE, SIZE, CELL, options.orientation)
    body = board(frame, "#bcd99a", "#9dbf7b")
    touched, arrived = _moved(options.last_move)
    body += last_move_marks(square_boxes(frame, touched))
    for index in range(SIZE * SIZE):
        body += tower(*frame.corner(*_cell(index)), CELL, height(state.levels, index))
    for index, cell in enumerate(state.workers):
        if cell < 0:
            continue
        cx, cy = frame.centre(*_cell(cell))
        drawn = worker(cx, cy, index, index // 2, square_name(*_cell(cell)))
        if cell in arrived:
            source = arrived[cell]
            shift = None if source is None else _shift(frame, source, cx, cy)
            body.append(arrival(drawn, options, shift))
        else:
            body += drawn
    body += overlays(frame, options)
    if options.interactive:
        body += click_targets(frame)
    strip = state.players == 4 or state.supply is not None
    if strip:
        body += _strip(state, frame)
    return finish(state, frame, body, options, size, STRIP if strip else 0)


def _shift(frame: Frame, source: int, cx: float, cy: float) -> tuple[float, float]:
    sx, sy = frame.centre(*_cell(source))
    return sx - cx, sy - cy


def _strip(state: SantoriniState, frame: Frame) -> list[str]:
    """Under the board: each colour's seats (the teams), and the pieces left when the supply is finite."""
    top = frame.height - 6
    out = []
    for colour in range(state.colours):
        seats = " & ".join(str(s + 1) for s in sorted(state.team(colour)))
        x = MARGIN + colour * 104
        label = f"team {colour + 1}: {seats}" if state.players == 4 else f"player {seats}"
        out.append(el("circle", cx=x + 8, cy=top + 12, r=8, fill=WORKER_COLOURS[colour], stroke=INK))
        out.append(el("text", label, x=x + 21, y=top + 17, font_size=12, fill=INK, class_="team"))
    if state.supply is not None:
        out += _supply(state.supply, top + 30)
    return out


def _supply(supply: tuple[int, int, int, int], y: float) -> list[str]:
    """The pieces left in the box: one small tier (or dome) per kind and its count."""
    out = [el("text", "supply", x=MARGIN, y=y + 13, font_size=12, fill=INK, data_i18n="supply")]
    for kind, left in enumerate(supply):
        x = MARGIN + 56 + kind * 68
        if kind < 3:
            out.append(
                el("rect", x=x, y=y, width=18, height=18, rx=2, fill=TIER_FILLS[kind], stroke="#6f6a5c")
            )
            out.append(
                el("text", str(kind + 1), x=x + 9, y=y + 13, font_size=10, text_anchor="middle", fill=INK)
            )
        else:
            out.append(el("circle", cx=x + 9, cy=y + 9, r=9, fill=DOME_COLOUR))
        text = f"{left}/{BOX_SUPPLY[kind]}"
        out.append(el("text", text, x=x + 23, y=y + 13, font_size=12, fill=INK, class_="supply"))
    return out
