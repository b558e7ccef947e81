"""The spec API in English: ``Hermit``, ``Santorini`` and the Quarto functions.

Thin wrappers around the engines: each call checks its arguments through the engine and
turns a refused action into ``AssertionError('invalid move')``, leaving the game unchanged.
Each game's engine is imported when that game is first used, so ``Hermit(4)`` loads no other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from bordspel.core import BordspelError, iter_bits

if TYPE_CHECKING:
    from bordspel.games.hermit.engine import HermitState
    from bordspel.games.santorini.engine import SantoriniBoard

__all__ = ["Hermit", "Santorini", "make_grid", "piece_properties", "quarto", "read_pieces"]

Square = tuple[int, int]


class Hermit:
    """A Hermit board of n x n squares that blocks are placed on (the spec's class)."""

    _INVALID: ClassVar[str] = "invalid move"

    def __init__(self, n: int) -> None:
        from bordspel.games.hermit.engine import HermitState

        self.state = HermitState.initial(size=n)

    def __str__(self) -> str:
        return str(self.state)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_state({self.state!r})"

    @classmethod
    def from_state(cls, state: HermitState) -> Hermit:
        """A board showing an engine position."""
        game = cls.__new__(cls)
        game.state = state
        return game

    def positions(self, square: Square, placement: str) -> set[Square]:
        """The squares a block in ``placement`` with its top-left corner on ``square`` covers."""
        from bordspel.games.hermit.engine import block_squares

        return block_squares(square, placement)

    def isvalid(self, colour: str, square: Square) -> bool:
        """Whether ``square`` is empty, on the board and touches no block of ``colour``."""
        return self.state.is_free(colour, square)

    def move(self, colour: str, square: Square, placement: str) -> Hermit:
        """Place a block; raises AssertionError and changes nothing when the rules forbid it."""
        from bordspel.games.hermit.engine import HermitMove

        try:
            row, col = square
            move = HermitMove(colour, row, col, placement)
        except (TypeError, ValueError):
            raise AssertionError(self._INVALID) from None
        if not self.state.is_legal(move):
            raise AssertionError(self._INVALID)
        self.state = self.state.apply_unchecked(move)
        return self

    def possible_moves(self) -> set[tuple[str, Square, str]]:
        """Every (colour, square, placement) that can be played next."""
        return {(m.colour, (m.row, m.col), m.placement) for m in self.state.legal_moves()}


class Santorini:
    """A Santorini board with lettered workers; each action is checked against the board alone."""

    _INVALID: ClassVar[str] = "invalid move"
    _DIRECTIONS: ClassVar[Mapping[str, str] | None] = None
    """The direction names in another language, by their English names (None: English)."""

    def __init__(self, positions: list[Square] | tuple[Square, ...]) -> None:
        from bordspel.games.santorini.engine import SantoriniBoard

        self.board: SantoriniBoard
        try:
            self.board = SantoriniBoard.from_positions(positions)
        except BordspelError as error:
            raise AssertionError(str(error)) from None

    def __str__(self) -> str:
        return str(self.board)

    @property
    def workers(self) -> dict[str, Square]:
        """Each worker's letter and position."""
        return self.board.positions()

    def level(self, worker: str) -> int:
        """The level of the tower the worker stands on."""
        try:
            return self.board.level(worker)
        except BordspelError:
            raise AssertionError(self._INVALID) from None

    def _act(self, action: str, worker: str, direction: str) -> Santorini:
        try:
            self.board = getattr(self.board, action)(worker, self._english(direction))
        except BordspelError:
            raise AssertionError(self._INVALID) from None
        return self

    def _english(self, direction: object) -> str | None:
        """The engine's name of a direction, or None when there is no such direction."""
        from bordspel.games.santorini.engine import DIRECTIONS

        if not isinstance(direction, str):
            return None
        if self._DIRECTIONS is not None:
            return self._DIRECTIONS.get(direction)
        return direction if direction in DIRECTIONS else None

    def move_worker(self, worker: str, direction: str) -> Santorini:
        """Move a worker one square; refused when off the board, occupied, domed or too high."""
        return self._act("moved", worker, direction)

    def build_tower(self, worker: str, direction: str) -> Santorini:
        """Build one level next to a worker; refused on a worker, a dome or off the board."""
        return self._act("built", worker, direction)

    def winning_worker(self) -> str | None:
        """The first worker (alphabetically) on level 3, or None."""
        return self.board.winning_worker()


def read_pieces(path: str) -> dict[str, dict[str, set[str]]]:
    """Characteristic -> value -> the characters of the pieces with that value."""
    from bordspel.games.quarto.engine import read_piece_file

    characteristics, pieces = read_piece_file(path)
    table: dict[str, dict[str, set[str]]] = {name: {} for name in characteristics}
    for char, values in pieces.items():
        for name, value in zip(characteristics, values):
            table[name].setdefault(value, set()).add(char)
    return table


def piece_properties(table: Mapping[str, Mapping[str, set[str]]]) -> dict[str, set[str]]:
    """Piece character -> all of its values (the inverse of ``read_pieces``)."""
    properties: dict[str, set[str]] = {}
    for values in table.values():
        for value, chars in values.items():
            for char in chars:
                properties.setdefault(char, set()).add(value)
    return properties


def make_grid(config: str, properties: Mapping[str, set[str]]) -> list[list[set[str]]]:
    """The board as rows of squares, each the set of its piece's properties (empty if no piece)."""
    config, properties = _checked(config, properties)
    return [[set(properties.get(config[4 * r + c], set())) for c in range(4)] for r in range(4)]


def quarto(config: str, properties: Mapping[str, set[str]]) -> set[tuple[str, str]]:
    """(line, shared property) for every full line of four pieces sharing a property."""
    from bordspel.games.quarto.engine import LINES

    config, properties = _checked(config, properties)
    found: set[tuple[str, str]] = set()
    for name, mask in LINES.items():
        pieces = [config[square] for square in iter_bits(mask)]
        if all(piece in properties for piece in pieces):
            shared = set.intersection(*(set(properties[piece]) for piece in pieces))
            found.update((name, value) for value in shared)
    return found


def _checked(config: object, properties: object) -> tuple[str, Mapping[str, set[str]]]:
    """The spec's configuration (16 characters) and properties (character -> set), else ValueError."""
    if not isinstance(config, str) or len(config) != 16:
        raise ValueError(f"a configuration is a string of 16 characters, not {config!r}")
    if not isinstance(properties, Mapping) or not all(
        isinstance(values, (set, frozenset)) for values in properties.values()
    ):
        raise ValueError("the properties map each piece character to the set of its values")
    return config, properties
