"""Hermit / Kluizenaar: the facades' edge cases and the engine's rules, notation and perft."""

from __future__ import annotations

import random

import pytest

from bordspel import Hermit, Kluizenaar
from bordspel.core import IllegalMoveError, NotationError, square_symmetries
from bordspel.games.hermit import rules
from bordspel.games.hermit.engine import HermitMove, HermitState, block_squares

SPEC_BOARD = "RRB./..YR/BB.R/.RYY"


@pytest.mark.parametrize("square", [(-1, 0), (0, -1), (4, 0), (0, 4), (-1, -1), (10, 10)])
def test_isvalid_is_false_off_the_board(square: tuple[int, int]) -> None:
    assert Hermit(4).isvalid("R", square) is False
    assert Kluizenaar(4).isgeldig("R", square) is False


def test_isvalid_sees_diagonal_contact_and_occupied_squares() -> None:
    board = Hermit(4).move("R", (1, 1), "U")
    assert not board.isvalid("R", (0, 0)) and not board.isvalid("R", (2, 2))
    assert not board.isvalid("R", (1, 1)) and not board.isvalid("Y", (1, 1))
    assert board.isvalid("R", (3, 3)) and board.isvalid("Y", (0, 0))
    assert not board.isvalid("X", (3, 3))


@pytest.mark.parametrize(
    "move",
    [
        ("X", (0, 0), "U"),  # unknown colour
        ("R", (0, 0), "D"),  # unknown placement
        ("R", (0, 3), "H"),  # sticks out to the right
        ("R", (3, 0), "V"),  # sticks out below
        ("R", (-1, 0), "U"),  # negative coordinates never wrap
        ("R", (0, -1), "H"),
        ("Y", (1, 1), "U"),  # occupied
        ("R", (2, 2), "U"),  # touches red diagonally
        ("R", (1, 2), "V"),  # touches red orthogonally
        ("RY", (3, 3), "U"),  # not one colour letter
        ("R", "a1", "U"),  # not a position
    ],
)
def test_refused_moves_raise_and_change_nothing(move: tuple[object, object, object]) -> None:
    for cls, message in ((Hermit, "invalid move"), (Kluizenaar, "ongeldige zet")):
        board = cls(4).move("R", (1, 1), "U")
        before = str(board)
        with pytest.raises(AssertionError) as error:
            board.move(*move)  # type: ignore[arg-type]
        assert str(error.value) == message
        assert str(board) == before


def test_move_returns_the_game_itself() -> None:
    board = Kluizenaar(3)
    assert board.zet("B", (0, 0), "V") is board


def test_positions_ignores_the_board() -> None:
    board = Hermit(2)
    assert board.positions((5, 5), "V") == {(5, 5), (6, 5)}
    assert board.positions((-1, 1), "H") == {(-1, 1), (-1, 2)}
    assert board.positions((0, 0), "U") == {(0, 0)}


@pytest.mark.parametrize("n", range(1, 13))
def test_possible_moves_match_definition_on_every_size(n: int) -> None:
    board = Hermit(n)
    board.move("R", (0, 0), "U")
    if n > 2:
        board.move("Y", (n - 1, n - 2), "H")
    expected = {
        (colour, (r, c), placement)
        for colour in "RYB"
        for r in range(n)
        for c in range(n)
        for placement in "UHV"
        if all(board.isvalid(colour, sq) for sq in board.positions((r, c), placement))
    }
    assert board.possible_moves() == expected


def test_one_by_one_board() -> None:
    board = Hermit(1)
    assert board.possible_moves() == {("R", (0, 0), "U"), ("Y", (0, 0), "U"), ("B", (0, 0), "U")}
    board.move("Y", (0, 0), "U")
    assert board.possible_moves() == set()
    assert board.state.outcome() is not None and board.state.outcome().winner == 0  # type: ignore[union-attr]


def test_perft_matches_generated_moves_on_4x4() -> None:
    start = HermitState.initial(size=4)
    by_moves = sum(start.apply(m).count_moves() for m in start.legal_moves())
    assert start.perft(2) == by_moves


