"""Santorini's gods through the JSON API: every god's game shows its view and positions, each
click of a god turn has words in both languages, and the god cards are shown per seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.games.santorini.gods import GOD_TEXT, GODS
from bordspel.web.app import create_app

NAMES = list(GODS)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("gods") / "games.sqlite3")) as client:
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


@pytest.mark.parametrize("god", NAMES)
def test_a_god_game_shows_its_view_and_positions_through_its_turns(client: TestClient, god: str) -> None:
    rival = NAMES[(NAMES.index(god) + 1) % len(NAMES)]
    body = {"game": "santorini", "options": {"gods": f"{god},{rival}"}, "seats": ["human", "human"]}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game = view = answer.json()
    assert view["seat_notes"][0].startswith(f"{god.capitalize()}: {GOD_TEXT[god]}")
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
    assert client.post("/api/games", json=body).json()["seat_notes"] == [None, None]
