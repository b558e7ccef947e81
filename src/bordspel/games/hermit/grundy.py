"""Exact Grundy values of Hermit positions, region by region.

Hermit is impartial: both players may place any colour, so every position is a Nim heap of
some size (its Grundy value) and the player to move wins exactly when it is not zero. What
matters of an empty square is which colours it still accepts; a square that accepts none is
dead. Live squares that do not touch (diagonals included) can never influence each other, so
a position splits into regions, independent games whose Grundy values XOR together. Regions
are cached under a canonical form that forgets where they lie on the board, the 8 symmetries
of the square grid and the 6 renamings of the colours.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bordspel.ai.search import OutOfTime
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.rules import Geometry, after_block, dilate, fitting_blocks, geometry

__all__ = ["GrundySolver", "Region", "blocks", "regions"]

Region = tuple[int, int, int]
"""The squares of one region that accept red, yellow and blue (bitboards on the board)."""


def regions(accepts: Region, geo: Geometry) -> Iterator[Region]:
    """Split positions into independent regions: live squares connected through any neighbour."""
    red, yellow, blue = accepts
    live = red | yellow | blue
    while live:
        region = live & -live
        while True:
            grown = dilate(region, geo) & live
            if grown == region:
                break
            region = grown
        live &= ~region
        yield red & region, yellow & region, blue & region


def blocks(accepts: Region, geo: Geometry) -> Iterator[tuple[int, int]]:
    """(colour, block mask) of every move in a region."""
    for colour, free in enumerate(accepts):
        for _, block in fitting_blocks(free, geo):
            yield colour, block


class _Canon:
    """Keys of regions that forget where they lie on the board and what the colours are called.

    ``shifted`` forgets position and colour names (cheap: a few shifts); ``key`` also forgets
    the 8 symmetries of the grid.
    """

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.first_col = geo.full & ~geo.not_first_col

    def shifted(self, region: Region) -> tuple[int, int, int]:
        red, yellow, blue = region
        live = red | yellow | blue
        shift = ((live & -live).bit_length() - 1) // self.geo.n * self.geo.n
        live >>= shift
        while not live & self.first_col:
            live >>= 1
            shift += 1
        a, b, c = red >> shift, yellow >> shift, blue >> shift
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return a, b, c

    def images(self, region: Region) -> set[tuple[int, int, int]]:
        """The shifted forms of the region under the 8 grid symmetries."""
        n = self.geo.n
        rows, cols, accepts = [], [], []
        live = region[0] | region[1] | region[2]
        while live:
            low = live & -live
            live ^= low
            cell = low.bit_length() - 1
            rows.append(cell // n)
            cols.append(cell % n)
            accepts.append(
                (1 if region[0] & low else 0) | (2 if region[1] & low else 0) | (4 if region[2] & low else 0)
            )
        top, left = min(rows), min(cols)
        rows = [r - top for r in rows]
        cols = [c - left for c in cols]
        found = set()
        for places in _placements(rows, cols, max(rows) + 1, max(cols) + 1, n):
            masks = [0, 0, 0]
            for place, accept in zip(places, accepts):
                bit = 1 << place
                if accept & 1:
                    masks[0] |= bit
                if accept & 2:
                    masks[1] |= bit
                if accept & 4:
                    masks[2] |= bit
            masks.sort()
            found.add((masks[0], masks[1], masks[2]))
        return found


def _placements(rows: list[int], cols: list[int], h: int, w: int, n: int) -> Iterator[list[int]]:
    """Cells of a region at the origin under the 8 grid symmetries, on a board n wide."""
    cells = list(zip(rows, cols))
    yield [r * n + c for r, c in cells]
    yield [r * n + w - 1 - c for r, c in cells]
    yield [(h - 1 - r) * n + c for r, c in cells]
    yield [(h - 1 - r) * n + w - 1 - c for r, c in cells]
    yield [c * n + r for r, c in cells]
    yield [c * n + h - 1 - r for r, c in cells]
    yield [(w - 1 - c) * n + r for r, c in cells]
    yield [(w - 1 - c) * n + h - 1 - r for r, c in cells]


@dataclass
class GrundySolver:
    """Grundy values of Hermit positions on an n x n board, with a cache of regions."""

    n: int
    examined: int = 0
    cache: dict[tuple[int, int, int], int] = field(default_factory=dict)
    """Grundy values of regions by their shifted forms (all 8 images of each region solved)."""

    deadline: float | None = None
    """``time.perf_counter()`` after which solving stops with OutOfTime."""
    on_progress: Callable[[int], None] | None = None
    """Called with the number of regions solved, every 10,000 regions."""

    def __post_init__(self) -> None:
        self.geo = geometry(self.n)
        self.canon = _Canon(self.geo)

    def accepts(self, state: HermitState) -> Region:
        """The squares that accept a red, a yellow and a blue block in ``state``."""
        return state.free_mask(0), state.free_mask(1), state.free_mask(2)

    def value(self, state: HermitState) -> int:
        """The Grundy value of a position: nonzero exactly when the player to move wins."""
        return self.position_value(self.accepts(state))

    def position_value(self, accepts: Region) -> int:
        """The Grundy value of the position whose squares accept the colours in ``accepts``."""
        value = 0
        for region in regions(accepts, self.geo):
            value ^= self.region_value(region)
        return value

    def region_value(self, region: Region) -> int:
        """The Grundy value of one region of live squares (cached under its symmetries)."""
        shifted = self.canon.shifted(region)
        value = self.cache.get(shifted)
        if value is not None:
            return value
        images = self.canon.images(region)
        value = next((self.cache[i] for i in images if i in self.cache), None)
        if value is None:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime
            reachable = {
                self.position_value(after_block(region, colour, block, self.geo))
                for colour, block in blocks(region, self.geo)
            }
            value = 0
            while value in reachable:
                value += 1
            self.examined += 1
            if self.on_progress is not None and self.examined % 10_000 == 0:
                self.on_progress(self.examined)
        for image in images:
            self.cache[image] = value
        return value

    def winning_moves(self, state: HermitState) -> list[HermitMove]:
        """The moves to a position of value 0 (empty when the player to move loses)."""
        return [m for m in state.legal_moves() if self.value(state.apply_unchecked(m)) == 0]
