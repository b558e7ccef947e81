"""Hermit (Kluizenaar): the engine (``engine``), the players' knowledge (``ai``, ``proof``,
``solve``), the RL codec, the terminal picture, the browser's move parts and the CLI solver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bordspel.core import GameSpec

__all__ = ["SPEC"]


def longest_game(options: Mapping[str, Any]) -> int:
    """Every move covers at least one square."""
    return int(options["size"]) ** 2


SPEC = GameSpec(
    name="hermit",
    package=__name__,
    state=f"{__name__}.engine:HermitState",
    parameters={"size": 5},
    players=(2, 2),
    variants=({"size": 3}, {"size": 1}, {"size": 5}),
    max_length=longest_game,
    native=("hermit_core",),
    choices=(
        ("colour", (("R", "red", "#d1453b"), ("Y", "yellow", "#f0b928"), ("B", "blue", "#2f6fcf"))),
        ("placement", (("U", "upright", None), ("H", "horizontal", None), ("V", "vertical", None))),
    ),
)
