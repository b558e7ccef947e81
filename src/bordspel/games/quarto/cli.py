"""``bordspel solve quarto POSITION``: the exact solver of a position, with progress; with
``--workers`` or ``--backend ray`` split over processes or Ray tasks (``solve``)."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from bordspel.cli import Solver
from bordspel.core import BordspelError
from bordspel.progress import ProgressLine

if TYPE_CHECKING:
    from bordspel.games.quarto.ai import Solution
    from bordspel.games.quarto.engine import QuartoMove, QuartoState

__all__ = ["SOLVER", "add_arguments", "solve"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The position to solve, and the size of the table."""
    parser.add_argument(
        "target", metavar="POSITION", help='a position string, like "AB../..../..../.... hand=C"'
    )
    parser.add_argument(
        "--table-bits",
        type=int,
        default=0,
        metavar="B",
        help="compiled: a table of at most 2**B entries of 16 bytes (default 24), per worker",
    )


def solve(args: argparse.Namespace) -> None:
    """``bordspel solve quarto POSITION``: the exact value of a position and a best move."""
    from bordspel.games.quarto.ai import CompiledQuartoSolver, QuartoSolver
    from bordspel.games.quarto.engine import QuartoState

    state = QuartoState.from_str(args.target)
    if state.is_over():
        raise BordspelError("the game in that position is over")
    board = [-1 if (p := state.piece_at(c)) is None else p for c in range(16)]
    available = sum(1 << p for p in state.available())
    line = ProgressLine()
    move: QuartoMove
    if args.backend == "ray" or args.workers > 1:
        solution, move = _solve_split(args, state, board, available, line)
    else:
        started = time.perf_counter()
        solver = QuartoSolver(state.advanced)
        if isinstance(solver, CompiledQuartoSolver) and args.table_bits:
            solver = CompiledQuartoSolver(state.advanced, max_table_bits=args.table_bits)
        solver.progress = lambda nodes: line.update(
            f"positions examined {nodes:,}, {time.perf_counter() - started:.0f} s"
        )
        solution = (
            solver.solve_choice(board, available)
            if state.hand < 0
            else solver.solve_placement(board, state.hand, available)
        )
        move = solver.best_move(state)
    line.close()
    who = f"player {state.to_move + 1}"
    placements = f"{solution.distance} placement{'' if solution.distance == 1 else 's'}"
    print(f"{who} to move: {solution.result} in {placements}; best move {move.to_str()}")
    print(f"positions examined: {solution.nodes:,}; time {solution.seconds:.2f} s")


def _solve_split(
    args: argparse.Namespace, state: QuartoState, board: list[int], available: int, line: ProgressLine
) -> tuple[Solution, QuartoMove]:
    """Solve over worker processes or Ray tasks (``bordspel.games.quarto.solve``)."""
    from bordspel.ai.arena import BACKENDS
    from bordspel.games.quarto.engine import QuartoMove
    from bordspel.games.quarto.solve import SplitSolver

    address = {"address": args.address} if args.address else {}
    backend = BACKENDS[args.backend](args.workers, **address)
    bits = args.table_bits or 24
    split = SplitSolver(backend.run, advanced=state.advanced, tasks=4 * max(1, args.workers), table_bits=bits)
    started = time.perf_counter()
    split.progress = lambda leaves, nodes: line.update(
        f"positions searched {leaves}, positions examined {nodes:,}, {time.perf_counter() - started:.0f} s"
    )
    solution, root = split.solve(board, state.hand, available)
    chars = state.pieces.chars
    if state.hand < 0:
        assert solution.best is not None
        return solution, QuartoMove(None, chars[solution.best])
    cell = solution.best
    assert cell is not None
    if split.rules.wins_at(board, cell, state.hand) or not available:
        return solution, QuartoMove(cell, None)
    piece = split.piece_after(root, solution.score, cell)
    assert piece is not None
    return solution, QuartoMove(cell, chars[piece])


SOLVER = Solver("the exact value of a position and a best move", add_arguments, solve)
