"""Santorini with gods against the base game, side by side in one run on one core.

For each god pair: perft from a fixed position after the setup and random games to the end,
counted in positions (or games) per second of this process's processor time (the machine may be
shared; the wall clock would count other jobs' time), each two ways: through the engine's turns
and positions ("engine": ``legal_moves`` and ``apply``) and on the walk's packed outcomes
(``gods_play``: ``SantoriniState.perft`` and :func:`gods_play.random_outcomes`). The last column
is how many times slower than the base game the packed games are; issue 37's target is 3x.

Run:  python benchmarks/bench_gods.py                   (the figures in docs/results.md; a few minutes)
      python benchmarks/bench_gods.py --all-gods        (every god against a player without one, perft 2)
      python benchmarks/bench_gods.py --depth-at 1      (the depth ``hard`` reaches in 1 s, each god;
                                                     --player alphabeta:compiled=0 for the pure search;
                                                     --player twice or more: side by side)
      python benchmarks/bench_gods.py --turns           (the generator alone: microseconds a position)
      python benchmarks/bench_gods.py --smoke           (a few seconds: checks that it runs)
      python benchmarks/bench_gods.py --packed-batch 1024 (N games with random gods, a turn each in
                                                     turn on the packed outcomes: whole turns a second)

``--depth-at S`` searches middle-game positions (both players' ``medium`` moves for ``--plies``
plies after a random setup, the same seeds for every god) with ``hard``'s search for S seconds of
wall clock (the machine's load shows in it: compare the rows of one run) and prints the mean depth
of the last finished iteration, for every god against a player without one and for the base game.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable
from typing import Any

from bordspel._native import backend, twin
from bordspel.ai import analyse, make_player
from bordspel.ai.search import Limit
from bordspel.core import State, new_game
from bordspel.games.santorini import generator, gods_play
from bordspel.games.santorini.gods import GODS

PLAY: Any = twin("santorini_gods_play", gods_play)
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


def random_games(gods: tuple[str, ...], games: int, seed: int, packed: bool = False) -> int:
    """Play ``games`` random games from random placements to the end (after the setup, on the
    packed outcomes with ``packed``); the number of plies."""
    rng = random.Random(seed)
    start = new_game("santorini", gods=list(gods)) if gods else new_game("santorini")
    plies = 0
    for _ in range(games):
        state: Any = start
        while not state.is_over() and not (packed and not state.in_setup):
            state = state.apply(state.random_move(rng))
            plies += 1
        if packed and not state.is_over():
            plies += len(PLAY.random_outcomes(PLAY.spot_of(state), rng))
    return plies


def engine_perft(state: Any, depth: int) -> int:
    """Perft through the engine's legal turns and the positions they lead to."""
    if depth <= 1:
        return len(state.legal_moves()) if depth == 1 else 1
    return sum(engine_perft(state.apply_unchecked(move), depth - 1) for move in state.legal_moves())


def rates(work: Callable[[], int], count: int | None = None) -> float:
    """``work``'s count (or ``count``) a processor second, from empty turn caches (what the
    engine's caches keep alive slows every later garbage collection)."""
    generator._turns_listed.cache_clear()
    generator._ways.cache_clear()
    generator.orders.cache_clear()
    gc.collect()
    seconds, result = processor_seconds(work)
    return (result if count is None else count) / seconds


def measure(gods: tuple[str, ...], depth: int, games: int) -> tuple[float, float, float, float]:
    """Perft positions a second and random games a second for one pair, through the engine and
    on the packed outcomes (the base game: its compiled perft and engine games, twice)."""
    start = after_setup(gods)
    engine = rates(lambda: engine_perft(start, depth)) if gods else rates(lambda: start.perft(depth))
    packed = rates(lambda: start.perft(depth))
    engine_games = rates(lambda: random_games(gods, games, 1), games)
    packed_games = rates(lambda: random_games(gods, games, 1, packed=bool(gods)), games)
    return engine, packed, engine_games, packed_games


def report(pairs: list[tuple[str, ...]], depth: int, games: int) -> None:
    print(f"gods module: {generator.gods.__name__}; packed outcomes: {PLAY.__name__}")
    header = f"{'gods':22} {'perft/s engine':>15} {'packed':>10} {'games/s engine':>15} {'packed':>8}"
    print(f"{header} {'x slower (packed games)':>24}")
    base = measure((), depth, games)
    print_row("(base game)", base, base[3])
    for pair in pairs:
        print_row(",".join(pair), measure(pair, depth, games), base[3])


