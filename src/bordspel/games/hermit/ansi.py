"""Hermit in the terminal: each square in its block's colour, the last block marked."""

from __future__ import annotations

from typing import Any

from bordspel.ansi import RESET, framed, marked
from bordspel.games.hermit.engine import HermitMove, HermitState

__all__ = ["render"]

_HERMIT = {"R": "\x1b[97;41m", "Y": "\x1b[30;43m", "B": "\x1b[97;44m", ".": "\x1b[2m"}


def render(state: HermitState, last: Any = None, *, colour: bool = True) -> str:
    if not colour:
        return str(state)
    marks = last.squares if isinstance(last, HermitMove) else set()
    rows = [
        [marked(f"{_HERMIT[ch]} {ch} {RESET}", (r, c) in marks) for c, ch in enumerate(row)]
        for r, row in enumerate(state.rows())
    ]
    return framed(rows, 3)
