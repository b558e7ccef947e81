"""``bordspel solve hermit N``: the exact solver of the empty board, with progress."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

from bordspel.core import BordspelError
from bordspel.progress import ProgressLine

__all__ = ["solve"]


def solve(args: argparse.Namespace) -> None:
    from bordspel.ai.arena import BACKENDS
    from bordspel.games.hermit.solve import settle, solve_empty, table_bits

    try:
        size = int(args.target)
    except ValueError:
        raise BordspelError(f"solve hermit takes a board size, like 4, not {args.target!r}") from None

    line = ProgressLine()

    def progress(done: int, total: int, examined: int, seconds: float) -> None:
        line.update(f"first moves settled {done}/{total}, positions {examined:,}, {seconds:.0f} s")

    run = None
    if args.backend == "ray" or (args.workers or 1) > 1:
        address = {"address": args.address} if args.address else {}
        run = functools.partial(BACKENDS[args.backend](args.workers, **address).run, settle)
    results = Path(args.results) if args.results else None
    bits = table_bits(args.memory)
    report = solve_empty(size, progress, args.first, run=run, results=results, bits=bits)
    line.close()
    winner = "the first player" if report.first_player_wins else "the second player"
    grundy = "" if report.grundy is None else f" (Grundy value {report.grundy})"
    print(f"Hermit {size}x{size}: {winner} wins{grundy}")
    moves = " ".join(m.to_str() for m in report.winning_moves) or "none"
    print(f"winning first moves ({len(report.winning_moves)} of {report.moves} tried): {moves}")
    print(f"positions examined: {report.examined:,}; time {report.seconds:.1f} s")
