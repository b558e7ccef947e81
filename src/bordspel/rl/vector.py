"""Batched Gymnasium environments: N games of one kind stepped in one call (compiled where the
game has a batch kernel).

``gymnasium.make_vec("bordspel/Quarto-v0", num_envs=1024, vectorization_mode="vector_entry_point")``
returns a :class:`BordspelVectorEnv` (``import bordspel.rl.gymnasium`` registers the ids). It
takes the single environment's options (``opponent``, ``seat``, the game's options) and means the
same by them: the agent plays ``seat`` and the opponent every other seat, observations are the
planes of ``bordspel.rl.codecs`` from the agent's seat, ``info["action_mask"]`` marks the legal
actions (all zeros once the game is over), the reward is the agent's return when the game ends,
an illegal action ends the episode with -1 (``info["illegal_action"]``), and action ids are the
codec's. ``opponent=None`` is self-play: every seat is the agent's, the observation and mask are
those of the seat to move (``info["current_player"]``, -1 in a game that is over), and the
reward is the return of the seat that acted.
``info["opponent_actions"]`` holds the actions the opponent played in each game during the call
(-1 where it played fewer).

Autoreset is Gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step after a game
ended starts it anew, ignores that game's action and returns its first observation with reward 0.

Seeding: ``reset(seed=s)`` gives game ``i`` the seed ``s + i`` (a list gives each its own), and
its random stream draws every opponent move and every start from then on, autoresets included,
so the same seed and the same actions give the same trajectories; ``reset()`` without a seed
starts every game anew and goes on drawing from the streams.

``actions="clicks"`` plays each move click by click from a small fixed alphabet, as the single
environment does (``bordspel.rl.clicks``; Santorini with gods: 27 actions a game, not 103,709);
it runs :class:`PythonBatch`, and ``opponent_actions`` stay whole-move ids.

A game's ``vector`` part (``bordspel.games.<game>.vector:batch``) gives a compiled
:class:`Batch` for the options and opponents it covers; any other case (an opponent other than
``random`` and ``greedy``, pure Python) runs :class:`PythonBatch`, which plays the single
environment's games exactly: the same seed gives the same episodes as ``gymnasium.make_vec(...,
vectorization_mode="sync")`` of the single environments.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bordspel.rl import missing_extra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:
    raise missing_extra(error) from error

from bordspel.ai import make_player
from bordspel.ai.players import Player
from bordspel.ai.search import collector_paused
from bordspel.core import BordspelError, Part, State, game_part, game_spec, new_game
from bordspel.rl import draws_start, seat_moves
from bordspel.rl.clicks import ClickActions, ClickTurn, click_actions
from bordspel.rl.codecs import codec_for

__all__ = [
    "VECTOR_PART",
    "Batch",
    "BatchFactory",
    "BordspelVectorEnv",
    "MultiAgentStep",
    "MultiAgentVectorEnv",
    "PythonBatch",
    "Step",
]

Int8s = npt.NDArray[np.int8]


class Batch(Protocol):
    """N games in one object, stepped together (a game's compiled kernel or :class:`PythonBatch`).

    The arrays are the environment's own, written in place: observations ``(N, rows, cols,
    planes)`` and masks ``(N, actions)`` of ``int8``, rewards ``float64``, ``uint8`` flags, and the
    opponent's actions ``(N, replies)`` of ``int32``.
    """

    def seed(self, seeds: list[int]) -> None:
        """Start each game's random stream anew from its seed."""

    def reset(self, which: npt.NDArray[np.uint8], obs: Int8s, masks: Int8s, replies: Any) -> None:
        """Start the games with ``which[i]`` set anew and write their observations and masks."""

    def step(
        self,
        actions: Any,
        obs: Int8s,
        masks: Int8s,
        rewards: Any,
        terminated: Any,
        illegal: Any,
        replies: Any,
    ) -> None:
        """Play each game's action and the opponent's replies (next-step autoreset)."""

    def seats(self, to_move: Any, returns: Any) -> None:
        """Each game's seat to move (-1 once it is over) and every seat's result in a game that
        is over (0 while it goes on)."""


BatchFactory = Callable[[State, int, int, "str | None"], "Batch | None"]
"""``batch(start, num_envs, seat, opponent)``: a game's compiled batch, or None where it does
not cover the options or the opponent (``seat`` -1 is self-play, ``opponent`` None)."""

VECTOR_PART: Part[BatchFactory] = Part("vector", "a function batch(start, n, seat, opponent)", callable)
"""The ``vector`` part of a GameSpec (by convention ``<package>.vector:batch``)."""

LONGEST = 1000
"""The opponents' moves a step reports for a game of more than two seats without a longest length."""

