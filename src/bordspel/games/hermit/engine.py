"""Hermit (Kluizenaar): the rules on an n x n board, with bitboards in Python ints.

Cell ``(r, c)`` is bit ``r * n + c``. A position is one mask per colour (red, yellow, blue).
The squares where a colour may go are the empty squares outside the 8-neighbourhood of that
colour's blocks, so move generation works on whole masks, never cell by cell.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import permutations
from types import MappingProxyType
from typing import Any, NamedTuple, TypeGuard

from bordspel.core import (
    MAX_MOVE_TEXT,
    BordspelError,
    IntRange,
    NotationError,
    Outcome,
    check_text,
    iter_bits,
    option_int,
    parse_square,
    permute_mask,
    split_fields,
    square_name,
    square_symmetries,
)
from bordspel.games.hermit.rules import (
    COLOURS,
    PLACEMENTS,
    SHAPES,
    Geometry,
    block_at,
    dilate,
    fitting_blocks,
    free_squares,
    geometry,
    placement_starts,
)
from bordspel.jupyter import PicturedState

__all__ = ["MAX_SIZE", "HermitMove", "HermitState", "block_squares"]

MAX_SIZE = 64
"""The largest board (64 x 64 squares); the engine refuses larger ones."""
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue"}
_SET = object.__setattr__


def block_squares(square: tuple[int, int], placement: str) -> set[tuple[int, int]]:
    """The squares a block covers with its top-left corner on ``square`` (board size ignored)."""
    if not _is_square(square):
        raise BordspelError(f"a square is a (row, column) pair of whole numbers, not {square!r}")
    if not _one_of(placement, PLACEMENTS):
        raise BordspelError(f"unknown placement {placement!r}: use U (upright), H or V")
    row, col = square
    down, right = SHAPES[PLACEMENTS.index(placement)]
    return {(row, col), (row + down, col + right)}


def _one_of(value: object, letters: str) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in letters


def _is_square(square: object) -> TypeGuard[tuple[int, int] | list[int]]:
    """Whether ``square`` is a (row, col) pair of ints (on the board or not)."""
    if not (isinstance(square, (tuple, list)) and len(square) == 2):
        return False
    return all(isinstance(v, int) and not isinstance(v, bool) for v in square)


class HermitMove(NamedTuple):
    """A block of ``colour`` (R, Y, B) with its top-left corner on (row, col), placed U, H or V."""

    colour: str
    row: int
    col: int
    placement: str

    def to_str(self) -> str:
        """Colour, square, placement, as in the spec's tuples: ``Ya2U`` is ('Y', (1, 0), 'U')."""
        return f"{self.colour}{square_name(self.row, self.col)}{self.placement}"

    @classmethod
    def from_str(cls, text: str, size: int = MAX_SIZE) -> HermitMove:
        """Read ``Ya2U`` (``Ya2`` means upright too) on a ``size`` board; case-blind letters."""
        body = check_text(text, MAX_MOVE_TEXT, "a Hermit move").strip()
        if len(body) < 3:
            raise NotationError(f"{text!r} is not a Hermit move: write colour, square, placement, like Ra1H")
        colour, rest = body[0].upper(), body[1:]
        placement = "U"
        if rest[-1].isalpha():
            placement, rest = rest[-1].upper(), rest[:-1]
        if colour not in COLOURS:
            raise NotationError(f"{text!r}: unknown colour {body[0]!r}, use R, Y or B")
        if placement not in PLACEMENTS:
            raise NotationError(f"{text!r}: unknown placement, use U (upright), H or V")
        row, col = parse_square(rest, size, size)
        return cls(colour, row, col, placement)

    @property
    def squares(self) -> set[tuple[int, int]]:
        """The squares the block covers."""
        return block_squares((self.row, self.col), self.placement)


