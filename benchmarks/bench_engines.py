"""Engine speed: perft and random full games through the public engine API.

Run:  python benchmarks/bench_engines.py          (the figures quoted in the README)
      python benchmarks/bench_engines.py --smoke  (a quick run that only checks it works)
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from bordspel._native import backend
from bordspel.core import State, canonical_symmetry, new_game
from bordspel.games.santorini import batch as santorini_batch
from bordspel.games.santorini.engine import SantoriniState


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            names = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
    except OSError:
        names = []
    return f"{names[0]} x {len(names)}" if names else platform.processor() or "unknown cpu"


def best_of(repeats: int, work: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - started)
    return best, result


def random_games(start: State, games: int, seed: int, checked: bool) -> int:
    """Play ``games`` random games to the end; returns the number of plies."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = start
        while not state.is_over():
            move = state.random_move(rng)
            state = state.apply(move) if checked else state.apply_unchecked(move)
            plies += 1
    return plies


def report_perft(name: str, start: State, depth: int, repeats: int) -> None:
    seconds, count = best_of(repeats, lambda: start.perft(depth))
    print(f"{name:44} perft {depth}: {count:>11,} leaves in {seconds:.3f} s", flush=True)


def report_games(name: str, start: State, games: int, repeats: int, checked: bool) -> None:
    seconds, plies = best_of(repeats, lambda: random_games(start, games, 1, checked))
    how = "apply()" if checked else "apply_unchecked()"
    print(
        f"{name:44} {games / seconds:>8,.0f} games/s  ({plies / games:.1f} plies/game, {how})",
        flush=True,
    )


def pure_perft(state: State, depth: int) -> int:
    """Perft by the pure engine alone (bulk counted at the last ply), whatever the backend."""
    if depth == 1:
        return state.count_moves()
    return sum(pure_perft(state.apply_unchecked(move), depth - 1) for move in state.legal_moves())


def report_santorini_backends(start: SantoriniState, smoke: bool) -> None:
    """Perft 4 and the batch API of random 2-player games, compiled (when built) and pure."""
    fresh = SantoriniState.initial()
    runs = [("pure", pure_perft, santorini_batch.pure_random_games, 20 if smoke else 1000)]
    if santorini_batch.compiled():
        runs.insert(0, ("compiled", SantoriniState.perft, santorini_batch.random_games, 25_000))
    for name, perft, batch, games in runs:
        depth = 4 if name == "compiled" or not smoke else 2
        seconds, count = best_of(1 if smoke else 3, lambda: perft(start, depth))  # noqa: B023
        print(f"{'Santorini perft, ' + name:44} perft {depth}: {count:>11,} leaves in {seconds:.3f} s")
        seconds, played = best_of(1 if smoke else 5, lambda: batch(fresh, games, 1))  # noqa: B023
        plies = played.plies / games  # type: ignore[attr-defined]
        label = f"Santorini 2p random_games(), {name}"
        print(f"{label:44} {games / seconds:>8,.0f} games/s  ({plies:.1f} plies/game)")


def report_santorini_search(start: SantoriniState, smoke: bool) -> None:
    """Alpha-beta (the ``hard`` player's search, fixed depths): the compiled search and the pure
    ``Searcher``, the same values at each depth."""
    from bordspel.ai.search import Searcher, last
    from bordspel.games.santorini.ai import evaluate, threatens
    from bordspel.games.santorini.fast_search import fast_search

    runs = [("pure", 2 if smoke else 3)]
    if santorini_batch.compiled():
        runs.append(("compiled", 3 if smoke else 6))
    for name, depth in runs:
        searcher = Searcher(evaluate, max_depth=depth, pvs=True, extend=threatens)
        search = fast_search(start, searcher, evaluate) if name == "compiled" else searcher
        assert search is not None
        started = time.perf_counter()
        result = last(search.iterate(start))
        seconds = time.perf_counter() - started
        label = f"Santorini alpha-beta to depth {depth}, {name}"
        print(f"{label:44} {result.nodes:>11,} nodes in {seconds:.3f} s ({result.nodes / seconds:,.0f}/s)")


def report_canonical(smoke: bool) -> None:
    """``canonical()`` of positions along random games; for Quarto also the generic answer (every
    one of the 12,288 images written out) that its narrowing replaces."""
    for game in ("hermit", "quarto", "santorini"):
        rng, state, found = random.Random(2), new_game(game), []
        while not state.is_over() and len(found) < (4 if smoke else 12):
            found.append(state)
            state = state.apply(state.random_move(rng))
        quick, _ = best_of(1, lambda: [canonical_symmetry(s) for s in found])  # noqa: B023
        line = f"{game.capitalize() + ' canonical()':44} {quick / len(found) * 1000:8.2f} ms a position"
        if game == "quarto":
            generic, _ = best_of(1, lambda: [State.canonical_symmetry(s) for s in found])  # noqa: B023
            line += f" (every image written: {generic / len(found) * 1000:.1f} ms)"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="small sizes, one repeat")
    args = parser.parse_args()
    repeats, games = (1, 20) if args.smoke else (5, 2000)
    print(f"Python {platform.python_version()} on {platform.machine()}, {cpu_name()}, {backend()}")
    report_perft(
        "Hermit 5x5 from the empty board", new_game("hermit", size=5), 2 if args.smoke else 3, repeats
    )
    report_perft(
        "Hermit 6x6 from the empty board", new_game("hermit", size=6), 2 if args.smoke else 3, repeats
    )
    workers = [(2, 1), (2, 3), (1, 2), (3, 2)]
    santorini = new_game("santorini", workers=workers)
    report_perft("Santorini, the issue's start position", santorini, 2 if args.smoke else 3, repeats)
    report_santorini_backends(santorini, args.smoke)
    report_santorini_search(santorini, args.smoke)
    fresh = new_game("santorini")
    report_games("Santorini 2p random games (with setup)", fresh, games, repeats, checked=False)
    report_games("Santorini 2p random games (with setup)", fresh, games // 4, repeats, checked=True)
    report_games("Santorini 3p random games", new_game("santorini", players=3), games // 4, repeats, False)
    report_games("Hermit 5x5 random games", new_game("hermit", size=5), games // 4, repeats, False)
    report_games("Quarto random games", new_game("quarto"), games // 10, repeats, False)
    report_canonical(args.smoke)


if __name__ == "__main__":
    main()