def print_row(name: str, figures: tuple[float, float, float, float], base_games: float) -> None:
    engine, packed, engine_games, packed_games = figures
    line = f"{name:22} {engine:>15,.0f} {packed:>10,.0f} {engine_games:>15,.1f} {packed_games:>8,.1f}"
    print(f"{line} {base_games / packed_games:>24.1f}", flush=True)


def packed_batch(envs: int, seconds: float, seed: int) -> tuple[int, float]:
    """Whole random turns of ``envs`` games with random gods stepped in turn on the packed
    outcomes for about ``seconds`` of processor time (a game that ends starts anew after a random
    setup): the ceiling of a batched step on the walk before masks and observations. The turns
    played and the processor seconds."""
    rng = random.Random(seed)
    games = [new_packed_game(rng) for _ in range(envs)]
    turns, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        for index, spot in enumerate(games):
            found = PLAY.settled(spot)
            if found:
                games[index] = PLAY.child(spot, rng.choice(found))
                turns += 1
            else:
                games[index] = new_packed_game(rng)
    return turns, time.process_time() - started


def new_packed_game(rng: random.Random) -> Any:
    """A two-player game with random gods after a random setup, as a spot."""
    state: Any = new_game("santorini", gods="random", seed=rng.getrandbits(32))
    while state.in_setup:
        state = state.apply(state.random_move(rng))
    return PLAY.spot_of(state)


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
    played: State = state
    return played


def mean_depth(gods: tuple[str, ...], seconds: float, positions: int, plies: int, player: str) -> float:
    """The mean depth ``hard``'s search finishes in ``seconds`` over middle-game positions."""
    depths = []
    for seed in range(positions):
        state = middle_game(gods, seed, plies)
        if not state.is_over():
            depths.append(analyse(player, state, Limit(time=seconds)).depth)
    return sum(depths) / len(depths) if depths else float("nan")


def report_depths(seconds: float, positions: int, plies: int, players: list[str]) -> None:
    """The mean depth of each player (a column each, the players taking turns god by god)."""
    print(f"mean depth in {seconds:g} s over {positions} positions after {plies} plies of medium")
    print(f"{'':24} " + " ".join(f"{player:>24}" for player in players))
    for label, gods in [("(base game)", ())] + [(f"{name},-", (name, "-")) for name in GODS]:
        depths = [mean_depth(gods, seconds, positions, plies, player) for player in players]
        print(f"{label:24} " + " ".join(f"{depth:24.1f}" for depth in depths), flush=True)


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
                    generator._turns_listed.cache_clear()
                    query(position)
            return repeats * len(positions)

        seconds, calls = processor_seconds(run)
        costs.append(seconds / calls * 1e6)
    return costs[0], costs[1]


def report_fixed_depth(depth: int, plies: int, player: str) -> None:
    """Processor seconds for ``player`` to finish ``depth`` plies on the seed-1 middle game of
    each pair of :data:`PAIRS` but Hermes-Athena (whose depth 3 takes minutes)."""
    print(f"{player} to depth {depth} on the seed-1 position after {plies} plies of medium")
    for gods in [pair for pair in PAIRS if "hermes" not in pair]:
        state = middle_game(gods, 1, plies)
        started = time.process_time()
        result = analyse(player, state, Limit(depth=depth))
        took = time.process_time() - started
        print(f"{'-'.join(gods):24} {took:7.2f} s {result.nodes:>10,} positions", flush=True)


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
    parser.add_argument(
        "--player", action="append", help="a player for --depth-at (repeat to compare; default hard)"
    )
    parser.add_argument("--plies", type=int, default=6, help="medium's plies after the setup (--depth-at)")
    parser.add_argument(
        "--fixed-depth", type=int, metavar="D", help="seconds to finish D plies, 3 pairs (the first --player)"
    )
    parser.add_argument("--turns", action="store_true", help="the generator alone, per position")
    parser.add_argument("--packed-batch", type=int, metavar="N", help="N games with random gods stepped")
    parser.add_argument("--seconds", type=float, default=20, help="processor seconds for --packed-batch")
    args = parser.parse_args()
    if args.packed_batch:
        turns, seconds = packed_batch(args.packed_batch, args.seconds, 1)
        print(f"{PLAY.__name__}: {args.packed_batch} games with random gods, {turns / seconds:,.0f} turns/s")
        return
    if args.turns:
        report_turn_costs(list(PAIRS))
        return
    players = args.player or ["hard"]
    if args.fixed_depth:
        report_fixed_depth(args.fixed_depth, args.plies, players[0])
        return
    if args.depth_at:
        report_depths(args.depth_at, args.positions, args.plies, players)
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
