"""Time budgets hold: the solver and the search share one move's time, and both stop soon after
their deadlines, also on big boards where one node or one solver step is slow.

The margins are generous (the machine may be loaded): these tests catch budgets that add up or
clocks checked too rarely (seconds over), not milliseconds."""

from __future__ import annotations

import gc
import random
import time
from typing import Any

import pytest

from bordspel.ai import make_player, players, search
from bordspel.ai.registry import knowledge
from bordspel.ai.search import Limit, OutOfTime, Searcher, deadline_after
from bordspel.core import State, new_game
from bordspel.games.hermit.ai import HermitEndgame
from bordspel.games.hermit.proof import ProofSolver


def opened(game: str, plies: int, seed: int, **options: int) -> State:
    rng = random.Random(seed)
    state = new_game(game, **options)
    for _ in range(plies):
        state = state.apply(state.random_move(rng))
    return state


def seconds(player_spec: str, state: State) -> float:
    player = make_player(player_spec, state.name, seed=1)
    started = time.perf_counter()
    assert player.step(state) in state.legal_moves()
    return time.perf_counter() - started


def within(budget: float, took: float) -> bool:
    """The budget with 10 %, a small constant, and room for a loaded machine."""
    return took <= 1.1 * budget + 0.4


@pytest.mark.parametrize(
    "spec",
    [
        "hard",
        pytest.param("hard-v1", marks=pytest.mark.slow),
        "alphabeta:time=0.4,solver_time=0.4",
        "mcts:time=0.4",
    ],
)
def test_hermit_players_keep_their_time_on_a_big_board(spec: str) -> None:
    state = opened("hermit", 1, seed=3, size=12)
    budget = 1.0 if spec.startswith("hard") else 0.4
    assert within(budget, seconds(spec, state))


@pytest.mark.parametrize(
    "game, options, plies", [("santorini", {}, 6), ("quarto", {}, 3), ("hermit", {"size": 8}, 2)]
)
def test_every_game_keeps_the_time_of_a_short_budget(game: str, options: dict[str, int], plies: int) -> None:
    state = opened(game, plies, seed=5, **options)
    for spec in ("alphabeta:time=0.3", "mcts:time=0.3"):
        assert within(0.3, seconds(spec, state))


def test_the_proof_search_stops_at_its_deadline_on_boards_too_big_to_compile() -> None:
    """It listed every child of a 12x12 position before looking at the clock (16 s for 1 s)."""
    state = opened("hermit", 1, seed=1, size=12)
    started = time.perf_counter()
    assert HermitEndgame(None).solve(state, deadline_after(0.2)) is None
    assert time.perf_counter() - started < 1.5
    solver = ProofSolver(12, deadline=deadline_after(0.0))
    with pytest.raises(OutOfTime):
        solver.state_wins(state)


def test_the_search_looks_at_the_clock_at_every_node() -> None:
    """Interior nodes of a 12x12 board list a thousand moves: checking every 1024 nodes overran."""
    state = opened("hermit", 1, seed=2, size=12)
    searcher = Searcher(knowledge("hermit").evaluate, time_limit=0.3)
    started = time.perf_counter()
    result = searcher.run(state)
    assert time.perf_counter() - started < 1.0
    assert result.move in state.legal_moves()


def test_the_solver_gets_a_share_of_the_move_not_a_budget_of_its_own() -> None:
    player = make_player("alphabeta:time=0.6,solver_time=5", "hermit", seed=1)
    state = opened("hermit", 1, seed=4, size=12)
    started = time.perf_counter()
    player.step(state)
    assert within(0.6, time.perf_counter() - started)


def test_quarto_hard_keeps_won_and_drawn_positions_from_eleven_empty_squares() -> None:
    """From 11 empty squares on, ``hard`` plays the exact solver: against a perfect opponent
    it ends no worse than the position's value."""
    from bordspel.games.quarto.ai import QuartoSolver, _value

    rng = random.Random(11)
    checked = 0
    while checked < 4:
        state = new_game("quarto")
        while 16 - state.filled.bit_count() > 11 and not state.is_over():  # type: ignore[attr-defined]
            state = state.apply(state.random_move(rng))
        if state.is_over():
            continue
        value = _value(QuartoSolver(), state).result  # type: ignore[arg-type]
        if value == "loss":
            continue
        seat, hard, exact = state.to_move, make_player("hard", "quarto", seed=1), QuartoSolver()
        while not state.is_over():
            mover = hard if state.to_move == seat else None
            state = state.apply(mover.step(state) if mover else exact.best_move(state))  # type: ignore[arg-type]
        outcome = state.outcome()
        assert outcome is not None
        assert (seat in outcome.winners) if value == "win" else (outcome.is_draw or seat in outcome.winners)
        checked += 1


@pytest.mark.parametrize("searched", [2, 4, 7])
def test_a_depth_stopped_by_a_limit_keeps_the_best_move_it_searched(searched: int) -> None:
    state = opened("santorini", 6, seed=8, players=3)  # the best of those moves is not the first
    evaluate = knowledge("santorini").evaluate
    searcher = Searcher(evaluate, max_nodes=2 + searched)  # the root, one node a move, the stop
    result = searcher.run(state)
    first = state.legal_moves()[:searched]
    values = [evaluate(state.apply(move), state.to_move) for move in first]
    assert result.depth == 0
    assert values.index(max(values)) > 0
    assert result.move == first[values.index(max(values))]


@pytest.mark.parametrize("was_enabled", [True, False])
def test_a_search_pauses_the_garbage_collector_and_gives_it_back(was_enabled: bool) -> None:
    seen: list[bool] = []

    def evaluate(state: State, seat: int) -> float:
        seen.append(gc.isenabled())
        return 0.0

    (gc.enable if was_enabled else gc.disable)()
    try:
        Searcher(evaluate, max_depth=2).run(opened("quarto", 4, seed=3))
        assert seen and not any(seen)
        assert gc.isenabled() is was_enabled
    finally:
        gc.enable()


def test_an_analysis_pauses_the_collector_and_gives_it_back(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def recorded(results: Any) -> Any:
        found = search.last(results)
        seen.append(gc.isenabled())
        return found

    monkeypatch.setattr(players, "last", recorded)
    player = make_player("hard", "santorini", seed=1)
    player.analyse(opened("santorini", 6, seed=2), Limit(nodes=2000))
    assert seen == [False] and gc.isenabled()


def test_searches_that_overlap_without_a_break_still_collect(monkeypatch: pytest.MonkeyPatch) -> None:
    collected: list[int] = []
    monkeypatch.setattr(search, "LONGEST_PAUSE", 0.0)
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(1) or 0)
    with search.collector_paused():
        with search.collector_paused():
            pass
        assert collected == [1] and not gc.isenabled()
    assert gc.isenabled()
