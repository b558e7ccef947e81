"""The thirty gods compiled (``gods.py`` built by Cython as ``bordspel._native.santorini_gods``)
against ``gods.py`` itself: the same legal turns, in the same order, leading to the same
positions, for every god in 2, 3 and 4 players.

The tests skip when the twin is not built, unless ``BORDSPEL_REQUIRE_NATIVE`` is set (CI sets
it), and then they fail.
"""

from __future__ import annotations

import itertools
import os
import random
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from bordspel import _native
from bordspel.games.santorini import generator
from bordspel.games.santorini import gods as reference
from bordspel.games.santorini.engine import SantoriniState

NAMES = sorted(reference.GODS)


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    module = _native.twin("santorini_gods", reference)
    if module is reference:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_gods is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip("the compiled santorini_gods is not in use (not built, out of date, or BORDSPEL_PURE=1)")
    return module


def positions(players: int, god: str, games: int, seed: int) -> Iterator[SantoriniState]:
    """Positions after the setup along random games where seat 1 plays ``god`` against random gods."""
    rng = random.Random(seed)
    for _ in range(games):
        others = rng.sample([name for name in NAMES if name != god], players - 1)
        state = SantoriniState.initial(
            players=players,
            gods=",".join([god, *others]),
            seed=rng.getrandbits(32),
            finite_supply=rng.random() < 0.3,
        )
        while not state.is_over():
            if not state.in_setup:
                yield state
            state = state.apply(rng.choice(state.legal_moves()))


def turns(module: ModuleType, state: SantoriniState, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The legal turns, their outcomes, every way of playing them and "has a turn", by ``module``."""
    monkeypatch.setattr(generator, "gods", module)
    generator._turns_listed.cache_clear()
    generator._ways.cache_clear()
    found = (list(generator._turns(state).table.items()), list(generator._ways(state).items()))
    return found, generator.has_turn(state)


def agree(
    compiled: ModuleType,
    players: int,
    god: str,
    games: int,
    monkeypatch: pytest.MonkeyPatch,
    most: int | None = None,
) -> int:
    """Compare the two modules along random games (at most ``most`` positions); the number of
    positions compared."""
    count = 0
    found = positions(players, god, games, seed=NAMES.index(god) * 10 + players)
    for state in itertools.islice(found, most):
        with monkeypatch.context() as patch:
            assert turns(compiled, state, patch) == turns(reference, state, patch), state.to_str()
        count += 1
    return count


@pytest.mark.parametrize("god", NAMES)
def test_every_god_plays_the_same_turns_compiled(
    compiled: ModuleType, god: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert agree(compiled, 2, god, 1, monkeypatch, most=3) > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("god", NAMES)
def test_every_god_plays_the_same_turns_compiled_in_many_games(
    compiled: ModuleType, god: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert agree(compiled, players, god, 4, monkeypatch) > 0


def test_a_twin_built_from_another_source_is_not_used(
    compiled: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled, "SOURCE_DIGEST", "0" * 64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _native.twin("santorini_gods", reference) is reference
    assert "pip install -e ." in str(caught[0].message)


@pytest.fixture(scope="module")
def compiled_generator() -> ModuleType:
    module = _native.twin("santorini_generator", generator)
    if module is generator:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_generator is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip(
            "the compiled santorini_generator is not in use (not built, out of date, or BORDSPEL_PURE=1)"
        )
    return module


def generated(module: ModuleType, state: SantoriniState) -> Any:
    """What the search and the packed play read of ``module``: the walk's lines with their
    outcomes, the legal turns with what they lead to, "has a turn" and the turn to each outcome."""
    module._turns_listed.cache_clear()
    lines = module.outcome_lines(state)[1]
    turns = [module.turn_to(state, outcome) for _, outcome in lines[:5]]
    return lines, list(module.table(state).items()), module.has_turn(state), turns


@pytest.mark.parametrize(
    "players", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("god", NAMES)
def test_the_compiled_generator_writes_the_same_lines(
    compiled_generator: ModuleType, god: str, players: int
) -> None:
    found = positions(players, god, 1, seed=NAMES.index(god) * 10 + players)
    for state in itertools.islice(found, 3):
        assert generated(compiled_generator, state) == generated(generator, state), state.to_str()
