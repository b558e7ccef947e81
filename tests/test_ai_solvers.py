"""Exact solvers against brute force, the mirror strategy, and the symmetries they rely on."""

from __future__ import annotations

import functools
import random

import pytest

from bordspel.ai import make_player
from bordspel.ai.search import OutOfTime
from bordspel.core import new_game
from bordspel.games.hermit import ai as hermit_ai
from bordspel.games.hermit.ai import MirrorPlayer
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.grundy import GrundySolver
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.solve import solve_empty
from bordspel.games.quarto import ai as quarto_ai
from bordspel.games.quarto.ai import (
    WIN,
    PureQuartoSolver,
    QuartoSolver,
    random_choice_position,
)
from bordspel.games.quarto.engine import LINES, SQUARES_2X2
from bordspel.games.quarto.rules import board_symmetries
from bordspel.record import Game


@functools.cache
def hermit_wins(state: HermitState) -> bool:
    """Brute force: the player to move wins if some move leaves a lost position."""
    return any(not hermit_wins(state.apply_unchecked(m)) for m in state.legal_moves())


@functools.cache
def shared_grundy(n: int) -> GrundySolver:
    """One Grundy solver per board size for the whole run: filling its cache is the slow part."""
    return GrundySolver(n)


def reachable(start: HermitState, limit: int, rng: random.Random) -> list[HermitState]:
    seen, frontier = {start}, [start]
    while frontier and len(seen) < limit:
        state = frontier.pop(rng.randrange(len(frontier)))
        for move in state.legal_moves():
            child = state.apply_unchecked(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=lambda s: s.to_str())


@pytest.mark.parametrize("n, limit", [(2, 10_000), (3, 400)])
def test_grundy_values_agree_with_brute_force(n: int, limit: int) -> None:
    solver = GrundySolver(n)
    positions = reachable(HermitState.initial(size=n), limit, random.Random(n))
    assert len(positions) > 30
    for state in positions:
        assert (solver.value(state) != 0) == hermit_wins(state), state.to_str()


@pytest.mark.parametrize("n, limit, small", [(2, 10_000, 0), (3, 400, 0), (3, 400, 4)])
def test_proof_search_agrees_with_brute_force(n: int, limit: int, small: int) -> None:
    solver = ProofSolver(n, small=small)  # small 0: every region is searched, none gets a value
    positions = reachable(HermitState.initial(size=n), limit, random.Random(n))
    for state in positions:
        position = solver.position(solver.grundy.accepts(state))
        assert solver.wins(position) == hermit_wins(state), state.to_str()


LONGEST = [pytest.param(small, 40, marks=pytest.mark.slow) for small in (0, 3, 6, 10)]
"""The longest cases: with the slow tests (the fast loop keeps a few positions of one)."""


@pytest.mark.parametrize(("small", "positions"), [*LONGEST, (10, 8)])
def test_proof_search_agrees_with_grundy_values_on_4x4(small: int, positions: int) -> None:
    rng, proof, grundy = random.Random(small), ProofSolver(4, small=small), shared_grundy(4)
    for _ in range(positions):
        state = HermitState.initial(size=4)
        for _ in range(rng.randint(1, 4)):
            if state.is_over():
                break
            state = state.apply(state.random_move(rng))
        assert proof.wins(proof.position(proof.grundy.accepts(state))) == (grundy.value(state) != 0)


def test_mirror_image_regions_cancel() -> None:
    # With the middle column filled, the left and right halves are mirror images of each other:
    # the same region twice, which together are worth nothing.
    state = HermitState.initial(size=5)
    for move in ("Rc1V", "Yc3U", "Rc4V"):
        state = state.apply(state.parse_move(move))
    solver = ProofSolver(5, small=0)
    large, heap = solver.position(solver.grundy.accepts(state))
    assert large == () and heap == 0 and not solver.wins((large, heap))
    assert not hermit_wins_with_grundy(state)


def hermit_wins_with_grundy(state: HermitState) -> bool:
    return GrundySolver(state.n).value(state) != 0


