"""The API's help for new players: each click's words, last move, replay positions, rules,
seat colours, the styled 404 page and the favicon."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.core import available_games
from bordspel.guide import guide_of
from bordspel.web.app import create_app

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db)) as client:
        yield client


def new(client: TestClient, game: str, **options: object) -> dict[str, Any]:
    body = {"game": game, "options": options, "seats": ["human", "human"]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def move(client: TestClient, game: dict[str, Any], seat: int, version: int, text: str) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {game['tokens'][seat]}"}
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"version": version, "move": text}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_every_legal_move_says_what_each_click_is_for(client: TestClient) -> None:
    game = new(client, "santorini")
    assert {tuple(m["steps"]) for m in game["legal"]} == {("first", "second")}
    assert game["prompts"]["en"]["first"] == "place your first worker" and "nl" in game["prompts"]
    move(client, game, 0, 0, "a1e5")
    view = move(client, game, 1, 1, "a5e1")
    steps = {tuple(m["steps"]) for m in view["legal"]}
    assert steps == {("worker", "move", "build")}
    assert view["prompts"]["en"]["build"] == "choose where it builds"


def test_quarto_prompts_name_the_piece_in_hand(client: TestClient) -> None:
    game = new(client, "quarto")
    assert {tuple(m["steps"]) for m in game["legal"]} == {("give",)}
    view = move(client, game, 0, 0, "K")
    assert (
        view["prompts"]["en"]["place"] == "place piece K"
        and view["prompts"]["nl"]["place"] == "zet stuk K neer"
    )
    assert {tuple(m["steps"]) for m in view["legal"]} == {("place", "give")}


def test_the_picture_marks_the_last_move_and_leaves_the_caption_to_the_page(client: TestClient) -> None:
    game = new(client, "hermit", size=4)
    assert 'class="last-move"' not in game["svg"] and "to move" not in game["svg"]
    view = move(client, game, 0, 0, "Ra1H")
    assert view["svg"].count('class="last-move"') == 1 and 'class="arrive"' in view["svg"]


def test_seat_colours_and_titles(client: TestClient) -> None:
    view = new(client, "santorini")
    assert view["seat_colours"][0] != view["seat_colours"][1] and all(view["seat_colours"])
    assert new(client, "quarto")["seat_colours"] == [None, None]
    assert new(client, "hermit")["title"] == {"en": "Hermit", "nl": "Kluizenaar"}
    assert client.get("/api/meta").json()["games"]["hermit"]["title"]["nl"] == "Kluizenaar"


def test_replay_positions_leave_the_game_unchanged(client: TestClient) -> None:
    game = new(client, "quarto")
    move(client, game, 0, 0, "K")
    move(client, game, 1, 1, "a1:B")
    url = f"/api/games/{game['id']}/positions"
    start, first = client.get(f"{url}/0").json(), client.get(f"{url}/1").json()
    assert (
        start["ply"] == 0 and 'class="last-move"' not in start["svg"] and 'class="square"' not in start["svg"]
    )
    assert first["ply"] == 1 and first["svg"].count('class="last-move"') == 1
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == 2


@pytest.mark.parametrize("ply, status", [("3", 404), ("x", 400), ("-1", 400), ("1" * 40, 400)])
def test_replay_outside_the_game_answers_json_errors(client: TestClient, ply: str, status: int) -> None:
    game = new(client, "quarto")
    response = client.get(f"/api/games/{game['id']}/positions/{ply}")
    assert response.status_code == status and "error" in response.json()
    assert client.get("/api/games/nope/positions/0").status_code == 404


def test_rules_in_both_languages_with_pictures(client: TestClient) -> None:
    for game in available_games():
        answer = client.get(f"/api/rules/{game}")
        if guide_of(game).rules is None:  # a game without a rules page (the tests' tic-tac-toe)
            assert answer.status_code == 404
            continue
        rules = answer.json()
        assert set(rules["texts"]) == {"en", "nl"}
        named = {picture for lang in rules["texts"].values() for _, _, picture in lang["sections"] if picture}
        assert named and named <= set(rules["pictures"])
        assert all(svg.startswith("<svg") for svg in rules["pictures"].values())
        assert 'data-page="rules"' in client.get(f"/rules/{game}").text
    missing = client.get("/api/rules/chess")
    assert missing.status_code == 404 and "error" in missing.json()
    assert client.get("/rules/chess").status_code == 404


def test_a_browser_gets_the_styled_404_page_and_a_script_gets_json(client: TestClient) -> None:
    page = client.get("/nowhere", headers=HTML)
    assert page.status_code == 404 and "app.css" in page.text and "data-lang" in page.text
    assert client.get("/nowhere").json()["error"]
    assert client.get("/api/nowhere", headers=HTML).json()["error"]


def test_favicon(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert '<link rel="icon"' in client.get("/").text


def test_a_game_without_a_guide_gets_plain_words_and_no_rules_page(client: TestClient) -> None:
    view = new(client, "tictactoe")
    assert view["prompts"] == {"en": {}, "nl": {}} and all(m["steps"] == [] for m in view["legal"])
    assert view["seat_colours"] == [None, None] and view["rules"] is False
    assert client.get("/api/rules/tictactoe").status_code == 404
    assert client.get("/rules/tictactoe").status_code == 404
    assert client.get("/api/meta").json()["games"]["tictactoe"]["rules"] is False


def test_the_page_names_no_game() -> None:
    web = Path(__file__).parents[1] / "src/bordspel/web"
    files = [*(web / "static").rglob("*"), *(web / "pages").rglob("*")]
    for page in [path for path in files if path.is_file()]:
        text = page.read_text(encoding="utf-8").lower()
        assert not [game for game in available_games() if game in text], page.name
