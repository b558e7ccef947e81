"""PettingZoo AEC environments for every game: ``bordspel.rl.pettingzoo.env(game, **options)``.

Agents are ``player_1`` ... ``player_N``. Observations are the planes of ``bordspel.rl.codecs``
(a ``Box`` of ``int8``); the action mask (1 for the legal actions of the agent to act, all 0 for
the others) is in ``infos[agent]["action_mask"]``. With ``mask_in="observation"`` the
observation is instead a dict of ``observation`` and ``action_mask``, as PettingZoo's own
classic games have it (PettingZoo's ``api_test`` then warns that the space is not a Box, as it
does for any such environment not on its built-in list). Rewards are +1/-1/0 when the game ends
(a team shares its result); render modes are ``ansi`` (a coloured text board) and ``svg``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bordspel import ansi, svg
from bordspel.core import new_game
from bordspel.rl.codecs import codec_for

__all__ = ["env", "raw_env"]


def env(game: str = "hermit", render_mode: str | None = None, mask_in: str = "info", **options: Any) -> Any:
    """The environment with PettingZoo's usual guards (illegal moves end the game for the mover)."""
    wrapped: Any = raw_env(game, render_mode=render_mode, mask_in=mask_in, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # PettingZoo names the class raw_env
    metadata = {"render_modes": ["ansi", "svg"], "name": "bordspel_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self, game: str = "hermit", render_mode: str | None = None, mask_in: str = "info", **options: Any
    ) -> None:
        super().__init__()
        if mask_in not in ("info", "observation"):
            raise ValueError(f"mask_in is 'info' or 'observation', not {mask_in!r}")
        self.mask_in = mask_in
        self.start = new_game(game, **options)
        self.codec = codec_for(self.start.name)
        self.metadata = {**self.metadata, "name": f"bordspel_{self.start.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat + 1}" for seat in range(self.start.num_players)]
        actions = self.codec.num_actions(self.start)
        shape = self.codec.observe(self.start, 0).shape
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        planes = spaces.Box(0, 1, shape=shape, dtype=np.int8)
        masked = spaces.Dict(
            {"observation": planes, "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8)}
        )
        self.observation_spaces = {
            agent: masked if mask_in == "observation" else spaces.Box(0, 1, shape=shape, dtype=np.int8)
            for agent in self.possible_agents
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
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "svg":
            return svg.render(self.state_)
        text = ansi.render(self.state_)
        return text

    def close(self) -> None:
        pass