def test_proof_search_stops_at_its_deadline() -> None:
    solver = ProofSolver(5, deadline=0.0)
    start = HermitState.initial(size=5).apply_unchecked(HermitState.initial(size=5).parse_move("Rc3U"))
    with pytest.raises(OutOfTime):
        solver.wins(solver.position(solver.grundy.accepts(start)))


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure"])
def test_proof_search_stops_at_its_node_limit(compiled: bool) -> None:
    solver = ProofSolver(6, node_limit=300)
    if not compiled:
        solver.core = None
    elif solver.core is None:
        pytest.skip("hermit_core is not built")
    with pytest.raises(OutOfTime):
        solver.state_wins(HermitState.initial(size=6))
    assert solver.visited() == 301


def test_solvers_without_a_clock_are_bounded_without_one() -> None:
    """``solver(None)`` (a player with no time): Hermit's proof search counts positions, Quarto's
    solver solves to the end from fewer empty squares; neither has a time limit."""
    hermit = hermit_ai.solver(None)
    assert isinstance(hermit, hermit_ai.HermitEndgame) and hermit.time_limit is None
    assert hermit.solve(HermitState.initial(size=6), None) is None  # not proven in budget
    proof = hermit.solvers[6]
    assert 0 < proof.visited() <= hermit_ai.SOLVER_NODES + 1 and proof.node_limit is None
    assert hermit_ai.HermitEndgame(1.0).nodes is None
    quarto, timed = quarto_ai.solver(None), quarto_ai.solver(1.0)
    assert isinstance(quarto, quarto_ai.QuartoEndgame) and isinstance(timed, quarto_ai.QuartoEndgame)
    assert quarto.time_limit is None and quarto.max_empty == quarto_ai.CLOCKLESS_EMPTY < timed.max_empty


def test_grundy_values_are_the_same_under_symmetry() -> None:
    rng = random.Random(4)
    solver = GrundySolver(4)
    for _ in range(15):
        state = HermitState.initial(size=4)
        for _ in range(rng.randint(2, 5)):
            state = state.apply(state.random_move(rng))
        assert {solver.value(image) for image in state.symmetric_positions()} == {solver.value(state)}


def test_small_boards_solved() -> None:
    one, two, three = solve_empty(1), solve_empty(2), solve_empty(3)
    assert one.first_player_wins and len(one.winning_moves) == 3
    assert two.first_player_wins and two.winning_moves
    assert three.first_player_wins and {m.to_str() for m in three.winning_moves} == {"Rb2U", "Yb2U", "Bb2U"}
    assert (one.grundy, two.grundy, three.grundy) == (1, 1, 4)
    first = solve_empty(3, first_only=True)
    assert first.winning_moves == three.winning_moves[:1] and first.moves < three.moves
    assert all(hermit_wins(HermitState.initial(size=n)) for n in (1, 2, 3))


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_mirror_strategy_always_legal_and_winning(n: int) -> None:
    rng = random.Random(n)
    for game_number in range(6):
        record = Game(new_game("hermit", size=n))
        mirror, opponent = MirrorPlayer(), make_player("random", "hermit", seed=game_number)
        while not record.state.is_over():
            player = mirror if record.state.to_move == 0 else opponent
            record.play(player.step(record.state))  # checked: an illegal reflection would raise
        outcome = record.outcome()
        assert outcome is not None and outcome.winner == 0
    assert rng  # the opponent's seeds vary per game


# -- Quarto -----------------------------------------------------------------------------------------
def test_board_symmetries_keep_the_lines() -> None:
    for advanced, count in ((False, 32), (True, 8)):
        perms = board_symmetries(advanced)
        assert len(perms) == count and len(set(perms)) == count
        lines = set(LINES.values()) | (set(SQUARES_2X2.values()) if advanced else set())
        for perm in perms:
            assert {sum(1 << perm[c] for c in range(16) if line >> c & 1) for line in lines} == lines


def brute(board: list[int], available: int, hand: int, done: int) -> int:
    """Plain negamax with distance, no pruning: the score of the player to act."""
    if hand < 0:
        if not available:
            return 0
        return max(-brute(board, available & ~(1 << p), p, done) for p in range(16) if available >> p & 1)
    best = -WIN - 1
    for cell in (c for c in range(16) if board[c] < 0):
        board[cell] = hand
        if quarto_on(board):
            value = WIN - done - 1
        elif not available:
            value = 0
        else:
            value = brute(board, available, -1, done + 1)
        board[cell] = -1
        best = max(best, value)
    return best


