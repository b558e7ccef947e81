"""Santorini's turn generator: pinned to the fast path of the game without gods, and the notation."""

from __future__ import annotations

import random

import pytest

from bordspel.core import IllegalMoveError, NotationError
from bordspel.games.santorini import generator
from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.turns import Action, GodTurn

VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "finite_supply": True},
]


def random_positions(options: dict[str, object], seed: int, games: int) -> list[SantoriniState]:
    """The positions after the setup of a few random games."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = SantoriniState.initial(**options)  # type: ignore[arg-type]
        while not state.is_over():
            if not state.in_setup:
                found.append(state)
            state = state.apply(state.random_move(rng))
    return found


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_generic_generator_is_the_fast_path(options: dict[str, object]) -> None:
    for state in random_positions(options, seed=7, games=4):
        table = generator.table(state)
        fast = state.legal_moves()
        assert list(table) == fast or set(table) == set(fast)
        assert len(table) == state.count_moves()
        assert generator.has_turn(state)
        for move in fast:
            assert state._after(generator.result(state, move)) == state.apply_unchecked(move)


def test_the_generic_generator_sees_a_blocked_player() -> None:
    state = SantoriniState.from_str("04000/44000/00000/00000/00000 workers=a1c3,e5e4 turn=2 players=2")
    boxed = SantoriniState._make(2, state.levels, state.workers, 0, None, 0, None)  # a1 boxed in, c3 free
    assert generator.has_turn(boxed)
    trapped = SantoriniState._make(2, state.levels, (0, -2, 24, 19), 0, None, 0, None)
    assert not generator.has_turn(trapped)


def game(
    gods: str, workers: str = "b3d3,c2c4", board: str = "00000/00000/00000/00000/00000"
) -> SantoriniState:
    return SantoriniState.from_str(f"{board} workers={workers} turn=1 players=2 gods={gods}")


def test_old_turn_notation_still_reads() -> None:
    plain = SantoriniState.initial(workers=[(2, 1), (2, 3), (1, 2), (3, 2)])
    with_gods = game("pan,atlas")
    for state in (plain, with_gods):
        for text in ("b3a3a2", "b3-a3-a2", "b3 a3 a2", "b3a3+a2"):
            assert state.move_from_str(text) == Turn(11, 10, 5)


def test_god_turns_are_written_as_actions() -> None:
    state = game("atlas,pan")
    move = state.move_from_str("b3a3+a2*")
    assert move == GodTurn((Action("move", 11, 10), Action("dome", -1, 5)))
    assert move.to_str() == "b3a3+a2*"
    assert move in state.legal_moves()
    after = state.apply(move)
    assert after.to_str().startswith("00000/50000/00000")
    assert SantoriniState.from_str(after.to_str()) == after


@pytest.mark.parametrize("text", ["b3a3+a2+", "b3a3+a2b2c2", "b3a3+*", "zz"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(NotationError):
        game("atlas,pan").move_from_str(text)


def test_refusals_name_the_action_and_the_choices() -> None:
    state = game("demeter,pan")
    with pytest.raises(IllegalMoveError, match=r"after b3a3\+a2, a2 is not allowed: allowed are"):
        state.play("b3a3+a2+a2")
    with pytest.raises(IllegalMoveError, match="the turn is not finished: continue with"):
        state.play("b3a3+a2").play("c2c1")


@pytest.mark.parametrize(
    "text",
    [
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=morpheus:2,athena up=2",
        "60000/00000/00000/00000/00000 workers=b3x,c2c4 turn=2 players=2 gods=bia,medusa",
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4,a1e5 turn=3 players=3 gods=circe:2.3,-,pan",
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=4 gods=apollo,pan,atlas,zeus",
    ],
)
def test_god_positions_round_trip(text: str) -> None:
    state = SantoriniState.from_str(text)
    assert state.to_str() == text
    assert SantoriniState.from_str(state.to_str()) == state


@pytest.mark.parametrize(
    "text",
    [
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=apollo",
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=apollo,zorro",
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=morpheus:x,pan",
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=chaos:zeus/1,pan",
        "60000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2",
        "00000/00000/00000/00000/00000 workers=b3x,c2c4 turn=1 players=2",
    ],
)
def test_bad_god_positions(text: str) -> None:
    with pytest.raises(NotationError):
        SantoriniState.from_str(text)


def test_a_finished_god_game_stays_finished() -> None:
    state = game("pan,atlas", board="00000/00000/03000/00000/00000", workers="b3d3,a1e5")
    won = state.play("b3a3")
    assert won.winners == frozenset({0})
    assert won.to_str().endswith("won=1")
    assert SantoriniState.from_str(won.to_str()) == won


@pytest.mark.parametrize("gods", ["random", "simple", "apollo,-"])
def test_dealing_gods(gods: str) -> None:
    state = SantoriniState.initial(gods=gods, seed=3)
    again = SantoriniState.initial(gods=gods, seed=3)
    assert state == again and state.powers is not None
    if gods == "simple":
        assert all(generator.gods.GODS[state.god_of(seat) or ""].simple for seat in (0, 1))
    assert SantoriniState.from_str(state.to_str()) == state


@pytest.mark.parametrize("gods", ["apollo", "apollo,apollo", "apollo,zorro"])
def test_bad_god_choices(gods: str) -> None:
    with pytest.raises(ValueError):
        SantoriniState.initial(gods=gods)
