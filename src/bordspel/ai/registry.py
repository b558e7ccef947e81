"""Game knowledge per game, and players built from short specifications.

A specification is a player name with options, like ``alphabeta:time=0.5,depth=6``,
``mcts:playouts=2000`` or ``random``, an outside program that speaks the engine protocol
(``engine:time=0.5 /path/to/program args``, see ``bordspel.engine.EnginePlayer``), or a
difficulty level (``easy``, ``medium``, ``hard``, ``perfect``, and the frozen baselines
``easy-v1`` ... ``perfect-v1``) that each game maps onto those players. A game's knowledge is
a part of its GameSpec (a game without gets :data:`GENERIC`); the players themselves are
game-agnostic, built by the factories in :data:`FACTORIES`.

Options: ``time`` (seconds a move, the whole budget: solver and search), ``depth``, ``nodes``,
``playouts`` (the deterministic limits), ``solver=0`` (no exact solver; ``solver=NAME`` one of
the game's other solvers, e.g. Hermit's ``prune``), ``solver_time`` (the
solver's share of ``time`` in seconds; ``solver_share`` as a fraction, by default half; without
``time`` and ``solver_time`` the solver is bounded without a clock, so that players with only
deterministic limits repeat their moves exactly), ``search_time`` (a cap on the search
alone), ``pvs=0``, ``ext=0``, ``lmr=0``, ``book=0`` (alpha-beta without principal-variation
search, extensions, late move reductions where the game has them, or the game's opening
table), ``compiled=0``
(the pure search where the game has a compiled one), ``eval=NAME`` (one of the game's named
evaluations), ``reuse=1`` (MCTS keeps its tree between moves), ``puct=0`` (MCTS with random
playouts where the game's evaluation would guide it). ``zero`` is a network trained by
self-play (``bordspel train``), run by onnxruntime: ``zero:model=PATH,playouts=200``
(see ``bordspel.zero.player``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bordspel.ai.mcts import Playout, Prior, Value
from bordspel.ai.players import (
    AlphaBetaPlayer,
    Analyser,
    Endgame,
    GreedyPlayer,
    MCTSPlayer,
    Player,
    RandomPlayer,
    SearchOptions,
)
from bordspel.ai.search import Evaluation, FastSearch, Limit, SearchResult
from bordspel.core import BordspelError, MoveT, Part, State, game_part, game_spec

__all__ = [
    "FACTORIES",
    "GENERIC",
    "KNOWLEDGE_PART",
    "LEVELS",
    "Knowledge",
    "analyse",
    "analyser",
    "knowledge",
    "level_options",
    "level_refusal",
    "make_player",
    "offered_levels",
    "register_player",
]

LEVELS = ("easy", "medium", "hard", "perfect")

BASELINE = "-v1"
"""The suffix of the frozen baselines: ``hard-v1`` is ``hard`` as it was before issue 14."""


@dataclass(frozen=True)
class Knowledge:
    """What the players know of one game."""

    evaluate: Evaluation
    levels: dict[str, str]
    """Difficulty level -> player specification (the ``-v1`` baselines included)."""
    order: Callable[[State, list[Any]], list[Any]] | None = None
    solver: Callable[[float | None], Endgame] | None = None
    """Makes a solver with a time limit: it returns the best move, or None when it cannot tell.
    Given None (a player without a clock), the solver bounds itself without one (positions
    searched, the endgame's size), so that its answers repeat exactly."""
    solvers: dict[str, Callable[[float | None], Endgame]] = field(default_factory=dict)
    """Other solvers by name (``solver=NAME``), made like ``solver``."""
    players: dict[str, Callable[[], Player]] = field(default_factory=dict)
    """Players only this game has (e.g. a known strategy)."""
    playout: Playout | None = None
    """A faster random playout for MCTS (e.g. compiled); None: ``mcts.random_playout``."""
    evaluations: dict[str, Evaluation] = field(default_factory=dict)
    """Other evaluations by name (``eval=v1``), e.g. the baseline's."""
    extend: Callable[[State], bool] | None = None
    """Positions the search looks one ply deeper at (threats that must be answered)."""
    quiet: Callable[[State], bool] | None = None
    """Positions where the search may reduce late moves (nothing threatened that the evaluation
    cannot see); None: no reductions."""
    key: Callable[[State], Hashable] | None = None
    """The transposition table's key (e.g. a Zobrist hash); None: the state itself."""
    opening: Callable[[State], Any] | None = None
    """A move from a table for positions not worth searching (e.g. setup), else None."""
    fast_search: FastSearch | None = None
    """A faster (compiled) equivalent of the pure search for the positions it covers."""
    prior: Prior | None = None
    """MCTS's move priors from the evaluation; with ``value``, MCTS is PUCT without playouts."""
    value: Value | None = None
    """Every seat's expected return from the evaluation (MCTS's leaf value)."""
    wins: Callable[[State], bool] | None = None
    """Exactly whether the seat to move wins (two-seat games without draws), for judging many
    positions (``bordspel.zero.judge``); None: the judge asks ``solver``."""


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


KNOWLEDGE_PART: Part[Knowledge] = Part("knowledge", "a Knowledge", lambda found: isinstance(found, Knowledge))
"""The ``knowledge`` part of a GameSpec (by convention ``<package>.ai:KNOWLEDGE``)."""


def knowledge(game: str) -> Knowledge:
    """The game's knowledge (its GameSpec's ``knowledge`` part), else :data:`GENERIC`."""
    found = game_part(game, KNOWLEDGE_PART)
    return GENERIC if found is None else found


class Options:
    """A specification's options, taken one by one; what is left at the end was not understood."""

    def __init__(self, text: str) -> None:
        self.values: dict[str, str] = {}
        for part in filter(None, text.split(",")):
            key, eq, value = part.partition("=")
            if not eq:
                raise BordspelError(f"player option {part!r} is written name=value")
            self.values[key.strip()] = value.strip()

    def number(self, key: str) -> float | None:
        """A number of at least 0 (``time=0.5``), None when not given."""
        text, value = self._read(key)
        if not 0 <= value < math.inf:
            raise BordspelError(f"player option {key}={text} needs a number of at least 0, like {key}=0.5")
        return None if text is None else value

    def integer(self, key: str, low: int = 1) -> int | None:
        """A budget's whole number (``depth``, ``nodes``, ``playouts``) of at least ``low``."""
        text, value = self._read(key)
        if text is not None and not (low <= value < math.inf and value.is_integer()):
            raise BordspelError(
                f"player option {key}={text} needs a whole number of at least {low}, like {key}=4"
            )
        return None if text is None else int(value)

    def _read(self, key: str) -> tuple[str | None, float]:
        """Option ``key``'s text and its value (NaN when it is no number; 0 and None when not given)."""
        if key not in self.values:
            return None, 0.0
        text = self.values.pop(key)
        try:
            return text, float(text)
        except ValueError:
            return text, math.nan

    def flag(self, key: str, default: bool) -> bool:
        value = self.number(key)
        return default if value is None else bool(value)

    def text(self, key: str) -> str | None:
        return self.values.pop(key, None)


Factory = Callable[[Knowledge, Options, int | None], Player]


def _random(known: Knowledge, options: Options, seed: int | None) -> Player:
    _take_budget(options)
    return RandomPlayer(seed)


def _greedy(known: Knowledge, options: Options, seed: int | None) -> Player:
    _take_budget(options)
    return GreedyPlayer(_evaluation(known, options), seed)


def _take_budget(options: Options) -> None:
    """Players that answer at once accept a time budget (a server gives every level one)."""
    options.number("time")
    options.number("solver_time")


def _alphabeta(known: Knowledge, options: Options, seed: int | None) -> Player:
    time_limit, depth, nodes = options.number("time"), options.integer("depth"), options.integer("nodes")
    if time_limit is None and depth is None and nodes is None:
        time_limit = 1.0
    endgame, solver_time = _endgame(known, options, time_limit)
    search = SearchOptions(
        order=known.order,
        pvs=options.flag("pvs", True),
        extend=known.extend if options.flag("ext", True) else None,
        reduce=known.quiet if options.flag("lmr", True) else None,
        key=known.key,
        opening=known.opening if options.flag("book", True) else None,
        fast_search=known.fast_search if options.flag("compiled", True) else None,
    )
    return AlphaBetaPlayer(
        _evaluation(known, options),
        time_limit=time_limit,
        max_depth=64 if depth is None else depth,
        max_nodes=nodes,
        endgame=endgame,
        solver_time=solver_time,
        search_time=options.number("search_time"),
        options=search,
    )


def _mcts(known: Knowledge, options: Options, seed: int | None) -> Player:
    time_limit, playouts = options.number("time"), options.integer("playouts")
    if time_limit is None and playouts is None:
        time_limit = 1.0
    endgame, solver_time = _endgame(known, options, time_limit)
    return MCTSPlayer(
        seed,
        playouts=playouts,
        time_limit=time_limit,
        endgame=endgame,
        solver_time=solver_time,
        playout=known.playout,
        reuse=options.flag("reuse", False),
        guide=_guide(known, options),
    )


def _guide(known: Knowledge, options: Options) -> tuple[Prior, Value] | None:
    """The game's priors and leaf values for PUCT, unless ``puct=0`` or the game has none."""
    use = options.flag("puct", True)
    return (known.prior, known.value) if use and known.prior and known.value else None


def _endgame(
    known: Knowledge, options: Options, time_limit: float | None
) -> tuple[Endgame | None, float | None]:
    """The game's solver (unless ``solver=0``; ``solver=NAME`` one of its other solvers) and its
    share of a move: ``solver_time``, else the fraction ``solver_share`` (by default half) of
    the move's time. A player without a clock (no ``time`` nor ``solver_time``) gets the solver
    bounded without one: no share."""
    make = _solver(known, options.text("solver"))
    share, fraction = options.number("solver_time"), options.number("solver_share")
    if make is None:
        return None, None
    if share is None and time_limit is not None:
        share = time_limit * (0.5 if fraction is None else fraction)
    return make(share), share


def _solver(known: Knowledge, name: str | None) -> Callable[[float | None], Endgame] | None:
    """The solver that ``solver=name`` asks for: none for 0, the game's own for 1 or nothing."""
    if name is None or name == "1":
        return known.solver
    if name == "0":
        return None
    if name in known.solvers:
        return known.solvers[name]
    choices = ", ".join(["0", "1", *known.solvers])
    raise BordspelError(f"unknown solver {name!r}: choose one of {choices}")


def _evaluation(known: Knowledge, options: Options) -> Evaluation:
    name = options.text("eval")
    if name is None:
        return known.evaluate
    if name not in known.evaluations:
        choices = ", ".join(known.evaluations) or "none"
        raise BordspelError(f"unknown evaluation {name!r}: choose one of {choices}")
    return known.evaluations[name]


def _zero(known: Knowledge, options: Options, seed: int | None) -> Player:
    """A network trained by self-play, run by onnxruntime (``bordspel.zero.player``)."""
    from bordspel.zero.player import DEFAULT_PLAYOUTS, ZeroPlayer

    model, playouts = options.text("model"), options.integer("playouts", low=0)  # 0: no search
    options.number("solver_time")  # a server gives every level a solver's share: zero has none
    return ZeroPlayer(
        Path(model) if model else None,
        DEFAULT_PLAYOUTS if playouts is None else playouts,
        options.number("time"),
        seed,
        options.integer("gumbel", low=0) or 0,
    )


FACTORIES: dict[str, Factory] = {
    "random": _random,
    "greedy": _greedy,
    "alphabeta": _alphabeta,
    "mcts": _mcts,
    "zero": _zero,
}
"""The game-agnostic players by name: ``factory(knowledge, options, seed)``."""


def offered_levels(game: str) -> dict[str, str]:
    """The named levels a front end offers for ``game``: its knowledge's, and ``zero`` when a
    trained network is shipped for it and onnxruntime is installed."""
    from bordspel.zero import zero_available

    return {**knowledge(game).levels, **({"zero": "zero"} if zero_available(game) else {})}


def level_options(game: str) -> dict[str, list[dict[str, bool | int | str]]]:
    """The offered levels of ``game`` that play only some of its options, with the options each
    plays: ``zero`` those of its shipped networks (every other level plays every option)."""
    from bordspel.zero import network_options

    return {"zero": network_options(game)} if "zero" in offered_levels(game) else {}


def level_refusal(level: str, start: State) -> str | None:
    """Why the offered ``level`` does not play a game from ``start`` with its options (None
    when it does): ``zero`` plays only the options of its shipped networks."""
    from bordspel.zero import plays_options

    played = level_options(start.name).get(level)
    if played is None or plays_options(start):
        return None
    written = (", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) for options in played)
    return f"{level} plays {start.name} only with {' or '.join(written)} (its trained networks)"


def make_player(spec: str, game: str, seed: int | None = None) -> Player:
    """A player for ``game`` from a specification (see the module docstring)."""
    name, _, rest = spec.partition(":")
    game_spec(game)  # an unknown game is refused, whatever the player
    if name == "engine":
        from bordspel.engine import EnginePlayer

        return EnginePlayer(rest, seed)
    if spec == "random":
        return RandomPlayer(seed)
    known = knowledge(game)
    if name in known.levels:
        base = known.levels[name]
        player = make_player(base + ("," if ":" in base else ":") + rest if rest else base, game, seed)
        player.name = spec
        return player
    options = Options(rest)
    if name in FACTORIES:
        player = FACTORIES[name](known, options, seed)
    elif name in known.players:
        player = known.players[name]()
    elif (name, game) in _EXTRA_PLAYERS:
        player = _EXTRA_PLAYERS[(name, game)](seed)
    else:
        choices = [*FACTORIES, *known.players, *known.levels, "engine:PROGRAM"]
        raise BordspelError(f"unknown player {spec!r} for {game}: choose one of {', '.join(choices)}")
    if options.values:
        raise BordspelError(f"player {name} has no option {', '.join(options.values)}")
    player.name = spec
    return player


def analyser(player: Player[MoveT] | str, game: str, seed: int | None = None) -> Analyser[MoveT]:
    """``player`` (or the player of that specification for ``game``) as an :class:`Analyser`;
    BordspelError when it does not search."""
    found = make_player(player, game, seed) if isinstance(player, str) else player
    if not isinstance(found, Analyser):
        raise BordspelError(f"{found.name} does not search, so it cannot analyse: try hard or alphabeta")
    return found


def analyse(
    player: Player[MoveT] | str, state: State[MoveT], limit: Limit | None = None, *, seed: int | None = None
) -> SearchResult:
    """The analysis of ``state`` by ``player``, a search player or a specification like ``hard``
    (see :meth:`Analyser.analyse`); BordspelError for a player that does not search."""
    return analyser(player, state.name, seed).analyse(state, limit)
