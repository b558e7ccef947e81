"""Solving a Quarto position over worker processes or Ray tasks.

The positions a few placements and choices below the root, one for each class of positions
that are images of each other, are the *leaves*; the moves above them form a small tree. The
win/draw/loss value comes from two null-window tests of the root: first whether the player to
act can win, then whether they can avoid losing. Each test becomes a test of every leaf it
needs (a search with the window (b - 1, b): is the leaf's score at least b?), spread over the
workers, and stops once the tree settles the answer. For a draw that is a proof that the player
cannot win and one that they cannot lose, as the one-process search makes them. A decisive
value then gets its distance from exact searches of the leaves.

Leaves are plain data (``LeafTask`` -> ``Searched``), so the arena's backends run them; each
worker process keeps one solver, whose tables serve all its leaves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from bordspel.games.quarto.ai import (
    WIN,
    PureQuartoSolver,
    QuartoSolver,
    Solution,
    canonical_key,
)
from bordspel.games.quarto.ai import _solution as solution_of
from bordspel.games.quarto.rules import board_symmetries

__all__ = ["Leaf", "LeafTask", "Searched", "SplitSolver", "search_leaf"]


@dataclass(frozen=True)
class Leaf:
    """A position: the board (16 piece codes, -1 empty), the piece to place (-1 at a choice)
    and the pieces still to give."""

    board: tuple[int, ...]
    piece: int
    available: int
    advanced: bool = False


@dataclass(frozen=True)
class LeafTask:
    """One leaf of the split position for a worker: an exact search or a null-window test."""

    leaf: Leaf
    threshold: int | None
    """Test whether the leaf's win/draw/loss score (1, 0, -1) is at least this; None: its exact score."""
    table_bits: int = 24


@dataclass(frozen=True)
class Searched:
    """A worker's answer for one ``LeafTask``."""

    task: LeafTask
    value: int
    """The exact score, or 1 when the test holds and 0 when it fails."""
    nodes: int
    seconds: float


_SOLVERS: dict[tuple[bool, int], PureQuartoSolver] = {}
"""One solver per variant and table size in each process, so its tables serve every leaf."""


def search_leaf(task: LeafTask) -> Searched:
    """Search one leaf (a top-level function, so workers can run it)."""
    leaf = task.leaf
    solver = _SOLVERS.get((leaf.advanced, task.table_bits))
    if solver is None:
        solver = _SOLVERS[leaf.advanced, task.table_bits] = _new_solver(leaf.advanced, task.table_bits)
    before, started = solver.nodes, time.perf_counter()
    board = list(leaf.board)
    if task.threshold is None:
        solved = (
            solver.solve_choice(board, leaf.available)
            if leaf.piece < 0
            else solver.solve_placement(board, leaf.piece, leaf.available)
        )
        value = solved.score
    else:
        score = solver.search(board, leaf.piece, leaf.available, task.threshold - 1, task.threshold)
        value = int(score >= task.threshold)
    return Searched(task, value, solver.nodes - before, time.perf_counter() - started)


def _new_solver(advanced: bool, table_bits: int) -> PureQuartoSolver:
    from bordspel.games.quarto.ai import CompiledQuartoSolver

    if QuartoSolver is CompiledQuartoSolver:
        return CompiledQuartoSolver(advanced, max_table_bits=table_bits)
    return QuartoSolver(advanced)


@dataclass(eq=False)
class Node:
    """A position of the tree: the game's end (``score``), a leaf (no children) or a move's
    alternatives, ``(piece given or square, child)`` in the order of the pieces or squares;
    children that are images of each other are one node."""

    position: Leaf
    key: tuple[int, ...]
    score: int | None = None
    """The exact score for the player to act when the game ends here."""
    children: list[tuple[int, Node]] = field(default_factory=list)

    @property
    def is_leaf(self) -> bool:
        return self.score is None and not self.children


Run = Callable[[Callable[[LeafTask], Searched], list[LeafTask]], Iterator[Searched]]
"""A backend's ``run``: results of ``search_leaf`` over the tasks as they finish."""


