"""SVG pictures of positions: ``svg.render(state)`` returns an SVG document as a string.

Each game draws its position with what every picture shares (``bordspel.picture``: the board
frame and its orientation, square labels, highlighted squares, arrows, the last-move marker, the
caption): its GameSpec's ``svg`` part (by convention ``games/<game>/svg.py``'s ``draw``),
imported only when a position of that game is drawn, or ``bordspel.svg_grid`` from ``grid()``.
Jupyter draws a state through ``bordspel.jupyter.PicturedState``, which imports this module
only when asked.

>>> from bordspel.core import new_game
>>> state = new_game("hermit", size=3)
>>> move = state.legal_moves()[0]
>>> picture = render(state.apply(move), last_move=move, squares=["c3"], arrows=[("a1", "c3")])
>>> picture.startswith("<svg") and 'class="last-move"' in picture and 'class="arrow"' in picture
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from bordspel import svg_grid
from bordspel.core import BordspelError, Part, State, game_part
from bordspel.picture import (
    ARROW_COLOUR,
    HIGHLIGHT_COLOUR,
    LAST_MOVE_COLOUR,
    ORIENTATIONS,
    Frame,
    Options,
    el,
)

__all__ = [
    "ARROW_COLOUR",
    "HIGHLIGHT_COLOUR",
    "LAST_MOVE_COLOUR",
    "SVG_PART",
    "Draw",
    "Frame",
    "Options",
    "el",
    "render",
]


class Draw(Protocol):
    """A game's picture: ``draw(state, options, size)`` returns the SVG document."""

    def __call__(self, state: Any, options: Options, size: int, /) -> str: ...


SVG_PART: Part[Draw] = Part("svg", "a function draw(state, options, size) -> str", callable)
"""The ``svg`` part of a GameSpec (by convention ``<package>.svg:draw``)."""


def render(
    state: State,
    size: int = 400,
    interactive: bool = False,
    *,
    last_move: Any = None,
    squares: Iterable[str] = (),
    arrows: Iterable[tuple[str, str]] = (),
    orientation: int = 0,
    caption: bool = True,
    piece_letters: bool = False,
) -> str:
    """An SVG picture of ``state``, about ``size`` pixels wide.

    - ``last_move``: the move that led to ``state`` (a move object), marked on the board: the
      squares a piece left and reached, the block laid, the piece placed;
    - ``squares``: square names (``"b3"``) outlined as highlighted;
    - ``arrows``: (from, to) pairs of square names drawn as arrows;
    - ``orientation``: the board turned 0, 90, 180 or 270 degrees clockwise (labels follow);
    - ``caption``: the line under the board saying who moves or who won;
    - ``piece_letters``: Quarto's piece letters on the pieces on the board;
    - ``interactive`` lays a transparent ``<rect class="square" data-square="b3">`` over every
      square (and ``data-piece`` over pieces to choose) for a page to click on, and marks the
      piece that just moved (``class="arrive"``, ``data-dx``/``data-dy``: where it came from).

    Raises BordspelError for a size that is not a positive whole number of pixels, or an
    unknown orientation or square name.
    """
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise BordspelError(f"size is a positive whole number of pixels, not {size!r}")
    if orientation not in ORIENTATIONS:
        raise BordspelError(f"orientation is one of {ORIENTATIONS} (degrees clockwise), not {orientation!r}")
    options = Options(
        interactive=interactive,
        last_move=last_move,
        squares=tuple(squares),
        arrows=tuple((start, end) for start, end in arrows),
        orientation=orientation,
        caption=caption,
        piece_letters=piece_letters,
    )
    draw = game_part(state.name, SVG_PART) or svg_grid.draw  # a game without a picture of its own: its grid()
    return str(draw(state, options, size))
