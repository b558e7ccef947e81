"""bordspel: Hermit (Kluizenaar), Santorini and Quarto — engines, the spec APIs, and more.

The spec names are importable from here (the Dutch ones, as the spec texts give them):
``Kluizenaar``, ``Hermit``, ``Santorini``, ``lees_stukken``, ``stuk_eigenschappen``,
``maak_rooster`` and ``quarto``. ``bordspel.nl`` and ``bordspel.en`` hold the full APIs in
each language; ``bordspel.core`` the game protocol shared by the engines.

``bordspel.quarto`` is both the Quarto engine module and, when called, the spec's
``quarto(configuration, properties)`` function.
"""

from __future__ import annotations

from bordspel import quarto  # the facade package: the Quarto engine module, callable
from bordspel.core import (
    BordspelError,
    IllegalMoveError,
    NotationError,
    Outcome,
    State,
    available_games,
    game_class,
    new_game,
    perft,
)
from bordspel.en import Hermit
from bordspel.nl import Kluizenaar, Santorini, lees_stukken, maak_rooster, stuk_eigenschappen

__version__ = "0.1.0"

__all__ = [
    "BordspelError",
    "Hermit",
    "IllegalMoveError",
    "Kluizenaar",
    "NotationError",
    "Outcome",
    "Santorini",
    "State",
    "available_games",
    "game_class",
    "lees_stukken",
    "maak_rooster",
    "new_game",
    "perft",
    "quarto",
    "stuk_eigenschappen",
]
