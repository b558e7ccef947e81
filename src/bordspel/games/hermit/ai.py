"""Hermit knowledge: an exact Sprague-Grundy solver, the mirror strategy and an evaluation.

Hermit is impartial: both players may place any colour, so every position is a Nim heap of
some size (its Grundy value) and the player to move wins exactly when it is not zero. What
matters of an empty square is which colours it still accepts; a square that accepts none is
dead. Live squares that do not touch (diagonals included) can never influence each other, so
a position splits into regions, independent games whose Grundy values XOR together. Regions
are cached under a canonical form that forgets where they lie on the board, the 8 symmetries
of the square grid and the 6 renamings of the colours.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bordspel._native import load
from bordspel.ai.mcts import random_playout
from bordspel.ai.players import Endgame, Narrowed, Proven, SolverEndgame
from bordspel.ai.registry import Knowledge
from bordspel.ai.search import OutOfTime
from bordspel.core import State
from bordspel.games.hermit.engine import (
    COLOURS,
    Geometry,
    HermitMove,
    HermitState,
    dilate,
    geometry,
    placement_starts,
)
from bordspel.games.hermit.strategy import RegionEvaluation

if TYPE_CHECKING:
    from bordspel.games.hermit.proof import ProofSolver

__all__ = ["GrundySolver", "MirrorPlayer", "evaluate"]

Region = tuple[int, int, int]
"""The squares of one region that accept red, yellow and blue (bitboards on the board)."""


def regions(accepts: Region, geo: Geometry) -> Iterator[Region]:
    """Split positions into independent regions: live squares connected through any neighbour."""
    red, yellow, blue = accepts
    live = red | yellow | blue
    n, right, left = geo.n, geo.not_first_col, geo.not_last_col  # dilate() inlined: the hot loop
    while live:
        region = live & -live
        while True:
            row = region | ((region << 1) & right) | ((region >> 1) & left)
            grown = (row | (row << n) | (row >> n)) & live
            if grown == region:
                break
            region = grown
        live &= ~region
        yield red & region, yellow & region, blue & region


def after_block(accepts: Region, colour: int, block: int, geo: Geometry) -> Region:
    """What each square accepts after a block of ``colour`` covers ``block``."""
    halo = dilate(block, geo)
    masks = [mask & ~block for mask in accepts]
    masks[colour] &= ~halo
    return masks[0], masks[1], masks[2]


def blocks(accepts: Region, geo: Geometry) -> Iterator[tuple[int, int, str, int]]:
    """(colour, top-left cell, placement, block mask) of every move in a region."""
    for colour, mask in enumerate(accepts):
        upright, across, down = placement_starts(mask, geo)
        for placement, starts, extra in (("U", upright, 0), ("H", across, 1), ("V", down, geo.n)):
            while starts:
                low = starts & -starts
                starts ^= low
                yield colour, low.bit_length() - 1, placement, low | (low << extra)


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
                for colour, _, _, block in blocks(region, self.geo)
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


class MirrorPlayer:
    """The first player's winning strategy on odd boards: an upright block in the centre, then
    every opponent's block answered by its point reflection in the same colour."""

    name = "mirror"

    def step(self, state: State) -> HermitMove:
        """The centre block first, then the point reflection of the opponent's last block."""
        assert isinstance(state, HermitState)
        n = state.n
        if n % 2 == 0:
            raise ValueError("the mirror strategy needs an odd board")
        if state.plies == 0:
            return HermitMove("R", n // 2, n // 2, "U")
        for block in state.blocks():
            reflected = _reflection(block, n)
            if state.colour_at((reflected.row, reflected.col)) is None:
                return reflected
        raise ValueError("the position is symmetric: the mirror strategy only plays first")


def _reflection(block: HermitMove, n: int) -> HermitMove:
    """The point reflection of a block through the centre, as a move (top-left corner)."""
    row, col = n - 1 - block.row, n - 1 - block.col
    if block.placement == "H":
        col -= 1
    elif block.placement == "V":
        row -= 1
    return HermitMove(block.colour, row, col, block.placement)


def evaluate(state: State, seat: int) -> float:
    """A cheap guess for search: the parity of the live squares, for the player to move."""
    assert isinstance(state, HermitState)
    geo = state.geometry
    live = 0
    for index in range(len(COLOURS)):
        live |= state.free_mask(index)
    regions_count = sum(1 for _ in regions((live, 0, 0), geo))
    guess = 1.0 if (live.bit_count() + regions_count) % 2 else -1.0
    return guess if state.to_move == seat else -guess


SOLVER_NODES = 2_000
"""The positions a solver without a clock may visit a move (``ProofSolver.visited``): at most
about 0.1 s compiled (boards up to 8x8), 0.6 s in pure Python."""


class HermitEndgame(SolverEndgame):
    """A winning move when the win/loss search settles every move before the deadline (and
    within ``nodes`` positions visited, when given), else None; any move (a proven loss) when
    every move loses.

    On odd boards the first player follows the mirror strategy, which needs no search. A
    module-level class (not a closure) so that players holding it pickle; the solvers'
    tables are not pickled.
    """

    def __init__(self, time_limit: float | None, nodes: int | None = None, region_cache: bool = True) -> None:
        self.time_limit, self.nodes, self.region_cache = time_limit, nodes, region_cache
        self.solvers: dict[int, ProofSolver] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**vars(self), "solvers": {}}

    def solve(self, state: State, deadline: float | None) -> Proven | Narrowed | None:
        assert isinstance(state, HermitState)
        if _plays_mirror(state):
            return Proven(MirrorPlayer().step(state), "win")
        proof = self._solver(state.n)
        proof.deadline = deadline
        proof.node_limit = None if self.nodes is None else proof.visited() + self.nodes
        try:
            moves = state.legal_moves()
            for move in moves:
                if not proof.state_wins(state.apply_unchecked(move)):
                    return Proven(move, "win")
            return Proven(moves[0], "loss")  # every move loses against perfect play
        except OutOfTime:
            return None
        finally:
            proof.deadline = proof.node_limit = None

    small = 8
    """Regions of up to this many live squares get Grundy values."""

    def _solver(self, n: int) -> ProofSolver:
        """One solver a board size, keeping its table between moves."""
        from bordspel.games.hermit.proof import ProofSolver

        if n not in self.solvers:
            self.solvers[n] = ProofSolver(n, small=self._small(n), region_cache=self.region_cache)
        return self.solvers[n]

    def _small(self, n: int) -> int:
        """The ``small`` of the solver for n x n boards."""
        return self.small


