"""Records as game trees: variations, comments and annotations kept and written back; several
games a file, read one at a time; malformed move trees named by line."""

from __future__ import annotations

import inspect
import io
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bordspel.core import BordspelError, new_game
from bordspel.games.quarto.engine import DEFAULT_PIECES, PieceSet
from bordspel.record import (
    MAX_VARIATION_DEPTH,
    Game,
    GameNode,
    RecordError,
    RecordReader,
    read_games,
    write_games,
)

from .test_conformance import STARTS

ANNOTATED = """[Game "hermit"]
[Start "..../..../..../...."]
[Event "club night"]
[Result "*"]

{A short game.} 1. Ra1H $1 {the usual start} (1. Ra1V {also good} 1... Bc1U)
(1. Rb2U) 1... Bc1U 2. Yc2U ({instead} 2. Yd4U $2 $4) *
"""


def shape(node: GameNode) -> tuple[Any, ...]:
    """Everything a record keeps of a node and the tree after it."""
    move = None if node.parent is None else node.move.to_str()
    starting = "" if node.is_main_variation() else node.starting_comment
    return (move, node.comment, starting, sorted(node.nags), [shape(child) for child in node.variations])


def test_variations_comments_and_annotations_are_read() -> None:
    game = Game.from_record(ANNOTATED)
    root = game.root
    assert root.comment == "A short game." and game.tags == {"Event": "club night"}
    assert [m.to_str() for m in game.moves] == ["Ra1H", "Bc1U", "Yc2U"]
    first, second, third = root.variations
    assert (first.comment, first.nags) == ("the usual start", {1})
    assert (second.move.to_str(), second.comment, third.move.to_str()) == ("Ra1V", "also good", "Rb2U")
    assert [n.move.to_str() for n in second.mainline()] == ["Bc1U"] and not second.is_mainline()
    alternative = first.variations[0].variations[1]
    assert (alternative.move.to_str(), alternative.starting_comment, alternative.nags) == (
        "Yd4U",
        "instead",
        {2, 4},
    )
    assert alternative.state == new_game("hermit", size=4).play("Ra1H").play("Bc1U").play("Yd4U")


def test_annotated_record_is_written_back_as_it_was() -> None:
    assert Game.from_record(ANNOTATED).to_record() == ANNOTATED


def test_old_records_read_as_before() -> None:
    old = '[Game "quarto"]\n[Start "..../..../..../.... hand=-"]\n[Result "*"]\n\n1. B c3:A 2. a1:P *\n'
    game = Game.from_record(old)
    assert [m.to_str() for m in game.moves] == ["B", "c3:A", "a1:P"] and game.to_record() == old


@st.composite
def game_trees(draw: st.DrawFn) -> Game:
    """A random game tree: moves added anywhere, with comments, annotations and tags."""
    name, options = draw(st.sampled_from(STARTS))
    rng = draw(st.randoms(use_true_random=False))
    comments = st.text(max_size=12).map(lambda text: text.replace("}", "").strip())
    game = Game(
        new_game(name, **options),
        draw(
            st.dictionaries(
                st.from_regex(r"[A-Z][a-z]{0,5}", fullmatch=True), st.text(max_size=8), max_size=3
            )
        ),
    )
    nodes = [game.root]
    for _ in range(draw(st.integers(0, 25))):
        node = nodes[draw(st.integers(0, len(nodes) - 1))]
        if not node.state.is_over():
            child = node.add_variation(node.state.random_move(rng), comment=draw(comments))
            child.nags = draw(st.sets(st.integers(0, 255), max_size=2))
            nodes.append(child)
    for node in nodes[1:]:
        if not node.is_main_variation():
            node.starting_comment = draw(comments)
    game.root.comment = draw(comments)
    return game


@settings(max_examples=60, deadline=None)
@given(game_trees())
def test_game_trees_round_trip(game: Game) -> None:
    text = game.to_record()
    again = Game.from_record(text)
    assert shape(again.root) == shape(game.root) and again.tags == game.tags
    assert again.states == game.states and again.to_record() == text


@settings(max_examples=20, deadline=None)
@given(st.lists(game_trees(), max_size=4))
def test_several_games_round_trip_through_a_file_object(games: list[Game]) -> None:
    handle = io.StringIO()
    write_games(handle, games)
    handle.seek(0)
    read = list(read_games(handle))
    assert [shape(g.root) for g in read] == [shape(g.root) for g in games]
    assert [g.tags for g in read] == [g.tags for g in games]


@pytest.mark.slow
def test_ten_thousand_games_are_streamed_one_at_a_time(tmp_path: Path) -> None:
    rng = random.Random(5)
    samples = []
    for size in (3, 4):
        game = Game.new("hermit", size=size)
        while not game.state.is_over():
            game.play(game.state.random_move(rng))
        samples.append(game)

    def numbered() -> Any:
        for number in range(10_000):
            sample = samples[number % 2]
            sample.tags["Round"] = str(number + 1)
            yield sample

    path = tmp_path / "many.txt"
    write_games(path, numbered())
    size = path.stat().st_size
    with path.open(encoding="utf-8") as handle:
        games = iter(RecordReader(handle))
        first = next(games)
        assert first.tags["Round"] == "1" and handle.tell() < size / 1000
        rounds = [int(game.tags["Round"]) for game in games]
    assert rounds == list(range(2, 10_001))
    assert sum(1 for _ in read_games(path)) == 10_000


