"""Coloured terminal pictures of positions (ANSI escape codes), one function per game."""

from __future__ import annotations

import functools

from bordspel.core import State, square_name
from bordspel.hermit import HermitState
from bordspel.quarto import QuartoState
from bordspel.santorini import SIZE, SantoriniState, height

__all__ = ["render"]

RESET = "\x1b[0m"
_HERMIT = {"R": "\x1b[97;41m", "Y": "\x1b[30;43m", "B": "\x1b[97;44m", ".": "\x1b[2m"}
_LEVELS = ("\x1b[30;102m", "\x1b[30;47m", "\x1b[30;107m", "\x1b[30;100m", "\x1b[97;44m")
_WORKERS = ("\x1b[1;38;5;208m", "\x1b[1;35m", "\x1b[1;36m")


@functools.singledispatch
def render(state: State) -> str:
    """The position as coloured text for a terminal, with coordinates on the edges."""
    return str(state)


def _framed(rows: list[list[str]], width: int) -> str:
    columns = "".join(square_name(0, c)[:-1].center(width) for c in range(len(rows[0])))
    lines = ["   " + columns]
    lines += [f"{r + 1:>2} " + "".join(row) for r, row in enumerate(rows)]
    return "\n".join(lines)


@render.register
def _hermit(state: HermitState) -> str:
    rows = [[f"{_HERMIT[ch]} {ch} {RESET}" for ch in row] for row in state.rows()]
    return _framed(rows, 3)


@render.register
def _santorini(state: SantoriniState) -> str:
    letters = {cell: chr(65 + w) for w, cell in enumerate(state.workers) if cell >= 0}
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            cell = r * SIZE + c
            level = height(state.levels, cell)
            worker = letters.get(cell)
            mark = f"{_WORKERS[(ord(worker) - 65) // 2 % 3]}{worker}" if worker else " "
            row.append(f"{_LEVELS[level]}{level}{mark}{_LEVELS[level]} {RESET}")
        rows.append(row)
    return _framed(rows, 3)


@render.register
def _quarto(state: QuartoState) -> str:
    chars = state.pieces.chars
    rows = []
    for r in range(4):
        row = []
        for c in range(4):
            code = state.piece_at(4 * r + c)
            if code is None:
                row.append("\x1b[2m . " + RESET)
            else:
                colour = "\x1b[1;31m" if code & 2 == 0 else "\x1b[1;34m"
                row.append(f"{colour} {chars[code]} {RESET}")
        rows.append(row)
    hand = "-" if state.hand < 0 else chars[state.hand]
    return _framed(rows, 3) + f"\nin hand: {hand}"
