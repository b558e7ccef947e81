"""Adapters to the research ecosystem (the ``[rl]`` extra): PettingZoo, Gymnasium, OpenSpiel.

``bordspel.rl.codecs`` fixes each game's action space and observation planes; the adapters
``bordspel.rl.pettingzoo``, ``bordspel.rl.gymnasium`` and ``bordspel.rl.openspiel`` are imported
on demand (``bordspel.rl.render`` draws their frames), and the engines know nothing of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import State, game_spec

__all__ = ["draws_start", "missing_extra", "seat_moves"]


def draws_start(game: str, options: Mapping[str, Any]) -> bool:
    """Whether each episode of ``game`` draws its start from a seed: the game takes a ``seed``
    (one of its GameSpec's parameters, as Santorini's for random gods) and ``options`` fix none."""
    return "seed" in game_spec(game).parameters and "seed" not in options


def seat_moves(state: State, seat: int) -> bool:
    """Whether ``seat`` gets a move in some game from ``state`` (depth-first: the first line
    that reaches its turn answers, so only games that end before it are searched through)."""
    if state.is_over():
        return False
    if state.to_move == seat:
        return True
    return any(seat_moves(state.apply_unchecked(move), seat) for move in state.legal_moves())


def missing_extra(error: ImportError) -> ModuleNotFoundError:
    """The error for an adapter whose library is not installed: which one, and the extra."""
    message = f"bordspel's RL adapters need {error.name}: pip install 'bordspel[rl]'"
    return ModuleNotFoundError(message, name=error.name)
