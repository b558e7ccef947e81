"""Santorini's moves: setup placements, turns as short sequences of actions, and their notation.

A turn is a sequence of :class:`Action` values: ``move`` (a worker from one square to another:
your own, or an opponent's when a power forces it), ``build`` (the next piece on a square),
``dome`` (a dome on a tower below level 3) and ``remove`` (the top block of a tower taken off).
What a power does by itself (Apollo's swap, Minotaur's push, Bia's and Medusa's removals) is not
written: it follows from the position.

A turn of the base shape (one move, then one build or a winning move) is a :class:`Turn`; any
other is a :class:`GodTurn`. Notation: the actions joined by ``+``; a move is two squares
(``c3d4``), a build one square (``e4``), a dome build a square and ``*`` (``e4*``), a removal
``-`` and a square (``-b2``). ``c3d4+e4`` is the base turn ``c3d4e4``; text without ``+`` is read
as before (two or three squares). :class:`Board` is what a turn acts on while it is worked out.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from bordspel.core import MAX_MOVE_TEXT, NotationError, check_text, parse_square, square_name
from bordspel.games.santorini.board import DOME, SIZE, Levels, height, occupied_mask, raise_tower

__all__ = [
    "REMOVED",
    "Action",
    "Board",
    "GodTurn",
    "Placement",
    "SantoriniMove",
    "Turn",
    "actions_of",
    "actions_text",
    "is_base_shape",
    "parse_actions",
    "turn_of",
]

Supply = tuple[int, int, int, int]
REMOVED = -2
"""The cell of a worker taken out of the game (Bia, Medusa); -1 is a worker not yet placed."""


def square_text(cell: int) -> str:
    """The name of ``cell``, like ``c3``."""
    return square_name(cell // SIZE, cell % SIZE)


def cell_named(text: str) -> int:
    """The cell of a square name, like ``c3``; NotationError off the board."""
    row, col = parse_square(text, SIZE, SIZE)
    return row * SIZE + col


def squares_in(text: str) -> list[int]:
    """The cells named in a move's text."""
    return [cell_named(name) for name in _split_squares(check_text(text, MAX_MOVE_TEXT, "a move"))]


def _split_squares(text: str) -> list[str]:
    """``c3d4e5`` or ``c3-d4-e5`` or ``c3 d4 e5`` as a list of square names."""
    squares: list[str] = []
    current = ""
    for char in text.strip().lower():
        if char in "-,^ ":
            continue
        if char.isalpha() and current[-1:].isdigit():
            squares.append(current)
            current = ""
        current += char
    if current:
        squares.append(current)
    return squares


class Placement(NamedTuple):
    """Setup: the player to move puts its two workers on ``first`` and ``second`` (cells)."""

    first: int
    second: int

    def to_str(self) -> str:
        """The two squares, like ``a1b2``."""
        return square_text(self.first) + square_text(self.second)

    @classmethod
    def from_str(cls, text: str) -> Placement:
        """Read ``a1b2`` (also ``a1-b2``), in either order; NotationError if it is no placement."""
        squares = squares_in(text)
        if len(squares) != 2:
            raise NotationError(f"{text!r}: place two workers, like c3d4")
        return cls(min(squares), max(squares))


class Turn(NamedTuple):
    """Move the worker on ``source`` to ``target``, then build on ``build`` (None: the move won)."""

    source: int
    target: int
    build: int | None

    def to_str(self) -> str:
        """Worker, move and build squares, like ``c3d4e5`` (``c3d4`` for a winning move)."""
        text = square_text(self.source) + square_text(self.target)
        return text if self.build is None else text + square_text(self.build)

    @classmethod
    def from_str(cls, text: str) -> Turn:
        """Read ``c3d4e5``, ``c3-d4-e5``, ``c3d4`` or as actions ``c3d4+e5``; NotationError if it
        is no turn of one move (and one build)."""
        if "+" in check_text(text, MAX_MOVE_TEXT, "a move"):
            move = turn_of(parse_actions(text))
            if not isinstance(move, Turn):
                raise NotationError(f"{text!r} is a god turn: read it with GodTurn.from_str")
            return move
        squares = squares_in(text)
        if len(squares) not in (2, 3):
            raise NotationError(f"{text!r}: write worker square, move square, build square, like c3d4e4")
        return cls(squares[0], squares[1], squares[2] if len(squares) == 3 else None)


class Action(NamedTuple):
    """One action of a turn: ``kind`` is move, build, dome or remove; ``source`` -1 but for moves."""

    kind: str
    source: int
    target: int

    def to_str(self) -> str:
        """The action in notation: ``c3d4``, ``e4``, ``e4*`` or ``-e4``."""
        if self.kind == "move":
            return square_text(self.source) + square_text(self.target)
        return (
            {"build": "", "dome": "", "remove": "-"}[self.kind]
            + square_text(self.target)
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


SantoriniMove: TypeAlias = "Placement | Turn | GodTurn"
"""A setup placement, a turn of one move and one build, or any other god turn."""


def is_base_shape(actions: tuple[Action, ...]) -> bool:
    """Whether the actions are one move, or one move and one build: a Turn's, not a GodTurn's."""
    count = len(actions)
    return 0 < count <= 2 and actions[0].kind == "move" and (count == 1 or actions[1].kind == "build")


def actions_text(actions: tuple[Action, ...]) -> str:
    """The actions in notation, joined by ``+`` (``c3d4+e4*``)."""
    return "+".join(action.to_str() for action in actions)


def parse_actions(text: str) -> tuple[Action, ...]:
    """``c3d4+e4*`` as its actions (the squares checked, the legality not)."""
    actions = []
    for token in text.strip().lower().split("+"):
        token = token.strip()
        kind = "remove" if token.startswith("-") else "dome" if token.endswith("*") else ""
        squares = [cell_named(name) for name in _split_squares(token.strip("-*"))]
        if len(squares) == 2 and not kind:
            actions.append(Action("move", squares[0], squares[1]))
        elif len(squares) == 1:
            actions.append(Action(kind or "build", -1, squares[0]))
        else:
            raise NotationError(
                f"{token!r}: an action is c3d4 (move), e4 (build), e4* (dome) or -e4 (remove)"
            )
    return tuple(actions)


def turn_of(actions: tuple[Action, ...]) -> Turn | GodTurn:
    """A :class:`Turn` for one move (and one build), else a :class:`GodTurn`."""
    if not is_base_shape(actions):
        return GodTurn(actions)
    return Turn(actions[0].source, actions[0].target, actions[1].target if len(actions) == 2 else None)


def actions_of(move: Any) -> tuple[Action, ...]:
    """The actions of a Turn or GodTurn."""
    if isinstance(move, GodTurn):
        return move.actions
    source, target, build = move
    moved = (Action("move", source, target),)
    return moved if build is None else moved + (Action("build", -1, build),)


class Board(NamedTuple):
    """Towers, worker cells and the supply (None: unlimited) while a turn is worked out."""

    levels: Levels
    workers: tuple[int, ...]
    supply: Supply | None

    def occupied(self) -> int:
        """The cells with a worker on them, as a mask of cells."""
        return occupied_mask(self.workers)

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
