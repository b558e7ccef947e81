"""Santorini's board rules, each written once: neighbours, heights, steps, builds and the win.

The 5 x 5 board is four bitboards ``levels = (ge1, ge2, ge3, dome)``: bit ``r*5+c`` of ``ge1``
is set where the tower has at least one block, and so on; ``dome`` marks a dome at any height.
Everything that moves a worker or builds asks these functions: the engine, the turn generator,
the gods (which pass their own climb limit), the evaluation and the search. The compiled core
has the same rules in ``bordspel/_native/santorini_board.pxd``, and a test holds its constants
and tables equal to these.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CELLS",
    "DIRECTIONS",
    "DOME",
    "MAX_CLIMB",
    "NEIGHBOURS",
    "SIZE",
    "STEPS",
    "WIN_LEVEL",
    "Levels",
    "build_targets",
    "can_step",
    "exact_level",
    "free_cells",
    "height",
    "is_winning_move",
    "move_targets",
    "occupied_mask",
    "raise_tower",
    "step",
    "winning_steps",
]

SIZE = 5
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
MAX_CLIMB = 1
"""How many levels a worker may step up in one move."""
WIN_LEVEL = 3
"""A worker that moves up onto this level wins."""
DOME = 4
"""The height of a square with a dome (a dome at any level counts as this high)."""

Levels = tuple[int, int, int, int]

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}


def step(cell: int, direction: str) -> int | None:
    """The neighbour of ``cell`` in ``direction`` (N, NE, ...), or None when off the board."""
    dr, dc = DIRECTIONS[direction]
    row, col = divmod(cell, SIZE)
    if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE:
        return (row + dr) * SIZE + col + dc
    return None


STEPS = tuple(tuple(-1 if (n := step(cell, d)) is None else n for d in DIRECTIONS) for cell in range(CELLS))
"""``STEPS[cell][d]``: the neighbour in direction ``d`` (N, NE, ... order), -1 off the board."""
NEIGHBOURS = tuple(sum(1 << n for n in STEPS[cell] if n >= 0) for cell in range(CELLS))
"""``NEIGHBOURS[cell]``: the cells next to ``cell``, as a mask."""


def height(levels: Levels, cell: int) -> int:
    """The tower height on ``cell``: 0-3 blocks, :data:`DOME` for a dome (at any level)."""
    g1, g2, g3, dome = levels
    if dome >> cell & 1:
        return DOME
    return (g1 >> cell & 1) + (g2 >> cell & 1) + (g3 >> cell & 1)


def exact_level(levels: Levels, level: int) -> int:
    """Cells whose tower has exactly ``level`` pieces (:data:`DOME`: a dome)."""
    if level == DOME:
        return levels[3]
    below = FULL if level == 0 else levels[level - 1]
    return below & ~levels[level] & ~levels[3]


def raise_tower(levels: Levels, cell: int) -> Levels:
    """The levels after adding the next piece (block or dome) on ``cell``."""
    bit = 1 << cell
    g1, g2, g3, dome = levels
    if not g1 & bit:
        return (g1 | bit, g2, g3, dome)
    if not g2 & bit:
        return (g1, g2 | bit, g3, dome)
    if not g3 & bit:
        return (g1, g2, g3 | bit, dome)
    return (g1, g2, g3, dome | bit)


def occupied_mask(workers: Sequence[int]) -> int:
    """The cells the workers stand on (negative cells are off the board)."""
    mask = 0
    for cell in workers:
        if cell >= 0:
            mask |= 1 << cell
    return mask


def free_cells(levels: Levels, occupied: int) -> int:
    """Cells without a worker or a dome: where a piece can go or a forced worker can land."""
    return FULL & ~occupied & ~levels[3]


def move_targets(levels: Levels, occupied: int, cell: int, climb: int = MAX_CLIMB) -> int:
    """Neighbours of ``cell`` a worker there may step onto: free, and at most ``climb`` up."""
    limit = height(levels, cell) + climb
    too_high = levels[limit if limit < 3 else 3]
    return NEIGHBOURS[cell] & free_cells(levels, occupied) & ~too_high


def can_step(levels: Levels, occupied: int, source: int, target: int, climb: int = MAX_CLIMB) -> bool:
    """Whether a worker on ``source`` may step onto ``target``."""
    return bool(move_targets(levels, occupied, source, climb) >> target & 1)


def build_targets(levels: Levels, occupied: int, cell: int) -> int:
    """Neighbours of ``cell`` a worker there may build on: no worker and no dome."""
    return NEIGHBOURS[cell] & free_cells(levels, occupied)


def is_winning_move(before: int, after: int) -> bool:
    """Whether a worker moving from height ``before`` to height ``after`` wins."""
    return before < WIN_LEVEL == after


def winning_steps(levels: Levels, cell: int, targets: int) -> int:
    """The cells among ``targets`` (steps a worker on ``cell`` may take) that win at once."""
    if not is_winning_move(height(levels, cell), WIN_LEVEL):
        return 0
    return targets & exact_level(levels, WIN_LEVEL)
