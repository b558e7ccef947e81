"""Solving Hermit's empty board: every first move settled by the proof search (``hermit_proof``).

First moves that are images of each other under a symmetry form one class, searched once. The
classes are independent tasks (``FirstMove`` -> ``Settled``, plain data), so they can be split
over worker processes or Ray tasks with the arena's backends; each result is appended to a
results file as it comes in, and a run given the same file skips the classes it already holds,
so an interrupted run resumes where it stopped. Each class is searched by proof-number search
(df-pn) unless asked otherwise. ``write_proof`` writes the proof of one first move for the
independent checker, ``bordspel.games.hermit.verify``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from bordspel.games.hermit.disk import DiskTable
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.grundy import GrundySolver
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.rules import COLOURS, PLACEMENTS

__all__ = [
    "FirstMove",
    "Settled",
    "SolveReport",
    "first_move_classes",
    "settle",
    "solve_empty",
    "table_bits",
    "write_proof",
]


@dataclass(frozen=True)
class FirstMove:
    """A task: settle the first move ``move`` on the empty n x n board."""

    n: int
    move: str
    table_bits: int = 18
    proof_numbers: bool = True
    """Proof-number search (df-pn) rather than the depth-first search."""
    log_every: float = 0.0
    """Seconds between progress lines on standard error (0: none): positions, rate, table fill."""
    disk: str = ""
    """The directory of the disk table of settled positions shared by the workers (``DiskTable``;
    empty: none)."""


@dataclass(frozen=True)
class Settled:
    """One first move of the empty board settled: whether it wins, and what it took."""

    n: int
    move: str
    wins: bool
    """Whether the first player wins by this move."""
    examined: int
    seconds: float

    def to_json(self) -> str:
        """This result as one line of JSON (a line of the results file)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> Settled:
        """Read a line that ``to_json`` wrote."""
        fields = json.loads(line)
        return cls(
            int(fields["n"]),
            str(fields["move"]),
            bool(fields["wins"]),
            int(fields["examined"]),
            float(fields["seconds"]),
        )


@dataclass
class SolveReport:
    """Who wins the empty n x n board, with the winning first moves and the work it took."""

    n: int
    first_player_wins: bool
    grundy: int | None
    """The Grundy value of the empty board: 0 when the second player wins; computed up to 3x3."""
    winning_moves: list[HermitMove]
    moves: int
    """First moves settled (all of them, unless the search stopped at the first winning one)."""
    examined: int
    """Positions searched plus small regions given a Grundy value (with the results file's)."""
    seconds: float
    """The time of this run (the results file's runs not included)."""


Progress = Callable[[int, int, int, float], None]
"""``progress(first moves settled, first moves, positions examined, seconds)``."""

_SOLVERS: dict[tuple[int, int, bool], ProofSolver] = {}
"""One solver per board size and table in each process, so its table serves every task."""
_DISKS: dict[str, DiskTable] = {}
"""The disk tables this process opened (LMDB opens an environment once per process)."""


def table_bits(megabytes: float, proof_numbers: bool = True) -> int:
    """The table size (``ProofSolver.table_bits``) that fits in ``megabytes`` (a bucket of the
    proof-number table takes 96 bytes, one of the depth-first search's 64)."""
    return max(4, int(math.log2(megabytes * 2**20 / (96 if proof_numbers else 64))))


def _solver(task: FirstMove) -> ProofSolver:
    """This process's solver for the task's board, table and search (made on first use)."""
    key = (task.n, task.table_bits, task.proof_numbers)
    if key not in _SOLVERS:
        _SOLVERS[key] = ProofSolver(task.n, table_bits=task.table_bits, proof_numbers=task.proof_numbers)
    solver = _SOLVERS[key]
    if solver.core is not None:
        solver.core.disk = _disk(task.disk) if task.disk else None
    return solver


def _disk(path: str) -> DiskTable:
    """This process's handle on the disk table at ``path`` (opened on first use)."""
    if path not in _DISKS:
        _DISKS[path] = DiskTable(path)
    return _DISKS[path]


def settle(task: FirstMove, on_progress: Callable[[int], None] | None = None) -> Settled:
    """Search one first move (a top-level function, so workers can run it)."""
    solver = _solver(task)
    before, started = solver.total_examined(), time.perf_counter()
    log = _ProgressLog(task, solver, before, started)

    def progress(_: int) -> None:
        if on_progress is not None:
            on_progress(solver.total_examined() - before)
        log.maybe_write()

    solver.on_progress = progress if on_progress is not None or task.log_every > 0 else None
    start = HermitState.initial(size=task.n)
    try:
        wins = not solver.state_wins(start.apply(start.parse_move(task.move)))
    finally:
        if task.disk:
            _disk(task.disk).flush()
    return Settled(task.n, task.move, wins, solver.total_examined() - before, time.perf_counter() - started)


