"""Quarto explained to a new player: the words of each click, and the rules page with pictures."""

from __future__ import annotations

from typing import Any

from bordspel.games.quarto.engine import QuartoMove, QuartoState
from bordspel.guide import Guide, Rules
from bordspel.svg import render

__all__ = ["GUIDE"]


def clicks(state: QuartoState, move: QuartoMove) -> dict[str, Any]:
    """The prompt of each click that makes ``move``."""
    return {
        "steps": (["place"] if move.square is not None else []) + (["give"] if move.give is not None else [])
    }


def prompts(state: QuartoState) -> dict[str, dict[str, str]]:
    piece = state.pieces.chars[state.hand] if state.hand >= 0 else ""
    return {
        "en": {
            "place": f"place piece {piece}",
            "give": "hand your opponent a piece",
            "over:quarto": "quarto!",
            "over:the board is full": "the board is full",
        },
        "nl": {
            "place": f"zet stuk {piece} neer",
            "give": "geef je tegenstander een stuk",
            "over:quarto": "quarto!",
            "over:the board is full": "het bord is vol",
        },
    }


def examples() -> dict[str, str]:
    """The rules page's pictures, drawn by the project's own renderer."""
    near = QuartoState.from_str("AC.G/..../..../.... hand=E")
    placed = near.parse_move("c1")
    return {
        "pieces": render(QuartoState.initial(), 300, caption=False),
        "quarto": render(near.apply(placed), 300, caption=False, last_move=placed, piece_letters=True),
    }


def rules() -> Rules:
    return {
        "en": {
            "title": "Quarto",
            "sections": [
                (
                    "The pieces",
                    [
                        "Sixteen pieces, each different: tall or short, light or dark, square or "
                        "round, hollow (a hole in the top) or solid. They belong to both players."
                    ],
                    "pieces",
                ),
                (
                    "A turn",
                    [
                        "You do not choose the piece you place: your opponent hands it to you. Place the "
                        "piece you were given on any empty square, then choose a piece for your "
                        "opponent. The very first turn only hands a piece over."
                    ],
                    None,
                ),
                (
                    "Winning",
                    [
                        "Whoever completes a line of four (a row, a column or a diagonal) whose pieces "
                        "share a characteristic wins: four tall ones, four hollow ones, and so on. "
                        "Here the four on the top row are all tall and all hollow. A full board without "
                        "such a line is a draw. The advanced game also counts every 2x2 square."
                    ],
                    "quarto",
                ),
                (
                    "Playing here",
                    [
                        "Click the square for the piece in hand, then the piece to hand over "
                        "from those under the board."
                    ],
                    None,
                ),
            ],
        },
        "nl": {
            "title": "Quarto",
            "sections": [
                (
                    "De stukken",
                    [
                        "Zestien stukken, allemaal verschillend: groot of klein, licht of donker, "
                        "vierkant of rond, hol (een gat in de bovenkant) of vol. Ze zijn van beide "
                        "spelers."
                    ],
                    "pieces",
                ),
                (
                    "Een beurt",
                    [
                        "Je kiest je stuk niet zelf: je tegenstander geeft het je. Zet het gekregen "
                        "stuk op een leeg veld en kies dan een stuk voor je tegenstander. De allereerste "
                        "beurt geeft alleen een stuk."
                    ],
                    None,
                ),
                (
                    "Winnen",
                    [
                        "Wie een rij van vier (rij, kolom of diagonaal) afmaakt waarvan de stukken een "
                        "eigenschap delen, wint: vier grote, vier holle, enzovoort. Hier zijn de vier op "
                        "de bovenste rij allemaal groot en hol. Een vol bord zonder zo'n rij is "
                        "gelijkspel. Het gevorderde spel telt ook elk vierkant van 2x2."
                    ],
                    "quarto",
                ),
                (
                    "Hier spelen",
                    [
                        "Klik het veld voor het stuk in je hand en dan het stuk dat je weggeeft, "
                        "onder het bord."
                    ],
                    None,
                ),
            ],
        },
    }


def option_words() -> dict[str, dict[str, str]]:
    return {
        "en": {"advanced": "advanced: four pieces sharing a property in a 2x2 square also win"},
        "nl": {"advanced": "gevorderd: vier stukken die iets delen in een 2x2-vierkant winnen ook"},
    }


GUIDE = Guide(clicks=clicks, prompts=prompts, option_words=option_words, rules=rules, examples=examples)
