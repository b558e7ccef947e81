"""Regression tests for the engine and parser defects found by fuzzing (issue 10)."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from bordspel.ai.registry import knowledge, make_player
from bordspel.core import (
    MAX_MOVE_TEXT,
    MAX_POSITION_TEXT,
    IllegalMoveError,
    NotationError,
    new_game,
    parse_square,
    square_name,
)
from bordspel.games.hermit.engine import MAX_SIZE, HermitMove, HermitState
from bordspel.games.quarto.engine import DEFAULT_PIECES, PieceSet, QuartoMove, QuartoState
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.record import MAX_RECORD, Game, RecordError

KNOCKED_OUT = "02230/34423/24341/13243/21430 workers=d2e5,-,- turn=2 players=3 out=2,3"
"""A 3-player game that seat 1 won because seats 2 and 3 were knocked out."""
GAMES: dict[str, dict[str, Any]] = {"hermit": {"size": 3}, "santorini": {}, "quarto": {}}


# -- the outcome is part of a position ------------------------------------------------------------
def test_a_knocked_out_game_reloads_finished() -> None:
    state = SantoriniState.from_str(KNOCKED_OUT)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {0} and state.legal_moves() == []
    assert SantoriniState.from_str(state.to_str()) == state


def test_equality_and_hash_include_the_winners() -> None:
    finished = SantoriniState.from_str(KNOCKED_OUT)
    unfinished = finished._with_turn(finished.turn)
    assert unfinished != finished and len({finished, unfinished}) == 2


@pytest.mark.parametrize(
    "text, reason",
    [
        ("00000/00000/00000/00000/00000 workers=a1b1,c1d1 players=2 out=2", "three-player"),
        ("00000/00000/00000/00000/00000 workers=a1b1,c1d1,e1e2 players=3 out=2", "off the board"),
        ("00000/00000/00000/00000/00000 workers=a1b1,-,e1e2 players=3 turn=2 out=2", "cannot be the one"),
    ],
)
def test_impossible_knock_outs_are_refused(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        SantoriniState.from_str(text)


# -- pickling -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_states_and_moves_pickle(game: str) -> None:
    state = new_game(game, **GAMES[game])
    rng = random.Random(3)
    while not state.is_over():
        moves = state.legal_moves()
        assert pickle.loads(pickle.dumps((state, moves))) == (state, moves)
        state = state.apply(rng.choice(moves))
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.outcome() == state.outcome()


def test_a_loaded_state_is_still_immutable() -> None:
    state = pickle.loads(pickle.dumps(HermitState.initial(size=3)))
    with pytest.raises(AttributeError):
        state.n = 4


def _specs(game: str) -> list[str]:
    """The generic players, the game's levels (not the frozen baselines) and its own players."""
    known = knowledge(game)
    levels = [level for level in known.levels if not level.endswith("-v1")]
    return ["random", "greedy", "alphabeta:depth=2", "mcts:playouts=20", *levels, *known.players]


@pytest.mark.parametrize("game, spec", [(g, s) for g in GAMES for s in _specs(g)])
def test_players_pickle_and_still_play(game: str, spec: str) -> None:
    player = pickle.loads(pickle.dumps(make_player(spec, game, seed=1)))
    if getattr(player, "time_limit", None) is not None:
        player.time_limit = 0.05  # type: ignore[attr-defined]
    state = new_game(game, **GAMES[game])
    assert state.is_legal(player.step(state))


# -- parsers are linear and refuse absurd lengths ---------------------------------------------------
@pytest.mark.parametrize("text", ["a" * 100_000 + "1", "a" + "1" * 100_000, "b" * 13])
def test_long_squares_are_refused_at_once(text: str) -> None:
    with pytest.raises(NotationError, match="at most 12 characters"):
        parse_square(text, 5, 5)


@pytest.mark.parametrize("game", GAMES)
def test_long_moves_are_refused_at_once(game: str) -> None:
    state = new_game(game, **GAMES[game])
    with pytest.raises(NotationError, match=f"at most {MAX_MOVE_TEXT} characters"):
        state.parse_move("c3" * 50_000)
    with pytest.raises(NotationError, match="written as text"):
        state.parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_long_positions_are_refused_at_once(game: str) -> None:
    cls = type(new_game(game))
    with pytest.raises(NotationError, match=f"at most {MAX_POSITION_TEXT} characters"):
        cls.from_str("." * (MAX_POSITION_TEXT + 1))


def test_hermit_boards_have_a_largest_size() -> None:
    assert HermitState.initial(size=MAX_SIZE).to_str().count("/") == MAX_SIZE - 1
    with pytest.raises(ValueError, match=f"from 1 to {MAX_SIZE}, not {MAX_SIZE + 1}"):
        HermitState.initial(size=MAX_SIZE + 1)
    big = "/".join(["." * (MAX_SIZE + 1)] * (MAX_SIZE + 1))
    with pytest.raises(NotationError, match=f"at most {MAX_SIZE} rows"):
        HermitState.from_str(big)


def test_unclosed_comments_are_refused_at_once() -> None:
    with pytest.raises(RecordError, match="line 3: a comment opened with"):
        Game.from_record('[Game "hermit"]\n\n' + "{" * 100_000)
    game = Game.from_record('[Game "hermit"]\n\n{a\ncomment} 1. Ra1U {x}\n')
    assert [m.to_str() for m in game.moves] == ["Ra1U"]