@dataclass
class _ProgressLog:
    """Lines on standard error about a running first move: positions, rate, table fill."""

    task: FirstMove
    solver: ProofSolver
    before: int
    started: float
    last: float = 0.0

    def maybe_write(self) -> None:
        now = time.perf_counter()
        if self.task.log_every <= 0 or now - self.last < self.task.log_every:
            return
        self.last = now
        seconds = now - self.started
        examined = self.solver.total_examined() - self.before
        _log(
            f"{self.task.n}x{self.task.n} {self.task.move}: "
            f"positions {examined:,}, {examined / max(seconds, 1e-9):,.0f}/s, "
            f"table {self.solver.table_fill():.1%} full{self._disk_figures()}, {seconds:.0f} s"
        )

    def _disk_figures(self) -> str:
        if not self.task.disk:
            return ""
        disk, core = _disk(self.task.disk), self.solver.core
        return (
            f", disk {len(disk):,} settled ({disk.disk_bytes() / 2**20:,.0f} MB), "
            f"{int(core.disk_hits):,} read back"
        )


def first_move_classes(n: int) -> list[list[HermitMove]]:
    """The first moves grouped by the position they make, up to symmetry; the classes with a
    block nearest the centre first (on odd boards the centre block, the known winner)."""
    solver = ProofSolver(n)
    start = HermitState.initial(size=n)
    classes: dict[object, list[HermitMove]] = {}
    for move in sorted(start.legal_moves(), key=lambda m: _distance_to_centre(m, n)):
        position = solver.position(solver.grundy.accepts(start.apply_unchecked(move)))
        classes.setdefault(solver.key(position), []).append(move)
    return list(classes.values())


def read_results(path: Path, n: int) -> dict[str, Settled]:
    """The settled first moves of the n x n board in a results file (none if it is missing)."""
    if not path.exists():
        return {}
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    if lines and not line_is_json(lines[-1]):  # a run killed while it wrote its last line
        print(f"{path}: its last line is cut short; the run goes on without it", file=sys.stderr)
        lines.pop()
    found = (Settled.from_json(line) for line in lines)
    return {settled.move: settled for settled in found if settled.n == n}


def line_is_json(line: str) -> bool:
    """Whether ``line`` reads as JSON (a last line cut short by a kill does not)."""
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def solve_empty(
    n: int,
    progress: Progress | None = None,
    first_only: bool = False,
    *,
    run: Callable[[list[FirstMove]], Iterator[Settled]] | None = None,
    results: Path | None = None,
    bits: int = 18,
    proof_numbers: bool = True,
    log_every: float = 0.0,
    disk: Path | None = None,
) -> SolveReport:
    """Solve the empty n x n board: who wins, and every winning first move (or the first found).

    ``run`` maps ``settle`` over tasks (a backend's ``run``); without it, the classes are settled
    here one by one with live progress. ``results`` is the file to resume from and append to;
    ``proof_numbers``, ``log_every`` and ``disk`` (the disk table's directory) go to each
    ``FirstMove``; with ``log_every``, each settled class is also logged.
    """
    started = time.perf_counter()
    classes = first_move_classes(n)
    settled = read_results(results, n) if results is not None else {}
    by_move = {moves[0].to_str(): moves for moves in classes}
    total = sum(len(moves) for moves in classes)

    def report(extra: int = 0) -> None:
        if progress is not None:
            done = sum(len(by_move[move]) for move in settled if move in by_move)
            examined = sum(s.examined for s in settled.values()) + extra
            progress(done, total, examined, time.perf_counter() - started)

    def won() -> bool:
        return any(s.wins for s in settled.values())

    tasks = [
        FirstMove(n, moves[0].to_str(), bits, proof_numbers, log_every, str(disk or ""))
        for moves in classes
        if moves[0].to_str() not in settled
    ]
    if log_every > 0:
        _log(f"{n}x{n}: {len(classes)} classes of first moves, {len(classes) - len(tasks)} settled before")
    results_file = None if results is None else results.open("a")
    try:
        for result in _settle_all(tasks, run, report, lambda: first_only and won()):
            settled[result.move] = result
            if results_file is not None:
                results_file.write(result.to_json() + "\n")
                results_file.flush()
            if log_every > 0:
                _log_settled(result, len(settled), len(classes))
            report()
    finally:
        if results_file is not None:
            results_file.close()
    winning = [
        move for key, moves in by_move.items() if key in settled and settled[key].wins for move in moves
    ]
    winning = winning[:1] if first_only else winning
    grundy = 0 if not winning else GrundySolver(n).value(HermitState.initial(size=n)) if n <= 3 else None
    done = sum(len(by_move[move]) for move in settled if move in by_move)
    examined = sum(s.examined for s in settled.values())
    return SolveReport(n, bool(winning), grundy, winning, done, examined, time.perf_counter() - started)


