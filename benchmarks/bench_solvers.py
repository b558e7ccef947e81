"""Exact solvers: Quarto positions from random play, Hermit's proof search on 7x7 positions, and
Hermit's empty 4x4 board.

Quarto positions come from random play in which nobody hands over an immediately winning piece,
after 8, 6 and 4 placements, with the next piece still to be chosen (``random_choice_position``,
seeded). Each is solved by a fresh solver (an empty table), the compiled one (when it is built)
and the pure-Python reference, on the same positions (the pure one on the first few at 4 placed).
Then the compiled Quarto playouts of MCTS (``random_results``, one batch from the empty board).
Hermit's compiled proof search (``ProofSolver(7, small=11)``, a fresh one a position, at most a
million positions each) on positions after 8, 10 and 12 random plies, with the cache of regions'
canonical forms (``hard``) and without it (``hard-v1``'s ``solver=v1``): the same positions
searched, so the times compare the two.

Run:  python benchmarks/bench_solvers.py                 (the README's figures)
      python benchmarks/bench_solvers.py --smoke         (a quick run that only checks it works)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bordspel._native import load
from bordspel.ai.search import OutOfTime
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.solve import solve_empty
from bordspel.games.quarto.ai import CompiledQuartoSolver, PureQuartoSolver, random_choice_position


def bench_quarto(placed: int, count: int, solver: type[PureQuartoSolver]) -> None:
    rng = random.Random(placed)
    name = "compiled" if solver is CompiledQuartoSolver else "pure"
    times, nodes, results = [], 0, {"win": 0, "draw": 0, "loss": 0}
    for done in range(1, count + 1):
        board, available = random_choice_position(placed, rng)
        solution = solver().solve_choice(board, available)
        times.append(solution.seconds)
        nodes += solution.nodes
        results[solution.result] += 1
        print(f"\r  {placed} placed, {name}: {done}/{count} positions", end="", flush=True)
    print(
        f"\rQuarto, {placed} placed, {name:8}: mean {statistics.mean(times) * 1000:9.1f} ms, median "
        f"{statistics.median(times) * 1000:9.1f} ms, max {max(times) * 1000:9.1f} ms over {count} positions; "
        f"{nodes / count:,.0f} nodes a position, {sum(times) / nodes * 1e6:.3f} us a node "
        f"(win/draw/loss for the chooser: {results['win']}/{results['draw']}/{results['loss']})",
        flush=True,
    )


def bench_quarto_playouts(games: int) -> None:
    playouts = load("quarto_playout")
    if playouts is None:
        return
    for advanced in (False, True):
        started = time.perf_counter()
        results = playouts.random_results(0, (0, 0, 0, 0), -1, 0, advanced, games, 1)
        seconds = time.perf_counter() - started
        print(
            f"Quarto{' advanced' if advanced else ''}, compiled random games: {games / seconds:,.0f} games/s "
            f"(first/second/draw: {results.count(0)}/{results.count(1)}/{results.count(2)})"
        )


def hermit_positions(plies: tuple[int, ...], count: int) -> list[HermitState]:
    """``count`` 7x7 positions after each number of random plies (seeded by the plies)."""
    found = []
    for played in plies:
        rng = random.Random(played)
        for _ in range(count):
            state = HermitState.initial(size=7)
            for _ in range(played):
                state = state.apply_unchecked(rng.choice(state.legal_moves()))
            found.append(state)
    return found


def bench_hermit_proof(positions: list[HermitState], limit: int, region_cache: bool) -> None:
    name = "with the region cache" if region_cache else "without it (solver=v1)"
    searched, unsettled, started = 0, 0, time.perf_counter()
    for done, state in enumerate(positions, 1):
        solver = ProofSolver(7, small=11, node_limit=limit, region_cache=region_cache)
        try:
            solver.state_wins(state)
        except OutOfTime:
            unsettled += 1
        searched += solver.examined
        print(f"\r  Hermit 7x7 proof search {name}: {done}/{len(positions)} positions", end="", flush=True)
    seconds = time.perf_counter() - started
    print(
        f"\rHermit 7x7 proof search {name}: {searched:,} positions in {seconds:.1f} s "
        f"({searched / seconds:,.0f} a second; {unsettled} of {len(positions)} unsettled after {limit:,})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    plan = [(10, 5, 5), (8, 3, 3)] if args.smoke else [(8, 20, 20), (6, 20, 20), (4, 20, 3)]
    for placed, compiled, pure in plan:
        if load("quarto_solver") is not None:
            bench_quarto(placed, compiled, CompiledQuartoSolver)
        bench_quarto(placed, pure, PureQuartoSolver)
    bench_quarto_playouts(10_000 if args.smoke else 1_000_000)
    if load("hermit_core") is not None:
        positions = hermit_positions((14,) if args.smoke else (8, 10, 12), 2 if args.smoke else 12)
        for region_cache in (True, False):
            bench_hermit_proof(positions, 10_000 if args.smoke else 1_000_000, region_cache)
    size = 3 if args.smoke else 4
    report = solve_empty(size)
    winner = "first" if report.first_player_wins else "second"
    examined = f"{report.examined:,} positions in {report.seconds:.1f} s"
    print(f"Hermit {size}x{size}: the {winner} player wins; {examined}")


if __name__ == "__main__":
    main()
