"""Win or loss of Hermit positions by a pruned search, for boards too big for Grundy values.

A full Grundy value needs the values of every move; who wins needs only one winning move, or
all moves refuted. This search keeps that pruning where it pays, on the large regions, and
takes exact Grundy values (``GrundySolver``) for small ones: by Sprague-Grundy theory the small
regions together act as one Nim heap, so a position is a set of large regions plus a heap.
Two copies of the same region cancel (their Grundy values XOR to zero), so a move that splits
the board into mirror images is recognised at once. Replies that leave the board symmetric under
a point reflection are tried first: on odd boards that is the known winning strategy, and
elsewhere a cheap guess.

Where the compiled module ``bordspel._native.hermit_core`` is built (boards up to 8x8), the
search runs there; this module stays the reference it is tested against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bordspel._native import load
from bordspel.ai.search import OutOfTime
from bordspel.core import State, permute_mask, square_symmetries
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.grundy import GrundySolver, Region, blocks, regions
from bordspel.games.hermit.rules import after_block

__all__ = ["Position", "ProofSolver"]

Key = tuple[int, int, int]

Large = tuple[tuple[Key, Region], ...]
"""Large regions: canonical key and squares, sorted by key, each key once."""
Position = tuple[Large, int]
"""The large regions and the Nim heap that the small ones add up to."""


@dataclass
class ProofSolver:
    """Who wins Hermit positions on an n x n board; regions of at most ``small`` live squares get
    Grundy values, larger ones are searched."""

    n: int
    small: int = 8
    examined: int = 0
    """Positions searched (not found in the table)."""
    table: dict[tuple[tuple[Key, ...], int], bool] = field(default_factory=dict)
    deadline: float | None = None
    on_progress: Callable[[int], None] | None = None
    """Called with the number of positions examined, every 10,000."""
    table_bits: int = 18
    """The compiled search keeps ``4 * 2**table_bits`` results (16 bytes each)."""
    node_limit: int | None = None
    """Stop with OutOfTime once ``visited()`` passes this: a bound that needs no clock."""
    built: int = 0
    """Positions the pure search built (a move's child each: what costs it the most)."""
    region_cache: bool = True
    """Whether the compiled search caches regions' canonical forms (off: ``hard-v1``'s speed,
    about half the positions a second)."""
    proof_numbers: bool = False
    """Whether the compiled search is proof-number search (df-pn, going where proofs are cheapest)
    instead of the depth-first one; the pure search is always depth-first. Same answers."""

    def __post_init__(self) -> None:
        self.grundy = GrundySolver(self.n)
        self.geo = self.grundy.geo
        self.half_turn = square_symmetries(self.n)[2]
        native = load("hermit_core")
        self.core: Any = None
        if native is not None and self.n <= 8 and self.small <= 16:
            self.core = native.Solver(
                self.n, self.small, self.table_bits, self.region_cache, self.proof_numbers
            )

    def visited(self) -> int:
        """What ``node_limit`` bounds: the positions searched by the compiled search (``examined``),
        the positions built by the pure one (``built``)."""
        return self.examined if self.core is not None else self.built

    def table_fill(self) -> float:
        """The share of the compiled search's table in use (0 for the pure search's dict)."""
        return int(self.core.stored) / int(self.core.capacity) if self.core is not None else 0.0

    def total_examined(self) -> int:
        """Positions searched plus small regions given a Grundy value."""
        if self.core is not None:
            return int(self.core.examined + self.core.grundy_examined)
        return self.examined + self.grundy.examined

    # -- positions -------------------------------------------------------------------------------
    def position(self, accepts: Region) -> Position:
        """Split what each square accepts into large regions and the heap of the small ones."""
        return self._combine({}, 0, accepts)

    def state_wins(self, state: State) -> bool:
        """Whether the player to move in an engine position wins."""
        assert isinstance(state, HermitState)
        return self.accepts_wins(self.grundy.accepts(state))

    def accepts_wins(self, accepts: Region) -> bool:
        """Whether the player to move wins, given the squares that accept each colour's block."""
        if self.core is not None:
            return self._compiled(accepts, 0)
        return self.wins(self.position(accepts))

    def _combine(self, large: dict[Key, Region], heap: int, accepts: Region) -> Position:
        """Add the regions of ``accepts`` to ``large`` (a copy), cancelling pairs.

        Checks the deadline and the node limit: on big boards one position's children take long
        to list."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        self.built += 1
        if self.node_limit is not None and self.built > self.node_limit:
            raise OutOfTime
        merged = dict(large)
        for region in regions(accepts, self.geo):
            if (region[0] | region[1] | region[2]).bit_count() <= self.small:
                heap ^= self.grundy.region_value(region)
                continue
            key = min(self.grundy.canon.images(region))
            if merged.pop(key, None) is None:
                merged[key] = region
        return tuple(sorted(merged.items())), heap

    @staticmethod
    def key(position: Position) -> tuple[tuple[Key, ...], int]:
        """What the value depends on: the kinds of large regions and the heap."""
        large, heap = position
        return tuple(k for k, _ in large), heap

    def wins(self, position: Position) -> bool:
        """Whether the player to move wins."""
        if self.core is not None:
            large, heap = position
            red, yellow, blue = (_union(r[colour] for _, r in large) for colour in range(3))
            return self._compiled((red, yellow, blue), heap)
        known = self._known(position)
        if known is not None:
            return known
        self._count()
        result = any(not self.wins(child) for child in self._children(position))
        self.table[self.key(position)] = result
        return result

    def _compiled(self, accepts: Region, heap: int) -> bool:
        """The compiled search, with this solver's deadline and progress."""
        core = self.core
        core.deadline, core.on_progress = self.deadline, self.on_progress
        core.node_limit = self.node_limit or 0
        try:
            search = core.prove if self.proof_numbers else core.wins
            return bool(search(*accepts, heap))
        finally:
            self.examined = int(core.examined)
            core.node_limit = 0

    def _count(self) -> None:
        self.examined += 1
        if self.on_progress is not None and self.examined % 10_240 == 0:
            self.on_progress(self.examined)

    # -- moves -----------------------------------------------------------------------------------
    def _children(self, position: Position) -> Iterator[Position]:
        """The positions after each move: known losses first, then symmetric ones, then the rest."""
        large, heap = position
        children = [self._combine(rest, heap, after) for rest, after in self._region_moves(large)]
        children += [(large, smaller) for smaller in range(heap)]
        later = []
        for child in children:
            if self._known(child) is False:
                yield child
                return
        for child in children:
            if self._symmetric(child):
                yield child
            else:
                later.append(child)
        later.sort(key=self._size)
        yield from later

    def _region_moves(self, large: Large) -> Iterator[tuple[dict[Key, Region], Region]]:
        for index, (_, region) in enumerate(large):
            rest = dict(large[:index] + large[index + 1 :])
            for colour, block in blocks(region, self.geo):
                yield rest, after_block(region, colour, block, self.geo)

    def _known(self, position: Position) -> bool | None:
        """The value when it needs no search: no large region left, or found before."""
        large, heap = position
        if not large:
            return heap != 0
        return self.table.get(self.key(position))

    def _symmetric(self, child: Position) -> bool:
        """Whether the large regions, where they lie, are their own point reflection."""
        large, _ = child
        masks = [0, 0, 0]
        for _, region in large:
            for colour in range(3):
                masks[colour] |= region[colour]
        return all(permute_mask(mask, self.half_turn) == mask for mask in masks)

    @staticmethod
    def _size(child: Position) -> int:
        large, _ = child
        return sum((r[0] | r[1] | r[2]).bit_count() for _, r in large)


def _union(masks: Iterator[int]) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total
