"""The RL codec with gods: every god turn has its own action, and the gods show in the observation."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.god_codec import GOD_NUMBER, GOD_TURNS
from bordspel.rl.codecs import codec_for
from tests.test_rl import play_through_codec


@pytest.mark.parametrize("gods", ["hermes,zeus", "atlas,prometheus", "chaos,athena", "-,morpheus"])
def test_god_turns_round_trip_through_actions(gods: str) -> None:
    state = SantoriniState.initial(gods=gods, seed=2)
    assert codec_for("santorini").num_actions(state) == 444 + GOD_TURNS
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


def mcts_bot(game: Any) -> Any:
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(0)
    return mcts.MCTSBot(game, 2, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


@pytest.mark.parametrize(
    "gods",
    ["random", *(pytest.param(gods, marks=pytest.mark.slow) for gods in ("simple", "chaos/-"))],
)
def test_openspiel_drawn_gods_survive_clones_serialisation_and_mcts(gods: str) -> None:
    """The draw (the gods, Chaos's deck) follows the ``seed`` parameter, so clones, pickles and
    deserialised states are the same game, and OpenSpiel's MCTS plays it."""
    import pickle

    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("python_bordspel_santorini", {"gods": gods})
    state = game.new_initial_state()
    bot = mcts_bot(game)
    for _ in range(4):
        state.apply_action(bot.step(state))
    assert str(state.clone()) == str(state) == str(pickle.loads(pickle.dumps(state)))
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert str(game.new_initial_state()) == str(pyspiel.load_game(str(game)).new_initial_state())


def test_openspiel_seed_parameter_draws_the_gods() -> None:
    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401

    def gods(seed: int) -> str:
        state = pyspiel.load_game(
            "python_bordspel_santorini", {"gods": "random", "seed": seed}
        ).new_initial_state()
        return str(state).split("gods=")[1]

    assert gods(1) == gods(1) and len({gods(seed) for seed in range(5)}) > 1


def test_openspiel_god_lists_take_slashes_and_refuse_commas() -> None:
    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401
    from bordspel.core import BadOption

    game = pyspiel.load_game("python_bordspel_santorini", {"gods": "apollo/pan"})
    assert str(pyspiel.load_game(str(game)).new_initial_state()).endswith("gods=apollo,pan")
    with pytest.raises(BadOption, match="apollo/pan"):
        pyspiel.load_game("python_bordspel_santorini", {"gods": "apollo,pan"})


def start_gods(environment: Any) -> str:
    return str(environment.unwrapped.start.to_str().split("gods=")[1])


def test_gymnasium_draws_random_gods_at_every_reset() -> None:
    import gymnasium

    import bordspel.rl.gymnasium  # noqa: F401

    environment = gymnasium.make("bordspel/Santorini-v0", gods="random")
    environment.reset(seed=0)
    drawn = [start_gods(environment)]
    for _ in range(4):
        environment.reset()
        drawn.append(start_gods(environment))
    assert len(set(drawn)) > 1
    environment.reset(seed=0)
    assert start_gods(environment) == drawn[0]
    fixed = gymnasium.make("bordspel/Santorini-v0", gods="random", seed=3)  # one draw for all
    fixed.reset(seed=0)
    chosen = start_gods(fixed)
    fixed.reset(seed=1)
    assert start_gods(fixed) == chosen


def test_pettingzoo_draws_random_gods_at_every_reset() -> None:
    from bordspel.rl.pettingzoo import env

    environment = env("santorini", gods="simple")
    drawn = set()
    for seed in range(5):
        environment.reset(seed=seed)
        drawn.add(start_gods(environment))
    environment.reset(seed=2)
    again = start_gods(environment)
    environment.reset(seed=2)
    assert len(drawn) > 1 and start_gods(environment) == again
