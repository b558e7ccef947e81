"""The mutable Board: push, pop and the history over the immutable states, for every game."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bordspel
from bordspel import Board
from bordspel.core import BordspelError, IllegalMoveError, NotationError, new_game
from bordspel.record import Game

from .variants import IDS, VARIANTS

picks = st.lists(st.integers(min_value=0, max_value=10_000), max_size=30)


def pushed(board: Board[Any], choices: list[int]) -> list[Any]:
    """Push the moves ``choices`` pick among the legal ones; the moves pushed."""
    moves = []
    for pick in choices:
        legal = board.legal_moves
        if not legal:
            break
        moves.append(legal[pick % len(legal)])
        board.push(moves[-1])
    return moves


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=IDS)
@settings(max_examples=8, deadline=None)
@given(choices=picks)
def test_pushes_give_the_states_of_applying_the_moves_and_pops_undo_them(
    game: str, options: dict[str, Any], choices: list[int]
) -> None:
    board = Board.new(game, **options)
    states = [board.state]
    for move in pushed(board, choices):
        states.append(states[-1].apply(move))
    assert board.state == states[-1] and board.states() == states and board.ply == len(states) - 1
    assert board.is_game_over() == states[-1].is_over() and board.outcome() == states[-1].outcome()
    assert board.options() == states[0].options() and board.root().state == states[0]
    while board.move_stack:
        last = board.peek()
        assert board.pop() == last
        states.pop()
        assert board.state == states[-1]
    assert board.state == board.start == states[0]


@settings(max_examples=30, deadline=None)
@given(choices=picks, text=st.booleans())
def test_push_then_pop_returns_the_same_state(choices: list[int], text: bool) -> None:
    board = Board.new("santorini", players=2)
    pushed(board, choices)
    if board.is_game_over():
        return
    before, stack = board.state, list(board.move_stack)
    move = random.Random(len(choices)).choice(board.legal_moves)
    returned = board.push_str(move.to_str()) if text else board.push(move)
    assert returned == (move if text else None) and board.peek() == move
    assert board.pop() == move and board.state == before and board.move_stack == stack


def test_a_refused_move_raises_the_games_error_and_changes_nothing() -> None:
    board = Board.new("hermit", size=3)
    board.push_str("Ra1H")
    before = board.copy()
    with pytest.raises(IllegalMoveError, match="Ra1H"):
        board.push_str("Ra1H")
    with pytest.raises(NotationError):
        board.push_str("zz")
    with pytest.raises(IllegalMoveError):
        board.push(board.start.legal_moves()[0])
    assert board == before and board.state == before.state


def test_pop_and_peek_on_an_empty_stack_say_there_is_no_move() -> None:
    board = Board.new("quarto")
    with pytest.raises(BordspelError, match="no moves played: there is nothing to take back"):
        board.pop()
    with pytest.raises(BordspelError, match="no moves played: there is no last move"):
        board.peek()


def test_copies_are_independent_and_compare_by_start_and_moves() -> None:
    board = Board.new("quarto")
    board.push_str("A")
    copy = board.copy()
    copy.push_str("c3:B")
    assert board.ply == 1 and copy.ply == 2 and board != copy
    fresh = copy.copy(stack=False)
    assert fresh.state == copy.state and fresh.ply == 0 and fresh.start == copy.state
    copy.pop()
    assert copy == board
    assert pickle.loads(pickle.dumps(board)) == board
    with pytest.raises(TypeError):
        hash(board)


def test_a_board_starts_from_any_state_and_refuses_anything_else() -> None:
    start = new_game("santorini", gods="apollo/pan")
    assert Board(start).state is start and "santorini" in repr(Board(start))
    with pytest.raises(BordspelError, match="starts from a game state, not str"):
        Board("hermit")  # type: ignore[arg-type]


def test_a_board_converts_to_and_from_a_game_record() -> None:
    board = Board.new("hermit", size=4)
    pushed(board, [3, 1, 4, 1, 5, 9])
    game = board.to_game({"Event": "test"})
    again = Board.from_game(Game.from_record(game.to_record()))
    assert again == board and again.state == board.state and game.tags == {"Event": "test"}


def test_the_board_is_exported_from_the_package() -> None:
    assert bordspel.Board is Board and "Board" in bordspel.__all__ and "Board" in dir(bordspel)
