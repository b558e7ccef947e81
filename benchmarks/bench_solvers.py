"""Exact solvers: Quarto positions from random play, and Hermit's empty 4x4 board.

Quarto positions come from random play in which nobody hands over an immediately winning piece,
after 8, 6 and 4 placements, with the next piece still to be chosen (``random_choice_position``,
seeded). Each is solved by a fresh solver (an empty table).

Run:  python benchmarks/bench_solvers.py                 (the README's figures)
      python benchmarks/bench_solvers.py --smoke         (a quick run that only checks it works)
"""

from __future__ import annotations

import argparse
import random
import statistics

from bordspel.ai.hermit_solve import solve_empty
from bordspel.ai.quarto import QuartoSolver, random_choice_position


def bench_quarto(placed: int, count: int) -> None:
    rng = random.Random(placed)
    times, results = [], {"win": 0, "draw": 0, "loss": 0}
    for done in range(1, count + 1):
        board, available = random_choice_position(placed, rng)
        solution = QuartoSolver().solve_choice(board, available)
        times.append(solution.seconds)
        results[solution.result] += 1
        print(f"\r  {placed} placed: {done}/{count} positions", end="", flush=True)
    print(
        f"\rQuarto, {placed} placed: mean {statistics.mean(times) * 1000:9.1f} ms, median "
        f"{statistics.median(times) * 1000:9.1f} ms, max {max(times) * 1000:9.1f} ms over {count} positions "
        f"(win/draw/loss for the chooser: {results['win']}/{results['draw']}/{results['loss']})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    plan = [(10, 5), (8, 3)] if args.smoke else [(8, 20), (6, 20), (4, 10)]
    for placed, count in plan:
        bench_quarto(placed, count)
    size = 3 if args.smoke else 4
    report = solve_empty(size)
    winner = "first" if report.first_player_wins else "second"
    examined = f"{report.examined:,} positions in {report.seconds:.1f} s"
    print(f"Hermit {size}x{size}: the {winner} player wins; {examined}")


if __name__ == "__main__":
    main()
