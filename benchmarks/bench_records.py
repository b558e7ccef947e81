"""Record speed: writing and streaming a file of many games, and reading adversarial records.

Run:  python benchmarks/bench_records.py          (10,000 random games per game)
      python benchmarks/bench_records.py --smoke  (a quick run that only checks it works)
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bordspel.record import Game, read_games, write_games

STARTS = {"hermit 5x5": ("hermit", {"size": 5}), "santorini": ("santorini", {}), "quarto": ("quarto", {})}


def random_game(game: str, options: dict[str, object], rng: random.Random) -> Game:
    played = Game.new(game, **options)
    while not played.state.is_over():
        played.play(played.state.random_move(rng))
    return played


def stream(label: str, games: list[Game], folder: Path) -> None:
    path = folder / "games.txt"
    started = time.perf_counter()
    write_games(path, games)
    written = time.perf_counter() - started
    started = time.perf_counter()
    plies = sum(len(game.moves) for game in read_games(path))
    read = time.perf_counter() - started
    size = path.stat().st_size / 1e6
    print(
        f"{label:12} {len(games):6} games {plies:8} plies {size:6.1f} MB"
        f"  write {len(games) / written:8.0f} games/s  read {len(games) / read:7.0f} games/s"
        f" ({plies / read:8.0f} plies/s)"
    )


def adversarial(scale: int) -> None:
    """Reading time of records made of many comments on one move: linear in their size."""
    head = '[Game "hermit"]\n[Start "..../..../..../...."]\n\n1. Ra1H '
    for count in (scale, 4 * scale):
        text = head + "{a comment}" * count + " *\n"
        started = time.perf_counter()
        Game.from_record(text)
        seconds = time.perf_counter() - started
        print(f"{count:7} comments on one move ({len(text) / 1e6:.2f} MB): {seconds:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a quick run that only checks it works")
    args = parser.parse_args()
    count = 20 if args.smoke else 10_000
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        for label, (game, options) in STARTS.items():
            stream(label, [random_game(game, options, rng) for _ in range(count)], Path(folder))
    adversarial(1_000 if args.smoke else 20_000)


if __name__ == "__main__":
    main()
