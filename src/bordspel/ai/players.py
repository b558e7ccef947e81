"""Players: one interface (``step(state) -> move``), seeded randomness, time, depth or node limits.

Search players also answer ``analyse(state, limit)`` (python-chess's ``engine.analyse``): the
best move with its score, depth, nodes, principal variation and time; ``analysis(state, limit)``
streams the same for every depth of the iterative deepening. With ``multipv=N``,
``analyse_lines`` gives the best N root moves, each with its own score and line (alpha-beta
searches again without the better moves; MCTS ranks its root moves by visits), and
``analysis`` streams every line's results, tagged with their rank.

A time limit is the whole budget of a move: the solver (when the game has one) gets at most
its share, the search the rest, and both stop within a few milliseconds of their deadlines.
"""

from __future__ import annotations

import abc
import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from bordspel.ai import search
from bordspel.ai.mcts import MCTSTree, Playout, Prior, Value, mcts, random_playout
from bordspel.ai.search import (
    DECISIVE,
    WIN,
    Evaluation,
    FastSearch,
    Limit,
    Search,
    Searcher,
    SearchResult,
    deadline_after,
    last,
)
from bordspel.core import IllegalMoveError, MoveT, State

__all__ = [
    "AlphaBetaPlayer",
    "Analyser",
    "Endgame",
    "GreedyPlayer",
    "MCTSPlayer",
    "Narrowed",
    "Player",
    "Proven",
    "RandomPlayer",
    "SearchesInRounds",
    "SolverEndgame",
    "close_player",
]

PUCT_EXPLORATION = 2.0
"""PUCT's constant (AlphaZero's c_puct)."""

SOLVER_SHARE = 0.9
"""The most of a move's time a solver may use: the rest is kept for the search."""


class Player(Protocol[MoveT]):
    """Anything that plays: a ``name`` and ``step(state)``, the move it makes there.

    ``Player[HermitMove]`` plays Hermit; a bare ``Player`` plays any game. Search players are
    also analysers (:class:`Analyser`).
    """

    name: str
    """The specification it was made from (``make_player``), or its kind (``random``)."""

    def step(self, state: State[MoveT]) -> MoveT:
        """The move this player makes in ``state``."""


