"""Game-agnostic alpha-beta search: negamax with iterative deepening, principal-variation search,
a transposition table, move ordering (table move, killer moves, history), optional extensions,
and a time, depth or node limit.

Seats are split into two sides: the root player's team and everybody else. Negamax negates a
child's value only when the side to move changes, so two-player games, two teams of two and
three players ("paranoid": the others are assumed to play together) share one search.

Every search in bordspel scores on one scale (:data:`WIN`): a win ``k`` plies away is
``WIN - k``, a loss ``-(WIN - k)``, a draw 0, anything else is the game's evaluation (far
smaller than ``WIN``). :class:`SearchResult` says which it is.
"""

from __future__ import annotations

import contextlib
import gc
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from bordspel.core import BordspelError, State

__all__ = [
    "WIN",
    "Evaluation",
    "FastSearch",
    "Limit",
    "OutOfTime",
    "Search",
    "SearchResult",
    "Searcher",
    "collector_paused",
    "deadline_after",
    "earliest",
    "from_table",
    "last",
    "to_table",
]

WIN = 1_000_000
"""The score of a win at the root; a win ``k`` plies away scores ``WIN - k``."""

DECISIVE = WIN - 1000
"""Scores beyond this (either sign) are proven wins or losses, not evaluations; exactly
``DECISIVE`` is a proven win of unknown length (a solver's, say)."""

Evaluation = Callable[[State, int], float]
"""``evaluate(state, seat)``: how good a non-final position is for ``seat``'s team."""

EXACT, LOWER, UPPER = 0, 1, 2

REDUCE_FROM = 4
"""With late move reductions: the moves of a position searched in full before later quiet ones
are tried a ply shallower."""


class OutOfTime(Exception):
    """A search or solver ran out of its time or node budget."""


class _Pauses:
    """How many searches run with the collector paused, whether it was on before the first, and
    since when (a process whose searches overlap without a break still collects now and then)."""

    lock = threading.Lock()
    count = 0
    was_enabled = False
    since = 0.0


LONGEST_PAUSE = 60.0
"""Seconds after which a search that ends collects once, though others still run."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a search runs, back on (if it was) when the
    last such search in the process ends. A search makes millions of tuples and nodes without
    cycles, freed by their reference counts when it ends; the collector's passes over its growing
    tables took a quarter to a third of its time (``perf`` on Santorini with gods). Pause around
    a whole search, its objects gone at the end: the first pass after a pause visits every
    object made during it that is still there."""
    with _Pauses.lock:
        if _Pauses.count == 0:
            _Pauses.was_enabled, _Pauses.since = gc.isenabled(), time.monotonic()
            gc.disable()
        _Pauses.count += 1
    try:
        yield
    finally:
        with _Pauses.lock:
            _Pauses.count -= 1
            if _Pauses.count == 0 and _Pauses.was_enabled:
                gc.enable()
            elif _Pauses.was_enabled and time.monotonic() - _Pauses.since > LONGEST_PAUSE:
                gc.collect()
                _Pauses.since = time.monotonic()


@dataclass(frozen=True)
class Limit:
    """How long to think: seconds, plies and/or nodes (the first one reached stops the search).

    Depth and node limits are deterministic (the same answer on any machine, under any load);
    a time limit depends on the machine's speed and load.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        """Refuse a budget that is not one at once, saying which and what it takes."""
        seconds = self.time
        is_number = isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
        if seconds is not None and not (is_number and 0 <= seconds < math.inf):
            raise BordspelError(f"Limit(time=...) is a number of seconds of at least 0, not {seconds!r}")
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 1):
                raise BordspelError(f"Limit({name}=...) is a whole number of at least 1, not {value!r}")

    def is_deterministic(self) -> bool:
        """Whether the answer depends only on the position (no clock)."""
        return self.time is None


def deadline_after(seconds: float | None, started: float | None = None) -> float | None:
    """The ``time.perf_counter()`` value ``seconds`` from ``started`` (now), or None for no limit."""
    if seconds is None:
        return None
    return (time.perf_counter() if started is None else started) + seconds


@dataclass
class SearchResult:
    """What a search found: the move, its score (see the module docstring) and how it got there."""

    move: Any
    score: float
    depth: int
    nodes: int
    seconds: float
    principal_variation: list[Any] = field(default_factory=list)
    proven: bool = False
    """The score is exact (a solver or a forced result), not an evaluation."""
    multipv: int = 1
    """The line's rank in a multi-PV analysis (1: the best move)."""

    @property
    def result(self) -> str | None:
        """``win``, ``draw`` or ``loss`` for the player to move when known, else None."""
        if self.score >= DECISIVE:
            return "win"
        if self.score <= -DECISIVE:
            return "loss"
        return "draw" if self.proven and self.score == 0 else None

    @property
    def plies_to_end(self) -> int | None:
        """Plies until the game ends with best play, for a forced win or loss of known length."""
        if abs(self.score) > DECISIVE:
            return int(WIN - abs(self.score))
        return None

    def describe(self) -> str:
        """The score as people read it: ``win in 3 plies`` (``win`` when the length is
        unknown), ``draw``, or ``eval +12.5``."""
        plies = self.plies_to_end
        if self.result in ("win", "loss"):
            return f"{self.result}" + ("" if not plies else f" in {plies} pl{'y' if plies == 1 else 'ies'}")
        if self.result == "draw":
            return "draw"
        return f"eval {self.score:+.1f}"


