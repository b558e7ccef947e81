"""Adapters to the research ecosystem (the ``[rl]`` extra): PettingZoo, Gymnasium, OpenSpiel.

``bordspel.rl.codecs`` fixes each game's action space and observation planes; the adapters
``bordspel.rl.pettingzoo``, ``bordspel.rl.gymnasium`` and ``bordspel.rl.openspiel`` are imported
on demand (``bordspel.rl.render`` draws their frames), and the engines know nothing of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import game_spec

__all__ = ["draws_start"]


def draws_start(game: str, options: Mapping[str, Any]) -> bool:
    """Whether each episode of ``game`` draws its start from a seed: the game takes a ``seed``
    (one of its GameSpec's parameters, as Santorini's for random gods) and ``options`` fix none."""
    return "seed" in game_spec(game).parameters and "seed" not in options
