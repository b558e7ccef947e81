"""The research adapters: action codecs, PettingZoo's and Gymnasium's own checks, OpenSpiel's
Python MCTS on every game, and the arena on a local Ray runtime."""

from __future__ import annotations

import functools
import importlib
import random
import warnings
from typing import Any

import numpy as np
import pytest

from bordspel.core import BordspelError, State, available_games, new_game
from bordspel.rl.codecs import codec_for

from .variants import GOD_IDS, GOD_VARIANTS, IDS, VARIANTS


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_codecs_round_trip_and_masks(game: str, options: dict[str, Any]) -> None:
    play_through_codec(new_game(game, **options), random.Random(0))


def play_through_codec(state: State, rng: random.Random) -> None:
    """A random game in which every legal move's action decodes to it, and masks and shapes hold."""
    codec = codec_for(state.name)
    size = codec.num_actions(state)
    shape = codec.observe(state, 0).shape
    while not state.is_over():
        actions = [codec.encode(state, m) for m in state.legal_moves()]
        assert len(set(actions)) == len(actions) and all(0 <= a < size for a in actions)
        assert [codec.decode(state, a) for a in actions] == state.legal_moves()
        assert np.flatnonzero(codec.mask(state)).tolist() == sorted(actions)
        assert codec.observe(state, state.to_move).shape == shape
        state = state.apply(state.random_move(rng))


@pytest.fixture
def dict_observations_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """List our environments with PettingZoo's classic games whose observations are dicts.

    ``api_test`` warns "Observation is not a NumPy array" and that the space should be a Box
    for any dict observation outside its built-in lists; every other warning stays an error.
    """
    module = importlib.import_module("pettingzoo.test.api_test")
    names = [f"bordspel_{game}_v0" for game in available_games()]
    for known in ("env_obs_dicts", "env_obs_space"):
        monkeypatch.setattr(module, known, [*getattr(module, known), *names])


@pytest.mark.parametrize("mask_in", ["observation", "info"])
@pytest.mark.parametrize("game, options", VARIANTS + GOD_VARIANTS, ids=IDS + GOD_IDS)
def test_pettingzoo_api(
    game: str, options: dict[str, Any], mask_in: str, dict_observations_known: None
) -> None:
    from pettingzoo.test import api_test

    from bordspel.rl.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(env(game, mask_in=mask_in, **options), num_cycles=200)


@pytest.mark.parametrize("game, options", VARIANTS + GOD_VARIANTS[:2], ids=IDS + GOD_IDS[:2])
def test_pettingzoo_parallel_api(game: str, options: dict[str, Any]) -> None:
    from pettingzoo.test import parallel_api_test

    from bordspel.rl.pettingzoo import parallel_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(parallel_env(game, **options), num_cycles=300)


def test_the_parallel_env_plays_the_agent_to_move_and_refuses_an_illegal_move() -> None:
    from bordspel.rl.pettingzoo import parallel_env

    parallel = parallel_env("quarto")
    observations, _ = parallel.reset(seed=1)
    mover = parallel.aec.agent_selection
    action = int(observations[mover]["action_mask"].argmax())
    other = next(agent for agent in parallel.agents if agent != mover)
    assert not observations[other]["action_mask"].any()
    parallel.step({mover: action, other: 0})
    assert parallel.state() == new_game("quarto").apply(
        codec_for("quarto").decode(new_game("quarto"), action)
    )
    with pytest.raises(ValueError, match="is to move: give its action"):
        parallel.step({mover: action})
    with pytest.raises(BordspelError):
        parallel.step({other: 0})  # a first move (handing over a piece) as the second move


@pytest.mark.parametrize(
    "game, options", [("hermit", {"size": 3}), ("santorini", {"players": 3}), ("quarto", {})]
)
def test_pettingzoo_render_and_seed_tests(game: str, options: dict[str, Any]) -> None:
    from pettingzoo.test import render_test, seed_test

    from bordspel.rl.pettingzoo import env

    render_test(functools.partial(env, game, **options))
    seed_test(functools.partial(env, game, **options), num_cycles=50)


def test_pettingzoo_follows_the_classic_games() -> None:
    from bordspel.rl.pettingzoo import env

    environment = env("quarto")
    environment.reset(seed=0)
    assert environment.possible_agents == ["player_0", "player_1"]
    observation = environment.observe("player_0")
    assert set(observation) == {"observation", "action_mask"} and observation["action_mask"].sum() == 16
    assert environment.observation_space("player_0")["action_mask"].contains(observation["action_mask"])


