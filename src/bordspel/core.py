"""The shared game protocol: states, moves, outcomes, errors and the registry of games.

Every engine (each in its package under ``bordspel.games``) implements :class:`State`. Search,
front ends and adapters only use this protocol and look games up in the registry, so they
never branch on a game's name.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import importlib
import importlib.util
import numbers
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeGuard, runtime_checkable

if TYPE_CHECKING:
    from typing_extensions import TypeVar  # the type checker's, for PEP 696 defaults
else:
    from typing import TypeVar

__all__ = [
    "BOOL_WORDS",
    "MAX_MOVE_TEXT",
    "MAX_POSITION_TEXT",
    "BadOption",
    "BordspelError",
    "Choice",
    "Flag",
    "GameSpec",
    "Grid",
    "IllegalMoveError",
    "IntRange",
    "Move",
    "NotationError",
    "OptionLimit",
    "Outcome",
    "Part",
    "State",
    "available_games",
    "canonical",
    "canonical_symmetry",
    "check_text",
    "game_class",
    "game_part",
    "game_spec",
    "load",
    "new_game",
    "option_bool",
    "option_int",
    "option_seed",
    "parse_square",
    "part_path",
    "perft",
    "permute_mask",
    "register_game",
    "square_name",
    "square_symmetries",
]


class BordspelError(ValueError):
    """Base class of every error bordspel raises for bad input."""


class IllegalMoveError(BordspelError):
    """A well-formed move that the rules do not allow in this position."""


class NotationError(BordspelError):
    """A move, square or position string that cannot be read."""


MAX_SQUARE_TEXT = 12
"""The longest square name read (``zz9999`` and more): longer text cannot be a square."""
MAX_MOVE_TEXT = 200
"""The longest move text read: most moves are a few squares and letters, but a Santorini god
turn (Triton's path) may pass every perimeter square twice."""
MAX_POSITION_TEXT = 10_000
"""The longest position string read (a 64 x 64 Hermit board takes 4,159 characters)."""


# -- option limits for untrusted callers (the web app) ----------------------------------
class BadOption(BordspelError):
    """An option the game does not offer, or a value outside its limits."""


class OptionLimit(Protocol):
    """One option's limit: checks a client's value and describes itself for a start page."""

    def check(self, name: str, value: object) -> Any:
        """The value to pass to ``initial``; BadOption when it is outside the limit."""

    def describe(self) -> dict[str, Any]:
        """The limit as JSON for a start page."""


BOOL_WORDS: Mapping[str, bool] = {
    **dict.fromkeys(("true", "yes", "1", "on"), True),
    **dict.fromkeys(("false", "no", "0", "off"), False),
}
"""The words a true-or-false option takes as text (any case)."""
_SHOWN_VALUE = 40


def option_bool(name: str, value: object) -> bool:
    """A true-or-false option: a bool, 0 or 1, or one of :data:`BOOL_WORDS`; else BadOption.

    The one place every entry point (Python, the adapters, the command line, the web app and the
    engine protocol) reads a flag, so that ``advanced="false"`` never means true."""
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    if _is_whole(value) and value in (0, 1):
        return bool(value)
    word = value.strip().lower() if isinstance(value, str) else ""
    if word not in BOOL_WORDS:
        raise BadOption(f"option {name!r} is true or false (or yes/no, 1/0, on/off), not {_shown(value)}")
    return BOOL_WORDS[word]


def option_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """A whole-number option: an int or its digits, from ``low`` to ``high``; else BadOption."""
    if isinstance(value, str) and _is_digits(value.strip().removeprefix("-")):
        value = int(value)
    if _is_whole(value) and _within(int(value), low, high):
        return int(value)
    limit = f"of at least {low}" if high is None else f"from {low} to {high}"
    raise BadOption(f"option {name!r} is a whole number {limit}, not {_shown(value)}")


def option_seed(name: str, value: object) -> int | None:
    """An optional whole number (a seed): ``None``, an int or its digits; else BadOption."""
    if value is None or value == "":
        return None
    return option_int(name, value, -(2**63))


def _is_whole(value: object) -> TypeGuard[numbers.Integral]:
    """An int or another whole number type (NumPy's, as RL code passes them), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and not _is_numpy_bool(value)


def _is_numpy_bool(value: object) -> bool:
    """NumPy's ``bool_`` (found without importing NumPy: the core has no dependencies)."""
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")


def _within(value: int, low: int, high: int | None) -> bool:
    return low <= value and (high is None or value <= high)


def _is_digits(text: str) -> bool:
    return 0 < len(text) < _SHOWN_VALUE and text.isascii() and text.isdigit()


def _shown(value: object) -> str:
    """``value`` for an error message, cut short."""
    text = repr(value)
    return text if len(text) <= _SHOWN_VALUE else text[: _SHOWN_VALUE - 3] + "..."


@dataclass(frozen=True)
class IntRange:
    """An integer option from ``low`` to ``high``."""

    low: int
    high: int

    def check(self, name: str, value: object) -> int:
        """``value`` (an int or its digits) if in range, else BadOption."""
        return option_int(name, value, self.low, self.high)

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: the smallest and largest value."""
        return {"min": self.low, "max": self.high}


@dataclass(frozen=True)
class Choice:
    """An integer option that takes one of a few values."""

    values: tuple[int, ...]

    def check(self, name: str, value: object) -> int:
        """``value`` (an int or its digits) if it is one of the values, else BadOption."""
        try:
            number: int | None = option_int(name, value, min(self.values), max(self.values))
        except BadOption:
            number = None
        if number is None or number not in self.values:
            raise BadOption(
                f"option {name!r} is one of {', '.join(map(str, self.values))}, not {_shown(value)}"
            )
        return number

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: the values to choose from."""
        return {"choices": list(self.values)}


@dataclass(frozen=True)
class Flag:
    """A true-or-false option."""

    def check(self, name: str, value: object) -> bool:
        """``value`` as a bool (see :func:`option_bool`), else BadOption."""
        return option_bool(name, value)

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: a flag."""
        return {"flag": True}


class Move(Protocol):
    """What every game's move offers: a round-tripping text form."""

    def to_str(self) -> str:
        """The move's text, which the game's ``move_from_str`` reads back."""


@runtime_checkable
class Grid(Protocol):
    """A position drawn on a grid: what the generic pictures and observations read."""

    def grid(self) -> Sequence[str]:
        """The rows, one character a square (``.`` for an empty one)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (a set of seats, empty for a draw) and why."""

    winners: frozenset[int]
    termination: str
    num_players: int

    @property
    def winner(self) -> int | None:
        """The winning seat when exactly one seat won, else ``None``."""
        return next(iter(self.winners)) if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        """Whether nobody won."""
        return not self.winners

    def returns(self) -> tuple[float, ...]:
        """+1 for every winner, -1 for every other seat; 0 for all on a draw."""
        if self.is_draw:
            return (0.0,) * self.num_players
        return tuple(1.0 if p in self.winners else -1.0 for p in range(self.num_players))

    def result_str(self) -> str:
        """Result in record form: ``1-0``, ``0-1``, ``1/2-1/2``; ``1-0-0`` for three seats."""
        if self.is_draw:
            return "-".join(["1/2"] * self.num_players)
        return "-".join("1" if p in self.winners else "0" for p in range(self.num_players))


S = TypeVar("S", bound="State")
PartT = TypeVar("PartT")
# A game's move type. A bare ``State`` or ``Player`` means any move: the default (PEP 696) is
# given to type checkers only, as ``typing.TypeVar`` takes ``default`` from Python 3.13 on.
if TYPE_CHECKING:
    MoveT = TypeVar("MoveT", default=Any)
else:
    MoveT = TypeVar("MoveT")


class State(abc.ABC, Generic[MoveT]):
    """An immutable, hashable game position with the player to move.

    Subclasses implement the abstract methods; the template methods here give every game
    the same checked interface (``apply``, ``play``, ``parse_move``) written once. A game
    names its move type, ``class HermitState(State[HermitMove])``, so that type checkers
    check the moves going in and out.
    """

    __slots__ = ()
    name: ClassVar[str]
    option_limits: ClassVar[Mapping[str, OptionLimit]] = {}
    """The options an untrusted caller (the web app) may set, with their limits."""

    # -- immutability -------------------------------------------------------------
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; apply() returns a new state")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    @abc.abstractmethod
    def _key(self) -> tuple[Any, ...]:
        """The values that identify this position (for ==, hash and ordering).

        They decide the outcome too: equal positions have equal outcomes.
        """

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the fields as they are, and restore them without going through ``__setattr__``."""
        fields = {slot: getattr(self, slot) for slot in _slots(type(self))}
        fields.update(getattr(self, "__dict__", {}))
        return (_restore_state, (type(self), fields))

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_str({self.to_str()!r})"

    def __copy__(self: S) -> S:
        return self

    def __deepcopy__(self: S, memo: dict[int, Any]) -> S:
        return self

    # -- what every game implements ---------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def initial(cls: type[S], **options: Any) -> S:
        """The starting position for the given options."""

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """The number of seats."""

    @property
    @abc.abstractmethod
    def to_move(self) -> int:
        """The seat (0-based) whose turn it is."""

    @abc.abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """All legal moves; empty when the game is over."""

    @abc.abstractmethod
    def apply_unchecked(self: S, move: MoveT) -> S:
        """The position after ``move``, which must be legal (the fast path for search)."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome when the game is over, else ``None``."""

    @abc.abstractmethod
    def to_str(self) -> str:
        """A lossless position string; ``from_str`` reads it back."""

    @classmethod
    @abc.abstractmethod
    def from_str(cls: type[S], text: str) -> S:
        """Read a position string that ``to_str`` wrote (raises NotationError)."""

    @abc.abstractmethod
    def move_from_str(self, text: str) -> MoveT:
        """Read a move's text form without checking legality (raises NotationError)."""

    # -- template methods ----------------------------------------------------------------
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome() is not None

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` is a legal move in this position."""
        return move in self.legal_moves()

    def why_illegal(self, move: MoveT) -> str:
        """A sentence saying why ``move`` is refused (only called for illegal moves)."""
        if self.is_over():
            return "the game is over"
        return f"{_move_text(move)} is not a legal move in this position"

    def apply(self: S, move: MoveT) -> S:
        """The position after ``move``; raises IllegalMoveError and changes nothing if refused."""
        if not self.is_legal(move):
            raise IllegalMoveError(self._refusal(move))
        return self.apply_unchecked(move)

    def _refusal(self, move: Any) -> str:
        if isinstance(move, str):
            shown = move[:MAX_MOVE_TEXT]
            return f"apply() takes a move object, not the text {shown!r}: play() and parse_move() read text"
        return self.why_illegal(move)

    def parse_move(self, text: str) -> MoveT:
        """Read a move and check that it is legal here."""
        move = self.move_from_str(check_text(text, MAX_MOVE_TEXT, "a move"))
        if not self.is_legal(move):
            raise IllegalMoveError(f"{text.strip()}: {self.why_illegal(move)}")
        return move

    def play(self: S, text: str) -> S:
        """The position after the move written as ``text``."""
        return self.apply_unchecked(self.parse_move(text))

    def random_move(self, rng: random.Random) -> MoveT:
        """A uniformly random legal move."""
        moves = self.legal_moves()
        if not moves:
            raise IllegalMoveError("the game is over: there is no move to choose")
        return rng.choice(moves)

    def count_moves(self) -> int:
        """The number of legal moves (games may count without generating them)."""
        return len(self.legal_moves())

    def perft(self, depth: int) -> int:
        """The number of move sequences of length ``depth`` from here."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_moves()
        return sum(self.apply_unchecked(m).perft(depth - 1) for m in self.legal_moves())

    def options(self) -> dict[str, Any]:
        """The game options this position was created with (as ``initial`` takes them)."""
        return {}

    def team(self, seat: int) -> frozenset[int]:
        """The seats that win or lose together with ``seat`` (just itself unless teams play)."""
        return frozenset({seat})

    # -- symmetries (a game declares its own; by default only the identity) -------------------
    def symmetries(self) -> int:
        """How many symmetries the rules keep for this position's game: of its board and, where
        the rules allow, of its pieces or colours. They are numbered from 0, the identity."""
        return 1

    def transform(self: S, symmetry: int) -> S:
        """The image of this position under ``symmetry`` (0 to ``symmetries() - 1``)."""
        self._check_symmetry(symmetry)
        return self

    def transform_move(self, move: MoveT, symmetry: int) -> MoveT:
        """The image of ``move``, a legal move here, under ``symmetry``: the legal move of
        ``transform(symmetry)`` that does the same."""
        self._check_symmetry(symmetry)
        return move

    def canonical_symmetry(self) -> int:
        """The symmetry whose image, ``normalized()``, has the least position string (the lowest
        number on a tie). A game with many symmetries may find it faster, with the same answer."""
        texts = [self.transform(symmetry).normalized().to_str() for symmetry in range(self.symmetries())]
        return texts.index(min(texts))

    def normalized(self: S) -> S:
        """This position written its one normal way: itself, unless the game can write one
        position several ways (Santorini lists a colour's alike workers in square order)."""
        return self

    def _check_symmetry(self, symmetry: int) -> int:
        return check_int(symmetry, f"a symmetry of {self.name}", 0, self.symmetries() - 1)

    def __str__(self) -> str:
        return self.to_str()


def _move_text(move: Any) -> str:
    to_str = getattr(move, "to_str", None)
    try:
        return str(to_str()) if callable(to_str) else repr(move)
    except (BordspelError, TypeError, ValueError):
        return repr(move)


@functools.cache
def _slots(cls: type) -> tuple[str, ...]:
    """The slot names of ``cls`` and its bases."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return tuple(name for name in dict.fromkeys(names) if name not in ("__dict__", "__weakref__"))


def _restore_state(cls: type[S], fields: dict[str, Any]) -> S:
    """A state of ``cls`` with ``fields`` (what pickle calls to load a state)."""
    if not (isinstance(cls, type) and issubclass(cls, State)):
        raise BordspelError(f"{cls!r} is not a game state class")
    state = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(state, name, value)
    return state


def check_text(text: object, limit: int, what: str) -> str:
    """``text`` if it is a string of at most ``limit`` characters, else a NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"{what} is written as text, not as {type(text).__name__}")
    if len(text) > limit:
        raise NotationError(f"{what} is at most {limit} characters long, not {len(text)}")
    return text


def canonical(state: S) -> S:
    """The least image of ``state`` under its symmetries, by the position string of its
    ``normalized()`` form: positions that are images of each other have the same canonical form,
    written the same way."""
    return state.transform(canonical_symmetry(state)).normalized()


def canonical_symmetry(state: State) -> int:
    """The symmetry that takes ``state`` to its canonical form (the lowest number on a tie)."""
    return state.canonical_symmetry()


def perft(state: State, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state``."""
    if depth < 0:
        raise BordspelError(f"perft depth must be 0 or more, not {depth}")
    return state.perft(depth)


# -- squares ---------------------------------------------------------------------------
def square_name(row: int, col: int) -> str:
    """``a1`` is the top-left square (row 0, column 0); columns are letters, rows numbers.

    Raises NotationError for a coordinate that is not a whole number of 0 or more.
    """
    for value in (row, col):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise NotationError(f"square {(row, col)!r} has no name: rows and columns count from 0")
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(97 + rest) + letters
    return f"{letters}{row + 1}"


@functools.cache
def square_symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of an ``n`` x ``n`` board, each a permutation of the cells (cell
    ``row * n + col``; ``perm[cell]`` is its image): 0-3 turn the board a quarter turn at a time,
    4-7 mirror it left to right first. 0 is the identity."""
    perms = []
    for symmetry in range(8):
        images = (_square_image(symmetry, cell // n, cell % n, n) for cell in range(n * n))
        perms.append(tuple(r * n + c for r, c in images))
    return tuple(perms)


def _square_image(symmetry: int, row: int, col: int, n: int) -> tuple[int, int]:
    if symmetry >= 4:
        col = n - 1 - col
    for _ in range(symmetry % 4):
        row, col = col, n - 1 - row
    return row, col


def permute_mask(mask: int, perm: Sequence[int]) -> int:
    """``mask`` with every bit moved by the cell permutation ``perm`` (bit ``c`` to ``perm[c]``)."""
    out = 0
    for cell in iter_bits(mask):
        out |= 1 << perm[cell]
    return out


def parse_square(text: str, rows: int, cols: int) -> tuple[int, int]:
    """The (row, column) of a square name such as ``c2``, checked against the board size."""
    text = check_text(text, MAX_SQUARE_TEXT, "a square")
    letters = text.rstrip("0123456789")
    digits = text[len(letters) :]
    if not (letters and digits and letters.isascii() and letters.isalpha() and letters.islower()):
        raise NotationError(f"{text!r} is not a square: write a column letter and a row number, like b3")
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 96
    row, col = int(digits) - 1, col - 1
    if not (0 <= row < rows and 0 <= col < cols):
        raise NotationError(f"square {text} is off the {rows}x{cols} board")
    return row, col


# -- registry --------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """Everything bordspel knows of one game, and the only place that names its parts.

    Parts are ``"module:attribute"`` paths, imported when first used, so the registry stays
    light. A part left out is looked for in the game's ``package`` by its conventional name
    (:data:`PART_MODULES`: ``<package>.ai:KNOWLEDGE``, ``<package>.svg:draw``, ...), and
    failing that gets the generic default (a picture of ``grid()``, a codec of the start
    position's moves, click-to-choose move parts, players without game knowledge). Each module
    that uses a part declares its :class:`Part`: what the part must be, checked when it is loaded.
    """

    name: str
    state: str
    """The state class, e.g. ``"bordspel.games.hermit.engine:HermitState"``."""
    package: str | None = None
    """The package whose modules give the parts not named here (see :data:`PART_MODULES`)."""
    knowledge: str | None = None
    """The players' knowledge (``bordspel.ai.registry.Knowledge``): evaluation, solver, levels."""
    codec: str | None = None
    """The RL action codec (``bordspel.rl.codecs.Codec``)."""
    svg: str | None = None
    """``draw(state, options, size) -> str``: the SVG picture (``bordspel.svg.Options``)."""
    ansi: str | None = None
    """``render(state, last, *, colour) -> str``: the terminal picture."""
    move_parts: str | None = None
    """``move_parts(move) -> dict``: a move's click paths and choices for the browser, and ``confirm``
    for a move that waits for End turn rather than being played at its last click."""
    buttons: str | None = None
    """``buttons(start) -> tuple[str, ...]``: the click tokens of ``move_parts`` that are not
    squares or toolbar choices (``button:dome``, ``piece:A``), for games from ``start``; with the
    squares and choices, the fixed alphabet of click-by-click RL actions (``bordspel.rl.clicks``)."""
    guide: str | None = None
    """The browser's words and rules page (``bordspel.guide.Guide``)."""
    solver: str | None = None
    """``bordspel solve <game>``: its arguments and how to run it (``bordspel.cli.Solver``)."""
    vector: str | None = None
    """``batch(start, n, seat, opponent)``: N games stepped in compiled code (``bordspel.rl.vector``)."""
    rating_pool: str | None = None
    """``rating_pool(state) -> str``: the pool of ratings a game with these options counts for
    (one per game when left out)."""
    puzzles: str | None = None
    """The class whose instances prove and check the game's puzzles (``bordspel.puzzles.Proof``)."""
    computer_ratings: str | None = None
    """A mapping of the computer's levels to their fixed ratings (``bordspel.web.ratings``)."""
    native: tuple[str, ...] = ()
    """The compiled modules (``bordspel._native.<name>``) whose pure-Python twins the game has."""
    parameters: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """Default options as OpenSpiel parameters. A ``seed`` among them says that the start is
    drawn (Santorini's random gods): OpenSpiel fixes it, the other adapters draw one an episode."""
    players: tuple[int, int] | None = None
    """The fewest and most seats (``None``: the start position's seat count)."""
    max_length: Callable[[Mapping[str, Any]], int] | None = None
    """The longest game in plies for these options (``None``: unknown, a large bound); a
    module-level function, so that the spec pickles (worker processes get the registry)."""
    pieces: str = ""
    """The characters of ``grid()`` that the generic observation gives a plane each."""
    variants: tuple[Mapping[str, Any], ...] = ({},)
    """Option sets that show the game's variety: the tests and tools run every game in each."""
    choices: tuple[tuple[str, tuple[tuple[str, str, str | None], ...]], ...] = ()
    """Browser toolbar groups ``(key, ((value, label, swatch colour or None), ...))``: a move whose
    parts name ``choices`` is offered only while the toolbar shows those values."""


PART_MODULES = {
    "knowledge": "ai:KNOWLEDGE",
    "codec": "codec:CODEC",
    "svg": "svg:draw",
    "ansi": "ansi:render",
    "move_parts": "web:move_parts",
    "buttons": "web:buttons",
    "guide": "guide:GUIDE",
    "solver": "cli:SOLVER",
    "vector": "vector:batch",
    "rating_pool": "web:rating_pool",
    "computer_ratings": "web:COMPUTER_RATINGS",
    "puzzles": "puzzles:PROOF",
}
"""Where a game's package keeps each part by convention (module in the package : attribute)."""


def load(path: str) -> Any:
    """The object named by ``"module:attribute"``."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


_GAMES: dict[str, GameSpec] = {}
_BUILT_IN = "bordspel.games"
ENTRY_POINTS = "bordspel.games"
"""The entry-point group another package adds games with (each entry loads a ``GameSpec``)."""


def register_game(spec: GameSpec | str, path: str | None = None) -> None:
    """Register a game: a ``GameSpec``, or a name and its state class as ``"module:Class"``."""
    if isinstance(spec, str):
        if path is None:
            raise BordspelError("register_game(name, path) takes the state class as 'module:Class'")
        spec = GameSpec(spec, path)
    _registry()[spec.name] = spec


@functools.cache
def _discovered() -> None:
    """Fill the registry: the packages in ``bordspel.games``, then the entry points."""
    import pkgutil
    from importlib.metadata import entry_points

    games = importlib.import_module(_BUILT_IN)
    for found in pkgutil.iter_modules(games.__path__):
        spec = getattr(importlib.import_module(f"{_BUILT_IN}.{found.name}"), "SPEC", None)
        if isinstance(spec, GameSpec):
            _GAMES.setdefault(spec.name, spec)
    for entry in entry_points(group=ENTRY_POINTS):
        spec = entry.load()
        if isinstance(spec, GameSpec):
            _GAMES.setdefault(spec.name, spec)


def _registry() -> dict[str, GameSpec]:
    _discovered()
    return _GAMES


def available_games() -> list[str]:
    """The names of the registered games, sorted."""
    return sorted(_registry())


def game_spec(name: str) -> GameSpec:
    """The registered ``GameSpec`` of ``name``."""
    try:
        return _registry()[name.lower()]
    except KeyError:
        raise BordspelError(f"unknown game {name!r}: choose one of {', '.join(available_games())}") from None


def game_class(name: str) -> type[State]:
    """The state class registered under ``name``."""
    found: type[State] = load(game_spec(name).state)
    return found


def new_game(name: str, **options: Any) -> State:
    """The starting position of the game registered under ``name``."""
    return game_class(name).initial(**options)


@dataclass(frozen=True)
class Part(Generic[PartT]):
    """A kind of game part, as the module that uses it declares it: the GameSpec field that
    names it, what it must be (said in errors), and the check a loaded part must pass.

    ``SVG: Part[Draw] = Part("svg", "a function draw(state, options, size) -> str", callable)``
    lets ``game_part(name, SVG)`` return a ``Draw`` to type checkers, and refuse anything else.
    """

    field: str
    shape: str
    fits: Callable[[object], bool]


def game_part(name: str, part: Part[PartT]) -> PartT | None:
    """The ``part`` of game ``name`` (named by its GameSpec, or its package's module by
    convention), or ``None`` when it has none; BordspelError when it is not what ``part`` needs."""
    path = part_path(name, part.field)
    if path is None:
        return None
    found = load(path)
    if not part.fits(found):
        raise BordspelError(f"the {part.field} part of {name} ({path}) is not {part.shape}")
    checked: PartT = found
    return checked


def part_path(name: str, field: str) -> str | None:
    """Where the part in GameSpec ``field`` of game ``name`` is (``"module:attribute"``), without
    importing it."""
    spec = game_spec(name)
    path: str | None = getattr(spec, field)
    if path is not None or spec.package is None:
        return path
    module, _, attribute = PART_MODULES[field].partition(":")
    found = importlib.util.find_spec(f"{spec.package}.{module}")
    return None if found is None else f"{spec.package}.{module}:{attribute}"


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def check_int(value: object, what: str, low: int, high: int | None = None) -> int:
    """``value`` as an int within [low, high], or a BordspelError saying what is wrong."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BordspelError(f"{what} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        limit = f"at least {low}" if high is None else f"from {low} to {high}"
        raise BordspelError(f"{what} must be {limit}, not {value}")
    return value


def split_fields(text: str, what: str) -> tuple[list[str], dict[str, str]]:
    """Split a position string into positional fields and ``key=value`` fields."""
    plain: list[str] = []
    named: dict[str, str] = {}
    for field in check_text(text, MAX_POSITION_TEXT, f"a {what} position").split():
        key, eq, value = field.partition("=")
        if eq:
            named[key] = value
        else:
            plain.append(field)
    if not plain:
        raise NotationError(f"empty {what} position string")
    return plain, named