ILLEGAL = object()
"""What :meth:`PythonBatch._chosen` answers for an action that is not legal."""

Step = tuple[Int8s, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]


class BordspelVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[type-arg,unused-ignore]
    """``num_envs`` games of one bordspel game, the agent on ``seat`` against ``opponent`` (see
    the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "hermit",
        opponent: str | None = "random",
        seat: int = 0,
        copy: bool = True,
        render_mode: str | None = None,
        actions: str = "moves",
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if render_mode is not None:
            raise ValueError("the vector environment draws no frames: render the single environment")
        start = new_game(game, **options)
        if opponent is None and seat != 0:
            raise ValueError("with opponent=None (self-play) the agent plays every seat: leave seat out")
        if opponent is not None and not seat_moves(start, seat):
            raise BordspelError(f"seat {seat} never gets a move: the game ends before its turn")
        codec = codec_for(start.name, start)
        clicks = click_actions(start, actions)
        self.num_envs, self.copy, self.game, self.options, self.start = (
            num_envs,
            copy,
            start.name,
            options,
            start,
        )
        width = codec.num_actions(start) if clicks is None else clicks.num_actions
        self.single_action_space = spaces.Discrete(width)
        shape = codec.observe(start, 0).shape if clicks is None else clicks.observe(start, 0, None).shape
        highest = (clicks or codec).highest(start)
        self.single_observation_space = spaces.Box(0, highest, shape=shape, dtype=np.int8)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.agent = -1 if opponent is None else seat
        compiled = None if clicks else _compiled(start, num_envs, self.agent, opponent)
        self.batch = compiled or PythonBatch(start, num_envs, self.agent, opponent, options, clicks)
        replies = 0 if opponent is None else _most_replies(start, options)
        self._obs = np.zeros((num_envs, *shape), np.int8)
        self._masks = np.zeros((num_envs, width), np.int8)
        self._replies = np.full((num_envs, replies), -1, np.int32)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.uint8)
        self._illegal = np.zeros(num_envs, np.uint8)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._to_move = np.zeros(num_envs, np.int32)
        self._seat_returns = np.zeros((num_envs, start.num_players), np.float64)
        self._seeded = False

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Int8s, dict[str, Any]]:
        """Start the games anew (``options["reset_mask"]``: only those); ``seed`` as in the module
        docstring."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        if seed is not None or not self._seeded:
            self.batch.seed(self._seeds(seed))
            self._seeded = True
        which = np.ones(self.num_envs, np.uint8)
        if options is not None and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], np.bool_).astype(np.uint8)
        self._replies[which.astype(np.bool_)] = -1
        self.batch.reset(which, self._obs, self._masks, self._replies)
        return self._out(self._obs), self._info()

    def step(self, actions: Any) -> Step:
        """Each game's action and the opponent's replies; see the module docstring."""
        if not self._seeded:
            raise ResetNeeded("call reset() before the first step()")
        chosen = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)
        self.batch.step(
            chosen, self._obs, self._masks, self._rewards, self._terminated, self._illegal, self._replies
        )
        terminated = self._terminated.view(np.bool_)
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(terminated),
            self._out(self._truncated),
            self._info(),
        )

    def _seeds(self, seed: int | Sequence[int] | None) -> list[int]:
        """One seed per game: ``seed + i``, a list's own, or ``i`` plus one drawn from entropy."""
        if seed is None or isinstance(seed, int):
            first = int(np.random.SeedSequence().generate_state(1)[0]) if seed is None else seed
            return [first + i for i in range(self.num_envs)]
        seeds = [int(s) for s in seed]
        if len(seeds) != self.num_envs:
            raise ValueError(f"give {self.num_envs} seeds, one per game, not {len(seeds)}")
        return seeds

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        info = {
            "action_mask": self._out(self._masks),
            "illegal_action": self._out(self._illegal.view(np.bool_)),
        }
        if self._replies.shape[1]:
            info["opponent_actions"] = self._out(self._replies)
        if self.agent == -1:
            self.batch.seats(self._to_move, self._seat_returns)
            info["current_player"] = self._to_move.copy()
        return info


MultiAgentStep = tuple[
    Int8s, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
]


