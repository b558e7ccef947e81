"""Game knowledge per game, and players built from short specifications.

A specification is a player name with options, like ``alphabeta:time=0.5,depth=6``,
``mcts:playouts=2000`` or ``random``, or a difficulty level (``easy``, ``medium``, ``hard``,
``perfect``) that each game maps onto those players. A game's knowledge is a part of its
GameSpec (a game without gets :data:`GENERIC`); the players themselves are game-agnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bordspel.ai.mcts import Playout
from bordspel.ai.players import AlphaBetaPlayer, Endgame, GreedyPlayer, MCTSPlayer, Player, RandomPlayer
from bordspel.ai.search import Evaluation
from bordspel.core import BordspelError, State, game_part, game_spec

__all__ = ["GENERIC", "LEVELS", "Knowledge", "knowledge", "make_player", "register_player"]

LEVELS = ("easy", "medium", "hard", "perfect")


@dataclass(frozen=True)
class Knowledge:
    """What the players know of one game."""

    evaluate: Evaluation
    levels: dict[str, str]
    """Difficulty level -> player specification."""
    order: Callable[[State, list[Any]], list[Any]] | None = None
    solver: Callable[[float | None], Endgame] | None = None
    """Makes a solver with a time limit: it returns the best move, or None when it cannot tell."""
    players: dict[str, Callable[[], Player]] = field(default_factory=dict)
    """Players only this game has (e.g. a known strategy)."""
    playout: Playout | None = None
    """A faster random playout for MCTS (e.g. compiled); None: ``mcts.random_playout``."""


def _no_evaluation(state: State, seat: int) -> float:
    """The evaluation of a game without knowledge: every unfinished position is even."""
    return 0.0


GENERIC = Knowledge(
    evaluate=_no_evaluation,
    levels={"easy": "greedy", "medium": "mcts:playouts=300", "hard": "mcts:playouts=3000"},
)
"""What the players know of a game whose GameSpec names no knowledge: only the rules."""


_EXTRA_PLAYERS: dict[tuple[str, str], Callable[[int | None], Player]] = {}


def register_player(name: str, game: str, factory: Callable[[int | None], Player]) -> None:
    """Make ``factory(seed)`` available to ``make_player`` (and the arena) as ``name``."""
    _EXTRA_PLAYERS[(name, game)] = factory


def knowledge(game: str) -> Knowledge:
    """The game's knowledge (its GameSpec's ``knowledge`` part), else :data:`GENERIC`."""
    found: Knowledge | None = game_part(game, "knowledge")
    return GENERIC if found is None else found


def _options(text: str) -> dict[str, float]:
    options = {}
    for part in filter(None, text.split(",")):
        key, eq, value = part.partition("=")
        try:
            options[key.strip()] = float(value)
        except ValueError:
            raise BordspelError(f"player option {part!r} needs a number, like time=0.5") from None
        if not eq:
            raise BordspelError(f"player option {part!r} is written name=value")
    return options


def make_player(spec: str, game: str, seed: int | None = None) -> Player:
    """A player for ``game`` from a specification (see the module docstring)."""
    name, _, rest = spec.partition(":")
    game_spec(game)  # an unknown game is refused, whatever the player
    if spec == "random":
        return RandomPlayer(seed)
    known = knowledge(game)
    if name in known.levels:
        base = known.levels[name]
        return make_player(base + ("," if ":" in base else ":") + rest if rest else base, game, seed)
    options = _options(rest)
    time_limit = options.pop("time", None)
    use_solver = bool(options.pop("solver", 1))
    solver_time = options.pop("solver_time", 1.0 if time_limit is None else time_limit)
    endgame = None
    if name in ("alphabeta", "mcts") and known.solver is not None and use_solver:
        endgame = known.solver(solver_time)
    if name == "random":
        player: Player = RandomPlayer(seed)
    elif name == "greedy":
        player = GreedyPlayer(known.evaluate, seed)
    elif name == "alphabeta":
        depth = int(options.pop("depth", 64))
        nodes = options.pop("nodes", None)
        limit = time_limit if time_limit is not None or nodes is not None or depth < 64 else 1.0
        player = AlphaBetaPlayer(
            known.evaluate,
            time_limit=limit,
            max_depth=depth,
            max_nodes=None if nodes is None else int(nodes),
            order=known.order,
            endgame=endgame,
        )
    elif name == "mcts":
        playouts = options.pop("playouts", None)
        player = MCTSPlayer(
            seed,
            playouts=None if playouts is None else int(playouts),
            time_limit=time_limit if time_limit is not None or playouts is not None else 1.0,
            endgame=endgame,
            playout=known.playout,
        )
    elif name in known.players:
        player = known.players[name]()
    elif (name, game) in _EXTRA_PLAYERS:
        player = _EXTRA_PLAYERS[(name, game)](seed)
    else:
        choices = ["random", "greedy", "alphabeta", "mcts", *known.players, *LEVELS]
        raise BordspelError(f"unknown player {spec!r} for {game}: choose one of {', '.join(choices)}")
    if options:
        raise BordspelError(f"player {name} has no option {', '.join(options)}")
    player.name = spec
    return player