def quarto_on(board: list[int]) -> bool:
    """Whether four pieces in a line share a value (written from the rules, not the engine)."""
    for line in LINES.values():
        pieces = [board[c] for c in range(16) if line >> c & 1]
        if min(pieces) >= 0 and any(len({p >> j & 1 for p in pieces}) == 1 for j in range(4)):
            return True
    return False


@pytest.mark.parametrize("seed", range(12))
def test_quarto_solver_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    empties = 4 + seed % 2
    board, available = random_choice_position(16 - empties, rng)
    solver = QuartoSolver()
    solved = solver.solve_choice(board, available)
    assert solved.score == brute(list(board), available, -1, 0)
    piece = rng.choice([p for p in range(16) if available >> p & 1])
    placement = solver.solve_placement(board, piece, available & ~(1 << piece))
    assert placement.score == brute(list(board), available & ~(1 << piece), piece, 0)


def test_quarto_solver_invariant_under_symmetries() -> None:
    rng = random.Random(9)
    for _ in range(4):
        board, available = random_choice_position(9, rng)
        value = QuartoSolver(canonical_empties=17).solve_choice(board, available).score
        perm = rng.choice(board_symmetries())
        order = rng.sample(range(4), 4)
        flip = rng.randrange(16)

        def relabel(piece: int, flip: int = flip, order: list[int] = order) -> int:
            return -1 if piece < 0 else sum(((piece ^ flip) >> j & 1) << order[j] for j in range(4))

        moved = [relabel(board[perm[c]]) for c in range(16)]
        moved_available = sum(1 << relabel(p) for p in range(16) if available >> p & 1)
        assert QuartoSolver(canonical_empties=17).solve_choice(moved, moved_available).score == value


def test_perfect_play_keeps_a_won_position_won() -> None:
    rng = random.Random(2)
    wins = 0
    for _ in range(6):
        state = new_game("quarto")
        while state.filled.bit_count() < 9 and not state.is_over():  # type: ignore[attr-defined]
            state = state.apply(state.random_move(rng))
        if state.is_over():
            continue
        solver = QuartoSolver()
        board = [-1 if (p := state.piece_at(c)) is None else p for c in range(16)]  # type: ignore[attr-defined]
        available = sum(1 << p for p in state.available())  # type: ignore[attr-defined]
        value = solver.solve_placement(board, state.hand, available)  # type: ignore[attr-defined]
        after = state.apply(solver.best_move(state))  # type: ignore[arg-type]
        if value.result == "win":
            wins += 1
            outcome = after.outcome()
            if outcome is None:
                again = [-1 if (p := after.piece_at(c)) is None else p for c in range(16)]  # type: ignore[attr-defined]
                rest = sum(1 << p for p in after.available())  # type: ignore[attr-defined]
                reply = QuartoSolver().solve_placement(again, after.hand, rest)  # type: ignore[attr-defined]
                assert reply.result == "loss" and reply.distance == value.distance - 1
            else:
                assert outcome.winner == state.to_move
    assert wins


def test_the_endgame_solver_keeps_one_solver_a_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []

    class Counted(quarto_ai.QuartoSolver):  # type: ignore[misc,valid-type]
        def __init__(self, *args: bool) -> None:
            made.append(self)
            super().__init__(*args)

    monkeypatch.setattr(quarto_ai, "QuartoSolver", Counted)
    endgame = quarto_ai.solver(None)
    rng = random.Random(4)
    asked = 0
    while asked < 3:
        state = new_game("quarto")
        while state.filled.bit_count() < 6 + asked and not state.is_over():  # type: ignore[attr-defined]
            state = state.apply(state.random_move(rng))
        if not state.is_over():
            assert endgame(state) in state.legal_moves()
            asked += 1
    assert len(made) == 1


@pytest.mark.slow
def test_the_pure_solver_reports_progress() -> None:
    board, available = random_choice_position(5, random.Random(3))
    seen: list[int] = []
    solver = PureQuartoSolver()
    solver.progress = seen.append
    solution = solver.solve_choice(board, available)
    assert seen and all(n % 65536 == 0 for n in seen) and seen[-1] <= solution.nodes
