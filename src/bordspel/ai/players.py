"""Players: one interface (``step(state) -> move``), seeded randomness, time or node limits."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from bordspel.ai.mcts import Playout, mcts, random_playout
from bordspel.ai.search import WIN, Evaluation, Searcher, SearchResult
from bordspel.core import MoveT, State

__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "MCTSPlayer", "Player", "RandomPlayer"]

Endgame = Callable[[State], Any]
"""A solver: the best move when it can answer in its time, else None."""


class Player(Protocol[MoveT]):
    name: str

    def step(self, state: State[MoveT]) -> MoveT:
        """The move this player makes in ``state``."""


class RandomPlayer:
    """Uniformly random legal moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def step(self, state: State) -> Any:
        return state.random_move(self.rng)


class GreedyPlayer:
    """One ply: wins at once when it can, else the move the evaluation likes best (ties random)."""

    def __init__(self, evaluate: Evaluation, seed: int | None = None) -> None:
        self.name = "greedy"
        self.evaluate = evaluate
        self.rng = random.Random(seed)

    def step(self, state: State) -> Any:
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


class AlphaBetaPlayer:
    """Alpha-beta search with iterative deepening; an optional solver answers endgames."""

    def __init__(
        self,
        evaluate: Evaluation,
        *,
        time_limit: float | None = 1.0,
        max_depth: int = 64,
        max_nodes: int | None = None,
        order: Callable[[State, list[Any]], list[Any]] | None = None,
        endgame: Endgame | None = None,
    ) -> None:
        if time_limit is None and max_nodes is None and max_depth >= 64:
            raise ValueError("give alpha-beta a time, node or depth limit")
        self.name = "alphabeta"
        self.evaluate, self.order, self.endgame = evaluate, order, endgame
        self.time_limit, self.max_depth, self.max_nodes = time_limit, max_depth, max_nodes
        self.last: SearchResult | None = None

    def step(self, state: State) -> Any:
        if self.endgame is not None:
            move = self.endgame(state)
            if move is not None:
                return move
        searcher = Searcher(
            self.evaluate,
            time_limit=self.time_limit,
            max_depth=self.max_depth,
            max_nodes=self.max_nodes,
            order=self.order,
        )
        self.last = searcher.run(state)
        return self.last.move


class MCTSPlayer:
    """Monte Carlo tree search (UCT) with random playouts (the game's own when it has them), seeded."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        playouts: int | None = 1000,
        time_limit: float | None = None,
        endgame: Endgame | None = None,
        playout: Playout | None = None,
    ) -> None:
        self.name = "mcts"
        self.rng = random.Random(seed)
        self.playouts, self.time_limit, self.endgame = playouts, time_limit, endgame
        self.playout = random_playout if playout is None else playout

    def step(self, state: State) -> Any:
        if self.endgame is not None:
            move = self.endgame(state)
            if move is not None:
                return move
        return mcts(
            state, self.rng, playouts=self.playouts, time_limit=self.time_limit, playout=self.playout
        ).move
