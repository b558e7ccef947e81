"""Santorini puzzles (``bordspel.puzzles``), two players, with and without gods: a forced win
in one or two of the mover's turns, proved by an exhaustive search of the mover's turns and
every reply (the engine's turn listing, with the gods' powers when they play).

A right move keeps a win within the plies left: it wins at once, or every reply loses at once
or leaves a winning turn. The defence is the reply after which the attacker has the fewest
winning turns (first in move-text order among equals).
"""

from __future__ import annotations

import random

from bordspel.core import State
from bordspel.games.santorini.engine import SantoriniState

__all__ = ["PROOF", "SantoriniProof"]

LONGEST = 3
"""The longest win the search looks for, in plies (two of the mover's turns)."""
GODS = 0.5
"""The share of random games for puzzles played with simple gods drawn for both seats."""
TURNS = (6, 30)
"""The range of random turns after the setup where a game for puzzles starts to be searched."""
MOST_TURNS = 60
"""Positions where either player has more turns than this are not puzzles (the search of two
turns and every reply would take seconds: Artemis, Hermes)."""


def wins_within(state: SantoriniState, plies: int) -> bool:
    """Whether the player to move forces a win within ``plies``."""
    return plies >= 1 and any(_move_wins(state, state.apply(move), plies) for move in state.legal_moves())


def _move_wins(state: SantoriniState, after: SantoriniState, plies: int) -> bool:
    outcome = after.outcome()
    if outcome is not None:
        return outcome.winner == state.to_move
    return plies >= 3 and _loses_within(after, plies - 1)


def _loses_within(state: SantoriniState, plies: int) -> bool:
    """Whether every move of the player to move loses within ``plies``."""
    for move in state.legal_moves():
        after = state.apply(move)
        outcome = after.outcome()
        if outcome is None and not wins_within(after, plies - 1):
            return False
        if outcome is not None and outcome.winner == state.to_move:
            return False
    return True


def _searchable(state: SantoriniState) -> bool:
    """Whether the player to move and the next have at most ``MOST_TURNS`` turns."""
    moves = state.legal_moves()
    if len(moves) > MOST_TURNS:
        return False
    after = state.apply(moves[0])
    return after.outcome() is not None or len(after.legal_moves()) <= MOST_TURNS


class SantoriniProof:
    """The search's answers for puzzles."""

    def start(self, rng: random.Random) -> SantoriniState:
        """A two-player game (simple gods with chance ``GODS``) past its setup and a random
        number of random turns in ``TURNS``."""
        gods = "simple" if rng.random() < GODS else ""
        state = SantoriniState.initial(gods=gods, seed=rng.randrange(2**31))
        turns = rng.randrange(*TURNS)
        while state.outcome() is None and (state.in_setup or turns > 0):
            turns -= not state.in_setup
            state = state.apply(state.random_move(rng))
        return state

    def plies(self, state: State) -> int | None:
        """The shortest forced win for the player to move within ``LONGEST`` plies, if any."""
        assert isinstance(state, SantoriniState)
        if state.num_players != 2 or state.in_setup or not _searchable(state):
            return None
        return next((plies for plies in range(1, LONGEST + 1, 2) if wins_within(state, plies)), None)

    def keeps_win(self, state: State, move_text: str, plies: int) -> bool:
        """Whether the move wins at once, or leaves the opponent lost within ``plies - 1``."""
        assert isinstance(state, SantoriniState)
        return _move_wins(state, state.play(move_text), plies)

    def defence(self, state: State, plies: int) -> str:
        """The reply leaving the attacker the fewest winning turns (a reply that holds first)."""
        assert isinstance(state, SantoriniState)
        texts = sorted(move.to_str() for move in state.legal_moves())
        return min(texts, key=lambda text: self._attack(state, state.play(text), plies - 1))

    def _attack(self, state: SantoriniState, after: SantoriniState, plies: int) -> tuple[int, int]:
        """How well the attacker stands after a reply: (holds, winning turns); lower is better
        for the defender."""
        outcome = after.outcome()
        if outcome is not None:
            return (0, 0) if outcome.winner == state.to_move else (2, 0)
        winning = sum(_move_wins(after, after.apply(move), plies) for move in after.legal_moves())
        return (1 if winning else 0, winning)


PROOF = SantoriniProof
