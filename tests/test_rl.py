"""The research adapters: action codecs, PettingZoo's and Gymnasium's own checks, OpenSpiel's
Python MCTS on every game, and the arena on a local Ray runtime."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

from bordspel.core import new_game
from bordspel.rl.codecs import codec_for

VARIANTS = [
    ("hermit", {"size": 3}),
    ("hermit", {"size": 5}),
    ("santorini", {}),
    ("santorini", {"players": 3}),
    ("santorini", {"players": 4, "finite_supply": True}),
    ("quarto", {}),
    ("quarto", {"advanced": True}),
]
IDS = [f"{g}-{o}" for g, o in VARIANTS]


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_codecs_round_trip_and_masks(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(0)
    state = new_game(game, **options)
    codec = codec_for(game)
    size = codec.num_actions(state)
    shape = codec.observe(state, 0).shape
    while not state.is_over():
        actions = [codec.encode(state, m) for m in state.legal_moves()]
        assert len(set(actions)) == len(actions) and all(0 <= a < size for a in actions)
        assert [codec.decode(state, a) for a in actions] == state.legal_moves()
        assert np.flatnonzero(codec.mask(state)).tolist() == sorted(actions)
        assert codec.observe(state, state.to_move).shape == shape
        state = state.apply(state.random_move(rng))


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_pettingzoo_api(game: str, options: dict[str, Any]) -> None:
    from pettingzoo.test import api_test

    from bordspel.rl.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(env(game, **options), num_cycles=200)


def test_pettingzoo_rewards_and_render() -> None:
    from bordspel.rl.pettingzoo import env

    environment = env("santorini", render_mode="svg", players=4, mask_in="observation")
    environment.reset(seed=1)
    rng = np.random.default_rng(1)
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        mask = observation["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    rewards = [final[a] for a in environment.possible_agents]
    assert sorted(rewards) == [-1, -1, 1, 1] and rewards[0] == rewards[2]
    assert environment.render().startswith("<svg")


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_gymnasium_check_env(game: str, options: dict[str, Any]) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import bordspel.rl.gymnasium  # noqa: F401 (registers the ids)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        environment = gymnasium.make(f"bordspel/{game.capitalize()}-v0", opponent="random", **options)
        check_env(environment.unwrapped)


def test_gymnasium_episode_against_a_level() -> None:
    import gymnasium

    import bordspel.rl.gymnasium  # noqa: F401

    environment = gymnasium.make("bordspel/Quarto-v0", opponent="medium", seat=1)
    observation, info = environment.reset(seed=3)
    assert observation.shape == (4, 4, 11) and info["action_mask"].sum() == 16 * 15
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, done, _, info = environment.step(action)
        total += reward
    assert total in (-1.0, 0.0, 1.0)
    environment.reset(seed=4)
    _, reward, done, _, info = environment.step(999)
    assert reward == -1.0 and done and info["illegal_action"]


@pytest.mark.parametrize(
    "game, params",
    [("hermit", {"size": 3}), ("santorini", {"players": 3}), ("quarto", {"advanced": True})],
)
def test_openspiel_python_mcts_plays_whole_games(game: str, params: dict[str, Any]) -> None:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import bordspel.rl.openspiel  # noqa: F401 (registers the games)

    loaded = pyspiel.load_game(f"python_bordspel_{game}", params)
    rng = np.random.RandomState(1)
    bots = [mcts.MCTSBot(loaded, 2, 6, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for _ in range(loaded.num_players())]  # fmt: skip
    state = loaded.new_initial_state()
    while not state.is_terminal():
        assert state.legal_actions() and len(state.observation_tensor(state.current_player())) > 0
        state.apply_action(bots[state.current_player()].step(state))
    assert max(state.returns()) == 1.0
    assert state.observation_string(0) == str(state)


def test_openspiel_parameters_shape_the_game() -> None:
    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401

    assert pyspiel.load_game("python_bordspel_hermit", {"size": 4}).num_distinct_actions() == 9 * 16
    assert pyspiel.load_game("python_bordspel_santorini", {"players": 3}).num_players() == 3
    assert pyspiel.load_game("python_bordspel_quarto").max_game_length() == 17


def test_arena_on_a_local_ray_runtime() -> None:
    import ray

    from bordspel.ai.arena import RayBackend, SerialBackend, run_arena

    def standings(backend: Any) -> list[tuple[int, int, int]]:
        result = run_arena("hermit", ["greedy", "random"], 6, seed=4, options={"size": 3}, backend=backend,
                           progress=None)  # fmt: skip
        return [(s.wins, s.draws, s.losses) for s in result.stats.values()]

    try:
        assert standings(RayBackend(workers=2)) == standings(SerialBackend())
        assert ray.available_resources().get("CPU", 0) <= 2
    finally:
        ray.shutdown()
