"""The compiled Hermit core (``bordspel._native.hermit_core``) against the pure-Python reference.

Skipped when the extension is not built, unless BORDSPEL_REQUIRE_NATIVE is set.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bordspel._native import load
from bordspel.games.hermit.engine import HermitMove, HermitState, _perft
from bordspel.games.hermit.grundy import regions
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.rules import dilate, geometry
from bordspel.games.hermit.solve import first_move_classes, read_results, solve_empty
from tests.test_ai_solvers import hermit_wins, reachable, shared_grundy

core = load("hermit_core")
if core is None:
    if os.environ.get("BORDSPEL_REQUIRE_NATIVE"):
        raise ImportError("BORDSPEL_REQUIRE_NATIVE is set, but bordspel._native.hermit_core is not built")
    pytest.skip("the compiled Hermit core is not built", allow_module_level=True)


def random_positions(n: int, count: int, seed: int, most: int) -> list[HermitState]:
    """``count`` positions after 0 to ``most`` random plies."""
    rng, found = random.Random(seed), []
    for _ in range(count):
        state = HermitState.initial(size=n)
        for _ in range(rng.randint(0, most)):
            if state.is_over():
                break
            state = state.apply(state.random_move(rng))
        found.append(state)
    return found


def accepts(state: HermitState) -> tuple[int, int, int]:
    return state.free_mask(0), state.free_mask(1), state.free_mask(2)


@pytest.fixture
def pure_proof(monkeypatch: pytest.MonkeyPatch) -> type[ProofSolver]:
    """``ProofSolver``, made to search in pure Python."""
    monkeypatch.setenv("BORDSPEL_PURE", "1")
    return ProofSolver


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_region_decompositions_agree(n: int) -> None:
    solver = core.Solver(n)
    for state in random_positions(n, 40, n, n * n // 3):
        assert sorted(solver.regions(*accepts(state))) == sorted(regions(accepts(state), geometry(n)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_grundy_values_agree(n: int) -> None:
    solver, pure = core.Solver(n), shared_grundy(n)
    for state in random_positions(n, 60, n, n * n // 2):
        assert solver.region_value(*accepts(state)) == pure.value(state), state.to_str()


@pytest.mark.parametrize("n, limit, small", [(2, 10_000, 0), (3, 400, 0), (3, 400, 4), (3, 400, 8)])
def test_wins_agree_with_brute_force(n: int, limit: int, small: int) -> None:
    solver = core.Solver(n, small)
    for state in reachable(HermitState.initial(size=n), limit, random.Random(n)):
        assert solver.state_wins(state) == hermit_wins(state), state.to_str()


@pytest.mark.parametrize(
    "n, count, plies", [pytest.param(4, 40, 3, marks=pytest.mark.slow), (5, 20, 9), (6, 10, 14)]
)
def test_wins_agree_with_the_pure_proof_search(
    pure_proof: type[ProofSolver], n: int, count: int, plies: int
) -> None:
    compiled, pure = core.Solver(n, table_bits=12), pure_proof(n)
    assert pure.core is None
    rng = random.Random(n)
    for state in random_positions(n, count, n, plies):
        if n >= 5 and state.plies < plies - 2:
            continue  # too early for the pure search in a test
        large, heap = pure.position(pure.grundy.accepts(state))
        assert compiled.state_wins(state) == pure.wins((large, heap)), state.to_str()
        extra = rng.randrange(1, 8)  # a Nim heap beside the board
        assert compiled.wins(*accepts(state), heap=extra) == pure.wins((large, heap ^ extra)), state.to_str()


@pytest.mark.parametrize("n, plies", [pytest.param(5, 6, marks=pytest.mark.slow), (7, 12), (8, 20)])
def test_the_region_cache_changes_the_speed_not_the_search(n: int, plies: int) -> None:
    """With and without the cache of canonical forms, the same answers after the same positions
    searched and the same regions valued (``hard-v1`` searches without it)."""
    cached, fresh = core.Solver(n, 11), core.Solver(n, 11, region_cache=False)
    for state in random_positions(n, 6, n, plies):
        if state.plies >= plies - 2:
            assert cached.state_wins(state) == fresh.state_wins(state), state.to_str()
            assert (cached.examined, cached.grundy_examined) == (fresh.examined, fresh.grundy_examined)
            assert cached.region_value(*accepts(state)) == fresh.region_value(*accepts(state))


def test_the_proof_solver_uses_the_compiled_search() -> None:
    solver = ProofSolver(5)
    assert solver.core is not None
    state = HermitState.initial(size=5).apply(HermitState.initial(size=5).parse_move("Rc3U"))
    assert not solver.state_wins(state)  # the centre block wins: the position after it is lost
    assert solver.examined == solver.core.examined > 0


@pytest.mark.parametrize("n", [3, 5, 8])
def test_canonical_regions_forget_place_symmetry_and_colour_names(n: int) -> None:
    solver = core.Solver(n)
    for state in random_positions(n, 10, n, n):
        for region in solver.regions(*accepts(state)):
            red, yellow, blue = region
            image = HermitState._make(n, (red, yellow, blue), 0)
            forms = {solver.canonical(*img.masks) for img in image.symmetric_positions()}
            assert forms == {solver.canonical(*region)}


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_the_compiled_neighbourhood_is_the_rules_one(n: int) -> None:
    """Two squares form one region in C exactly when the rules' ``dilate`` says they touch."""
    solver, geo = core.Solver(n), geometry(n)
    for a in range(n * n):
        for b in range(a + 1, n * n):
            touching = bool(dilate(1 << a, geo) >> b & 1)
            assert (len(solver.regions(1 << a | 1 << b, 0, 0)) == 1) == touching, (n, a, b)


