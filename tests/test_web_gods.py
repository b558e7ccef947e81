"""Santorini's gods through the JSON API: every god's game shows its view and positions, each
click of a god turn has words in both languages, a turn clicks in any order its rules allow,
a god per seat may be drawn, and the god cards are shown per seat in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.games.santorini.engine import GodChoice, SantoriniState
from bordspel.games.santorini.gods import GOD_TEXT, GOD_TEXT_NL, GODS
from bordspel.games.santorini.web import move_parts, other_orders
from bordspel.web.app import create_app
from tests.conftest import sampled

NAMES = list(GODS)


@pytest.fixture(scope="module")
def client(module_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(module_db)) as client:
        yield client


def play_first_legal(client: TestClient, game: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {game['tokens'][view['to_move']]}"}
    body = {"version": view["version"], "move": view["legal"][0]["text"]}
    answer = client.post(f"/api/games/{game['id']}/moves", json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def check_view(client: TestClient, view: dict[str, Any]) -> None:
    """The view and the latest position answer 200; each click has a prompt in both languages."""
    shown = client.get(f"/api/games/{view['id']}")
    assert shown.status_code == 200, shown.text
    assert client.get(f"/api/games/{view['id']}/positions/{view['ply']}").status_code == 200
    for move in view["legal"]:
        assert all(len(path) == len(move["steps"]) for path in move["paths"]), move
        for language in ("en", "nl"):
            assert set(move["steps"]) <= set(view["prompts"][language]), move


@pytest.mark.parametrize("god", sampled(NAMES, 6))
def test_a_god_game_shows_its_view_and_positions_through_its_turns(client: TestClient, god: str) -> None:
    rival = NAMES[(NAMES.index(god) + 1) % len(NAMES)]
    body = {"game": "santorini", "options": {"gods": f"{god},{rival}"}, "seats": ["human", "human"]}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game = view = answer.json()
    assert view["seat_notes"]["en"][0].startswith(f"{god.capitalize()}: {GOD_TEXT[god]}")
    assert view["seat_notes"]["nl"][0].startswith(f"{god.capitalize()}: {GOD_TEXT_NL[god]}")
    for _ in range(6):  # the setup, then two turns of each seat
        view = play_first_legal(client, game, view)
        check_view(client, view)


def test_god_turns_click_square_by_square_with_dome_and_end_turn(client: TestClient) -> None:
    body = {"game": "santorini", "options": {"gods": "atlas,demeter"}, "seats": ["human", "human"]}
    game = view = client.post("/api/games", json=body).json()
    for _ in range(4):
        view = play_first_legal(client, game, view)
    paths = {move["text"]: move["paths"][0] for move in view["legal"]}
    dome = next(text for text in paths if text.endswith("*"))
    block = dome.replace("+", "")[:-1]
    assert paths[dome] == [*paths[block], "button:dome"]
    assert view["prompts"]["en"]["button:dome"] == "Dome" and view["prompts"]["nl"]["button:dome"] == "Koepel"
    view = play_first_legal(client, game, view)
    steps = {tuple(move["steps"]) for move in view["legal"]}
    assert ("worker", "move", "build", "build_again") in steps and ("worker", "move", "build") in steps


def test_a_game_without_gods_has_no_notes(client: TestClient) -> None:
    body = {"game": "santorini", "seats": ["human", "human"]}
    notes = client.post("/api/games", json=body).json()["seat_notes"]
    assert notes == {"en": [None, None], "nl": [None, None]}


def test_every_god_card_has_a_dutch_text() -> None:
    assert set(GOD_TEXT_NL) == set(GODS) and all(GOD_TEXT_NL.values())
    assert not set(GOD_TEXT_NL.values()) & set(GOD_TEXT.values())


def test_chaos_shows_its_face_up_power_in_both_languages(client: TestClient) -> None:
    body = {"game": "santorini", "options": {"gods": "chaos,-"}, "seats": ["human", "human"]}
    notes = client.post("/api/games", json=body).json()["seat_notes"]
    assert " Face-up: " in notes["en"][0] and " Open kaart: " in notes["nl"][0]
    face_up = notes["en"][0].split(" Face-up: ")[1].split(":")[0].lower()
    assert notes["nl"][0].endswith(f"Open kaart: {face_up.capitalize()}: {GOD_TEXT_NL[face_up]}")


# -- a god per seat drawn at random ---------------------------------------------------------------
def test_a_single_seat_draws_a_god_nobody_named() -> None:
    GodChoice().check("gods", "apollo,random")

    def drawn() -> list[str | None]:
        seats = "apollo,random,-"
        return [SantoriniState.initial(gods=seats, players=3, seed=seed).god_of(1) for seed in range(20)]

    first = drawn()
    assert len(set(first)) > 1 and "apollo" not in first and all(name in GODS for name in first)
    assert drawn() == first  # seeded
    both = SantoriniState.initial(gods="random,random", seed=1)
    assert both.god_of(0) != both.god_of(1)


def test_the_start_page_learns_each_seats_choices(client: TestClient) -> None:
    limits = client.get("/api/meta").json()["games"]["santorini"]["limits"]["gods"]
    assert limits["seat_choices"] == ["-", "random", *GODS]
    body = {"game": "santorini", "options": {"gods": "athena,random"}, "seats": ["human", "human"]}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["seat_notes"]["en"][0].startswith("Athena: ")


# -- click orders ---------------------------------------------------------------------------------
OPEN = "00000/00000/00000/00000/00000 workers=c3a1,a5e5 turn=1 players=2 gods={}"
CORRIDOR = "04444/44444/00000/44444/04440 workers=c3a1,a5e5 turn=1 players=2 gods={}"


def clicks(board: str, gods: str) -> dict[str, list[list[str]]]:
    """Each legal turn's click paths, as the browser gets them."""
    state = SantoriniState.from_str(board.format(gods))
    return {m.to_str(): move_parts(m)["paths"] + other_orders(state, m) for m in state.legal_moves()}


