"""Hermit's two compiled searches side by side: depth-first (``Solver.wins``) and proof-number
search (``Solver.prove``, df-pn) on first moves of the empty board, one process each in turn;
then df-pn writing its settled positions to a disk table (``DiskTable``, with ``lmdb``), and a
second df-pn with an empty table in memory reading them back (what a resumed run does); last,
every first move of the board as ``bordspel solve hermit 5 --workers 2 --memory 512`` settles
them (the target: under 60 s).

Run:  python benchmarks/bench_hermit_solve.py            (5x5, classes 2-7 of the first moves)
      python benchmarks/bench_hermit_solve.py --smoke    (4x4, only checks that it works)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from typing import Any

from bordspel._native import load
from bordspel.ai.arena import ProcessBackend
from bordspel.games.hermit.disk import DiskTable
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.solve import first_move_classes, settle, solve_empty, table_bits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="4x4 only: check that it works")
    parser.add_argument("--bits", type=int, default=20, help="table size: 2**BITS buckets")
    args = parser.parse_args()
    core = load("hermit_core")
    if core is None:
        sys.exit("bench_hermit_solve needs the compiled core: pip install -e . with Cython and a C compiler")
    n, chosen = (4, slice(0, 3)) if args.smoke else (5, slice(1, 7))
    start = HermitState.initial(size=n)
    moves = [moves[0] for moves in first_move_classes(n)[chosen]]
    print(f"{n}x{n}, first moves {' '.join(move.to_str() for move in moves)}")
    positions = [tuple(after.free_mask(c) for c in range(3)) for after in map(start.apply, moves)]
    for name, proof_numbers in (("depth-first", False), ("df-pn", True)):
        solver = core.Solver(n, 8, args.bits, True, proof_numbers)
        measure(name, solver, solver.prove if proof_numbers else solver.wins, positions)
    disk_table(core, n, args.bits, positions)
    every_first_move(n)


def every_first_move(n: int) -> None:
    """Settle every first move over two worker processes, as ``bordspel solve hermit`` does."""
    began = time.perf_counter()
    report = solve_empty(n, run=lambda tasks: ProcessBackend(2).run(settle, tasks), bits=table_bits(512))
    winning = " ".join(move.to_str() for move in report.winning_moves)
    print(
        f"{n}x{n}, every first move ({report.moves}), 2 workers: winning {winning or 'none'}; "
        f"positions {report.examined:,}, {time.perf_counter() - began:.1f} s"
    )


def disk_table(core: Any, n: int, bits: int, positions: list[tuple[int, ...]]) -> None:
    """df-pn writing a disk table, then a new df-pn reading it back."""
    if importlib.util.find_spec("lmdb") is None:
        print("df-pn with a disk table: skipped (needs the solve extra: pip install 'bordspel[solve]')")
        return
    with tempfile.TemporaryDirectory(prefix="bench-hermit-disk-") as folder:
        table = DiskTable(folder)
        for name in ("df-pn writing a disk table", "df-pn reading it back"):
            solver = core.Solver(n, 8, bits, True, True)
            solver.disk = table
            measure(name, solver, solver.prove, positions)
            table.flush()
            print(f"  disk table: {len(table):,} positions, {table.disk_bytes() / 2**20:.1f} MB")
        table.close()


def measure(name: str, solver: Any, search: Any, positions: list[tuple[int, ...]]) -> None:
    """Search every position with ``search`` (a method of ``solver``) and print what it took."""
    began = time.perf_counter()
    second_wins = [search(*masks) for masks in positions]
    seconds = time.perf_counter() - began
    print(
        f"{name}: second player wins {second_wins}; positions {solver.examined:,}, "
        f"regions valued {solver.grundy_examined:,}, {seconds:.1f} s"
        + (f", {solver.disk_hits:,} read from disk" if solver.disk is not None else "")
    )


if __name__ == "__main__":
    main()
