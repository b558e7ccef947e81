"""bordspel: Hermit (Kluizenaar), Santorini and Quarto — engines, the spec APIs, and more.

The spec names are importable from here (the Dutch ones, as the spec texts give them):
``Kluizenaar``, ``Hermit``, ``Santorini``, ``lees_stukken``, ``stuk_eigenschappen``,
``maak_rooster`` and ``quarto``. ``bordspel.nl`` and ``bordspel.en`` hold the full APIs in
each language; ``bordspel.core`` the game protocol shared by the engines; ``Board`` (from
``bordspel.board``) is a mutable board with push/pop history over any game's states.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, overload

from bordspel import core
from bordspel.core import (
    BordspelError,
    IllegalMoveError,
    NotationError,
    Outcome,
    State,
    available_games,
    game_class,
    perft,
)

if TYPE_CHECKING:
    from bordspel.board import Board
    from bordspel.en import Hermit
    from bordspel.games.hermit.engine import HermitState
    from bordspel.games.quarto.engine import QuartoState
    from bordspel.games.santorini.engine import SantoriniState
    from bordspel.nl import Kluizenaar, Santorini, lees_stukken, maak_rooster, quarto, stuk_eigenschappen

__version__ = "0.1.0"

_LAZY_NAMES = {
    "Board": "bordspel.board",
    "Hermit": "bordspel.en",
    "Kluizenaar": "bordspel.nl",
    "Santorini": "bordspel.nl",
    "lees_stukken": "bordspel.nl",
    "maak_rooster": "bordspel.nl",
    "quarto": "bordspel.nl",
    "stuk_eigenschappen": "bordspel.nl",
}
"""The spec names (and ``Board``) with the module that defines each: imported when first asked
for, so that ``import bordspel`` loads no engine and ``Hermit(4)`` only Hermit's."""


def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    raise AttributeError(f"module 'bordspel' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_NAMES})


@overload
def new_game(name: Literal["hermit"], **options: Any) -> HermitState: ...
@overload
def new_game(name: Literal["quarto"], **options: Any) -> QuartoState: ...
@overload
def new_game(name: Literal["santorini"], **options: Any) -> SantoriniState: ...
@overload
def new_game(name: str, **options: Any) -> State: ...
def new_game(name: str, **options: Any) -> State:
    """The starting position of the game registered under ``name`` (``bordspel.core.new_game``);
    type checkers see the built-in games' own state classes, e.g. ``HermitState`` for ``"hermit"``."""
    return core.new_game(name, **options)


__all__ = [
    "Board",
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
