"""``bordspel solve hermit N``: the exact solver of the empty board, with progress."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bordspel.cli import Solver
from bordspel.core import BordspelError
from bordspel.progress import ProgressLine

if TYPE_CHECKING:
    from bordspel.ai.arena import Backend

__all__ = ["SOLVER", "add_arguments", "solve"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The size of the empty board to solve, and how."""
    parser.add_argument("target", metavar="N", help="the board size")
    parser.add_argument(
        "--first", action="store_true", help="stop at the first winning first move (the centre first)"
    )
    parser.add_argument(
        "--results", metavar="FILE", help="append each settled first move to FILE, and resume from it"
    )
    parser.add_argument(
        "--memory", type=float, default=256, metavar="MB", help="the result table per worker (MB)"
    )
    parser.add_argument(
        "--disk",
        metavar="DIR",
        help="keep settled positions in a table on disk at DIR, shared by the workers and read "
        "back by later runs and by --proof (needs the solve extra)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="reply by reply, saving what it learned to the data folder (--data) every --save-every "
        "seconds and when stopped; the same command continues from there; with --workers K or "
        "--backend ray, a class's replies are spread over them as tasks",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="with --resume: the data folder (default: data/hermit-NxN of the checkout)",
    )
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="with --resume: an LMDB cache of settled positions (default: ~/.cache/bordspel/hermit-NxN.lmdb "
        "when the solve extra is installed); 'none' for none",
    )
    parser.add_argument(
        "--book-work",
        type=int,
        default=1024,
        metavar="K",
        help="with --resume: keep in the book the positions with at least K positions searched below them",
    )
    parser.add_argument(
        "--save-every", type=float, default=300, metavar="S", help="with --resume: save every S seconds"
    )
    parser.add_argument(
        "--proof",
        metavar="MOVE:FILE",
        help="instead of solving: write the proof of who wins after MOVE (like Rc3U) to FILE",
    )
    parser.add_argument(
        "--search",
        choices=("pn", "depth-first"),
        default="pn",
        help="proof-number search (df-pn, the default) or the depth-first search",
    )
    parser.add_argument(
        "--log-every",
        type=float,
        default=0,
        metavar="S",
        help="every S seconds, a line on stderr per running first move: positions, rate, table fill",
    )


def solve(args: argparse.Namespace) -> None:
    """``bordspel solve hermit N``: who wins the empty board, over worker processes or Ray."""
    from bordspel.games.hermit.solve import settle, solve_empty, table_bits

    try:
        size = int(args.target)
    except ValueError:
        raise BordspelError(f"solve hermit takes a board size, like 4, not {args.target!r}") from None
    disk = Path(args.disk) if args.disk else None
    if args.proof:
        write(size, args.proof, args.memory, disk)
        return

    if args.resume:
        resume(size, args)
        return
    line = ProgressLine()

    def progress(done: int, total: int, examined: int, seconds: float) -> None:
        line.update(f"first moves settled {done}/{total}, positions {examined:,}, {seconds:.0f} s")

    backend = _backend(args)
    run = None if backend is None else functools.partial(backend.run, settle)
    results = Path(args.results) if args.results else None
    proof_numbers = args.search == "pn"
    bits = table_bits(args.memory, proof_numbers)
    report = solve_empty(
        size,
        progress,
        args.first,
        run=run,
        results=results,
        bits=bits,
        proof_numbers=proof_numbers,
        log_every=args.log_every,
        disk=disk,
    )
    line.close()
    winner = "the first player" if report.first_player_wins else "the second player"
    grundy = "" if report.grundy is None else f" (Grundy value {report.grundy})"
    print(f"Hermit {size}x{size}: {winner} wins{grundy}")
    moves = " ".join(m.to_str() for m in report.winning_moves) or "none"
    print(f"winning first moves ({len(report.winning_moves)} of {report.moves} tried): {moves}")
    print(f"positions examined: {report.examined:,}; time {report.seconds:.1f} s")


