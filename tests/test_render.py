"""Pictures: SVG documents for every game (valid XML, the right pieces) and terminal colours."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from bordspel import ansi, svg
from bordspel.core import BordspelError, NotationError, State, new_game
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.svg import BLOCK_COLOURS
from bordspel.games.quarto.engine import QuartoState
from bordspel.games.quarto.svg import piece_colours, piece_svg
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.svg import DOME_COLOUR, TIER_FILLS, WORKER_COLOURS

from .test_conformance import STARTS

SVG = "{http://www.w3.org/2000/svg}"


def played(state: State, plies: int, seed: int = 1) -> State:
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state = state.apply(state.random_move(rng))
    return state


@pytest.mark.parametrize("game, options", STARTS, ids=[f"{g}-{o}" for g, o in STARTS])
def test_every_position_draws(game: str, options: dict[str, object]) -> None:
    state = played(new_game(game, **options), 12)
    root = ET.fromstring(svg.render(state))
    assert root.tag == f"{SVG}svg" and state._repr_svg_() == svg.render(state)
    assert ansi.render(state).count("\n") >= state.num_players - 1


def test_hermit_blocks_in_their_colours() -> None:
    root = ET.fromstring(svg.render(HermitState.from_str("RRB./..YR/BB.R/.RYY")))
    fills = [r.get("fill") for r in root.iter(f"{SVG}rect")]
    assert fills.count(BLOCK_COLOURS["R"]) == 3 and fills.count(BLOCK_COLOURS["B"]) == 2
    assert fills.count(BLOCK_COLOURS["Y"]) == 2


def test_santorini_levels_are_stacked_tiers_under_domes_and_workers_in_colours() -> None:
    state = SantoriniState.from_str("12340/00000/00000/00000/00000 workers=a2b2,c2d2 turn=1 players=2")
    root = ET.fromstring(svg.render(state))
    tiers = [r for r in root.iter(f"{SVG}rect") if r.get("fill") in TIER_FILLS]
    assert len(tiers) == 1 + 2 + 3 + 3  # a tier per level: level 3 reads as three steps
    circles = list(root.iter(f"{SVG}circle"))
    assert sum(c.get("fill") == DOME_COLOUR for c in circles) == 1
    workers = [c for c in circles if c.get("class") == "worker"]
    assert [c.get("fill") for c in workers] == [WORKER_COLOURS[0]] * 2 + [WORKER_COLOURS[1]] * 2
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert all(letter in texts for letter in "ABCD") and "team" not in texts  # no strip for two players


def test_santorini_four_players_show_teams_and_a_finite_supply() -> None:
    state = new_game("santorini", players=4, finite_supply=True)
    root = ET.fromstring(svg.render(state))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "team 1: 1 & 3" in texts and "team 2: 2 & 4" in texts
    assert "22/22" in texts and "18/18" in texts and "14/14" in texts
    assert "team" not in svg.render(new_game("santorini", players=3))


def test_quarto_pieces_show_all_four_characteristics() -> None:
    state = QuartoState.from_str("AP../..../..../.... hand=C")
    root = ET.fromstring(svg.render(state))
    light, dark = piece_colours(state)
    # A: tall, red (light), square, hollow: a box with a hole; P: short, blue (dark), round, solid
    tops = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == light]
    assert any(r.get("width") == "36.0" for r in tops)  # full size on the board
    holes = [e for e in root.iter(f"{SVG}ellipse") if e.get("fill") == "#2a1f16"]
    cylinders = [e for e in root.iter(f"{SVG}ellipse") if e.get("fill") == dark]
    assert cylinders and len(holes) == 1 + 1 + 6  # A, C in hand and the six hollow pieces to give
    assert "in hand" in svg.render(state)


def test_quarto_tall_pieces_rise_higher_than_short_ones() -> None:
    tall, short = (
        ET.fromstring(f"<g>{piece_svg(code, 0, 0, ('#ffffff', '#000000'))}</g>") for code in (0, 1)
    )
    sides = [next(r for r in g.iter("rect") if r.get("height") != "20.0") for g in (tall, short)]
    assert float(sides[0].get("height") or 0) > float(sides[1].get("height") or 0) + 10


def test_quarto_piece_letters_on_the_board_when_asked() -> None:
    state = QuartoState.from_str("AP../..../..../.... hand=C")
    letters = [t for t in ET.fromstring(svg.render(state, piece_letters=True)).iter(f"{SVG}text")]
    assert sorted(t.text or "" for t in letters if t.get("class") == "letter") == ["A", "P"]
    assert 'class="letter"' not in svg.render(state)


def _classes(picture: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(picture).iter() if e.get("class") == kind]


@pytest.mark.parametrize(
    "game, options, move, marked",
    [
        ("hermit", {"size": 4}, "Ra1H", 1),  # one ring around the whole block
        ("santorini", {}, "a1e5", 2),  # both workers placed
        ("quarto", {}, "B", 1),  # the piece handed over
    ],
)
def test_last_move_is_marked(game: str, options: dict[str, object], move: str, marked: int) -> None:
    state = new_game(game, **options)
    last = state.parse_move(move)
    played = state.apply(last)
    assert len(_classes(svg.render(played, last_move=last), "last-move")) == marked
    assert not _classes(svg.render(played), "last-move")


def test_a_santorini_turn_marks_three_squares_and_the_worker_arrives_from_its_square() -> None:
    state = SantoriniState.from_str("00000/00000/00000/00000/00000 workers=a1e5,a5e1 players=2")
    turn = next(m for m in state.legal_moves() if m.to_str() == "a1b2c3")
    picture = svg.render(state.apply(turn), last_move=turn, interactive=True)
    assert len(_classes(picture, "last-move")) == 3
    (arrived,) = _classes(picture, "arrive")
    assert (arrived.get("data-dx"), arrived.get("data-dy")) == ("-72.0", "-72.0")


def test_highlighted_squares_and_arrows() -> None:
    state = new_game("santorini")
    picture = svg.render(state, squares=["a1", "c3"], arrows=[("a1", "e5")])
    assert len(_classes(picture, "highlight")) == 2 and len(_classes(picture, "arrow")) == 1
    with pytest.raises(NotationError):
        svg.render(state, squares=["f9"])


@pytest.mark.parametrize("size", [-5, 0, 2.5, "400", True])
def test_a_picture_size_is_a_positive_number_of_pixels(size: object) -> None:
    with pytest.raises(BordspelError, match="positive whole number of pixels"):
        svg.render(new_game("hermit", size=3), size=size)  # type: ignore[arg-type]
    assert 'width="1"' in svg.render(new_game("hermit", size=3), size=1)


@pytest.mark.parametrize("orientation, corner", [(0, "a1"), (90, "a5"), (180, "e5"), (270, "e1")])
def test_orientation_turns_the_board(orientation: int, corner: str) -> None:
    picture = svg.render(new_game("santorini"), interactive=True, orientation=orientation)
    top_left = next(e for e in _classes(picture, "square") if e.get("x") == "22.0" and e.get("y") == "22.0")
    assert top_left.get("data-square") == corner
    with pytest.raises(BordspelError):
        svg.render(new_game("santorini"), orientation=45)


def test_terminal_colours() -> None:
    text = ansi.render(HermitState.from_str("R./.Y"))
    assert "\x1b[97;41m R " in text and text.splitlines()[0].split() == ["a", "b"]
