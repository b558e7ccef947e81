"""Differential tests: the compiled Quarto solver and playouts against the pure-Python reference.

They run whenever the extensions are built (``BORDSPEL_PURE`` only switches what the players
use, not these comparisons); they skip when the extensions are not built, unless
``BORDSPEL_REQUIRE_NATIVE=1`` (as in CI) makes that a failure.
"""

from __future__ import annotations

import importlib
import os
import random
import time
from collections import Counter
from types import ModuleType

import pytest

from bordspel import new_game
from bordspel._native import load
from bordspel.ai import make_player
from bordspel.ai.mcts import random_playout
from bordspel.ai.search import OutOfTime
from bordspel.cli import main
from bordspel.games.quarto.ai import (
    KNOWLEDGE,
    CompiledQuartoSolver,
    PureQuartoSolver,
    QuartoSolver,
    playout,
    random_choice_position,
)
from bordspel.games.quarto.engine import QuartoMove, QuartoState


def compiled_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"bordspel._native.{name}")
    except ImportError:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE", "") not in ("", "0"):
            raise
        return None


PLAYOUTS = compiled_module("quarto_playout")
pytestmark = pytest.mark.skipif(
    compiled_module("quarto_solver") is None or PLAYOUTS is None,
    reason="the compiled Quarto modules are not built",
)


def position(placed: int, seed: int, advanced: bool) -> tuple[list[int], int]:
    return random_choice_position(placed, random.Random(seed), advanced)


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("placed", [8, 9, 10, 11, 12])
def test_solver_values_and_best_moves_agree(placed: int, advanced: bool) -> None:
    for seed in range(6):
        board, available = position(placed, 100 * placed + seed, advanced)
        compiled, pure = CompiledQuartoSolver(advanced), PureQuartoSolver(advanced)
        got, want = compiled.solve_choice(board, available), pure.solve_choice(board, available)
        assert (got.score, got.result, got.distance, got.best) == (
            want.score,
            want.result,
            want.distance,
            want.best,
        )
        assert got.best is not None and available >> got.best & 1
        piece = random.Random(seed).choice([p for p in range(16) if available >> p & 1])
        rest = available & ~(1 << piece)
        got, want = compiled.solve_placement(board, piece, rest), pure.solve_placement(board, piece, rest)
        assert (got.score, got.result, got.distance, got.best) == (
            want.score,
            want.result,
            want.distance,
            want.best,
        )
        assert got.best is not None and board[got.best] < 0
        assert got.nodes > 0 and compiled.nodes >= got.nodes


@pytest.mark.parametrize("advanced", [False, True])
def test_best_move_is_legal_and_keeps_the_value(advanced: bool) -> None:
    rng = random.Random(5)
    for _ in range(4):
        state = new_game("quarto", advanced=advanced)
        while state.filled.bit_count() < 8 and not state.is_over():  # type: ignore[attr-defined]
            state = state.apply(state.random_move(rng))
        if state.is_over():
            continue
        move = CompiledQuartoSolver(advanced).best_move(state)  # type: ignore[arg-type]
        assert move == PureQuartoSolver(advanced).best_move(state)  # type: ignore[arg-type]
        state.apply(move)  # checked: raises if illegal


def test_the_tables_survive_between_positions_and_canonical_keys_agree() -> None:
    compiled = CompiledQuartoSolver(canonical_empties=6)
    for seed in range(8):
        board, available = position(9, seed, False)
        assert (
            compiled.solve_choice(board, available).score
            == PureQuartoSolver().solve_choice(board, available).score
        )


def test_a_past_deadline_raises_out_of_time() -> None:
    board, available = position(4, 1, False)
    solver = CompiledQuartoSolver()
    solver.deadline = time.perf_counter() - 1
    with pytest.raises(OutOfTime):
        solver.solve_choice(board, available)
    solver.deadline = None
    board, available = position(10, 1, False)
    assert (
        solver.solve_choice(board, available).score == PureQuartoSolver().solve_choice(board, available).score
    )


def test_progress_reports_the_nodes() -> None:
    board, available = position(5, 2, False)
    solver = CompiledQuartoSolver(report_seconds=0.0)
    seen: list[int] = []
    solver.progress = seen.append
    solution = solver.solve_choice(board, available)
    assert seen and seen == sorted(seen) and 0 < seen[-1] <= solution.nodes


def test_the_solver_refuses_bad_input() -> None:
    solver = CompiledQuartoSolver()
    with pytest.raises(ValueError):
        solver.solve_choice([-1] * 15, 0xFFFF)
    with pytest.raises(ValueError):
        solver.solve_choice([16] + [-1] * 15, 0x7FFF)
    with pytest.raises(ValueError):
        solver.solve_placement([-1] * 16, 16, 0x7FFF)


