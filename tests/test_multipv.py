"""Multi-PV analysis: the best N root moves, each with its score and line, best first."""

from __future__ import annotations

import pytest

from bordspel.ai import analyser
from bordspel.cli import main
from bordspel.core import game_class, new_game

POSITION = "00100/01210/00100/00000/00000 workers=b2d4,c4d2 turn=1 players=2"
WIN_IN_THREE = "00001/11220/01112/31212/10033 workers=e2d4,b5b3 turn=1 players=2"
QUARTO_WIN = "OM../.B.H/LFNI/..A. hand=D"


def test_alphabeta_lines_are_distinct_sorted_and_the_first_is_the_single_best() -> None:
    state = game_class("santorini").from_str(POSITION)
    player = analyser("alphabeta:depth=3", "santorini")
    lines = player.analyse_lines(state, multipv=4)
    moves = [line.move for line in lines]
    assert len(set(moves)) == 4 and [line.multipv for line in lines] == [1, 2, 3, 4]
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    assert all(line.depth == 3 and line.principal_variation[0] == line.move for line in lines)
    assert moves[0] == player.analyse(state).move


def test_a_forced_win_comes_first_with_its_proven_score() -> None:
    state = game_class("santorini").from_str(WIN_IN_THREE)
    lines = analyser("alphabeta:depth=4", "santorini").analyse_lines(state, multipv=3)
    assert lines[0].proven and lines[0].describe() == "win in 3 plies"
    assert all(line.score <= lines[0].score for line in lines[1:])
    assert all(line.proven == (line.result == "win") for line in lines)  # a forced line, or an evaluation


def test_a_solver_win_comes_first_and_the_other_lines_are_searched() -> None:
    state = game_class("quarto").from_str(QUARTO_WIN)
    for spec in ("hard", "mcts:playouts=200"):
        lines = analyser(spec, "quarto", seed=1).analyse_lines(state, multipv=3)
        assert lines[0].proven and lines[0].result == "win", spec
        assert len({line.move for line in lines}) == 3
        assert [line.multipv for line in lines] == [1, 2, 3]


def test_mcts_ranks_its_root_moves_by_visits() -> None:
    state = new_game("quarto").play("A")
    spec = "mcts:playouts=300,solver=0"
    lines = analyser(spec, "quarto", seed=2).analyse_lines(state, multipv=5)
    assert len({line.move for line in lines}) == 5
    assert lines[0].move == analyser(spec, "quarto", seed=2).analyse(state).move


def test_fewer_lines_than_asked_when_fewer_moves_are_legal_and_none_below_one() -> None:
    state = new_game("hermit", size=2)
    player = analyser("alphabeta:depth=2,solver=0", "hermit")
    assert len(player.analyse_lines(state, multipv=50)) == state.count_moves()
    with pytest.raises(ValueError, match="multipv"):
        player.analyse_lines(state, multipv=0)


def test_cli_analyse_multipv(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["analyse", "santorini", POSITION, "--player", "alphabeta", "--depth", "2", "--multipv", "2"])
        == 0
    )
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[:4] for line in printed] == [
        ["line", "1", "depth", "1"],
        ["line", "1", "depth", "2"],
        ["line", "2", "depth", "1"],
        ["line", "2", "depth", "2"],
    ]
    assert main(["analyse", "santorini", "--multipv", "0"]) == 2
