"""OpenSpiel Python games: importing this module registers ``python_bordspel_hermit``,
``python_bordspel_santorini`` and ``python_bordspel_quarto``.

``pyspiel.load_game("python_bordspel_hermit", {"size": 4})`` takes the game options as
parameters (Santorini: ``players``, ``finite_supply``; Quarto: ``advanced``). Actions are those
of ``bordspel.rl.codecs``; observers give the planes as tensors and the position as strings,
so OpenSpiel's Python algorithms (MCTS, minimax, ...) run on these games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from bordspel.core import State, new_game
from bordspel.rl.codecs import codec_for

__all__ = ["BordspelGame", "BordspelState"]

PARAMETERS: dict[str, dict[str, Any]] = {
    "hermit": {"size": 5},
    "santorini": {"players": 2, "finite_supply": False},
    "quarto": {"advanced": False},
}
PLAYERS = {"hermit": (2, 2), "santorini": (2, 4), "quarto": (2, 2)}
LONGEST = {
    "hermit": lambda o: o["size"] ** 2,
    "santorini": lambda o: 2 * o["players"] + 4 * 25 + 4,
    "quarto": lambda o: 17,
}


def _game_type(game: str) -> pyspiel.GameType:
    low, high = PLAYERS[game]
    return pyspiel.GameType(
        short_name=f"python_bordspel_{game}",
        long_name=f"Python bordspel {game.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if high == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[game],
    )


class BordspelGame(pyspiel.Game):
    """One of the bordspel games, with its options as OpenSpiel parameters."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**PARAMETERS[self.game_name], **(params or {})}
        self.start = new_game(self.game_name, **options)
        self.codec = codec_for(self.game_name)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions(self.start),
            max_chance_outcomes=0,
            num_players=self.start.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.start.num_players == 2 else None,
            max_game_length=LONGEST[self.game_name](options),
        )
        super().__init__(_game_type(self.game_name), info, options)

    def new_initial_state(self) -> BordspelState:
        return BordspelState(self, self.start)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self)


class BordspelState(pyspiel.State):
    """An OpenSpiel state holding an immutable bordspel position."""

    def __init__(self, game: BordspelGame, position: State) -> None:
        super().__init__(game)
        self.position = position
        self.codec = game.codec

    def current_player(self) -> int:
        if self.position.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.position.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.codec.legal_actions(self.position)

    def _apply_action(self, action: int) -> None:
        self.position = self.position.apply(self.codec.move(self.position, action))

    def _action_to_string(self, player: int, action: int) -> str:
        move = self.codec.decode(self.position, action)
        return f"action {action}" if move is None else str(move.to_str())

    def is_terminal(self) -> bool:
        return self.position.is_over()

    def returns(self) -> list[float]:
        outcome = self.position.outcome()
        if outcome is None:
            return [0.0] * self.position.num_players
        return list(outcome.returns())

    def __str__(self) -> str:
        return self.position.to_str()


class Observer:
    """Observation tensors (the codec's planes) and strings (the position), per player."""

    def __init__(self, game: BordspelGame) -> None:
        self.codec = game.codec
        planes = self.codec.observe(game.start, 0)
        self.tensor = np.zeros(planes.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(planes.shape)}

    def set_from(self, state: BordspelState, player: int) -> None:
        self.dict["observation"][...] = self.codec.observe(state.position, player)

    def string_from(self, state: BordspelState, player: int) -> str:
        return state.position.to_str()


def _register(game: str) -> None:
    cls = type(f"Bordspel{game.capitalize()}Game", (BordspelGame,), {"game_name": game})
    pyspiel.register_game(_game_type(game), cls)


for _game in PARAMETERS:
    _register(_game)