def _log_settled(result: Settled, done: int, classes: int) -> None:
    """A line on standard error about a class of first moves just settled."""
    outcome = "wins" if result.wins else "loses"
    _log(
        f"{result.n}x{result.n} {result.move} settled: the first player {outcome}; "
        f"positions {result.examined:,}, {result.seconds:.0f} s; classes settled {done}/{classes}"
    )


def _log(line: str) -> None:
    """A line of the progress log (standard error), with the time of day."""
    print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


def _settle_all(
    tasks: list[FirstMove],
    run: Callable[[list[FirstMove]], Iterator[Settled]] | None,
    report: Callable[[int], None],
    stop: Callable[[], bool],
) -> Iterator[Settled]:
    """The results of ``tasks`` as they come, until ``stop()`` says enough."""
    if stop():
        return
    if run is None:
        for task in tasks:
            yield settle(task, report)
            if stop():
                return
        return
    for result in run(tasks):
        yield result
        if stop():
            return


def _distance_to_centre(move: HermitMove, n: int) -> float:
    """How far a block lies from the centre (the centre block, the known winner, comes first)."""
    squares = move.squares
    row = sum(r for r, _ in squares) / len(squares)
    col = sum(c for _, c in squares) / len(squares)
    return abs(row - (n - 1) / 2) + abs(col - (n - 1) / 2)


def write_proof(
    n: int, first_move: str, path: Path, brute_force: int = 10, bits: int = 20, disk: Path | None = None
) -> bool:
    """Write the proof of who wins after ``first_move`` on the empty n x n board (for
    ``bordspel.games.hermit.verify``): the winner's reply, found by the solver, in every position
    the loser's moves lead to, down to ``brute_force`` live squares. Whether the first move wins.
    With ``disk`` (a solving run's disk table), the positions it settled are read, not searched."""
    solver = ProofSolver(n, table_bits=bits, proof_numbers=True)
    if disk is not None and solver.core is not None:
        solver.core.disk = _disk(str(disk))
    start = HermitState.initial(size=n)
    after = start.apply(start.parse_move(first_move))
    second_wins = solver.state_wins(after)
    replies: dict[tuple[int, int, int], HermitMove] = {}
    _strategy(solver, after, second_wins, brute_force, replies, set())
    header = {
        "game": "hermit",
        "n": n,
        "first_move": first_move,
        "start": list(after.masks),
        "claim": "wins" if second_wins else "loses",
        "brute_force": brute_force,
    }
    with path.open("w") as out:
        out.write(json.dumps(header) + "\n")
        for masks, move in replies.items():
            reply = [COLOURS.index(move.colour), move.row * n + move.col, PLACEMENTS.index(move.placement)]
            out.write(json.dumps({"at": list(masks), "reply": reply}) + "\n")
    return not second_wins


def _strategy(
    solver: ProofSolver,
    state: HermitState,
    winner_to_move: bool,
    brute_force: int,
    replies: dict[tuple[int, int, int], HermitMove],
    seen: set[tuple[tuple[int, int, int], bool]],
) -> None:
    """Fill ``replies`` with the winner's moves below ``state`` (depth first, each position once)."""
    if (state.masks, winner_to_move) in seen:
        return
    seen.add((state.masks, winner_to_move))
    if (state.free_mask(0) | state.free_mask(1) | state.free_mask(2)).bit_count() <= brute_force:
        return
    if not winner_to_move:
        for move in state.legal_moves():
            _strategy(solver, state.apply_unchecked(move), True, brute_force, replies, seen)
        return
    children = [(move, state.apply_unchecked(move)) for move in state.legal_moves()]
    children.sort(key=lambda pair: pair[1].transformed(2).masks != pair[1].masks)  # mirror replies first
    for move, child in children:
        if not solver.state_wins(child):
            replies[state.masks] = move
            _strategy(solver, child, False, brute_force, replies, seen)
            return
    raise AssertionError(f"the solver found no winning move at {state.to_str()}")
