"""Puzzles on the site (``bordspel.puzzles``): one at the player's puzzle rating, each move
checked against its game's proof (``bordspel.puzzles.Proof``), the defence answered, the first
attempt rated.

The page sends the line played so far with each move, and the server replays it (each of the
player's moves must keep the forced win, each reply must be the server's), so a line is at most
the puzzle's length and the work is bounded. Moves are read strictly: the game's own move text
of a legal move, nothing else. Only an account's first attempt at a puzzle is
rated, and only at a puzzle the server gave it (``next``) and saw it begin from the first move
(``puzzle_starts``: a puzzle picked by its id, or a whole line found some other way and sent at
once, is not), against the puzzle's fixed rating, with the model of the game ratings
(``bordspel.web.ratings``) in the pool ``puzzles``.
"""

from __future__ import annotations

import bisect
import random
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bordspel.core import State, available_games
from bordspel.puzzles import Proof, Puzzle, load_puzzles, proof_of, winning_moves
from bordspel.web.api import BadRequest
from bordspel.web.ratings import PUZZLE_POOL as POOL
from bordspel.web.ratings import Rating, _rating, _store, model
from bordspel.web.store import GameStore, NotFound

__all__ = ["POOL", "Attempt", "PuzzleRoom"]

PUZZLE_SIGMA = 100.0
"""The puzzles' fixed ratings are taken as this sure of themselves."""
NEAREST = 30
"""A new puzzle is drawn from the this many nearest the player's rating not yet tried."""
FURTHEST = NEAREST * 4**3
"""The most puzzles looked at for untried ones (an account that tried all of them gets one again)."""
MOVE_CHARS = 32
"""The longest move text read (a Santorini god turn is up to 22 characters)."""
SOLUTION_SECONDS = 0.5
"""A wrong move is answered with the right moves found within this time (at least one)."""
SOLUTIONS_KEPT = 1024
"""Lines whose right moves are kept, so that asking again costs no solving."""
SITE_COLUMNS = "id, game, start, distance, winning, moves, rating, source"
"""The columns of ``site_puzzles`` that make a ``Puzzle``, in its order."""
NEAR = (
    f"SELECT {SITE_COLUMNS} FROM site_puzzles WHERE rating >= ? ORDER BY rating, id LIMIT ?",
    f"SELECT {SITE_COLUMNS} FROM site_puzzles WHERE rating < ? ORDER BY rating DESC, id DESC LIMIT ?",
)
"""The site's puzzles at or above a rating, and below it, nearest first."""


@dataclass(frozen=True)
class Attempt:
    """The answer to one move: ``result`` (``right``, ``wrong``, ``solved``), the server's
    ``reply`` (after a right move that does not end the game), the ``line`` so far, the right
    moves when wrong (``solution``) and the rating change when the attempt was rated."""

    result: str
    line: list[str]
    reply: str | None = None
    solution: list[str] | None = None
    rating: dict[str, Any] | None = None
    change: int | None = None

    def view(self) -> dict[str, Any]:
        """As the API returns it."""
        return dict(vars(self))