def test_reading_goes_on_after_a_malformed_game() -> None:
    good = Game.from_record(ANNOTATED)
    bad = ANNOTATED.replace("Yc2U", "Yc2X")
    reader = RecordReader(
        io.StringIO("\n".join([ANNOTATED, bad, '[Game "nope"]\n[Event "x"]\n\n1. a *\n', ANNOTATED]))
    )
    assert shape(next(iter(reader)).root) == shape(good.root)
    with pytest.raises(RecordError, match="line 15: "):
        reader.read_game()
    with pytest.raises(RecordError, match="unknown game 'nope'"):
        reader.read_game()
    last = reader.read_game()
    assert last is not None and shape(last.root) == shape(good.root)
    assert reader.read_game() is None


def test_game_read_refuses_a_file_of_several_games(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    write_games(path, [Game.new("quarto"), Game.new("hermit")])
    with pytest.raises(RecordError, match="line 7: a second game starts here"):
        Game.read(path)
    assert [g.start.name for g in read_games(path)] == ["quarto", "hermit"]
    with pytest.raises(RecordError, match="cannot read"):
        list(read_games(tmp_path / "missing.txt"))


def test_a_file_that_is_not_utf8_stops_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "binary.txt"
    path.write_bytes(ANNOTATED.encode() * 200 + b"\n\xff\xfe")
    games = read_games(path)
    assert next(games).tags == {"Event": "club night"}
    with pytest.raises(RecordError, match="not UTF-8"):
        list(games)


MOVES = '[Game "hermit"]\n[Start "..../..../..../...."]\n\n'


@pytest.mark.parametrize(
    "movetext, message",
    [
        ("1. Ra1H (1. Ra1V", "a variation opened with \\( is never closed"),
        ("1. Ra1H ) Bc1U", "line 4: a \\) closes no variation"),
        ("(1. Ra1H)", "line 4: a variation \\( must follow a move"),
        ("1. Ra1H (( 1. Ra1V))", "line 4: a variation \\( must follow a move"),
        ("1. Ra1H () Bc1U", "line 4: a variation \\(\\) holds at least one move"),
        ("$1 1. Ra1H", "line 4: an annotation \\$n must follow a move"),
        ("1. Ra1H $256", "line 4: an annotation \\$n goes up to \\$255"),
        ("1. Ra1H $1234", "line 4: '\\$1234': unknown colour"),
        ("1. Ra1H * Bc1U", "line 4: 'Bc1U' comes after the result \\*"),
        ("1. Ra1H (1. Ra1V *) *", "line 4: the result \\* stands inside a variation"),
        ("1. Ra1H } Bc1U", "line 4: a } closes no comment"),
        ("1. Ra1H\n{open\n\n", "line 5: a comment opened with { is never closed"),
        ("1. Ra1H\n\n(1. Ra1V Bq9U)", "line 6: 'Bq9U' is not a square|line 6: square q9"),
        ("{just a comment} (1. Ra1V)", "line 4: a variation \\( must follow a move"),
    ],
)
def test_malformed_move_trees_name_the_problem(movetext: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Game.from_record(MOVES + movetext + "\n")


def test_variations_nest_to_a_limit() -> None:
    deep = "1. Ra1H" + " (1. Ra1V" * MAX_VARIATION_DEPTH + ")" * MAX_VARIATION_DEPTH
    assert len(Game.from_record(MOVES + deep).root.variations) == MAX_VARIATION_DEPTH + 1
    with pytest.raises(RecordError, match="variations nest at most 100 deep"):
        Game.from_record(MOVES + "1. Ra1H" + " (1. Ra1V" * (MAX_VARIATION_DEPTH + 1))


def test_a_game_in_a_stream_is_bounded() -> None:
    endless = MOVES + "{" + "x" * 1_000_001
    with pytest.raises(RecordError, match="line 4: a game's record is at most 1000000 characters"):
        list(read_games(io.StringIO(endless)))


def test_long_lines_with_alternatives_are_written_and_read_without_recursion() -> None:
    game = Game.new("hermit", size=20)
    rng = random.Random(1)
    node = game.root
    for _ in range(120):
        main = node.add_variation(node.state.random_move(rng))
        node.add_variation(node.state.random_move(rng))
        node = main
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 60)
    try:
        text = game.to_record()
        again = Game.from_record(text)
    finally:
        sys.setrecursionlimit(limit)
    assert again.end().ply == 120 and again.to_record() == text


def test_editing_the_tree() -> None:
    game = Game.new("hermit", size=3)
    first = game.play("Ra1H")
    other = game.root.add_main_variation("Ra1V", comment="better")
    assert game.moves == [other.move] and game.root.variations[1].move == first
    other.add_variation("Bc3U")
    assert game.root.variations[1].is_mainline() is False and game.end().move.to_str() == "Bc3U"
    game.root.variations[1].promote_to_main()
    assert game.moves == [first]
    game.root.remove_variation(game.root.variations[1])
    assert len(game.root.variations) == 1
    with pytest.raises(BordspelError, match="not a variation"):
        game.root.remove_variation(other)
    with pytest.raises(BordspelError):
        game.root.add_variation("Zz9U")
    assert len(game.root.variations) == 1


def test_undo_takes_back_the_alternatives_too() -> None:
    game = Game.new("hermit", size=3)
    game.play("Ra1H")
    game.root.add_variation("Ra1V")
    assert game.undo().to_str() == "Ra1H" and game.root.variations == [] and game.state == game.start


@pytest.mark.parametrize("char", "()*")
def test_quarto_pieces_cannot_be_written_as_record_syntax(char: str) -> None:
    with pytest.raises(BordspelError, match="piece characters cannot be"):
        PieceSet(DEFAULT_PIECES.characteristics, DEFAULT_PIECES.values, (char, *DEFAULT_PIECES.chars[1:]))


def test_many_comments_on_one_move_are_joined_once(monkeypatch: pytest.MonkeyPatch) -> None:
    slot = GameNode.__dict__["comment"]
    written: list[int] = []

    def write(node: GameNode, value: str) -> None:
        written.append(len(value))
        slot.__set__(node, value)

    monkeypatch.setattr(GameNode, "comment", property(slot.__get__, write))
    movetext = "1. Ra1H " + "{a comment}" * 20_000 + " Bc1U {last} *"
    game = Game.from_record(MOVES + movetext)
    assert game.root.next().comment == " ".join(["a comment"] * 20_000)
    assert sum(written) < 2 * len(movetext)


@pytest.mark.parametrize(
    "text",
    ['[Game "' + "\\" * 50_000 + "\n", MOVES + "1. Ra1H * " + "x" * 50_000, MOVES + "1. " + "R" * 50_000],
    ids=["tag", "after the result", "move"],
)
def test_errors_quote_long_input_cut_short(text: str) -> None:
    with pytest.raises(RecordError) as error:
        Game.from_record(text)
    assert len(str(error.value)) < 200


SEMICOLONS = """[Game "hermit"]
[Start "..../..../..../...."]

; a game comment
1. Ra1H ; the usual start {still text}
1... Bc1U (; a different idea
1... Bd4U) 2. Yc2U {braced} ; and more
*
"""


def test_semicolon_comments_run_to_the_end_of_the_line_and_belong_to_the_move_before() -> None:
    game = Game.from_record(SEMICOLONS)
    first = game.root.next()
    assert first is not None and game.root.comment == "a game comment"
    assert first.comment == "the usual start {still text}"
    assert first.variations[1].starting_comment == "a different idea"
    assert game.end().comment == "braced and more"
    assert [m.to_str() for m in game.moves] == ["Ra1H", "Bc1U", "Yc2U"]


def test_semicolon_comments_are_written_back_in_braces_or_after_a_semicolon_when_they_hold_a_brace() -> None:
    text = Game.from_record(SEMICOLONS).to_record()
    assert "{a game comment} 1. Ra1H ; the usual start {still text}\n1... Bc1U" in text
    assert "({a different idea} 1... Bd4U)" in text and "{braced and more}" in text
    assert shape(Game.from_record(text).root) == shape(Game.from_record(SEMICOLONS).root)


def test_a_semicolon_after_the_result_is_refused_like_a_brace() -> None:
    with pytest.raises(RecordError, match="comes after the result"):
        Game.from_record(SEMICOLONS.replace("*\n", "* ; late\n"))


@pytest.mark.parametrize("where", ["root", "move", "start of a variation"])
def test_a_comment_with_a_closing_brace_and_a_line_break_is_refused_when_writing(where: str) -> None:
    game = Game.from_record(ANNOTATED)
    node = {"root": game.root, "move": game.end(), "start of a variation": game.root.variations[1]}[where]
    if where == "start of a variation":
        node.starting_comment = "a }\nhere"
    else:
        node.comment = "a }\nhere"
    with pytest.raises(RecordError, match="holds a } and a line break"):
        game.to_record()


COMMENTS = st.text(st.characters(blacklist_categories=["Cs"]), max_size=20).filter(
    lambda text: "}" not in text or not {"\n", "\r"} & set(text)
)


@settings(max_examples=60, deadline=None)
@given(COMMENTS, COMMENTS, COMMENTS)
def test_any_writable_comment_round_trips_at_the_start_after_a_move_and_in_a_variation(
    first: str, second: str, third: str
) -> None:
    first, second, third = first.strip(), second.strip(), third.strip()  # as a record reads them
    game = Game.from_record(ANNOTATED)
    variation = game.root.variations[1]
    game.root.comment, variation.comment, variation.starting_comment = first, second, third
    game.end().comment = second
    text = game.to_record()
    again = Game.from_record(text)
    kept = (first, second, third, second)
    variation = again.root.variations[1]
    assert (again.root.comment, variation.comment, variation.starting_comment, again.end().comment) == kept
    assert again.to_record() == text
