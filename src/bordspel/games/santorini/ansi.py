"""Santorini in the terminal: each square's level as colour and digit, the workers as letters."""

from __future__ import annotations

from typing import Any

from bordspel.ansi import RESET, framed, marked
from bordspel.games.santorini.board import SIZE, height
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.turns import GodTurn

__all__ = ["render"]

_LEVELS = ("\x1b[30;102m", "\x1b[30;47m", "\x1b[30;107m", "\x1b[30;100m", "\x1b[97;44m")
_WORKERS = ("\x1b[1;38;5;208m", "\x1b[1;35m", "\x1b[1;36m")


def _marks(last: Any) -> set[int]:
    if isinstance(last, GodTurn):
        return {cell for action in last.actions for cell in (action.source, action.target) if cell >= 0}
    if isinstance(last, Turn):
        return {last.source, last.target} | ({last.build} if last.build is not None else set())
    if isinstance(last, Placement):
        return {last.first, last.second}
    return set()


def render(state: SantoriniState, last: Any = None, *, colour: bool = True) -> str:
    """The board in colour, the last move's squares in reverse video (plain text without colour)."""
    if not colour:
        return str(state)
    letters = {cell: chr(65 + w) for w, cell in enumerate(state.workers) if cell >= 0}
    marks = _marks(last)
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            cell = r * SIZE + c
            level = height(state.levels, cell)
            worker = letters.get(cell)
            mark = f"{_WORKERS[(ord(worker) - 65) // 2 % 3]}{worker}" if worker else " "
            # " 2A": the level under its column's letter, the worker after it
            row.append(marked(f"{_LEVELS[level]} {level}{mark}{RESET}", cell in marks))
        rows.append(row)
    gods = [f"{seat + 1} {(state.god_of(seat) or '-').capitalize()}" for seat in range(state.players)]
    return framed(rows, 3) + ("\n   gods: " + " · ".join(gods) if state.powers is not None else "")
