"""The batched environments (``bordspel.rl.vector``) against the single environment, step for
step: the compiled kernels and the Python batch, every game and variant, against the random and
greedy opponents and in self-play; seeding and autoreset."""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from typing import Any

import numpy as np
import pytest

from bordspel.ai.players import WIN
from bordspel.ai.registry import knowledge, register_player
from bordspel.core import BordspelError, State, new_game
from bordspel.rl import seat_moves
from bordspel.rl.codecs import codec_for

from .conftest import sizes
from .variants import FIRST_IDS, FIRSTS, GOD_IDS, GOD_VARIANTS, IDS, VARIANTS

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.error import ResetNeeded  # noqa: E402

from bordspel.rl.gymnasium import BordspelEnv  # noqa: E402
from bordspel.rl.vector import BordspelVectorEnv, MultiAgentVectorEnv, PythonBatch  # noqa: E402


def seated(variants: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any], int]]:
    """Every variant with every seat that gets a move."""
    found = []
    for game, options in variants:
        start = new_game(game, **options)
        found += [(game, options, seat) for seat in range(start.num_players) if seat_moves(start, seat)]
    return found


SEATS = seated(VARIANTS)
SEAT_IDS = [f"{game}-{options}-seat{seat}" for game, options, seat in SEATS]


class Replay:
    """An opponent that plays the actions queued for it (the vector environment's replies) and,
    judging greedy, checks that each is one the greedy player may choose."""

    def __init__(self, game: str, greedy: bool) -> None:
        self.name, self.queue, self.codec = "replay", deque[int](), codec_for(game)
        self.evaluate = knowledge(game).evaluate if greedy else None

    def step(self, state: State) -> Any:
        move = self.codec.move(state, self.queue.popleft())
        if self.evaluate is not None:
            values = {m: self._value(state.apply(m), state.to_move) for m in state.legal_moves()}
            assert values[move] == max(values.values()), "the vector's greedy reply is not a best move"
        return move

    def _value(self, child: State, seat: int) -> float:
        outcome = child.outcome()
        if outcome is None:
            assert self.evaluate is not None
            return self.evaluate(child, seat)
        return 0.0 if outcome.is_draw else (WIN if seat in outcome.winners else -WIN)


def replaying(game: str, options: dict[str, Any], seat: int, greedy: bool) -> tuple[BordspelEnv, Replay]:
    """A single environment whose opponent replays the queue of the returned Replay."""
    replay = Replay(game, greedy)
    name = f"replay-{id(replay)}"
    register_player(name, game, lambda seed: replay)
    return BordspelEnv(game, opponent=name, seat=seat, **options), replay


def random_actions(masks: np.ndarray, rng: np.random.Generator, illegal: float = 0.03) -> np.ndarray:
    """A random legal action per game (from its mask), now and then an illegal one."""
    actions = (rng.random(masks.shape) * masks).argmax(axis=1)
    wrong = rng.random(len(masks)) < illegal
    actions[wrong] = rng.integers(-2, masks.shape[1] + 2, size=int(wrong.sum()))
    return actions


def check_against_single(vector: BordspelVectorEnv, seat: int, opponent: str, steps: int, seed: int) -> None:
    """Step ``vector`` with random actions and each game's single twin with the same actions and
    the vector's opponent replies: observations, masks, rewards, terminations and illegal flags
    agree at every step, autoresets included."""
    game, options = vector.game, vector.options
    twins = [replaying(game, options, seat, opponent == "greedy") for _ in range(vector.num_envs)]
    rng = np.random.default_rng(seed)
    obs, info = vector.reset(seed=seed)
    ended = [False] * vector.num_envs
    for i, (single, replay) in enumerate(twins):
        replay.queue.extend(a for a in info["opponent_actions"][i].tolist() if a >= 0)
        single_obs, single_info = single.reset()
        assert np.array_equal(obs[i], single_obs) and not replay.queue
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    for _ in range(steps):
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminated, truncated, info = vector.step(actions)
        assert not truncated.any()
        for i, (single, replay) in enumerate(twins):
            replay.queue.extend(a for a in info["opponent_actions"][i].tolist() if a >= 0)
            if ended[i]:
                single_obs, single_info = single.reset()
                reward, done = 0.0, False
            else:
                single_obs, reward, done, _, single_info = single.step(int(actions[i]))
            assert not replay.queue, "the vector's opponent played more moves than the single one"
            assert np.array_equal(obs[i], single_obs)
            assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
            assert (rewards[i], terminated[i]) == (reward, done)
            assert info["illegal_action"][i] == single_info.get("illegal_action", False)
            ended[i] = done


