"""Santorini: the spec facades' board checks, and the turn-based engine for 2-4 players."""

from __future__ import annotations

import pytest

from bordspel import Santorini
from bordspel.core import BordspelError, IllegalMoveError, NotationError
from bordspel.en import Santorini as EnglishSantorini
from bordspel.games.santorini.engine import BOX_SUPPLY, Placement, SantoriniState, Turn

PERFT_START = [(2, 1), (2, 3), (1, 2), (3, 2)]


def cell(square: str) -> int:
    return (int(square[1]) - 1) * 5 + ord(square[0]) - 97


# -- the facades -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "positions, reason",
    [
        ({(0, 0), (1, 1), (2, 2), (3, 3)}, "list or tuple"),
        ([(0, 0), (1, 1), (2, 2)], "4, 6 or 8"),
        ([(0, 0)] * 4, "two workers"),
        ([(0, 0), (1, 1), (2, 2), (5, 0)], "not on the 5x5 board"),
        ([(0, 0), (1, 1), (2, 2), (-1, 0)], "not on the 5x5 board"),
        ([(0, 0), (1, 1), (2, 2), "d4"], "not on the 5x5 board"),
        ([(0, 0)] * 10, "4, 6 or 8"),
    ],
)
def test_constructor_refuses_bad_setups(positions: object, reason: str) -> None:
    with pytest.raises(AssertionError, match=reason):
        Santorini(positions)  # type: ignore[arg-type]


def test_six_and_eight_workers() -> None:
    board = Santorini([(0, 0), (0, 2), (0, 4), (4, 0), (4, 2), (4, 4), (2, 0), (2, 4)])
    assert list(board.arbeiders) == list("ABCDEFGH")
    assert str(board).splitlines()[0] == "A0B0C"


def build(board: Santorini, worker: str, direction: str, times: int) -> None:
    for _ in range(times):
        board.bouw_toren(worker, direction)


def test_climbing_one_level_at_a_time_and_jumping_down() -> None:
    board = Santorini([(2, 2), (0, 0), (4, 4), (0, 4)])
    build(board, "A", "O", 2)  # (2, 3) at level 2
    with pytest.raises(AssertionError, match=r"^ongeldige zet$"):
        board.verzet_arbeider("A", "O")
    build(board, "A", "N", 1)  # (1, 2) at level 1
    board.verzet_arbeider("A", "N")
    assert board.niveau("A") == 1
    board.verzet_arbeider("A", "ZO")  # up to level 2
    assert board.niveau("A") == 2
    board.verzet_arbeider("A", "ZW")  # down to level 0 at (3, 2)
    assert board.niveau("A") == 0 and board.arbeiders["A"] == (3, 2)


def test_domes_block_moves_and_builds() -> None:
    board = EnglishSantorini([(2, 2), (0, 0), (4, 4), (0, 4)])
    for _ in range(4):
        board.build_tower("A", "E")
    assert str(board).splitlines()[2] == "00A40"
    before = str(board)
    for action in (board.move_worker, board.build_tower):
        with pytest.raises(AssertionError, match=r"^invalid move$"):
            action("A", "E")
    assert str(board) == before


def test_workers_block_moves_and_builds() -> None:
    board = Santorini([(2, 2), (2, 3), (4, 4), (0, 4)])
    for action in (board.verzet_arbeider, board.bouw_toren):
        with pytest.raises(AssertionError, match=r"^ongeldige zet$"):
            action("A", "O")


@pytest.mark.parametrize("worker, direction", [("E", "N"), ("a", "N"), ("A", "NE"), ("A", "X"), ("A", None)])
def test_unknown_workers_and_directions(worker: str, direction: str) -> None:
    board = Santorini([(2, 2), (0, 0), (4, 4), (0, 4)])  # Dutch: NO, not NE
    with pytest.raises(AssertionError, match=r"^ongeldige zet$"):
        board.verzet_arbeider(worker, direction)
    assert board.arbeiders["A"] == (2, 2)


def test_edges_refuse_every_outward_direction() -> None:
    board = EnglishSantorini([(0, 0), (4, 4), (0, 4), (4, 0)])
    for worker, outward in (("A", "N NW W NE SW"), ("B", "S SE E NE SW"), ("C", "N NE E"), ("D", "S SW W")):
        for direction in outward.split():
            with pytest.raises(AssertionError):
                board.move_worker(worker, direction)
            with pytest.raises(AssertionError):
                board.build_tower(worker, direction)


def test_winning_worker_is_first_alphabetically_on_level_three() -> None:
    board = Santorini([(2, 2), (0, 0), (2, 0), (4, 4)])
    build(board, "A", "N", 1)
    build(board, "A", "O", 2)
    build(board, "A", "Z", 3)
    build(board, "C", "N", 1)
    build(board, "C", "O", 2)
    build(board, "C", "Z", 3)
    assert board.winnende_arbeider() is None
    board.verzet_arbeider("C", "N").verzet_arbeider("C", "ZO").verzet_arbeider("C", "ZW")
    assert board.arbeiders["C"] == (3, 0) and board.winnende_arbeider() == "C"
    board.verzet_arbeider("A", "N").verzet_arbeider("A", "ZO").verzet_arbeider("A", "ZW")
    assert board.niveau("A") == 3 and board.winnende_arbeider() == "A"


# -- the engine --------------------------------------------------------------------------------
def test_setup_phase() -> None:
    state = SantoriniState.initial()
    assert state.in_setup and state.to_move == 0 and state.count_moves() == 300
    state = state.play("c3 b2")
    assert state.workers[:2] == (cell("b2"), cell("c3")) and state.to_move == 1
    with pytest.raises(IllegalMoveError):
        state.play("c3d4")
    state = state.play("d4e5")
    assert not state.in_setup and state.to_move == 0
    assert isinstance(state.legal_moves()[0], Turn)


