"""Santorini: the engine (``engine``, ``batch``), the players' knowledge (``ai``), the RL codec,
the terminal picture and the browser's move parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import GameSpec

__all__ = ["SPEC"]


def longest_game(options: Mapping[str, Any]) -> int:
    """The setup, then one build a turn on 25 squares of at most four levels (and a last move)."""
    return 2 * int(options["players"]) + 4 * 25 + 4


SPEC = GameSpec(
    name="santorini",
    package=__name__,
    state=f"{__name__}.engine:SantoriniState",
    parameters={"players": 2, "finite_supply": False, "gods": "", "seed": 0},
    players=(2, 4),
    variants=({}, {"players": 3}, {"players": 4}, {"finite_supply": True}),
    max_length=longest_game,
    native=(
        "santorini_core",
        "santorini_gods",
        "santorini_gods_search",
        "santorini_gods_play",
        "santorini_generator",
    ),
)