def check_self_play(vector: BordspelVectorEnv, steps: int, seed: int) -> None:
    """Self-play against the engine: the seat to move, its planes and mask, the actor's return."""
    codec, start = codec_for(vector.game), new_game(vector.game, **vector.options)
    rng = np.random.default_rng(seed)
    obs, info = vector.reset(seed=seed)
    assert info["current_player"].tolist() == [start.to_move] * vector.num_envs
    states, ended = [start] * vector.num_envs, [False] * vector.num_envs
    for _ in range(steps):
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminated, _, info = vector.step(actions)
        for i, action in enumerate(actions.tolist()):
            reward, done, illegal, state = 0.0, False, False, states[i]
            if ended[i]:
                state = start
            elif not (
                0 <= action < len(info["action_mask"][i]) and state.is_legal(codec.decode(state, action))
            ):
                reward, done, illegal = -1.0, True, True
            else:
                actor, state = state.to_move, state.apply(codec.decode(state, action))
                outcome = state.outcome()
                reward, done = (0.0, False) if outcome is None else (outcome.returns()[actor], True)
            mask = np.zeros(codec.num_actions(start), np.int8) if state.is_over() else codec.mask(state)
            assert info["current_player"][i] == (-1 if done else state.to_move)
            assert np.array_equal(obs[i], codec.observe(state, state.to_move))
            assert np.array_equal(info["action_mask"][i], mask)
            assert (rewards[i], terminated[i], info["illegal_action"][i]) == (reward, done, illegal)
            states[i], ended[i] = state, done


def vector_env(
    game: str, options: dict[str, Any], num_envs: int, python: bool = False, **kwargs: Any
) -> BordspelVectorEnv:
    vector = BordspelVectorEnv(num_envs, game, **kwargs, **options)
    if python:
        vector.batch = PythonBatch(
            vector.start, num_envs, vector.agent, kwargs.get("opponent", "random"), options
        )
    return vector


def single_env_cases() -> list[Any]:
    """Every seat of every variant against both opponents, 40 steps, marked slow; the fast loop
    keeps 6 steps of each game's first variant from seat 0 (the opponent answers) and of
    Santorini for three players from its last seat against random (the opponents move first)."""
    cases = []
    for game, options, seat in SEATS:
        for opponent in ("random", "greedy"):
            name = f"{opponent}-{game}-{options}-seat{seat}"
            cases.append(pytest.param(game, options, seat, opponent, 40, id=name, marks=pytest.mark.slow))
            last = options == {"players": 3} and seat == 2 and opponent == "random"
            if (options == FIRSTS_BY_GAME[game] and seat == 0) or last:
                cases.append(pytest.param(game, options, seat, opponent, 6, id=f"{name}-quick"))
    return cases


FIRSTS_BY_GAME = dict(FIRSTS)


@pytest.mark.parametrize("game, options, seat, opponent, steps", single_env_cases())
def test_the_vector_env_steps_as_the_single_env(
    game: str, options: dict[str, Any], seat: int, opponent: str, steps: int
) -> None:
    vector = BordspelVectorEnv(3, game, opponent=opponent, seat=seat, **options)
    check_against_single(vector, seat, opponent, steps, seed=5)


@pytest.mark.parametrize("steps", sizes(8, 80))
@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_self_play_steps_as_the_engine(game: str, options: dict[str, Any], steps: int) -> None:
    check_self_play(BordspelVectorEnv(3, game, opponent=None, **options), steps, seed=3)


GODS = [*zip(GOD_VARIANTS, GOD_IDS), (("santorini", {"gods": "random"}), "random-gods")]
GOD_CASES = [pytest.param(*variant, 30, id=name, marks=pytest.mark.slow) for variant, name in GODS] + [
    pytest.param(*variant, 3, id=f"{name}-quick")
    for variant, name in GODS
    if variant[1].get("players", 2) == 2
]
"""Gods of two and three players, 30 steps (slow); the fast loop keeps 3 steps of two players."""


