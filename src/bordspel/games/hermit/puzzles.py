"""Hermit puzzles (``bordspel.puzzles``) on boards of up to 5x5, proved by the win/loss solver
(``proof.ProofSolver``), which settles such positions in well under a second.

The solver tells a win from a loss but not how far off the win is, so a right move is any move
after which the opponent is lost (or that wins the game outright), and a puzzle lasts
``PLIES``: the attacker's move, the defence, and a second right move. The defence, every reply
being lost, is the one that leaves the most moves (the longest game to see through), the
first in move-text order among equals.
"""

from __future__ import annotations

import random

from bordspel.core import State
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.proof import ProofSolver

__all__ = ["PLIES", "PROOF", "HermitProof"]

PLIES = 3
"""The plies a Hermit puzzle lasts (it ends sooner when a right move ends the game)."""
SIZES = (4, 5, 5)
"""The board sizes random games for puzzles are played on (drawn evenly from these)."""
OPENING = 3
"""Random moves made before the solver starts looking (fewer moves on a larger board)."""


class HermitProof:
    """The win/loss solver's answers for puzzles: one solver a board size, keeping its table."""

    def __init__(self) -> None:
        self.solvers: dict[int, ProofSolver] = {}

    def _solver(self, n: int) -> ProofSolver:
        if n not in self.solvers:
            self.solvers[n] = ProofSolver(n)
        return self.solvers[n]

    def start(self, rng: random.Random) -> HermitState:
        """A random game of ``OPENING`` moves on a board of one of ``SIZES``."""
        state = HermitState.initial(size=rng.choice(SIZES))
        for _ in range(OPENING):
            if state.outcome() is None:
                state = state.apply(state.random_move(rng))
        return state

    def plies(self, state: State) -> int | None:
        """``PLIES`` when the player to move wins, else None (and on boards of no size of
        ``SIZES``: larger ones the solver may take long over, smaller ones make no puzzle)."""
        assert isinstance(state, HermitState)
        if state.n not in SIZES:
            return None
        return PLIES if self._solver(state.n).state_wins(state) else None

    def keeps_win(self, state: State, move_text: str, plies: int) -> bool:
        """Whether the move wins the game or leaves the opponent lost (``plies`` does not bound
        a win the solver cannot measure)."""
        assert isinstance(state, HermitState)
        after = state.apply(state.move_from_str(move_text))
        outcome = after.outcome()
        if outcome is not None:
            return outcome.winner == state.to_move
        return not self._solver(state.n).state_wins(after)

    def defence(self, state: State, plies: int) -> str:
        """The reply that leaves the most legal moves (first by text among equals)."""
        assert isinstance(state, HermitState)
        texts = sorted(move.to_str() for move in state.legal_moves())
        return max(texts, key=lambda text: len(state.play(text).legal_moves()))


PROOF = HermitProof
