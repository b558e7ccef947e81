"""Santorini explained to a new player: the words of each click, and the rules page with pictures."""

from __future__ import annotations

from typing import Any

from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.generator import power_ending
from bordspel.games.santorini.gods import GOD_TEXTS, GODS
from bordspel.games.santorini.svg import seat_colours
from bordspel.games.santorini.turns import Action, GodTurn
from bordspel.games.santorini.web import DOME, other_orders
from bordspel.guide import Guide, Rules
from bordspel.svg import render

__all__ = ["GUIDE"]

POWER_WINS = {
    "pan": ("a worker moved down two or more levels", "een bouwer daalde twee of meer verdiepingen"),
    "chronus": ("five complete towers stand on the board", "er staan vijf complete torens op het bord"),
    "eros": (
        "the two workers met on the first level",
        "de twee bouwers kwamen naast elkaar op de eerste verdieping",
    ),
}
"""What each god that wins by its power did (English, Dutch), for the end of the game."""


def _power_endings(language: int) -> dict[str, str]:
    """The prompt of each win by a god's power (``over:Pan's power``), in one language."""
    endings = {}
    for name, words in POWER_WINS.items():
        god = name.capitalize()
        said = f"{god}'s power: {words[0]}" if language == 0 else f"de kracht van {god}: {words[1]}"
        endings[f"over:{power_ending(GODS[name])}"] = said
    return endings


def clicks(state: SantoriniState, move: Placement | Turn | GodTurn) -> dict[str, Any]:
    """The prompt of each click that makes ``move`` (the clicks of ``web.move_parts``); a turn's
    worker moves on the board as its squares are clicked (``slide``)."""
    if isinstance(move, Placement):
        return {"steps": ["first", "second"]}
    if isinstance(move, GodTurn):
        return _god_clicks(state, move.actions)
    steps = ["worker", "move"] if move.build is None else ["worker", "move", "build"]
    return {"steps": steps, "slide": [0, 1]}


def _god_clicks(state: SantoriniState, actions: tuple[Action, ...]) -> dict[str, Any]:
    """A god turn's prompts: moving a worker (again, or an opponent's), building (before moving,
    again, a dome), removing; ``slide`` follows the first worker that moves."""
    colour = state.colour_of(state.to_move)
    mine = {cell for index, cell in enumerate(state.workers) if index // 2 == colour and cell >= 0}
    moves = any(action.kind == "move" and action.source in mine for action in actions)
    steps: list[str] = []
    slide: list[int] = []
    last = follow = -1  # where one's last move ended; where the slid worker stands
    for action in actions:
        if action.kind == "move" and action.source in mine:
            steps += ["again" if action.source == last else "worker", "move"]
            if not slide or action.source == follow:
                slide = (slide or [len(steps) - 2]) + [len(steps) - 1]
                follow = action.target
            mine = mine - {action.source} | {action.target}
            last = action.target
        elif action.kind == "move":
            steps += ["force", "force_to"]
        else:
            steps += _build_steps(action, steps, moves)
    return {"steps": steps, "slide": slide}


def _build_steps(action: Action, before: list[str], moves: bool) -> list[str]:
    """The prompts of a build, dome or removal after the clicks ``before``."""
    if action.kind == "remove":
        return ["remove"]
    built = any(step.startswith("build") for step in before)
    moved = "move" in before
    key = "build_again" if built else "build_first" if moves and not moved else "build"
    return [key, "dome"] if action.kind == "dome" else [key]


TYPED = {"en": "worker, move, build", "nl": "bouwer, stap, bouw"}
"""The parts of a turn as the terminal types it (``c3d4e4``)."""


def prompts(state: SantoriniState) -> dict[str, dict[str, str]]:
    """The words of each click's prompt, of the Dome button and of each way a game ends, and
    after the setup the parts of a typed turn (during it the placements' prompts say it)."""
    words = {
        "en": {
            "first": "place your first worker",
            "second": "place your second worker",
            "worker": "pick a worker",
            "move": "choose where it moves",
            "build": "choose where it builds",
            "again": "click the worker again to move it on",
            "build_again": "choose where to build again",
            "build_first": "choose where to build before moving",
            "force": "pick an opponent's worker to move",
            "force_to": "choose where that worker goes",
            "remove": "choose a block to remove",
            "dome": "press Dome for a dome instead",
            DOME: "Dome",
            "over:a worker climbed to level 3": "a worker climbed to level 3",
            "over:no legal turn": "no legal turn was left",
            **_power_endings(0),
        },
        "nl": {
            "first": "zet je eerste bouwer neer",
            "second": "zet je tweede bouwer neer",
            "worker": "kies een bouwer",
            "move": "kies waar hij heen gaat",
            "build": "kies waar hij bouwt",
            "again": "klik nog eens op de bouwer om verder te gaan",
            "build_again": "kies waar je nog eens bouwt",
            "build_first": "kies waar je bouwt voor je verplaatst",
            "force": "kies een bouwer van een tegenstander om te verplaatsen",
            "force_to": "kies waar die bouwer heen gaat",
            "remove": "kies een blok om weg te halen",
            "dome": "druk op Koepel voor een koepel",
            DOME: "Koepel",
            "over:a worker climbed to level 3": "een bouwer klom naar verdieping 3",
            "over:no legal turn": "er was geen zet meer",
            **_power_endings(1),
        },
    }
    if not state.in_setup:
        for language, typed in TYPED.items():
            words[language]["typed"] = typed
    return words


def seat_notes(state: SantoriniState) -> dict[str, list[str | None]]:
    """Per language, each seat's god card (with Chaos's face-up power), None for a seat without a god."""
    return {language: _cards(state, language) for language in GOD_TEXTS}


def option_words() -> dict[str, dict[str, str]]:
    return {
        "en": {
            "players": "number of players",
            "finite_supply": "limited pieces: 22 level-1 blocks, 18 level-2, 14 level-3 and 18 domes",
            "gods": "god",
        },
        "nl": {
            "players": "aantal spelers",
            "finite_supply": "beperkte voorraad: 22 blokken voor verdieping 1, 18, 14 en 18 koepels",
            "gods": "god",
        },
    }


FACE_UP = {"en": "Face-up", "nl": "Open kaart"}
"""The words before Chaos's face-up power."""


def _cards(state: SantoriniState, language: str) -> list[str | None]:
    """Each seat's god card in ``language``."""
    if state.powers is None:
        return [None] * state.players
    text = GOD_TEXTS[language]
    notes: list[str | None] = []
    for name, memo in zip(state.powers.gods, state.powers.memos):
        card = f"{name.capitalize()}: {text[name]}" if name else None
        if name == "chaos":
            face_up = memo.split("/")[0]
            card = f"{card} {FACE_UP[language]}: {face_up.capitalize()}: {text[face_up]}"
        notes.append(card)
    return notes


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
                *_variant_sections("en"),
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
                *_variant_sections("nl"),
            ],
        },
    }


