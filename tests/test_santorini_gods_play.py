"""Perft and random games with gods on the walk's packed outcomes (``gods_play``) against the
engine's positions and turns: the same counts, and the same games from the same random draws,
for every god and a sample of pairs in 2, 3 and 4 players; the compiled twin against the module.

The compiled case skips when the twin is not built, unless ``BORDSPEL_REQUIRE_NATIVE`` is set
(CI sets it), and then it fails.
"""

from __future__ import annotations

import os
import random
from types import ModuleType
from typing import Any

import pytest

from bordspel import _native
from bordspel.games.santorini import generator
from bordspel.games.santorini import gods_play as reference
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.gods import GODS

NAMES = sorted(GODS)


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    module = _native.twin("santorini_gods_play", reference)
    if module is reference:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_gods_play is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip(
            "the compiled santorini_gods_play is not in use (not built, out of date, BORDSPEL_PURE=1)"
        )
    return module


def start(players: int, god: str, seed: int, plies: int) -> SantoriniState:
    """A position ``plies`` random turns after a random setup, seat 1 playing ``god`` against
    gods drawn from ``seed`` (a finite supply one time in three)."""
    rng = random.Random(seed)
    others = rng.sample([name for name in NAMES if name != god], players - 1)
    state = SantoriniState.initial(
        players=players, gods=",".join([god, *others]), seed=seed, finite_supply=seed % 3 == 0
    )
    while state.in_setup or (plies > 0 and not state.is_over()):
        plies -= 0 if state.in_setup else 1
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def engine_perft(state: SantoriniState, depth: int) -> int:
    """Perft by the engine's legal turns and positions."""
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(engine_perft(state.apply_unchecked(move), depth - 1) for move in moves)


def fields(state: SantoriniState) -> tuple[Any, ...]:
    """Everything an engine position holds, as a spot holds it."""
    return (
        state.players,
        state.levels,
        state.workers,
        state.turn,
        state.supply,
        state.out,
        state.winners,
        state.powers,
    )


def engine_game(state: SantoriniState, rng: random.Random) -> list[tuple[Any, ...]]:
    """A random game by the engine's ``random_move``: the positions after each turn.

    The generator's caches are emptied first: they answer for a position equal to one seen
    before (a colour's two workers in the other order), whose turns lead to positions with the
    workers in that other order, and the order of the legal turns follows the workers'.
    """
    generator._turns_listed.cache_clear()
    played = []
    while not state.is_over():
        state = state.apply(state.random_move(rng))
        played.append(fields(state))
    return played


def agree(module: ModuleType, players: int, god: str, seed: int, depth: int) -> int:
    """Check perft and a random game of ``module`` against the engine from one position; the
    number of turns in the game. Perft 1 where Hermes plays: with his hundreds of turns the
    engine takes minutes over perft 2."""
    state = start(players, god, seed, plies=seed % 5)
    assert state.powers is not None
    if "hermes" in state.powers.gods:
        depth = 1
    assert module.perft(module.spot_of(state), depth) == engine_perft(state, depth), state.to_str()
    expected = engine_game(state, random.Random(seed))
    played = module.random_outcomes(module.spot_of(state), random.Random(seed))
    assert [spot.fields() for spot in played] == expected, state.to_str()
    return len(played)


SAMPLE = [(2 + i % 3, name) for i, name in enumerate(NAMES) if i % 10 == 0]


@pytest.mark.parametrize(("players", "god"), SAMPLE)
def test_perft_and_games_follow_the_engine(players: int, god: str) -> None:
    assert agree(reference, players, god, seed=NAMES.index(god), depth=2) > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("god", NAMES)
def test_every_god_follows_the_engine(players: int, god: str) -> None:
    assert agree(reference, players, god, seed=10 * NAMES.index(god) + players, depth=2) > 0


def test_a_three_player_game_drops_a_seat_as_the_engine_does() -> None:
    dropped = 0
    for seed in range(40):
        state = start(3, NAMES[seed % len(NAMES)], seed, plies=0)
        played = reference.random_outcomes(reference.spot_of(state), random.Random(seed))
        if any(spot.out for spot in played):
            assert [spot.fields() for spot in played] == engine_game(state, random.Random(seed))
            dropped += 1
        if dropped == 2:
            return
    pytest.fail("no three-player game dropped a seat")


def test_the_engine_counts_perft_with_gods_on_the_outcomes() -> None:
    state = start(2, "artemis", 3, plies=2)
    assert state.perft(2) == engine_perft(state, 2)


@pytest.mark.parametrize(("players", "god"), SAMPLE)
def test_the_compiled_twin_plays_as_the_module(compiled: ModuleType, players: int, god: str) -> None:
    assert agree(compiled, players, god, seed=NAMES.index(god) + 1, depth=2) > 0
