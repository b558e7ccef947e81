"""Regenerate the shipped Quarto puzzles: ``python -m bordspel.puzzles.make [--count N] [--seed S]``.

Random games are played until 9 squares are empty; from there the exact solver picks the
positions where the player to move wins by force while at most half of the moves keep that
win (so that the right move has to be found), once per position; wins in one ply (placing the
piece in hand to make a line) are kept to half of the puzzles. Progress on standard error.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

from bordspel.games.quarto.engine import QuartoState
from bordspel.progress import ProgressLine
from bordspel.puzzles import PUZZLE_FILE, Puzzle, QuartoProof, puzzle_rating

__all__ = ["main", "make_puzzles"]

EMPTY = 9
"""Squares empty where a random game stops and the solver starts looking."""


def _random_position(rng: random.Random) -> QuartoState:
    state = QuartoState.initial()
    while 16 - state.filled.bit_count() > EMPTY and state.outcome() is None:
        state = state.apply(state.random_move(rng))
    return state


def _puzzles_of_game(state: QuartoState, proof: QuartoProof, rng: random.Random) -> list[Puzzle]:
    """The puzzles met along one game from ``state`` (random moves to its end)."""
    found: list[Puzzle] = []
    while state.outcome() is None:
        puzzle = _as_puzzle(state, proof)
        if puzzle is not None:
            found.append(puzzle)
        state = state.apply(state.random_move(rng))
    return found


def _as_puzzle(state: QuartoState, proof: QuartoProof) -> Puzzle | None:
    """The position as a puzzle, if the player to move wins and at most half the moves do."""
    result, distance = proof.value(state)
    if result != "win":
        return None
    moves = len(state.legal_moves())
    winning = len(proof.winning_moves(state, distance))
    if winning * 2 > moves:
        return None
    start = state.to_str()
    key = hashlib.sha256(start.encode()).hexdigest()[:10]
    rating = puzzle_rating(distance, winning, moves)
    return Puzzle(f"q{key}", "quarto", start, distance, winning, moves, rating)


def make_puzzles(count: int, seed: int, progress: ProgressLine | None = None) -> list[Puzzle]:
    """``count`` distinct puzzles from random games seeded by ``seed``."""
    rng, proof = random.Random(seed), QuartoProof()
    found: dict[str, Puzzle] = {}
    quick = 0
    while len(found) < count:
        for puzzle in _puzzles_of_game(_random_position(rng), proof, rng):
            if (puzzle.distance == 1 and quick >= count // 2) or puzzle.id in found:
                continue
            quick += puzzle.distance == 1
            found[puzzle.id] = puzzle
        if progress is not None:
            progress.update(f"{min(len(found), count)} / {count} puzzles")
    return sorted(found.values(), key=lambda puzzle: puzzle.id)[:count]


def main(argv: list[str] | None = None) -> None:
    """Write the puzzles file (by default the shipped one)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(PUZZLE_FILE))
    args = parser.parse_args(argv)
    progress = ProgressLine()
    puzzles = make_puzzles(args.count, args.seed, progress)
    progress.close()
    args.out.write_text("".join(puzzle.to_json() + "\n" for puzzle in puzzles), encoding="utf-8")


if __name__ == "__main__":
    main()
