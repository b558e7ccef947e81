"""``bordspel solve quarto POSITION``: the exact solver of a position, with progress."""

from __future__ import annotations

import argparse
import sys
import time

from bordspel.core import BordspelError

__all__ = ["solve"]


def solve(args: argparse.Namespace) -> None:
    """``bordspel solve quarto POSITION``: the exact value of a position and a best move."""
    from bordspel.games.quarto.ai import CompiledQuartoSolver, QuartoSolver
    from bordspel.games.quarto.engine import QuartoState

    state = QuartoState.from_str(args.target)
    if state.is_over():
        raise BordspelError("the game in that position is over")
    started = time.perf_counter()
    solver = QuartoSolver(state.advanced)
    if isinstance(solver, CompiledQuartoSolver) and args.table_bits:
        solver = CompiledQuartoSolver(state.advanced, max_table_bits=args.table_bits)

    def progress(nodes: int) -> None:
        line = f"\rpositions examined {nodes:,}, {time.perf_counter() - started:.0f} s"
        print(line, end="", file=sys.stderr, flush=True)

    solver.progress = progress
    board = [-1 if (p := state.piece_at(c)) is None else p for c in range(16)]
    available = sum(1 << p for p in state.available())
    if state.hand < 0:
        solution = solver.solve_choice(board, available)
    else:
        solution = solver.solve_placement(board, state.hand, available)
    move = solver.best_move(state)
    if solution.nodes >= 1 << 16:
        print(file=sys.stderr)
    who = f"player {state.to_move + 1}"
    placements = f"{solution.distance} placement{'' if solution.distance == 1 else 's'}"
    print(f"{who} to move: {solution.result} in {placements}; best move {move.to_str()}")
    print(f"positions examined: {solution.nodes:,}; time {solution.seconds:.2f} s")
