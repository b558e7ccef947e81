"""Gymnasium environments: one agent against a bordspel player, for every game.

Importing this module registers ``bordspel/Hermit-v0``, ``bordspel/Santorini-v0`` and
``bordspel/Quarto-v0``; ``gymnasium.make("bordspel/Santorini-v0", opponent="hard", players=3)``
passes the options on. The agent plays ``seat`` (0-based) and the opponent every other seat.
Observations are the planes of ``bordspel.rl.codecs``; ``info["action_mask"]`` marks the legal
actions. The reward is +1/-1/0 when the game ends; an illegal action ends the episode with -1
(``info["illegal_action"]``).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bordspel import ansi, svg
from bordspel.ai import make_player
from bordspel.core import BordspelError, State, new_game
from bordspel.rl.codecs import Planes, codec_for

__all__ = ["BordspelEnv"]


class BordspelEnv(gymnasium.Env):  # type: ignore[type-arg,unused-ignore]
    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 1}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game: str = "hermit",
        opponent: str = "random",
        seat: int = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.start = new_game(game, **options)
        self.codec = codec_for(self.start.name)
        if not 0 <= seat < self.start.num_players:
            raise ValueError(f"seat is from 0 to {self.start.num_players - 1}")
        self.opponent_spec, self.seat, self.render_mode = opponent, seat, render_mode
        self.action_space = spaces.Discrete(self.codec.num_actions(self.start))
        shape = self.codec.observe(self.start, seat).shape
        self.observation_space = spaces.Box(0, 1, shape=shape, dtype=np.int8)
        self.state: State = self.start
        self.opponent = make_player(opponent, self.start.name, seed=0)

    def _info(self, **extra: Any) -> dict[str, Any]:
        mine = not self.state.is_over() and self.state.to_move == self.seat
        mask = self.codec.mask(self.state) if mine else np.zeros(self.codec.num_actions(self.start), np.int8)
        return {"action_mask": mask, **extra}

    def _opponents_move(self) -> None:
        while not self.state.is_over() and self.state.to_move != self.seat:
            self.state = self.state.apply(self.opponent.step(self.state))

    def _reward(self) -> float:
        outcome = self.state.outcome()
        return 0.0 if outcome is None else outcome.returns()[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        super().reset(seed=seed)
        opponent_seed = random.Random(seed).randrange(2**31) if seed is not None else None
        self.opponent = make_player(self.opponent_spec, self.start.name, seed=opponent_seed)
        self.state = self.start
        self._opponents_move()
        return self.codec.observe(self.state, self.seat), self._info()

    def step(self, action: Any) -> tuple[Planes, float, bool, bool, dict[str, Any]]:
        try:
            move = self.codec.move(self.state, int(action))
        except BordspelError:
            return (
                self.codec.observe(self.state, self.seat),
                -1.0,
                True,
                False,
                self._info(illegal_action=True),
            )
        self.state = self.state.apply(move)
        self._opponents_move()
        over = self.state.is_over()
        return self.codec.observe(self.state, self.seat), self._reward(), over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "svg":
            return svg.render(self.state)
        if self.render_mode == "ansi":
            return ansi.render(self.state)
        return None


for _name in ("Hermit", "Santorini", "Quarto"):
    gymnasium.register(
        id=f"bordspel/{_name}-v0",
        entry_point="bordspel.rl.gymnasium:BordspelEnv",
        kwargs={"game": _name.lower()},
    )
