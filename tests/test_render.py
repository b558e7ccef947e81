"""Pictures: SVG documents for every game (valid XML, the right pieces) and terminal colours."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from bordspel import ansi, svg
from bordspel.core import State, new_game
from bordspel.hermit import HermitState
from bordspel.quarto import QuartoState
from bordspel.santorini import SantoriniState

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
    assert fills.count(svg.BLOCK_COLOURS["R"]) == 3 and fills.count(svg.BLOCK_COLOURS["B"]) == 2
    assert fills.count(svg.BLOCK_COLOURS["Y"]) == 2


def test_santorini_levels_domes_and_workers() -> None:
    state = SantoriniState.from_str("12340/00000/00000/00000/00000 workers=a2b2,c2d2 turn=1 players=2")
    root = ET.fromstring(svg.render(state))
    circles = list(root.iter(f"{SVG}circle"))
    assert sum(c.get("fill") == svg.DOME_COLOUR for c in circles) == 1  # the dome
    assert sum(c.get("r") == "15" for c in circles) == 4  # the workers
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert all(letter in texts for letter in "ABCD")


def test_quarto_pieces_show_their_characteristics() -> None:
    state = QuartoState.from_str("AP../..../..../.... hand=C")
    root = ET.fromstring(svg.render(state))
    # A: tall, red, square, hollow -> a red 40x40 square with a hole; P: short, blue, round, solid
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == svg.PIECE_COLOURS[0]]
    assert any(r.get("width") == "40.0" for r in rects)
    circles = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == svg.PIECE_COLOURS[1]]
    assert any(c.get("r") == "13.0" for c in circles)
    assert "in hand" in svg.render(state)


def test_terminal_colours() -> None:
    text = ansi.render(HermitState.from_str("R./.Y"))
    assert "\x1b[97;41m R " in text and text.splitlines()[0].split() == ["a", "b"]
