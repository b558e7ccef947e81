"""The analysis board: any position of any game to look at and play on (nothing stored), the
engine's best lines with exact results where a solver proves them, and a game's replayed positions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from bordspel import new_game
from bordspel.core import available_games
from bordspel.web.ai_pool import AITimeout
from bordspel.web.app import ApiSettings, create_app, error_response


@pytest.fixture(scope="module")
def client(module_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(module_db, ApiSettings(ai_time=0.5, job_workers=0))) as client:
        yield client


@pytest.mark.parametrize("game", available_games())
def test_a_move_played_on_the_board_gives_the_next_position_and_stores_nothing(
    client: TestClient, game: str
) -> None:
    start = client.get("/api/board", params={"game": game}).json()
    assert start["position"] == new_game(game).to_str() and start["seats"] == ["human"] * len(
        start["seat_colours"]
    )
    move = start["legal"][0]["text"]
    after = client.get(
        "/api/board", params={"game": game, "position": start["position"], "move": move}
    ).json()
    assert after["position"] == new_game(game).play(move).to_str() and after["outcome"] is None
    assert "id" not in after and client.get("/api/lobby").json()["games"] == []


@pytest.mark.parametrize(
    ("query", "status", "reason"),
    [
        ({"game": "chess"}, 404, "no such game"),
        ({}, 400, "'game'"),
        ({"game": "quarto", "position": "no such position"}, 400, "Quarto"),
        ({"game": "quarto", "move": "a1:B"}, 400, "a1:B"),
    ],
)
def test_bad_boards_are_refused(client: TestClient, query: dict[str, str], status: int, reason: str) -> None:
    response = client.get("/api/board", params=query)
    assert response.status_code == status and reason in response.json()["error"]


def test_the_best_lines_are_different_legal_moves_and_a_solved_one_says_the_result(
    client: TestClient,
) -> None:
    position = new_game("hermit", size=4).play("Ra1U").to_str()
    found = client.get("/api/board/analysis", params={"game": "hermit", "position": position, "lines": 3})
    lines = found.json()["lines"]
    legal = {
        move["text"]
        for move in client.get("/api/board", params={"game": "hermit", "position": position}).json()["legal"]
    }
    assert (
        len(lines) == 3
        and len({line["move"] for line in lines}) == 3
        and {line["move"] for line in lines} <= legal
    )
    assert all(line["line"][0] == line["move"] for line in lines)
    assert lines[0]["result"] == "win" and lines[0]["proven"]


def test_analysis_is_bounded_and_refused_where_nothing_is_left(client: TestClient) -> None:
    start = new_game("quarto").to_str()
    many = client.get("/api/board/analysis", params={"game": "quarto", "position": start, "lines": 50})
    assert many.status_code == 400 and "from 1 to 5" in many.json()["error"]
    over = new_game("hermit", size=1).play("Ra1U").to_str()
    ended = client.get("/api/board/analysis", params={"game": "hermit", "position": over})
    assert ended.status_code == 409


def test_a_replayed_position_gives_its_text_for_the_board(client: TestClient) -> None:
    game = client.post(
        "/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "human"]}
    ).json()
    headers = {"Authorization": f"Bearer {game['tokens'][0]}"}
    client.post(f"/api/games/{game['id']}/moves", json={"version": 0, "move": "A"}, headers=headers)
    replayed = client.get(f"/api/games/{game['id']}/positions/1").json()
    assert replayed["position"] == new_game("quarto").play("A").to_str()


def test_boards_past_the_games_limits_and_odd_numbers_are_refused_briefly(client: TestClient) -> None:
    huge = "/".join(["." * 30] * 30)
    refused = client.get("/api/board", params={"game": "hermit", "position": huge})
    assert refused.status_code == 400 and "size" in refused.json()["error"]
    junk = client.get("/api/board", params={"game": "quarto", "position": "x" * 9000})
    assert junk.status_code == 400 and len(junk.json()["error"]) < 300
    start = new_game("quarto").to_str()
    for lines in ("\u00b2", "0", "6", "0003"):
        answer = client.get(
            "/api/board/analysis", params={"game": "quarto", "position": start, "lines": lines}
        )
        assert answer.status_code == 400, lines


def test_a_computation_past_its_deadline_is_a_503() -> None:
    answer = error_response(AITimeout("the computer did not answer within 1 s"))
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
