"""Santorini turns as short sequences of actions, and the board they act on.

A turn is a sequence of :class:`Action` values: ``move`` (a worker from one square to another:
your own, or an opponent's when a power forces it), ``build`` (the next piece on a square),
``dome`` (a dome on a tower below level 3) and ``remove`` (the top block of a tower taken off).
What a power does by itself (Apollo's swap, Minotaur's push, Bia's and Medusa's removals) is not
written: it follows from the position.

A turn of the base shape (one move, then one build or a winning move) is a
:class:`~bordspel.games.santorini.engine.Turn`; any other is a :class:`GodTurn`. Notation: the actions joined
by ``+``; a move is two squares (``c3d4``), a build one square (``e4``), a dome build a square
and ``*`` (``e4*``), a removal ``-`` and a square (``-b2``). ``c3d4+e4`` is the base turn
``c3d4e4``; text without ``+`` is read as before (two or three squares).
"""

from __future__ import annotations

from typing import NamedTuple

from bordspel.core import MAX_MOVE_TEXT, NotationError, check_text
from bordspel.games.santorini.engine import DOME, Levels, height, raise_tower

__all__ = ["Action", "Board", "GodTurn", "actions_text", "is_base_shape", "parse_actions"]

Supply = tuple[int, int, int, int]
REMOVED = -2
"""The cell of a worker taken out of the game (Bia, Medusa); -1 is a worker not yet placed."""


class Action(NamedTuple):
    """One action of a turn: ``kind`` is move, build, dome or remove; ``source`` -1 but for moves."""

    kind: str
    source: int
    target: int

    def to_str(self) -> str:
        """The action in notation: ``c3d4``, ``e4``, ``e4*`` or ``-e4``."""
        from bordspel.games.santorini.engine import _sq

        if self.kind == "move":
            return _sq(self.source) + _sq(self.target)
        return (
            {"build": "", "dome": "", "remove": "-"}[self.kind]
            + _sq(self.target)
            + ("*" if self.kind == "dome" else "")
        )


class GodTurn(NamedTuple):
    """A turn that is not one move and one build: its actions in the order played."""

    actions: tuple[Action, ...]

    def to_str(self) -> str:
        """The turn in notation: its actions joined by ``+``."""
        return actions_text(self.actions)

    @classmethod
    def from_str(cls, text: str) -> GodTurn:
        """Read ``b2+c3d4+e4*``; NotationError for one move and one build (a Turn: ``Turn.from_str``)."""
        actions = parse_actions(check_text(text, MAX_MOVE_TEXT, "a move"))
        if is_base_shape(actions):
            raise NotationError(f"{text!r} is one move and one build: read it with Turn.from_str")
        return cls(actions)


def is_base_shape(actions: tuple[Action, ...]) -> bool:
    """Whether the actions are one move, or one move and one build: a Turn's, not a GodTurn's."""
    return tuple(action.kind for action in actions) in (("move",), ("move", "build"))


def actions_text(actions: tuple[Action, ...]) -> str:
    """The actions in notation, joined by ``+`` (``c3d4+e4*``)."""
    return "+".join(action.to_str() for action in actions)


def parse_actions(text: str) -> tuple[Action, ...]:
    """``c3d4+e4*`` as its actions (the squares checked, the legality not)."""
    from bordspel.games.santorini.engine import _cell, _split_squares

    actions = []
    for token in text.strip().lower().split("+"):
        token = token.strip()
        kind = "remove" if token.startswith("-") else "dome" if token.endswith("*") else ""
        squares = [_cell(name) for name in _split_squares(token.strip("-*"))]
        if len(squares) == 2 and not kind:
            actions.append(Action("move", squares[0], squares[1]))
        elif len(squares) == 1:
            actions.append(Action(kind or "build", -1, squares[0]))
        else:
            raise NotationError(
                f"{token!r}: an action is c3d4 (move), e4 (build), e4* (dome) or -e4 (remove)"
            )
    return tuple(actions)


class Board(NamedTuple):
    """Towers, worker cells and the supply (None: unlimited) while a turn is worked out."""

    levels: Levels
    workers: tuple[int, ...]
    supply: Supply | None

    def occupied(self) -> int:
        """The cells with a worker on them, as a mask of cells."""
        mask = 0
        for cell in self.workers:
            if cell >= 0:
                mask |= 1 << cell
        return mask

    def worker_on(self, cell: int) -> int:
        """The index of the worker on ``cell``, -1 when there is none."""
        return self.workers.index(cell) if cell >= 0 and cell in self.workers else -1

    def moved(self, index: int, cell: int) -> Board:
        """The board after worker ``index`` goes to ``cell``."""
        workers = self.workers[:index] + (cell,) + self.workers[index + 1 :]
        return Board(self.levels, workers, self.supply)

    def has_piece(self, cell: int, dome: bool = False) -> bool:
        """Whether the supply still has the piece a build (or a dome) on ``cell`` takes."""
        if self.supply is None:
            return True
        return self.supply[DOME - 1 if dome else height(self.levels, cell)] > 0

    def built(self, cell: int, dome: bool = False) -> Board:
        """The board after the next piece (or a dome, at any level) goes on ``cell``."""
        level = DOME - 1 if dome else height(self.levels, cell)
        supply = self.supply
        if supply is not None:
            supply = _changed(supply, level, -1)
        if dome:
            g1, g2, g3, domes = self.levels
            return Board((g1, g2, g3, domes | 1 << cell), self.workers, supply)
        return Board(raise_tower(self.levels, cell), self.workers, supply)

    def lowered(self, cell: int) -> Board:
        """The board after the top block of ``cell`` (not a dome) goes back to the supply."""
        level = height(self.levels, cell) - 1
        bit = ~(1 << cell)
        levels = tuple(mask & bit if index == level else mask for index, mask in enumerate(self.levels))
        supply = None if self.supply is None else _changed(self.supply, level, 1)
        return Board(levels, self.workers, supply)  # type: ignore[arg-type]

    def removed(self, index: int) -> Board:
        """The board after worker ``index`` is taken out of the game."""
        return self.moved(index, REMOVED)


def _changed(supply: Supply, level: int, by: int) -> Supply:
    values = list(supply)
    values[level] += by
    return (values[0], values[1], values[2], values[3])
