"""Regenerate a game's shipped puzzles:
``python -m bordspel.puzzles.make --game G [--count N] [--seed S] [--players SPEC]``.

Engine games are played from the game proof's ``start`` (a random opening) by the player
``SPEC`` on both sides (by default the game's ``medium`` level, seeded: the kind of game a
player meets); along each, the proof picks the positions where the player to move wins by
force while at most half of the moves keep that win (so that the right move has to be found),
once per position; wins in one ply are kept to half of the puzzles. The same game, count,
seed and players give the same file, byte for byte. Progress on standard error.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from bordspel.ai import Player, make_player
from bordspel.core import State
from bordspel.progress import ProgressLine
from bordspel.puzzles import Proof, Puzzle, as_puzzle, proof_of

__all__ = ["main", "make_puzzles"]

COUNTS = {"quarto": 2000, "hermit": 600, "santorini": 600}
"""The shipped puzzles a game (each file stays well under 1 MB)."""
PLAYERS = "medium"
"""The player of both sides of the games the puzzles are found in."""


def _puzzles_of_game(state: State, proof: Proof, player: Player) -> list[Puzzle]:
    """The puzzles met along one game from ``state``, played by ``player`` to its end."""
    found: list[Puzzle] = []
    while state.outcome() is None:
        puzzle = as_puzzle(state, proof)
        if puzzle is not None:
            found.append(puzzle)
        state = state.apply(player.step(state))
    return found


def make_puzzles(
    game: str, count: int, seed: int, players: str = PLAYERS, progress: ProgressLine | None = None
) -> list[Puzzle]:
    """``count`` distinct puzzles of ``game`` from games of ``players`` seeded by ``seed``."""
    rng, proof = random.Random(seed), proof_of(game)
    found: dict[str, Puzzle] = {}
    quick = 0
    while len(found) < count:
        player = make_player(players, game, seed=rng.randrange(2**31))
        for puzzle in _puzzles_of_game(proof.start(rng), proof, player):
            if (puzzle.distance == 1 and quick >= count // 2) or puzzle.id in found:
                continue
            quick += puzzle.distance == 1
            found[puzzle.id] = puzzle
        if progress is not None:
            progress.update(f"{game}: {min(len(found), count)} / {count} puzzles")
    return sorted(found.values(), key=lambda puzzle: puzzle.id)[:count]


def main(argv: list[str] | None = None) -> None:
    """Write a game's puzzles file (by default the shipped one)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="quarto", choices=sorted(COUNTS))
    parser.add_argument("--count", type=int, help="how many (default: the shipped count of the game)")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--players", default=PLAYERS, help="the player of both sides (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="the file (default: the shipped one)")
    args = parser.parse_args(argv)
    out = args.out or Path(__file__).with_name(f"{args.game}.jsonl")
    progress = ProgressLine()
    puzzles = make_puzzles(args.game, args.count or COUNTS[args.game], args.seed, args.players, progress)
    progress.close()
    out.write_text("".join(puzzle.to_json() + "\n" for puzzle in puzzles), encoding="utf-8")


if __name__ == "__main__":
    main()
