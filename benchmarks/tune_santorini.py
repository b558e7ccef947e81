"""Tune the Santorini evaluation by matches: each weight variant plays the current weights.

Both sides search to a fixed depth (deterministic); the workers' setup is random (seeded) so
the games differ; seats alternate. Prints each variant's score against the baseline.

Run:  python benchmarks/tune_santorini.py [--games 40] [--depth 2]
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from bordspel.ai.players import AlphaBetaPlayer
from bordspel.core import new_game
from bordspel.games.santorini.ai import Weights, make_evaluation, order

BASE = Weights()
VARIANTS = {
    "no mobility": replace(BASE, mobility=0.0),
    "more mobility": replace(BASE, mobility=2 * BASE.mobility),
    "less reach": replace(BASE, reach=BASE.reach / 2),
    "more reach": replace(BASE, reach=BASE.reach * 1.5),
    "no centre": replace(BASE, centre=0.0),
    "more centre": replace(BASE, centre=2 * BASE.centre),
    "weaker threat": replace(BASE, threat=BASE.threat / 2),
    "flat heights": replace(BASE, height=(0.0, BASE.height[1] / 2, BASE.height[2] / 2, 0.0)),
    "steep heights": replace(BASE, height=(0.0, BASE.height[1] * 1.6, BASE.height[2] * 1.8, 0.0)),
}


def play(job: tuple[Weights, Weights, int, int]) -> float:
    """One game; returns the first weights' points (1, 1/2 or 0)."""
    first, second, seed, depth = job
    rng = random.Random(seed)
    state = new_game("santorini")
    while state.in_setup:  # type: ignore[attr-defined]
        state = state.apply(state.random_move(rng))
    swap = seed % 2
    players = [AlphaBetaPlayer(make_evaluation(w), max_depth=depth, time_limit=None, order=order)
               for w in ((second, first) if swap else (first, second))]  # fmt: skip
    plies = 0
    while not state.is_over() and plies < 200:
        state = state.apply(players[state.to_move].step(state))
        plies += 1
    outcome = state.outcome()
    if outcome is None or outcome.is_draw:
        return 0.5
    return 1.0 if outcome.winner == swap else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor() as pool:
        for name, weights in VARIANTS.items():
            jobs = [(weights, BASE, seed, args.depth) for seed in range(args.games)]
            points = sum(pool.map(play, jobs))
            share = f"{points / args.games:.0%} against the baseline"
            print(f"{name:16} {points:5.1f} / {args.games}  ({share})", flush=True)


if __name__ == "__main__":
    main()