class SplitSolver:
    """Solves one position by searching its leaves with ``run``; keeps what it learnt."""

    def __init__(self, run: Run, *, advanced: bool = False, tasks: int = 8, table_bits: int = 24) -> None:
        self.run, self.advanced, self.table_bits = run, advanced, table_bits
        self.tasks = tasks
        """Expand the tree until it has at least this many leaves (at most 4 plies)."""
        self.rules = PureQuartoSolver(advanced)
        self.symmetries = board_symmetries(advanced)
        self.known: dict[tuple[tuple[int, ...], int | None], int] = {}
        self.nodes = 0
        self.leaves_searched = 0
        self.progress: Callable[[int, int], None] | None = None
        """Called with the leaves searched and the nodes searched so far after each leaf."""

    def solve(self, board: list[int], piece: int, available: int) -> tuple[Solution, Node]:
        """The value of the position and a best action (as ``solve_choice``/``solve_placement``),
        and the tree (for the best actions below the root, see ``best``)."""
        started, nodes = time.perf_counter(), self.nodes
        root = self.tree(Leaf(tuple(board), piece, available, self.advanced))
        score = self.score(root)
        empties = available.bit_count() + (piece >= 0)
        seconds = time.perf_counter() - started
        return solution_of(score, empties, self.best(root, score), self.nodes - nodes, seconds), root

    # -- the tree -------------------------------------------------------------------------------
    def tree(self, position: Leaf) -> Node:
        """The tree of ``position``, one ply deeper at a time until it has ``tasks`` leaves."""
        for plies in range(2, 5):
            found: dict[tuple[int, ...], Node] = {}
            root = self._expand(position, plies, found)
            if sum(node.is_leaf for node in found.values()) >= self.tasks:
                break
        return root

    def _expand(self, position: Leaf, plies: int, found: dict[tuple[int, ...], Node]) -> Node:
        key = canonical_key(list(position.board), self.symmetries, position.piece)
        if key in found:
            return found[key]
        node = found[key] = Node(position, key, self._end(position))
        if node.score is None and plies > 0:
            node.children = [
                (action, self._expand(child, plies - 1, found)) for action, child in self._moves(position)
            ]
        return node

    def _end(self, position: Leaf) -> int | None:
        """The score when the player to act has one move (or none) that settles the game."""
        board, piece, available = list(position.board), position.piece, position.available
        self.rules._load(board)
        if piece < 0:
            if not available:
                return 0
            return -(WIN - 1) if not available & ~self.rules.threats() else None
        if self.rules.threats() >> piece & 1:
            return WIN - 1
        return 0 if not available else None

    def _moves(self, position: Leaf) -> Iterator[tuple[int, Leaf]]:
        """(piece given or square placed on, the position it makes); only the safe pieces."""
        board, piece, available = position.board, position.piece, position.available
        if piece < 0:
            self.rules._load(list(board))
            safe = available & ~self.rules.threats()
            for given in range(16):
                if safe >> given & 1:
                    yield given, Leaf(board, given, available & ~(1 << given), self.advanced)
            return
        for cell in range(16):
            if board[cell] < 0:
                placed = board[:cell] + (piece,) + board[cell + 1 :]
                yield cell, Leaf(placed, -1, available, self.advanced)

    # -- values -------------------------------------------------------------------------------
    def score(self, node: Node) -> int:
        """The exact score of ``node``: win/draw/loss by the two tests, then the distance."""
        if not self.holds(node, 1) and self.holds(node, 0):  # it can neither win nor lose
            return 0
        return self._exact(node)

    def holds(self, node: Node, threshold: int) -> bool:
        """Whether the win/draw/loss score of ``node`` is at least ``threshold`` (0 or 1),
        searching the leaves the answer needs."""
        verdict = self._verdict(node, threshold)
        if verdict is None:
            tasks = [LeafTask(leaf.position, t, self.table_bits) for leaf, t in self._needed(node, threshold)]
            results = self.run(search_leaf, tasks)
            try:
                for result in results:
                    self._learn(result)
                    verdict = self._verdict(node, threshold)
                    if verdict is not None:
                        break
            finally:  # the backend drops the leaves not started
                getattr(results, "close", lambda: None)()
        assert verdict is not None
        return verdict

    def _verdict(self, node: Node, threshold: int) -> bool | None:
        """Whether the score is at least ``threshold`` from what is known (None: not known yet)."""
        if node.score is not None:
            return _sign(node.score) >= threshold
        if node.is_leaf:
            known = self.known.get((node.key, threshold))
            return None if known is None else bool(known)
        # a choice's score is at least t when a piece leaves the placer at most -t (not at least 1 - t)
        below = 1 - threshold if node.position.piece < 0 else threshold
        flip = node.position.piece < 0
        answers = [self._verdict(child, below) for _, child in node.children]
        if any(answer is not None and answer != flip for answer in answers):
            return True
        return False if all(answer is not None for answer in answers) else None

    def _needed(self, node: Node, threshold: int) -> list[tuple[Node, int]]:
        """The leaf tests that settle the test of ``node`` (not yet known), in move order."""
        needed: dict[tuple[tuple[int, ...], int], tuple[Node, int]] = {}
        self._collect(node, threshold, needed)
        return list(needed.values())

    def _collect(
        self, node: Node, threshold: int, needed: dict[tuple[tuple[int, ...], int], tuple[Node, int]]
    ) -> None:
        if self._verdict(node, threshold) is not None:
            return
        if node.is_leaf:
            needed.setdefault((node.key, threshold), (node, threshold))
            return
        below = 1 - threshold if node.position.piece < 0 else threshold
        for _, child in node.children:
            self._collect(child, below, needed)

    def _exact(self, node: Node) -> int:
        """The exact score (with the distance), from exact searches of every leaf."""
        leaves = {n.key: n for n in _walk(node) if n.is_leaf and (n.key, None) not in self.known}
        tasks = [LeafTask(leaf.position, None, self.table_bits) for leaf in leaves.values()]
        for result in self.run(search_leaf, tasks):
            self._learn(result)
        return self._combine(node)

    def _combine(self, node: Node) -> int:
        if node.score is not None:
            return node.score
        if node.is_leaf:
            return self.known[node.key, None]
        if node.position.piece < 0:
            return max(-self._combine(child) for _, child in node.children)
        return max(_one_placement_later(self._combine(child)) for _, child in node.children)

    def _learn(self, result: Searched) -> None:
        leaf = result.task.leaf
        key = canonical_key(list(leaf.board), self.symmetries, leaf.piece)
        self.known[key, result.task.threshold] = result.value
        self.nodes += result.nodes
        self.leaves_searched += 1
        if self.progress is not None:
            self.progress(self.leaves_searched, self.nodes)

    def best(self, node: Node, score: int) -> int | None:
        """The first piece or square (in order) that keeps ``score``, the score of ``node``."""
        if node.score is not None:
            return self._ending(node.position)
        for action, child in node.children:
            if self._keeps(node, child, score):
                return action
        return None

    def piece_after(self, root: Node, score: int, cell: int) -> int | None:
        """The best piece to give after placing on ``cell``, a best square of ``root`` (a
        placement whose score is ``score``)."""
        child = dict(root.children)[cell]
        return self.best(child, 0 if score == 0 else self._exact(child))

    def _ending(self, position: Leaf) -> int | None:
        """The best action where the game ends: the first square that wins or that takes the
        last piece, the first piece when every piece loses; None with nothing to give."""
        board, piece = list(position.board), position.piece
        if piece < 0:
            return next((p for p in range(16) if position.available >> p & 1), None)
        empty = [cell for cell in range(16) if board[cell] < 0]
        return next((cell for cell in empty if self.rules.wins_at(board, cell, piece)), empty[0])

    def _keeps(self, node: Node, child: Node, score: int) -> bool:
        if score != 0:
            child_score = self._exact(child)
            kept = -child_score if node.position.piece < 0 else _one_placement_later(child_score)
            return kept == score
        if node.position.piece < 0:  # every piece leaves the placer at least a draw: one that leaves no win
            return not self.holds(child, 1)
        return self.holds(child, 0)  # no square gives more than a draw: one that gives no less


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _one_placement_later(score: int) -> int:
    """A score one placement further from the root (a win or loss one placement later)."""
    return score - 1 if score > 1 else score + 1 if score < -1 else score


def _walk(node: Node) -> Iterable[Node]:
    seen: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) not in seen:
            seen.add(id(current))
            yield current
            stack.extend(child for _, child in current.children)