def test_pettingzoo_rewards_and_render() -> None:
    from bordspel.rl.pettingzoo import env

    environment = env("santorini", render_mode="rgb_array", players=4)
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
    assert_picture(environment.render())


def assert_picture(pixels: Any) -> None:
    """An RGB frame of a few hundred pixels a side, not blank."""
    assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
    assert min(pixels.shape[:2]) >= 200 and len(np.unique(pixels.reshape(-1, 3), axis=0)) > 10


SEATS = [
    (game, options, seat)
    for game, options in VARIANTS + GOD_VARIANTS
    for seat in range(new_game(game, **options).num_players)
    if (game, options, seat) != ("hermit", {"size": 1}, 1)  # never moves: refused (tested below)
]


@pytest.mark.parametrize("game, options, seat", SEATS, ids=[f"{g}-{o}-seat{s}" for g, o, s in SEATS])
def test_gymnasium_check_env(game: str, options: dict[str, Any], seat: int) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import bordspel.rl.gymnasium  # noqa: F401 (registers the ids)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        environment = gymnasium.make(
            f"bordspel/{game.capitalize()}-v0", opponent="random", seat=seat, **options
        )
        check_env(environment.unwrapped)


def first_legal_episodes(environment: Any, seed: int, episodes: int) -> list[tuple[float, str]]:
    """Reset with ``seed`` once, then play ``episodes`` games taking the first legal action."""
    games = []
    _, info = environment.reset(seed=seed)
    for episode in range(episodes):
        if episode:
            _, info = environment.reset()
        done, reward = False, 0.0
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, reward, done, _, info = environment.step(action)
        games.append((reward, environment.unwrapped.state.to_str()))
    return games


def test_gymnasium_seeding_repeats_episodes() -> None:
    import gymnasium

    import bordspel.rl.gymnasium  # noqa: F401

    def make() -> Any:
        return gymnasium.make("bordspel/Santorini-v0", opponent="random", players=3, seat=1)

    games = first_legal_episodes(make(), 7, 4)
    assert first_legal_episodes(make(), 7, 4) == games
    assert len(set(games)) > 1 and first_legal_episodes(make(), 8, 4) != games


def test_gymnasium_vector_envs_reproducible() -> None:
    import gymnasium

    import bordspel.rl.gymnasium  # noqa: F401

    def returns() -> list[float]:
        envs = gymnasium.make_vec("bordspel/Hermit-v0", num_envs=2, vectorization_mode="sync", size=3)
        _, info = envs.reset(seed=0)
        total = []
        for _ in range(40):
            actions = [int(np.argmax(mask)) for mask in info["action_mask"]]  # 0 when done: autoreset
            _, reward, _, _, info = envs.step(np.array(actions))
            total += reward.tolist()
        envs.close()
        return total

    first = returns()
    assert returns() == first == returns() and any(first)


