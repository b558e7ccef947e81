"""Hermit's ``hard`` knowledge: the general mirror strategy and the region evaluation, checked
against the exact solvers."""

from __future__ import annotations

import random

import pytest

from bordspel.ai import make_player
from bordspel.games.hermit.ai import evaluate
from bordspel.games.hermit.engine import HermitMove, HermitState, board_symmetries
from bordspel.games.hermit.proof import ProofSolver
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
    perms = [p for p in board_symmetries(n)[1:] if all(p[p[i]] == i for i in range(n * n))]
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
