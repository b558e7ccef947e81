"""Puzzles: positions where the player to move wins by force, with the proof that checks them.

A puzzle is a position and the length of its forced win (``distance``, in the exact solver's
plies). A move is right when it keeps a forced win of at most ``distance - 1`` (there may be
several right moves); the defender answers with the reply that puts the end furthest off. The
puzzle is solved when the game ends in the attacker's win.

Only Quarto puzzles so far, proved by the exact solver (``bordspel.games.quarto.ai``). The
shipped puzzles are in ``quarto.jsonl`` (one JSON object a line, see :class:`Puzzle`);
``python -m bordspel.puzzles.make`` regenerates them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from importlib.resources import files

from bordspel.games.quarto.ai import PureQuartoSolver, QuartoSolver, _value
from bordspel.games.quarto.engine import QuartoState

__all__ = ["Puzzle", "QuartoProof", "load_puzzles"]

PUZZLE_FILE = "quarto.jsonl"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: ``id``, ``game``, the position (``start``, the game's ``to_str``), the
    length of its forced win (``distance``), how many of its ``moves`` win that fast
    (``winning``) and its fixed ``rating``."""

    id: str
    game: str
    start: str
    distance: int
    winning: int
    moves: int
    rating: int

    def to_json(self) -> str:
        """One line of the puzzle file."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        """A puzzle from one line of the puzzle file."""
        return cls(**json.loads(line))

    def state(self) -> QuartoState:
        """The puzzle's position."""
        return QuartoState.from_str(self.start)


def puzzle_rating(distance: int, winning: int, moves: int) -> int:
    """A puzzle's rating from its difficulty: longer wins and fewer right moves rate higher
    (600 for a win in one ply with every move right, up to about 2,400)."""
    scarcity = 1.0 - winning / moves
    return round(600 + 150 * (distance - 1) + 900 * scarcity**2)


class QuartoProof:
    """The exact solver's answers for puzzles: one solver a variant, keeping its table."""

    def __init__(self) -> None:
        self.solvers: dict[bool, PureQuartoSolver] = {}

    def value(self, state: QuartoState) -> tuple[str, int]:
        """The result (``win``, ``draw``, ``loss``) for the player to move and its distance."""
        if state.advanced not in self.solvers:
            self.solvers[state.advanced] = QuartoSolver(state.advanced)
        found = _value(self.solvers[state.advanced], state)
        return found.result, found.distance

    def keeps_win(self, state: QuartoState, move_text: str, distance: int) -> bool:
        """Whether the move wins by force in at most ``distance`` (the game ends in the
        mover's win, or the opponent is lost in at most ``distance - 1``)."""
        after = state.apply(state.move_from_str(move_text))
        outcome = after.outcome()
        if outcome is not None:
            return outcome.winner == state.to_move
        result, left = self.value(after)
        return result == "loss" and left <= distance - 1

    def winning_moves(self, state: QuartoState, distance: int) -> list[str]:
        """The moves that keep the forced win within ``distance``."""
        moves = [move.to_str() for move in state.legal_moves()]
        return [move for move in moves if self.keeps_win(state, move, distance)]

    def defence(self, state: QuartoState) -> str:
        """The defender's best reply: the one whose loss is furthest off (a win or draw first,
        should one exist)."""
        return max((move.to_str() for move in state.legal_moves()), key=lambda text: self._held(state, text))

    def _held(self, state: QuartoState, move_text: str) -> tuple[int, int]:
        """How good a reply is for the defender: (result rank, how long the attacker needs)."""
        after = state.apply(state.move_from_str(move_text))
        outcome = after.outcome()
        if outcome is not None:
            return (2, 0) if outcome.winner == state.to_move else (1, 0) if outcome.is_draw else (0, 0)
        result, left = self.value(after)
        rank = {"loss": 2, "draw": 1, "win": 0}[result]
        return rank, left


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles, by rating."""
    text = files("bordspel.puzzles").joinpath(PUZZLE_FILE).read_text(encoding="utf-8")
    found = [Puzzle.from_json(line) for line in text.splitlines() if line.strip()]
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))
