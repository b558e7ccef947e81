"""Game-agnostic alpha-beta search: negamax with iterative deepening, a transposition table,
move ordering (table move, killer moves, history) and a time or node limit.

Seats are split into two sides: the root player's team and everybody else. Negamax negates a
child's value only when the side to move changes, so two-player games, two teams of two and
three players ("paranoid": the others are assumed to play together) share one search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from bordspel.core import State

__all__ = ["WIN", "Evaluation", "OutOfTime", "SearchResult", "Searcher"]

WIN = 1_000_000
"""The score of a win at the root; a win ``k`` plies away scores ``WIN - k``."""

Evaluation = Callable[[State, int], float]
"""``evaluate(state, seat)``: how good a non-final position is for ``seat``'s team."""

EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    """A search or solver ran out of its time or node budget."""


@dataclass
class SearchResult:
    """A search's best move, its score for the mover, depth, nodes, time and principal variation."""

    move: Any
    score: float
    depth: int
    nodes: int
    seconds: float
    principal_variation: list[Any] = field(default_factory=list)


class Searcher:
    """One search (a fresh table) from a root position; ``run`` deepens until a limit."""

    def __init__(
        self,
        evaluate: Evaluation,
        *,
        time_limit: float | None = None,
        max_depth: int = 64,
        max_nodes: int | None = None,
        order: Callable[[State, list[Any]], list[Any]] | None = None,
    ) -> None:
        self.evaluate = evaluate
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.order = order
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.history: dict[Any, int] = {}
        self.killers: dict[int, Any] = {}
        self.nodes = 0

    def run(self, root: State) -> SearchResult:
        """Iterative deepening; when time runs out, the best move of the deepest finished depth."""
        started = time.perf_counter()
        self.deadline = None if self.time_limit is None else started + self.time_limit
        self.root_team = root.team(root.to_move)
        moves = root.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to search")
        best = SearchResult(moves[0], 0.0, 0, 0, 0.0, [moves[0]])
        for depth in range(1, self.max_depth + 1):
            try:
                score = self._negamax(root, depth, -WIN - 1, WIN + 1, 0)
            except OutOfTime:
                break
            move = self.table[root][3]
            best = SearchResult(move, score, depth, self.nodes, 0.0, self._variation(root, depth))
            if abs(score) >= WIN - depth or len(moves) == 1:
                break  # a forced result is known: deeper search cannot change it
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - started
        return best

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
        if self.nodes & 1023 == 0:
            self._check_limits()
        final = self._final(state, ply)
        if final is not None:
            return final
        if depth == 0:
            return self._leaf(state)
        entry = self.table.get(state)
        table_move = None
        if entry is not None:
            stored_depth, stored, flag, table_move = entry
            if stored_depth >= depth:
                value = _from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        original_alpha, best_value, best_move = alpha, -WIN - 1.0, None
        side = self._side(state)
        for move in self._ordered(state, table_move, ply):
            child = state.apply_unchecked(move)
            if self._side(child) == side:
                value = self._negamax(child, depth - 1, alpha, beta, ply + 1)
            else:
                value = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                self.killers[ply] = move
                self.history[move] = self.history.get(move, 0) + depth * depth
                break
        flag = EXACT if original_alpha < best_value < beta else (LOWER if best_value >= beta else UPPER)
        self.table[state] = (depth, _to_table(best_value, ply), flag, best_move)
        return best_value

    def _ordered(self, state: State, table_move: Any, ply: int) -> list[Any]:
        moves = state.legal_moves()
        if self.order is not None:
            moves = self.order(state, moves)
        history = self.history
        moves.sort(key=lambda m: -history.get(m, 0))
        killer = self.killers.get(ply)
        for first in (killer, table_move):
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
            entry = self.table.get(state)
            if entry is None or entry[3] is None or state.is_over():
                break
            line.append(entry[3])
            state = state.apply_unchecked(entry[3])
        return line


def _to_table(value: float, ply: int) -> float:
    """Win scores are stored relative to the node, so they stay right wherever it recurs."""
    if value >= WIN - 1000:
        return value + ply
    if value <= -(WIN - 1000):
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= WIN - 1000:
        return value - ply
    if value <= -(WIN - 1000):
        return value + ply
    return value