class PruningEndgame(HermitEndgame):
    """The solver of ``hard``: on boards from 7x7 on it settles the moves one by one (fewest
    live squares after the move first) under growing node budgets (64, 256, 1024 ... positions
    each), so that a win that is cheap to prove is found whichever move it is, and moves proven
    to lose are left out of the search that follows (:class:`Narrowed`). When every move loses,
    it plays the one that took longest to refute. Regions of up to ``small`` live squares get
    Grundy values (11 where the compiled search runs: fewer positions to search on 7x7 boards,
    against 8 for ``hard-v1``).

    On smaller boards one move's proof fits in a second and the sweep proved fewer wins (6-14
    against ``hard-v1`` on 5x5), so there it searches as the baseline does.
    """

    FIRST_BUDGET = 64
    GROWTH = 4
    SWEEP_FROM = 7

    def __init__(self, time_limit: float | None, nodes: int | None = None, small: int = 11) -> None:
        super().__init__(time_limit, nodes)
        self.small = small

    def solve(self, state: State, deadline: float | None) -> Proven | Narrowed | None:
        assert isinstance(state, HermitState)
        if state.n < self.SWEEP_FROM or _plays_mirror(state):
            return super().solve(state, deadline)
        proof = self._solver(state.n)
        limit = None if self.nodes is None else proof.visited() + self.nodes
        children = ((move, state.apply_unchecked(move)) for move in state.legal_moves())
        unsettled = dict(sorted(children, key=_live_squares))  # fewest live squares first, as in C
        refuted: dict[HermitMove, int] = {}
        budget = self.FIRST_BUDGET
        try:
            while unsettled:
                for move, child in list(unsettled.items()):
                    spent = proof.visited()
                    child_wins = self._settle(proof, child, budget, limit, deadline)
                    if child_wins is False:
                        return Proven(move, "win")
                    if child_wins:
                        refuted[move] = proof.visited() - spent
                        del unsettled[move]
                budget *= self.GROWTH
        except OutOfTime:
            pass
        if not unsettled:
            return Proven(max(refuted, key=refuted.__getitem__), "loss")
        return Narrowed(tuple(unsettled)) if refuted else None

    @staticmethod
    def _settle(
        proof: ProofSolver, child: HermitState, budget: int, limit: int | None, deadline: float | None
    ) -> bool | None:
        """Whether the player to move in ``child`` wins, None when ``budget`` positions do not
        tell; OutOfTime when the deadline or the move's ``limit`` passes."""
        proof.deadline = deadline
        proof.node_limit = proof.visited() + budget if limit is None else min(proof.visited() + budget, limit)
        try:
            return proof.state_wins(child)
        except OutOfTime:
            if proof.node_limit == limit or (deadline is not None and time.perf_counter() > deadline):
                raise
            return None
        finally:
            proof.deadline = proof.node_limit = None

    def _small(self, n: int) -> int:
        compiled = _NATIVE is not None and self.SWEEP_FROM <= n <= 8
        return self.small if compiled else HermitEndgame.small


