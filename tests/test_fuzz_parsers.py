"""Fuzz tests (hypothesis) over every parser and facade.

Each input either succeeds or raises the library's documented error (a BordspelError for the
engines, ValueError for the spec's Quarto functions, AssertionError where the spec asks for it);
whatever parses round-trips. Inputs are bounded, so every example is quick.
"""

from __future__ import annotations

import functools
import io
import itertools
import os
import pickle
import random
import tempfile
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bordspel import en, nl
from bordspel.core import BordspelError, State, game_class, new_game, parse_square, square_name
from bordspel.games.hermit.engine import HermitMove
from bordspel.games.quarto.engine import DEFAULT_PIECES, PieceSet, QuartoMove, read_piece_file
from bordspel.games.santorini.engine import Placement, Turn
from bordspel.record import Game, RecordError, RecordReader
from tests.conftest import PIECE_FILE
from tests.test_conformance import STARTS as CONFORMANCE_STARTS
from tests.test_record_tree import game_trees, shape

FUZZ = settings(max_examples=60, deadline=None)
STARTS: list[tuple[str, dict[str, Any]]] = [
    *CONFORMANCE_STARTS,
    ("quarto", {"pieces": PieceSet.from_str(DEFAULT_PIECES.to_str().replace("tall", "x"))}),
]
ALPHABET = 'abcdeABCRYBUHVP0123456789/.-:,;|=_ \n{}[]"\\%éx'
texts = st.text(alphabet=ALPHABET, max_size=40) | st.text(max_size=20)
anything = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True) | texts,
    lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=4),
    max_leaves=6,
)


@functools.cache
def sample_games() -> tuple[tuple[State, ...], ...]:
    """Positions along two seeded random games per start (computed once, bounded)."""
    samples = []
    rng = random.Random(11)
    for name, options in STARTS:
        for _ in range(2):
            state = new_game(name, **options)
            line = [state]
            while not state.is_over() and len(line) < 200:
                state = state.apply(state.random_move(rng))
                line.append(state)
            samples.append(tuple(line))
    return tuple(samples)


def sample_positions() -> list[State]:
    return [state for line in sample_games() for state in line]


