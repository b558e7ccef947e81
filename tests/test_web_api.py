"""The JSON API through an HTTP client: games, seats and their tokens, moves, the AI, undo and
takebacks, resignation, versions, records, bad requests, simultaneous moves, and a restart."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.core import Outcome, available_games
from bordspel.record import Game
from bordspel.web.app import create_app
from bordspel.zero import zero_available

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db)) as client:
        yield client


def new(client: TestClient, game: str, seats: list[str], **options: object) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def act(client: TestClient, game: dict[str, Any], seat: int | None, action: str, **body: Any) -> Any:
    """POST ``action`` for ``seat`` (its token; None: no token) at the version in ``body`` or 0."""
    headers = {} if seat is None else {"Authorization": f"Bearer {game['tokens'][seat]}"}
    return client.post(f"/api/games/{game['id']}/{action}", json={"version": 0, **body}, headers=headers)


def test_meta_and_pages(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["games"]) == set(available_games())
    assert meta["games"]["santorini"]["options"] == {"players": 2, "finite_supply": False, "gods": ""}
    assert meta["games"]["santorini"]["limits"]["gods"]["per_seat"] is True
    assert meta["games"]["hermit"]["limits"]["size"] == {"min": 1, "max": 16}
    assert "<form" in client.get("/").text
    game = new(client, "quarto", ["human", "human"])
    assert client.get(f"/games/{game['id']}").status_code == 200
    missing = client.get("/games/nope")
    assert missing.status_code == 404 and "app.css" in missing.text and "No such game" in missing.text
    assert client.get("/static/app.js").status_code == 200


def test_creating_gives_a_token_and_a_link_per_seat_and_a_spectator_link(client: TestClient) -> None:
    game = new(client, "santorini", ["easy", "human", "human"], players=3)
    assert game["you"] == 1 and len(set(game["tokens"])) == 3
    assert game["links"]["seats"][2] == f"/games/{game['id']}#seat={game['tokens'][2]}"
    assert game["links"]["spectator"] == f"/games/{game['id']}"
    seen = client.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][2]}"})
    assert seen.json()["you"] == 2
    spectator = client.get(f"/api/games/{game['id']}").json()
    assert spectator["you"] is None and not any(token in str(spectator) for token in game["tokens"])


def test_play_a_human_game_to_the_end(client: TestClient) -> None:
    game = new(client, "hermit", ["human", "human"], size=2)
    view = game
    assert view["ply"] == 0 and view["legal"] and 'data-square="a1"' in view["svg"]
    while view["outcome"] is None:
        response = act(
            client, game, view["to_move"], "moves", version=view["version"], move=view["legal"][0]["text"]
        )
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["outcome"]["result"] in ("1-0", "0-1") and view["legal"] == []
    record = client.get(f"/api/games/{game['id']}/record")
    assert "attachment" in record.headers["content-disposition"]
    assert Game.from_record(record.text).outcome() is not None
    assert not any(token in record.text for token in game["tokens"])


def test_moves_need_the_token_of_the_seat_to_move(client: TestClient) -> None:
    game = new(client, "quarto", ["human", "human"])
    assert act(client, game, None, "moves", move="A").status_code == 403
    assert act(client, game, 1, "moves", move="A").status_code == 409
    wrong = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": 0, "move": "A"},
        headers={"Authorization": "Bearer x"},
    )
    assert wrong.status_code == 403 and "seat" in wrong.json()["error"]
    other = new(client, "quarto", ["human", "human"])
    foreign = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": 0, "move": "A"},
        headers={"Authorization": f"Bearer {other['tokens'][0]}"},
    )
    assert foreign.status_code == 403
    assert act(client, game, 0, "moves", move="A").status_code == 200


def test_ai_plays_its_seat_and_undo_goes_back_to_the_person(client: TestClient) -> None:
    game = new(client, "santorini", ["human", "easy"])
    view = act(client, game, 0, "moves", move="a1b1").json()
    assert view["to_move"] == 1 and view["version"] == 1
    refused = act(client, game, 0, "moves", version=1, move="e5e4")
    assert refused.status_code == 409 and "computer's turn" in refused.json()["error"]
    assert act(client, game, None, "ai", version=1).status_code == 403
    view = act(client, game, 0, "ai", version=1).json()
    assert view["ply"] == 2 and view["to_move"] == 0 and view["version"] == 2
    assert act(client, game, 0, "ai", version=2).status_code == 409
    assert act(client, game, 1, "undo", version=2).status_code == 403  # the computer's seat cannot undo
    view = act(client, game, 0, "undo", version=2).json()
    assert view["ply"] == 0 and view["moves"] == [] and view["version"] == 3


def test_the_version_is_no_ply_a_stale_client_after_undo_and_another_move_is_refused(
    client: TestClient,
) -> None:
    game = new(client, "santorini", ["human", "easy"])
    act(client, game, 0, "moves", move="a1b1")
    stale = act(client, game, 0, "ai", version=1).json()  # a second browser saw this (ply 2)
    act(client, game, 0, "undo", version=2)
    act(client, game, 0, "moves", version=3, move="c1d1")
    view = act(client, game, 0, "ai", version=4).json()
    assert view["ply"] == stale["ply"] == 2
    late = act(client, game, 0, "moves", version=stale["version"], move="a2a3b3")
    assert late.status_code == 409 and "version" in late.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == view["moves"]


def test_against_a_person_undo_is_a_takeback_the_opponent_answers(client: TestClient) -> None:
    game = new(client, "quarto", ["human", "human"])
    act(client, game, 0, "moves", move="A")
    asked = act(client, game, 0, "undo", version=1).json()
    assert asked["takeback"] == 0 and asked["moves"] == ["A"] and asked["version"] == 2
    assert act(client, game, 0, "takeback", version=2, accept=True).status_code == 409
    assert act(client, game, None, "takeback", version=2, accept=True).status_code == 403
    declined = act(client, game, 1, "takeback", version=2, accept=False).json()
    assert declined["takeback"] is None and declined["moves"] == ["A"]
    act(client, game, 0, "undo", version=3)
    accepted = act(client, game, 1, "takeback", version=4, accept=True).json()
    assert accepted["moves"] == [] and accepted["takeback"] is None and accepted["version"] == 5


def test_resignation_ends_the_game_and_is_in_the_record(client: TestClient) -> None:
    game = new(client, "santorini", ["human", "human", "human", "human"], players=4)
    assert act(client, game, None, "resign").status_code == 403
    view = game
    for version in range(6):  # every seat moves (two workers placed a team): now resigning loses
        move = view["legal"][0]["text"]
        view = act(client, game, view["to_move"], "moves", version=version, move=move).json()
    view = act(client, game, 1, "resign", version=6).json()
    assert view["outcome"] == {"winners": [0, 2], "termination": "resignation", "result": "1-0-1-0"}
    assert view["legal"] == []
    assert act(client, game, 0, "moves", version=7, move="a1b1").status_code == 409
    assert act(client, game, 0, "undo", version=7).status_code == 409
    record = client.get(f"/api/games/{game['id']}/record").text
    assert '[Resigned "2"]' in record and '[Termination "resignation"]' in record
    assert '[Result "1-0-1-0"]' in record and '[Seat1 "human"]' in record and "Rated" not in record
    read = Game.from_record(record)
    assert read.outcome() == Outcome(frozenset({0, 2}), "resignation", 4) and not read.state.is_over()
    assert read.to_record() == record


@pytest.mark.parametrize(
    "body, status, reason",
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"[" * 60_000, 400, "not valid JSON"),
        (b'{"game": "chess", "seats": ["human", "human"]}', 400, "unknown game"),
        (b'{"game": "quarto", "seats": ["human"]}', 400, "has 2 seats"),
        (b'{"game": "quarto", "seats": ["human", "wizard"]}', 400, "one of human, easy"),
        (b'{"game": "hermit", "seats": ["human", "alphabeta:time=1e9"]}', 400, "one of human"),
        (b'{"game": "hermit", "seats": ["human", "mcts:playouts=1e12"]}', 400, "one of human"),
        (b'{"game": "hermit", "seats": ["human", "alphabeta:depth=nan"]}', 400, "one of human"),
        (b'{"game": "hermit", "seats": ["human", "easy\\n[Result \\"1-0\\"]"]}', 400, "one of human"),
        (b'{"game": "hermit", "options": {"size": 0}, "seats": ["human", "human"]}', 400, "from 1 to 16"),
        (b'{"game": "hermit", "options": {"size": 100000}, "seats": ["human", "human"]}', 400, "1 to 16"),
        (b'{"game": "hermit", "options": {"size": 200}, "seats": ["human", "human"]}', 400, "1 to 16"),
        (b'{"game": "hermit", "options": {"size": true}, "seats": ["human", "human"]}', 400, "1 to 16"),
        (b'{"game": "hermit", "options": {"colour": 1}, "seats": ["human", "human"]}', 400, "no option"),
        (b'{"game": "hermit", "options": {"cls": 1}, "seats": ["human", "human"]}', 400, "no option"),
        (b'{"game": "santorini", "options": {"workers": 5}, "seats": ["human", "human"]}', 400, "no option"),
        (b'{"game": "santorini", "options": {"players": 5}, "seats": ["human", "human"]}', 400, "2, 3, 4"),
        (b'{"game": "quarto", "options": {"pieces": 6}, "seats": ["human", "human"]}', 400, "piece"),
        (b'{"game": "quarto", "options": {"pieces": 0}, "seats": ["human", "human"]}', 400, "piece"),
        (
            b'{"game": "quarto", "options": {"pieces": "/etc/passwd"}, "seats": ["human", "human"]}',
            400,
            "piece",
        ),
        (
            b'{"game": "quarto", "options": {"pieces": "a,b\\nc"}, "seats": ["human", "human"]}',
            400,
            "5 fields",
        ),
        (
            b'{"game": "quarto", "options": {"advanced": 2}, "seats": ["human", "human"]}',
            400,
            "true or false",
        ),
        (b'{"game": "quarto", "options": [], "seats": ["human", "human"]}', 400, "object"),
        (b'{"game": 5, "seats": []}', 400, "'game'"),
    ],
)
def test_bad_games_are_refused_with_json(client: TestClient, body: bytes, status: int, reason: str) -> None:
    response = client.post("/api/games", content=body, headers=JSON)
    assert response.status_code == status and reason in response.json()["error"], response.text


def test_a_piece_file_text_and_a_named_piece_set_make_quarto_games(client: TestClient) -> None:
    text = (Path(__file__).parent / "data" / "stukken.txt").read_text(encoding="utf-8")
    uploaded = new(client, "quarto", ["human", "human"], pieces=text)
    dutch = new(client, "quarto", ["human", "human"], pieces="dutch")
    assert "pieces=" in dutch["position"] and uploaded["legal"]


@pytest.mark.parametrize(
    "body, status, reason",
    [
        ({"version": 0, "move": "Z9"}, 400, "no piece"),
        ({"version": 0, "move": "c3:B"}, 400, "first turn only hands"),
        ({"version": 0, "move": "A" * 50_000}, 400, "at most"),
        ({"version": 5, "move": "B"}, 409, "at version 0"),
        ({"version": None, "move": "B"}, 400, "'version'"),
        ({"version": True, "move": "B"}, 400, "'version'"),
        ({"version": -1, "move": "B"}, 400, "'version'"),
        ({"version": 10**300, "move": "B"}, 400, "'version'"),
        ({"version": 0, "move": 7}, 400, "'move'"),
    ],
)
def test_bad_moves_change_nothing(client: TestClient, body: dict[str, Any], status: int, reason: str) -> None:
    game = new(client, "quarto", ["human", "human"])
    response = act(client, game, 0, "moves", **body)
    assert response.status_code == status and reason in response.json()["error"], response.text
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


@pytest.mark.skipif(not zero_available("hermit"), reason="needs onnxruntime and a shipped network")
def test_zero_sits_only_where_a_network_is_shipped_for_the_options(client: TestClient) -> None:
    refused = client.post(
        "/api/games", json={"game": "hermit", "options": {"size": 4}, "seats": ["human", "zero"]}
    )
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"].startswith("zero plays hermit only with size=5 (its trained networks)")
    game = new(client, "hermit", ["human", "zero"], size=5)
    assert game["seats"][1] == "zero"


def test_a_5000_digit_version_is_a_bad_request(client: TestClient) -> None:
    game = new(client, "quarto", ["human", "human"])
    body = b'{"version": ' + b"9" * 5000 + b', "move": "A"}'
    response = client.post(f"/api/games/{game['id']}/moves", content=body, headers=JSON)
    assert response.status_code == 400 and "JSON" in response.json()["error"]


def test_only_one_of_simultaneous_moves_lands(web_db: str) -> None:
    clients = [TestClient(create_app(web_db)) for _ in range(8)]
    game = new(clients[0], "quarto", ["human", "human"])
    statuses: list[int] = []
    barrier = threading.Barrier(len(clients))

    def play(client: TestClient, piece: str) -> None:
        barrier.wait()
        statuses.append(act(client, game, 0, "moves", move=piece).status_code)

    threads = [threading.Thread(target=play, args=(c, "ABCDEFGH"[i])) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 7
    assert len(clients[0].get(f"/api/games/{game['id']}").json()["moves"]) == 1


def test_games_survive_a_restart(web_db: str) -> None:
    first = TestClient(create_app(web_db))
    game = new(first, "santorini", ["human", "human"], players=2, finite_supply=True)
    act(first, game, 0, "moves", move="a1b1")
    again = TestClient(create_app(web_db)).get(f"/api/games/{game['id']}").json()
    assert again["moves"] == ["a1b1"] and "supply=22,18,14,18" in again["position"]


@pytest.mark.parametrize("seats", [["human", "easy"], ["human", "human"]])
def test_a_finished_game_stays_finished_undo_is_refused(client: TestClient, seats: list[str]) -> None:
    game = new(client, "hermit", seats, size=2)
    view: dict[str, Any] = game
    while view["outcome"] is None:
        if seats[view["to_move"]] == "human":
            move = view["legal"][0]["text"]
            view = act(client, game, view["to_move"], "moves", version=view["version"], move=move).json()
        else:
            view = act(client, game, 0, "ai", version=view["version"]).json()
    for seat in range(2):
        if seats[seat] == "human":
            refused = act(client, game, seat, "undo", version=view["version"])
            assert refused.status_code == 409 and "result is final" in refused.json()["error"]
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["outcome"] == view["outcome"] and after["version"] == view["version"]
    record = client.get(f"/api/games/{game['id']}/record").text
    assert f'[Result "{view["outcome"]["result"]}"]' in record and view["outcome"]["result"] != "*"
