"""Hermit knowledge: the players' solvers (Grundy values from ``grundy``, the win/loss search
of ``proof``), the mirror strategy, random playouts and an evaluation."""

from __future__ import annotations

import random
import time
from typing import Any

from bordspel._native import load
from bordspel.ai.mcts import random_playout
from bordspel.ai.players import Endgame, Narrowed, Proven, SolverEndgame
from bordspel.ai.registry import Knowledge
from bordspel.ai.search import OutOfTime
from bordspel.core import State
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.grundy import regions
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.rules import COLOURS, PLACEMENTS, SHAPES
from bordspel.games.hermit.strategy import RegionEvaluation

__all__ = ["MirrorPlayer", "evaluate"]


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
    down, right = SHAPES[PLACEMENTS.index(block.placement)]
    return HermitMove(block.colour, n - 1 - block.row - down, n - 1 - block.col - right, block.placement)


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

    def __init__(
        self,
        time_limit: float | None,
        nodes: int | None = None,
        region_cache: bool = True,
        table_bits: int = 18,
    ) -> None:
        self.time_limit, self.nodes, self.region_cache = time_limit, nodes, region_cache
        self.table_bits = table_bits
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
        try:
            unsettled = _by_live_squares(state, deadline)
        except OutOfTime:
            return None
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


class Judge:
    """Whether the player to move wins, by the compiled win/loss search with a table of
    4 x 2^20 results (64 MB), one a board size: for judging many positions (``bordspel.zero.judge``),
    where a player's small table thrashes."""

    def __init__(self) -> None:
        self.solvers: dict[int, ProofSolver] = {}

    def __call__(self, state: State) -> bool:
        assert isinstance(state, HermitState)
        if state.n not in self.solvers:
            self.solvers[state.n] = ProofSolver(state.n, table_bits=20)
        return self.solvers[state.n].state_wins(state)


def _unclocked_nodes(time_limit: float | None) -> int | None:
    """The node bound of a solver: :data:`SOLVER_NODES` when it has no clock, else none."""
    return SOLVER_NODES if time_limit is None else None


DEADLINE_CHECKS = 256
"""Moves looked at between two checks of the deadline (a 64 x 64 board has 36,864 moves)."""


def _by_live_squares(state: HermitState, deadline: float | None) -> dict[HermitMove, HermitState]:
    """Every move with the position after it, fewest live squares after it first (as in C);
    OutOfTime when ``deadline`` passes, so that a large board's thousands of moves keep to it."""
    children = []
    for index, move in enumerate(state.legal_moves()):
        if index % DEADLINE_CHECKS == 0 and deadline is not None and time.perf_counter() > deadline:
            raise OutOfTime
        child = state.apply_unchecked(move)
        children.append((_live_squares(child), index, move, child))
    return {move: child for _, _, move, child in sorted(children)}


def _live_squares(child: HermitState) -> int:
    """The squares that still accept some colour."""
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
        "medium": "alphabeta:depth=2,eval=regions,solver=0",
        "hard": "alphabeta:time=1,solver_share=0.9,eval=regions,solver=prune",
        "perfect": "alphabeta:time=600,solver_time=600",
        "easy-v1": "random",
        "medium-v1": "alphabeta:depth=2,solver=0,pvs=0",
        "hard-v1": "alphabeta:time=1,pvs=0,solver=v1",
        "perfect-v1": "alphabeta:time=600,solver_time=600,pvs=0,solver=v1",
    },
    solver=solver,
    solvers={"prune": pruning_solver, "v1": baseline_solver},
    wins=Judge(),
    players={"mirror": MirrorPlayer},
    playout=playout if _NATIVE is not None else None,
    evaluations={"regions": RegionEvaluation(evaluate)},
)