class MultiAgentVectorEnv:
    """``num_envs`` games of self-play seen by every seat at once, as pgx shows its games (the
    multi-agent view of :class:`BordspelVectorEnv` with ``opponent=None``).

    The agents are PettingZoo's ``player_0`` ... ``player_{P-1}`` (seat order). Each step plays
    one action per game, the move of its seat to move (``info["current_player"]``, -1 in a game
    that is over and starts anew at the next step); observations and ``info["action_mask"]`` are
    that seat's. Rewards have shape ``(num_envs, P)``: every seat's return in the step its game
    ends (a team shares its result), 0 otherwise; an illegal action ends its game with -1 for the
    seat that played it and 0 for the others. Seeding and autoreset are the vector env's.

    As PettingZoo's parallel environments, it has ``agents`` (every seat, always: a game that
    ends starts anew), ``observation_space(agent)`` and ``action_space(agent)`` (each agent's
    batched spaces: the planes of every game, one action per game), ``metadata``,
    ``unwrapped`` and ``close()``, so that PettingZoo's wrappers take it.
    """

    render_mode = None

    def __init__(self, num_envs: int = 1, game: str = "hermit", copy: bool = True, **options: Any) -> None:
        self.env = BordspelVectorEnv(num_envs, game, opponent=None, copy=copy, **options)
        self.num_envs, self.num_players = num_envs, self.env.start.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        self.agents = list(self.possible_agents)
        self.metadata = {**self.env.metadata, "name": f"bordspel_{self.env.game}_vector_v0"}
        self.single_observation_space = self.env.single_observation_space
        self.single_action_space = self.env.single_action_space
        self.observation_spaces = {agent: self.env.observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: self.env.action_space for agent in self.possible_agents}
        self._to_move = np.zeros(num_envs, np.int32)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observations: the planes of every game (``(num_envs, ...)``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s actions: one codec action per game."""
        return self.action_spaces[agent]

    @property
    def num_agents(self) -> int:
        """How many agents play (every seat)."""
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        """How many agents there can be (the seats)."""
        return len(self.possible_agents)

    @property
    def unwrapped(self) -> MultiAgentVectorEnv:
        """This environment (wrappers reach it so)."""
        return self

    def close(self) -> None:
        """Close the vector environment underneath."""
        self.env.close()

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Int8s, dict[str, Any]]:
        """Start the games anew (as :meth:`BordspelVectorEnv.reset`)."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._to_move = info["current_player"].copy()
        return obs, info

    def step(self, actions: Any) -> MultiAgentStep:
        """Each game's move of its seat to move; see the class docstring."""
        actors = self._to_move
        obs, _, terminated, truncated, info = self.env.step(actions)
        self._to_move = info["current_player"].copy()
        rewards = np.where(terminated[:, None], self.env._seat_returns, 0.0)
        illegal = np.flatnonzero(info["illegal_action"])
        rewards[illegal] = 0.0
        rewards[illegal, actors[illegal]] = -1.0
        return obs, rewards, terminated, truncated, info


def _most_replies(start: State, options: dict[str, Any]) -> int:
    """How many moves the opponents may make in one step: one against one player; with more
    seats, a seat that drops out watches the others play on to the end (the game's longest)."""
    spec = game_spec(start.name)
    if start.num_players == 2:
        return 1
    return LONGEST if spec.max_length is None else spec.max_length({**spec.parameters, **options})


def _compiled(start: State, num_envs: int, seat: int, opponent: str | None) -> Batch | None:
    factory = game_part(start.name, VECTOR_PART)
    return None if factory is None else factory(start, num_envs, seat, opponent)


class PythonBatch:
    """The batch of any game on its engine, codec and players: each game plays as the single
    environment would with the same seed (``np_random`` seeded with it, the opponent's seed and
    a drawn start taken from it in the same order)."""

    def __init__(
        self,
        start: State,
        num_envs: int,
        seat: int,
        opponent: str | None,
        options: dict[str, Any],
        clicks: ClickActions | None = None,
    ) -> None:
        self.start, self.seat, self.opponent_spec, self.options = start, seat, opponent, options
        self.codec, self.clicks = codec_for(start.name, start), clicks
        self.turns: list[ClickTurn | None] = [None] * num_envs
        """Each game's clicks of the agent's move under way (click actions only)."""
        self.states = [start] * num_envs
        self.generators: list[np.random.Generator] = []
        self.opponents: list[Player | None] = [None] * num_envs
        self.moves: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        """Each game's legal moves by their actions (kept from its mask, for its next step)."""
        self.finished = [False] * num_envs

    def seed(self, seeds: list[int]) -> None:
        """Each game's ``np_random`` (the single environment's) seeded with its seed."""
        self.generators = [np.random.default_rng(seed) for seed in seeds]

    def reset(self, which: npt.NDArray[np.uint8], obs: Int8s, masks: Int8s, replies: Any) -> None:
        """Start the games with ``which[i]`` set anew (see :class:`Batch`)."""
        with collector_paused():
            for i in np.flatnonzero(which):
                self._restart(int(i), replies)
                self._write(int(i), obs, masks)

    def step(
        self,
        actions: Any,
        obs: Int8s,
        masks: Int8s,
        rewards: Any,
        terminated: Any,
        illegal: Any,
        replies: Any,
    ) -> None:
        """Play each game's action and the opponent's replies (see :class:`Batch`). Python's
        cyclic collector is paused meanwhile, as in a search: the games' legal-move tables are
        thousands of tuples a position, and its passes over them took most of a step with gods."""
        with collector_paused():
            for i, action in enumerate(actions.tolist()):
                rewards[i] = terminated[i] = illegal[i] = 0
                replies[i] = -1
                if self.finished[i]:
                    self._restart(i, replies)
                else:
                    move = self._chosen(i, action)
                    if move is ILLEGAL:
                        rewards[i], terminated[i], illegal[i] = -1.0, 1, 1
                        self.finished[i] = True
                        continue
                    if move is not None:
                        rewards[i], terminated[i] = self._play(i, move, replies)
                self._write(i, obs, masks)

    def copy_games(self, source: PythonBatch, rows: Any, into: Any) -> None:
        """Copy game ``rows[k]`` of ``source`` into game ``into[k]`` of this batch, for every
        ``k``: its position, end, legal moves, clicks under way, random stream and opponent (the
        reference of the compiled batches' ``copy_games``)."""
        if len(rows) != len(into):
            raise ValueError(f"{len(rows)} rows to copy into {len(into)}")
        for row, i in zip(np.asarray(rows).tolist(), np.asarray(into).tolist()):
            self.states[i], self.finished[i] = source.states[row], source.finished[row]
            self.moves[i], self.turns[i] = source.moves[row], copy.deepcopy(source.turns[row])
            self.opponents[i] = copy.deepcopy(source.opponents[row])
            if source.generators:
                self._copy_generator(source.generators[row], i)

    def _copy_generator(self, generator: np.random.Generator, i: int) -> None:
        if not self.generators:
            self.generators = [np.random.default_rng(0) for _ in self.states]
        self.generators[i].bit_generator.state = generator.bit_generator.state

    def seats(self, to_move: Any, returns: Any) -> None:
        """Each game's seat to move and its seats' results (see :class:`Batch`)."""
        for i, state in enumerate(self.states):
            outcome = state.outcome()
            to_move[i] = -1 if self.finished[i] else state.to_move
            returns[i] = 0.0 if outcome is None else outcome.returns()

    def _restart(self, i: int, replies: Any) -> None:
        rng = self.generators[i]
        if self.opponent_spec is not None:
            self.opponents[i] = make_player(
                self.opponent_spec, self.start.name, seed=int(rng.integers(2**31))
            )
        start = self.start
        if draws_start(start.name, self.options):
            start = new_game(start.name, **self.options, seed=int(rng.integers(2**31)))
        self.states[i], self.finished[i] = start, False
        self._replies(i, replies)

    def _chosen(self, i: int, action: int) -> Any:
        """The move ``action`` makes in game ``i``: None for a click that does not finish one,
        :data:`ILLEGAL` for an action that is not legal there."""
        turn = self.turns[i]
        if turn is None:
            return self.moves[i].get(action, ILLEGAL)
        try:
            return turn.click(action)
        except BordspelError:
            return ILLEGAL

    def _play(self, i: int, move: Any, replies: Any) -> tuple[float, int]:
        actor = self.states[i].to_move if self.seat < 0 else self.seat
        self.states[i] = self.states[i].apply_unchecked(move)
        self._replies(i, replies)
        outcome = self.states[i].outcome()
        self.finished[i] = outcome is not None
        return (0.0, 0) if outcome is None else (outcome.returns()[actor], 1)

    def _replies(self, i: int, replies: Any) -> None:
        opponent, count = self.opponents[i], 0
        while opponent is not None and not self.states[i].is_over() and self.states[i].to_move != self.seat:
            move = opponent.step(self.states[i])
            replies[i, count] = self.codec.encode(self.states[i], move)
            self.states[i], count = self.states[i].apply(move), count + 1
        if self.clicks is not None:
            state = self.states[i]
            self.turns[i] = None if state.is_over() else self.clicks.turn(state)

    def _write(self, i: int, obs: Int8s, masks: Int8s) -> None:
        state = self.states[i]
        seat = state.to_move if self.seat < 0 else self.seat
        if self.clicks is not None:
            obs[i] = self.clicks.observe(state, seat, self.turns[i])
            masks[i] = self.clicks.mask(self.turns[i])
            return
        obs[i] = self.codec.observe(state, seat)
        moves = [] if state.is_over() else state.legal_moves()
        self.moves[i] = dict(zip(self.codec.encode_legal(state, moves), moves, strict=True))
        masks[i] = 0
        masks[i, list(self.moves[i])] = 1
