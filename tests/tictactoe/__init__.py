"""Tic-tac-toe, a game bordspel does not ship: the proof that a game plugs in from outside.

``tests/conftest.py`` registers ``SPEC``; nothing in ``src/`` names this game. It gives only its
rules (a ``State`` with ``grid()``), so every other part is bordspel's generic default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import GameSpec

__all__ = ["SPEC"]


def longest_game(options: Mapping[str, Any]) -> int:
    return 9


SPEC = GameSpec(
    name="tictactoe",
    state="tests.tictactoe.engine:TicTacToeState",
    pieces="XO",
    max_length=longest_game,
)
