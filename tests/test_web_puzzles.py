"""Puzzles of every game: the shipped ones are forced wins by the game's proof, and the site's
puzzle API checks moves against that proof, answers the defence, rates an account's first
attempt and refuses hostile input (and move text the game does not write) with JSON 4xx."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel.puzzles import Puzzle, load_puzzles, proof_of, puzzle_games, winning_moves
from bordspel.web import puzzles_api
from bordspel.web.app import create_app
from bordspel.web.puzzles import Attempt, PuzzleRoom
from bordspel.web.store import GameStore
from tests.test_web_accounts import account_id, sign_up
from tests.test_web_chat import SETTINGS

GAMES = ("hermit", "quarto", "santorini")


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, SETTINGS)) as client:
        yield client


def first(game: str, distance: int) -> Puzzle:
    return next(p for p in load_puzzles() if p.game == game and p.distance == distance)


def with_defence(game: str) -> Puzzle:
    """The first puzzle of ``game`` whose first right move leaves the defence a reply."""
    for puzzle in load_puzzles():
        if puzzle.game == game and puzzle.distance == 3:
            move = winning_moves(proof_of(game), puzzle.state(), 3)[0]
            if puzzle.state().play(move).outcome() is None:
                return puzzle
    raise LookupError(game)


def answers(puzzle: Puzzle) -> tuple[str, str]:
    """A right move of the puzzle and a wrong one."""
    state, proof = puzzle.state(), proof_of(puzzle.game)
    right = winning_moves(proof, state, puzzle.distance)
    wrong = next(move.to_str() for move in state.legal_moves() if move.to_str() not in right)
    return right[0], wrong


def play(client: TestClient, puzzle: Puzzle, line: list[str], move: object) -> Any:
    return client.post(f"/api/puzzles/{puzzle.id}/moves", json={"line": line, "move": move})


def served(web_db: str, name: str, puzzle: Puzzle) -> None:
    """As if ``GET /api/puzzles/next`` had given ``puzzle`` to account ``name`` (it draws at
    random; only a puzzle given to an account is rated)."""
    store = GameStore(web_db)
    try:
        PuzzleRoom(store).serve(account_id(store, name), puzzle)
    finally:
        store.close()


def test_every_game_has_puzzles() -> None:
    assert puzzle_games() == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_shipped_puzzles_are_forced_wins_with_a_wrong_move(game: str) -> None:
    puzzles = [puzzle for puzzle in load_puzzles() if puzzle.game == game]
    assert len(puzzles) >= 500 and len({puzzle.id for puzzle in puzzles}) == len(puzzles)
    proof = proof_of(game)
    for puzzle in puzzles[:: len(puzzles) // 6]:
        assert proof.plies(puzzle.state()) == puzzle.distance
        assert len(winning_moves(proof, puzzle.state(), puzzle.distance)) == puzzle.winning < puzzle.moves


def test_next_puzzle_without_an_account_has_no_rating(client: TestClient) -> None:
    found = client.get("/api/puzzles/next").json()
    assert found["rating"] is None and found["puzzle"]["game"] in GAMES
    assert client.get(f"/api/puzzles/{found['puzzle']['id']}").json()["puzzle"] == found["puzzle"]


def solve(client: TestClient, puzzle: Puzzle) -> Any:
    """Right moves, each reply checked to be the proof's defence, to the end."""
    proof, state, plies, line = proof_of(puzzle.game), puzzle.state(), puzzle.distance, []
    while True:
        move = winning_moves(proof, state, plies)[0]
        answer = play(client, puzzle, line, move).json()
        if answer["result"] == "solved":
            return answer
        state = state.play(move)
        assert answer["result"] == "right" and answer["reply"] == proof.defence(state, plies - 1)
        assert answer["line"] == line + [move, answer["reply"]] and answer["rating"] is None
        state, plies, line = state.play(answer["reply"]), plies - 2, answer["line"]


