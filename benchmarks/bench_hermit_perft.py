"""Hermit perft: ``HermitState.perft`` (the compiled core when built) against a plain C perft.

The plain C perft (``benchmarks/hermit_perft.c``) is compiled here with gcc into a temporary
directory and run in the same run, on the same machine: one variant counts the last ply in bulk
(popcounts), one visits every leaf. Each figure is the best of 5 runs.

Run:  python benchmarks/bench_hermit_perft.py          (5x5 and 6x6, depths 3 and 4)
      python benchmarks/bench_hermit_perft.py --smoke  (small sizes, only checks it works)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bordspel._native import backend
from bordspel.games.hermit.engine import HermitState

SOURCE = Path(__file__).with_name("hermit_perft.c")


def ours(n: int, depth: int) -> tuple[int, float]:
    """Leaves and best-of-5 seconds of ``HermitState.perft``."""
    start = HermitState.initial(size=n)
    best, leaves = float("inf"), 0
    for _ in range(5):
        began = time.perf_counter()
        leaves = start.perft(depth)
        best = min(best, time.perf_counter() - began)
    return leaves, best


def plain_c(binary: Path, n: int, depth: int, variant: str) -> tuple[int, float]:
    """Leaves and best-of-5 seconds of the plain C perft (``bulk`` or ``leaves``)."""
    command = [str(binary), str(n), str(depth), variant]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    leaves, seconds = out.stdout.split()
    return int(leaves), float(seconds)


def compile_plain_c(folder: Path) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("bench_hermit_perft needs gcc on the PATH to build the plain C perft")
    binary = folder / "hermit_perft"
    subprocess.run([gcc, "-O2", "-march=native", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small boards only: check that it works")
    args = parser.parse_args()
    cases = [(3, 2), (4, 2)] if args.smoke else [(5, 3), (6, 3), (5, 4), (6, 4)]
    print(f"backend: {backend()}")
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_plain_c(Path(folder))
        for n, depth in cases:
            leaves, seconds = ours(n, depth)
            bulk_leaves, bulk = plain_c(binary, n, depth, "bulk")
            every_leaves, every = plain_c(binary, n, depth, "leaves")
            if not leaves == bulk_leaves == every_leaves:
                sys.exit(f"{n}x{n} perft {depth}: ours {leaves}, plain C {bulk_leaves} and {every_leaves}")
            print(
                f"{n}x{n} perft {depth} ({leaves:,} leaves): ours {seconds * 1e3:.3f} ms, "
                f"plain C bulk {bulk * 1e3:.3f} ms, plain C every leaf {every * 1e3:.3f} ms"
            )


if __name__ == "__main__":
    main()