def test_the_compiled_grid_tables_come_from_the_rules() -> None:
    assert core.GRID is geometry(8)


def test_the_search_keeps_to_boards_up_to_8x8() -> None:
    with pytest.raises(ValueError, match="8x8"):
        core.Solver(9)


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_random_games_are_legal_and_end_with_no_move(n: int) -> None:
    for seed, state in enumerate(random_positions(n, 5, n, 3)):
        for colour, row, col, placement in core.random_game(state, seed):
            state = state.apply(HermitMove(colour, row, col, placement))  # refuses an illegal move
        assert state.is_over()


def test_playout_returns_name_the_player_who_moved_last() -> None:
    one = HermitState.initial(size=1)
    assert core.playout(one, random.Random(1)) == (1.0, -1.0)  # one move, by the first player
    after = one.apply(HermitMove("R", 0, 0, "U"))
    assert after.is_over() and core.playout(after, random.Random(1)) == (1.0, -1.0)
    rng = random.Random(3)
    for state in random_positions(5, 30, 5, 8):
        seed = rng.getrandbits(64)
        end = state
        for move in core.random_game(state, seed):
            end = end.apply(HermitMove(*move))
        outcome = end.outcome()
        assert outcome is not None
        assert core.playout(state, _FixedBits(seed)) == outcome.returns()  # the same game


class _FixedBits(random.Random):
    """A generator whose 64 random bits are given, so a playout and a random game share a seed."""

    def __init__(self, bits: int) -> None:
        super().__init__()
        self.bits = bits

    def getrandbits(self, k: int, /) -> int:
        return self.bits


def test_batch_playouts_are_reproducible_and_name_the_winners() -> None:
    start = HermitState.initial(size=5)
    winners = core.playouts(start, 500, 7)
    assert winners == core.playouts(start, 500, 7) and len(winners) == 500 and set(winners) == {0, 1}
    assert core.playouts(HermitState.initial(size=1), 20, 1) == bytes(20)  # one move: the first player
    for seed in range(20):  # a batch of one plays the game random_game plays from the same seed
        plies = len(core.random_game(start, seed))
        assert core.playouts(start, 1, seed) == bytes([(plies + 1) % 2])