@pytest.mark.parametrize("game, options, steps", GOD_CASES)
def test_with_gods_the_python_batch_plays_the_sync_vector_s_games(
    game: str, options: dict[str, Any], steps: int
) -> None:
    vector = BordspelVectorEnv(2, game, **options)
    assert isinstance(vector.batch, PythonBatch)
    sync = gymnasium.make_vec(f"bordspel/{game.capitalize()}-v0", 2, vectorization_mode="sync", **options)
    rng = np.random.default_rng(0)
    (obs, info), (sync_obs, sync_info) = vector.reset(seed=11), sync.reset(seed=11)
    for _ in range(steps):
        assert np.array_equal(obs, sync_obs)
        assert np.array_equal(info["action_mask"], sync_info["action_mask"])
        actions = random_actions(info["action_mask"], rng, illegal=0.0)
        obs, rewards, terminated, _, info = vector.step(actions)
        sync_obs, sync_rewards, sync_terminated, _, sync_info = sync.step(actions)
        assert np.array_equal(rewards, sync_rewards) and np.array_equal(terminated, sync_terminated)


THREE: tuple[str, dict[str, Any]] = ("santorini", {"players": 3})
FOUR: tuple[str, dict[str, Any]] = ("santorini", {"players": 4})
"""Two teams of two: a team's seats share its result."""


def check_multi_agent(env: MultiAgentVectorEnv, steps: int, seed: int) -> None:
    """Every game against the engine: the seat to move, its planes and mask, and every seat's
    return when a game ends (-1 for the seat that played an illegal action, 0 for the others)."""
    game, options = env.env.game, env.env.options
    codec, start = codec_for(game), new_game(game, **options)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    states, ended = [start] * env.num_envs, [False] * env.num_envs
    assert info["current_player"].tolist() == [start.to_move] * env.num_envs
    for _ in range(steps):
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminated, _, info = env.step(actions)
        for i, action in enumerate(actions.tolist()):
            state, returns, done = states[i], [0.0] * env.num_players, False
            if ended[i]:
                state = start
            elif not (0 <= action < codec.num_actions(start) and state.is_legal(codec.decode(state, action))):
                returns[state.to_move], done = -1.0, True
            else:
                state = state.apply(codec.decode(state, action))
                outcome = state.outcome()
                returns, done = (returns, False) if outcome is None else (list(outcome.returns()), True)
            assert info["current_player"][i] == (-1 if done else state.to_move)
            assert rewards[i].tolist() == returns and terminated[i] == done
            if not done:
                assert np.array_equal(obs[i], codec.observe(state, state.to_move))
                assert np.array_equal(info["action_mask"][i], codec.mask(state))
            states[i], ended[i] = state, done


@pytest.mark.parametrize("steps", sizes(12, 60))
@pytest.mark.parametrize("python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize(
    "game, options", [*FIRSTS, THREE, FOUR], ids=[*FIRST_IDS, "santorini-3p", "santorini-4p"]
)
def test_the_multi_agent_view_gives_every_seat_its_return(
    game: str, options: dict[str, Any], python: bool, steps: int
) -> None:
    env = MultiAgentVectorEnv(3, game, **options)
    assert env.possible_agents == [f"player_{seat}" for seat in range(env.num_players)]
    if python:
        env.env.batch = PythonBatch(env.env.start, 3, -1, None, options)
    check_multi_agent(env, steps, seed=4)


def test_the_multi_agent_view_plays_gods() -> None:
    env = MultiAgentVectorEnv(2, "santorini", gods="apollo/pan")
    assert isinstance(env.env.batch, PythonBatch)
    check_multi_agent(env, steps=4, seed=2)


def test_the_multi_agent_view_has_every_agent_s_spaces_and_takes_pettingzoo_s_wrappers() -> None:
    wrappers = pytest.importorskip("pettingzoo.utils.wrappers")
    env = MultiAgentVectorEnv(4, "santorini", players=3)
    wrapped = wrappers.BaseParallelWrapper(env)
    assert wrapped.unwrapped is env and env.unwrapped is env
    assert env.agents == env.possible_agents and env.num_agents == env.max_num_agents == 3
    assert env.metadata["name"] == "bordspel_santorini_vector_v0"
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        actions = random_actions(info["action_mask"], rng)
        for agent in env.possible_agents:
            space, moves = wrapped.observation_space(agent), wrapped.action_space(agent)
            assert space.shape == (4, *env.single_observation_space.shape) and space.contains(obs)
            assert moves.contains(actions.astype(moves.dtype))
        obs, _, _, _, info = env.step(actions)
    env.close()


