"""OpenSpiel Python games: importing this module registers ``python_bordspel_<game>`` for every
registered game (``register(game)`` adds one registered later), e.g. ``python_bordspel_hermit``.

``pyspiel.load_game("python_bordspel_hermit", {"size": 4})`` takes the game options as
parameters (the GameSpec's ``parameters`` give them and their defaults). Actions are those
of ``bordspel.rl.codecs``; observers give the planes as tensors and the position as strings,
so OpenSpiel's Python algorithms (MCTS, minimax, ...) run on these games.

Utilities follow each variant: two players and Santorini's two teams of four are zero-sum,
three-player Santorini is constant-sum (one winner: +1, -1, -1). The information state is the
history of moves in notation; states serialise (and pickle) as the game's parameters and the
actions played, replayed on loading, so no engine state is pickled; games pickle as their
options. ``clone()`` copies a state (positions are immutable) without replaying it. A game
that draws its start takes a ``seed`` parameter (Santorini's random gods and Chaos's deck), so
the parameters fix the draw.
"""

from __future__ import annotations

from typing import Any

from bordspel.rl import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as error:
    raise missing_extra(error) from error

from bordspel.core import BadOption, State, available_games, game_spec, new_game
from bordspel.rl.codecs import codec_for

__all__ = ["BordspelGame", "BordspelState", "Line", "register"]

GAME_STRING_SYNTAX = ",=()"
"""The characters that OpenSpiel's game strings use for themselves: no parameter's text may hold them."""

LONGEST = 10_000
"""The game length OpenSpiel is told for a game whose GameSpec gives none."""


def _parameters(game: str) -> dict[str, Any]:
    return dict(game_spec(game).parameters)


def _players(game: str) -> tuple[int, int]:
    players = game_spec(game).players
    if players is None:
        seats = new_game(game, **_parameters(game)).num_players
        return seats, seats
    return players


def _longest(game: str, options: dict[str, Any]) -> int:
    longest = game_spec(game).max_length
    return LONGEST if longest is None else longest(options)


def utility_of(players: int) -> tuple[pyspiel.GameType.Utility, float | None]:
    """The utility kind and sum of a variant: zero-sum but for three-player Santorini's one winner."""
    if players == 3:
        return pyspiel.GameType.Utility.CONSTANT_SUM, -1.0
    return pyspiel.GameType.Utility.ZERO_SUM, 0.0


def _game_type(game: str, players: int) -> pyspiel.GameType:
    low, high = _players(game)
    return pyspiel.GameType(
        short_name=f"python_bordspel_{game}",
        long_name=f"Python bordspel {game.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility_of(players)[0],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class Line:
    """A position and the actions that led to it from a game's start.

    It pickles as the game, its options and the actions (replayed on loading), never as an
    engine state. ``start`` is the game's start for these options when the caller has it.
    """

    def __init__(
        self, game: str, options: dict[str, Any], actions: tuple[int, ...] = (), start: State | None = None
    ) -> None:
        self.game, self.options = game, options
        self.position: State = new_game(game, **options) if start is None else start
        self.codec = codec_for(game, self.position)
        self.actions: tuple[int, ...] = ()
        self.notations: tuple[str, ...] = ()
        for action in actions:
            self.play(action)

    def play(self, action: int) -> None:
        """Apply ``action``; BordspelError when it is not legal here."""
        move = self.codec.move(self.position, action)
        self.position = self.position.apply(move)
        self.actions += (action,)
        self.notations += (move.to_str(),)

    def __reduce__(self) -> tuple[type[Line], tuple[str, dict[str, Any], tuple[int, ...]]]:
        return (Line, (self.game, self.options, self.actions))

    def __deepcopy__(self, memo: dict[int, Any]) -> Line:
        """A copy sharing the immutable position, options and codec (OpenSpiel's ``clone()``
        deep-copies states): nothing is replayed."""
        copied = Line.__new__(Line)
        copied.__dict__.update(self.__dict__)
        return copied


def _check_game_string(options: dict[str, Any]) -> None:
    """BadOption for a text that OpenSpiel's game string (``name(key=value,...)``) cannot hold."""
    for name, value in options.items():
        if isinstance(value, str) and any(ch in value for ch in GAME_STRING_SYNTAX):
            raise BadOption(
                f"OpenSpiel parameter {name}={value!r}: its game strings cannot hold any of "
                f"{GAME_STRING_SYNTAX!r}; write lists with slashes (gods=apollo/pan)"
            )


class BordspelGame(pyspiel.Game):
    """One of the bordspel games, with its options as OpenSpiel parameters."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.options = {**_parameters(self.game_name), **(params or {})}
        _check_game_string(self.options)
        self.start = new_game(self.game_name, **self.options)
        self.codec = codec_for(self.game_name, self.start)
        players = self.start.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions(self.start),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=utility_of(players)[1],
            max_game_length=_longest(self.game_name, self.options),
        )
        super().__init__(_game_type(self.game_name, players), info, self.options)

    def __reduce__(self) -> tuple[type[BordspelGame], tuple[dict[str, Any]]]:
        """Pickles as its class (a module attribute, see ``register``) and its options."""
        return type(self), (self.options,)

    def new_initial_state(self) -> BordspelState:
        return BordspelState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer of positions, or of histories for a perfect-recall (information state) type."""
        return Observer(self, perfect_recall=bool(iig_obs_type and iig_obs_type.perfect_recall))


class BordspelState(pyspiel.State):
    """An OpenSpiel state holding the line of play to an immutable bordspel position."""

    def __init__(self, game: BordspelGame) -> None:
        super().__init__(game)
        self.line = Line(game.game_name, game.options, start=game.start)

    @property
    def position(self) -> State:
        """The bordspel position of this OpenSpiel state."""
        return self.line.position

    def current_player(self) -> int:
        if self.position.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.position.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.line.codec.legal_actions(self.position)

    def _apply_action(self, action: int) -> None:
        self.line.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The move's notation; BordspelError for an action that is not legal here."""
        return str(self.line.codec.move(self.position, action).to_str())

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
    """Observation tensors (the codec's planes) and strings, per player.

    The string is the position, or with ``perfect_recall`` (the information state) the moves
    played so far in notation, one space apart.
    """

    def __init__(self, game: BordspelGame, perfect_recall: bool = False) -> None:
        self.codec, self.perfect_recall = game.codec, perfect_recall
        planes = self.codec.observe(game.start, 0)
        self.tensor = np.zeros(planes.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(planes.shape)}

    def set_from(self, state: BordspelState, player: int) -> None:
        self.dict["observation"][...] = self.codec.observe(state.position, player)

    def string_from(self, state: BordspelState, player: int) -> str:
        if self.perfect_recall:
            return " ".join(state.line.notations)
        return state.position.to_str()


def register(game: str) -> None:
    """Register ``python_bordspel_<game>`` with OpenSpiel (done at import for every game then known).

    Its class, ``Bordspel<Game>Game``, becomes an attribute of this module, so its games pickle.
    """
    name = f"Bordspel{game.capitalize()}Game"
    cls = type(name, (BordspelGame,), {"game_name": game, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls
    pyspiel.register_game(_game_type(game, _players(game)[0]), cls)


for _game in available_games():
    register(_game)
