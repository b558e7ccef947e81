"""Gods in the terminal: the cards shown at the start and on request, god turns typed and played."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from bordspel import ansi
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.gods import GOD_TEXT
from bordspel.play import Session
from bordspel.record import Game

START = "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods={}"


def session(gods: str, lines: list[str]) -> str:
    inputs = iter(lines)
    out = io.StringIO()
    state = SantoriniState.from_str(START.format(gods))
    Session(Game(state), ["human", "human"], colour=False, out=out, read=lambda _: next(inputs)).run()
    return out.getvalue()


def test_the_cards_are_shown_at_the_start_and_on_request() -> None:
    text = session("atlas,chaos:pan/apollo/3", ["cards", "quit"])
    assert text.count(GOD_TEXT["atlas"]) == 2
    assert "face-up: Pan: " + GOD_TEXT["pan"] in text


def test_god_turns_are_typed_and_refused_with_reasons() -> None:
    text = session("atlas,pan", ["b3a3+a2*", "c2c1+c2+c2", "position", "quit"])
    assert "after c2c1+c2, c2 is not allowed" in text
    assert "00000/50000/00000/00000/00000" in text


def test_the_picture_names_the_gods_and_marks_a_god_turn() -> None:
    state = SantoriniState.from_str(START.format("atlas,pan"))
    move = state.move_from_str("b3a3+a2*")
    picture = ansi.render(state.apply(move), move)
    assert "gods: 1 Atlas · 2 Pan" in picture and ansi.MARK in picture
    assert ansi.notes(SantoriniState.initial()) == ""


def test_bordspel_play_takes_gods_and_a_seed() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bordspel",
            "play",
            "santorini",
            "-o",
            "gods=random",
            "-o",
            "seed=4",
            "--plain",
        ],
        input="cards\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    gods = SantoriniState.initial(gods="random", seed=4).god_cards()
    assert all(line in done.stdout for line in gods)


def test_the_web_app_starts_god_games_and_describes_god_turns() -> None:
    from bordspel.core import BadOption
    from bordspel.games.santorini.web import move_parts
    from bordspel.web.options import start_state

    state = start_state("santorini", {"gods": "atlas,pan", "players": 2})
    assert isinstance(state, SantoriniState) and state.god_of(0) == "atlas"
    parts = move_parts(SantoriniState.from_str(START.format("atlas,pan")).move_from_str("b3a3+a2*"))
    assert parts == {"paths": [["square:b3", "square:a3", "square:a2", "button:dome"]]}
    for bad in ("zeus,zorro", 3, "x" * 100):
        with pytest.raises(BadOption):
            start_state("santorini", {"gods": bad})
