"""AI players from random to perfect: search, MCTS, exact solvers, and an arena.

``make_player(spec, game, seed)`` builds any player; see ``bordspel.ai.registry``.
``analyse(player_or_spec, state, limit)`` is a search player's analysis, typed (``Analyser``).
"""

from __future__ import annotations

from bordspel.ai.players import AlphaBetaPlayer, Analyser, GreedyPlayer, MCTSPlayer, Player, RandomPlayer
from bordspel.ai.registry import LEVELS, analyse, analyser, knowledge, make_player
from bordspel.ai.search import Limit, SearchResult

__all__ = [
    "LEVELS",
    "AlphaBetaPlayer",
    "Analyser",
    "GreedyPlayer",
    "Limit",
    "MCTSPlayer",
    "Player",
    "RandomPlayer",
    "SearchResult",
    "analyse",
    "analyser",
    "knowledge",
    "make_player",
]