class PuzzleRoom:
    """The puzzles served from one store: one proof a game, used by one thread at a time (each
    game's own lock, so a slow proof of one game holds up no other)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.shipped = load_puzzles()
        self.by_id = {puzzle.id: puzzle for puzzle in self.shipped}
        self.ratings = [puzzle.rating for puzzle in self.shipped]
        self.proofs: dict[str, Proof] = {}
        self.solving = {game: threading.Lock() for game in available_games()}
        self.solutions: dict[str, OrderedDict[tuple[str, ...], list[str]]] = {
            game: OrderedDict() for game in self.solving
        }  # by game: each used under its game's lock

    def find(self, puzzle_id: str) -> Puzzle:
        """The puzzle ``puzzle_id``, shipped or met in a game of the site (NotFound when there
        is none)."""
        found = self.by_id.get(puzzle_id)
        if found is None:
            with self.store.db.transaction(write=False) as db:
                row = db.execute(
                    f"SELECT {SITE_COLUMNS} FROM site_puzzles WHERE id = ?", (puzzle_id,)
                ).fetchone()
            found = None if row is None else Puzzle(*row)
        if found is None:
            raise NotFound("no puzzle has that id")
        return found

    def shown_source(self, puzzle: Puzzle) -> str | None:
        """The game a puzzle was met in, when that game was open to all (a lobby challenge's):
        the id of a game played by invitation or against the computer is its players' to give."""
        if puzzle.source is None:
            return None
        with self.store.db.transaction(write=False) as db:
            listed = db.execute("SELECT 1 FROM challenges WHERE game_id = ?", (puzzle.source,)).fetchone()
        return puzzle.source if listed else None

    def rating(self, account: str | None) -> Rating:
        """The account's puzzle rating (the starting one without an account)."""
        if account is None:
            return Rating()
        with self.store.db.transaction(write=False) as db:
            return _rating(db, account, POOL)

    def next(self, account: str | None, rng: random.Random) -> Puzzle:
        """One of the ``NEAREST`` puzzles nearest the player's rating that their account has not
        tried, looked for among ever more (up to ``FURTHEST``) of the nearest; noted as served."""
        rating, count = self.rating(account).mu, NEAREST
        while True:
            near = self.nearest(rating, count)
            tried = self._tried(account, near)
            fresh = [puzzle for puzzle in near if puzzle.id not in tried]
            if len(fresh) >= NEAREST or len(near) < count or count >= FURTHEST:
                chosen = rng.choice((fresh or near)[:NEAREST])
                if account is not None:
                    self.serve(account, chosen)
                return chosen
            count *= 4

    def serve(self, account: str, puzzle: Puzzle) -> None:
        """Note that ``puzzle`` was given to ``account`` (only such a puzzle can be rated)."""
        with self.store.db.transaction() as db:
            db.execute(
                "INSERT INTO puzzle_starts (account_id, puzzle_id, created, begun) VALUES (?, ?, ?, 0) "
                "ON CONFLICT (account_id, puzzle_id) DO NOTHING",
                (account, puzzle.id, time.time()),
            )

    def nearest(self, rating: float, count: int) -> list[Puzzle]:
        """The ``count`` puzzles, shipped or met in the site's games, nearest ``rating`` (by the
        rating index of ``site_puzzles``: no request reads them all)."""
        centre = bisect.bisect_left(self.ratings, rating)
        shipped = self.shipped[max(0, centre - count) : centre + count]
        with self.store.db.transaction(write=False) as db:
            rows = [row for query in NEAR for row in db.execute(query, (rating, count)).fetchall()]
        met = [Puzzle(*row) for row in rows if row[0] not in self.by_id]
        return sorted([*shipped, *met], key=lambda puzzle: (abs(puzzle.rating - rating), puzzle.id))[:count]

    def _tried(self, account: str | None, puzzles: list[Puzzle]) -> set[str]:
        """Those of ``puzzles`` the account has tried."""
        if account is None or not puzzles:
            return set()
        marks = ", ".join("?" * len(puzzles))
        query = f"SELECT puzzle_id FROM puzzle_attempts WHERE account_id = ? AND puzzle_id IN ({marks})"
        with self.store.db.transaction(write=False) as db:
            return {found for (found,) in db.execute(query, (account, *(p.id for p in puzzles))).fetchall()}

    def proof(self, game: str) -> Proof:
        """The proof of ``game``'s puzzles, made on first use (call with the game's lock held)."""
        if game not in self.proofs:
            self.proofs[game] = proof_of(game)
        return self.proofs[game]

    def read(self, puzzle: Puzzle, line: list[str], move: str, account: str | None) -> None:
        """BadRequest unless the line and the move are within the puzzle's length and legal (no
        proof runs: this is cheap, and comes before ``judge`` waits for the game's solver); a
        first move begins the account's attempt."""
        _check_line(puzzle, line + [move])
        _legal_line(puzzle.state(), line + [move])
        if account is not None and not line:
            self._start(account, puzzle)

    def judge(self, puzzle: Puzzle, line: list[str], move: str, account: str | None) -> Attempt:
        """Check ``move`` (read) after ``line`` with the proof; answer the defence; rate the
        attempt when it ends."""
        with self.solving[puzzle.game]:
            proof = self.proof(puzzle.game)
            state, plies = self._replay(proof, puzzle, line)
            if not proof.keeps_win(state, move, plies):
                solution = self._solution(proof, puzzle, line, (state, plies))
                return self._ended(puzzle, account, Attempt("wrong", line + [move], solution=solution))
            after = state.play(move)
            if after.outcome() is not None or plies <= 1:
                return self._ended(puzzle, account, Attempt("solved", line + [move]))
            reply = proof.defence(after, plies - 1)
        return Attempt("right", line + [move, reply], reply=reply)

    def _replay(self, proof: Proof, puzzle: Puzzle, line: list[str]) -> tuple[State, int]:
        """The position after ``line`` (legal moves) and the plies left; BadRequest when the line
        is not one of right moves and the server's replies."""
        state, plies = puzzle.state(), puzzle.distance
        for index, text in enumerate(line):
            right = proof.defence(state, plies) == text if index % 2 else proof.keeps_win(state, text, plies)
            if not right:
                raise BadRequest("the line is not one this puzzle's attempt can have")
            state, plies = state.play(text), plies - 1
        return state, plies

    def _solution(
        self, proof: Proof, puzzle: Puzzle, line: list[str], position: tuple[State, int]
    ) -> list[str]:
        """Right moves after ``line``: those found within ``SOLUTION_SECONDS`` (at least one),
        kept for the ``SOLUTIONS_KEPT`` lines of the game asked last (call with its lock held)."""
        kept, key = self.solutions[puzzle.game], (puzzle.id, *line)
        if key not in kept:
            kept[key] = winning_moves(proof, *position, seconds=SOLUTION_SECONDS)
            if len(kept) > SOLUTIONS_KEPT:
                kept.popitem(last=False)
        kept.move_to_end(key)
        return kept[key]

    def _ended(self, puzzle: Puzzle, account: str | None, attempt: Attempt) -> Attempt:
        if account is None:
            return attempt
        rated = self._rate(account, puzzle, attempt.result == "solved")
        if rated is None:
            return attempt
        rating, change = rated
        return Attempt(attempt.result, attempt.line, attempt.reply, attempt.solution, rating, change)

    def _start(self, account: str, puzzle: Puzzle) -> None:
        """Note that ``account`` began ``puzzle``, served to it, from its first move (an attempt it
        can be rated on)."""
        with self.store.db.transaction() as db:
            db.execute(
                "UPDATE puzzle_starts SET begun = 1 WHERE account_id = ? AND puzzle_id = ?",
                (account, puzzle.id),
            )

    def _rate(self, account: str, puzzle: Puzzle, solved: bool) -> tuple[dict[str, Any], int] | None:
        """The account's new puzzle rating and its change; None when it tried the puzzle before, was
        not served it (``next``) or did not begin it from its first move."""
        with self.store.db.transaction() as db:
            db.lock(f"puzzles {account}")
            tried = "SELECT 1 FROM puzzle_attempts WHERE account_id = ? AND puzzle_id = ?"
            began = "SELECT 1 FROM puzzle_starts WHERE account_id = ? AND puzzle_id = ? AND begun = 1"
            if (
                db.execute(tried, (account, puzzle.id)).fetchone()
                or not db.execute(began, (account, puzzle.id)).fetchone()
            ):
                return None
            old = _rating(db, account, POOL)
            player = model().rating(mu=old.mu, sigma=old.sigma)
            problem = model().rating(mu=float(puzzle.rating), sigma=PUZZLE_SIGMA)
            (new,), _ = model().rate([[player], [problem]], ranks=[1, 2] if solved else [2, 1])
            _store(db, account, POOL, Rating(new.mu, new.sigma, old.games + 1))
            db.execute(
                "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, delta, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (account, puzzle.id, int(solved), new.mu - old.mu, time.time()),
            )
        return Rating(new.mu, new.sigma, old.games + 1).view(), round(new.mu - old.mu)


def _legal_line(state: State, line: list[str]) -> None:
    """BadRequest unless each move of ``line`` is legal in turn, written as the game writes it."""
    for text in line:
        _strict(state, text)
        state = state.play(text)


def _strict(state: State, text: str) -> None:
    """BadRequest unless ``text`` is a legal move written as the game writes it."""
    try:
        move = state.move_from_str(text)
    except ValueError:
        raise BadRequest(f"{text!r} is not a move of this game") from None
    if move.to_str() != text or move not in state.legal_moves():
        raise BadRequest(f"{text!r} is not a legal move here, written as the game writes it")


def _check_line(puzzle: Puzzle, line: list[str]) -> None:
    """Bounded input: at most the puzzle's length in moves, each a short string, the new move
    the solver's (an odd count)."""
    if len(line) > puzzle.distance:
        raise BadRequest("the line is longer than this puzzle")
    if len(line) % 2 == 0:
        raise BadRequest("the line so far must end with the server's reply: send your move after it")
    if not all(isinstance(text, str) and 0 < len(text) <= MOVE_CHARS for text in line):
        raise BadRequest(f"give moves as strings of at most {MOVE_CHARS} characters")
