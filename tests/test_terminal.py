"""The terminal as a person sees it, through a pseudo-terminal: pictures, last move, Ctrl-C,
progress lines, and the arena's refusals and Elo bounds."""

from __future__ import annotations

import io
import re
import signal
import sys

import pexpect
import pytest

from bordspel import ansi
from bordspel.ai.arena import PlayerStats, Standings, elo_estimate
from bordspel.cli import main
from bordspel.core import new_game
from bordspel.games.quarto.engine import QuartoState
from bordspel.progress import ProgressLine

LEGEND = "▲ tall, ▽ short"


def _interrupts_as_in_a_terminal() -> None:
    """A shell without job control starts background jobs ignoring Ctrl-C, and Python keeps an
    ignored SIGINT ignored: give the child a person's terminal whoever started the tests."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "bordspel", *args],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
        preexec_fn=_interrupts_as_in_a_terminal,
    )


GIVE = r"Hand your opponent a piece \(like .\): "
PLACE = r"Place piece (.), then hand your opponent a piece \(like [a-d][1-4]:.\): "


def test_quarto_in_a_terminal_shows_every_property_the_last_move_and_stops_on_ctrl_c() -> None:
    child = spawn("play", "quarto", "--vs", "easy", "--seed", "1")
    child.expect(GIVE)
    assert "to give:" in child.before and LEGEND in child.before and "[A▲○]" in child.before
    child.sendline("B")  # hand over B; the computer places it and hands a piece back
    child.expect(PLACE)
    after = child.before
    assert "player 2 (easy) plays" in after
    board, to_give = after.rsplit("to give:", 1)
    assert "\x1b[1;7;31m[B▽○]" in board  # the computer's placement of B is marked
    assert "[B▽○]" not in to_give
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "interrupted" in child.before and "Traceback" not in child.before
    assert child.exitstatus == 130


def test_plain_quarto_marks_the_computers_placement_without_colour() -> None:
    child = spawn("play", "quarto", "--vs", "easy", "--seed", "1", "--plain")
    child.expect(GIVE)
    child.sendline("B")
    child.expect(PLACE)
    board = child.before.rsplit("in hand:", 1)[0]
    assert "\x1b" not in board and board.count(">[B▽○▪]<") == 1  # only the piece just placed
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_prompt_asks_the_person_what_to_type_in_words() -> None:
    """Against the computer the prompt speaks to the person, in the words of the game's guide."""
    quarto = spawn("play", "quarto", "--vs", "easy", "--seed", "1", "--plain")
    quarto.expect_exact("Hand your opponent a piece (like I): ")
    assert "player 1" not in quarto.before
    quarto.sendline("B")
    quarto.expect(PLACE)
    handed = quarto.match.group(1)
    assert re.search(rf"player 2 \(easy\) plays [a-d][1-4]:{handed}\b", quarto.before)
    santorini = spawn("play", "santorini", "--vs", "easy", "--seed", "1", "--plain")
    santorini.expect_exact("Place your first worker, then place your second worker (like c2b3): ")
    santorini.sendline("a1e5")
    santorini.expect(r"Your turn \(worker, move, build, like (?:[a-e][1-5]){3}\): ")
    hermit = spawn("play", "hermit", "-o", "size=5", "--vs", "easy", "--plain")
    words = "colour R/Y/B, square, then U upright, H horizontal or V vertical"
    hermit.expect(rf"Your turn \({words}, like [RYB][a-e][1-5][UHV]\): ")
    assert "Hermit: you play first, against easy (the computer)." in hermit.before
    assert "to move" not in hermit.before
    hermit.sendline("Rc3U")
    hermit.expect("Your turn")
    assert "player 2 (easy) plays" in hermit.before and "player 1" not in hermit.before
    for child in (quarto, santorini, hermit):
        child.sendline("quit")
        child.expect(pexpect.EOF)


