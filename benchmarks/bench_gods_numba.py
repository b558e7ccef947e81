"""Random games with gods: bordspel against the numba engine of cestpasphoto/alpha-zero-general,
side by side in one process, per processor second, on ``bench_gods``'s god pairs.

The outside engine is not part of bordspel: clone it anywhere and give its folder, and run with
an interpreter that has numpy and numba (its engine's only needs here):

    git clone https://github.com/cestpasphoto/alpha-zero-general /tmp/azg
    PYTHONPATH=src:benchmarks python benchmarks/bench_gods_numba.py --azg /tmp/azg --games 40

Both play random games to the end from random placements with the pair's gods: theirs through
their ``SantoriniGame`` (``getValidMoves``, ``getNextState``, ``getGameEnded``, as their arena
plays), ours through the engine (``legal_moves``, ``apply``) and on the walk's packed outcomes
(``gods_play``), as ``bench_gods`` counts them. Their gods are their own reading of the cards
(e.g. Hermes moves at most 5 times), so the games are alike, not the same.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import bench_gods

THEIR_GODS = ("apollo", "minotaur", "atlas", "hephaestus", "artemis", "demeter", "hermes", "pan", "athena")
"""Their gods' numbers, from 1 (0 is no god); Prometheus (10) is not in bench_gods's pairs."""


def their_game(folder: Path) -> tuple[Any, Any, int]:
    """Their ``SantoriniGame``, numpy, and their number of gods (with "no god")."""
    sys.path.insert(0, str(folder))
    import numpy
    from santorini.SantoriniConstants import NB_GODS
    from santorini.SantoriniGame import SantoriniGame

    return SantoriniGame(), numpy, NB_GODS


def their_games(
    outside: tuple[Any, Any, int], pair: tuple[str, ...], games: int, seed: int
) -> tuple[float, int]:
    """Processor seconds of ``games`` random games of theirs with the pair's gods, and their turns."""
    game, numpy, gods = outside
    rng = numpy.random.default_rng(seed)
    numpy.random.seed(seed)  # their random placements
    turns, started = 0, time.process_time()
    for _ in range(games):
        board = game.getInitBoard()
        powers = numpy.zeros(25, dtype=board.dtype)  # the gods they drew, replaced by the pair
        powers[1 + THEIR_GODS.index(pair[0])] = powers[gods + 1 + THEIR_GODS.index(pair[1])] = 64
        board[:, :, 2] = powers.reshape(5, 5)
        player = 0
        while True:
            valid = numpy.flatnonzero(game.getValidMoves(board, player))
            board, player = game.getNextState(board, player, int(rng.choice(valid)))
            turns += 1
            if game.getGameEnded(board, player).any():
                break
    return time.process_time() - started, turns


def ours(pair: tuple[str, ...], games: int) -> tuple[float, float]:
    """Our random games a processor second with the pair's gods: packed outcomes, then the engine."""
    packed = bench_gods.rates(lambda: bench_gods.random_games(pair, games, 1, packed=True), games)
    return packed, bench_gods.rates(lambda: bench_gods.random_games(pair, games, 1), games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--azg", type=Path, required=True, help="a clone of cestpasphoto/alpha-zero-general")
    parser.add_argument("--games", type=int, default=40, help="random games per pair and engine (default 40)")
    args = parser.parse_args()
    outside = their_game(args.azg)
    their_games(outside, ("apollo", "pan"), 2, 0)  # numba compiles on first use: not timed
    print(f"{'gods':18} {'theirs games/s':>15} {'turns a game':>13} {'ours packed':>12} {'ours engine':>12}")
    for pair in bench_gods.PAIRS:
        seconds, turns = their_games(outside, pair, args.games, 1)
        packed, engine = ours(pair, args.games)
        name, theirs = ",".join(pair), args.games / seconds
        print(
            f"{name:18} {theirs:>15,.1f} {turns / args.games:>13.1f} {packed:>12,.1f} {engine:>12,.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
