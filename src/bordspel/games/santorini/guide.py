"""Santorini explained to a new player: the words of each click, and the rules page with pictures."""

from __future__ import annotations

from typing import Any

from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.svg import seat_colours
from bordspel.guide import Guide, Rules
from bordspel.svg import render

__all__ = ["GUIDE"]


def clicks(state: SantoriniState, move: Placement | Turn) -> dict[str, Any]:
    """The prompt of each click that makes ``move``; a turn's worker moves on the board after the
    second click (``slide``: the piece on the first click's square goes to the second's)."""
    if isinstance(move, Placement):
        return {"steps": ["first", "second"]}
    steps = ["worker", "move"] if move.build is None else ["worker", "move", "build"]
    return {"steps": steps, "slide": [0, 1]}


def prompts(state: SantoriniState) -> dict[str, dict[str, str]]:
    return {
        "en": {
            "first": "place your first worker",
            "second": "place your second worker",
            "worker": "pick a worker",
            "move": "choose where it moves",
            "build": "choose where it builds",
            "over:a worker climbed to level 3": "a worker climbed to level 3",
            "over:no legal turn": "no legal turn was left",
        },
        "nl": {
            "first": "zet je eerste bouwer neer",
            "second": "zet je tweede bouwer neer",
            "worker": "kies een bouwer",
            "move": "kies waar hij heen gaat",
            "build": "kies waar hij bouwt",
            "over:a worker climbed to level 3": "een bouwer klom naar verdieping 3",
            "over:no legal turn": "er was geen zet meer",
        },
    }


def examples() -> dict[str, str]:
    """The rules page's pictures, drawn by the project's own renderer."""
    towers = SantoriniState.from_str("12340/00000/00000/00000/00000 workers=b2d4,c4e2 players=2")
    turn = SantoriniState.from_str("01200/00000/00000/00000/00000 workers=b2d4,c4e2 players=2")
    played = turn.parse_move("b2b1c1")
    win = SantoriniState.from_str("01230/00000/00000/00000/00000 workers=c1d4,a3e2 players=2")
    return {
        "levels": render(towers, 300, caption=False),
        "turn": render(turn.apply(played), 300, caption=False, last_move=played, arrows=[("b2", "b1")]),
        "win": render(win, 300, caption=False, arrows=[("c1", "d1")]),
    }


def rules() -> Rules:
    return {
        "en": {
            "title": "Santorini",
            "sections": [
                (
                    "The aim",
                    ["Be the first to move one of your workers up onto the third level of a tower."],
                    None,
                ),
                ("Setting up", ["Each player in turn places two workers on free squares."], None),
                (
                    "Levels",
                    [
                        "Towers grow a level at a time: one, two or three tiers, and a blue dome on top "
                        "closes a tower for good. Nobody may stand on a dome."
                    ],
                    "levels",
                ),
                (
                    "A turn",
                    [
                        "Move one of your workers to a neighbouring square (also diagonally) that is "
                        "free: no worker, no dome, and at most one level higher (going down any number "
                        "of levels is fine). Then that worker builds one level on a free neighbouring "
                        "square: a block, or a dome on a level-3 tower."
                    ],
                    "turn",
                ),
                (
                    "Winning",
                    [
                        "Moving up onto level 3 wins at once, without building. A player who cannot "
                        "move and build loses."
                    ],
                    "win",
                ),
                (
                    "More players",
                    [
                        "With three players, a player who cannot move is out and their workers "
                        "leave the board. With four, players 1 and 3 share a colour's workers "
                        "against players 2 and 4."
                    ],
                    None,
                ),
            ],
        },
        "nl": {
            "title": "Santorini",
            "sections": [
                (
                    "Het doel",
                    ["Zet als eerste een van je bouwers op de derde verdieping van een toren."],
                    None,
                ),
                ("Opzet", ["Om de beurt zet elke speler twee bouwers op vrije velden."], None),
                (
                    "Verdiepingen",
                    [
                        "Torens groeien per verdieping: een, twee of drie lagen, en een blauwe "
                        "koepel erop sluit de toren voorgoed. Op een koepel mag niemand staan."
                    ],
                    "levels",
                ),
                (
                    "Een beurt",
                    [
                        "Verplaats een van je bouwers naar een aangrenzend vrij veld (ook schuin): "
                        "geen bouwer, geen koepel en hoogstens één verdieping hoger (omlaag mag "
                        "zoveel als je wilt). Daarna bouwt die bouwer één verdieping op een vrij "
                        "aangrenzend veld: een blok, of een koepel op een toren van drie."
                    ],
                    "turn",
                ),
                (
                    "Winnen",
                    [
                        "Omhoog stappen naar verdieping 3 wint meteen, zonder te bouwen. Wie niet kan "
                        "verplaatsen en bouwen, verliest."
                    ],
                    "win",
                ),
                (
                    "Meer spelers",
                    [
                        "Met drie spelers ligt wie niet kan zetten eruit en verdwijnen zijn bouwers. "
                        "Met vier delen spelers 1 en 3 de bouwers van één kleur, tegen spelers 2 "
                        "en 4."
                    ],
                    None,
                ),
            ],
        },
    }


GUIDE = Guide(clicks=clicks, prompts=prompts, seat_colours=seat_colours, rules=rules, examples=examples)
