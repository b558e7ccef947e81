"""``bordspel solve hermit N --resume``: a solve made of bounded runs that add up.

Each class of first moves is settled by df-pn from the position after it; its sub-problems are
the replies to it and the replies to those, each settled when the search settles it (saved in
the frontier, and known at once to a later run). What the run learns goes into a data folder
(``bordspel.games.hermit.book``): the book of positions settled with much work below them, the
frontier of settled sub-problems, and ``results.jsonl``, a line per settled class. It is saved
every ``save_every`` seconds and at SIGTERM or SIGINT. A new run reads it first: settled classes
and sub-problems are skipped, and the book's positions are known without a search. An LMDB
cache (``DiskTable``) speeds up later runs on the same machine but is never needed.

Given a backend (local processes or Ray), the run spreads a class over it: each open reply is a
task (``bordspel.games.hermit.subproblem``) that gets the whole book and settles the reply, or
returns after ``save_every`` seconds with what it settled below it; the driver merges what the
tasks learned and saves the same files, so either kind of run resumes the other's data.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from bordspel.ai.arena import Backend
from bordspel.games.hermit.book import Book, Frontier
from bordspel.games.hermit.disk import DiskTable
from bordspel.games.hermit.engine import HermitMove
from bordspel.games.hermit.solve import Settled, _log, first_move_classes, read_results
from bordspel.games.hermit.subproblem import Learned, Line, Search, SubProblem, settle_subproblem
from bordspel.stopping import SIGNALS, stop_on_signals

__all__ = ["Resumable", "checkout_data", "default_cache"]


def checkout_data(n: int) -> Path | None:
    """``data/hermit-NxN`` of the checkout this package runs from, or None (an installed copy)."""
    root = Path(__file__).resolve().parents[4]
    if (root / "pyproject.toml").exists() and (root / ".git").exists():
        return root / "data" / f"hermit-{n}x{n}"
    return None


def default_cache(n: int) -> Path:
    """The LMDB cache in the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    import os

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bordspel" / f"hermit-{n}x{n}.lmdb"


