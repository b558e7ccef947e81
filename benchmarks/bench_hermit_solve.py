"""Hermit's two compiled searches side by side: depth-first (``Solver.wins``) and proof-number
search (``Solver.prove``, df-pn) on first moves of the empty board, one process each in turn.

Run:  python benchmarks/bench_hermit_solve.py            (5x5, classes 2-7 of the first moves)
      python benchmarks/bench_hermit_solve.py --smoke    (4x4, only checks that it works)
"""

from __future__ import annotations

import argparse
import sys
import time

from bordspel._native import load
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.solve import first_move_classes


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
    for name, proof_numbers in (("depth-first", False), ("df-pn", True)):
        solver = core.Solver(n, 8, args.bits, True, proof_numbers)
        search = solver.prove if proof_numbers else solver.wins
        began = time.perf_counter()
        second_wins = [search(*(after.free_mask(c) for c in range(3))) for after in map(start.apply, moves)]
        seconds = time.perf_counter() - began
        print(
            f"{name}: second player wins {second_wins}; positions {solver.examined:,}, "
            f"regions valued {solver.grundy_examined:,}, {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
