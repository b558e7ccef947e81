"""``bordspel play`` end to end through its input and output, for every game."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bordspel.core import game_class, new_game
from bordspel.play import Session, seats_for
from bordspel.record import Game

from .variants import VARIANTS

PLUGIN_CLI = Path(__file__).parent / "plugin_cli.py"


def _words(options: dict[str, object]) -> list[str]:
    return [
        f"{key}={('yes' if value else 'no') if isinstance(value, bool) else value}"
        for key, value in options.items()
    ]


GAMES = [(game, _words(options)) for game, options in VARIANTS]


def bordspel(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, str(PLUGIN_CLI), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def read_until_prompt(process: subprocess.Popen[str]) -> str:
    """Output up to the next prompt (``Your turn (…, like c3d4e4): ``, ``Game over: … Enter leaves: ``),
    or to the end."""
    assert process.stdout is not None
    seen = ""
    while not seen.endswith(("> ", "): ", "Enter leaves: ")):
        char = process.stdout.read(1)
        if not char:
            break
        seen += char
    return seen


@pytest.mark.parametrize("game, options", GAMES)
def test_play_against_the_computer_to_the_end(game: str, options: list[str]) -> None:
    """The person asks for the position and plays a legal move, until the result appears."""
    rng = random.Random(1)
    flags = [flag for option in options for flag in ("-o", option)]
    process = bordspel("play", game, *flags, "--vs", "easy", "--seed", "2", "--plain")
    assert process.stdin is not None
    output = read_until_prompt(process)
    for _ in range(200):
        if "result " in output:
            break
        process.stdin.write("position\n")
        process.stdin.flush()
        position = read_until_prompt(process).splitlines()[0]
        state = game_class(game).from_str(position)
        process.stdin.write(f"{rng.choice(state.legal_moves()).to_str()}\n")
        process.stdin.flush()
        output = read_until_prompt(process)
    process.stdin.write("quit\n")
    process.stdin.flush()
    assert process.wait(timeout=30) == 0
    assert "result " in output and "Traceback" not in output


@pytest.mark.parametrize("game, options", GAMES)
def test_hotseat_with_mistakes_and_commands(game: str, options: list[str], tmp_path: Path) -> None:
    rng = random.Random(3)
    kwargs = {k: int(v) if v.isdigit() else v == "yes" for k, _, v in (o.partition("=") for o in options)}
    state = new_game(game, **kwargs)
    lines = ["nonsense", "moves", "undo", "help"]
    while not state.is_over():
        move = state.random_move(rng)
        lines.append(move.to_str())
        state = state.apply(move)
    lines += [f"save {tmp_path / 'game.txt'}", "quit"]
    flags = [flag for option in options for flag in ("-o", option)]
    done = subprocess.run(
        [sys.executable, str(PLUGIN_CLI), "play", game, *flags, "--hotseat", "--plain"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "(type help for commands)" in done.stdout and "there is no move to undo" in done.stdout
    outcome = state.outcome()
    assert outcome is not None and f"result {outcome.result_str()}" in done.stdout
    assert Game.read(tmp_path / "game.txt").state == state


def test_undo_hint_save_and_load(tmp_path: Path) -> None:
    saved, missing = tmp_path / "a.txt", tmp_path / "missing.txt"
    inputs = iter(
        [
            "Ra1U",
            "undo",
            "hint",
            "Bb2U",
            f"save {saved}",
            "undo",
            f"load {saved}",
            "load",
            f"load {missing}",
            "quit",
        ]
    )
    out = io.StringIO()
    seats = seats_for(2, 1, "random", False, [])
    session = Session(
        Game(new_game("hermit", size=3)), seats, colour=False, seed=1, out=out, read=lambda _: next(inputs)
    )
    assert session.run() == 0
    text = out.getvalue()
    assert (
        "hint: " in text and "saved to" in text and "load needs a file name" in text and "cannot read" in text
    )
    assert session.game.moves[0].to_str() == "Bb2U" and len(session.game.moves) == 2


def test_seat_choices() -> None:
    assert seats_for(3, 2, "hard", False, ["3=easy"]) == ["hard", "human", "easy"]
    assert seats_for(2, 1, "hard", True, []) == ["human", "human"]
    with pytest.raises(Exception, match="--seat is from 1 to 2"):
        seats_for(2, 3, "hard", False, [])
    with pytest.raises(Exception, match="SEAT=PLAYER"):
        seats_for(2, 1, "hard", False, ["x=easy"])


def test_play_refuses_unknown_players() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bordspel", "play", "quarto", "--vs", "wizard"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "unknown player 'wizard'" in done.stderr