def squares(*names: str) -> list[str]:
    return [f"square:{name}" for name in names]


def test_demeters_two_builds_click_in_either_order() -> None:
    paths = clicks(CORRIDOR, "demeter,-")
    assert paths["c3b3+a3+c3"] == [squares("c3", "b3", "a3", "c3"), squares("c3", "b3", "c3", "a3")]
    assert paths["c3d3+c3+e3"] == [squares("c3", "d3", "c3", "e3"), squares("c3", "d3", "e3", "c3")]
    assert all(len(found) == 1 for text, found in paths.items() if text.count("+") < 2)


def test_hephaestus_and_prometheus_click_another_order_only_where_it_is_legal() -> None:
    for gods in ("hephaestus,-", "prometheus,-"):
        assert all(len(found) == 1 for found in clicks(CORRIDOR, gods).values()), gods
    paths = clicks(OPEN, "prometheus,-")  # b3 neighbours c3 and b2 neighbours c2: either before
    assert paths["b2+c3c2+b3"] == [squares("b2", "c3", "c2", "b3"), squares("b3", "c3", "c2", "b2")]
    assert paths["b2+c3d2+c2"] == [squares("b2", "c3", "d2", "c2")]  # b2 is no neighbour of d2


def test_a_hermes_turn_without_a_move_waits_for_end_turn() -> None:
    state = SantoriniState.from_str(CORRIDOR.format("hermes,-"))
    waiting = {m.to_str() for m in state.legal_moves() if move_parts(m).get("confirm")}
    assert waiting == {"b3", "d3"}


def test_the_rules_page_explains_the_start_pages_options(client: TestClient) -> None:
    rules = client.get("/api/rules/santorini").json()
    for language, cards in (("en", GOD_TEXT), ("nl", GOD_TEXT_NL)):
        paragraphs = [p for _, section, _ in rules["texts"][language]["sections"] for p in section]
        for god, card in cards.items():
            assert f"{god.capitalize()}: {card}" in paragraphs
        assert any("22" in p and "18" in p for p in paragraphs)  # the finite supply's pieces


def test_triton_clicks_back_to_its_square_by_either_perimeter_square() -> None:
    state = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b2d4,e5e4 turn=1 players=2 gods=triton,-"
    )
    move = state.parse_move("b2b1+b1b2+b1")
    paths = [move_parts(move)["paths"][0], *other_orders(state, move)]
    assert ["square:b2", "square:b1", "square:b1", "square:b2", "square:b1"] in paths
    assert ["square:b2", "square:a1", "square:a1", "square:b2", "square:b1"] in paths
