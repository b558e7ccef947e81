"""The RL codec with gods: every god turn has its own action, and the gods show in the observation."""

from __future__ import annotations

import random

import pytest

from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.god_codec import GOD_NUMBER
from bordspel.rl.codecs import codec_for
from tests.test_rl import play_through_codec


@pytest.mark.parametrize("gods", ["hermes,zeus", "atlas,prometheus", "chaos,athena", "-,morpheus"])
def test_god_turns_round_trip_through_actions(gods: str) -> None:
    state = SantoriniState.initial(gods=gods, seed=2)
    assert codec_for("santorini").num_actions(state) == 444 + 16384
    play_through_codec(state, random.Random(1))


def test_the_observation_names_the_gods() -> None:
    codec = codec_for("santorini")
    state = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=2 players=2 gods=chaos:pan/atlas/5,athena up=2"
    )
    planes = codec.observe(state, 0)
    assert planes.shape[-1] == 5 + 2 + 1 + 2 * 2 + 1
    extra = planes[0, 0, 8:].tolist()
    assert extra == [GOD_NUMBER["chaos"], GOD_NUMBER["pan"], GOD_NUMBER["athena"], GOD_NUMBER["athena"], 1]
    assert codec.observe(SantoriniState.initial(), 0).shape[-1] == 8


def test_a_saving_morpheus_stays_within_the_god_actions() -> None:
    """Morpheus builds once a turn for a long game: his card fills to four pieces, no more, and
    every turn of the fullest positions still has its own action."""
    codec = codec_for("santorini")
    rng = random.Random(3)
    state = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=c2c4,a1e5 turn=1 players=2 gods=morpheus,-"
    )
    for _ in range(16):
        moves = state.legal_moves()
        if state.to_move == 0:
            assert state.powers is not None and int(state.powers.memos[0] or 0) <= 4
            moves = [m for m in moves if isinstance(m, Turn) and m.build is None]  # he saves
        state = state.apply(rng.choice(moves))
    assert state.to_str().split("gods=")[1].startswith("morpheus:4")
    moves = state.legal_moves()
    assert len(moves) > 1000
    actions = [codec.encode(state, move) for move in moves]
    assert max(actions) < codec.num_actions(state) and [codec.decode(state, a) for a in actions] == moves