def replay(state: QuartoState, moves: list[tuple[int, int]]) -> QuartoState:
    """The moves of a compiled random game, played through the engine's checked ``apply``."""
    for square, give in moves:
        move = QuartoMove(None if square < 0 else square, None if give < 0 else state.pieces.chars[give])
        state = state.apply(move)  # type: ignore[assignment]
    return state


def started(plies: int, seed: int, advanced: bool) -> QuartoState:
    rng = random.Random(seed)
    state: QuartoState = new_game("quarto", advanced=advanced)  # type: ignore[assignment]
    for _ in range(plies):
        state = state.apply(state.random_move(rng))  # type: ignore[assignment]
        if state.is_over():
            return started(plies, seed + 1000, advanced)
    return state


@pytest.mark.parametrize("advanced", [False, True])
def test_compiled_random_games_are_legal_and_end_as_the_engine_says(advanced: bool) -> None:
    assert PLAYOUTS is not None
    for seed in range(200):
        state = started(seed % 9, seed, advanced)
        result, moves = PLAYOUTS.random_game(state.filled, state.ones, state.hand, state.turn, advanced, seed)
        end = replay(state, moves)
        outcome = end.outcome()
        assert outcome is not None and (2 if outcome.is_draw else outcome.winner) == result


@pytest.mark.slow
@pytest.mark.parametrize("advanced", [False, True])
def test_compiled_playouts_follow_the_distribution_of_random_move(advanced: bool) -> None:
    assert PLAYOUTS is not None
    games = 3000
    for plies in (0, 5):
        state = started(plies, 7, advanced)
        rng = random.Random(3)
        pure = Counter(random_playout(state, rng) for _ in range(games))
        results = PLAYOUTS.random_results(
            state.filled, state.ones, state.hand, state.turn, advanced, games, 11
        )
        compiled = Counter(playout_returns(r) for r in results)
        assert len(results) == games and set(results) <= {0, 1, 2}
        for returns in set(pure) | set(compiled):
            assert abs(pure[returns] - compiled[returns]) / games < 0.05, (pure, compiled)


def playout_returns(result: int) -> tuple[float, ...]:
    return ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))[result]


SWITCHED_OFF = load("quarto_playout") is None
"""``BORDSPEL_PURE`` is set: the players use the reference."""


@pytest.mark.skipif(SWITCHED_OFF, reason="BORDSPEL_PURE is set")
def test_the_playout_hook_reaches_mcts() -> None:
    state = started(3, 1, False)
    assert playout(state, random.Random(1)) in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert PLAYOUTS is not None
    over = replay(state, PLAYOUTS.random_game(state.filled, state.ones, state.hand, state.turn, False, 1)[1])
    outcome = over.outcome()
    assert outcome is not None and playout(over, random.Random(1)) == outcome.returns()
    assert KNOWLEDGE.playout is playout
    player = make_player("mcts:playouts=60", "quarto", seed=2)
    assert player.playout is playout  # type: ignore[attr-defined]
    assert player.step(state) in state.legal_moves()


@pytest.mark.skipif(not SWITCHED_OFF, reason="BORDSPEL_PURE is not set")
def test_switched_off_mcts_plays_the_reference_playouts() -> None:
    assert KNOWLEDGE.playout is None and QuartoSolver is PureQuartoSolver
    assert make_player("mcts:playouts=10", "quarto", seed=2).playout is random_playout  # type: ignore[attr-defined]


def test_the_compiled_solver_is_the_default_unless_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from bordspel import _native

    monkeypatch.delenv("BORDSPEL_PURE", raising=False)
    assert _native.backend() == "compiled"
    monkeypatch.setenv("BORDSPEL_PURE", "1")
    assert _native.backend() == "pure" and _native.load("quarto_solver") is None
    assert QuartoSolver in (CompiledQuartoSolver, PureQuartoSolver)


def test_version_names_the_backend(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("BORDSPEL_PURE", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == "bordspel 0.1.0 (compiled)"
    monkeypatch.setenv("BORDSPEL_PURE", "1")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == "bordspel 0.1.0 (pure)"


@pytest.mark.parametrize("advanced", [False, True])
def test_window_searches_bound_the_value_as_the_reference(advanced: bool) -> None:
    for seed in range(6):
        board, available = position(9, 300 + seed, advanced)
        piece = -1 if seed % 2 else random.Random(seed).choice([p for p in range(16) if available >> p & 1])
        rest = available if piece < 0 else available & ~(1 << piece)
        exact = PureQuartoSolver(advanced).search(board, piece, rest, -2, 2)
        for alpha, beta in ((-1, 0), (0, 1), (-1, 1)):
            got = CompiledQuartoSolver(advanced).search(board, piece, rest, alpha, beta)
            assert got == PureQuartoSolver(advanced).search(board, piece, rest, alpha, beta)
            assert (got >= beta) == (exact >= beta) and (got <= alpha) == (exact <= alpha)
            if alpha < exact < beta:
                assert got == exact