def mutated(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each edit applied: (position, 0 delete / 1 insert / 2 replace, char)."""
    for position, kind, char in edits:
        at = position % (len(text) + 1)
        if kind == 0:
            text = text[:at] + text[at + 1 :]
        elif kind == 1:
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


edits = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2), st.sampled_from(ALPHABET)), max_size=4)


def attempt(
    call: Callable[..., Any], *args: Any, refused: tuple[type[BaseException], ...] = (BordspelError,)
) -> Any:
    """The result of ``call(*args)``, or None when it raises one of the ``refused`` errors."""
    try:
        return call(*args)
    except refused as error:
        assert str(error), "a refused input must say why"
        return None


def assert_position_round_trips(state: State) -> None:
    again = type(state).from_str(state.to_str())
    assert again == state and again.to_str() == state.to_str() and again.outcome() == state.outcome()
    assert pickle.loads(pickle.dumps(state)) == state


# -- squares and moves ---------------------------------------------------------------------------
@FUZZ
@given(texts, st.integers(1, 30), st.integers(1, 30))
def test_parse_square(text: str, rows: int, cols: int) -> None:
    square = attempt(parse_square, text, rows, cols)
    if square is not None:
        assert parse_square(square_name(*square), rows, cols) == square


@FUZZ
@given(anything, anything)
def test_square_name(row: Any, col: Any) -> None:
    name = attempt(square_name, row, col)
    if name is not None:
        assert parse_square(name, row + 1, col + 1) == (row, col)


def position_and_text(data: st.DataObject, text: str) -> tuple[State, str]:
    """A sample position, and ``text`` or one of its legal moves' text mutated."""
    state = data.draw(st.sampled_from(sample_positions()))
    legal = state.legal_moves()
    if legal and data.draw(st.booleans()):
        text = mutated(data.draw(st.sampled_from(legal)).to_str(), data.draw(edits))
    return state, text


@FUZZ
@given(st.data(), texts)
def test_parse_move(data: st.DataObject, text: str) -> None:
    state, text = position_and_text(data, text)
    move = attempt(state.parse_move, text)
    if move is not None:
        assert state.is_legal(move) and state.parse_move(move.to_str()) == move
    read = attempt(state.move_from_str, text)
    if read is not None:
        assert attempt(state.move_from_str, read.to_str()) in (read, None)


def test_every_legal_move_reads_back_from_its_text() -> None:
    for state in sample_positions():
        for move in state.legal_moves():
            text = move.to_str()
            assert type(move).from_str(text) == move and state.move_from_str(text) == move


@FUZZ
@given(st.data(), texts, st.sampled_from([HermitMove, Turn, Placement, QuartoMove]))
def test_move_types_from_str(data: st.DataObject, text: str, cls: Any) -> None:
    _, text = position_and_text(data, text)
    move = attempt(cls.from_str, text)
    if move is not None:
        assert cls.from_str(move.to_str()) == move


move_objects = st.one_of(
    anything,
    st.builds(HermitMove, anything, anything, anything, anything),
    st.builds(Turn, anything, anything, anything),
    st.builds(Placement, anything, anything),
    st.builds(QuartoMove, anything, anything),
)


@FUZZ
@given(st.data(), move_objects)
def test_malformed_move_objects(data: st.DataObject, move: Any) -> None:
    state = data.draw(st.sampled_from(sample_positions()))
    if not state.is_legal(move):
        assert state.why_illegal(move)
        before = state.to_str()
        assert attempt(state.apply, move) is None and state.to_str() == before


# -- positions and records --------------------------------------------------------------------------
@FUZZ
@given(st.sampled_from([name for name, _ in STARTS]), texts)
def test_from_str_random(name: str, text: str) -> None:
    state = attempt(lambda: game_class(name).from_str(text))
    if state is not None:
        assert_position_round_trips(state)


@FUZZ
@given(st.data(), edits)
def test_from_str_mutated(data: st.DataObject, changes: list[tuple[int, int, str]]) -> None:
    original = data.draw(st.sampled_from(sample_positions()))
    state = attempt(lambda: type(original).from_str(mutated(original.to_str(), changes)))
    if state is not None:
        assert_position_round_trips(state)


@FUZZ
@given(st.data(), edits, st.integers(0, 200))
def test_records_mutated(data: st.DataObject, changes: list[tuple[int, int, str]], plies: int) -> None:
    line = data.draw(st.sampled_from(sample_games()))
    game = Game(line[0], {"Event": 'fuzz "quoted" \\ line\nbreak'})
    for state, following in itertools.pairwise(line[: plies + 1]):
        game.play(next(m for m in state.legal_moves() if state.apply_unchecked(m) == following))
    record = mutated(game.to_record(), changes)
    read = attempt(Game.from_record, record)
    if read is not None:
        again = Game.from_record(read.to_record())
        assert again.moves == read.moves and again.tags == read.tags and again.state == read.state


@FUZZ
@given(game_trees(), edits)
def test_record_trees_mutated(game: Game, changes: list[tuple[int, int, str]]) -> None:
    read = attempt(Game.from_record, mutated(game.to_record(), changes))
    if read is not None:
        again = Game.from_record(read.to_record())
        assert shape(again.root) == shape(read.root) and again.tags == read.tags


@FUZZ
@given(st.lists(game_trees(), max_size=3), edits, texts)
def test_record_streams_mutated(games: list[Game], changes: list[tuple[int, int, str]], noise: str) -> None:
    text = mutated("\n".join(game.to_record() for game in games) + noise, changes)
    reader = RecordReader(io.StringIO(text))
    for _ in range(text.count("\n") + 2):
        try:
            if reader.read_game() is None:
                return
        except RecordError as error:
            assert str(error)
    raise AssertionError("the reader did not reach the end of the text")


@FUZZ
@given(texts)
def test_records_random(text: str) -> None:
    attempt(Game.from_record, '[Game "santorini"]\n\n' + text)
    attempt(Game.from_record, text)


# -- Quarto piece sets and files -----------------------------------------------------------------------
@FUZZ
@given(st.one_of(texts, st.builds(mutated, st.just(DEFAULT_PIECES.to_str()), edits)))
def test_piece_set_from_str(text: str) -> None:
    pieces = attempt(PieceSet.from_str, text)
    if pieces is not None:
        assert PieceSet.from_str(pieces.to_str()) == pieces


@FUZZ
@given(st.one_of(st.builds(mutated, st.just(PIECE_FILE), edits), texts), st.booleans())
def test_piece_files(text: str, as_bytes: bool) -> None:
    handle, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(text.encode("utf-8") if not as_bytes else text.encode("utf-8", "replace")[::-1])
        read = attempt(read_piece_file, path, refused=(ValueError,))
        table = attempt(en.read_pieces, path, refused=(ValueError,))
        assert (read is None) == (table is None)
        if table is not None:
            assert nl.lees_stukken(path) == table
        pieces = attempt(PieceSet.from_file, path, refused=(ValueError,))
        if pieces is not None:
            assert PieceSet.from_str(pieces.to_str()) == pieces
    finally:
        os.unlink(path)


@FUZZ
@given(anything, st.dictionaries(texts, anything | st.sets(texts, max_size=3), max_size=4) | anything)
def test_quarto_functions(config: Any, properties: Any) -> None:
    for function in (en.quarto, en.make_grid, nl.quarto, nl.maak_rooster):
        attempt(function, config, properties, refused=(ValueError,))


# -- the spec facades ------------------------------------------------------------------------------------
@FUZZ
@given(
    st.sampled_from([en.Hermit, nl.Kluizenaar]),
    st.integers(1, 6) | anything,
    st.lists(st.tuples(anything, anything, anything), max_size=6),
)
def test_hermit_facade(cls: type[en.Hermit], size: Any, calls: list[tuple[Any, Any, Any]]) -> None:
    board = attempt(cls, size)
    if board is None:
        return
    for colour, square, placement in calls:
        attempt(board.positions, square, placement)
        assert attempt(board.isvalid, colour, square) in (True, False)
        before = str(board)
        if attempt(board.move, colour, square, placement, refused=(AssertionError,)) is None:
            assert str(board) == before


@FUZZ
@given(
    st.sampled_from([en.Santorini, nl.Santorini]),
    anything | st.lists(st.tuples(st.integers(-1, 5), st.integers(-1, 5)), min_size=4, max_size=8),
    st.lists(
        st.tuples(
            st.booleans(),
            anything | st.sampled_from("ABCDEF"),
            anything | st.sampled_from(["N", "NO", "NE", "ZW", "SW", "W"]),
        ),
        max_size=8,
    ),
)
def test_santorini_facade(
    cls: type[en.Santorini], positions: Any, calls: list[tuple[bool, Any, Any]]
) -> None:
    board = attempt(cls, positions, refused=(AssertionError,))
    if board is None:
        return
    for build, worker, direction in calls:
        action = board.build_tower if build else board.move_worker
        before = str(board)
        if attempt(action, worker, direction, refused=(AssertionError,)) is None:
            assert str(board) == before
        attempt(board.level, worker, refused=(AssertionError,))
        assert board.winning_worker() in (None, *board.workers)