@pytest.mark.parametrize("game", GAMES)
def test_right_moves_get_the_defence_then_solve_and_raise_the_rating(
    client: TestClient, web_db: str, game: str
) -> None:
    alice, puzzle = sign_up(client, "alice"), with_defence(game)
    served(web_db, "alice", puzzle)
    solved = solve(alice, puzzle)
    assert solved["result"] == "solved" and solved["change"] > 0 and len(solved["line"]) == 3
    assert solved["rating"]["rating"] > 1500 and solved["rating"]["games"] == 1
    assert alice.get("/api/puzzles/next").json()["rating"] == solved["rating"]


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_move_fails_shows_the_right_ones_and_lowers_the_rating_once(
    client: TestClient, web_db: str, game: str
) -> None:
    bob, puzzle = sign_up(client, "bob"), first(game, 3)
    served(web_db, "bob", puzzle)
    _, wrong = answers(puzzle)
    failed = play(bob, puzzle, [], wrong).json()
    assert failed["result"] == "wrong" and failed["change"] < 0
    right = winning_moves(proof_of(game), puzzle.state(), 3)
    assert failed["solution"] and set(failed["solution"]) <= set(right)  # those found within the budget
    again = play(bob, puzzle, [], wrong).json()
    assert again["result"] == "wrong" and again["change"] is None and again["rating"] is None


def test_a_whole_line_sent_at_once_is_not_rated(client: TestClient, web_db: str) -> None:
    """The line found without an account (or anywhere) and sent with the last move: solved,
    but not rated, since the account did not begin the puzzle from its first move."""
    carol, puzzle = sign_up(client, "carol"), first("quarto", 3)
    served(web_db, "carol", puzzle)
    proof, (move, _) = proof_of("quarto"), answers(puzzle)
    state = puzzle.state().play(move)
    reply = proof.defence(state, 2)
    state = state.play(reply)
    final = winning_moves(proof, state, 1)[0]
    solved = play(carol, puzzle, [move, reply], final).json()
    assert solved["result"] == "solved" and solved["change"] is None and solved["rating"] is None
    assert carol.get("/api/puzzles/next").json()["rating"]["games"] == 0


def test_the_profile_has_the_puzzle_rating_after_each_attempt(client: TestClient, web_db: str) -> None:
    carla = sign_up(client, "carla")
    failed_one, solved_one = [p for p in load_puzzles() if p.game == "quarto" and p.distance == 1][:2]
    served(web_db, "carla", failed_one)
    served(web_db, "carla", solved_one)
    failed = play(carla, failed_one, [], answers(failed_one)[1]).json()
    solved = play(carla, solved_one, [], answers(solved_one)[0]).json()
    assert failed["result"] == "wrong" and solved["result"] == "solved"
    pool = client.get("/api/players/carla").json()["ratings"]["puzzles"]
    after = [failed["rating"]["rating"], solved["rating"]["rating"]]
    assert [point["rating"] for point in pool["history"]] == after
    assert [point["puzzle"] for point in pool["history"]] == [failed_one.id, solved_one.id]
    assert pool["rating"] == after[-1] and pool["games"] == 2


@pytest.mark.parametrize("game", GAMES)
def test_move_text_the_game_does_not_write_is_refused(client: TestClient, game: str) -> None:
    puzzle = first(game, 3)
    move, _ = answers(puzzle)
    for text in {move.lower(), move.upper(), f" {move}"} - {move}:
        response = play(client, puzzle, [], text)
        assert response.status_code == 400 and "error" in response.json()


def test_a_long_god_turn_is_read_and_checked(client: TestClient) -> None:
    """Santorini god turns are up to 22 characters: such a move is checked, not refused."""
    for puzzle in (p for p in load_puzzles() if p.game == "santorini" and "gods=" in p.start):
        long = [move.to_str() for move in puzzle.state().legal_moves() if len(move.to_str()) > 16]
        if long:
            break
    answer = play(client, puzzle, [], long[0])
    assert answer.status_code == 200 and answer.json()["result"] in ("right", "wrong", "solved")


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
    response = client.post(f"/api/puzzles/{first('quarto', 3).id}/moves", json=body)
    assert response.status_code == status and "error" in response.json()


def test_a_line_the_server_did_not_play_is_refused(client: TestClient) -> None:
    puzzle, proof = first("quarto", 3), proof_of("quarto")
    move, _ = answers(puzzle)
    state = puzzle.state().play(move)
    other = next(m.to_str() for m in state.legal_moves() if m.to_str() != proof.defence(state, 2))
    assert play(client, puzzle, [move, other], "a1:A").status_code == 400


def test_moves_past_the_limit_of_an_address_are_refused(web_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzles_api, "MOVES_PER_ADDRESS", 0)
    with TestClient(create_app(web_db, SETTINGS)) as client:
        response = play(client, first("quarto", 1), [], answers(first("quarto", 1))[0])
    assert response.status_code == 429 and "puzzle moves" in response.json()["error"]


