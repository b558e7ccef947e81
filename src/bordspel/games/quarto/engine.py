"""Quarto: 16 pieces with four two-valued characteristics, bitboards per characteristic.

A piece is a 4-bit code: bit ``j`` is set when the piece has the *second* value of
characteristic ``j`` (as a :class:`PieceSet` lists them). A position keeps a 16-bit mask of
filled squares and, per characteristic, the mask of squares whose piece has the second value;
a line wins when it is filled and one of those masks covers it or misses it entirely.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple
from urllib.parse import quote, unquote

from bordspel.core import (
    MAX_MOVE_TEXT,
    MAX_POSITION_TEXT,
    BadOption,
    BordspelError,
    Flag,
    NotationError,
    Outcome,
    check_text,
    option_bool,
    parse_square,
    split_fields,
    square_name,
)
from bordspel.games.quarto.rules import (
    LINES,
    PIECE_SYMMETRIES,
    SQUARES_2X2,
    board_symmetries,
    line_masks,
    line_wins,
    piece_image,
)
from bordspel.jupyter import PicturedState

__all__ = [
    "DEFAULT_PIECES",
    "DUTCH_PIECES",
    "LINES",
    "PIECE_SETS",
    "SQUARES_2X2",
    "PieceOption",
    "PieceSet",
    "QuartoMove",
    "QuartoState",
    "parse_piece_text",
    "read_piece_file",
]

FULL = 0xFFFF
_SET = object.__setattr__
_RESERVED = set('.-/:=,;|[]{}()*"') | {" ", "\t"}
MAX_PIECE_FILE = 65_536
"""The longest piece file read, in characters (the spec's file has 270)."""
MAX_NAME = 64
"""The longest name of a characteristic or value."""


# -- piece files (the spec's lees_stukken format) ------------------------------------------------
def read_piece_file(path: str | Path) -> tuple[list[str], dict[str, list[str]]]:
    """The characteristics and each piece's values from a piece file (UTF-8, comma-separated).

    Blank lines and spaces around fields are ignored. Raises ValueError naming the line for a
    wrong number of fields, a repeated piece or a value under two characteristics.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise BordspelError(f"a piece file is named by its path, not by {type(path).__name__}")
    with open(path, encoding="utf-8") as handle:
        text = handle.read(MAX_PIECE_FILE + 1)
    return parse_piece_text(text, str(path))


def parse_piece_text(text: str, path: str = "the piece file") -> tuple[list[str], dict[str, list[str]]]:
    """What ``read_piece_file`` reads, from the file's text; ``path`` names it in errors."""
    if len(text) > MAX_PIECE_FILE:
        raise ValueError(f"{path}: a piece file is at most {MAX_PIECE_FILE} characters long")
    numbered = [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not numbered:
        raise ValueError(
            f"{path}: the file is empty; it needs a header line like stuk,grootte,kleur,vorm,vulling"
        )
    header_line, header = numbered[0]
    names = [field.strip() for field in header.split(",")]
    if len(names) != 5:
        raise ValueError(f"{path}, line {header_line}: the header needs 5 fields, not {len(names)}")
    characteristics = names[1:]
    pieces: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    for number, line in numbered[1:]:
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 5:
            raise ValueError(f"{path}, line {number}: a piece needs 5 fields, not {len(fields)}")
        char, values = fields[0], fields[1:]
        if len(char) != 1:
            raise ValueError(f"{path}, line {number}: a piece is one character, not {char!r}")
        if char in pieces:
            raise ValueError(f"{path}, line {number}: piece {char!r} is described twice")
        for characteristic, value in zip(characteristics, values):
            if owner.setdefault(value, characteristic) != characteristic:
                raise ValueError(
                    f"{path}, line {number}: {value!r} is a value of both "
                    f"{owner[value]!r} and {characteristic!r}"
                )
        pieces[char] = values
    return characteristics, pieces


@dataclass(frozen=True)
class PieceSet:
    """Names of the four characteristics, their two values, and the piece character per code."""

    characteristics: tuple[str, str, str, str]
    values: tuple[tuple[str, str], ...]
    chars: tuple[str, ...]

    def __post_init__(self) -> None:
        problem = _piece_set_problem(self.characteristics, self.values, self.chars)
        if problem:
            raise BordspelError(problem)
        if len(self.chars) != 16 or len(set(self.chars)) != 16:
            raise BordspelError("a Quarto piece set has 16 different pieces")
        if any(len(c) != 1 or c in _RESERVED or c.isspace() for c in self.chars):
            raise BordspelError(f"piece characters cannot be any of {''.join(sorted(_RESERVED))!r}")

    @classmethod
    def from_file(cls, path: str | Path) -> PieceSet:
        """The piece set of a file in the spec's format; it must hold all 16 combinations."""
        characteristics, pieces = read_piece_file(path)
        return cls.from_table(characteristics, pieces, str(path))

    @classmethod
    def from_table(cls, characteristics: list[str], pieces: Mapping[str, list[str]], where: str) -> PieceSet:
        """The piece set of a table as ``read_piece_file`` gives it; ``where`` names it in errors."""
        values: list[list[str]] = [[] for _ in characteristics]
        for row in pieces.values():
            for seen, value in zip(values, row):
                if value not in seen:
                    seen.append(value)
        if len(pieces) != 16:
            raise BordspelError(f"{where}: Quarto needs 16 pieces, not {len(pieces)}")
        for name, seen in zip(characteristics, values):
            if len(seen) != 2:
                raise BordspelError(
                    f"{where}: Quarto needs 16 pieces with two values per characteristic; "
                    f"{name!r} has {len(seen)}"
                )
        chars = [""] * 16
        for char, row in pieces.items():
            code = sum(seen.index(value) << j for j, (seen, value) in enumerate(zip(values, row)))
            if chars[code]:
                raise BordspelError(f"{where}: pieces {chars[code]!r} and {char!r} are alike")
            chars[code] = char
        names = (characteristics[0], characteristics[1], characteristics[2], characteristics[3])
        return cls(names, tuple((v[0], v[1]) for v in values), tuple(chars))

    def code(self, char: str) -> int:
        """The code (0-15) of the piece written ``char`` (NotationError if there is none)."""
        try:
            return self.chars.index(char)
        except ValueError:
            raise NotationError(f"there is no piece {char!r}; the pieces are {''.join(self.chars)}") from None

    def properties(self, code: int) -> set[str]:
        """The values of the piece with ``code``, one per characteristic."""
        return {pair[code >> j & 1] for j, pair in enumerate(self.values)}

    def to_str(self) -> str:
        """``size:large|small,...;ABCD...``, names percent-escaped."""
        parts = [
            f"{quote(name, safe='')}:{quote(a, safe='')}|{quote(b, safe='')}"
            for name, (a, b) in zip(self.characteristics, self.values)
        ]
        return ",".join(parts) + ";" + "".join(self.chars)

    @classmethod
    def from_str(cls, text: str) -> PieceSet:
        """Read what ``to_str`` writes; NotationError naming the part that is wrong."""
        described, semicolon, chars = check_text(text, MAX_POSITION_TEXT, "a piece set").rpartition(";")
        parts = described.split(",")
        if not semicolon or len(parts) != 4:
            found = f"{len(parts)} characteristics" if semicolon else "no ';'"
            raise NotationError(
                f"a piece set is four characteristics, ';' and the 16 pieces "
                f"(size:large|small,...;ABCD...); {text[:MAX_MOVE_TEXT]!r} has {found}"
            )
        names, values = [], []
        for number, part in enumerate(parts, 1):
            name, colon, pair = part.partition(":")
            pair_values = pair.split("|")
            if not colon or len(pair_values) != 2:
                raise NotationError(f"piece set characteristic {number} is name:value|value, not {part!r}")
            names.append(unquote(name))
            values.append((unquote(pair_values[0]), unquote(pair_values[1])))
        try:
            return cls((names[0], names[1], names[2], names[3]), tuple(values), tuple(chars))
        except BordspelError as error:
            raise NotationError(f"not a piece set: {error}") from None


def _piece_set_problem(characteristics: object, values: object, chars: object) -> str | None:
    """What makes these fields no Quarto piece set, or None when they are one."""
    if not (isinstance(characteristics, tuple) and isinstance(values, tuple) and isinstance(chars, tuple)):
        return "a piece set's characteristics, values and pieces are tuples"
    if len(characteristics) != 4 or len(values) != 4:
        return f"Quarto pieces have 4 characteristics, not {len(characteristics)} ({len(values)} value pairs)"
    for number, (name, pair) in enumerate(zip(characteristics, values), 1):
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return f"characteristic {number} needs a pair of values, not {pair!r}"
        if not all(isinstance(t, str) and 0 < len(t) <= MAX_NAME for t in (name, *pair)):
            return f"characteristic {number}: names and values are texts of 1 to {MAX_NAME} characters"
        if pair[0] == pair[1]:
            return f"characteristic {name!r} has the value {pair[0]!r} twice"
    if len(set(characteristics)) != 4:
        return "the four characteristics need different names"
    if not all(isinstance(c, str) for c in chars):
        return "the pieces are characters"
    return None


DEFAULT_PIECES = PieceSet(
    ("size", "colour", "shape", "filling"),
    (("tall", "short"), ("red", "blue"), ("square", "round"), ("hollow", "solid")),
    tuple("ABCDEFGHIJKLMNOP"),
)
"""The standard set with English names; pieces A-P are those of the spec's example file."""

DUTCH_PIECES = PieceSet(
    ("grootte", "kleur", "vorm", "vulling"),
    (("groot", "klein"), ("rood", "blauw"), ("vierkant", "rond"), ("hol", "vol")),
    tuple("ABCDEFGHIJKLMNOP"),
)
"""The spec's example file (stukken.txt) as a piece set."""

PIECE_SETS = {"standard": DEFAULT_PIECES, "dutch": DUTCH_PIECES}
"""The built-in piece sets by name."""


class PieceOption:
    """The ``pieces`` option for untrusted callers: a built-in set's name or a piece file's text
    (the spec's format, at most ``TEXT_LIMIT`` characters), never a path."""

    TEXT_LIMIT = 2048

    def check(self, name: str, value: object) -> PieceSet:
        """The piece set a built-in name or a piece file's text gives, else BadOption."""
        if not isinstance(value, str) or len(value) > self.TEXT_LIMIT:
            raise BadOption(f"option {name!r} is {' or '.join(PIECE_SETS)}, or a piece file's text")
        if value in PIECE_SETS:
            return PIECE_SETS[value]
        if "\n" not in value:
            raise BadOption(f"option {name!r} names no piece set: choose {', '.join(PIECE_SETS)}")
        try:
            return PieceSet.from_table(*parse_piece_text(value), "the piece file")
        except ValueError as error:  # BordspelError is a ValueError
            raise BadOption(str(error)) from None

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: the built-in sets and the longest text."""
        return {"choices": list(PIECE_SETS), "text": self.TEXT_LIMIT}


# -- moves ----------------------------------------------------------------------------------------
class QuartoMove(NamedTuple):
    """Place the piece in hand on ``square`` (None on the first turn), then hand over ``give``.

    ``give`` is a piece character, None when the placement ends the game.
    """

    square: int | None
    give: str | None

    def to_str(self) -> str:
        """``c3:B`` (place, hand over B), ``B`` (first turn), ``c3`` (the last placement)."""
        place = None if self.square is None else square_name(self.square // 4, self.square % 4)
        return ":".join(part for part in (place, self.give) if part is not None)

    @classmethod
    def from_str(cls, text: str, *, hands_over: bool | None = None) -> QuartoMove:
        """Read ``c3:B``, ``B`` or ``c3``; the piece is not checked.

        ``hands_over`` says whether text without ``:`` is a piece (None: when it is one character).
        """
        body = check_text(text, MAX_MOVE_TEXT, "a move").strip()
        place, colon, give = body.partition(":")
        if (colon and not (place and give)) or not body:
            raise NotationError(f"{text!r} is not a Quarto move: write c3:B, B or c3")
        if not colon and (len(body) == 1 if hands_over is None else hands_over):
            place, give = "", body
        square = None
        if place:
            row, col = parse_square(place.lower(), 4, 4)
            square = 4 * row + col
        return cls(square, give or None)


def _well_formed(move: QuartoMove) -> bool:
    square, give = move
    is_square = isinstance(square, int) and not isinstance(square, bool) and 0 <= square < 16
    return (square is None or is_square) and (give is None or isinstance(give, str))


# -- the game ---------------------------------------------------------------------------------------
EMPTY_RANK = ord(".")
"""Where an empty square's ``.`` sorts among the piece letters of a position string."""


@functools.lru_cache(maxsize=8)
def _image_ranks(chars: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """For each piece map, the character code of each piece's image (how it sorts when written)."""
    return tuple(
        tuple(ord(chars[piece_image(code, pieces)]) for code in range(16))
        for pieces in range(len(PIECE_SYMMETRIES))
    )


def _least_images(
    images: dict[int, list[int]], pieces: list[int | None], ranks: tuple[tuple[int, ...], ...]
) -> dict[int, list[int]]:
    """The images (piece maps by board symmetry) whose next character, written from the piece
    ``pieces[board]`` (None: empty), is the least of all."""
    best = {board: _least_maps(maps, pieces[board], ranks) for board, maps in images.items()}
    least = min(rank for rank, _ in best.values())
    return {board: maps for board, (rank, maps) in best.items() if rank == least}


def _least_maps(
    maps: list[int], piece: int | None, ranks: tuple[tuple[int, ...], ...]
) -> tuple[int, list[int]]:
    """The least character that the piece maps ``maps`` write for ``piece``, and the maps that write it."""
    if piece is None:
        return EMPTY_RANK, maps
    least = min(ranks[p][piece] for p in maps)
    return least, [p for p in maps if ranks[p][piece] == least]


class QuartoState(PicturedState[QuartoMove]):
    """A Quarto position: the placed pieces, the piece in hand, and the options."""

    __slots__ = ("filled", "ones", "hand", "turn", "result", "advanced", "pieces")
    name = "quarto"
    option_limits = MappingProxyType({"advanced": Flag(), "pieces": PieceOption()})
    filled: int
    ones: tuple[int, int, int, int]
    hand: int
    turn: int
    result: int
    advanced: bool
    pieces: PieceSet

    ONGOING, DRAW = -1, 2

    @classmethod
    def _make(
        cls,
        filled: int,
        ones: tuple[int, int, int, int],
        hand: int,
        turn: int,
        result: int,
        advanced: bool,
        pieces: PieceSet,
    ) -> QuartoState:
        state = object.__new__(cls)
        for slot, value in zip(cls.__slots__, (filled, ones, hand, turn, result, advanced, pieces)):
            _SET(state, slot, value)
        return state

    @classmethod
    def initial(
        cls,
        advanced: bool = False,
        pieces: PieceSet | str | Path | None = None,
        **options: Any,
    ) -> QuartoState:
        """A new game; ``pieces`` is a PieceSet or the path of a piece file."""
        if options:
            raise BordspelError(f"Quarto has no option {', '.join(options)}; it takes advanced, pieces")
        if pieces is None:
            pieces = DEFAULT_PIECES
        elif not isinstance(pieces, PieceSet):
            pieces = PieceSet.from_file(pieces)
        return cls._make(0, (0, 0, 0, 0), -1, 0, cls.ONGOING, option_bool("advanced", advanced), pieces)

    def _key(self) -> tuple[Any, ...]:
        return (self.filled, self.ones, self.hand, self.result, self.advanced, self.pieces)

    def options(self) -> dict[str, Any]:
        return {"advanced": self.advanced, "pieces": self.pieces}

    # -- symmetries ----------------------------------------------------------------------
    def symmetries(self) -> int:
        """12,288 (3,072 with the 2x2 squares): each square permutation that keeps the lines
        (``rules.board_symmetries``: 32, or 8) with each of the 384 maps of the pieces that keep
        which pieces share a characteristic (``rules.PIECE_SYMMETRIES``); symmetry
        ``board * 384 + pieces``."""
        return len(board_symmetries(self.advanced)) * len(PIECE_SYMMETRIES)

    def transform(self, symmetry: int) -> QuartoState:
        perm, pieces = self._symmetry(symmetry)
        order, flip = PIECE_SYMMETRIES[pieces]
        filled = _moved(self.filled, perm)
        ones = [0, 0, 0, 0]
        for j, mask in enumerate(self.ones):
            ones[order[j]] = _moved(mask, perm) ^ (filled if flip >> order[j] & 1 else 0)
        hand = self.hand if self.hand < 0 else piece_image(self.hand, pieces)
        final = (ones[0], ones[1], ones[2], ones[3])
        return self._make(filled, final, hand, self.turn, self.result, self.advanced, self.pieces)

    def transform_move(self, move: QuartoMove, symmetry: int) -> QuartoMove:
        perm, pieces = self._symmetry(symmetry)
        square = None if move.square is None else perm.index(move.square)
        give = (
            None if move.give is None else self.pieces.chars[piece_image(self.pieces.code(move.give), pieces)]
        )
        return QuartoMove(square, give)

    def canonical_symmetry(self) -> int:
        """The generic answer (least position string, lowest number on a tie) without writing
        12,288 images: the images still least are narrowed square by square, then by the hand."""
        cells = [self.piece_at(square) for square in range(16)]
        ranks = _image_ranks(self.pieces.chars)
        boards = board_symmetries(self.advanced)
        every_map = list(range(len(PIECE_SYMMETRIES)))
        least = {board: every_map for board in range(len(boards))}
        for square in range(16):
            if sum(map(len, least.values())) == 1:
                break
            written = [cells[perm[square]] for perm in boards]
            least = _least_images(least, written, ranks)
        if self.hand >= 0:
            least = _least_images(least, [self.hand] * len(boards), ranks)
        return min(board * len(PIECE_SYMMETRIES) + pieces[0] for board, pieces in least.items())

    def _symmetry(self, symmetry: int) -> tuple[tuple[int, ...], int]:
        """The square permutation (``perm[new] = old``) and the piece map of ``symmetry``."""
        board, pieces = divmod(self._check_symmetry(symmetry), len(PIECE_SYMMETRIES))
        return board_symmetries(self.advanced)[board], pieces

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def lines(self) -> tuple[int, ...]:
        """The bit masks of the lines that can win (with the 2x2 squares when advanced)."""
        return line_masks(self.advanced)

    def piece_at(self, square: int) -> int | None:
        """The code of the piece on ``square`` (0-15), or None."""
        if not self.filled >> square & 1:
            return None
        return sum((mask >> square & 1) << j for j, mask in enumerate(self.ones))

    def available(self) -> list[int]:
        """Codes of the pieces neither on the board nor in hand."""
        used = {self.piece_at(s) for s in range(16)} | {self.hand}
        return [code for code in range(16) if code not in used]

    def winning_lines(self) -> list[tuple[str, int]]:
        """(line name, line mask) for every winning line on the board."""
        named = {**LINES, **(SQUARES_2X2 if self.advanced else {})}
        return [(name, mask) for name, mask in named.items() if line_wins(mask, self.filled, self.ones)]

    def _wins_after(self, square: int, code: int) -> bool:
        """Whether piece ``code`` on the empty ``square`` completes a winning line."""
        filled = self.filled | 1 << square
        full = [line for line in self.lines if line >> square & 1 and filled & line == line]
        if not full:  # the common case: no line to test
            return False
        filled, ones = self._with_piece(square, code)
        return any(line_wins(line, filled, ones) for line in full)

    # -- moves -----------------------------------------------------------------------------------
    def legal_moves(self) -> list[QuartoMove]:
        if self.result != self.ONGOING:
            return []
        chars = self.pieces.chars
        offer = [chars[code] for code in self.available()]
        if self.hand < 0:
            return [QuartoMove(None, char) for char in offer]
        moves = []
        for square in range(16):
            if self.filled >> square & 1:
                continue
            if not offer or self._wins_after(square, self.hand):
                moves.append(QuartoMove(square, None))
            else:
                moves.extend(QuartoMove(square, char) for char in offer)
        return moves

    def is_legal(self, move: Any) -> bool:
        return isinstance(move, QuartoMove) and move in self.legal_moves()

    def why_illegal(self, move: Any) -> str:
        if self.result != self.ONGOING:
            return "the game is over"
        if not (isinstance(move, QuartoMove) and _well_formed(move)):
            return f"{move!r} is not a Quarto move (a square 0-15 or None, a piece character or None)"
        if self.hand < 0:
            return (
                "the first turn only hands a piece over: name one, like B"
                if move.square is not None
                else f"piece {move.give!r} cannot be handed over"
            )
        if move.square is None or not 0 <= move.square < 16:
            return "place the piece in hand on a square first, like c3:B"
        if self.filled >> move.square & 1:
            return f"square {square_name(move.square // 4, move.square % 4)} is taken"
        ends = not self.available() or self._wins_after(move.square, self.hand)
        if ends:
            return "this placement ends the game: hand nothing over"
        if move.give is None:
            return "after placing, hand a piece over, like c3:B"
        return f"piece {move.give!r} is not available"

    def apply_unchecked(self, move: QuartoMove) -> QuartoState:
        if move.square is None:
            hand = self.pieces.code(move.give or "")
            return self._make(0, self.ones, hand, 1, self.ONGOING, self.advanced, self.pieces)
        square, code = move.square, self.hand
        filled, ones = self._with_piece(square, code)
        result = self.ONGOING
        if self._wins_after(square, code):
            result = self.turn
        elif filled == FULL:
            result = self.DRAW
        hand = -1 if move.give is None else self.pieces.code(move.give)
        turn = self.turn if result != self.ONGOING else 1 - self.turn
        return self._make(filled, ones, hand, turn, result, self.advanced, self.pieces)

    def _with_piece(self, square: int, code: int) -> tuple[int, tuple[int, int, int, int]]:
        """The filled mask and characteristic masks with piece ``code`` on ``square``."""
        bit = 1 << square
        a, b, c, d = (mask | bit if code >> j & 1 else mask for j, mask in enumerate(self.ones))
        return self.filled | bit, (a, b, c, d)

    def outcome(self) -> Outcome | None:
        if self.result == self.ONGOING:
            return None
        if self.result == self.DRAW:
            return Outcome(frozenset(), "the board is full", 2)
        return Outcome(frozenset({self.result}), "quarto", 2)

    def is_over(self) -> bool:
        return self.result != self.ONGOING

    # -- text ------------------------------------------------------------------------------------
    def config(self) -> str:
        """The spec's 16-character configuration, ``.`` for an empty square."""
        return "".join(
            "." if (code := self.piece_at(s)) is None else self.pieces.chars[code] for s in range(16)
        )

    def __str__(self) -> str:
        config = self.config()
        return "\n".join(" ".join(config[4 * r : 4 * r + 4]) for r in range(4))

    def to_str(self) -> str:
        """E.g. ``AB../..../..../.... hand=C`` (+ ``advanced``, ``pieces=...`` when set)."""
        config = self.config()
        fields = ["/".join(config[4 * r : 4 * r + 4] for r in range(4))]
        fields.append("hand=" + ("-" if self.hand < 0 else self.pieces.chars[self.hand]))
        if self.advanced:
            fields.append("advanced")
        if self.pieces != DEFAULT_PIECES:
            fields.append("pieces=" + self.pieces.to_str())
        return " ".join(fields)

    @classmethod
    def from_str(cls, text: str) -> QuartoState:
        fields, named = split_fields(text, "Quarto")
        pieces = PieceSet.from_str(named.pop("pieces")) if "pieces" in named else DEFAULT_PIECES
        hand_text = named.pop("hand", "-")
        advanced = "advanced" in fields[1:]
        rows = fields[0].split("/")
        if named or len(fields) > 1 + advanced or len(rows) != 4 or any(len(r) != 4 for r in rows):
            raise NotationError(f"{text!r}: a Quarto position is 4 rows of 4 joined by '/', then hand=X")
        state = cls._make(0, (0, 0, 0, 0), -1, 0, cls.ONGOING, advanced, pieces)
        placed: list[int] = []
        for square, char in enumerate("".join(rows)):
            if char != ".":
                placed.append(pieces.code(char))
                filled, ones = state._with_piece(square, placed[-1])
                state = cls._make(filled, ones, -1, 0, cls.ONGOING, advanced, pieces)
        hand = -1 if hand_text == "-" else pieces.code(hand_text)
        if len(set(placed + [hand])) != len(placed) + 1:
            raise NotationError(f"{text!r}: a piece appears twice")
        return state._resolved(hand, len(placed))

    def _resolved(self, hand: int, placed: int) -> QuartoState:
        """Turn and result of a loaded board: seat 1 made the first placement."""
        last_placer = placed % 2
        result = self.ONGOING
        if self.winning_lines():
            result = last_placer
        elif placed == 16:
            result = self.DRAW
        if result != self.ONGOING and hand >= 0:
            raise NotationError("a finished game has no piece in hand")
        if result == self.ONGOING and placed and hand < 0:
            raise NotationError("after the first turn there is always a piece in hand")
        turn = last_placer if result != self.ONGOING else (placed + (hand >= 0)) % 2
        return self._make(self.filled, self.ones, hand, turn, result, self.advanced, self.pieces)

    def move_from_str(self, text: str) -> QuartoMove:
        move = QuartoMove.from_str(text, hands_over=self.hand < 0)
        if move.give is not None:
            self.pieces.code(move.give)
        return move


def _moved(mask: int, perm: tuple[int, ...]) -> int:
    """``mask`` of squares with square ``perm[new]`` moved to ``new``."""
    return sum(1 << new for new, old in enumerate(perm) if mask >> old & 1)
