"""Click-by-click actions (``bordspel.rl.clicks``): the clicks reach exactly the legal moves, for
every game and every god; the environments play moves click by click; the vector env's Python
batch plays the single environments' games."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from bordspel.core import BordspelError, State, new_game
from bordspel.games.santorini.gods import GODS

from .conftest import sampled
from .variants import GOD_IDS, GOD_VARIANTS, IDS, VARIANTS

gymnasium = pytest.importorskip("gymnasium")

from bordspel.rl.clicks import END, ClickActions, ClickTurn, alphabet  # noqa: E402
from bordspel.rl.gymnasium import BordspelEnv  # noqa: E402
from bordspel.rl.vector import BordspelVectorEnv, PythonBatch  # noqa: E402


def reachable(turn: ClickTurn) -> list[Any]:
    """The move each sequence of legal clicks from ``turn`` makes (a move made in two orders twice)."""
    moves = []
    for action in turn.legal():
        after = copy.copy(turn)
        move = after.click(action)
        moves.extend(reachable(after) if move is None else [move])
    return moves


def positions(game: str, options: dict[str, Any], count: int, seed: int) -> list[State]:
    """``count`` positions of random games from the start (a new game when one ends)."""
    rng, start = random.Random(seed), new_game(game, **options)
    found, state = [], start
    while len(found) < count:
        found.append(state)
        state = start if state.is_over() else state.apply(state.random_move(rng))
    return [state for state in found if not state.is_over()]


def check_clicks_make_the_legal_moves(game: str, options: dict[str, Any], count: int) -> None:
    actions = ClickActions(new_game(game, **options))
    for state in positions(game, options, count, seed=1):
        made = reachable(actions.turn(state))
        assert set(map(str, made)) == set(map(str, state.legal_moves())), state.to_str()


@pytest.mark.parametrize("game, options", VARIANTS + GOD_VARIANTS, ids=IDS + GOD_IDS)
def test_the_clicks_make_exactly_the_legal_moves(game: str, options: dict[str, Any]) -> None:
    check_clicks_make_the_legal_moves(game, options, count=8)


@pytest.mark.parametrize("god", sampled(list(GODS), every=7))
def test_the_clicks_make_exactly_each_god_s_moves(god: str) -> None:
    check_clicks_make_the_legal_moves("santorini", {"gods": f"{god},random"}, count=30)


@pytest.mark.slow
@pytest.mark.parametrize("god", list(GODS))
def test_the_clicks_make_exactly_each_god_s_moves_in_long_games(god: str) -> None:
    check_clicks_make_the_legal_moves("santorini", {"gods": f"{god},random", "players": 2}, count=120)
    check_clicks_make_the_legal_moves("santorini", {"gods": f"{god},random,random", "players": 3}, count=40)
    check_clicks_make_the_legal_moves("santorini", {"gods": f"{god},-,-,random", "players": 4}, count=40)


def test_the_alphabets_are_small_and_fixed() -> None:
    santorini = alphabet(new_game("santorini", gods="hermes,atlas"))
    assert len(santorini) == 27 and santorini[0] == END and "button:dome" in santorini
    assert alphabet(new_game("santorini")) == santorini
    assert len(alphabet(new_game("quarto"))) == 1 + 16 + 16
    assert len(alphabet(new_game("hermit", size=5))) == 1 + 25 + 6


def test_end_plays_a_move_that_other_moves_go_on_from() -> None:
    """Demeter after c3d3 and a build on c2 may stop (end) or build again."""
    state = new_game("santorini", gods="demeter,-").play("a1e5").play("b4d4")
    actions = ClickActions(state)
    turn = actions.turn(state)
    for token in ("square:a1", "square:b2", "square:c3"):
        assert turn.click(actions.index[token]) is None
    assert 0 in turn.legal()
    ended = copy.copy(turn).click(0)
    assert ended.to_str() == "a1b2c3"
    again = turn.click(actions.index["square:b3"])
    assert again is not None and state.apply(again).to_str() != state.apply(ended).to_str()


def test_an_illegal_click_is_refused_and_changes_nothing() -> None:
    state = new_game("santorini").play("a1e5").play("b4d4")
    actions = ClickActions(state)
    turn = actions.turn(state)
    with pytest.raises(BordspelError, match="not legal here"):
        turn.click(actions.index["square:c3"])  # no worker there
    with pytest.raises(BordspelError):
        turn.click(0)  # nothing to end
    assert turn.clicks == () and turn.legal() == sorted(actions.index[s] for s in ("square:a1", "square:e5"))


def test_the_env_plays_a_move_click_by_click() -> None:
    env = BordspelEnv("santorini", actions="clicks", gods="apollo,pan")
    obs, info = env.reset(seed=3)
    assert env.action_space.n == 27 and info["action_mask"].shape == (27,)
    assert obs.shape == env.observation_space.shape and not obs[:, :, -1].any()
    state, moves = env.state, 0
    while env.state is state:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, _, _, info = env.step(action)
        moves += 1
        assert reward == 0.0 or env.state is not state
    assert moves >= 2  # the setup's two squares, or a worker, its step and its build


def test_random_clicks_play_whole_games_with_gods() -> None:
    env = gymnasium.make("bordspel/Santorini-v0", actions="clicks", gods="random")
    rng = np.random.default_rng(0)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        terminated, steps = False, 0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, _, info = env.step(action)
            steps += 1
            assert not info.get("illegal_action") and steps < 2000
        assert reward in (-1.0, 1.0)


def test_an_illegal_click_ends_the_episode() -> None:
    env = BordspelEnv("quarto", actions="clicks")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_the_actions_option_is_checked() -> None:
    with pytest.raises(ValueError, match=r"'moves'.*'clicks'"):
        BordspelEnv("quarto", actions="click")


@pytest.mark.parametrize("game, options", [("santorini", {"gods": "apollo/pan"}), ("hermit", {"size": 3})])
def test_the_vector_env_clicks_as_the_single_envs(game: str, options: dict[str, Any]) -> None:
    vector = BordspelVectorEnv(3, game, actions="clicks", **options)
    assert isinstance(vector.batch, PythonBatch)
    assert vector.single_action_space.n == len(alphabet(vector.start))
    singles = [BordspelEnv(game, actions="clicks", **options) for _ in range(3)]
    obs, info = vector.reset(seed=20)
    rng = np.random.default_rng(1)
    for i, single in enumerate(singles):
        single_obs, single_info = single.reset(seed=20 + i)
        assert np.array_equal(obs[i], single_obs)
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    for _ in range(40):
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, rewards, _, _, info = vector.step(actions)
        for i, single in enumerate(singles):
            if single.over:  # the vector env starts the game anew and ignores the action
                single_obs, single_info = single.reset()
                reward = 0.0
            else:
                single_obs, reward, _, _, single_info = single.step(int(actions[i]))
            assert np.array_equal(obs[i], single_obs) and rewards[i] == reward
            assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
