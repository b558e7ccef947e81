"""AI players from random to perfect: search, MCTS, exact solvers, and an arena.

``make_player(spec, game, seed)`` builds any player; see ``bordspel.ai.registry``.
"""

from __future__ import annotations

from bordspel.ai.players import AlphaBetaPlayer, GreedyPlayer, MCTSPlayer, Player, RandomPlayer
from bordspel.ai.registry import LEVELS, knowledge, make_player

__all__ = [
    "LEVELS",
    "AlphaBetaPlayer",
    "GreedyPlayer",
    "MCTSPlayer",
    "Player",
    "RandomPlayer",
    "knowledge",
    "make_player",
]
