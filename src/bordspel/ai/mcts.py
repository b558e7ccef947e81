"""Monte Carlo tree search (UCT) over the game protocol, for any number of seats.

Each node keeps the total reward of the seat that moved into it, so selection is max-n: every
seat picks what is best for itself, for two, three or four players; random playouts end in
``Outcome.returns()``. A search can go on from the tree of an earlier one (``tree=``): the
subtree of the position reached keeps its statistics.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bordspel.core import State

__all__ = ["MCTSResult", "MCTSTree", "mcts"]

Playout = Callable[[State, random.Random], tuple[float, ...]]


class _Node:
    __slots__ = ("children", "mover", "move", "reward", "state", "untried", "visits")

    def __init__(self, state: State, move: Any, mover: int, rng: random.Random) -> None:
        self.state, self.move, self.mover = state, move, mover
        self.children: list[_Node] = []
        self.untried = state.legal_moves()
        rng.shuffle(self.untried)
        self.visits, self.reward = 0, 0.0

    def select(self, exploration: float) -> _Node:
        log_visits = math.log(self.visits)
        return max(
            self.children,
            key=lambda c: c.reward / c.visits + exploration * math.sqrt(log_visits / c.visits),
        )

    def most_visited(self) -> _Node:
        return max(self.children, key=lambda c: c.visits)


class MCTSTree:
    """A search tree that a later search can continue from."""

    def __init__(self, root: _Node) -> None:
        self.root = root

    def reused(self, state: State, plies: int = 4) -> MCTSTree | None:
        """The subtree of ``state`` when it lies within ``plies`` plies of the root, else None."""
        frontier = [self.root]
        for _ in range(plies + 1):
            for node in frontier:
                if node.state == state:
                    return MCTSTree(node)
            frontier = [child for node in frontier for child in node.children]
        return None


@dataclass
class MCTSResult:
    """The move MCTS chose, with its playouts, time and mean reward."""

    move: Any
    playouts: int
    seconds: float
    value: float
    """The chosen move's mean reward for the player to move, from -1 to +1."""
    tree: MCTSTree

    def line(self) -> list[Any]:
        """The most visited line from the root (the principal variation)."""
        moves, node = [], self.tree.root
        while node.children:
            node = node.most_visited()
            moves.append(node.move)
        return moves


def random_playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """Play uniformly random moves to the end; the returns of every seat."""
    while True:
        outcome = state.outcome()
        if outcome is not None:
            return outcome.returns()
        state = state.apply_unchecked(state.random_move(rng))


def mcts(
    root: State,
    rng: random.Random,
    *,
    playouts: int | None = None,
    time_limit: float | None = None,
    exploration: float = 1.4,
    playout: Playout = random_playout,
    tree: MCTSTree | None = None,
) -> MCTSResult:
    """Search until ``playouts`` playouts are done or ``time_limit`` seconds have passed
    (at least one playout), continuing ``tree`` when given (its root must be ``root``)."""
    if playouts is None and time_limit is None:
        raise ValueError("give mcts a playout or a time limit")
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    node = tree.root if tree is not None else _Node(root, None, -1, rng)
    if not node.untried and not node.children:
        raise ValueError("the game is over: there is no move to search")
    done = 0
    while done == 0 or (
        (playouts is None or done < playouts) and (deadline is None or time.perf_counter() < deadline)
    ):
        _iterate(node, rng, exploration, playout)
        done += 1
    best = node.most_visited()
    value = best.reward / best.visits
    return MCTSResult(best.move, done, time.perf_counter() - started, value, MCTSTree(node))


def _iterate(tree: _Node, rng: random.Random, exploration: float, playout: Playout) -> None:
    node, path = tree, [tree]
    while not node.untried and node.children:
        node = node.select(exploration)
        path.append(node)
    if node.untried:
        move = node.untried.pop()
        child = _Node(node.state.apply_unchecked(move), move, node.state.to_move, rng)
        node.children.append(child)
        node, path = child, [*path, child]
    returns = playout(node.state, rng)
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.reward += returns[visited.mover]
