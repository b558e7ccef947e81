"""The search with gods on packed positions (``games/santorini/gods_search.py``): its evaluation is
the pure search's, its values at a fixed depth are the pure search's, the compiled twin agrees
with the module, and ``hard`` with gods uses it.

The compiled cases skip when the twin is not built, unless ``BORDSPEL_REQUIRE_NATIVE`` is set
(CI sets it), and then they fail.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from bordspel import _native
from bordspel.ai import analyse, make_player
from bordspel.ai.search import DECISIVE, WIN, Limit, Searcher
from bordspel.games.santorini import gods_search as reference
from bordspel.games.santorini.ai import evaluate, quiet, threatens, zobrist
from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.fast_search import CompiledSearch, fast_search
from bordspel.games.santorini.gods import GODS

NAMES = sorted(GODS)
WEIGHTS = evaluate.base.weights


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    module = _native.twin("santorini_gods_search", reference)
    if module is reference:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_gods_search is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip(
            "the compiled santorini_gods_search is not in use (not built, out of date, BORDSPEL_PURE=1)"
        )
    return module


def positions(games: int, seed: int, every: int = 1) -> Iterator[SantoriniState]:
    """Two-player positions after the setup along random games with random gods (a third with a
    finite supply), every ``every``-th."""
    rng = random.Random(seed)
    count = 0
    for _ in range(games):
        state = SantoriniState.initial(
            gods=",".join(rng.sample(NAMES, 2)), seed=rng.getrandbits(32), finite_supply=rng.random() < 0.3
        )
        while not state.is_over():
            if not state.in_setup:
                count += 1
                if count % every == 0:
                    yield state
            state = state.apply(rng.choice(state.legal_moves()))


def packed(state: SantoriniState) -> tuple[int, ...]:
    return reference._key_of(state)[0]


@pytest.mark.parametrize("module", ["reference", "compiled"])
def test_the_packed_evaluation_is_the_searchs(module: str, request: pytest.FixtureRequest) -> None:
    search = reference if module == "reference" else request.getfixturevalue("compiled")
    checked = 0
    for state in positions(6, 1):
        up = state.powers.up if state.powers is not None else 0
        for seat in (0, 1):
            value = search.packed_value(
                packed(state), state.turn, seat, WEIGHTS, search.threat_powers(state), up
            )
            assert value == pytest.approx(evaluate(state, seat), abs=1e-9), (state.powers, seat)
            checked += 1
    assert checked > 100


def pure_value(state: SantoriniState, depth: int) -> float:
    """The value of ``state`` at ``depth`` by the pure search with hard's settings."""
    searcher = Searcher(evaluate, max_depth=depth, pvs=True, extend=threatens, key=zobrist)
    return searcher.run(state).score


@pytest.mark.parametrize(
    ("depth", "games", "every"),
    [
        (1, 3, 5),
        pytest.param(2, 3, 15, marks=pytest.mark.slow),
        pytest.param(3, 2, 20, marks=pytest.mark.slow),
    ],
)
def test_the_value_at_a_fixed_depth_is_the_pure_searchs(depth: int, games: int, every: int) -> None:
    states = list(positions(games, 2, every=every))
    assert states
    for state in states:
        search = reference.GodsSearch(state, WEIGHTS)
        for finished in range(1, depth + 1):
            found = search.depth(finished, -1.0, -1)
            assert found is not None
        assert found[0] == pytest.approx(pure_value(state, depth), abs=1e-6), (state.powers, state)
        assert found[1] in state.legal_moves()


@pytest.mark.parametrize("every", [80, pytest.param(6, marks=pytest.mark.slow)])
def test_the_compiled_twin_searches_as_the_module(compiled: ModuleType, every: int) -> None:
    states = list(positions(2, 3, every=every))
    assert states
    for state in states:
        results = []
        for module in (reference, compiled):
            search = module.GodsSearch(state, WEIGHTS)
            for depth in (1, 2):
                found = search.depth(depth, -1.0, -1)
            results.append((found, search.nodes, search.principal_variation(4)))
        assert results[0] == results[1], state


def test_a_climb_to_level_three_is_found_as_a_win() -> None:
    state = SantoriniState.initial(gods="apollo,pan")
    for move in ("a1e5", "b5e1"):
        state = state.play(move)
    levels = (0b111 << 10, 0b011 << 10, 0b001 << 10, 0)  # cells 10, 11, 12: three, two and one blocks
    workers = (11, 0, 24, 4)  # seat 1's first worker on cell 11, next to cell 10
    state = SantoriniState._make(2, levels, workers, 0, None, 0, None, state.powers)
    search = reference.GodsSearch(state, WEIGHTS)
    score, move = search.depth(2, -1.0, -1) or (0.0, None)
    assert score >= DECISIVE
    assert move == Turn(11, 10, None)


def test_hard_with_gods_uses_the_packed_search() -> None:
    state = next(positions(1, 4))
    searcher = Searcher(evaluate, max_depth=2, pvs=True, extend=threatens, key=zobrist)
    assert isinstance(fast_search(state, searcher, evaluate), CompiledSearch)
    result = analyse("hard", state, Limit(nodes=2_000))
    assert result.move in state.legal_moves()
    assert result.depth >= 1