@pytest.mark.parametrize("game", ["hermit", "quarto", "santorini"])
def test_gymnasium_episodes_against_a_budget_only_opponent_repeat_under_any_clock(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mcts:playouts=20`` stops on no clock, its solver included: an episode played again with
    a clock that jumps 2 s at every look (every deadline past) is the same episode."""
    import time

    import gymnasium

    import bordspel.rl.gymnasium  # noqa: F401
    from bordspel.ai.arena import clock_bound

    def episode() -> list[Any]:
        environment = gymnasium.make(f"bordspel/{game.capitalize()}-v0", opponent="mcts:playouts=20")
        observation, info = environment.reset(seed=0)
        assert not clock_bound(environment.unwrapped.opponent)
        seen, done, step = [observation.tolist()], False, 0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, done, _, info = environment.step(int(legal[7 * step % len(legal)]))
            seen += [observation.tolist(), reward]
            step += 1
        return seen

    first = episode()
    assert episode() == first
    clock = [1.0]  # early: the compiled Quarto solver compares its deadline with the real clock

    def hurried() -> float:
        clock[0] += 2.0
        return clock[0]

    monkeypatch.setattr(time, "perf_counter", hurried)
    assert episode() == first


def test_gymnasium_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import bordspel.rl.gymnasium

    for mode in ("rgb_array", "ansi", "svg", "human"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(gymnasium.make("bordspel/Quarto-v0", render_mode=mode).unwrapped)
    environment = gymnasium.make("bordspel/Quarto-v0", render_mode="rgb_array")
    environment.reset(seed=0)
    assert_picture(environment.render())
    capsys.readouterr()
    shown = gymnasium.make("bordspel/Hermit-v0", render_mode="human", size=3)
    shown.reset(seed=0)
    assert shown.render() is None and "a" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        bordspel.rl.gymnasium.BordspelEnv("hermit", render_mode="window")


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


def test_gymnasium_step_after_the_episode_ended_raises() -> None:
    from gymnasium.error import ResetNeeded

    from bordspel.rl.gymnasium import BordspelEnv

    environment = BordspelEnv("hermit", size=3)
    environment.reset(seed=0)
    _, reward, done, _, info = environment.step(10_000)
    assert reward == -1.0 and done and info["illegal_action"]
    with pytest.raises(ResetNeeded, match="reset"):
        environment.step(0)
    _, info = environment.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = environment.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(ResetNeeded, match="reset"):
        environment.step(0)


def test_gymnasium_refuses_a_seat_that_never_moves() -> None:
    from bordspel.core import BordspelError
    from bordspel.rl.gymnasium import BordspelEnv

    with pytest.raises(BordspelError, match="seat 1 never gets a move"):
        BordspelEnv("hermit", size=1, seat=1)
    _, info = BordspelEnv("hermit", size=1, seat=0).reset(seed=0)
    assert info["action_mask"].sum() == 3


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


SLOW_GODS = [pytest.param(game, options, marks=pytest.mark.slow) for game, options in GOD_VARIANTS]


@pytest.mark.parametrize("game, options", VARIANTS + SLOW_GODS, ids=IDS + GOD_IDS)
def test_openspiel_random_simulations_with_serialisation(game: str, options: dict[str, Any]) -> None:
    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401

    pyspiel.random_sim_test(pyspiel.load_game(f"python_bordspel_{game}", options), num_sims=3, serialize=True,
                            verbose=False)  # fmt: skip


def test_openspiel_utilities_per_variant() -> None:
    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401

    utility = pyspiel.GameType.Utility
    kinds = {
        players: (game.get_type().utility, game.utility_sum())
        for players in (2, 3, 4)
        for game in [pyspiel.load_game("python_bordspel_santorini", {"players": players})]
    }
    assert kinds == {2: (utility.ZERO_SUM, 0.0), 3: (utility.CONSTANT_SUM, -1.0), 4: (utility.ZERO_SUM, 0.0)}


def test_openspiel_strict_actions_history_and_pickling() -> None:
    import pickle

    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401
    from bordspel.core import BordspelError

    game = pyspiel.load_game("python_bordspel_quarto")
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(16 + 0 * 17 + 4)
    with pytest.raises(BordspelError, match="not legal"):
        state.action_to_string(0, 3)
    assert state.information_state_string(0) == "D a1:E" != state.observation_string(0)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == [3, 20] and str(copy) == str(state)
    assert copy.information_state_string(1) == "D a1:E"


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_openspiel_clones_copy_the_state_without_replaying(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import pyspiel

    from bordspel.rl.openspiel import Line

    state = pyspiel.load_game(f"python_bordspel_{game}", options).new_initial_state()
    while len(state.history()) < 3 and not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    monkeypatch.setattr(Line, "play", None)  # a replay would call it
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    monkeypatch.undo()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert len(clone.history()) == len(state.history()) + 1 and str(clone) != str(state)


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_openspiel_games_pickle(game: str, options: dict[str, Any]) -> None:
    import pickle

    import pyspiel

    import bordspel.rl.openspiel  # noqa: F401

    loaded = pyspiel.load_game(f"python_bordspel_{game}", options)
    copy = pickle.loads(pickle.dumps(loaded))
    assert type(copy) is type(loaded) and copy.options == loaded.options and str(copy) == str(loaded)
    assert copy.num_distinct_actions() == loaded.num_distinct_actions()
    state = copy.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


@pytest.mark.slow  # starts a Ray runtime (4 s)
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


@pytest.mark.parametrize("game", ["hermit", "quarto", "santorini"])
@pytest.mark.parametrize("action", [99999, -1, 2.0, True])
def test_an_action_outside_the_action_space_is_refused(game: str, action: Any) -> None:
    codec, state = codec_for(game), new_game(game)
    count = codec.num_actions(state)
    with pytest.raises(BordspelError, match=f"is not one of {game}'s actions: give 0 to {count - 1}"):
        codec.decode(state, action)
    assert codec.decode(state, codec.encode(state, state.legal_moves()[0])) == state.legal_moves()[0]
