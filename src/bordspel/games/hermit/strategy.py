"""Hermit positions judged without a full search: the mirror strategy and a budgeted proof.

The mirror strategy: when what each square accepts is invariant under a symmetry of the board
that is its own inverse (a half turn, a reflection), with the colours kept or two of them
swapped, the player *not* to move wins by answering every block with its image, as long as no
block can ever touch its own image in the same colour or overlap it in the swapped one. On odd
boards under the half turn that means the centre square accepts no colour. The evaluation of
``hard`` adds a proof search of a few positions, and a guess where both fail.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from bordspel._native import load
from bordspel.ai.search import Evaluation, OutOfTime
from bordspel.core import State, iter_bits, square_symmetries
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.rules import dilate, fitting_blocks, geometry, placement_starts

__all__ = ["RegionEvaluation", "mirror_loses"]

Accepts = tuple[int, int, int]
"""The squares that accept red, yellow and blue (engine masks)."""

COLOUR_INVOLUTIONS = ((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1))
"""The colours kept, or two of them swapped."""

KNOWN = 1000.0
"""The evaluation of a position whose winner is known (far below the search's proven wins)."""


@dataclass(frozen=True)
class Involution:
    """A symmetry of the board that is its own inverse, with the blocks that meet their image."""

    pick: Any
    """``itemgetter`` taking the image's bits, in cell order, from a mask's bits in cell order."""
    size: int
    touching: Accepts
    """Starts of upright, horizontal and vertical blocks that touch or overlap their image."""
    overlapping: Accepts
    """Starts of blocks that overlap their image."""

    def image(self, mask: int) -> int:
        """``mask`` with every square moved to its image."""
        bits = format(mask, f"0{self.size}b")[::-1]
        return int("".join(self.pick(bits))[::-1], 2)


@functools.cache
def involutions(n: int) -> tuple[Involution, ...]:
    """The half turn and the reflections of the n x n board that are their own inverses."""
    found = []
    for perm in square_symmetries(n)[1:]:
        if all(perm[perm[cell]] == cell for cell in range(n * n)):
            found.append(_involution(n, perm))
    return tuple(found)


def _involution(n: int, perm: tuple[int, ...]) -> Involution:
    geo = geometry(n)
    touching, overlapping = [0, 0, 0], [0, 0, 0]
    for shape, block in fitting_blocks(geo.full, geo):
        start = block & -block
        image = sum(1 << perm[cell] for cell in iter_bits(block))  # a block's few squares
        if image & dilate(block, geo):
            touching[shape] |= start
        if image & block:
            overlapping[shape] |= start
    return Involution(itemgetter(*perm), n * n, _triple(touching), _triple(overlapping))


def _triple(masks: list[int]) -> Accepts:
    return masks[0], masks[1], masks[2]


def mirror_loses(accepts: Accepts, n: int) -> bool:
    """Whether the player to move loses to the mirror strategy (see the module docstring)."""
    live = accepts[0] | accepts[1] | accepts[2]
    for symmetry in involutions(n):
        if symmetry.image(live) != live:
            continue
        images = [symmetry.image(mask) for mask in accepts]
        for colours in COLOUR_INVOLUTIONS:
            if all(images[c] == accepts[colours[c]] for c in range(3)) and _answerable(
                accepts, colours, symmetry, n
            ):
                return True
    return False


def _answerable(accepts: Accepts, colours: tuple[int, ...], symmetry: Involution, n: int) -> bool:
    """Whether every block can be answered by its image, now and later."""
    geo = geometry(n)
    for colour, mask in enumerate(accepts):
        meets = symmetry.touching if colours[colour] == colour else symmetry.overlapping
        starts = placement_starts(mask, geo)
        if any(starts[shape] & meets[shape] for shape in range(3)):
            return False
    return True


_NATIVE = load("hermit_core")


class RegionEvaluation:
    """The evaluation of ``hard``: a known loss under the mirror strategy, else a win or loss
    proved within ``budget`` positions (regions and their Grundy values) when at most ``moves``
    moves are left (earlier a proof almost never succeeds), else ``guess`` (below KNOWN).

    Module-level, so that players holding it pickle; the solvers' tables are not pickled.
    """

    def __init__(self, guess: Evaluation, budget: int = 20, moves: int = 110) -> None:
        self.guess, self.budget, self.moves = guess, budget, moves
        self.solvers: dict[int, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "solvers": {}}

    def __call__(self, state: State, seat: int) -> float:
        assert isinstance(state, HermitState)
        value = self.value(state)
        return value if state.to_move == seat else -value

    def value(self, state: HermitState) -> float:
        """The value for the player to move: +-KNOWN when decided, else the guess."""
        accepts = state.free_mask(0), state.free_mask(1), state.free_mask(2)
        if mirror_loses(accepts, state.n):
            return -KNOWN
        proved = self._proved(accepts, state.n) if state.count_moves() <= self.moves else None
        if proved is not None:
            return KNOWN if proved else -KNOWN
        return self.guess(state, state.to_move)

    def _proved(self, accepts: Accepts, n: int) -> bool | None:
        """Whether the player to move wins, when the compiled search settles it in budget."""
        if _NATIVE is None or n > 8:
            return None
        core = self.solvers.get(n)
        if core is None:
            core = self.solvers[n] = _NATIVE.Solver(n, 8, 16)
        core.node_limit = core.examined + self.budget
        try:
            return bool(core.wins(*accepts))
        except OutOfTime:
            return None
        finally:
            core.node_limit = 0
