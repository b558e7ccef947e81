"""Quarto puzzles (``bordspel.puzzles``), proved by the exact solver: a right move keeps a win
within the plies left, and the defence is the reply whose loss is furthest off."""

from __future__ import annotations

import random

from bordspel.core import State
from bordspel.games.quarto.ai import PureQuartoSolver, QuartoSolver, _value
from bordspel.games.quarto.engine import QuartoState

__all__ = ["PROOF", "QuartoProof"]

EMPTY = 9
"""Squares empty where a random game stops and the solver starts looking."""


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

    def start(self, rng: random.Random) -> QuartoState:
        """A random game until ``EMPTY`` squares are empty."""
        state = QuartoState.initial()
        while 16 - state.filled.bit_count() > EMPTY and state.outcome() is None:
            state = state.apply(state.random_move(rng))
        return state

    def plies(self, state: State) -> int | None:
        """The distance of the player to move's shortest forced win, if any (None with more
        than ``EMPTY`` squares empty: the solver would take too long)."""
        assert isinstance(state, QuartoState)
        if 16 - state.filled.bit_count() > EMPTY:
            return None
        result, distance = self.value(state)
        return distance if result == "win" else None

    def keeps_win(self, state: State, move_text: str, plies: int) -> bool:
        """Whether the move wins by force in at most ``plies`` (the game ends in the mover's win,
        or the opponent is lost in at most ``plies - 1``)."""
        assert isinstance(state, QuartoState)
        after = state.apply(state.move_from_str(move_text))
        outcome = after.outcome()
        if outcome is not None:
            return outcome.winner == state.to_move
        result, left = self.value(after)
        return result == "loss" and left <= plies - 1

    def defence(self, state: State, plies: int) -> str:
        """The defender's best reply: the one whose loss is furthest off (a win or draw first,
        should one exist)."""
        assert isinstance(state, QuartoState)
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


PROOF = QuartoProof
