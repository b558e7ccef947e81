"""Property tests (hypothesis): invariants that hold along any sequence of legal moves."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bordspel.core import State, new_game
from bordspel.games.hermit.engine import HermitState
from bordspel.games.quarto.engine import QuartoState
from bordspel.games.santorini.board import height
from bordspel.games.santorini.engine import SantoriniState

choices = st.lists(st.integers(min_value=0, max_value=10_000), max_size=60)


def walk(state: State, picks: list[int]) -> list[State]:
    states = [state]
    for pick in picks:
        moves = states[-1].legal_moves()
        if not moves:
            break
        states.append(states[-1].apply(moves[pick % len(moves)]))
    return states


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=8), choices)
def test_hermit_blocks_never_touch_their_colour(n: int, picks: list[int]) -> None:
    for ply, state in enumerate(walk(HermitState.initial(size=n), picks)):
        assert isinstance(state, HermitState)
        assert state.plies == ply and len(state.blocks()) == ply
        assert HermitState.from_str(state.to_str()) == state
        red, yellow, blue = state.masks
        assert not (red & yellow or red & blue or yellow & blue)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=6), choices)
def test_hermit_symmetric_images_have_as_many_moves(n: int, picks: list[int]) -> None:
    state = walk(HermitState.initial(size=n), picks[:6])[-1]
    assert {image.count_moves() for image in state.symmetric_positions()} == {state.count_moves()}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.booleans(), choices)
def test_santorini_towers_only_grow_and_workers_stay_off_domes(
    players: int, finite: bool, picks: list[int]
) -> None:
    states = walk(new_game("santorini", players=players, finite_supply=finite), picks)
    for before, after in itertools.pairwise(states):
        assert isinstance(before, SantoriniState) and isinstance(after, SantoriniState)
        built = sum(height(after.levels, c) - height(before.levels, c) for c in range(25))
        assert built in (0, 1) and all(b & ~a == 0 for b, a in zip(before.levels, after.levels))
        assert all(height(after.levels, c) < 4 for c in after.workers if c >= 0)
        placed = [c for c in after.workers if c >= 0]
        assert len(set(placed)) == len(placed)
        if after.supply is not None and before.supply is not None:
            assert sum(before.supply) - sum(after.supply) == built
        assert SantoriniState.from_str(after.to_str()) == after


@settings(max_examples=60, deadline=None)
@given(st.booleans(), choices)
def test_quarto_every_piece_is_somewhere_once(advanced: bool, picks: list[int]) -> None:
    for state in walk(QuartoState.initial(advanced=advanced), picks):
        assert isinstance(state, QuartoState)
        on_board = [state.piece_at(s) for s in range(16) if state.piece_at(s) is not None]
        in_hand = [state.hand] if state.hand >= 0 else []
        assert sorted(on_board + in_hand + state.available()) == list(range(16))
        assert QuartoState.from_str(state.to_str()) == state