@dataclass
class Resumable:
    """One resumable run over the classes of first moves of the empty n x n board; with a
    ``backend``, each class's open replies are settled as its tasks (``settle_subproblem``)."""

    n: int
    data: Path
    table_bits: int = 18
    book_work: int = 1024
    """The least work below a position for the book to keep it."""
    save_every: float = 300.0
    """Seconds between saves; with a backend, also the longest a task runs."""
    log_every: float = 60.0
    cache: Path | None = None
    first_only: bool = False
    backend: Backend | None = None
    first_slice: float = 1.0
    """With a backend: the seconds a reply's task first gets; twice that each time it comes back
    open, up to ``save_every`` (so cheap refutations come first, as df-pn would take them)."""
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        self.book = Book(self.data, self.book_work, time.strftime("%Y%m%dT%H%M%S", time.gmtime()))
        self.frontier = Frontier(self.data / "frontier.txt")
        self.results_path = self.data / "results.jsonl"
        cache = DiskTable(self.cache) if self.cache is not None else None
        self.search = Search(self.n, self.book, self.table_bits if self.backend is None else 4, cache)
        self.store, self.solver = self.search.store, self.search.solver
        self.solver.on_progress = lambda _: self._progress()
        self.last_save = self.last_log = time.perf_counter()
        self.current: Line = ()
        self.tasks = _Tasks()
        self.rounds = 0

    # -- the run ----------------------------------------------------------------------------------
    def run(self) -> dict[str, Settled]:
        """Settle the open classes (until the first winning one with ``first_only``), saving as
        it goes; every class settled (this run's and earlier ones'). Raises ``Stopped``."""
        self._load()
        settled = read_results(self.results_path, self.n)
        with stop_on_signals():
            try:
                for moves in self._classes():
                    if self.first_only and any(result.wins for result in settled.values()):
                        break
                    if moves[0].to_str() in settled:
                        continue
                    result = self._settle_class(moves[0])
                    settled[result.move] = result
                    self._append_result(result)
            finally:
                self.save()
        return settled

    def _load(self) -> None:
        """Read the data folder: the book, the frontier (its positions join the book's)."""
        self.book.load()
        self.frontier.load()
        for line, first_wins in self.frontier.settled.items():
            self.search.learn(line, first_wins)
        _log(
            f"{self.n}x{self.n}: book {self.book.loaded:,} positions, frontier "
            f"{len(self.frontier.settled):,} sub-problems, cache {self.cache or 'none'} (data {self.data})"
        )

    def _classes(self) -> list[list[HermitMove]]:
        """The classes of first moves, those with the most replies proved first, then nearest the
        centre (the order that settles who wins soonest if the first player does)."""
        classes = first_move_classes(self.n)
        proved = {moves[0].to_str(): self._proved_replies(moves[0].to_str()) for moves in classes}
        settled = read_results(self.results_path, self.n)
        _log(f"{self.n}x{self.n}: {len(classes)} classes of first moves, {len(settled)} settled before")
        return sorted(classes, key=lambda moves: -proved[moves[0].to_str()])

    def _proved_replies(self, first: str) -> int:
        return sum(
            1
            for moves, wins in self.frontier.settled.items()
            if len(moves) == 2 and moves[0] == first and wins
        )

    def _settle_class(self, first: HermitMove) -> Settled:
        """Whether the first move wins, by df-pn from the position after it (which goes first to
        the replies likeliest to refute it), or by its replies spread over the backend; its
        settled replies, and replies to them, recorded."""
        started, before = time.perf_counter(), self._examined()
        self.current = (first.to_str(),)
        if self.backend is not None:
            wins = self._spread_class(self.backend)
        else:
            wins = self.search.first_wins(self.current)
        self._record_children(self.current, depth=1)  # the replies' replies matter no more
        self.current = ()
        result = Settled(
            self.n, first.to_str(), wins, self._examined() - before, time.perf_counter() - started
        )
        outcome = "wins" if wins else "loses"
        _log(
            f"{self.n}x{self.n} {result.move} settled: the first player {outcome}; "
            f"positions {result.examined:,}"
        )
        return result

    def _record_children(self, path: Line, depth: int = 2) -> None:
        """Add to the frontier the settled positions up to ``depth`` moves after ``path`` (below
        the settled ones, nothing more is needed)."""
        self.frontier.settled.update(self.search.settled_below(path, depth))

    # -- spread over a backend ------------------------------------------------------------------
    def _spread_class(self, backend: Backend) -> bool:
        """Whether the first player wins after the running class's first move: its open replies
        go out as tasks, round after round (the book grown by the last), until one refutes it or
        every one is settled won."""
        seconds: dict[Line, float] = {}
        while (first_wins := self._class_value()) is None:
            self._spread_round(backend, seconds)
        return first_wins

    def _spread_round(self, backend: Backend, seconds: dict[Line, float]) -> None:
        """A task for each open reply of the running class (the likeliest refutations first), with
        the book as it is now; their results merged as they come, until one refutes the class. A
        reply still open gets twice the time in the next round (``seconds``, up to ``save_every``)."""
        self.rounds += 1
        book, name = backend.share(self.book.records()), f"{self.book.stamp} {self.rounds}"
        lines = [line for line, _ in self.search.children(self.current) if line not in self.frontier.settled]
        lines.sort(key=self._open_answers)
        for line in lines:
            seconds.setdefault(line, min(self.first_slice, self.save_every))
        tasks = [
            SubProblem(self.n, line, book, name, self.table_bits, self.book_work, seconds[line])
            for line in lines
        ]
        results = backend.run(settle_subproblem, tasks)
        for learned in results:
            self._merge(learned)
            seconds[learned.line] = min(2 * seconds[learned.line], self.save_every)
            if learned.first_wins is False:
                break
        results.close()  # the tasks not done are dropped

    def _open_answers(self, reply: Line) -> int:
        """The first player's answers to ``reply`` not yet settled as lost: the fewer, the likelier
        the reply refutes the class (roughly df-pn's disproof number), so it goes out first."""
        return len(self.search.children(reply)) - len(self.search.settled_below(reply, depth=1))

    def _class_value(self) -> bool | None:
        """Whether the first player wins after the running class's first move, by its replies
        settled so far; None while that is open."""
        known = self.search.known(self.current)
        if known is not None:
            return known
        replies = self.search.settled_below(self.current, depth=1)
        self.frontier.settled.update(replies)
        if not all(replies.values()):
            return False
        return True if len(replies) == len(self.search.children(self.current)) else None

    def _merge(self, learned: Learned) -> None:
        """A task's result into the run: its settled lines to the frontier, its settled positions
        and records to the book."""
        self.book.read(learned.known)
        self.book.merge(learned.book)
        settled = dict(learned.below) if learned.first_wins is None else {learned.line: learned.first_wins}
        for line, first_wins in settled.items():
            self.search.learn(line, first_wins)
            self.frontier.add(line, first_wins)
        self.tasks.add(learned)
        outcome = {None: "open", True: "first player wins", False: "second player wins"}[learned.first_wins]
        _log(
            f"{self.n}x{self.n} {' '.join(learned.line)}: {outcome} after {learned.seconds:.0f} s, "
            f"positions {learned.examined:,}, {len(learned.below)} below settled ({learned.where})"
        )
        self._progress()

    def _examined(self) -> int:
        return self.solver.total_examined() + self.tasks.examined

    # -- saving and progress ----------------------------------------------------------------------
    def save(self) -> None:
        """Write the book and the frontier (signals wait until both are written)."""
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            if self.current:
                self._record_children(self.current)
            paths = self.book.save()
            self.frontier.save()
            self.store.flush()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
        self.last_save = time.perf_counter()
        size = sum(path.stat().st_size for path in paths)
        _log(
            f"{self.n}x{self.n}: saved {len(self.book.new):,} new book positions ({size / 2**20:.1f} MB), "
            f"{len(self.frontier.settled):,} sub-problems settled"
        )

    def _log_progress(self, seconds: float) -> None:
        """A line on the running class: positions, rate, table, book, settled sub-problems."""
        if self.current:
            self._record_children(self.current)
        examined = self._examined()
        rate = examined / max(seconds, 1e-9)
        fill = self.solver.table_fill() if self.backend is None else self.tasks.table_fill
        _log(
            f"{self.n}x{self.n} {self._replies()}: positions {examined:,}, {rate:,.0f}/s, "
            f"table {fill:.1%} full, book {self.book.loaded:,} read + "
            f"{len(self.book.new):,} new, {len(self.frontier.settled):,} sub-problems settled, "
            f"{seconds:.0f} s"
        )

    def _replies(self) -> str:
        """The running class, and how many of its replies are settled (won by the first player)."""
        if not self.current:
            return "-"
        replies = [
            wins
            for moves, wins in self.frontier.settled.items()
            if moves[:1] == self.current[:1] and len(moves) == 2
        ]
        return f"{self.current[0]} (replies settled {len(replies)}, {sum(replies)} won by the first player)"

    def _append_result(self, result: Settled) -> None:
        with self.results_path.open("a") as out:
            out.write(result.to_json() + "\n")

    def _progress(self) -> None:
        """Every ``log_every`` seconds a progress line; every ``save_every`` a save."""
        now = time.perf_counter()
        if self.log_every > 0 and now - self.last_log >= self.log_every:
            self.last_log = now
            self._log_progress(now - self.started)
        if now - self.last_save >= self.save_every:
            self.save()


@dataclass
class _Tasks:
    """What the tasks of a spread run did: positions examined, the last one's table fill."""

    examined: int = 0
    table_fill: float = 0.0

    def add(self, learned: Learned) -> None:
        self.examined += learned.examined
        self.table_fill = learned.table_fill
