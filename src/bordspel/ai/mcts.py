"""Monte Carlo tree search over the game protocol, for any number of seats: UCT with random
playouts, or PUCT guided by the game's evaluation.

Each node keeps the total reward of the seat that moved into it, so selection is max-n: every
seat picks what is best for itself, for two, three or four players; random playouts end in
``Outcome.returns()``. With a ``prior`` (how likely each move is best) and a ``value`` (every
seat's expected return, from an evaluation) the search is PUCT, as in AlphaZero: a leaf is valued
without a playout, and children are tried in the order of their priors, each when its prior
outweighs the visited children's scores. A search can go on from the tree of an earlier one
(``tree=``): the subtree of the position reached keeps its statistics.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bordspel.core import State

__all__ = ["MCTSResult", "MCTSTree", "Prior", "Value", "mcts"]

Playout = Callable[[State, random.Random], tuple[float, ...]]
Value = Callable[[State], tuple[float, ...]]
"""Every seat's expected return (-1 to +1) in an unfinished position, without a playout."""
Prior = Callable[[State, list[Any]], list[float]]
"""``prior(state, moves)``: the probability that each of ``moves`` is the best (they sum to 1)."""


class _Node:
    __slots__ = ("children", "mover", "move", "prior", "priors", "reward", "state", "untried", "visits")

    def __init__(
        self, state: State, move: Any, mover: int, rng: random.Random, prior: Prior | None, p: float = 1.0
    ) -> None:
        self.state, self.move, self.mover, self.prior = state, move, mover, p
        self.children: list[_Node] = []
        self.untried = state.legal_moves()
        self.priors: list[float] = []
        if prior is None:
            rng.shuffle(self.untried)
        elif self.untried:  # the likeliest move last: ``untried.pop()`` takes it first
            ranked = sorted(zip(prior(state, self.untried), range(len(self.untried))))
            self.priors = [p for p, _ in ranked]
            self.untried = [self.untried[index] for _, index in ranked]
        self.visits, self.reward = 0, 0.0

    def select(self, exploration: float) -> _Node:
        log_visits = math.log(self.visits)
        return max(
            self.children,
            key=lambda c: c.reward / c.visits + exploration * math.sqrt(log_visits / c.visits),
        )

    def select_puct(self, exploration: float) -> _Node | None:
        """The child with the best PUCT score, or None when the likeliest untried move's prior
        outscores them all (a new child's value counts as 0)."""
        scale = exploration * math.sqrt(self.visits)
        best = max(
            self.children,
            key=lambda c: c.reward / c.visits + scale * c.prior / (1 + c.visits),
            default=None,
        )
        if self.untried and (best is None or scale * self.priors[-1] > _puct(best, scale)):
            return None
        return best

    def keep_only(self, moves: list[Any]) -> None:
        """Forget every move but ``moves`` (untried ones with their priors, and children)."""
        allowed = set(moves)
        self.children = [child for child in self.children if child.move in allowed]
        if self.priors:
            kept = [(p, m) for p, m in zip(self.priors, self.untried) if m in allowed]
            self.priors, self.untried = [p for p, _ in kept], [m for _, m in kept]
        else:
            self.untried = [m for m in self.untried if m in allowed]

    def most_visited(self) -> _Node:
        return max(self.children, key=lambda c: c.visits)

    def expand(self, rng: random.Random, prior: Prior | None) -> _Node:
        """A child for the next untried move (the likeliest, with priors)."""
        move = self.untried.pop()
        p = self.priors.pop() if self.priors else 1.0
        child = _Node(self.state.apply_unchecked(move), move, self.state.to_move, rng, prior, p)
        self.children.append(child)
        return child


def _puct(node: _Node, scale: float) -> float:
    return node.reward / node.visits + scale * node.prior / (1 + node.visits)


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
        return _line(self.tree.root.most_visited())

    def ranked(self) -> list[tuple[list[Any], float]]:
        """Every root move's most visited line and mean reward (for the player to move), the
        most visited move first."""
        children = sorted(self.tree.root.children, key=lambda c: -c.visits)
        return [(_line(child), child.reward / child.visits) for child in children]


def _line(node: _Node) -> list[Any]:
    """``node``'s move, then the most visited line below it."""
    moves = [node.move]
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
    prior: Prior | None = None,
    value: Value | None = None,
    root_moves: list[Any] | None = None,
) -> MCTSResult:
    """Search until ``playouts`` playouts (leaves valued) are done or ``time_limit`` seconds have
    passed (at least one), continuing ``tree`` when given (its root must be ``root``). With
    ``prior`` the selection is PUCT (``exploration`` is its constant); with ``value`` leaves are
    valued by it instead of ``playout``. ``root_moves`` limits the moves at the root."""
    if playouts is None and time_limit is None:
        raise ValueError("give mcts a playout or a time limit")
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    node = tree.root if tree is not None else _Node(root, None, -1, rng, prior)
    if root_moves is not None:
        node.keep_only(root_moves)
    if not node.untried and not node.children:
        raise ValueError("the game is over: there is no move to search")
    done, leaf = 0, playout if value is None else _valued(value)
    while done == 0 or (
        (playouts is None or done < playouts) and (deadline is None or time.perf_counter() < deadline)
    ):
        _iterate(node, rng, exploration, leaf, prior)
        done += 1
    best = node.most_visited()
    mean = best.reward / best.visits
    return MCTSResult(best.move, done, time.perf_counter() - started, mean, MCTSTree(node))


def _valued(value: Value) -> Playout:
    """A leaf's returns from ``value`` (the outcome's when the game is over)."""

    def leaf(state: State, rng: random.Random) -> tuple[float, ...]:
        outcome = state.outcome()
        return outcome.returns() if outcome is not None else value(state)

    return leaf


def _iterate(
    tree: _Node, rng: random.Random, exploration: float, playout: Playout, prior: Prior | None
) -> None:
    node, path = tree, [tree]
    while True:
        if prior is not None:
            chosen = node.select_puct(exploration)
        else:
            chosen = node.select(exploration) if node.children and not node.untried else None
        if chosen is None:
            break
        node = chosen
        path.append(node)
    if node.untried:
        node = node.expand(rng, prior)
        path.append(node)
    returns = playout(node.state, rng)
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.reward += returns[visited.mover]
