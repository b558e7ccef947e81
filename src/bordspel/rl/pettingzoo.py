"""PettingZoo environments for every game: ``bordspel.rl.pettingzoo.env(game, **options)`` (AEC)
and ``parallel_env(game, **options)`` (parallel: every live agent gives an action each step, and
the action of the agent to move is played; the others' masks are all 0 and their actions unused).

As in PettingZoo's classic games, agents are ``player_0`` ... ``player_{N-1}`` (seat order) and
an observation is a dict of ``observation`` (the planes of ``bordspel.rl.codecs``, a ``Box`` of
``int8``) and ``action_mask`` (1 for the legal actions of the agent to act, all 0 for the
others); the mask is also in ``infos[agent]["action_mask"]``. With ``mask_in="info"`` the
observation is the planes alone. Rewards are +1/-1/0 when the game ends (a team shares its
result). Render modes: ``rgb_array``, ``ansi``, ``svg`` and ``human`` (see
``bordspel.rl.render``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, SupportsInt

from bordspel.rl import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise missing_extra(error) from error

from bordspel.core import new_game
from bordspel.rl import draws_start
from bordspel.rl.codecs import codec_for
from bordspel.rl.render import RENDER_MODES, check_mode, frame

__all__ = ["AECEnvironment", "ParallelEnvironment", "env", "parallel_env", "raw_env"]


class AECEnvironment(Protocol):
    """What ``env()`` returns: PettingZoo's AEC API, typed (PettingZoo itself ships no types)."""

    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    render_mode: str | None
    metadata: dict[str, Any]

    @property
    def unwrapped(self) -> raw_env:
        """The environment without PettingZoo's guards."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (seeded)."""

    def step(self, action: SupportsInt | None) -> None:
        """Play the selected agent's action (None once it is done)."""

    def observe(self, agent: str) -> Any:
        """What ``agent`` sees now."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info."""

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agents in turn until every one is done."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations."""

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions."""

    def render(self) -> Any:
        """The picture of the render mode."""

    def close(self) -> None:
        """Release what rendering holds."""


def env(
    game: str = "hermit", render_mode: str | None = None, mask_in: str = "observation", **options: Any
) -> AECEnvironment:
    """The environment with PettingZoo's usual guards (illegal moves end the game for the mover)."""
    wrapped: Any = raw_env(game, render_mode=render_mode, mask_in=mask_in, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    guarded: AECEnvironment = wrappers.OrderEnforcingWrapper(wrapped)
    return guarded


class raw_env(AECEnv):  # PettingZoo names the class raw_env
    """The unwrapped AEC environment of one game; ``env()`` adds PettingZoo's guards."""

    metadata = {"render_modes": RENDER_MODES, "name": "bordspel_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str = "hermit",
        render_mode: str | None = None,
        mask_in: str = "observation",
        **options: Any,
    ) -> None:
        super().__init__()
        if mask_in not in ("info", "observation"):
            raise ValueError(f"mask_in is 'info' or 'observation', not {mask_in!r}")
        check_mode(render_mode)
        self.mask_in = mask_in
        self.start, self.options = new_game(game, **options), options
        self.codec = codec_for(self.start.name, self.start)
        self.metadata = {**self.metadata, "name": f"bordspel_{self.start.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.start.num_players)]
        actions = self.codec.num_actions(self.start)
        shape = self.codec.observe(self.start, 0).shape
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        planes = spaces.Box(0, self.codec.highest(self.start), shape=shape, dtype=np.int8)
        masked = spaces.Dict(
            {"observation": planes, "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8)}
        )
        self.observation_spaces = {
            agent: masked if mask_in == "observation" else planes for agent in self.possible_agents
        }
        self.state_ = self.start

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _mask(self, seat: int) -> Any:
        if not self.state_.is_over() and self.state_.to_move == seat:
            return self.codec.mask(self.state_)
        return np.zeros(self.codec.num_actions(self.start), np.int8)

    def observe(self, agent: str) -> Any:
        seat = self._seat(agent)
        planes = self.codec.observe(self.state_, seat)
        if self.mask_in == "observation":
            return {"observation": planes, "action_mask": self._mask(seat)}
        return planes

    def _update_infos(self) -> None:
        for seat, agent in enumerate(self.agents):
            self.infos[agent] = {"action_mask": self._mask(seat)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; one that draws its start (Santorini's random gods) draws it with ``seed``."""
        if draws_start(self.start.name, self.options):
            self.start = new_game(self.start.name, **self.options, seed=seed)
        self.state_ = self.start
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._update_infos()
        self.agent_selection = self.agents[self.state_.to_move]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state_ = self.state_.apply(self.codec.move(self.state_, int(action)))
        self._cumulative_rewards[agent] = 0.0
        outcome = self.state_.outcome()
        if outcome is not None:
            returns = outcome.returns()
            for seat, name in enumerate(self.agents):
                self.rewards[name] = returns[seat]
                self.terminations[name] = True
        self.agent_selection = self.agents[self.state_.to_move]
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The frame of ``render_mode``: pixels, text or SVG; ``human`` prints and returns None."""
        return frame(self.state_, self.render_mode)

    def close(self) -> None:
        pass


def parallel_env(game: str = "hermit", render_mode: str | None = None, **options: Any) -> ParallelEnvironment:
    """The parallel environment of one game (PettingZoo's ``parallel_env`` convention)."""
    return ParallelEnvironment(game, render_mode=render_mode, **options)


class ParallelEnvironment(ParallelEnv):
    """One game as PettingZoo's ``ParallelEnv``: ``step`` takes an action of every live agent
    and plays that of the agent to move; observations are those of the AEC environment (with the
    ``action_mask``, all 0 for the agents not to move). An illegal action of the agent to move is
    an ``IllegalMoveError``."""

    def __init__(self, game: str = "hermit", render_mode: str | None = None, **options: Any) -> None:
        self.aec = raw_env(game, render_mode=render_mode, mask_in="observation", **options)
        self.metadata = {**self.aec.metadata, "is_parallelizable": True}
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game: every agent's observation and info."""
        self.aec.reset(seed=seed)
        self.agents = self.aec.agents[:]
        return self._observations(), {agent: dict(self.aec.infos[agent]) for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Play the action of the agent to move; every live agent's observation, reward,
        termination, truncation and info."""
        mover = self.aec.agent_selection
        if mover not in actions:
            raise ValueError(f"{mover} is to move: give its action (a dict of every live agent's action)")
        self.aec.step(actions[mover])
        answer = (
            self._observations(),
            {agent: self.aec.rewards[agent] for agent in self.agents},
            {agent: self.aec.terminations[agent] for agent in self.agents},
            {agent: self.aec.truncations[agent] for agent in self.agents},
            {agent: dict(self.aec.infos[agent]) for agent in self.agents},
        )
        self.agents = [agent for agent in self.agents if not self.aec.terminations[agent]]
        return answer

    def _observations(self) -> dict[str, Any]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def state(self) -> Any:
        """The position (the game's immutable state)."""
        return self.aec.state_

    def render(self) -> Any:
        """The frame of ``render_mode``: pixels, text or SVG; ``human`` prints and returns None."""
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
