"""Property tests of the gods (hypothesis): along random games with random gods."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bordspel.conformance import check
from bordspel.core import NotationError
from bordspel.games.santorini import generator
from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.generator import Powers
from bordspel.games.santorini.gods import GODS
from bordspel.games.santorini.turns import GodTurn
from tests.conftest import sizes
from tests.test_properties import walk

NAMES = sorted(GODS)
EXTENDING = {
    "apollo",
    "bia",
    "minotaur",
    "hermes",
    "zeus",
    "pan",
    "eros",
    "selene",
    "chaos",
    "circe",
    "morpheus",
}
"""Gods whose card allows a turn of the base shape that the base game refuses."""

picks = st.lists(st.integers(min_value=0, max_value=10_000), min_size=4, max_size=24)
seats = st.sampled_from([2, 3, 4])


def walk_gods(players: int, gods: list[str], picks: list[int]) -> list[SantoriniState]:
    """The positions after the setup along a game with these gods."""
    start = SantoriniState.initial(players=players, gods=",".join(gods), seed=picks[0])
    return [s for s in walk(start, picks) if isinstance(s, SantoriniState) and not s.in_setup]


def without_gods(state: SantoriniState) -> SantoriniState:
    """The same position with no power at play, through the generic generator."""
    nobody = Powers(("",) * state.players, ("",) * state.players)
    return SantoriniState._make(
        state.players, state.levels, state.workers, state.turn, state.supply, state.out, None, nobody
    )


@settings(max_examples=25, deadline=None)
@given(seats, st.data(), picks)
def test_a_god_adds_base_turns_only_where_its_card_says(
    players: int, data: st.DataObject, picks: list[int]
) -> None:
    gods = data.draw(st.lists(st.sampled_from(NAMES), min_size=players, max_size=players, unique=True))
    for state in walk_gods(players, gods, picks):
        if state.is_over() or gods[state.turn] in EXTENDING:
            continue
        base = set(generator.table(without_gods(state)))
        assert {m for m in state.legal_moves() if isinstance(m, Turn)} <= base


@pytest.mark.parametrize("examples", sizes(quick=8, deep=100))
def test_every_legal_turn_applies_and_positions_round_trip(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(seats, st.data(), picks)
    def round_trips(players: int, data: st.DataObject, picks: list[int]) -> None:
        gods = data.draw(st.lists(st.sampled_from(NAMES), min_size=players, max_size=players, unique=True))
        for state in walk_gods(players, gods, picks):
            assert SantoriniState.from_str(state.to_str()) == state
            for move in state.legal_moves():
                assert state.move_from_str(move.to_str()) == move
                assert type(move).from_str(move.to_str()) == move
                after = state.apply(move)
                assert after.levels[0] | state.levels[0] == after.levels[0] or gods[state.turn] in (
                    "ares",
                    "chaos",
                    "circe",
                )
                assert SantoriniState.from_str(after.to_str()) == after

    round_trips()


def test_each_move_type_reads_its_own_notation() -> None:
    assert Turn.from_str("c3d4+e4") == Turn.from_str("c3d4e4") == Turn(12, 18, 19)
    assert Turn.from_str("c3d4") == Turn(12, 18, None)
    assert GodTurn.from_str("b2+c3d4+e4*").to_str() == "b2+c3d4+e4*"
    with pytest.raises(NotationError, match="GodTurn"):
        Turn.from_str("c3d4+e4*")
    with pytest.raises(NotationError, match=r"Turn\.from_str"):
        GodTurn.from_str("c3d4+e4")


GOD_PAIRS = [NAMES[i : i + 2] for i in range(0, len(NAMES), 2)]
SLOW_PAIRS = [
    ["hermes", "hestia"],
    ["ares", "artemis"],
    ["triton", "zeus"],
    ["prometheus", "selene"],
    ["circe", "demeter"],
]
"""The longest pairs (Hermes's free moves: 7 s), run with the slow tests (CI)."""


@pytest.mark.parametrize(
    "pair",
    [pytest.param(pair, marks=pytest.mark.slow) if pair in SLOW_PAIRS else pair for pair in GOD_PAIRS],
    ids="-".join,
)
def test_every_god_passes_the_conformance_check(pair: list[str]) -> None:
    check(SantoriniState.initial(gods=",".join(pair), seed=1), games=1, seed=2)
