"""MCTS: UCT with random playouts, and PUCT guided by a game's move priors and leaf values."""

from __future__ import annotations

import random
from typing import Any

from bordspel.ai.mcts import mcts
from bordspel.ai.registry import make_player
from bordspel.core import State
from bordspel.games.santorini.ai import prior, value
from bordspel.games.santorini.engine import SantoriniState, Turn

CLIMB = "00000/02300/00000/00000/00000 workers=b2e5,a1a5 turn=1 players=2"


def midgame(seed: int) -> SantoriniState:
    rng, state = random.Random(seed), SantoriniState.initial()
    for _ in range(14):
        state = state.apply_unchecked(state.random_move(rng))
    return state


def test_santorini_priors_are_a_distribution_that_favours_a_winning_climb() -> None:
    state = SantoriniState.from_str(CLIMB)
    moves = state.legal_moves()
    priors = prior(state, moves)
    assert len(priors) == len(moves) and abs(sum(priors) - 1) < 1e-9
    assert moves[priors.index(max(priors))] == Turn.from_str("b2c2")


def test_leaf_values_are_returns_of_every_seat() -> None:
    state = midgame(1)
    first, second = value(state)
    assert -1 < first < 1 and abs(first + second) < 1e-9


def test_puct_expands_the_likeliest_move_first() -> None:
    state = midgame(2)
    moves = state.legal_moves()
    found = mcts(state, random.Random(1), playouts=1, prior=prior, value=value)
    (child,) = found.tree.root.children
    priors = prior(state, moves)
    assert child.move == moves[priors.index(max(priors))]


def test_puct_finds_the_winning_climb_and_the_player_uses_it() -> None:
    state = SantoriniState.from_str(CLIMB)
    assert mcts(state, random.Random(1), playouts=40, prior=prior, value=value).move == Turn.from_str("b2c2")
    player = make_player("mcts:playouts=40", "santorini", seed=1)
    assert player.guide is not None  # type: ignore[attr-defined]
    assert player.step(state) == Turn.from_str("b2c2")


def test_puct_0_is_uct_with_playouts() -> None:
    assert make_player("mcts:playouts=10,puct=0", "santorini").guide is None  # type: ignore[attr-defined]
    assert make_player("mcts:playouts=10", "quarto").guide is None  # type: ignore[attr-defined]


def test_playout_limits_are_reproducible_with_a_seed() -> None:
    state = midgame(3)
    moves: list[Any] = [make_player("mcts:playouts=200", "santorini", seed=4).step(state) for _ in range(2)]
    assert moves[0] == moves[1]


def test_priors_with_gods_come_from_the_pure_evaluation() -> None:
    state: State = SantoriniState.initial(gods=("pan", "atlas"))
    rng = random.Random(5)
    for _ in range(8):
        state = state.apply_unchecked(state.random_move(rng))
    moves = state.legal_moves()
    assert abs(sum(prior(state, moves)) - 1) < 1e-9