def close_player(player: Player) -> None:
    """End what ``player`` holds open (an engine program's process), if anything."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


@runtime_checkable
class Analyser(Player[MoveT], Protocol[MoveT]):
    """A player that searches and says what it found: alpha-beta and MCTS, so every level but
    ``random`` and ``greedy`` ones. ``isinstance(player, Analyser)`` tells, and narrows the type
    of ``make_player``'s answer; ``bordspel.ai.analyse(spec, state)`` does both in one call.
    """

    def analyse(self, state: State[MoveT], limit: Limit | None = None) -> SearchResult:
        """The best move in ``state`` with its score, depth, nodes, principal variation and time
        (within ``limit``, else the player's own)."""

    def analysis(
        self,
        state: State[MoveT],
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[MoveT] | None = None,
    ) -> Iterator[SearchResult]:
        """The analysis after every finished depth of the search (MCTS: one, at the end); with
        ``multipv`` N, that of each of the best N lines in turn (``SearchResult.multipv``); with
        ``root_moves``, among those moves only (the engine protocol's ``searchmoves``)."""

    def analyse_lines(
        self,
        state: State[MoveT],
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[MoveT] | None = None,
    ) -> list[SearchResult]:
        """The best ``multipv`` root moves (fewer when fewer are legal; among ``root_moves`` when
        given), best first, each with its score, depth and principal variation; ``limit``'s time
        and nodes are shared among them."""


def final_lines(results: Iterable[SearchResult]) -> list[SearchResult]:
    """The last result of each line of a multi-PV stream, by rank."""
    lines: dict[int, SearchResult] = {}
    for result in results:
        lines[result.multipv] = result
    return [lines[rank] for rank in sorted(lines)]


def _line_limit(limit: Limit, lines: int) -> Limit:
    """Each line's share of a multi-PV analysis's time and nodes (the depth is each line's)."""
    time_share = None if limit.time is None else limit.time / lines
    nodes = None if limit.nodes is None else max(1, limit.nodes // lines)
    return Limit(time_share, limit.depth, nodes)


def _line_count(state: State, multipv: int, root_moves: Sequence[Any] | None = None) -> int:
    """How many lines a multi-PV analysis of ``state`` gives: ``multipv``, at most one a move
    (of ``root_moves`` when given: legal moves, at least one)."""
    if multipv < 1:
        raise ValueError(f"multipv is the number of lines, 1 or more, not {multipv}")
    _require_moves(state)
    if root_moves is None:
        return 1 if multipv == 1 else min(multipv, state.count_moves())
    illegal = [move for move in root_moves if not state.is_legal(move)]
    if not root_moves or illegal:
        raise ValueError(f"the moves to search are legal moves, at least one, not {list(root_moves)!r}")
    return min(multipv, len(root_moves))


@dataclass(frozen=True)
class Proven:
    """A solver's answer: a best move and the exact result for the player to move."""

    move: Any
    result: str
    """``win``, ``draw`` or ``loss``."""
    plies: int | None = None
    """Plies to the end with best play, when the solver knows."""

    def score(self) -> float:
        """The result on the search's scale (``DECISIVE`` for a win of unknown length)."""
        if self.result == "draw":
            return 0.0
        value = DECISIVE if self.plies is None else WIN - self.plies
        return value if self.result == "win" else -value


@dataclass(frozen=True)
class Narrowed:
    """A solver's partial answer: every move but ``moves`` is proven to lose, and none of
    ``moves`` is proven to win; the search chooses among them."""

    moves: tuple[Any, ...]


class Endgame(Protocol):
    """An exact solver for search players: a proven move, or None when it cannot tell in time
    (or, from solvers that settle moves one by one, the moves it could not refute)."""

    def solve(self, state: State, deadline: float | None) -> Proven | Narrowed | None:
        """The proven move, the moves left open (:class:`Narrowed`), or None when ``state`` is
        out of reach or ``deadline`` passes."""


class SolverEndgame:
    """Base of the games' endgames: ``endgame(state)`` is the proven move within ``time_limit``."""

    time_limit: float | None

    def solve(self, state: State, deadline: float | None) -> Proven | Narrowed | None:
        """The proven move, or None when ``state`` is out of reach or ``deadline`` passes."""
        raise NotImplementedError

    def __call__(self, state: State) -> Any:
        proven = self.solve(state, deadline_after(self.time_limit))
        return proven.move if isinstance(proven, Proven) else None


def _require_moves(state: State) -> None:
    """IllegalMoveError when ``state`` is finished: no player makes up a move there."""
    if state.is_over():
        raise IllegalMoveError("the game is over: there is no move to make")


class RandomPlayer:
    """Uniformly random legal moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def step(self, state: State) -> Any:
        """A uniformly random legal move."""
        return state.random_move(self.rng)


class GreedyPlayer:
    """One ply: wins at once when it can, else the move the evaluation likes best (ties random)."""

    def __init__(self, evaluate: Evaluation, seed: int | None = None) -> None:
        self.name = "greedy"
        self.evaluate = evaluate
        self.rng = random.Random(seed)

    def step(self, state: State) -> Any:
        """A move whose position the evaluation likes best (a win first), ties broken at random."""
        _require_moves(state)
        seat, best, chosen = state.to_move, -float("inf"), []
        for move in state.legal_moves():
            value = self._value(state.apply_unchecked(move), seat)
            if value > best:
                best, chosen = value, [move]
            elif value == best:
                chosen.append(move)
        return self.rng.choice(chosen)

    def _value(self, child: State, seat: int) -> float:
        outcome = child.outcome()
        if outcome is None:
            return self.evaluate(child, seat)
        if outcome.is_draw:
            return 0.0
        return WIN if seat in outcome.winners else -WIN


@dataclass(frozen=True)
class SearchOptions:
    """How the alpha-beta player searches (all on by default; ``hard-v1`` turns them off)."""

    order: Callable[[State, list[Any]], list[Any]] | None = None
    pvs: bool = True
    extend: Callable[[State], bool] | None = None
    reduce: Callable[[State], bool] | None = None
    """Positions quiet enough for late move reductions (``Searcher``'s ``reduce``), or None."""
    key: Callable[[State], Hashable] | None = None
    opening: Callable[[State], Any] | None = None
    """A move for positions the search should not think about (e.g. a setup table), or None."""
    fast_search: FastSearch | None = None
    """The game's faster (compiled) search where it covers a position, or None."""


class _Solving:
    """The solver step that alpha-beta and MCTS players share: at most ``solver_time`` of a move."""

    endgame: Endgame | None
    solver_time: float | None
    limit: Limit

    def _begin(self, state: State, limit: Limit | None) -> _Start:
        """The limit in force, the start, the move's deadline, and the solver's answer if any;
        IllegalMoveError on a finished position (before any solver can make up a move there)."""
        _require_moves(state)
        limit = self.limit if limit is None else limit
        started = time.perf_counter()
        deadline = deadline_after(limit.time, started)
        answer = self._solved(state, started, deadline)
        if not isinstance(answer, Proven):
            return _Start(limit, started, deadline, None, None if answer is None else list(answer.moves))
        seconds = time.perf_counter() - started
        proven = SearchResult(answer.move, answer.score(), 0, 0, seconds, [answer.move], proven=True)
        return _Start(limit, started, deadline, proven, None)

    def _solved(self, state: State, started: float, deadline: float | None) -> Proven | Narrowed | None:
        if self.endgame is None:
            return None
        share = self.solver_time
        if deadline is not None:
            budget = SOLVER_SHARE * (deadline - started)
            share = budget if share is None else min(share, budget)
        return self.endgame.solve(state, deadline_after(share, started))


@dataclass(frozen=True)
class _Start:
    """How a move's search begins: its limit, start and deadline, and what the solver said."""

    limit: Limit
    started: float
    deadline: float | None
    proven: SearchResult | None
    """The solver's proven move, when it found one."""
    moves: list[Any] | None
    """The moves the solver left open (the others lose), or None for every legal move."""


class AlphaBetaPlayer(_Solving):
    """Alpha-beta search with iterative deepening; an optional solver answers endgames first."""

    def __init__(
        self,
        evaluate: Evaluation,
        *,
        time_limit: float | None = 1.0,
        max_depth: int = 64,
        max_nodes: int | None = None,
        order: Callable[[State, list[Any]], list[Any]] | None = None,
        endgame: Endgame | None = None,
        solver_time: float | None = None,
        search_time: float | None = None,
        options: SearchOptions | None = None,
    ) -> None:
        if time_limit is None and max_nodes is None and max_depth >= 64:
            raise ValueError("give alpha-beta a time, node or depth limit")
        self.name = "alphabeta"
        self.evaluate, self.endgame = evaluate, endgame
        self.options = options if options is not None else SearchOptions(order=order)
        self.limit = Limit(time_limit, None if max_depth >= 64 else max_depth, max_nodes)
        self.solver_time, self.search_time = solver_time, search_time
        self.last: SearchResult | None = None

    def step(self, state: State) -> Any:
        """The move of ``analyse(state)``."""
        return self.analyse(state).move

    def analyse(self, state: State, limit: Limit | None = None) -> SearchResult:
        """The best move in ``state`` with its score, depth, nodes, principal variation and time."""
        started = time.perf_counter()
        with search.collector_paused():
            result = last(self.analysis(state, limit))
        result.seconds = time.perf_counter() - started
        self.last = result
        return result

    def analyse_lines(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> list[SearchResult]:
        """The best ``multipv`` moves, best first (see :meth:`Analyser.analyse_lines`)."""
        with search.collector_paused():
            return final_lines(self.analysis(state, limit, multipv, root_moves))

    def analysis(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> Iterator[SearchResult]:
        """The analysis after every finished depth (one proven answer when the solver settles it);
        with ``multipv`` N, each next line is a search without the moves of the lines before (and
        no line is the opening table's, whose moves have no score to rank); with ``root_moves``,
        a search without the other moves (neither solver nor opening table)."""
        lines = _line_count(state, multipv, root_moves)
        if lines == 1 and root_moves is None:
            yield from self._analysis(state, limit)
            return
        share = _line_limit(self.limit if limit is None else limit, lines)
        excluded = [] if root_moves is None else [m for m in state.legal_moves() if m not in root_moves]
        for rank in range(1, lines + 1):
            stream = (
                self._analysis(state, share, book=False)
                if rank == 1 and root_moves is None
                else self._without(state, share, excluded)
            )
            for result in stream:
                result.multipv = rank
                yield result
            excluded.append(result.move)

    def _without(self, state: State, limit: Limit, excluded: list[Any]) -> Iterator[SearchResult]:
        """The search of ``state`` among the moves not in ``excluded`` (scores proven only when
        the search itself forces them)."""
        started = time.perf_counter()
        moves = [move for move in state.legal_moves() if move not in excluded]
        deadline = search.earliest(
            deadline_after(limit.time, started), deadline_after(self.search_time, started)
        )
        for result in self._searcher(state, limit, deadline, moves).iterate(state):
            result.seconds = time.perf_counter() - started
            yield result

    def _analysis(self, state: State, limit: Limit | None, book: bool = True) -> Iterator[SearchResult]:
        """The analysis of one line: the solver's, the opening table's (with ``book``), or the
        search's after every depth."""
        start = self._begin(state, limit)
        if start.proven is not None:
            yield start.proven
            return
        opening = self.options.opening if book else None
        move = None if opening is None else opening(state)
        if move is not None:
            yield SearchResult(move, 0.0, 0, 0, time.perf_counter() - start.started, [move])
            return
        deadline = search.earliest(start.deadline, deadline_after(self.search_time))
        searcher = self._searcher(state, start.limit, deadline, start.moves)
        for result in searcher.iterate(state):
            result.seconds = time.perf_counter() - start.started  # the solver's time included
            yield result

    def _searcher(
        self, state: State, limit: Limit, deadline: float | None, moves: list[Any] | None = None
    ) -> Search:
        """The pure search with this player's settings (among ``moves`` at the root, when
        given), or the game's faster one where it has it."""
        options = self.options
        searcher = Searcher(
            self.evaluate,
            max_depth=64 if limit.depth is None else limit.depth,
            max_nodes=limit.nodes,
            order=options.order,
            deadline=deadline,
            pvs=options.pvs,
            extend=options.extend,
            reduce=options.reduce,
            key=options.key,
            root_moves=moves,
        )
        if moves is not None or options.fast_search is None:
            return searcher
        fast = options.fast_search(state, searcher)
        return searcher if fast is None else fast


class SearchesInRounds(abc.ABC):
    """A search with no depths to stream (MCTS, zero): it reports its lines once, at its end;
    an infinite analysis runs ever longer searches."""

    searches_in_rounds: ClassVar[bool] = True

    @abc.abstractmethod
    def analyse_lines(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> list[SearchResult]:
        """The best ``multipv`` root moves (see :meth:`Analyser.analyse_lines`)."""

    def analyse(self, state: State, limit: Limit | None = None) -> SearchResult:
        """The best line of :meth:`analyse_lines`."""
        return self.analyse_lines(state, limit)[0]

    def analysis(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> Iterator[SearchResult]:
        """The lines of :meth:`analyse_lines`, at the end of the search."""
        yield from self.analyse_lines(state, limit, multipv, root_moves)


class MCTSPlayer(_Solving, SearchesInRounds):
    """Monte Carlo tree search, seeded: UCT with random playouts (the game's own when it has
    them), or PUCT with a ``guide`` (the game's move priors and leaf values).

    With ``reuse`` the subtree of the position reached is kept from the previous move.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        playouts: int | None = 1000,
        time_limit: float | None = None,
        endgame: Endgame | None = None,
        playout: Playout | None = None,
        solver_time: float | None = None,
        reuse: bool = False,
        guide: tuple[Prior, Value] | None = None,
    ) -> None:
        self.name = "mcts"
        self.guide = guide
        self.rng = random.Random(seed)
        self.limit = Limit(time_limit, None, playouts)
        self.endgame, self.solver_time, self.reuse = endgame, solver_time, reuse
        self.playout = random_playout if playout is None else playout
        self.tree: MCTSTree | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "tree": None}

    def step(self, state: State) -> Any:
        """The move of ``analyse(state)``."""
        return self.analyse(state).move

    def analyse_lines(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> list[SearchResult]:
        """The ``multipv`` most visited root moves (among ``root_moves`` when given), each with its
        mean return (x 100 as the score), the playouts as nodes and its most visited line as
        principal variation; a move the solver proves comes first, the search ranks the others."""
        lines = _line_count(state, multipv, root_moves)
        start = self._begin(state, limit)
        candidates = state.legal_moves() if root_moves is None else list(root_moves)
        if start.proven is None or start.proven.move not in candidates:
            open_moves = start.moves if start.proven is None and root_moves is None else candidates
            return self._search(state, start, open_moves)[:lines]
        if lines == 1:
            return [start.proven]
        others = [move for move in candidates if move != start.proven.move]
        return [start.proven, *self._search(state, start, others, first_rank=2)[: lines - 1]]

    def _search(
        self, state: State, start: _Start, moves: list[Any] | None, first_rank: int = 1
    ) -> list[SearchResult]:
        """Every root move of one search among ``moves`` (None: all), most visited first, ranked
        from ``first_rank``."""
        limit, started, deadline = start.limit, start.started, start.deadline
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        tree = self.tree.reused(state) if self.reuse and self.tree is not None else None
        prior, value = self.guide if self.guide is not None else (None, None)
        found = mcts(
            state,
            self.rng,
            playouts=limit.nodes,
            time_limit=remaining,
            playout=self.playout,
            tree=tree,
            prior=prior,
            value=value,
            exploration=1.4 if prior is None else PUCT_EXPLORATION,
            root_moves=moves,
        )
        self.tree = found.tree if self.reuse else None
        seconds = time.perf_counter() - started
        return [
            SearchResult(line[0], 100 * value, len(line), found.playouts, seconds, line, multipv=rank)
            for rank, (line, value) in enumerate(found.ranked(), first_rank)
        ]
