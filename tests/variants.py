"""The games and variants every per-game test runs: read from the registry, the one list of games."""

from __future__ import annotations

from typing import Any

from bordspel.core import available_games, game_spec

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    (name, dict(options)) for name in available_games() for options in game_spec(name).variants
]
"""Every registered game with each of its GameSpec's variants."""
IDS = [f"{game}-{options}" for game, options in VARIANTS]
FIRSTS: list[tuple[str, dict[str, Any]]] = [
    (name, dict(game_spec(name).variants[0])) for name in available_games()
]
"""Every game once, in its first variant (for the slower end-to-end tests)."""
FIRST_IDS = [game for game, _ in FIRSTS]
GOD_VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("santorini", {"gods": "apollo/pan"}),
    ("santorini", {"players": 3, "gods": "atlas/athena/hermes"}),
]
"""Santorini with gods, for the adapters' own checks (not a GameSpec variant: the generic turn
generator makes every per-variant test slower)."""
GOD_IDS = [f"santorini-{options['gods']}" for _, options in GOD_VARIANTS]
