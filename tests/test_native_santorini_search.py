"""The compiled Santorini search against the pure ``Searcher``: the same values at fixed depths.

Alpha-beta's value at a fixed depth does not depend on move order, so the two searches, which
order moves differently, must agree exactly (without extensions, whose depth depends on the
path a table entry came from). Skips where the extension is not built, unless
``BORDSPEL_REQUIRE_NATIVE`` is set (CI), and then fails.
"""

from __future__ import annotations

import os
import random

import pytest

from bordspel.ai import analyse
from bordspel.ai.search import Limit, Searcher, last
from bordspel.games.santorini import fast_search as fast_module
from bordspel.games.santorini.ai import evaluate, evaluate_v1
from bordspel.games.santorini.engine import SantoriniState, Turn
from tests.conftest import sampled

OPTIONS = [{"players": 2}, {"players": 2, "finite_supply": True}]


@pytest.fixture(autouse=True)
def compiled() -> None:
    if fast_module._CORE is None:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_core is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip("the compiled santorini_core is not in use (not built, or BORDSPEL_PURE=1)")


def midgames(seed: int, count: int) -> list[SantoriniState]:
    """Unfinished two-player positions after the setup, 2 to 40 random plies in."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = SantoriniState.initial(**OPTIONS[len(found) % len(OPTIONS)])
        for _ in range(rng.randrange(2, 40)):
            if state.is_over():
                break
            state = state.apply_unchecked(state.random_move(rng))
        if not state.is_over():
            found.append(state)
    return found


def compiled_search(state: SantoriniState, searcher: Searcher) -> fast_module.CompiledSearch:
    found = fast_module.fast_search(state, searcher, evaluate)
    assert found is not None
    return found


@pytest.mark.parametrize("state", sampled(midgames(5, 24), 3), ids=str)
@pytest.mark.parametrize("pvs", [False, True])
def test_values_at_fixed_depths_equal_the_pure_search(state: SantoriniState, pvs: bool) -> None:
    for depth in (1, 2, 3):
        pure = last(Searcher(evaluate, max_depth=depth, pvs=pvs).iterate(state))
        fast = last(compiled_search(state, Searcher(evaluate, max_depth=depth, pvs=pvs)).iterate(state))
        assert fast.score == pure.score
        assert fast.depth == pure.depth


@pytest.mark.parametrize("state", midgames(6, 12), ids=str)
def test_the_best_move_and_line_are_legal(state: SantoriniState) -> None:
    result = last(compiled_search(state, Searcher(evaluate, max_depth=4, pvs=True)).iterate(state))
    assert result.move == result.principal_variation[0]
    for move in result.principal_variation:
        assert state.is_legal(move)
        state = state.apply(move)


def test_a_winning_climb_is_found_at_once() -> None:
    state = SantoriniState.from_str("00000/02300/00000/00000/00000 workers=b2e5,a1a5 turn=1 players=2")
    result = analyse("hard", state)
    assert result.move == Turn.from_str("b2c2") and result.result == "win"


def test_node_limits_give_the_same_move_every_time() -> None:
    (state,) = midgames(7, 1)
    first = analyse("alphabeta:nodes=20000", state)
    second = analyse("alphabeta:nodes=20000", state)
    assert (first.move, first.score, first.depth) == (second.move, second.score, second.depth)


def test_which_positions_the_compiled_search_covers() -> None:
    (state,) = midgames(8, 1)
    searcher = Searcher(evaluate, max_depth=2)
    assert fast_module.fast_search(state, searcher, evaluate) is not None
    assert fast_module.fast_search(state, Searcher(evaluate_v1, max_depth=2), evaluate) is None  # hard-v1's
    assert fast_module.fast_search(SantoriniState.initial(players=3), searcher, evaluate) is None
    assert fast_module.fast_search(SantoriniState.initial(), searcher, evaluate) is None  # the setup


def test_compiled_0_makes_the_pure_player() -> None:
    (state,) = midgames(9, 1)
    fast = analyse("alphabeta:depth=2,ext=0", state, Limit(depth=2))
    pure = analyse("alphabeta:depth=2,ext=0,compiled=0", state, Limit(depth=2))
    assert fast.score == pure.score and fast.nodes != pure.nodes
