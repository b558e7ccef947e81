"""Santorini with gods against the base game, side by side in one run on one core.

For each god pair: perft from a fixed position after the setup and random games to the end,
counted in positions (or games) per second of this process's processor time (the machine may be
shared; the wall clock would count other jobs' time). The last column is how many times slower
than the base game the pair is; issue 37's target is 3x.

Run:  python benchmarks/bench_gods.py                   (the figures in docs/results.md; a few minutes)
      python benchmarks/bench_gods.py --all-gods        (every god against a player without one, perft 2)
      python benchmarks/bench_gods.py --depth-at 1      (the depth ``hard`` reaches in 1 s, each god;
                                                     --player alphabeta:compiled=0 for the pure search)
      python benchmarks/bench_gods.py --turns           (the generator alone: microseconds a position)
      python benchmarks/bench_gods.py --smoke           (a few seconds: checks that it runs)

``--depth-at S`` searches middle-game positions (both players' ``medium`` moves for ``--plies``
plies after a random setup, the same seeds for every god) with ``hard``'s search for S seconds of
wall clock (the machine's load shows in it: compare the rows of one run) and prints the mean depth
of the last finished iteration, for every god against a player without one and for the base game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bordspel._native import backend
from bordspel.ai import analyse, make_player
from bordspel.ai.search import Limit
from bordspel.core import State, new_game
from bordspel.games.santorini import generator
from bordspel.games.santorini.gods import GODS

PAIRS = (("apollo", "pan"), ("artemis", "minotaur"), ("hermes", "athena"), ("atlas", "demeter"))
SETUP = ("c3d4", "b2d2")
"""Both players' placements: the position every perft starts from."""


def processor_seconds(work: Callable[[], int]) -> tuple[float, int]:
    """The processor time ``work`` takes, and what it returns."""
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def after_setup(gods: tuple[str, ...]) -> State:
    """The position after both placements, with ``gods`` (none for the base game)."""
    state = new_game("santorini", gods=list(gods)) if gods else new_game("santorini")
    for placement in SETUP:
        state = state.play(placement)
    return state


def random_games(gods: tuple[str, ...], games: int, seed: int) -> int:
    """Play ``games`` random games from random placements to the end; the number of plies."""
    rng = random.Random(seed)
    start = new_game("santorini", gods=list(gods)) if gods else new_game("santorini")
    plies = 0
    for _ in range(games):
        state = start
        while not state.is_over():
            state = state.apply(state.random_move(rng))
            plies += 1
    return plies


def measure(gods: tuple[str, ...], depth: int, games: int) -> tuple[float, float]:
    """Perft positions a second and random games a second for one pair (or the base game)."""
    start = after_setup(gods)
    perft_seconds, positions = processor_seconds(lambda: start.perft(depth))
    game_seconds, _ = processor_seconds(lambda: random_games(gods, games, 1))
    return positions / perft_seconds, games / game_seconds


def report(pairs: list[tuple[str, ...]], depth: int, games: int) -> None:
    base_rate, base_games = measure((), depth, games)
    print(f"{'gods':24} {'perft/s':>12} {'games/s':>10} {'x slower (games)':>17}")
    print(f"{'(base game)':24} {base_rate:>12,.0f} {base_games:>10,.1f} {1:>17.1f}", flush=True)
    for pair in pairs:
        rate, per_second = measure(pair, depth, games)
        print(f"{','.join(pair):24} {rate:>12,.0f} {per_second:>10,.1f} {base_games / per_second:>17.1f}")
        sys.stdout.flush()


def middle_game(gods: tuple[str, ...], seed: int, plies: int) -> State:
    """A position ``plies`` plies of ``medium`` play after a random setup (drawn from ``seed``)."""
    rng = random.Random(seed)
    state: Any = new_game("santorini", gods=list(gods)) if gods else new_game("santorini")
    player = make_player("medium", "santorini", seed=seed)
    while state.in_setup:
        state = state.apply(state.random_move(rng))
    for _ in range(plies):
        if state.is_over():
            break
        state = state.apply(player.step(state))
    return state


def mean_depth(gods: tuple[str, ...], seconds: float, positions: int, plies: int, player: str) -> float:
    """The mean depth ``hard``'s search finishes in ``seconds`` over middle-game positions."""
    depths = []
    for seed in range(positions):
        state = middle_game(gods, seed, plies)
        if not state.is_over():
            depths.append(analyse(player, state, Limit(time=seconds)).depth)
    return sum(depths) / len(depths) if depths else float("nan")


def report_depths(seconds: float, positions: int, plies: int, player: str) -> None:
    print(f"mean depth of {player} in {seconds:g} s over {positions} positions after {plies} plies of medium")
    print(f"{'(base game)':24} {mean_depth((), seconds, positions, plies, player):5.1f}", flush=True)
    for name in GODS:
        depth = mean_depth((name, "-"), seconds, positions, plies, player)
        print(f"{name + ',-':24} {depth:5.1f}", flush=True)


def turn_costs(gods: tuple[str, ...], repeats: int = 20) -> tuple[float, float]:
    """Microseconds of processor time for all legal turns with their positions, and for "has a
    turn", on each position after a first turn from :data:`SETUP` (the generator's caches
    cleared before every call)."""
    start = after_setup(gods)
    positions = [start.apply(move) for move in start.legal_moves()]
    costs = []
    for query in (generator.table, generator.has_turn):

        def run(query: Callable[[Any], object] = query) -> int:
            for _ in range(repeats):
                for position in positions:
                    generator._turns.cache_clear()
                    query(position)
            return repeats * len(positions)

        seconds, calls = processor_seconds(run)
        costs.append(seconds / calls * 1e6)
    return costs[0], costs[1]


def report_turn_costs(pairs: list[tuple[str, ...]]) -> None:
    print(f"gods module: {generator.gods.__name__}")
    print(f"{'gods':<22} {'legal turns (us)':>17} {'has a turn (us)':>16}")
    for gods in pairs:
        table, has = turn_costs(gods)
        print(f"{','.join(gods):<22} {table:>17,.0f} {has:>16,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--smoke", action="store_true", help="depth 1, two games: only checks it runs")
    parser.add_argument("--all-gods", action="store_true", help="every god against a player without one")
    parser.add_argument("--depth", type=int, default=3, help="perft depth from the position (default 3)")
    parser.add_argument("--games", type=int, default=40, help="random games per pair (default 40)")
    parser.add_argument("--depth-at", type=float, metavar="S", help="hard's depth in S seconds, each god")
    parser.add_argument("--positions", type=int, default=3, help="positions per god for --depth-at")
    parser.add_argument("--player", default="hard", help="the searching player for --depth-at (default hard)")
    parser.add_argument("--plies", type=int, default=6, help="medium's plies after the setup (--depth-at)")
    parser.add_argument("--turns", action="store_true", help="the generator alone, per position")
    args = parser.parse_args()
    if args.turns:
        report_turn_costs(list(PAIRS))
        return
    if args.depth_at:
        report_depths(args.depth_at, args.positions, args.plies, args.player)
        return
    depth, games = (1, 2) if args.smoke else (args.depth, args.games)
    pairs: list[tuple[str, ...]] = list(PAIRS)
    if args.all_gods:
        pairs = [(name, "-") for name in GODS]
        depth = min(depth, 2)
    print(f"bordspel backend: {backend()}; perft {depth} after {' '.join(SETUP)}; {games} random games")
    report(pairs, depth, games)


if __name__ == "__main__":
    main()
