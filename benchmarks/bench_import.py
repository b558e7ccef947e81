"""What a user pays to start: ``import bordspel`` and a first Hermit board, in a fresh interpreter.

Run:  python benchmarks/bench_import.py          (the figures on the docs' results page)
      python benchmarks/bench_import.py --smoke  (a quick run that only checks it works)

Each case runs in a new ``python -c`` process (so nothing is cached in memory), ``--runs`` times;
the table gives the median and the fastest time of the import and first use, measured inside
the process, and the number of ``bordspel`` modules loaded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CASES = {
    "import bordspel": "import bordspel",
    "bordspel.Hermit(4)": "import bordspel\nbordspel.Hermit(4)",
    "bordspel.Santorini(...)": "import bordspel\nbordspel.Santorini([(0, 0), (0, 1), (1, 0), (1, 1)])",
    "new_game('quarto')": "import bordspel\nbordspel.new_game('quarto')",
}

PROBE = """\
import json, sys, time
started = time.perf_counter()
{code}
seconds = time.perf_counter() - started
print(json.dumps([seconds, sorted(m for m in sys.modules if m.split('.')[0] == 'bordspel')]))
"""


def measure(code: str) -> tuple[float, list[str]]:
    """One fresh interpreter's time for ``code`` and the bordspel modules it loaded."""
    output = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)], capture_output=True, text=True, check=True
    )
    seconds, modules = json.loads(output.stdout)
    return float(seconds), list(modules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="two runs a case")
    args = parser.parse_args()
    runs = 2 if args.smoke else args.runs
    print(f"python {sys.version.split()[0]}, {runs} fresh interpreters a case")
    print(f"{'case':<26} {'median ms':>10} {'fastest ms':>11} {'modules':>8}")
    for name, code in CASES.items():
        times, modules = [], []
        for run in range(runs):
            seconds, modules = measure(code)
            times.append(seconds * 1000)
            print(f"\r{name:<26} run {run + 1}/{runs}", end="", file=sys.stderr, flush=True)
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
        print(f"{name:<26} {statistics.median(times):>10.1f} {min(times):>11.1f} {len(modules):>8}")


if __name__ == "__main__":
    main()