def test_unknown_puzzles_and_bad_bodies(client: TestClient) -> None:
    assert client.get("/api/puzzles/nothere").status_code == 404
    assert client.get("/api/puzzles/" + "q" * 200).status_code == 400
    bad = {"Content-Type": "application/json"}
    response = client.post(f"/api/puzzles/{first('quarto', 1).id}/moves", content=b"{not json", headers=bad)
    assert response.status_code == 400 and "error" in response.json()
    assert client.get("/puzzles").status_code == 200


def test_an_illegal_first_move_begins_no_attempt_and_runs_no_proof(
    client: TestClient, web_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an attacker (2026-11-28): a refused first move still counted as beginning the
    puzzle, so a whole line sent after it was rated; and it waited for the proof's lock."""
    dora, puzzle = sign_up(client, "dora"), first("quarto", 3)
    served(web_db, "dora", puzzle)
    with monkeypatch.context() as patched:
        patched.setattr(PuzzleRoom, "proof", lambda *_: pytest.fail("a proof ran for an illegal move"))
        assert play(dora, puzzle, [], "z9:Q").status_code == 400
        assert play(dora, puzzle, [answers(puzzle)[0], "a1:A"], "a1:A").status_code == 400
    proof, (move, _) = proof_of("quarto"), answers(puzzle)
    state = puzzle.state().play(move)
    reply = proof.defence(state, 2)
    final = winning_moves(proof, state.play(reply), 1)[0]
    solved = play(dora, puzzle, [move, reply], final).json()
    assert solved["result"] == "solved" and solved["rating"] is None


def test_puzzle_moves_wait_in_their_own_threads_and_a_flood_is_refused_at_once(
    web_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an attacker (2026-11-28): slow puzzle moves from 25 addresses held every thread
    of the server for a minute. They now run in threads of their own, those past the queue are
    refused at once (503), and the games answer meanwhile."""
    monkeypatch.setattr(puzzles_api, "WAITING", 0)
    entered, release = threading.Event(), threading.Event()
    judge = PuzzleRoom.judge

    def slow(room: PuzzleRoom, puzzle: Puzzle, *rest: Any) -> Attempt:
        if puzzle.game != "quarto":
            return judge(room, puzzle, *rest)
        entered.set()
        release.wait(30)
        return Attempt("wrong", ["a1:A"], solution=[])

    monkeypatch.setattr(PuzzleRoom, "judge", slow)
    puzzle, other = first("quarto", 1), first("santorini", 1)
    with TestClient(create_app(web_db, SETTINGS)) as client, ThreadPoolExecutor(1) as background:
        held = background.submit(play, client, puzzle, [], answers(puzzle)[0])
        assert entered.wait(30)
        refused = play(client, puzzle, [], answers(puzzle)[0])
        assert refused.status_code == 503 and "puzzle moves" in refused.json()["error"]
        assert play(client, puzzle, [], "z9:Q").status_code == 400  # read before it would wait
        assert play(client, other, [], answers(other)[0]).json()["result"] == "solved"  # its own thread
        game = {"game": "quarto", "seats": ["human", "human"]}
        assert client.post("/api/games", json=game).status_code == 201
        release.set()
        assert held.result(30).status_code == 200


def test_a_line_that_does_not_end_with_the_servers_reply_is_refused(client: TestClient, web_db: str) -> None:
    """Found in review (2026-11-29): with the line one move short, the defender's move was judged
    as the solver's, called wrong, and the attempt rated as failed."""
    erik, puzzle = sign_up(client, "erik"), with_defence("quarto")
    served(web_db, "erik", puzzle)
    move, _ = answers(puzzle)
    reply = proof_of("quarto").defence(puzzle.state().play(move), puzzle.distance - 1)
    refused = play(erik, puzzle, [move], reply)
    assert refused.status_code == 400 and "reply" in refused.json()["error"]
    assert erik.get("/api/puzzles/next").json()["rating"]["games"] == 0


def test_a_puzzle_the_server_did_not_give_is_not_rated(client: TestClient, web_db: str) -> None:
    """Found by an attacker (2026-11-29): any puzzle could be posted to by its id, so answers
    looked up without an account took a new account from 1500 to 2410 in a few seconds."""
    fay, puzzle = sign_up(client, "fay"), first("quarto", 1)
    solved = play(fay, puzzle, [], answers(puzzle)[0]).json()
    assert solved["result"] == "solved" and solved["rating"] is None
    given = fay.get("/api/puzzles/next").json()["puzzle"]
    found = next(p for p in load_puzzles() if p.id == given["id"])
    assert solve(fay, found)["rating"] is not None  # one it was given is rated
