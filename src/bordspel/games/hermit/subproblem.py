"""The sub-problems of ``bordspel solve hermit N --resume``, settled by df-pn: one rule for the
one-process run and for the spread one (``bordspel.games.hermit.resume``).

``Search`` is the df-pn search of a run, whose store is the book (and an optional LMDB cache):
it settles the position after a line of moves and tells which lines below one it settled.
``settle_subproblem`` is a backend's task (a local process or a Ray task): it settles one line
with a table of its own and the book the driver shipped, for at most ``seconds``, and returns
whether the first player wins (or, out of time, the lines below it that it settled) and the
book records it learned.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bordspel.ai.arena import Shared
from bordspel.ai.search import OutOfTime
from bordspel.core import BordspelError
from bordspel.games.hermit.book import LOSES, WINS, Book, Store
from bordspel.games.hermit.disk import DiskTable
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.proof import ProofSolver

__all__ = ["Learned", "Line", "Search", "SubProblem", "settle_subproblem"]

Line = tuple[str, ...]
"""Moves from the empty board, in notation."""


@dataclass
class Search:
    """df-pn on the n x n board with ``book`` (and ``cache``, if any) as its store."""

    n: int
    book: Book
    table_bits: int = 18
    cache: DiskTable | None = None
    states: dict[Line, HermitState] = field(default_factory=dict)
    """The positions after lines (with their prefixes: lines share them)."""

    def __post_init__(self) -> None:
        self.solver = ProofSolver(self.n, table_bits=self.table_bits, proof_numbers=True)
        if self.solver.core is None:
            raise BordspelError("--resume needs the compiled core: python setup.py build_ext --inplace")
        self.store = Store(self.book, self.cache)
        self.solver.core.disk = self.store
        self.solver.core.disk_depth = 3  # every settled reply and reply to it reaches the store

    def first_wins(self, line: Line) -> bool:
        """Whether the first player wins after ``line``, by df-pn from there (``OutOfTime`` at the
        solver's deadline)."""
        return self.solver.state_wins(self.state(line)) == _first_to_move(line)

    def learn(self, line: Line, first_wins: bool) -> None:
        """Know the value after ``line`` without a search (a settled sub-problem)."""
        self.book.known[self.key(self.state(line))] = WINS if first_wins == _first_to_move(line) else LOSES

    def settled_below(self, line: Line, depth: int = 2) -> dict[Line, bool]:
        """The lines up to ``depth`` moves longer than ``line`` that the store knows settled (none
        below a settled one), one per distinct position: whether the first player wins."""
        settled: dict[Line, bool] = {}
        for longer, state in self.children(line):
            first_wins = self._known(longer, state)
            if first_wins is not None:
                settled[longer] = first_wins
            elif depth > 1:
                settled.update(self.settled_below(longer, depth - 1))
        return settled

    def known(self, line: Line) -> bool | None:
        """Whether the first player wins after ``line``, if the store knows it (else None)."""
        return self._known(line, self.state(line))

    def _known(self, line: Line, state: HermitState) -> bool | None:
        value = self.store.get(self.key(state))
        return None if value is None else (value == WINS) == _first_to_move(line)

    def children(self, line: Line) -> list[tuple[Line, HermitState]]:
        """The lines one move longer, one per distinct position they lead to, with the position."""
        state = self.state(line)
        children: dict[bytes, tuple[Line, HermitState]] = {}
        for move in state.legal_moves():
            child = state.apply_unchecked(move)
            children.setdefault(self.key(child), ((*line, move.to_str()), child))
        return list(children.values())

    def key(self, state: HermitState) -> bytes:
        """The position's key in the store (the book's and the disk table's)."""
        return bytes(self.solver.core.disk_key(*self.solver.grundy.accepts(state)))

    def state(self, line: Line) -> HermitState:
        """The position after ``line`` from the empty board."""
        if line not in self.states:
            before = self.state(line[:-1]) if line else HermitState.initial(size=self.n)
            self.states[line] = before.apply(before.parse_move(line[-1])) if line else before
        return self.states[line]


def _first_to_move(line: Line) -> bool:
    return len(line) % 2 == 0


@dataclass(frozen=True)
class SubProblem:
    """A task: settle the position after ``line`` on the n x n board within ``seconds``."""

    n: int
    line: Line
    book: Shared[bytes]
    """Every position the driver knows settled, as book records (``Book.records``)."""
    book_name: str
    """Names ``book`` (the tasks of a round share one): a worker reads it once."""
    table_bits: int
    book_work: int
    seconds: float


@dataclass(frozen=True)
class Learned:
    """What a task learned: its line's value, or the lines below it settled, and new records."""

    line: Line
    first_wins: bool | None
    """Whether the first player wins after the line; None if the task ran out of time."""
    below: tuple[tuple[Line, bool], ...]
    """Out of time: the lines one move longer that it settled, and whether the first player wins."""
    book: bytes
    """The book records it learned (``Book.new_records``)."""
    known: bytes
    """Every position it settled, as records (``Book.records``): the driver knows them too."""
    examined: int
    seconds: float
    table_fill: float
    where: str
    """Where it ran: a Ray node, or a machine and process."""


def settle_subproblem(task: SubProblem) -> Learned:
    """Settle one sub-problem with a table of its own (a top-level function, for workers)."""
    started = time.perf_counter()
    book = Book(Path(), task.book_work, "")
    book.known = _shipped(task)
    search = Search(task.n, book, task.table_bits)
    search.solver.deadline = started + task.seconds
    first_wins: bool | None
    try:
        first_wins, below = search.first_wins(task.line), {}
    except OutOfTime:
        first_wins, below = None, search.settled_below(task.line, depth=1)
    solver = search.solver
    return Learned(
        task.line,
        first_wins,
        tuple(below.items()),
        book.new_records(),
        book.records(book.added),
        solver.total_examined(),
        time.perf_counter() - started,
        solver.table_fill(),
        _where(),
    )


_SHIPPED: dict[str, dict[bytes, bytes]] = {}
"""The last book this worker read, by its name."""


def _shipped(task: SubProblem) -> dict[bytes, bytes]:
    """A copy of the task's book (read once by each worker process, for all of a round's tasks)."""
    if task.book_name not in _SHIPPED:
        _SHIPPED.clear()
        book = Book(Path(), 0, "")
        book.read(task.book.get())
        _SHIPPED[task.book_name] = book.known
    return dict(_SHIPPED[task.book_name])


def _where() -> str:
    """The Ray node this runs on (in a Ray task), else the machine and process."""
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        return f"node {ray.get_runtime_context().get_node_id()[:12]}"
    return f"{socket.gethostname()} pid {os.getpid()}"
