"""Hermit explained to a new player: the words of each click, and the rules page with pictures."""

from __future__ import annotations

from typing import Any

from bordspel.core import square_name
from bordspel.games.hermit.engine import HermitMove, HermitState, block_squares
from bordspel.games.hermit.svg import BLOCK_COLOURS
from bordspel.guide import Guide, Rules
from bordspel.svg import render

__all__ = ["GUIDE"]


def clicks(state: HermitState, move: HermitMove) -> dict[str, Any]:
    """The prompt of the click that makes ``move``, and the block to show while pointing at it."""
    covered = sorted(block_squares((move.row, move.col), move.placement))
    squares = [square_name(row, col) for row, col in covered]
    return {"steps": ["block"], "preview": {"squares": squares, "colour": BLOCK_COLOURS[move.colour]}}


def prompts(state: HermitState) -> dict[str, dict[str, str]]:
    return {
        "en": {
            "block": "choose a colour and a direction, then click where the block goes",
            "typed": "colour R/Y/B, square, then U upright, H horizontal or V vertical",
            "over:no legal move": "no block could be placed",
        },
        "nl": {
            "block": "kies een kleur en een stand, en klik dan waar het blok komt",
            "typed": "kleur R/Y/B, veld, dan U rechtop, H horizontaal of V verticaal",
            "over:no legal move": "er kon geen blok meer bij",
        },
    }


def examples() -> dict[str, str]:
    """The rules page's pictures, drawn by the project's own renderer."""
    before = HermitState.initial(size=4).play("Rb2U").play("Bd1V")
    lying = before.parse_move("Ya4H")
    blocked = HermitState.from_str("R..Y/..../.B../....")
    return {
        "blocks": render(before.apply(lying), 260, caption=False, last_move=lying),
        "touch": render(blocked, 260, caption=False, squares=["a2", "b1", "b2"]),
    }


def rules() -> Rules:
    return {
        "en": {
            "title": "Hermit",
            "sections": [
                (
                    "The aim",
                    [
                        "Two players take turns placing blocks on a square board. The player who "
                        "cannot place a block any more loses. The start page sets the board's size "
                        "(from 1x1 to 16x16; 5x5 by default): larger boards make longer games."
                    ],
                    None,
                ),
                (
                    "Blocks",
                    [
                        "There are red, yellow and blue blocks, and both players may use every colour. "
                        "A block stands upright on one square or lies on two squares, horizontally or "
                        "vertically."
                    ],
                    "blocks",
                ),
                (
                    "Hermits",
                    [
                        "A block may not touch a block of its own colour, not even at a corner: every "
                        "colour keeps to itself. Here no red block may go on the marked squares next "
                        "to the red one in a1."
                    ],
                    "touch",
                ),
                (
                    "Playing here",
                    [
                        "Pick a colour and upright, horizontal or vertical (or press R, Y, B and "
                        "U, H, V), then click the square: for a lying block, its top or left "
                        "square."
                    ],
                    None,
                ),
            ],
        },
        "nl": {
            "title": "Kluizenaar",
            "sections": [
                (
                    "Het doel",
                    [
                        "Twee spelers zetten om de beurt een blok op een vierkant bord. Wie geen blok "
                        "meer kan zetten, verliest. De startpagina kiest de grootte van het bord "
                        "(van 1x1 tot 16x16; standaard 5x5): grotere borden geven langere partijen."
                    ],
                    None,
                ),
                (
                    "Blokken",
                    [
                        "Er zijn rode, gele en blauwe blokken, en beide spelers mogen elke kleur "
                        "gebruiken. Een blok staat rechtop op één veld of ligt op twee velden, "
                        "horizontaal of verticaal."
                    ],
                    "blocks",
                ),
                (
                    "Kluizenaars",
                    [
                        "Een blok mag geen blok van dezelfde kleur raken, ook niet met een hoek: "
                        "elke kleur blijft op zichzelf. Hier mag geen rood blok op de gemarkeerde "
                        "velden naast het rode blok op a1."
                    ],
                    "touch",
                ),
                (
                    "Hier spelen",
                    [
                        "Kies een kleur en rechtop, horizontaal of verticaal (of druk R, Y, B en U, "
                        "H, V) en klik dan op het veld: bij een liggend blok het bovenste of "
                        "linker veld."
                    ],
                    None,
                ),
            ],
        },
    }


def option_words() -> dict[str, dict[str, str]]:
    return {
        "en": {"size": "board size (squares a side)"},
        "nl": {"size": "grootte van het bord (velden per zijde)"},
    }


GUIDE = Guide(clicks=clicks, prompts=prompts, option_words=option_words, rules=rules, examples=examples)