def test_a_search_that_forgets_children_finds_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    state = next(positions(1, 5, every=6))
    full = reference.GodsSearch(state, WEIGHTS)
    results = [full.depth(depth, -1.0, -1) for depth in (1, 2)]
    monkeypatch.setattr(reference, "KEPT_EXPANSIONS", 3)
    forgetful = reference.GodsSearch(state, WEIGHTS)
    assert [forgetful.depth(depth, -1.0, -1) for depth in (1, 2)] == results
    assert len(forgetful.children) <= 3 < len(full.children)


def test_a_stopped_depth_gives_the_better_turn_it_found() -> None:
    found_better = 0
    for state in positions(2, 6, every=4):
        first = reference.GodsSearch(state, WEIGHTS).depth(1, -1.0, -1)
        assert first is not None
        for limit in (40, 120, 400):
            search = reference.GodsSearch(state, WEIGHTS)
            search.depth(1, -1.0, -1)
            if search.depth(2, -1.0, search.nodes + limit) is not None:
                assert search.interrupted() is None
                continue
            improved = search.interrupted()
            if improved is None:
                continue
            score, turn = improved
            assert turn in state.legal_moves() and turn != first[1], state
            full = reference.GodsSearch(state, WEIGHTS)
            full.depth(1, -1.0, -1)
            complete = full.depth(2, -1.0, -1)
            assert complete is not None and complete[0] >= score - 1e-9, state
            found_better += 1
        if found_better >= 2:
            break
    assert found_better >= 2


def test_a_quiet_position_is_one_the_packed_search_may_reduce_into() -> None:
    checked = quiet_ones = 0
    for state in positions(4, 8, every=3):
        search = reference.GodsSearch(state, WEIGHTS)
        node = reference.Node(reference._key_of(state), None, None, state)
        assert quiet(state) is not search._threatened(node), state
        checked += 1
        quiet_ones += quiet(state)
    assert 0 < quiet_ones < checked


def searched(module: ModuleType, state: SantoriniState, reduce: bool) -> tuple[Any, int, list[Any]]:
    """Depths 1 to 3 (None when 50,000 positions do not suffice), the positions and the line."""
    search = module.GodsSearch(state, WEIGHTS, reduce=reduce)
    for depth in (1, 2, 3):
        found = search.depth(depth, -1.0, 50_000)
    return found, search.nodes, search.principal_variation(4)


@pytest.mark.slow
def test_reductions_search_fewer_positions_and_the_twin_agrees(compiled: ModuleType) -> None:
    nodes, compared = {False: 0, True: 0}, 0
    for state in positions(3, 9, every=12):
        found = {reduce: searched(compiled, state, reduce) for reduce in (False, True)}
        if found[False][0] is None or found[True][0] is None:
            continue
        assert found[True][0][1] in state.legal_moves()
        for reduce in (False, True):
            nodes[reduce] += found[reduce][1]
        if found[True][1] < 5_000:  # the pure module is slow
            assert searched(reference, state, True) == found[True], state
            compared += 1
    assert compared and nodes[True] < nodes[False]


@pytest.mark.slow
def test_the_pure_search_reduces_late_quiet_moves() -> None:
    nodes = [0, 0]
    for state in itertools.islice(positions(2, 10, every=8), 5):
        for index, reduce in enumerate((None, quiet)):
            searcher = Searcher(evaluate, max_depth=3, pvs=True, extend=threatens, reduce=reduce, key=zobrist)
            result = searcher.run(state)
            assert result.move in state.legal_moves()
            nodes[index] += result.nodes
    assert nodes[1] < nodes[0]


def test_hard_reduces_with_gods_and_lmr_0_turns_it_off() -> None:
    state = next(positions(1, 4))
    for spec, reduce in (("hard", True), ("alphabeta:time=1,lmr=0", False)):
        player = make_player(spec, "santorini")
        searcher = player._searcher(state, Limit(depth=2), None)  # type: ignore[attr-defined]
        assert isinstance(searcher, CompiledSearch)
        assert searcher.search.reduce is reduce, spec


@pytest.mark.parametrize("module", ["reference", "compiled"])
def test_a_window_gives_a_bound_of_the_full_searchs_value(
    module: str, request: pytest.FixtureRequest
) -> None:
    search_module = reference if module == "reference" else request.getfixturevalue("compiled")
    depth = 2 if module == "reference" else 3
    for state in itertools.islice(positions(2, 12, every=10), 3):
        value = windowed(search_module, state, depth, -WIN - 1.0, WIN + 1.0)
        for low, high in ((value - 50, value - 10), (value - 10, value + 10), (value + 10, value + 50)):
            found = windowed(search_module, state, depth, low, high)
            if found <= low:
                assert value <= found + 1e-9, (state, low, high)
            elif found >= high:
                assert value >= found - 1e-9, (state, low, high)
            else:
                assert found == pytest.approx(value), (state, low, high)


def windowed(module: ModuleType, state: SantoriniState, depth: int, low: float, high: float) -> float:
    """A fresh search's value of ``state`` at ``depth`` in the window (low, high), no reductions."""
    search = module.GodsSearch(state, WEIGHTS)
    search.root_depth = depth
    value: float = search.negamax(search.root, depth, low, high, 0)
    return value