class HermitState(PicturedState[HermitMove]):
    """A Hermit position: the blocks of each colour on an n x n board, and whose turn it is."""

    __slots__ = ("n", "masks", "plies")
    name = "hermit"
    option_limits = MappingProxyType({"size": IntRange(1, 16)})
    n: int
    masks: tuple[int, int, int]
    plies: int

    @classmethod
    def _make(cls, n: int, masks: tuple[int, int, int], plies: int) -> HermitState:
        state = object.__new__(cls)
        _SET(state, "n", n)
        _SET(state, "masks", masks)
        _SET(state, "plies", plies)
        return state

    @classmethod
    def initial(cls, size: int = 5, **options: Any) -> HermitState:
        if options:
            raise BordspelError(f"Hermit has no option {', '.join(options)}; it takes size")
        size = option_int("size", size, 1, MAX_SIZE)
        return cls._make(size, (0, 0, 0), 0)

    def _key(self) -> tuple[Any, ...]:
        return (self.n, self.masks)

    def options(self) -> dict[str, Any]:
        return {"size": self.n}

    # -- protocol ------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int:
        return self.plies & 1

    @property
    def geometry(self) -> Geometry:
        """The bit masks of this board size."""
        return geometry(self.n)

    @property
    def empty(self) -> int:
        """The bit mask of the empty squares."""
        red, yellow, blue = self.masks
        return geometry(self.n).full & ~(red | yellow | blue)

    def free_mask(self, colour_index: int) -> int:
        """Empty squares that touch no block of this colour, not even diagonally."""
        return free_squares(self.masks, colour_index, geometry(self.n))

    def legal_moves(self) -> list[HermitMove]:
        n = self.n
        geo = geometry(n)
        moves = []
        for index, colour in enumerate(COLOURS):
            starts = placement_starts(self.free_mask(index), geo)
            for placement, mask in zip(PLACEMENTS, starts):
                for cell in iter_bits(mask):
                    moves.append(HermitMove(colour, cell // n, cell % n, placement))
        return moves

    def count_moves(self) -> int:
        geo = geometry(self.n)
        total = 0
        for index in range(3):
            upright, across, down = placement_starts(self.free_mask(index), geo)
            total += upright.bit_count() + across.bit_count() + down.bit_count()
        return total

    def _block_mask(self, move: HermitMove) -> int:
        return block_at(move.row * self.n + move.col, PLACEMENTS.index(move.placement), geometry(self.n))

    def is_legal(self, move: Any) -> bool:
        try:
            colour, row, col, placement = move
        except (TypeError, ValueError):
            return False
        if not (_one_of(colour, COLOURS) and _one_of(placement, PLACEMENTS)):
            return False
        if not _is_square((row, col)):
            return False
        if not all(cell in self for cell in block_squares((row, col), placement)):
            return False
        block = self._block_mask(HermitMove(colour, row, col, placement))
        return block & self.free_mask(COLOURS.index(colour)) == block

    def why_illegal(self, move: Any) -> str:
        if self.is_over():
            return "the game is over"
        try:
            colour, row, col, placement = move
        except (TypeError, ValueError):
            return f"{move!r} is not a Hermit move (colour, row, column, placement)"
        if not _one_of(colour, COLOURS):
            return f"unknown colour {colour!r}: use R, Y or B"
        if not _one_of(placement, PLACEMENTS):
            return f"unknown placement {placement!r}: use U (upright), H or V"
        if not _is_square((row, col)):
            return f"the row and column are whole numbers, not {row!r} and {col!r}"
        for square in sorted(block_squares((row, col), placement)):
            if square not in self:
                return f"square {square} is off the {self.n}x{self.n} board"
        for r, c in sorted(block_squares((row, col), placement)):
            if self.colour_at((r, c)) is not None:
                return f"square {square_name(r, c)} is already covered"
        return f"a {COLOUR_NAMES[colour]} block there would touch another {COLOUR_NAMES[colour]} block"

    def __contains__(self, square: object) -> bool:
        """Whether ``square`` is an on-board (row, col) pair of ints."""
        if not (isinstance(square, tuple) and _is_square(square)):
            return False
        row, col = square
        return 0 <= row < self.n and 0 <= col < self.n

    def is_free(self, colour: str, square: tuple[int, int]) -> bool:
        """Whether ``square`` is an empty on-board square touching no block of ``colour``."""
        if not _one_of(colour, COLOURS) or square not in self:
            return False
        row, col = square
        return bool(self.free_mask(COLOURS.index(colour)) >> (row * self.n + col) & 1)

    def colour_at(self, square: tuple[int, int]) -> str | None:
        """The colour of the block on ``square``, None when it is empty."""
        if square not in self:
            raise BordspelError(f"square {square!r} is not on the {self.n}x{self.n} board")
        row, col = square
        bit = 1 << (row * self.n + col)
        for colour, mask in zip(COLOURS, self.masks):
            if mask & bit:
                return colour
        return None

    def apply_unchecked(self, move: HermitMove) -> HermitState:
        index = COLOURS.index(move.colour)
        masks = list(self.masks)
        masks[index] |= self._block_mask(move)
        return self._make(self.n, (masks[0], masks[1], masks[2]), self.plies + 1)

    def outcome(self) -> Outcome | None:
        if any(self.free_mask(index) for index in range(3)):
            return None
        return Outcome(frozenset({1 - self.to_move}), "no legal move", 2)

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        core = _compiled_core()
        if core is not None and self.n <= 8:
            return int(core.perft(self, depth))  # the compiled module when it is built
        red, yellow, blue = self.masks
        return _perft(red, yellow, blue, depth, geometry(self.n))

    # -- text ----------------------------------------------------------------------------
    def rows(self) -> list[list[str]]:
        """The board as rows of ``.``, ``R``, ``Y``, ``B``."""
        return [[self.colour_at((r, c)) or "." for c in range(self.n)] for r in range(self.n)]

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.rows())

    def to_str(self) -> str:
        """Rows top to bottom joined by ``/``, e.g. ``RRB./..YR/BB.R/.RYY``."""
        return "/".join("".join(row) for row in self.rows())

    @classmethod
    def from_str(cls, text: str) -> HermitState:
        fields, named = split_fields(text, "Hermit")
        if len(fields) != 1 or named:
            raise NotationError(f"{text!r}: a Hermit position is one field of rows joined by '/'")
        rows = fields[0].split("/")
        n = len(rows)
        if n > MAX_SIZE:
            raise NotationError(f"a Hermit board has at most {MAX_SIZE} rows, not {n}")
        if any(len(row) != n for row in rows):
            raise NotationError(f"{text!r}: a Hermit board needs {n} rows of {n} squares")
        masks = [0, 0, 0]
        for cell, char in enumerate("".join(rows)):
            if char in COLOURS:
                masks[COLOURS.index(char)] |= 1 << cell
            elif char != ".":
                raise NotationError(f"{text!r}: unknown square {char!r}, use . R Y B")
        try:
            blocks = sum(1 for mask in masks for _ in blocks_of(mask, geometry(n)))
        except NotationError as error:
            raise NotationError(f"{text!r}: {error}") from None
        return cls._make(n, (masks[0], masks[1], masks[2]), blocks)

    def move_from_str(self, text: str) -> HermitMove:
        return HermitMove.from_str(text, self.n)

    def blocks(self) -> list[HermitMove]:
        """The blocks on the board, as the moves that placed them (in board order)."""
        geo, n = geometry(self.n), self.n
        return [
            HermitMove(colour, cell // n, cell % n, placement)
            for colour, mask in zip(COLOURS, self.masks)
            for cell, placement in blocks_of(mask, geo)
        ]

    # -- symmetries ----------------------------------------------------------------------
    def symmetries(self) -> int:
        """48: the 8 symmetries of the square board, each with the 6 renamings of the colours
        (symmetry ``board * 6 + renaming``)."""
        return 48

    def transform(self, symmetry: int) -> HermitState:
        board, colours = divmod(self._check_symmetry(symmetry), 6)
        return self.transformed(board, _RENAMINGS[colours])

    def transform_move(self, move: HermitMove, symmetry: int) -> HermitMove:
        board, colours = divmod(self._check_symmetry(symmetry), 6)
        perm, n = square_symmetries(self.n)[board], self.n
        cells = sorted(perm[r * n + c] for r, c in move.squares)
        row, col = divmod(cells[0], n)
        placement = "U" if len(cells) == 1 else "H" if cells[-1] - cells[0] == 1 else "V"
        return HermitMove(_RENAMINGS[colours][COLOURS.index(move.colour)], row, col, placement)

    def transformed(self, symmetry: int, colours: str = COLOURS) -> HermitState:
        """The position under board symmetry 0-7 and colour renaming (``colours[i]`` for ``RYB[i]``)."""
        perm = square_symmetries(self.n)[symmetry]
        masks = [0, 0, 0]
        for index, mask in enumerate(self.masks):
            masks[COLOURS.index(colours[index])] = permute_mask(mask, perm)
        return self._make(self.n, (masks[0], masks[1], masks[2]), self.plies)

    def symmetric_positions(self) -> Iterator[HermitState]:
        """All 48 images under the 8 board and 6 colour symmetries (with repeats)."""
        for symmetry in range(self.symmetries()):
            yield self.transform(symmetry)


_RENAMINGS = tuple("".join(colours) for colours in permutations(COLOURS))
"""The 6 renamings of the colours: ``renaming[i]`` is the new name of ``COLOURS[i]``."""


def blocks_of(mask: int, geo: Geometry) -> Iterator[tuple[int, str]]:
    """(top-left cell, placement) of each block in one colour's mask.

    Raises NotationError for a shape no legal game makes (blocks of one colour that touch).
    """
    n, rest = geo.n, mask
    while rest:
        low = rest & -rest
        cell = low.bit_length() - 1
        placement = next((p for p in (1, 2) if low & geo.fits[p] and (low << geo.steps[p]) & rest), 0)
        low = block_at(cell, placement, geo)
        if dilate(low, geo) & (mask & ~low):
            near = square_name(cell // n, cell % n)
            raise NotationError(f"blocks of one colour touch near {near}")
        rest &= ~low
        yield cell, PLACEMENTS[placement]


@functools.cache
def _compiled_core() -> Any:
    """``bordspel._native.hermit_core`` when it is built (loaded on first use), else None."""
    from bordspel._native import load  # not at import: a board loads only what it uses

    return load("hermit_core")


def _perft(red: int, yellow: int, blue: int, depth: int, geo: Geometry) -> int:
    """Perft on raw masks; the last ply is counted in bulk from the free masks."""
    masks = (red, yellow, blue)
    frees = free_squares(masks, 0, geo), free_squares(masks, 1, geo), free_squares(masks, 2, geo)
    if depth == 1:
        total = 0
        for free in frees:
            upright, across, down = placement_starts(free, geo)
            total += upright.bit_count() + across.bit_count() + down.bit_count()
        return total
    total = 0
    for index, free in enumerate(frees):
        for _, block in fitting_blocks(free, geo):
            if index == 0:
                total += _perft(red | block, yellow, blue, depth - 1, geo)
            elif index == 1:
                total += _perft(red, yellow | block, blue, depth - 1, geo)
            else:
                total += _perft(red, yellow, blue | block, depth - 1, geo)
    return total
