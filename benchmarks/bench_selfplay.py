"""Self-play speed of ``bordspel train``, old and new side by side in one run, on one core: the
engine's self-play (``engine_self_play``: the Python engine, a tree of ``Node`` objects a game)
against self-play on the compiled batch with the array search (``vector_self_play``), with the
same network and the same simulations a move.

The network is the game's shipped network (``quarto-advanced0.onnx``; with ``--game santorini``
``santorini-finite_supply0-players2.onnx``) in onnxruntime on one thread; a second pair of rows
uses a network that costs nothing (uniform priors, value 0), to show what the search and the
games cost apart from the network. Rates are finished games per minute of this process's
processor time (the machine is shared; the wall clock, last column, also counts the other jobs'
time). Every game opens with 0 to 4 random plies (the trainer's default), then searches each
move with Dirichlet noise, drawing the first 4 searched moves by their visits.

Run:  python benchmarks/bench_selfplay.py          (the figures in docs/results.md; a few minutes)
      python benchmarks/bench_selfplay.py --game santorini --seconds 120
      python benchmarks/bench_selfplay.py --smoke  (a few seconds: checks that it runs)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

import numpy as np

from bordspel._native import backend
from bordspel.core import State, new_game
from bordspel.rl.codecs import codec_for
from bordspel.zero import DATA, data_name
from bordspel.zero.player import OnnxNetwork
from bordspel.zero.search import Encoder, Evaluator, Floats
from bordspel.zero.selfplay import PlaySettings, batch_maker, engine_self_play, opened, vector_self_play


def free_network(planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
    """Uniform priors over the legal actions and value 0, at no cost."""
    return (masks / masks.sum(axis=1, keepdims=True)).astype(np.float32), np.zeros(len(planes), np.float32)


Player = Callable[[list[int], np.random.Generator], int]
"""Plays games with these openings; how many finished."""


def engine_player(start: State, encoder: Encoder, evaluate: Evaluator, settings: PlaySettings) -> Player:
    def play(openings: list[int], rng: np.random.Generator) -> int:
        opener = random.Random(int(rng.integers(2**31)))
        starts = [opened(start, plies, opener) for plies in openings]
        return len(engine_self_play(starts, encoder, evaluate, settings, rng))

    return play


def vector_player(start: State, encoder: Encoder, evaluate: Evaluator, settings: PlaySettings) -> Player:
    make = batch_maker(start, compiled_only=True)
    if make is None:
        raise SystemExit(f"the compiled {start.name} kernel is not built: pip install -e . first")

    def play(openings: list[int], rng: np.random.Generator) -> int:
        return len(vector_self_play(start, make, openings, encoder, evaluate, settings, rng))

    return play


def measure(play: Player, games: int, seconds: float) -> tuple[float, float]:
    """(games per processor minute, games per wall-clock minute) over rounds of ``games`` games
    at once, until ``seconds`` of processor time have passed (one round at least)."""
    rng = np.random.default_rng(0)
    finished, started, wall = 0, time.process_time(), time.perf_counter()
    while finished == 0 or time.process_time() - started < seconds:
        openings = [int(x) for x in rng.integers(0, 5, games)]
        finished += play(openings, rng)
    return 60 * finished / (time.process_time() - started), 60 * finished / (time.perf_counter() - wall)


def one_core() -> str:
    """Pin this process to one core (where the system allows); which one."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--smoke", action="store_true", help="a few games, short runs: only checks that it runs"
    )
    parser.add_argument(
        "--simulations", type=int, default=32, help="simulations a move (default 32, the trainer's)"
    )
    parser.add_argument("--game", choices=["quarto", "santorini"], default="quarto", help="default quarto")
    parser.add_argument("--games", type=int, default=64, help="engine self-play's games at once (default 64)")
    parser.add_argument(
        "--vector-games", type=int, default=256, help="vector self-play's games at once (default 256)"
    )
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="processor seconds a measurement (default 60)"
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.vector_games, args.seconds, args.simulations = 4, 8, 0.1, 4
    start = new_game(args.game)
    encoder = Encoder(codec_for(args.game, start), start)
    settings = PlaySettings(simulations=args.simulations)
    network = OnnxNetwork(DATA / f"{data_name(start)}.onnx")
    load = os.getloadavg()[0]
    print(f"Python {platform.python_version()}, {backend()}, {one_core()}, load average {load:.1f}")
    each = f"{args.seconds:g} processor seconds a measurement"
    print(f"{data_name(start)}, {args.simulations} simulations a move, {each}")
    print(f"{'network':9} {'self-play':8} {'at once':>8} {'games/min':>10} {'wall clock':>11} {'ratio':>7}")
    for name, evaluate in (("shipped", network.evaluate), ("free", free_network)):
        rates = []
        for kind, games, player in (
            ("engine", args.games, engine_player),
            ("vector", args.vector_games, vector_player),
        ):
            rate, wall = measure(player(start, encoder, evaluate, settings), games, args.seconds)
            rates.append(rate)
            ratio = f"{rate / rates[0]:6.1f}x"
            print(f"{name:9} {kind:8} {games:>8} {rate:>10,.0f} {wall:>11,.0f} {ratio:>7}", flush=True)


if __name__ == "__main__":
    main()
