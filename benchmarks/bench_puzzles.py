"""What checking a puzzle move costs the server (``bordspel.web.puzzles``), per game: for the
longest shipped puzzles, a right first move checked and the defence answered, and a wrong first
move checked with the winning moves listed (what one ``POST /api/puzzles/{id}/moves`` does).

Run:  python benchmarks/bench_puzzles.py           (the figures on the docs' results page)
      python benchmarks/bench_puzzles.py --smoke   (a quick run that only checks it works)

Each game's proof is made fresh, so the first puzzle pays for the solver's start (its table).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bordspel.puzzles import Puzzle, load_puzzles, proof_of, puzzle_games, winning_moves


def right_then_defence(puzzle: Puzzle) -> float:
    """Seconds to check a right first move and answer the defence, with a fresh proof."""
    state = puzzle.state()
    move = winning_moves(proof_of(puzzle.game), state, puzzle.distance)[0]
    proof = proof_of(puzzle.game)  # fresh: the search above warmed its own table
    started = time.perf_counter()
    assert proof.keeps_win(state, move, puzzle.distance)
    after = state.play(move)
    if after.outcome() is None and puzzle.distance > 1:
        proof.defence(after, puzzle.distance - 1)
    return time.perf_counter() - started


def wrong_with_solution(puzzle: Puzzle) -> float:
    """Seconds to check a wrong first move and list the winning ones, with a fresh proof."""
    proof, state = proof_of(puzzle.game), puzzle.state()
    started = time.perf_counter()
    right = winning_moves(proof, state, puzzle.distance)
    wrong = next(move.to_str() for move in state.legal_moves() if move.to_str() not in right)
    assert not proof.keeps_win(state, wrong, puzzle.distance)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--count", type=int, default=10, help="puzzles of each game")
    args = parser.parse_args()
    count = 1 if args.smoke else args.count
    for game in puzzle_games():
        puzzles = [puzzle for puzzle in load_puzzles() if puzzle.game == game]
        longest = max(puzzle.distance for puzzle in puzzles)
        chosen = [puzzle for puzzle in puzzles if puzzle.distance == longest][:count]
        right = [right_then_defence(puzzle) for puzzle in chosen]
        wrong = [wrong_with_solution(puzzle) for puzzle in chosen]
        print(
            f"{game}: {len(chosen)} puzzles of {longest} plies; right move and defence "
            f"median {statistics.median(right):.3f} s, max {max(right):.3f} s; wrong move and the "
            f"winning ones median {statistics.median(wrong):.3f} s, max {max(wrong):.3f} s"
        )


if __name__ == "__main__":
    main()
