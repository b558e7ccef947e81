"""Tic-tac-toe on 3 x 3: X moves first; a move is the square's name (``b2``)."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from bordspel.core import NotationError, Outcome, parse_square, split_fields, square_name
from bordspel.jupyter import PicturedState

__all__ = ["TicTacToeMove", "TicTacToeState"]

_LINES: tuple[tuple[int, int, int], ...] = (
    *((3 * r, 3 * r + 1, 3 * r + 2) for r in range(3)),
    *((c, c + 3, c + 6) for c in range(3)),
    (0, 4, 8),
    (2, 4, 6),
)
MARKS = "XO"


class TicTacToeMove(NamedTuple):
    """A mark on ``square`` (0-8, row by row)."""

    square: int

    def to_str(self) -> str:
        """The square's name, like ``b2``."""
        return square_name(self.square // 3, self.square % 3)

    @classmethod
    def from_str(cls, text: str) -> TicTacToeMove:
        """Read a square's name (NotationError if it is none of the nine)."""
        row, col = parse_square(text.strip(), 3, 3)
        return cls(3 * row + col)


class TicTacToeState(PicturedState):
    """The nine squares as a string of ``X``, ``O`` and ``.``."""

    __slots__ = ("cells",)
    name: ClassVar[str] = "tictactoe"
    cells: str

    def __init__(self, cells: str) -> None:
        object.__setattr__(self, "cells", cells)

    def _key(self) -> tuple[Any, ...]:
        return (self.cells,)

    @classmethod
    def initial(cls, **options: Any) -> TicTacToeState:
        if options:
            raise NotationError(f"tic-tac-toe has no options, not {', '.join(options)}")
        return cls("." * 9)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int:
        return (9 - self.cells.count(".")) % 2

    def legal_moves(self) -> list[TicTacToeMove]:
        if self._winner() is not None:
            return []
        return [TicTacToeMove(i) for i, ch in enumerate(self.cells) if ch == "."]

    def apply_unchecked(self, move: TicTacToeMove) -> TicTacToeState:
        cells = self.cells
        return TicTacToeState(cells[: move.square] + MARKS[self.to_move] + cells[move.square + 1 :])

    def _winner(self) -> int | None:
        for a, b, c in _LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return MARKS.index(self.cells[a])
        return None

    def outcome(self) -> Outcome | None:
        winner = self._winner()
        if winner is not None:
            return Outcome(frozenset({winner}), "three in a row", 2)
        if "." not in self.cells:
            return Outcome(frozenset(), "the board is full", 2)
        return None

    def grid(self) -> list[str]:
        return [self.cells[3 * r : 3 * r + 3] for r in range(3)]

    def to_str(self) -> str:
        return "/".join(self.grid())

    @classmethod
    def from_str(cls, text: str) -> TicTacToeState:
        (board, *_), _ = split_fields(text, "tic-tac-toe")
        cells = board.replace("/", "")
        if len(cells) != 9 or set(cells) - set("XO.") or not 0 <= cells.count("X") - cells.count("O") <= 1:
            raise NotationError(f"{text!r} is not a tic-tac-toe position: three rows of X, O and .")
        return cls(cells)

    def move_from_str(self, text: str) -> TicTacToeMove:
        return TicTacToeMove.from_str(text)