def test_win_by_moving_up_onto_level_three_without_building() -> None:
    state = SantoriniState.from_str("00000/01230/00000/00000/00000 workers=c2a5,e5e4 turn=1 players=2")
    win = Turn(cell("c2"), cell("d2"), None)
    assert win in state.legal_moves()
    assert Turn(cell("c2"), cell("d2"), cell("c2")) not in state.legal_moves()
    after = state.apply(win)
    assert after.outcome() is not None and after.outcome().winner == 0  # type: ignore[union-attr]
    assert after.outcome().termination == "a worker climbed to level 3"  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="must build"):
        state.apply(Turn(cell("c2"), cell("b2"), None))


def test_player_without_a_turn_loses() -> None:
    # Player 2's workers on a1 and a2 are walled in by domes.
    walled = SantoriniState.from_str("04000/04000/44000/00000/00000 workers=e5e4,a1a2 turn=2 players=2")
    outcome = walled.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == "no legal turn"


def test_three_players_blocked_player_leaves_the_board() -> None:
    text = "04000/04000/44000/00000/00000 workers=e5e4,a1a2,c5c4 turn=1 players=3"
    state = SantoriniState.from_str(text)
    assert state.to_move == 0 and state.outcome() is None
    state = state.play("e5d5e5")
    # seat 2 (a1, a2) cannot move: out, workers gone, seat 3 to move
    assert state.to_move == 2 and state.out == 0b010 and state.workers[2:4] == (-1, -1)
    assert "out=2" in state.to_str()
    assert SantoriniState.from_str(state.to_str()) == state
    state = state.play("c5b5c5")
    assert state.to_move == 0


def test_three_players_last_one_standing_wins() -> None:
    text = "04000/04000/44000/00000/04040 workers=e5e4,a1a2,-  turn=1 players=3 out=3"
    state = SantoriniState.from_str(text)
    after = state.play("e4d4e4")
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == frozenset({0}) and outcome.result_str() == "1-0-0"


def test_four_players_two_teams_share_workers() -> None:
    state = SantoriniState.initial(players=4)
    assert state.colours == 2 and len(state.workers) == 4
    state = state.play("a1b1").play("e5d5")
    assert not state.in_setup and state.to_move == 0
    state = state.play("a1a2a1").play("e5e4e5")
    assert state.to_move == 2 and set(state.my_workers()) == {cell("a2"), cell("b1")}
    state = state.play("b1c1b1")  # the third seat moves the first team's shared workers
    assert state.to_move == 3 and set(state.my_workers()) == {cell("e4"), cell("d5")}
    winning = SantoriniState.from_str("00000/01230/00000/00000/00000 workers=c2a5,e5e4 turn=3 players=4")
    outcome = winning.play("c2d2").outcome()
    assert outcome is not None and outcome.winners == frozenset({0, 2}) and outcome.result_str() == "1-0-1-0"


def test_finite_supply_counts_down_and_runs_out() -> None:
    state = SantoriniState.initial(finite_supply=True, workers=PERFT_START)
    assert state.supply == BOX_SUPPLY
    after = state.play("b3a3a4")
    assert after.supply == (21, 18, 14, 18) and "supply=21,18,14,18" in after.to_str()
    empty = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 supply=0,18,14,18"
    )
    assert empty.outcome() is not None  # no level-1 block is left: nobody can build
    some = SantoriniState.from_str("11111/11111/11111/11111/11110 workers=b3d3,c2c4 turn=1 supply=1,0,14,18")
    assert all(m.build is None or m.build == 24 for m in some.legal_moves())
    assert some.count_moves() == len(some.legal_moves()) > 0


def test_notation() -> None:
    state = SantoriniState.initial(workers=PERFT_START)
    move = state.legal_moves()[0]
    assert state.parse_move(move.to_str()) == move
    assert state.move_from_str("B3-A3-A4") == Turn(cell("b3"), cell("a3"), cell("a4"))
    assert Placement(0, 24).to_str() == "a1e5"
    for bad in ("", "b3", "b3a3a4a5", "b3a9a4", "zz"):
        with pytest.raises(NotationError):
            state.move_from_str(bad)
    with pytest.raises(IllegalMoveError, match="no worker of the player to move"):
        state.play("a1a2a3")
    with pytest.raises(IllegalMoveError, match="cannot build on"):
        state.play("b3a3d3")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0000/00000/00000/00000/00000 workers=-,- turn=1",
        "00005/00000/00000/00000/00000 workers=-,- turn=1",
        "00000/00000/00000/00000/00000 workers=a1a1,-",
        "00000/00000/00000/00000/00000 workers=-,- turn=3",
        "00000/00000/00000/00000/00000 workers=-,- players=5",
        "00000/00000/00000/00000/00000 workers=- ",
        "00000/00000/00000/00000/00000 workers=-,- colour=red",
        "40000/00000/00000/00000/00000 workers=a1b1,-",
    ],
)
def test_bad_position_strings(text: str) -> None:
    with pytest.raises(NotationError):
        SantoriniState.from_str(text)


def test_bad_options() -> None:
    for options in ({"players": 1}, {"players": 5}, {"players": "two"}, {"colour": "red"}):
        with pytest.raises(BordspelError):
            SantoriniState.initial(**options)  # type: ignore[arg-type]
    with pytest.raises(BordspelError, match="need 6 workers"):
        SantoriniState.initial(players=3, workers=PERFT_START)