def solver(time_limit: float | None) -> Endgame:
    """The endgame solver with ``time_limit`` seconds per move; without a time, one that
    searches at most :data:`SOLVER_NODES` positions a move (see :class:`HermitEndgame`)."""
    return HermitEndgame(time_limit, _unclocked_nodes(time_limit))


def baseline_solver(time_limit: float | None) -> Endgame:
    """``hard-v1``'s solver as it was: :func:`solver`'s search without the region cache."""
    return HermitEndgame(time_limit, _unclocked_nodes(time_limit), region_cache=False)


def pruning_solver(time_limit: float | None) -> Endgame:
    """The solver of ``hard`` (:class:`PruningEndgame`), bounded as :func:`solver`'s."""
    return PruningEndgame(time_limit, _unclocked_nodes(time_limit))


def _unclocked_nodes(time_limit: float | None) -> int | None:
    """The node bound of a solver: :data:`SOLVER_NODES` when it has no clock, else none."""
    return SOLVER_NODES if time_limit is None else None


def _live_squares(move_and_child: tuple[HermitMove, HermitState]) -> int:
    """The squares that still accept some colour after the move."""
    child = move_and_child[1]
    return (child.free_mask(0) | child.free_mask(1) | child.free_mask(2)).bit_count()


def _plays_mirror(state: HermitState) -> bool:
    """Whether the first player on an odd board follows the mirror strategy here."""
    return state.n % 2 == 1 and state.to_move == 0 and _mirror_applies(state)


def _mirror_applies(state: HermitState) -> bool:
    """Whether the position is the centre block plus symmetric pairs and one unanswered block."""
    if state.plies == 0:
        return True
    n, placed = state.n, state.blocks()
    centre = [b for b in placed if b.row == b.col == n // 2 and b.placement == "U"]
    unanswered = [b for b in placed if b not in centre and _reflection(b, n) not in placed]
    return len(centre) == 1 and len(unanswered) == 1


_NATIVE = load("hermit_core")


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """A random game to the end: compiled (``hermit_core.playout``) on boards up to 8x8.

    Module-level, so that MCTS players holding it pickle.
    """
    assert isinstance(state, HermitState)
    if _NATIVE is not None and state.n <= 8:
        returns: tuple[float, ...] = _NATIVE.playout(state, rng)
        return returns
    return random_playout(state, rng)


KNOWLEDGE = Knowledge(
    evaluate=evaluate,
    levels={
        "easy": "random",
        "medium": "alphabeta:depth=2,solver=0",
        "hard": "alphabeta:time=1,solver_share=0.9,eval=regions,solver=prune",
        "perfect": "alphabeta:time=600,solver_time=600",
        "easy-v1": "random",
        "medium-v1": "alphabeta:depth=2,solver=0,pvs=0",
        "hard-v1": "alphabeta:time=1,pvs=0,solver=v1",
        "perfect-v1": "alphabeta:time=600,solver_time=600,pvs=0,solver=v1",
    },
    solver=solver,
    solvers={"prune": pruning_solver, "v1": baseline_solver},
    players={"mirror": MirrorPlayer},
    playout=playout if _NATIVE is not None else None,
    evaluations={"regions": RegionEvaluation(evaluate)},
)
