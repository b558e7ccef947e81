"""The JSON API through an HTTP client: games, moves, the AI, undo, records, bad requests,
simultaneous moves, and a restart against the same database."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bordspel.record import Game
from bordspel.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> TestClient:
    return TestClient(create_app(db))


def new(client: TestClient, game: str, seats: list[str], **options: object) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_meta_and_pages(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["games"]) == {"hermit", "quarto", "santorini"}
    assert meta["games"]["santorini"]["options"] == {"players": 2, "finite_supply": False}
    assert "<form" in client.get("/").text
    game = new(client, "quarto", ["human", "human"])
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get("/games/nope").status_code == 404
    assert client.get("/static/app.js").status_code == 200


def test_play_a_human_game_to_the_end(client: TestClient) -> None:
    view = new(client, "hermit", ["human", "human"], size=2)
    assert view["ply"] == 0 and view["legal"] and 'data-square="a1"' in view["svg"]
    while view["outcome"] is None:
        move = view["legal"][0]
        response = client.post(
            f"/api/games/{view['id']}/moves", json={"ply": view["ply"], "move": move["text"]}
        )
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["outcome"]["result"] in ("1-0", "0-1") and view["legal"] == []
    record = client.get(f"/api/games/{view['id']}/record")
    assert "attachment" in record.headers["content-disposition"]
    assert Game.from_record(record.text).outcome() is not None


def test_ai_plays_its_seat_and_undo_goes_back_to_the_person(client: TestClient) -> None:
    view = new(client, "santorini", ["human", "easy"])
    view = client.post(f"/api/games/{view['id']}/moves", json={"ply": 0, "move": "a1b1"}).json()
    assert view["to_move"] == 1
    refused = client.post(f"/api/games/{view['id']}/moves", json={"ply": 1, "move": "e5e4"})
    assert refused.status_code == 409 and "AI's turn" in refused.json()["error"]
    view = client.post(f"/api/games/{view['id']}/ai", json={"ply": 1}).json()
    assert view["ply"] == 2 and view["to_move"] == 0
    assert client.post(f"/api/games/{view['id']}/ai", json={"ply": 2}).status_code == 409
    view = client.post(f"/api/games/{view['id']}/undo", json={"ply": 2}).json()
    assert view["ply"] == 0 and view["moves"] == []


@pytest.mark.parametrize(
    "path, body, status, reason",
    [
        ("/api/games", b"{not json", 400, "not valid JSON"),
        ("/api/games", b"[1, 2]", 400, "JSON object"),
        ("/api/games", b'{"game": "chess", "seats": ["human", "human"]}', 400, "unknown game"),
        ("/api/games", b'{"game": "quarto", "seats": ["human"]}', 400, "has 2 seats"),
        ("/api/games", b'{"game": "quarto", "seats": ["human", "wizard"]}', 400, "unknown player"),
        (
            "/api/games",
            b'{"game": "hermit", "options": {"size": 0}, "seats": ["human", "human"]}',
            400,
            "at least 1",
        ),
        (
            "/api/games",
            b'{"game": "hermit", "options": {"colour": 1}, "seats": ["human", "human"]}',
            400,
            "no option",
        ),
        ("/api/games/missing/moves", b'{"ply": 0, "move": "A"}', 404, "no game"),
        ("/api/games", b'{"game": "chess", "seats": ["human", "hard"]}', 400, "unknown game"),
        (
            "/api/games",
            b'{"game": "quarto", "options": {"pieces": "/etc/passwd"}, "seats": ["human", "human"]}',
            400,
            "numbers and true/false",
        ),
    ],
)
def test_bad_requests(client: TestClient, path: str, body: bytes, status: int, reason: str) -> None:
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status and reason in response.json()["error"]


@pytest.mark.parametrize(
    "body, status, reason",
    [
        ({"ply": 0, "move": "Z9"}, 400, "no piece"),
        ({"ply": 0, "move": "c3:B"}, 400, "first turn only hands"),
        ({"ply": 5, "move": "B"}, 409, "at move 0"),
        ({"move": "B"}, 400, "'ply'"),
        ({"ply": True, "move": "B"}, 400, "'ply'"),
        ({"ply": 0, "move": 7}, 400, "'move'"),
    ],
)
def test_bad_moves_change_nothing(client: TestClient, body: dict, status: int, reason: str) -> None:  # type: ignore[type-arg]
    game = new(client, "quarto", ["human", "human"])
    response = client.post(f"/api/games/{game['id']}/moves", json=body)
    assert response.status_code == status and reason in response.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_only_one_of_two_simultaneous_moves_lands(db: Path) -> None:
    clients = [TestClient(create_app(db)) for _ in range(8)]
    game = new(clients[0], "quarto", ["human", "human"])
    statuses: list[int] = []
    barrier = threading.Barrier(len(clients))

    def play(client: TestClient, piece: str) -> None:
        barrier.wait()
        response = client.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": piece})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=play, args=(c, "ABCDEFGH"[i])) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 7
    assert len(clients[0].get(f"/api/games/{game['id']}").json()["moves"]) == 1


def test_games_survive_a_restart(db: Path) -> None:
    first = TestClient(create_app(db))
    game = new(first, "santorini", ["human", "human"], players=2, finite_supply=True)
    first.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": "a1b1"})
    again = TestClient(create_app(db)).get(f"/api/games/{game['id']}").json()
    assert again["moves"] == ["a1b1"] and "supply=22,18,14,18" in again["position"]
