"""Hermit's ``hard`` knowledge: the general mirror strategy and the region evaluation, checked
against the exact solvers."""

from __future__ import annotations

import random
import time

import pytest

from bordspel.ai import make_player
from bordspel.ai.players import Narrowed, Proven
from bordspel.core import State, square_symmetries
from bordspel.games.hermit.ai import DEADLINE_CHECKS, HermitEndgame, PruningEndgame, evaluate
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.rules import dilate, fitting_blocks, geometry
from bordspel.games.hermit.strategy import KNOWN, RegionEvaluation, involutions, mirror_loses

Accepts = tuple[int, int, int]


def accepts(state: HermitState) -> Accepts:
    return state.free_mask(0), state.free_mask(1), state.free_mask(2)


def image(move: HermitMove, perm: tuple[int, ...], n: int, colours: str) -> HermitMove:
    """The block's image under the cell permutation, in the renamed colour."""
    cells = sorted(perm[r * n + c] for r, c in move.squares)
    row, col = divmod(cells[0], n)
    placement = "U" if len(cells) == 1 else ("H" if cells[1] == cells[0] + 1 else "V")
    return HermitMove(colours["RYB".index(move.colour)], row, col, placement)


def symmetric_positions(n: int, seed: int, count: int) -> list[HermitState]:
    """Positions built from blocks and their images (random symmetries and colour swaps)."""
    rng, found = random.Random(seed), list[HermitState]()
    perms = [p for p in square_symmetries(n)[1:] if all(p[p[i]] == i for i in range(n * n))]
    while len(found) < count:
        perm, colours = rng.choice(perms), rng.choice(["RYB", "YRB", "BYR", "RBY"])
        state = HermitState.initial(size=n)
        if n % 2 and rng.random() < 0.5:  # a centre block in a colour the renaming keeps
            fixed = [c for i, c in enumerate(colours) if c == "RYB"[i]]
            state = state.apply(HermitMove(fixed[0], n // 2, n // 2, "U"))
        for _ in range(rng.randrange(1, 5)):
            if state.is_over():
                break
            move = state.random_move(rng)
            state = state.apply_unchecked(move)
            reply = image(move, perm, n, colours)
            if not state.is_legal(reply):
                break
            state = state.apply_unchecked(reply)
        else:
            found.append(state)
    return found


@pytest.mark.parametrize("n", [5, 7])
def test_a_centre_block_first_is_a_mirror_win_on_odd_boards(n: int) -> None:
    empty = HermitState.initial(size=n)
    assert not mirror_loses(accepts(empty), n)
    after = empty.apply(HermitMove("Y", n // 2, n // 2, "U"))
    assert mirror_loses(accepts(after), n)


def test_the_board_has_five_involutions() -> None:
    assert len(involutions(4)) == len(involutions(5)) == 5


@pytest.mark.parametrize("n", [4, 5])
def test_every_mirror_loss_is_a_loss(n: int) -> None:
    solver, seen = ProofSolver(n), 0
    for state in symmetric_positions(n, seed=n, count=40):
        if mirror_loses(accepts(state), n):
            seen += 1
            assert not solver.state_wins(state), state.to_str()
    assert seen >= 5


@pytest.mark.parametrize("n", [4, 5])
def test_the_evaluation_agrees_with_the_solver_where_it_knows(n: int) -> None:
    evaluation, solver, rng = RegionEvaluation(evaluate, budget=50), ProofSolver(n), random.Random(n)
    known = 0
    for _ in range(60):
        state = HermitState.initial(size=n)
        for _ in range(rng.randrange(0, 6)):
            if not state.is_over():
                state = state.apply_unchecked(state.random_move(rng))
        if state.is_over():
            continue
        value = evaluation.value(state)
        assert abs(value) in (1.0, KNOWN)
        if abs(value) == KNOWN:
            known += 1
            assert (value > 0) == solver.state_wins(state), state.to_str()
            assert evaluation(state, 1 - state.to_move) == -value  # the other seat's view
    assert known >= 5


def test_hard_plays_the_mirror_answer() -> None:
    """After a centre block and a mirrored pair, hard answers the next block by its image."""
    state = HermitState.initial(size=7)
    for move in ("Rd4U", "Ba1H", "Bf7H", "Yb6V"):
        state = state.apply(state.move_from_str(move))
    move = make_player("hard", "hermit", seed=1).step(state)
    assert mirror_loses(accepts(state.apply(move)), 7)


def openings(n: int, seed: int, count: int, fewest: int, most: int) -> list[HermitState]:
    """Positions after ``fewest`` to ``most`` random blocks (games not over)."""
    rng, found = random.Random(seed), list[HermitState]()
    while len(found) < count:
        state = HermitState.initial(size=n)
        for _ in range(rng.randint(fewest, most)):
            state = state.apply_unchecked(state.random_move(rng))
        if not state.is_over():
            found.append(state)
    return found


class SweepingEverywhere(PruningEndgame):
    """The sweep on boards small enough to check against a search without limits."""

    SWEEP_FROM = 4


@pytest.mark.parametrize(
    "n, nodes, plies",
    [(4, 40, 1), (5, 40, 4), pytest.param(5, 400, 3, marks=pytest.mark.slow), (6, 400, 8), (7, 400, 14)],
)
def test_the_pruning_solver_leaves_out_only_losing_moves(n: int, nodes: int, plies: int) -> None:
    """Against a search without limits: a move it calls a win wins, a loss is a loss, and every
    move it leaves out of the search (:class:`Narrowed`) loses."""
    exact, answers = ProofSolver(n), set()
    for state in openings(n, seed=n * nodes, count=12, fewest=plies, most=plies + 2):
        answer = SweepingEverywhere(None, nodes=nodes).solve(state, None)
        losing = {m for m in state.legal_moves() if exact.state_wins(state.apply_unchecked(m))}
        if isinstance(answer, Proven):
            assert (answer.move not in losing) == (answer.result == "win")
            assert answer.result == "win" or losing == set(state.legal_moves())
            answers.add(answer.result)
        elif isinstance(answer, Narrowed):
            left_out = set(state.legal_moves()) - set(answer.moves)
            assert left_out and left_out <= losing and answer.moves
            answers.add("narrowed")
    assert answers and (n != 5 or "narrowed" in answers)


def test_below_7x7_the_pruning_solver_searches_as_the_baseline() -> None:
    for state in openings(5, seed=2, count=6, fewest=3, most=5):
        answer, baseline = PruningEndgame(None).solve(state, None), HermitEndgame(None).solve(state, None)
        assert answer == baseline


def test_hard_uses_the_pruning_solver_and_the_baseline_does_not() -> None:
    hard, baseline = make_player("hard", "hermit"), make_player("hard-v1", "hermit")
    assert isinstance(hard.endgame, PruningEndgame)  # type: ignore[attr-defined]
    assert type(baseline.endgame) is HermitEndgame  # type: ignore[attr-defined]
    assert not baseline.endgame.region_cache  # type: ignore[attr-defined]  # its solver's own speed


def test_the_search_after_a_narrowed_answer_plays_one_of_the_open_moves() -> None:
    """With every move but two refuted, alpha-beta and MCTS choose between those two."""
    state = openings(7, seed=3, count=1, fewest=6, most=6)[0]
    open_moves = tuple(state.legal_moves()[-2:])

    class Narrowing:
        def solve(self, state: State, deadline: float | None) -> Narrowed:
            return Narrowed(open_moves)

    for spec in ("alphabeta:depth=2", "mcts:playouts=50"):
        player = make_player(spec, "hermit", seed=1)
        player.endgame = Narrowing()  # type: ignore[attr-defined]
        assert player.step(state) in open_moves


def test_the_pruning_solver_keeps_to_its_deadline_on_a_large_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 40 x 40 board has 14,160 moves: the solver stops looking at them once its time is up
    (it looked at all of them first, 0.8 s, and the players went over their budgets)."""
    state = HermitState.initial(size=40)
    applied: list[HermitMove] = []
    original = HermitState.apply_unchecked

    def counted(self: HermitState, move: HermitMove) -> HermitState:
        applied.append(move)
        return original(self, move)

    monkeypatch.setattr(HermitState, "apply_unchecked", counted)
    assert PruningEndgame(1.0).solve(state, time.perf_counter() - 1) is None
    assert len(applied) <= DEADLINE_CHECKS


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_involutions_know_the_blocks_that_meet_their_image(n: int) -> None:
    geo = geometry(n)
    for symmetry in involutions(n):
        touching, overlapping = [0, 0, 0], [0, 0, 0]
        for shape, block in fitting_blocks(geo.full, geo):
            image = symmetry.image(block)
            touching[shape] |= block & -block if image & dilate(block, geo) else 0
            overlapping[shape] |= block & -block if image & block else 0
        assert (tuple(touching), tuple(overlapping)) == (symmetry.touching, symmetry.overlapping)