def test_records_have_a_size_limit() -> None:
    with pytest.raises(RecordError, match=f"at most {MAX_RECORD} characters"):
        Game.from_record('[Game "hermit"]\n\n' + " " * MAX_RECORD)


# -- squares with negative coordinates ---------------------------------------------------------------
@pytest.mark.parametrize("row, col", [(0, -2), (-1, 0), (0, -1)])
def test_negative_squares_have_no_name(row: int, col: int) -> None:
    with pytest.raises(NotationError, match="rows and columns count from 0"):
        square_name(row, col)
    with pytest.raises(NotationError):
        HermitMove("R", row, col, "U").to_str()


def test_square_names_still_count_in_base_26() -> None:
    assert [square_name(0, c) for c in (0, 25, 26, 701, 702)] == ["a1", "z1", "aa1", "zz1", "aaa1"]


# -- malformed move objects ---------------------------------------------------------------------------
MALFORMED: list[object] = [
    None,
    "Ra1U",
    5,
    HermitMove("X", "a", None, "Q"),  # type: ignore[arg-type]
    HermitMove("R", 0, "a", "H"),  # type: ignore[arg-type]
    Turn("a", None, 3),  # type: ignore[arg-type]
    Turn(0, 1, "b"),  # type: ignore[arg-type]
    Placement("a", 2.5),  # type: ignore[arg-type]
    QuartoMove("x", 5),  # type: ignore[arg-type]
    QuartoMove(3, 5),  # type: ignore[arg-type]
    ("R", (0, 0), "U"),
]


def _started(game: str) -> list[Any]:
    state = new_game(game, **GAMES[game])
    return [state, state.apply(state.random_move(random.Random(0)))]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("move", MALFORMED, ids=repr)
def test_malformed_moves_raise_library_errors(game: str, move: object) -> None:
    for state in _started(game):
        assert state.is_legal(move) is False
        assert state.why_illegal(move)
        with pytest.raises(IllegalMoveError):
            state.apply(move)


def test_a_game_refuses_malformed_moves() -> None:
    game = Game.new("hermit", size=3)
    with pytest.raises(IllegalMoveError, match="not a Hermit move"):
        game.play(None)
    assert game.moves == []


# -- Santorini setup --------------------------------------------------------------------------------
DOMED = "44440/00000/00000/00000/00000 workers=-,- turn=1 players=2"


def test_workers_are_never_placed_on_domes() -> None:
    state = SantoriniState.from_str(DOMED)
    placements = state.legal_moves()
    assert placements and all(p.first > 3 and p.second > 3 for p in placements)
    with pytest.raises(IllegalMoveError, match="dome"):
        state.apply(Placement(0, 10))
    rng = random.Random(5)
    for _ in range(200):
        placed = state.apply(state.random_move(rng))
        assert SantoriniState.from_str(placed.to_str()) == placed


def test_a_seat_without_room_to_place_loses() -> None:
    state = SantoriniState.from_str("44444/44444/44444/44444/44440 workers=-,- turn=1 players=2")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == {1}
    assert SantoriniState.from_str(state.to_str()) == state


# -- Quarto piece sets --------------------------------------------------------------------------------
CHARS = "ABCDEFGHIJKLMNOP"


@pytest.mark.parametrize(
    "text, reason",
    [
        ("a:b|c,d:e|f,g:h|i,j:k|l,m:n|o;" + CHARS, "has 5 characteristics"),
        ("a:b|b,d:e|f,g:h|i,j:k|l;" + CHARS, "'b' twice"),
        ("a:b|c,d:e|f,g:h|i,j:k;" + CHARS, "characteristic 4 is name:value|value"),
        ("a:b|c|d,d:e|f,g:h|i,j:k|l;" + CHARS, "characteristic 1 is name:value|value"),
        ("a:b|c,a:e|f,g:h|i,j:k|l;" + CHARS, "different names"),
        ("a:b|c,d:e|f,g:h|i,j:k|l;" + CHARS[:15], "16 different pieces"),
        ("a:b|c,d:e|f,g:h|i,j:k|l", "no ';'"),
    ],
)
def test_malformed_piece_sets_are_refused(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        PieceSet.from_str(text)


def test_piece_sets_still_round_trip() -> None:
    assert PieceSet.from_str(DEFAULT_PIECES.to_str()) == DEFAULT_PIECES
    state = QuartoState.initial(pieces=DEFAULT_PIECES)
    assert QuartoState.from_str(state.to_str()) == state


def test_a_piece_file_is_named_by_a_path(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="by its path"):
        QuartoState.initial(pieces=6)  # type: ignore[arg-type]
    huge = tmp_path / "huge.txt"
    huge.write_text("stuk,a,b,c,d\n" + "x" * 70_000)
    with pytest.raises(ValueError, match="at most 65536 characters"):
        PieceSet.from_file(huge)


def test_tag_values_with_line_breaks_round_trip() -> None:
    game = Game.new("hermit", size=3)
    game.tags["Red"] = 'two\nlines \\n "quoted"\r'
    game.play("Ra1U")
    again = Game.from_record(game.to_record())
    assert again.tags == game.tags and again.moves == game.moves
