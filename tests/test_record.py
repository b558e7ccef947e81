"""Game records: writing and reading every game and variant, undo, and errors naming the line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bordspel.core import BordspelError, IllegalMoveError, new_game
from bordspel.games.quarto.engine import DUTCH_PIECES
from bordspel.record import Game, RecordError

from .test_conformance import STARTS


@pytest.mark.parametrize("game, options", STARTS, ids=[f"{g}-{o}" for g, o in STARTS])
def test_records_round_trip(game: str, options: dict[str, object]) -> None:
    rng = random.Random(3)
    played = Game(new_game(game, **options), {"Event": 'club "night"', "Site": "a\\b"})
    while not played.state.is_over():
        played.play(played.state.random_move(rng))
    text = played.to_record()
    again = Game.from_record(text)
    assert again.moves == played.moves and again.states == played.states
    assert again.tags == played.tags and again.to_record() == text
    outcome = played.outcome()
    assert outcome is not None and f'[Result "{outcome.result_str()}"]' in text


def test_unfinished_game_and_custom_pieces() -> None:
    played = Game(new_game("quarto", pieces=DUTCH_PIECES))
    for move in ("B", "c3:A", "a1:P"):
        played.play(move)
    text = played.to_record()
    assert '[Result "*"]' in text and "1. B c3:A 2. a1:P *" in text
    assert Game.from_record(text).state == played.state


def test_undo() -> None:
    played = Game.new("hermit", size=3)
    first = played.play("Ra1H")
    played.play("Bc3U")
    assert played.undo().to_str() == "Bc3U" and played.undo() == first
    assert played.state == new_game("hermit", size=3)
    with pytest.raises(BordspelError, match="no move to undo"):
        played.undo()


def test_refused_move_leaves_the_game_as_it_was() -> None:
    played = Game.new("santorini")
    played.play("a1b1")
    before = (list(played.moves), list(played.states))
    for bad in ("a1b2", "zz", "a1e5c3"):
        with pytest.raises(BordspelError):
            played.play(bad)
    with pytest.raises(IllegalMoveError):
        played.play(played.states[0].legal_moves()[0])
    assert (played.moves, played.states) == before


RECORD = """[Game "hermit"]
[Start "..../..../..../...."]
[Result "*"]

1. Ra1H Bc1U {a comment
over two lines} 2. Yc2U
"""


def test_reading_comments_and_numbers() -> None:
    played = Game.from_record(RECORD)
    assert [m.to_str() for m in played.moves] == ["Ra1H", "Bc1U", "Yc2U"]


@pytest.mark.parametrize(
    "text, message",
    [
        (RECORD.replace("Yc2U", "Yc2X"), "line 6: "),
        (RECORD.replace("Yc2U", "Ra2U"), "line 6: Ra2U: "),
        (RECORD.replace('[Game "hermit"]', '[Game "chess"]'), "unknown game 'chess'"),
        (RECORD.replace('[Game "hermit"]', "[Game hermit]"), "line 1: a tag is written"),
        (RECORD.replace('[Game "hermit"]\n', ""), "line 1: a record starts with a \\[Game"),
        (RECORD.replace('[Result "*"]', '[Result "1-0"]'), "the result is 1-0"),
        (RECORD.replace('...."]', '..."]'), "tags: "),
        (RECORD + '[Event "late"]\n', "line 7: a second game starts here"),
        (RECORD.replace('[Result "*"]', '[Termination "time"]\n[Result "1-0-0"]'), "3 scores for 2 players"),
        (RECORD.replace('[Result "*"]', '[Termination "time"]\n[Result "0-0"]'), "neither a draw nor"),
    ],
)
def test_malformed_records_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Game.from_record(text)


def test_write_and_read_files(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    played = Game.new("quarto", advanced=True)
    played.play("A")
    played.write(path)
    assert Game.read(path).state == played.state
    with pytest.raises(RecordError, match="cannot read"):
        Game.read(tmp_path / "missing.txt")
    (tmp_path / "binary").write_bytes(b"\xff\xfe")
    with pytest.raises(RecordError, match="UTF-8"):
        Game.read(tmp_path / "binary")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("result, winners", [("1-0", {0}), ("0-1", {1}), ("1/2-1/2", set())])
def test_an_ending_the_moves_do_not_reach_is_kept_with_its_reason(result: str, winners: set[int]) -> None:
    text = RECORD.replace('[Result "*"]', f'[Termination "agreement"]\n[Result "{result}"]')
    text = text.replace(" *\n", f" {result}\n")
    game = Game.from_record(text)
    assert game.ending is not None and game.ending.winners == winners
    assert game.outcome() == game.ending and game.ending.termination == "agreement"
    assert "Termination" not in game.tags and Game.from_record(game.to_record()).outcome() == game.ending
