"""Quarto's picture: pieces seen from the front and above, all four characteristics visible.

A piece is tall or short (the height of its side), square or round (a box or a cylinder),
hollow or solid (a hole in its top) and light or dark (red and blue in the standard set).
Under the board (or beside it, on a wide page): the piece in hand and the pieces still to give,
each with its letter and in a slot of its own (its place in the full set, left empty once given),
so that no piece moves while the game goes on.
"""

from __future__ import annotations

from bordspel.core import square_name
from bordspel.games.quarto.engine import QuartoMove, QuartoState
from bordspel.picture import (
    INK,
    MARGIN,
    Frame,
    Options,
    arrival,
    board,
    click_targets,
    el,
    finish,
    group,
    last_move_marks,
    outline,
    overlays,
    square_boxes,
)

__all__ = ["draw", "piece_colours", "piece_svg"]

CELL = 72.0
SLOT = 56.0
STRIP = 4 * SLOT + 30
WIN_COLOUR = "#1a9c3a"
NAMED_COLOURS = {
    "red": "#e0604f", "rood": "#e0604f", "blue": "#2b4f93", "blauw": "#2b4f93",
    "light": "#ecd3a0", "licht": "#ecd3a0", "dark": "#5a3a24", "donker": "#5a3a24",
    "white": "#f2efe6", "wit": "#f2efe6", "black": "#2d2d2d", "zwart": "#2d2d2d",
}  # fmt: skip
DEFAULT_COLOURS = ("#ecd3a0", "#5a3a24")


def piece_colours(state: QuartoState) -> tuple[str, str]:
    """The fills of the two colour values, by their names when known (light, dark otherwise)."""
    names = state.pieces.values[1]
    return (
        NAMED_COLOURS.get(names[0].lower(), DEFAULT_COLOURS[0]),
        NAMED_COLOURS.get(names[1].lower(), DEFAULT_COLOURS[1]),
    )


def _shade(colour: str) -> str:
    """The colour of a piece's side: its top colour darkened."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(value * 0.72):02x}" for value in (red, green, blue))


def piece_svg(code: int, cx: float, cy: float, colours: tuple[str, str], scale: float = 1.0) -> str:
    """One piece centred on (cx, cy); code bits: 0 short, 1 second colour, 2 round, 3 solid."""
    radius, lean = 18.0 * scale, 10.0 * scale
    rise = (12.0 if code & 1 else 30.0) * scale
    top = cy - rise / 2
    fill = colours[code >> 1 & 1]
    side, round_ = _shade(fill), bool(code & 4)
    stroke = {"stroke": INK, "stroke_width": 1.3}
    out = [el("ellipse", cx=cx + 2, cy=top + rise + lean * 0.6, rx=radius + 2, ry=lean, fill="#00000033")]
    if round_:
        out.append(el("ellipse", cx=cx, cy=top + rise, rx=radius, ry=lean, fill=side, **stroke))
        out.append(el("rect", x=cx - radius, y=top, width=2 * radius, height=rise, fill=side))
        edges = f"M{cx - radius:.1f},{top:.1f}v{rise:.1f}M{cx + radius:.1f},{top:.1f}v{rise:.1f}"
        out.append(el("path", d=edges, **stroke))
        out.append(el("ellipse", cx=cx, cy=top, rx=radius, ry=lean, fill=fill, **stroke))
    else:
        out.append(
            el("rect", x=cx - radius, y=top, width=2 * radius, height=rise + lean, fill=side, **stroke)
        )
        out.append(el("rect", x=cx - radius, y=top - lean, width=2 * radius, height=2 * lean, fill=fill,
                      **stroke))  # fmt: skip
    if not code & 8:  # hollow: a hole in the top
        out.append(
            el("ellipse", cx=cx, cy=top, rx=radius * 0.45, ry=lean * 0.45, fill="#2a1f16", stroke=side)
        )
    return "".join(out)


def _placed(move: object) -> int | None:
    return move.square if isinstance(move, QuartoMove) else None


def draw(state: QuartoState, options: Options, size: int) -> str:
    """The Quarto board and the pieces still to give, as an SVG document ``size`` pixels wide."""
    frame = Frame(4, 4, CELL, options.orientation)
    colours = piece_colours(state)
    body = board(frame, "#e9dcc3", "#cbb894")
    placed = _placed(options.last_move)
    if placed is not None:
        body += last_move_marks(square_boxes(frame, [divmod(placed, 4)]))
    for square in range(16):
        row, col = divmod(square, 4)
        cx, cy = frame.centre(row, col)
        code = state.piece_at(square)
        if code is None:
            body.append(el("circle", cx=cx, cy=cy, r=26, fill="none", stroke="#cbb894", stroke_width=1.5))
            continue
        drawn = [
            group([piece_svg(code, cx, cy, colours)], class_="piece-on-board", data_at=square_name(row, col))
        ]
        if options.piece_letters:
            x, y = frame.corner(row, col)
            drawn.append(el("text", state.pieces.chars[code], x=x + CELL - 6, y=y + CELL - 6, font_size=12,
                            text_anchor="end", fill=INK, class_="letter"))  # fmt: skip
        body.append(arrival(drawn, options, None) if square == placed else "".join(drawn))
    for _, line in state.winning_lines():
        body += outline(
            square_boxes(frame, [divmod(c, 4) for c in range(16) if line >> c & 1]), WIN_COLOUR, "win"
        )
    body += overlays(frame, options)
    if options.interactive:
        body += click_targets(frame)
    return finish(state, frame, body, options, size, STRIP, tray=_strip(state, frame, colours, options))


def _strip(state: QuartoState, frame: Frame, colours: tuple[str, str], options: Options) -> list[str]:
    """Under the board: the piece in hand (ringed when just handed over) and the pieces to give, each
    in its own slot (a piece's code is its place in the full set)."""
    chars, top = state.pieces.chars, frame.height
    out = [el("text", "in hand", x=MARGIN, y=top + 4, font_size=13, fill=INK, data_i18n="in_hand")]
    hand_x, hand_y = MARGIN + SLOT / 2, top + 14 + SLOT / 2
    if state.hand >= 0:
        out.append(piece_svg(state.hand, hand_x, hand_y, colours, 0.8))
        out.append(el("text", chars[state.hand], x=hand_x, y=hand_y + SLOT / 2 + 10, font_size=13,
                      text_anchor="middle", fill=INK))  # fmt: skip
        if isinstance(options.last_move, QuartoMove) and options.last_move.give is not None:
            out += last_move_marks([(hand_x - SLOT / 2, hand_y - SLOT / 2, SLOT, SLOT)])
    left = frame.width - MARGIN - 4 * SLOT
    out.append(el("text", "to give", x=left, y=top + 4, font_size=13, fill=INK, data_i18n="to_give"))
    for code in state.available():
        x, y = left + (code % 4) * SLOT, top + 10 + (code // 4) * SLOT
        out.append(piece_svg(code, x + SLOT / 2, y + SLOT / 2 - 5, colours, 0.7))
        out.append(el("text", chars[code], x=x + SLOT / 2, y=y + SLOT - 3, font_size=11, text_anchor="middle",
                      fill=INK))  # fmt: skip
        if options.interactive:
            out.append(el("rect", x=x, y=y, width=SLOT, height=SLOT, fill="transparent", class_="piece",
                          data_piece=chars[code]))  # fmt: skip
    return out
