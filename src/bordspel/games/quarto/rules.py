"""Quarto's winning rule, written once: the lines of four, and when the pieces on a line win.

Square ``(r, c)`` is bit ``4 * r + c``; a piece is a 4-bit code, bit ``j`` set when it has the
second value of characteristic ``j``. Pieces *share* the characteristics all of them have
(``ones``) and those all of them lack (``zeros``); a full line wins when its pieces share one.
The engine, the solvers and the compiled modules (``bordspel._native.quarto_solver`` and
``quarto_playout``, which read their tables from here on import) all derive from this.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from itertools import permutations, product

__all__ = [
    "LINES",
    "PIECE_SYMMETRIES",
    "SHARES",
    "SQUARES_2X2",
    "WINNERS",
    "board_symmetries",
    "line_masks",
    "line_wins",
    "piece_image",
    "shared_on",
    "shares",
]

ALL = 0b1111
"""Every characteristic: what the pieces of an empty line share."""


def _line(cells: Iterable[int]) -> int:
    return sum(1 << c for c in cells)


LINES: dict[str, int] = {
    **{f"H{r + 1}": _line(4 * r + c for c in range(4)) for r in range(4)},
    **{f"V{c + 1}": _line(4 * r + c for r in range(4)) for c in range(4)},
    "D1": _line(5 * i for i in range(4)),
    "D2": _line(3 * i + 3 for i in range(4)),
}
"""The ten lines of four, by the spec's names: rows H1-H4, columns V1-V4, diagonals D1, D2."""

SQUARES_2X2: dict[str, int] = {
    f"S{3 * r + c + 1}": _line((4 * r + c, 4 * r + c + 1, 4 * r + c + 4, 4 * r + c + 5))
    for r in range(3)
    for c in range(3)
}
"""The nine 2x2 squares that also win in the advanced variant."""


@functools.cache
def line_masks(advanced: bool) -> tuple[int, ...]:
    """The masks of the lines that win: the ten lines, then the 2x2 squares when advanced."""
    return (*LINES.values(), *(SQUARES_2X2.values() if advanced else ()))


def shares(ones: int, zeros: int) -> bool:
    """The rule: whether pieces that all have ``ones`` and all lack ``zeros`` share a
    characteristic, so that a full line of them wins."""
    return bool(ones | zeros)


def shared_on(line: int, characteristics: Iterable[int]) -> tuple[int, int]:
    """(``ones``, ``zeros``) of the pieces on a full ``line``, given for each characteristic
    the squares whose piece has its second value (the engine's masks)."""
    ones = zeros = 0
    for j, mask in enumerate(characteristics):
        if mask & line == line:
            ones |= 1 << j
        elif not mask & line:
            zeros |= 1 << j
    return ones, zeros


def line_wins(line: int, filled: int, characteristics: Iterable[int]) -> bool:
    """Whether ``line`` is full (``filled`` covers it) and its pieces share a characteristic."""
    return filled & line == line and shares(*shared_on(line, characteristics))


SHARES: tuple[bool, ...] = tuple(shares(index >> 4, index & ALL) for index in range(256))
"""``shares`` as a table: ``ones << 4 | zeros`` -> whether a full line wins."""

WINNERS: tuple[int, ...] = tuple(
    sum(1 << piece for piece in range(16) if shares(index >> 4 & piece, index & ~piece & ALL))
    for index in range(256)
)
"""For a line of three pieces sharing ``ones`` and ``zeros``: ``ones << 4 | zeros`` -> the mask
of the pieces that complete it."""


@functools.cache
def board_symmetries(advanced: bool = False) -> tuple[tuple[int, ...], ...]:
    """Square permutations (``perm[new] = old``) that keep the winning lines (and 2x2 squares):
    32, or 8 with the 2x2 squares; the identity first."""
    lines = set(line_masks(advanced))
    found = []
    for rows, cols in product(permutations(range(4)), repeat=2):
        for transpose in (False, True):
            perm = tuple(
                (cols[c] * 4 + rows[r]) if transpose else (rows[r] * 4 + cols[c])
                for r in range(4)
                for c in range(4)
            )
            if all(sum(1 << perm[c] for c in range(16) if line >> c & 1) in lines for line in lines):
                found.append(perm)
    return tuple(sorted(set(found)))


PIECE_SYMMETRIES: tuple[tuple[tuple[int, ...], int], ...] = tuple(
    (order, flip) for order in permutations(range(4)) for flip in range(16)
)
"""The 384 maps of pieces that keep which pieces share a characteristic: characteristic ``j``
becomes ``order[j]``, then the values of the characteristics in ``flip`` swap; the identity first."""


def piece_image(code: int, symmetry: int) -> int:
    """The image of piece ``code`` under piece map ``symmetry`` (0-383, see PIECE_SYMMETRIES)."""
    order, flip = PIECE_SYMMETRIES[symmetry]
    return sum((code >> j & 1) << order[j] for j in range(4)) ^ flip
