"""Hermit's picture: coloured blocks seen from above, upright ones showing their top face."""

from __future__ import annotations

from bordspel.games.hermit.engine import HermitMove, HermitState, block_squares
from bordspel.picture import (
    Box,
    Frame,
    Options,
    arrival,
    board,
    click_targets,
    el,
    finish,
    last_move_marks,
    overlays,
)

__all__ = ["BLOCK_COLOURS", "draw"]

BLOCK_COLOURS = {"R": "#d1453b", "Y": "#f0b928", "B": "#2f6fcf"}
CELL = 48.0


def footprint(frame: Frame, move: HermitMove) -> Box:
    """(x, y, width, height) of the squares a block covers, as drawn."""
    corners = [frame.corner(row, col) for row, col in block_squares((move.row, move.col), move.placement)]
    left, top = min(x for x, _ in corners), min(y for _, y in corners)
    return (
        left,
        top,
        max(x for x, _ in corners) + frame.cell - left,
        max(y for _, y in corners) + frame.cell - top,
    )


def block(frame: Frame, move: HermitMove) -> list[str]:
    """One block: a rounded box over the squares it covers, in its colour."""
    left, top, wide, high = footprint(frame, move)
    out = [
        el("rect", x=left + 5, y=top + 5, width=wide - 10, height=high - 10, rx=5,
           fill=BLOCK_COLOURS[move.colour], stroke="#00000066", stroke_width=1.5)
    ]  # fmt: skip
    if move.placement == "U":  # an upright block seen from above: its top face
        out.append(el("rect", x=left + 14, y=top + 14, width=frame.cell - 28, height=frame.cell - 28, rx=3,
                      fill="#ffffff55", stroke="#00000033"))  # fmt: skip
    return out


def draw(state: HermitState, options: Options, size: int) -> str:
    """The Hermit board with its blocks, as an SVG document ``size`` pixels wide."""
    frame = Frame(state.n, state.n, CELL, options.orientation)
    body = board(frame, "#f6f1e7", "#d8cfbf")
    last = options.last_move if isinstance(options.last_move, HermitMove) else None
    if last is not None:
        body += last_move_marks([footprint(frame, last)])
    for placed in state.blocks():
        drawn = block(frame, placed)
        body.append(arrival(drawn, options, None) if placed == last else "".join(drawn))
    body += overlays(frame, options)
    if options.interactive:
        body += click_targets(frame)
    return finish(state, frame, body, options, size)