def test_after_the_game_help_gives_the_commands_and_enter_leaves() -> None:
    hermit = spawn("play", "hermit", "-o", "size=2", "--vs", "easy", "--plain")
    over = "Game over: save FILE keeps the record, undo takes back, Enter leaves: "
    while hermit.expect([r"like (\w+)\): ", re.escape(over)]) == 0:
        hermit.sendline(hermit.match.group(1))  # the prompt's example is a legal move
    assert "won (no legal move)" in hermit.before
    hermit.sendline("help")
    hermit.expect_exact("Game over:")
    assert "The game is over; press Enter to leave" in hermit.before and "Type a move" not in hermit.before
    hermit.sendline("")
    hermit.expect(pexpect.EOF)
    hermit.close()
    assert hermit.exitstatus == 0


def test_the_last_move_is_marked_in_every_game() -> None:
    quarto = QuartoState.from_str("..../..../..../.... hand=A")
    move = quarto.parse_move("b2:C")
    lines = ansi.render(quarto.apply(move), move).splitlines()
    assert ansi.MARK + " " in lines[2] and ansi.MARK not in lines[1]
    hermit = new_game("hermit", size=3)
    move = hermit.parse_move("Rb1V")
    lines = ansi.render(hermit.apply(move), move).splitlines()
    assert [line.count(ansi.MARK) >= 1 for line in lines[1:]] == [True, True, False]
    santorini = new_game("santorini").play("a1e5").play("c3d4")
    move = santorini.parse_move("a1b2c1")
    lines = ansi.render(santorini.apply(move), move).splitlines()
    marked_cells = [line.count(ansi.MARK + "\x1b[30;") for line in lines[1:]]
    assert marked_cells == [2, 1, 0, 0, 0]  # a1 and c1 (start and build), b2 (target)


def test_santorini_levels_sit_under_their_column_letters() -> None:
    santorini = new_game("santorini").play("a1e5").play("c3d4")
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in ansi.render(santorini).splitlines()]
    letters = [lines[0].index(letter) for letter in "abcde"]
    for line in lines[1:6]:
        assert [line[column] for column in letters] == ["0"] * 5, line


def test_plain_quarto_pictures_name_every_property_in_symbols() -> None:
    state = QuartoState.from_str("AP../..../..../.... hand=C")
    text = ansi.render(state, colour=False)
    assert "\x1b" not in text
    assert "[A▲○▪]" in text and "(P▽●▫)" in text and "in hand: [C▲○▫]" in text
    assert "▪ red, ▫ blue" in text and "[ ] square, ( ) round" in text and "○ hollow, ● solid" in text


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_the_line_only_on_a_terminal() -> None:
    terminal, log = FakeTerminal(), io.StringIO()
    for stream in (terminal, log):
        line = ProgressLine(stream, every=3600)
        for done in range(3):
            line.update(f"{done}/3")
        line.close()
    assert terminal.getvalue() == "\r0/3\r1/3\r2/3\n"
    assert log.getvalue() == "0/3\n2/3\n"  # the first at once, then the last at the end


def test_solve_progress_in_a_log_has_no_carriage_returns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "hermit", "3"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "first moves settled" in err


def test_solve_progress_on_a_terminal_is_rewritten_in_place() -> None:
    child = spawn("solve", "hermit", "3")
    child.expect(pexpect.EOF)
    assert "\rfirst moves settled" in child.before


def test_arena_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "quarto", "random", "greedy", "-n", "0"]) == 2
    assert "at least one game" in capsys.readouterr().err


def test_a_perfect_score_shows_its_elo_as_a_bound() -> None:
    sweep = PlayerStats("x", wins=20, scores=[1.0] * 20)
    low, high = sweep.interval()
    assert elo_estimate(1.0, low, high).startswith(">=+")
    assert elo_estimate(0.0, 0.0, 1 - low).startswith("<=-")
    table = Standings({"x": sweep}).table()
    assert "+1200" not in table and ">=+" in table and "+inf" in table
