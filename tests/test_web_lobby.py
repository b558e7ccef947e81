"""The lobby: challenges posted, accepted, cancelled and listed; tables of three that fill seat by
seat; one seat per person; limits per address; the live seek list; two people and one last seat."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from bordspel.web.app import ApiSettings, create_app
from tests.live import serving
from tests.test_web_live import _events

THREE_MINUTES = {"initial": 180, "increment": 2}


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, ApiSettings(challenges_per_address=3, job_workers=0))) as client:
        yield client


def post(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/challenges", json={"game": "quarto", "options": {}, **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def accept(client: TestClient, challenge: str, token: str | None = None, **body: Any) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return client.post(f"/api/challenges/{challenge}/accept", json=body, headers=headers)


def move(client: TestClient, game: str, token: str, version: int, text: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"}
    return client.post(f"/api/games/{game}/moves", json={"version": version, "move": text}, headers=headers)


def test_a_challenge_is_listed_accepted_and_becomes_a_timed_game_to_watch(client: TestClient) -> None:
    posted = post(client, clock=THREE_MINUTES, seat=1)
    assert posted["you"] == 1 and posted["game"] is None and posted["challenge"]["clock"]["label"] == "3+2"
    lobby = client.get("/api/lobby").json()
    assert [found["id"] for found in lobby["challenges"]] == [posted["id"]] and lobby["games"] == []
    assert lobby["challenges"][0]["taken"] == [1] and "token" not in lobby["challenges"][0]

    accepted = accept(client, posted["id"])
    assert accepted.status_code == 201
    taken = accepted.json()
    game = taken["game"]
    assert taken["you"] == 0 and game["you"] == 0 and game["clock"]["running"] == 0
    assert taken["link"] == f"/games/{game['id']}#seat={taken['token']}"
    assert move(client, game["id"], taken["token"], 0, "A").status_code == 200
    assert move(client, game["id"], posted["token"], 1, "a1:B").status_code == 200  # the creator's token

    lobby = client.get("/api/lobby").json()
    assert lobby["challenges"] == [] and [found["id"] for found in lobby["games"]] == [game["id"]]
    started = client.get(f"/api/challenges/{posted['id']}").json()
    assert started["status"] == "started" and started["game_id"] == game["id"]
    assert accept(client, posted["id"]).status_code == 409


def test_only_its_creator_cancels_a_challenge(client: TestClient) -> None:
    posted = post(client)
    path = f"/api/challenges/{posted['id']}"
    assert client.delete(path).status_code == 403
    assert client.delete(path, headers={"Authorization": "Bearer not-the-token"}).status_code == 403
    cancelled = client.delete(path, headers={"Authorization": f"Bearer {posted['token']}"})
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert client.get("/api/lobby").json()["challenges"] == []
    assert accept(client, posted["id"]).status_code == 409


def test_a_table_of_three_fills_seat_by_seat_and_one_person_takes_one_seat(client: TestClient) -> None:
    posted = post(client, game="santorini", options={"players": 3}, seat=0)
    assert accept(client, posted["id"], posted["token"]).status_code == 409  # the creator again
    second = accept(client, posted["id"], seat=2).json()
    assert second["you"] == 2 and second["game"] is None and second["challenge"]["taken"] == [0, 2]
    assert accept(client, posted["id"], seat=2).status_code == 409
    third = accept(client, posted["id"]).json()
    game = third["game"]
    assert third["you"] == 1 and game["seats"] == ["human"] * 3
    tokens = {0: posted["token"], 1: third["token"], 2: second["token"]}
    for seat, token in tokens.items():
        seen = client.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {token}"})
        assert seen.json()["you"] == seat


def test_open_challenges_are_limited_per_address(client: TestClient) -> None:
    for _ in range(3):
        post(client)
    refused = client.post("/api/challenges", json={"game": "quarto"})
    assert refused.status_code == 429 and "open challenges" in refused.json()["error"]


def test_a_flood_of_anonymous_challenges_leaves_the_lobby_room_for_accounts(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bordspel.web.lobby.LISTED", 6)
    monkeypatch.setattr("bordspel.web.lobby.ANONYMOUS", 3)
    for address in range(3):  # each address within its own limit
        post(TestClient(client.app, client=(f"192.0.2.{address}", 1)))
    flood = TestClient(client.app, client=("192.0.2.99", 1)).post("/api/challenges", json={"game": "quarto"})
    assert flood.status_code == 429 and "without an account" in flood.json()["error"]
    for name in ("yara", "zeno", "amos"):  # accounts still post, up to what the lobby shows
        player = TestClient(client.app, client=(f"address of {name}", 1))
        signed = player.post("/api/account", json={"username": name, "password": "correct horse"})
        assert signed.status_code == 201, signed.text
        post(player)
    full = TestClient(client.app, client=("192.0.2.98", 1))
    assert (
        full.post("/api/account", json={"username": "bram", "password": "correct horse"}).status_code == 201
    )
    refused = full.post("/api/challenges", json={"game": "quarto"})
    assert refused.status_code == 429 and "as many open challenges" in refused.json()["error"]
    assert len(client.get("/api/lobby").json()["challenges"]) == 6


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"game": "chess"}, 400, "unknown game"),
        ({"game": "quarto", "seat": 2}, 400, "'seat'"),
        ({"game": "quarto", "clock": {"initial": 1, "increment": 0}}, 400, "'initial'"),
        ({"game": "quarto", "rated": "yes"}, 400, "'rated'"),
        ({"game": "quarto", "rated": True}, 403, "accounts"),  # without an account
    ],
)
def test_bad_challenges_are_refused(
    client: TestClient, body: dict[str, Any], status: int, reason: str
) -> None:
    response = client.post("/api/challenges", json=body)
    assert response.status_code == status and reason in response.json()["error"]
    assert client.get("/api/lobby").json()["challenges"] == []


def test_of_two_people_taking_the_last_seat_one_gets_it(web_db: str) -> None:
    app = create_app(web_db, ApiSettings(job_workers=0))
    with TestClient(app) as client:
        posted = post(client)
        answers: list[int] = []
        barrier = threading.Barrier(2)

        def take() -> None:
            barrier.wait()
            answers.append(accept(client, posted["id"]).status_code)

        threads = [threading.Thread(target=take) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [201, 409]
        assert len(client.get("/api/lobby").json()["games"]) == 1


def test_the_seek_list_updates_live(web_db: str) -> None:
    app = create_app(web_db, ApiSettings(events_poll=30.0, job_workers=0))
    with serving(app) as base, httpx.Client(base_url=base, timeout=10) as client:
        seen: list[tuple[float, dict[str, Any]]] = []
        listener = threading.Thread(target=_events, args=(f"{base}/api/lobby/events", seen, 3))
        listener.start()
        while not seen:
            time.sleep(0.01)
        posted = client.post("/api/challenges", json={"game": "quarto"}).json()
        while len(seen) < 2:
            time.sleep(0.01)
        client.post(f"/api/challenges/{posted['id']}/accept", json={})
        listener.join(timeout=10)
        versions = [event["version"] for _, event in seen]
        assert len(versions) == 3 and versions[0] < versions[1] < versions[2]


def test_a_rematch_swaps_the_seats_keeps_the_clock_and_each_player_takes_their_own_seat(
    client: TestClient,
) -> None:
    posted = post(client, clock=THREE_MINUTES, seat=0)
    taken = accept(client, posted["id"]).json()
    game, tokens = taken["game"]["id"], {0: posted["token"], 1: taken["token"]}

    def rematch(token: str | None) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return client.post(f"/api/games/{game}/rematch", json={}, headers=headers)

    assert rematch(tokens[0]).status_code == 409  # not over yet
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    assert client.post(f"/api/games/{game}/resign", json={"version": 0}, headers=headers).status_code == 200
    assert rematch(None).status_code == 403
    first = rematch(tokens[1]).json()
    assert first["you"] == 0 and first["clock"]["label"] == "3+2" and first["link"].endswith(first["token"])
    assert first["clock"]["running"] is None  # the clock waits until the other player has their seat
    assert client.get(f"/api/games/{game}").json()["rematch"] == first["id"]
    second = rematch(tokens[0])
    assert second.status_code == 201 and second.json()["id"] == first["id"] and second.json()["you"] == 1
    assert second.json()["clock"]["running"] == 0
    assert rematch(tokens[0]).status_code == 409  # a seat is claimed once
    assert move(client, first["id"], first["token"], 1, "A").status_code == 200
    assert move(client, first["id"], second.json()["token"], 2, "a1:B").status_code == 200


def test_a_rematch_is_declined_before_taking_its_seat_and_then_aborted(client: TestClient) -> None:
    posted = post(client, clock=THREE_MINUTES, seat=0)
    taken = accept(client, posted["id"]).json()
    game, tokens = taken["game"]["id"], [posted["token"], taken["token"]]
    headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
    decline = f"/api/games/{game}/rematch/decline"
    client.post(f"/api/games/{game}/resign", json={"version": 0}, headers=headers[1])
    assert client.post(decline, json={}, headers=headers[0]).status_code == 409  # nobody asked yet
    asked = client.post(f"/api/games/{game}/rematch", json={}, headers=headers[1]).json()
    assert client.post(decline, json={}, headers=headers[1]).status_code == 409  # the asker's own
    assert client.post(decline, json={}).status_code == 403  # a spectator
    declined = client.post(decline, json={}, headers=headers[0])
    assert declined.status_code == 200 and declined.json()["rematch"] is None
    aborted = client.get(f"/api/games/{asked['id']}").json()
    assert aborted["outcome"]["termination"] == "aborted" and aborted["clock"]["running"] is None
    assert client.post(decline, json={}, headers=headers[0]).status_code == 409  # nothing left to decline
    again = client.post(f"/api/games/{game}/rematch", json={}, headers=headers[0])
    assert again.status_code == 201 and again.json()["id"] != asked["id"]  # either may ask anew


def test_games_from_the_lobby_and_rematches_count_against_the_new_game_limit(web_db: str) -> None:
    with TestClient(create_app(web_db, ApiSettings(games_per_minute=2, job_workers=0))) as client:
        for _ in range(2):  # accepting your own challenges starts games of yours
            assert accept(client, post(client)["id"]).status_code == 201
        refused = accept(client, post(client)["id"])
        assert refused.status_code == 429 and "new games a minute" in refused.json()["error"]
        assert client.get("/api/lobby").json()["games"] != []


def test_a_chain_of_rematches_counts_against_the_new_game_limit(web_db: str) -> None:
    with TestClient(create_app(web_db, ApiSettings(games_per_minute=2, job_workers=0))) as client:
        game = client.post(
            "/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "easy"]}
        ).json()
        headers = {"Authorization": f"Bearer {game['tokens'][0]}"}
        client.post(f"/api/games/{game['id']}/resign", json={"version": 0}, headers=headers)
        rematch = client.post(f"/api/games/{game['id']}/rematch", json={}, headers=headers).json()
        headers = {"Authorization": f"Bearer {rematch['token']}"}
        client.post(
            f"/api/games/{rematch['id']}/resign", json={"version": rematch["version"]}, headers=headers
        )
        refused = client.post(f"/api/games/{rematch['id']}/rematch", json={}, headers=headers)
        assert refused.status_code == 429


def test_a_rated_challenge_is_between_accounts_and_its_game_is_rated(web_db: str) -> None:
    settings = ApiSettings(password_cost="CHEAPEST", secret="test secret", job_workers=0)
    with TestClient(create_app(web_db, settings)) as anonymous:
        players = {}
        for name in ("ada", "bob"):
            players[name] = TestClient(anonymous.app, client=(f"address of {name}", 50000))
            signed = players[name].post("/api/account", json={"username": name, "password": "correct horse"})
            assert signed.status_code == 201, signed.text
        body = {"game": "quarto", "clock": THREE_MINUTES, "rated": True, "seat": 0}
        posted = players["ada"].post("/api/challenges", json=body).json()
        assert posted["challenge"]["players"] == ["ada"] and posted["challenge"]["rated"]
        refused = anonymous.post(f"/api/challenges/{posted['id']}/accept", json={})
        assert refused.status_code == 403 and "accounts" in refused.json()["error"]
        assert players["ada"].post(f"/api/challenges/{posted['id']}/accept", json={}).status_code == 409
        game = players["bob"].post(f"/api/challenges/{posted['id']}/accept", json={}).json()["game"]
        assert game["players"] == ["ada", "bob"] and game["rated"]
        listed = anonymous.get("/api/lobby").json()["games"]
        assert [found["players"] for found in listed if found["id"] == game["id"]] == [["ada", "bob"]]
        for name, version, text in (("ada", game["version"], "A"), ("bob", game["version"] + 1, "a1:B")):
            moved = players[name].post(
                f"/api/games/{game['id']}/moves", json={"version": version, "move": text}
            )
            assert moved.status_code == 200, moved.text  # each side moved: resigning now loses
        resigned = players["bob"].post(
            f"/api/games/{game['id']}/resign", json={"version": game["version"] + 2}
        )
        assert resigned.status_code == 200  # by the session cookie, no token
        ada, bob = (
            anonymous.get(f"/api/players/{name}").json()["ratings"]["quarto"] for name in ("ada", "bob")
        )
        assert ada["games"] == bob["games"] == 1 and ada["rating"] > bob["rating"]
