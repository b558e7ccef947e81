"""Self-play games a minute of ``bordspel train quarto``, side by side in one run: self-play in
the learner's process (the default) against two actor processes apart from the learner
(``--actors 2``, ``bordspel.zero.actors``).

Each is a fresh short training run of the same settings (a small network, no matches), run for
``--seconds`` by the run's clock; a rate is finished self-play games a minute of that clock
(wall-clock time: the actors' processes are other processes, so processor time of this one
would not count their work). With actors, a round learns from the games of the first actor to
finish while the others go on playing.

Run:  python benchmarks/bench_actors.py                (the figures in docs/results.md)
      python benchmarks/bench_actors.py --smoke        (a few seconds: checks that it runs)
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import torch

from bordspel.core import new_game
from bordspel.progress import ProgressLine
from bordspel.zero.actors import ProcessActors
from bordspel.zero.train import Settings, Trainer, pick_device


def games_a_minute(settings: Settings, actors: int, seconds: float) -> tuple[float, int, int]:
    """Games a minute, games and rounds of a fresh run of ``seconds`` with ``actors`` processes
    (0: self-play in this process)."""
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(new_game("quarto"), Path(folder), settings, pick_device("cpu"))
        pool = ProcessActors(actors) if actors else None
        try:
            trainer.run(seconds / 60, None, ProgressLine(), pool)
        finally:
            if pool is not None:
                pool.close()
        progress = trainer.progress
        return progress.games / progress.seconds * 60, progress.games, progress.rounds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=120.0, help="each run's length (default 120)")
    parser.add_argument("--games", type=int, default=32, help="self-play games a round or job (default 32)")
    parser.add_argument("--simulations", type=int, default=16, help="simulations a move (default 16)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds, to check that it runs")
    args = parser.parse_args()
    seconds, games = (5.0, 4) if args.smoke else (args.seconds, args.games)
    torch.set_num_threads(1)
    settings = Settings(games=games, simulations=args.simulations, width=16, blocks=2, opponents=())
    print(f"load average at the start: {os.getloadavg()[0]:.1f}; {os.cpu_count()} processors")
    print("| self-play | rounds | games | games/min (run's clock) | ratio |")
    print("|---|---:|---:|---:|---:|")
    base = 0.0
    for actors in (0, 2):
        rate, played, rounds = games_a_minute(settings, actors, seconds)
        base = base or rate
        where = f"{actors} actor processes" if actors else "in the learner's process"
        print(f"| {where} | {rounds} | {played} | {rate:,.0f} | {rate / base:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