def trajectory(vector: BordspelVectorEnv, seed: int | list[int], steps: int) -> list[np.ndarray]:
    """Everything the environment returns over ``steps`` random steps from ``reset(seed)``."""
    rng = np.random.default_rng(0)
    obs, info = vector.reset(seed=seed)
    seen = [obs, info["action_mask"]]
    for _ in range(steps):
        obs, rewards, terminated, _, info = vector.step(random_actions(info["action_mask"], rng))
        seen += [obs, rewards, terminated, info["action_mask"], info["illegal_action"]]
    return seen


@pytest.mark.parametrize("game, options", FIRSTS, ids=FIRST_IDS)
@pytest.mark.parametrize("opponent", ["random", "greedy", None])
def test_a_seed_repeats_its_trajectories_and_another_changes_them(
    game: str, options: dict[str, Any], opponent: str | None
) -> None:
    vector = BordspelVectorEnv(4, game, opponent=opponent, **options)
    first = trajectory(vector, 21, 30)
    again = trajectory(BordspelVectorEnv(4, game, opponent=opponent, **options), [21, 22, 23, 24], 30)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(first, trajectory(vector, 21, 30), strict=True))
    other = trajectory(vector, 22, 30)
    changed = not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    assert changed == (opponent is not None)  # self-play draws nothing: the actions decide


@pytest.mark.parametrize("game, options", FIRSTS, ids=FIRST_IDS)
def test_the_step_after_an_episode_ends_starts_it_anew_and_ignores_its_action(
    game: str, options: dict[str, Any]
) -> None:
    vector = BordspelVectorEnv(2, game, **options)
    first, info = vector.reset(seed=1)
    moved, *_ = vector.step(info["action_mask"].argmax(axis=1))  # a legal move in both games
    assert not np.array_equal(moved[0], first[0])
    obs, rewards, terminated, _, info = vector.step(np.array([-1, -1]))  # an illegal one ends them
    assert terminated.all() and (rewards == -1.0).all() and info["illegal_action"].all()
    assert np.array_equal(obs, moved)
    obs, rewards, terminated, _, info = vector.step(np.array([-1, -1]))  # ignored: both start anew
    assert not terminated.any() and not rewards.any() and not info["illegal_action"].any()
    assert np.array_equal(obs, first)
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


def test_a_reset_mask_starts_only_those_games_anew() -> None:
    vector = BordspelVectorEnv(2, "quarto", opponent=None)
    start, info = vector.reset(seed=0)
    obs, *_ = vector.step(info["action_mask"].argmax(axis=1))
    assert not np.array_equal(obs, start)
    again, _ = vector.reset(options={"reset_mask": np.array([True, False])})
    assert np.array_equal(again[0], start[0]) and np.array_equal(again[1], obs[1])


def test_make_vec_gives_the_batched_environment() -> None:
    import bordspel.rl.gymnasium  # noqa: F401 (registers the ids)

    vector = gymnasium.make_vec("bordspel/Quarto-v0", num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(vector, BordspelVectorEnv) and vector.num_envs == 8
    obs, info = vector.reset(seed=0)
    assert obs.shape == (8, 4, 4, 11) and info["action_mask"].shape == (8, 288)
    assert vector.observation_space.contains(obs)


def test_refusals_say_what_was_wrong() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        BordspelVectorEnv(0, "quarto")
    with pytest.raises(ValueError, match="render the single environment"):
        BordspelVectorEnv(2, "quarto", render_mode="rgb_array")
    with pytest.raises(BordspelError, match="never gets a move"):
        BordspelVectorEnv(2, "hermit", seat=1, size=1)
    with pytest.raises(ValueError, match="one per game"):
        BordspelVectorEnv(2, "quarto").reset(seed=[1, 2, 3])
    with pytest.raises(ResetNeeded, match="call reset"):
        BordspelVectorEnv(2, "quarto").step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="every seat"):
        BordspelVectorEnv(2, "quarto", opponent=None, seat=1)
    with pytest.raises(ValueError, match="opponent=None"):
        BordspelEnv("quarto", opponent=None)  # type: ignore[arg-type]


def test_without_gymnasium_the_adapters_say_which_extra_to_install() -> None:
    hide = "import sys; sys.modules['gymnasium'] = None; import bordspel.rl.vector"
    answer = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, check=False)
    said = "ModuleNotFoundError: bordspel's RL adapters need gymnasium: pip install 'bordspel[rl]'"
    assert said in answer.stderr
