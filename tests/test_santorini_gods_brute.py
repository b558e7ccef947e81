"""The turn generator with the ten simple gods against an independent brute force.

``tests/santorini_brute.py`` plays each card square by square; here its positions after every
turn must equal the engine's along random games, and its perft counts the data files' counts.
"""

from __future__ import annotations

import random

import pytest

from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.gods import SIMPLE_GODS
from tests import santorini_brute as brute
from tests.conftest import sampled
from tests.test_perft import CASES, PerftCase

SIMPLE = sorted(SIMPLE_GODS)
START = "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods={}"


def engine_children(state: SantoriniState) -> set[brute.Position]:
    return {brute.parse(state.apply(move).to_str()) for move in state.legal_moves()}


def walk(gods: str, seed: int, plies: int) -> list[SantoriniState]:
    """The positions of a random game from the start position with these gods."""
    rng = random.Random(seed)
    state = SantoriniState.from_str(START.format(gods))
    found = []
    while not state.is_over() and len(found) < plies:
        found.append(state)
        state = state.apply(state.random_move(rng))
    return found


@pytest.mark.parametrize("god", sampled(SIMPLE, 3))
def test_every_turn_leads_where_the_brute_force_goes(god: str) -> None:
    following = SIMPLE[(SIMPLE.index(god) + 1) % len(SIMPLE)]
    for seed, gods in enumerate((f"{god},-", f"-,{god}", f"{god},athena", f"{following},{god}")):
        if gods == "athena,athena":
            continue
        for state in walk(gods, seed, 14):
            assert engine_children(state) == brute.children(brute.parse(state.to_str())), state.to_str()


def test_hermes_moves_as_the_brute_force_on_a_built_board() -> None:
    state = SantoriniState.from_str(
        "00000/11001/00000/01010/10200 workers=a4d3,c3e5 turn=1 players=2 gods=hermes,minotaur"
    )
    assert engine_children(state) == brute.children(brute.parse(state.to_str()))


def brute_cases(slow: bool) -> list[PerftCase]:
    """The perft data of two-player positions whose gods are all simple."""
    return [
        case
        for case in CASES
        if case.game == "santorini"
        and "players=2 gods=" in case.position
        and "workers=-" not in case.position
        and set(case.position.split("gods=")[1].split()[0].split(",")) <= SIMPLE_GODS | {"-"}
        and case.slow == slow
    ]


def check_count(case: PerftCase) -> None:
    assert brute.perft(brute.parse(case.position), case.depth) == case.count


@pytest.mark.parametrize("case", brute_cases(False), ids=lambda c: f"{c.id}-{c.depth}")
def test_perft_counts_match_the_brute_force(case: PerftCase) -> None:
    check_count(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", brute_cases(True), ids=lambda c: f"{c.id}-{c.depth}")
def test_slow_perft_counts_match_the_brute_force(case: PerftCase) -> None:
    check_count(case)