def test_solve_resumes_from_its_results_file(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    whole = solve_empty(4, results=path)
    lines = path.read_text().splitlines()
    assert len(lines) == len(first_move_classes(4)) and not whole.first_player_wins
    path.write_text("\n".join(lines[:3]) + "\n")  # as if stopped after three first moves
    resumed = solve_empty(4, results=path)
    assert len(path.read_text().splitlines()) == len(lines)
    assert resumed.moves == whole.moves == 120 and not resumed.first_player_wins
    again = solve_empty(4, results=path)  # everything settled: nothing is searched
    assert again.examined == sum(s.examined for s in read_results(path, 4).values())


def test_solve_splits_first_moves_over_worker_processes() -> None:
    from bordspel.ai.arena import ProcessBackend
    from bordspel.games.hermit.solve import settle

    report = solve_empty(3, run=lambda tasks: ProcessBackend(2).run(settle, tasks))
    assert report.first_player_wins and {m.to_str() for m in report.winning_moves} == {"Rb2U", "Yb2U", "Bb2U"}


PERFT_CASES = [(1, 2, 0), (3, 3, 0), (4, 3, 2), (5, 2, 4), (6, 2, 6), (8, 2, 3)]


@pytest.mark.parametrize(("n", "depth", "plies"), PERFT_CASES)
def test_compiled_perft_is_the_pure_one(n: int, depth: int, plies: int) -> None:
    for state in random_positions(n, 4, seed=n * 10 + depth, most=plies):
        red, yellow, blue = state.masks
        assert core.perft(state, depth) == _perft(red, yellow, blue, depth, geometry(n))


def test_the_engine_perft_uses_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    state = HermitState.initial(size=4)
    monkeypatch.setattr(core, "perft", lambda _state, _depth: -1)
    assert state.perft(2) == -1


@pytest.mark.parametrize("n, limit, small", [(2, 10_000, 0), (3, 400, 0), (3, 400, 8)])
def test_proof_numbers_agree_with_brute_force(n: int, limit: int, small: int) -> None:
    solver = core.Solver(n, small, table_bits=8, proof_numbers=True)
    for state in reachable(HermitState.initial(size=n), limit, random.Random(n)):
        assert solver.prove(*accepts(state)) == hermit_wins(state), state.to_str()


@pytest.mark.parametrize("n, count, plies", [(4, 30, 2), (5, 20, 6), (6, 10, 10), (7, 6, 16)])
def test_proof_numbers_agree_with_the_depth_first_search(n: int, count: int, plies: int) -> None:
    """Both compiled searches, with and without a Nim heap beside the board; a small table for
    the proof numbers, so that entries are given up and searched again."""
    depth_first, proof_numbers = core.Solver(n), core.Solver(n, table_bits=6, proof_numbers=True)
    rng = random.Random(n)
    for state in random_positions(n, count, n, plies):
        if state.plies >= plies - 2:
            heap = rng.choice([0, rng.randrange(1, 8)])
            assert proof_numbers.prove(*accepts(state), heap) == depth_first.wins(*accepts(state), heap)


def test_proof_numbers_agree_with_grundy_values_on_4x4() -> None:
    solver, grundy = core.Solver(4, table_bits=10, proof_numbers=True), shared_grundy(4)
    for state in random_positions(4, 40, 44, 8):
        if state.plies >= 3:  # the Grundy values of earlier positions take seconds
            assert solver.prove(*accepts(state)) == (grundy.value(state) != 0), state.to_str()


def test_proof_numbers_need_their_table() -> None:
    with pytest.raises(ValueError, match="proof_numbers=True"):
        core.Solver(3).prove(0, 0, 0)


def test_the_proof_solver_searches_with_proof_numbers_when_asked() -> None:
    start = HermitState.initial(size=5)
    after_centre = start.apply(start.parse_move("Rc3U"))
    solver = ProofSolver(5, proof_numbers=True)
    assert not solver.state_wins(after_centre) and solver.examined > 0
    assert 0 < solver.table_fill() < 1


def test_solve_logs_the_running_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    from bordspel.games.hermit.solve import FirstMove, settle

    settled = settle(FirstMove(5, "Rc3U", table_bits=16, log_every=1e-9))
    lines = capsys.readouterr().err.splitlines()
    assert settled.wins and lines
    assert "5x5 Rc3U: positions" in lines[-1] and "/s, table" in lines[-1] and "% full" in lines[-1]
