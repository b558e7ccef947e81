"""Puzzles: positions where the player to move wins by force, with the proof that checks them.

A puzzle is a position and the number of plies it lasts at most (``distance``). A move is
right when the game's proof (:class:`Proof`) says it keeps a forced win within the plies left
(there may be several right moves); the defender answers with the proof's reply. The puzzle
is solved when a right move ends the game in the attacker's win, or is its last ply.

Each game says how its puzzles are proved by the ``puzzles`` part of its ``GameSpec``
(``<package>.puzzles:PROOF``, a class whose instances are :class:`Proof`): the exact solver for
Quarto (the shortest win) and Hermit (win or loss only), an exhaustive search of the turns
for Santorini. The shipped puzzles are in ``<game>.jsonl`` beside this module (one JSON object
a line, see :class:`Puzzle`); ``python -m bordspel.puzzles.make --game G`` regenerates them.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from importlib.resources import files
from typing import Protocol

from bordspel.core import Part, State, available_games, game_class, game_part

__all__ = [
    "PROOF_PART",
    "Proof",
    "ProofFactory",
    "Puzzle",
    "as_puzzle",
    "find_puzzle",
    "load_puzzles",
    "proof_of",
    "puzzle_games",
    "puzzle_rating",
    "winning_moves",
]


class Proof(Protocol):
    """How one game's puzzles are found and checked; moves are the game's move texts."""

    def start(self, rng: random.Random) -> State:
        """A position a random game looking for puzzles begins from."""
        ...

    def plies(self, state: State) -> int | None:
        """The plies of the forced win a puzzle from ``state`` asks for (odd), or None when the
        player to move has none the proof can show."""
        ...

    def keeps_win(self, state: State, move_text: str, plies: int) -> bool:
        """Whether the move keeps a forced win for its player within ``plies``."""
        ...

    def defence(self, state: State, plies: int) -> str:
        """The defender's reply when the attacker has a forced win within ``plies``."""
        ...


ProofFactory = Callable[[], Proof]
"""A game's ``puzzles`` part: its proof's class (or any maker of a fresh proof)."""
PROOF_PART: Part[ProofFactory] = Part("puzzles", "a Proof class (bordspel.puzzles.Proof)", callable)


def proof_of(game: str) -> Proof:
    """A new proof of ``game``'s puzzles (it may keep a solver's table)."""
    factory = game_part(game, PROOF_PART)
    if factory is None:
        raise ValueError(f"{game} has no puzzles")
    return factory()


@cache
def puzzle_games() -> tuple[str, ...]:
    """The games with puzzles (a file of shipped ones)."""
    shipped = files("bordspel.puzzles")
    return tuple(game for game in available_games() if shipped.joinpath(f"{game}.jsonl").is_file())


def winning_moves(proof: Proof, state: State, plies: int, seconds: float | None = None) -> list[str]:
    """The moves that keep the forced win within ``plies``; with ``seconds``, those found by
    then (and at least the first one found, however long it takes)."""
    moves = [move.to_str() for move in state.legal_moves()]
    if seconds is None:
        return [move for move in moves if proof.keeps_win(state, move, plies)]
    deadline, found = time.monotonic() + seconds, list[str]()
    for move in moves:
        if found and time.monotonic() > deadline:
            break
        if proof.keeps_win(state, move, plies):
            found.append(move)
    return found


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: ``id``, ``game``, the position (``start``, the game's ``to_str``), the plies
    it lasts at most (``distance``), how many of its ``moves`` are right (``winning``), its
    fixed ``rating`` and the site's game it was met in (``source``, None for the shipped ones)."""

    id: str
    game: str
    start: str
    distance: int
    winning: int
    moves: int
    rating: int
    source: str | None = None

    def to_json(self) -> str:
        """One line of the puzzle file."""
        fields = asdict(self)
        if self.source is None:
            del fields["source"]
        return json.dumps(fields, sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        """A puzzle from one line of the puzzle file."""
        return cls(**json.loads(line))

    def state(self) -> State:
        """The puzzle's position."""
        return game_class(self.game).from_str(self.start)


def puzzle_rating(distance: int, winning: int, moves: int) -> int:
    """A puzzle's rating from its difficulty: longer wins and fewer right moves rate higher
    (600 for a win in one ply with every move right, up to about 2,400)."""
    scarcity = 1.0 - winning / moves
    return round(600 + 150 * (distance - 1) + 900 * scarcity**2)


def as_puzzle(state: State, proof: Proof, source: str | None = None) -> Puzzle | None:
    """The position as a puzzle, if the player to move wins and at most half the moves do."""
    distance = proof.plies(state)
    if distance is None:
        return None
    moves = len(state.legal_moves())
    winning = len(winning_moves(proof, state, distance))
    if winning * 2 > moves:
        return None
    start = state.to_str()
    key = hashlib.sha256(start.encode()).hexdigest()[:10]
    rating = puzzle_rating(distance, winning, moves)
    return Puzzle(f"{state.name[0]}{key}", state.name, start, distance, winning, moves, rating, source)


@cache
def _kept_proof(game: str) -> Proof:
    return proof_of(game)


def find_puzzle(game: str, position: str, source: str) -> Puzzle | None:
    """The position of the site's game ``source`` as a puzzle, if it is one (a process keeps
    one proof a game, with its solver's table)."""
    if game not in puzzle_games():
        return None
    state = game_class(game).from_str(position)
    return None if state.outcome() is not None else as_puzzle(state, _kept_proof(game), source)


def read_puzzles(game: str) -> list[Puzzle]:
    """The shipped puzzles of ``game``."""
    text = files("bordspel.puzzles").joinpath(f"{game}.jsonl").read_text(encoding="utf-8")
    return [Puzzle.from_json(line) for line in text.splitlines() if line.strip()]


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles of every game, by rating."""
    found = [puzzle for game in puzzle_games() for puzzle in read_puzzles(game)]
    return tuple(sorted(found, key=lambda puzzle: (puzzle.rating, puzzle.id)))
