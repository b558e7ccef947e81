"""The ``bordspel`` command: demo, perft, show, games, and errors with exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bordspel.cli import build_parser, main
from bordspel.record import Game

from .variants import IDS, VARIANTS


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "hermit", "2", "-o", "size=5"]) == 0
    out = capsys.readouterr().out
    assert "depth 1: 195 " in out and "depth 2: 30,588 " in out


def test_perft_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    position = "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2"
    assert main(["perft", "santorini", "1", "--position", position]) == 0
    assert "depth 1: 68 " in capsys.readouterr().out


@pytest.mark.parametrize(
    "command, pairs",
    [
        (["train", "hermit", "--size", "6"], ["size=6"]),
        (
            ["perft", "santorini", "1", "--players", "3", "--finite-supply"],
            ["players=3", "finite_supply=yes"],
        ),
        (["play", "quarto", "--no-advanced", "-o", "pieces=p.txt"], ["advanced=no", "pieces=p.txt"]),
        (["arena", "santorini", "random", "random", "--gods", "apollo,pan"], ["gods=apollo,pan"]),
    ],
)
def test_game_options_have_flags_of_their_own(command: list[str], pairs: list[str]) -> None:
    assert sorted(build_parser().parse_args(command).option) == sorted(pairs)


def test_options_that_are_not_a_number_yes_or_no_or_a_word_are_set_with_o_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--seed`` and ``--workers`` keep one meaning: the command's own, where it has one."""
    play = build_parser().parse_args(["play", "santorini", "--seed", "4"])
    assert (play.seed, play.option) == (4, [])
    with pytest.raises(SystemExit):
        build_parser().parse_args(["perft", "santorini", "1", "--seed", "4"])
    assert main(["perft", "santorini", "1", "-o", "workers=4"]) == 2
    assert "workers is a list of squares" in capsys.readouterr().err


@pytest.mark.parametrize("game, options", VARIANTS, ids=IDS)
def test_demo(game: str, options: dict[str, object], capsys: pytest.CaptureFixture[str]) -> None:
    flags = [word for key, value in options.items() for word in ("-o", f"{key}={value}")]
    assert main(["demo", game, *flags, "--seed", "4", "--plain"]) == 0
    assert "result " in capsys.readouterr().out


def test_bad_option_gives_a_reason_and_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hermit", "-o", "sise=4"]) == 2
    assert "unknown option 'sise=4' for hermit; it takes size=..." in capsys.readouterr().err
    assert main(["demo", "quarto", "-o", "advanced=maybe"]) == 2
    assert main(["demo", "hermit", "-o", "size=x"]) == 2


def test_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new("hermit", size=3)
    game.play("Ra1H")
    game.play("Bc3U")
    path = tmp_path / "game.txt"
    game.write(path)
    assert main(["show", str(path), "--plain", "--all"]) == 0
    out = capsys.readouterr().out
    assert "R R ." in out and "2. Bc3U" in out and "result *" in out
    assert main(["show", str(path), "--svg", str(tmp_path / "pics")]) == 0
    assert len(list((tmp_path / "pics").glob("*.svg"))) == 3
    assert main(["show", str(tmp_path / "nope.txt")]) == 2


def test_module_entry_point_and_games() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bordspel", "games"], capture_output=True, text=True, check=True
    )
    assert "santorini  options: players=2, finite_supply=False" in result.stdout
