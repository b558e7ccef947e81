"""Puzzles: the shipped ones are forced wins by the exact solver, and the site's puzzle API
checks moves against that proof, answers the defence, rates an account's first attempt and
refuses hostile input with JSON 4xx."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.puzzles import Puzzle, QuartoProof, load_puzzles
from bordspel.web import puzzles_api
from bordspel.web.app import create_app
from tests.test_web_accounts import sign_up
from tests.test_web_chat import SETTINGS


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, SETTINGS)) as client:
        yield client


def first(distance: int) -> Puzzle:
    return next(puzzle for puzzle in load_puzzles() if puzzle.distance == distance)


def answers(proof: QuartoProof, puzzle: Puzzle) -> tuple[str, str]:
    """A right move of the puzzle and a wrong one."""
    state = puzzle.state()
    right = proof.winning_moves(state, puzzle.distance)
    wrong = next(move.to_str() for move in state.legal_moves() if move.to_str() not in right)
    return right[0], wrong


def play(client: TestClient, puzzle: Puzzle, line: list[str], move: object) -> Any:
    return client.post(f"/api/puzzles/{puzzle.id}/moves", json={"line": line, "move": move})


def test_shipped_puzzles_are_forced_wins_with_a_wrong_move() -> None:
    puzzles = load_puzzles()
    assert len(puzzles) >= 2000 and len({puzzle.id for puzzle in puzzles}) == len(puzzles)
    proof = QuartoProof()
    for puzzle in puzzles[:: len(puzzles) // 12]:
        assert proof.value(puzzle.state()) == ("win", puzzle.distance)
        assert len(proof.winning_moves(puzzle.state(), puzzle.distance)) == puzzle.winning < puzzle.moves


def test_next_puzzle_without_an_account_has_no_rating(client: TestClient) -> None:
    found = client.get("/api/puzzles/next").json()
    assert found["rating"] is None and found["puzzle"]["game"] == "quarto"
    assert client.get(f"/api/puzzles/{found['puzzle']['id']}").json()["puzzle"] == found["puzzle"]


def test_right_moves_get_the_defence_then_solve_and_raise_the_rating(client: TestClient) -> None:
    alice, puzzle, proof = sign_up(client, "alice"), first(3), QuartoProof()
    move, _ = answers(proof, puzzle)
    answer = play(alice, puzzle, [], move).json()
    state = puzzle.state().play(move)
    assert answer["result"] == "right" and answer["reply"] == proof.defence(state)
    assert answer["line"] == [move, answer["reply"]] and answer["rating"] is None
    state = state.play(answer["reply"])
    final = proof.winning_moves(state, proof.value(state)[1])[0]
    solved = play(alice, puzzle, answer["line"], final).json()
    assert solved["result"] == "solved" and solved["change"] > 0
    assert solved["rating"]["rating"] > 1500 and solved["rating"]["games"] == 1
    assert alice.get("/api/puzzles/next").json()["rating"] == solved["rating"]


def test_a_wrong_move_fails_shows_the_right_ones_and_lowers_the_rating_once(client: TestClient) -> None:
    bob, puzzle, proof = sign_up(client, "bob"), first(1), QuartoProof()
    _, wrong = answers(proof, puzzle)
    failed = play(bob, puzzle, [], wrong).json()
    assert failed["result"] == "wrong" and failed["change"] < 0
    assert failed["solution"] == proof.winning_moves(puzzle.state(), 1)
    again = play(bob, puzzle, [], wrong).json()
    assert again["result"] == "wrong" and again["change"] is None and again["rating"] is None


def test_a_whole_line_sent_at_once_is_not_rated(client: TestClient) -> None:
    """The line found without an account (or anywhere) and sent with the last move: solved,
    but not rated, since the account did not begin the puzzle from its first move."""
    carol, puzzle, proof = sign_up(client, "carol"), first(3), QuartoProof()
    move, _ = answers(proof, puzzle)
    state = puzzle.state().play(move)
    reply = proof.defence(state)
    state = state.play(reply)
    final = proof.winning_moves(state, proof.value(state)[1])[0]
    solved = play(carol, puzzle, [move, reply], final).json()
    assert solved["result"] == "solved" and solved["change"] is None and solved["rating"] is None
    assert carol.get("/api/puzzles/next").json()["rating"]["games"] == 0


def test_the_profile_has_the_puzzle_rating_after_each_attempt(client: TestClient) -> None:
    carla, proof = sign_up(client, "carla"), QuartoProof()
    failed_one, solved_one = [puzzle for puzzle in load_puzzles() if puzzle.distance == 1][:2]
    failed = play(carla, failed_one, [], answers(proof, failed_one)[1]).json()
    solved = play(carla, solved_one, [], answers(proof, solved_one)[0]).json()
    assert failed["result"] == "wrong" and solved["result"] == "solved"
    pool = client.get("/api/players/carla").json()["ratings"]["puzzles"]
    after = [failed["rating"]["rating"], solved["rating"]["rating"]]
    assert [point["rating"] for point in pool["history"]] == after
    assert [point["puzzle"] for point in pool["history"]] == [failed_one.id, solved_one.id]
    assert pool["rating"] == after[-1] and pool["games"] == 2


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"line": [], "move": 7}, 400),
        ({"line": "a1:B", "move": "a1:B"}, 400),
        ({"line": [], "move": "z9:Q"}, 400),
        ({"line": [], "move": "x" * 5000}, 400),
        ({"line": ["a1:B"] * 100, "move": "a1:B"}, 400),
    ],
)
def test_hostile_moves_are_refused_with_json(client: TestClient, body: dict[str, Any], status: int) -> None:
    response = client.post(f"/api/puzzles/{first(3).id}/moves", json=body)
    assert response.status_code == status and "error" in response.json()


def test_a_line_the_server_did_not_play_is_refused(client: TestClient) -> None:
    puzzle, proof = first(3), QuartoProof()
    move, _ = answers(proof, puzzle)
    state = puzzle.state().play(move)
    other = next(m.to_str() for m in state.legal_moves() if m.to_str() != proof.defence(state))
    assert play(client, puzzle, [move, other], "a1:A").status_code == 400


def test_moves_past_the_limit_of_an_address_are_refused(web_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzles_api, "MOVES_PER_ADDRESS", 0)
    with TestClient(create_app(web_db, SETTINGS)) as client:
        response = play(client, first(1), [], answers(QuartoProof(), first(1))[0])
    assert response.status_code == 429 and "puzzle moves" in response.json()["error"]


def test_unknown_puzzles_and_bad_bodies(client: TestClient) -> None:
    assert client.get("/api/puzzles/nothere").status_code == 404
    assert client.get("/api/puzzles/" + "q" * 200).status_code == 400
    bad = {"Content-Type": "application/json"}
    response = client.post(f"/api/puzzles/{first(1).id}/moves", content=b"{not json", headers=bad)
    assert response.status_code == 400 and "error" in response.json()
    assert client.get("/puzzles").status_code == 200