def test_notation_round_trip_and_errors() -> None:
    state = HermitState.initial(size=12)
    move = HermitMove("Y", 10, 11, "V")
    assert move.to_str() == "Yl11V"
    assert state.move_from_str("Yl11V") == move
    assert state.move_from_str("yl11") == HermitMove("Y", 10, 11, "U")
    for bad in ("", "Q", "Xa1U", "Ra1Z", "Ra0U", "Rz1U", "R11U"):
        with pytest.raises(NotationError):
            state.move_from_str(bad)
    with pytest.raises(IllegalMoveError, match="off the 12x12 board"):
        state.play("Rl1H")


def test_illegal_move_names_the_reason() -> None:
    state = HermitState.from_str(SPEC_BOARD)
    with pytest.raises(IllegalMoveError, match="already covered"):
        state.play("Ra1U")
    with pytest.raises(IllegalMoveError, match="touch another red block"):
        state.play("Rb2U")


def test_position_string_round_trip_and_turn() -> None:
    state = HermitState.from_str(SPEC_BOARD)
    assert state.to_str() == SPEC_BOARD and state.plies == 7 and state.to_move == 1
    assert str(state).splitlines()[0] == "R R B ."
    for bad in ("RRB./..YR", "RRX./..YR/BB.R/.RYY", "RR../R.../..../....", "RRR./..../..../....", ""):
        with pytest.raises(NotationError):
            HermitState.from_str(bad)


def test_game_over_and_winner() -> None:
    state = HermitState.from_str(SPEC_BOARD).play("Ya4U").play("Ya2U")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.result_str() == "1-0"
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply(HermitMove("R", 0, 3, "U"))


def test_symmetries() -> None:
    assert len(set(square_symmetries(5))) == 8
    state = HermitState.from_str(SPEC_BOARD)
    images = set(state.symmetric_positions())
    assert state in images and len(images) == 48
    assert all(image.count_moves() == state.count_moves() for image in images)
    assert all(image.perft(2) == state.perft(2) for image in images)


# -- the rules' primitives ------------------------------------------------------------------------
def squares_of(mask: int, n: int) -> set[tuple[int, int]]:
    return {(cell // n, cell % n) for cell in range(n * n) if mask >> cell & 1}


def test_a_square_touches_its_eight_neighbours_corners_included() -> None:
    geo = rules.geometry(4)
    assert squares_of(rules.dilate(1 << 5, geo), 4) == {(r, c) for r in range(3) for c in range(3)}
    assert squares_of(rules.dilate(1 << 15, geo), 4) == {(2, 2), (2, 3), (3, 2), (3, 3)}  # the corner
    assert rules.dilate(1 << 3, geo) & 1 << 4 == 0  # the row's end does not wrap to the next row


@pytest.mark.parametrize("n", [1, 2, 4])
def test_blocks_fit_where_their_squares_are_on_the_board_and_free(n: int) -> None:
    geo, rng = rules.geometry(n), random.Random(n)
    for free in [geo.full, *(rng.getrandbits(n * n) for _ in range(30))]:
        starts = rules.placement_starts(free, geo)
        for placement, letter in enumerate(rules.PLACEMENTS):
            for cell in range(n * n):
                squares = block_squares((cell // n, cell % n), letter)
                fits = all(0 <= r < n and 0 <= c < n and free >> (r * n + c) & 1 for r, c in squares)
                assert bool(starts[placement] >> cell & 1) == fits, (free, letter, cell)
                if fits:
                    assert squares_of(rules.block_at(cell, placement, geo), n) == squares
        assert sorted(rules.fitting_blocks(free, geo)) == sorted(
            (p, rules.block_at(cell, p, geo))
            for p in range(3)
            for cell in range(n * n)
            if starts[p] >> cell & 1
        )


def test_after_block_is_free_squares_after_the_move() -> None:
    rng = random.Random(7)
    for _ in range(40):
        state = HermitState.initial(size=5)
        for _ in range(rng.randint(0, 6)):
            if not state.is_over():
                state = state.apply(state.random_move(rng))
        if state.is_over():
            continue
        geo, move = rules.geometry(5), state.random_move(rng)
        colour, placement = "RYB".index(move.colour), rules.PLACEMENTS.index(move.placement)
        block = rules.block_at(move.row * 5 + move.col, placement, geo)
        before = tuple(rules.free_squares(state.masks, c, geo) for c in range(3))
        after = state.apply(move)
        assert rules.after_block((before[0], before[1], before[2]), colour, block, geo) == tuple(
            rules.free_squares(after.masks, c, geo) for c in range(3)
        )
