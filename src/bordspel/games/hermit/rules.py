"""Hermit's rules on bitboards, written once: the blocks' shapes, which squares touch, and where
a block may go. The engine, the solvers, the mirror strategy and the compiled core
(``bordspel._native.hermit_core``, which reads its tables from here) all derive from them.

Cell ``(r, c)`` of an n x n board is bit ``r * n + c``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import NamedTuple

__all__ = [
    "COLOURS",
    "PLACEMENTS",
    "SHAPES",
    "Geometry",
    "after_block",
    "block_at",
    "dilate",
    "fitting_blocks",
    "free_squares",
    "geometry",
    "placement_starts",
]

COLOURS = "RYB"
PLACEMENTS = "UHV"
SHAPES = ((0, 0), (0, 1), (1, 0))
"""For each placement (upright, horizontal, vertical): the (row, column) offset of the block's
second square from its top-left one; an upright block's second square is the first."""

Masks = tuple[int, int, int]
"""One mask per colour (red, yellow, blue)."""


class Geometry(NamedTuple):
    """Masks of an n x n board, computed once per size."""

    n: int
    full: int
    not_first_col: int
    not_last_col: int
    steps: tuple[int, int, int]
    """For each placement: the bit distance from a block's top-left square to its second one."""
    fits: tuple[int, int, int]
    """For each placement: the top-left squares from which the block stays on the board."""


@functools.cache
def geometry(n: int) -> Geometry:
    full = (1 << n * n) - 1
    first_col = sum(1 << (r * n) for r in range(n))
    last_col = first_col << (n - 1)
    steps = tuple(dr * n + dc for dr, dc in SHAPES)
    fits = tuple(sum(1 << (r * n + c) for r in range(n - dr) for c in range(n - dc)) for dr, dc in SHAPES)
    return Geometry(
        n,
        full,
        full & ~first_col,
        full & ~last_col,
        (steps[0], steps[1], steps[2]),
        (fits[0], fits[1], fits[2]),
    )


def dilate(mask: int, geo: Geometry) -> int:
    """``mask`` grown by one square in all eight directions (the squares that touch it, corners
    included), clipped to the board."""
    n = geo.n
    row = mask | ((mask << 1) & geo.not_first_col) | ((mask >> 1) & geo.not_last_col)
    return (row | (row << n) | (row >> n)) & geo.full


def placement_starts(free: int, geo: Geometry) -> Masks:
    """Top-left squares of upright, horizontal and vertical blocks that fit in ``free``."""
    (upright, across, down), (fits_upright, fits_across, fits_down) = geo.steps, geo.fits
    return (
        free & (free >> upright) & fits_upright,
        free & (free >> across) & fits_across,
        free & (free >> down) & fits_down,
    )


def block_at(cell: int, placement: int, geo: Geometry) -> int:
    """The squares a block covers with its top-left corner on ``cell`` (``placement`` 0-2)."""
    return (1 << cell) | (1 << (cell + geo.steps[placement]))


def fitting_blocks(free: int, geo: Geometry) -> Iterator[tuple[int, int]]:
    """(placement 0-2, block mask) of every block that fits in ``free``: by placement, then by
    top-left square."""
    for placement, (starts, step) in enumerate(zip(placement_starts(free, geo), geo.steps)):
        while starts:
            low = starts & -starts
            starts ^= low
            yield placement, low | (low << step)


def free_squares(masks: Masks, colour: int, geo: Geometry) -> int:
    """Where a block of ``colour`` (0-2) may go: the empty squares that touch no block of that
    colour, not even at a corner."""
    red, yellow, blue = masks
    return geo.full & ~(red | yellow | blue) & ~dilate(masks[colour], geo)


def after_block(free: Masks, colour: int, block: int, geo: Geometry) -> Masks:
    """The ``free_squares`` of the three colours once a block of ``colour`` covers ``block``."""
    halo = dilate(block, geo)
    masks = [mask & ~block for mask in free]
    masks[colour] &= ~halo
    return masks[0], masks[1], masks[2]