class Searcher:
    """One search (a fresh table) from a root position; ``run`` deepens until a limit.

    ``pvs`` searches every move after the first with a null window first (principal-variation
    search). ``extend(state)`` says whether a position deserves one more ply (a threat that must
    be answered); extensions stop once a line is twice the iteration's depth. ``reduce(state)``
    says whether a position is quiet enough for late move reductions: below the root, a move
    after the first :data:`REDUCE_FROM` that leads to such a position is first searched a ply
    shallower with a null window, and in full only when it seems to raise alpha. ``key(state)`` is
    the transposition table's key (default: the state itself), e.g. a Zobrist hash.
    ``root_moves`` limits the moves searched at the root (e.g. those a solver left open).
    """

    def __init__(
        self,
        evaluate: Evaluation,
        *,
        time_limit: float | None = None,
        max_depth: int = 64,
        max_nodes: int | None = None,
        order: Callable[[State, list[Any]], list[Any]] | None = None,
        deadline: float | None = None,
        pvs: bool = False,
        extend: Callable[[State], bool] | None = None,
        reduce: Callable[[State], bool] | None = None,
        key: Callable[[State], Hashable] | None = None,
        root_moves: list[Any] | None = None,
    ) -> None:
        self.evaluate = evaluate
        self.root_moves = root_moves
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.order = order
        self.fixed_deadline = deadline
        self.pvs, self.extend, self.reduce = pvs, extend, reduce
        self.key: Callable[[State], Hashable] = key if key is not None else _itself
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.history: dict[Any, int] = {}
        self.killers: dict[int, list[Any]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.root_best: tuple[float, Any] | None = None
        """The best root move of the depth being searched so far, with its value."""

    def run(self, root: State) -> SearchResult:
        """Iterative deepening; when a limit is reached, the best move of the deepest finished depth."""
        started = time.perf_counter()
        with collector_paused():
            best = last(self.iterate(root))
        best.nodes, best.seconds = self.nodes, time.perf_counter() - started
        return best

    def iterate(self, root: State) -> Iterator[SearchResult]:
        """The result of every finished depth as it finishes, then what a depth stopped by a limit
        found (:meth:`_stopped`)."""
        started = time.perf_counter()
        self.deadline = earliest(self.fixed_deadline, deadline_after(self.time_limit, started))
        self.root_team = root.team(root.to_move)
        moves = root.legal_moves() if self.root_moves is None else self.root_moves
        if not moves:
            raise ValueError("the game is over: there is no move to search")
        finished, best = 0, None
        for depth in range(1, self.max_depth + 1):
            self.root_depth, self.root_best = depth, None
            try:
                score = self._negamax(root, depth, -WIN - 1, WIN + 1, 0)
            except OutOfTime:
                break
            finished = depth
            forced = abs(score) >= DECISIVE  # proven, also when extensions found it
            best = self.table[self.key(root)][3]
            yield SearchResult(
                best,
                score,
                depth,
                self.nodes,
                time.perf_counter() - started,
                self._variation(root, 2 * depth),
                forced,
            )
            if forced or len(moves) == 1:
                return  # a forced result is known: deeper search cannot change it
        yield from self._stopped(finished, best, moves, started)

    def _stopped(self, finished: int, best: Any, moves: list[Any], started: float) -> Iterator[SearchResult]:
        """When a limit stopped a depth: the root move its finished part found better than the
        last finished depth's (the first it searched), else, when no depth finished, the best
        of the moves searched, else the first legal move."""
        elapsed = time.perf_counter() - started
        if self.root_best is not None and self.root_best[1] != best:
            score, move = self.root_best
            yield SearchResult(move, score, finished, self.nodes, elapsed, [move], abs(score) >= DECISIVE)
        elif not finished:
            yield SearchResult(moves[0], 0.0, 0, self.nodes, elapsed, [moves[0]])

    def _side(self, state: State) -> bool:
        return state.to_move in self.root_team

    def _leaf(self, state: State) -> float:
        value = self.evaluate(state, min(self.root_team))
        return value if self._side(state) else -value

    def _final(self, state: State, ply: int) -> float | None:
        outcome = state.outcome()
        if outcome is None:
            return None
        if outcome.is_draw:
            return 0.0
        return WIN - ply if state.to_move in outcome.winners else -(WIN - ply)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        self._check_limits()
        final = self._final(state, ply)
        if final is not None:
            return final
        if depth <= 0:
            return self._leaf(state)
        key = self.key(state)
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            stored_depth, stored, flag, table_move = entry
            if stored_depth >= depth:
                value = from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        original_alpha, best_value, best_move = alpha, -WIN - 1.0, None
        side = self._side(state)
        for index, move in enumerate(self._ordered(state, table_move, ply)):
            child = state.apply_unchecked(move)
            value = self._move_value(child, index, depth, alpha, beta, ply, self._side(child) == side)
            if value > best_value:
                best_value, best_move = value, move
                if ply == 0:
                    self.root_best = (value, move)
            alpha = max(alpha, value)
            if alpha >= beta:
                self._remember_cut(move, depth, ply)
                break
        flag = EXACT if original_alpha < best_value < beta else (LOWER if best_value >= beta else UPPER)
        self.table[key] = (depth, to_table(best_value, ply), flag, best_move)
        return best_value

    def _move_value(
        self, child: State, index: int, depth: int, alpha: float, beta: float, ply: int, same: bool
    ) -> float:
        """The value of the ``index``-th move (leading to ``child``) for the player at this node,
        in the window (alpha, beta): principal-variation search, extensions and reductions."""
        child_depth = depth - 1 + self._extension(child, depth, ply)
        reduce = self.reduce
        if reduce is not None and ply > 0 and index >= REDUCE_FROM and child_depth >= 1 and reduce(child):
            value = self._child(child, child_depth - 1, alpha, alpha + 1, ply, same)
            if value <= alpha:
                return value
        if not (self.pvs and index > 0):
            return self._child(child, child_depth, alpha, beta, ply, same)
        value = self._child(child, child_depth, alpha, alpha + 1, ply, same)
        if alpha < value < beta:
            value = self._child(child, child_depth, value, beta, ply, same)
        return value

    def _child(self, child: State, depth: int, alpha: float, beta: float, ply: int, same: bool) -> float:
        """The child's value for the player at this node, in the window (alpha, beta)."""
        if same:
            return self._negamax(child, depth, alpha, beta, ply + 1)
        return -self._negamax(child, depth, -beta, -alpha, ply + 1)

    def _extension(self, child: State, depth: int, ply: int) -> int:
        """One more ply for a threat, while the line stays within twice the iteration's depth."""
        if self.extend is None or ply + depth >= 2 * self.root_depth:
            return 0
        return 1 if self.extend(child) else 0

    def _remember_cut(self, move: Any, depth: int, ply: int) -> None:
        """Killer moves (two a ply) and history scores of the move that caused a cut-off."""
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _ordered(self, state: State, table_move: Any, ply: int) -> list[Any]:
        moves = state.legal_moves() if ply or self.root_moves is None else list(self.root_moves)
        if self.order is not None:
            moves = self.order(state, moves)
        history = self.history
        moves.sort(key=lambda m: -history.get(m, 0))
        for first in (*reversed(self.killers.get(ply, ())), table_move):
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves

    def _check_limits(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfTime

    def _variation(self, state: State, depth: int) -> list[Any]:
        line = []
        for _ in range(depth):
            entry = self.table.get(self.key(state))
            if entry is None or entry[3] is None or state.is_over():
                break
            line.append(entry[3])
            state = state.apply_unchecked(entry[3])
        return line


class Search(Protocol):
    """What deepens like a :class:`Searcher` (a compiled search, say)."""

    def iterate(self, root: State) -> Iterator[SearchResult]:
        """The result of every finished depth, as ``Searcher.iterate``."""


FastSearch = Callable[[State, Searcher], Search | None]
"""``fast(root, searcher)``: a faster search with ``searcher``'s evaluation and limits for the
positions it covers (a compiled one), else None."""


def last(results: Iterable[SearchResult]) -> SearchResult:
    """The last result of a stream (the deepest analysis)."""
    return deque(results, maxlen=1)[0]


def _itself(state: State) -> Hashable:
    return state


def earliest(first: float | None, second: float | None) -> float | None:
    """The earlier of two deadlines (None: no deadline)."""
    if first is None:
        return second
    return first if second is None else min(first, second)


def to_table(value: float, ply: int) -> float:
    """Win scores are stored relative to the node, so they stay right wherever it recurs."""
    if value >= DECISIVE:
        return value + ply
    if value <= -DECISIVE:
        return value - ply
    return value


def from_table(value: float, ply: int) -> float:
    """A score read back from the table at ``ply``: a win's distance counted from the root again."""
    if value >= DECISIVE:
        return value - ply
    if value <= -DECISIVE:
        return value + ply
    return value