VARIANT_TEXT = {
    "en": {
        "supply": (
            "Finite supply",
            "With the finite supply the box's pieces run out: 22 blocks of level 1, 18 of level 2, "
            "14 of level 3 and 18 domes. A build needs a piece of its level.",
        ),
        "gods": (
            "God powers",
            "In a game with gods each seat has a god card (chosen or drawn at random on the start "
            "page) that bends one rule for its owner; the cards are shown beside the board during "
            "the game. The thirty gods of the base game:",
        ),
    },
    "nl": {
        "supply": (
            "Beperkte voorraad",
            "Met de beperkte voorraad raken de stukken uit de doos op: 22 blokken van verdieping 1, "
            "18 van verdieping 2, 14 van verdieping 3 en 18 koepels. Bouwen kan alleen met een stuk "
            "van die verdieping.",
        ),
        "gods": (
            "Godenkrachten",
            "In een spel met goden heeft elke plaats een godenkaart (gekozen of getrokken op de "
            "startpagina) die één regel voor zijn eigenaar verandert; tijdens het spel staan de "
            "kaarten naast het bord. De dertig goden van het basisspel:",
        ),
    },
}
"""The rules page's sections on the options of the start page, per language."""


def _variant_sections(language: str) -> list[tuple[str, list[str], str | None]]:
    """The rules of the finite supply and of the god powers, with every god's card text."""
    text = VARIANT_TEXT[language]
    supply_title, supply = text["supply"]
    gods_title, gods = text["gods"]
    cards = [f"{name.capitalize()}: {card}" for name, card in GOD_TEXTS[language].items()]
    return [(supply_title, [supply], None), (gods_title, [gods, *cards], None)]


GUIDE = Guide(
    clicks=clicks,
    orders=other_orders,
    prompts=prompts,
    seat_colours=seat_colours,
    seat_notes=seat_notes,
    option_words=option_words,
    choice_notes=lambda: {language: dict(texts) for language, texts in GOD_TEXTS.items()},
    rules=rules,
    examples=examples,
)