def _backend(args: argparse.Namespace) -> Backend | None:
    """Local worker processes or Ray, if asked for (``--workers K``, ``--backend ray``)."""
    from bordspel.ai.arena import BACKENDS

    if args.backend != "ray" and (args.workers or 1) <= 1:
        return None
    address = {"address": args.address} if args.address else {}
    return BACKENDS[args.backend](args.workers, **address)


def resume(size: int, args: argparse.Namespace) -> None:
    """``--resume``: settle the classes reply by reply, saving to the data folder; report."""
    from bordspel.games.hermit.resume import Resumable, checkout_data
    from bordspel.games.hermit.solve import table_bits
    from bordspel.stopping import Stopped

    data = Path(args.data) if args.data else checkout_data(size)
    if data is None:
        raise BordspelError("--resume outside a checkout needs a data folder: add --data DIR")
    run = Resumable(
        size,
        data,
        table_bits(args.memory),
        args.book_work,
        args.save_every,
        args.log_every or 60,
        _cache(size, args.cache),
        args.first,
        _backend(args),
    )
    try:
        settled = run.run()
    except Stopped as stop:
        print(f"{stop}: what the run learned is saved in {data}; run the same command to continue")
        raise SystemExit(128 + stop.signum) from None
    winning = sorted(move for move, result in settled.items() if result.wins)
    print(f"Hermit {size}x{size}: classes of first moves settled {len(settled)}")
    print(f"winning classes: {' '.join(winning) or 'none'}")


def _cache(size: int, cache: str | None) -> Path | None:
    """The LMDB cache to use: the one named, or the user's if the solve extra is installed."""
    from bordspel.games.hermit.resume import default_cache

    if cache == "none":
        return None
    if cache:
        return Path(cache)
    try:
        import lmdb  # noqa: F401
    except ImportError:
        return None
    return default_cache(size)


def write(size: int, proof: str, memory: float, disk: Path | None) -> None:
    """``--proof MOVE:FILE``: the proof after one first move, written for ``bordspel verify``."""
    from bordspel.games.hermit.solve import table_bits, write_proof

    move, colon, path = proof.partition(":")
    if not colon or not path:
        raise BordspelError(f"--proof takes MOVE:FILE, like Rc3U:proof.jsonl, not {proof!r}")
    print(f"searching the proof after {move} on {size}x{size} ...", file=sys.stderr)
    wins = write_proof(size, move, Path(path), bits=table_bits(memory), disk=disk)
    print(f"{move} {'wins' if wins else 'loses'} on {size}x{size}: proof written to {path}")


def verify(path: Path, variant: str, sample: int | None = None, seed: int = 0) -> str:
    """Check a Hermit proof file, or a run's data folder (all its claims, or ``sample`` of them),
    with the independent checker."""
    from bordspel.games.hermit.verify import check_proof

    if path.is_dir():
        return _verify_data(path, variant, sample, seed)
    if sample is not None:
        raise BordspelError("--sample checks a run's data folder, not a proof file")
    header = check_proof(path)
    size = f"{header.n}x{header.n}"
    if variant and variant != size:
        raise BordspelError(f"{path} is a proof on {size}, not {variant}: name hermit-{size}")
    claim = "wins" if header.wins else "loses"
    return (
        f"proof checked: on {size}, the player to move {claim} (brute force at {header.brute_force} squares)"
    )


def _verify_data(folder: Path, variant: str, sample: int | None, seed: int) -> str:
    """A data folder checked claim by claim, with a progress line on stderr."""
    from bordspel.games.hermit.audit import check_data

    size, _, other = variant.partition("x")
    if not size.isdigit() or other != size:
        raise BordspelError(f"name the board of a data folder, like hermit-6x6, not hermit-{variant}")
    line = ProgressLine(every=1.0)
    try:
        return check_data(folder, int(size), sample, seed, progress=line.update)
    finally:
        line.close()


SOLVER = Solver("who wins the empty N x N board, and with which first moves", add_arguments, solve, verify)
