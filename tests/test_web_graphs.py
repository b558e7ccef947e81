"""The evaluation graph of a finished game: queued when the game ends, made by the graph worker,
exact where the solver knows the result, a thrown-away win marked from the solver's answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bordspel import new_game
from bordspel.ai import analyse
from bordspel.puzzles import as_puzzle, load_puzzles, proof_of, winning_moves
from bordspel.web.ai_pool import AITimeout
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.graphs import (
    BLUNDER,
    GRAPH_LEVEL,
    MAX_ATTEMPTS,
    MISTAKE,
    PUZZLES_PER_GAME,
    GraphQueue,
    GraphRunner,
    graph_points,
    judge_position,
)
from bordspel.web.jobs import JobRunner
from bordspel.web.options import start_state
from bordspel.web.profiles import keep_results
from bordspel.web.puzzles import PuzzleRoom
from bordspel.web.seats import budgeted_spec
from bordspel.web.store import GameStore
from bordspel.web.supervise import Supervisor
from tests.test_web_accounts import sign_up
from tests.test_web_jobs import _until

HERMIT_4 = ["Ra1U", "Rc1U", "Ra3H", "Rd3U", "Yc2V", "Ya2U", "Bb4U", "Ya4U", "Bb1U", "Bd1U", "Bd4U"]
"""A Hermit 4x4 game in which the second seat's first move throws a won position away."""
THROWN = 2
"""The move (ply) of ``HERMIT_4`` that throws the win away."""


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(
        create_app(web_db, ApiSettings(ai_time=0.5, job_workers=0, graph_workers=1, graph_time=2.0))
    ) as client:
        yield client


def play(client: TestClient, moves: list[str]) -> str:
    """A Hermit 4x4 game between two people, played to its end; its id."""
    created = client.post(
        "/api/games", json={"game": "hermit", "options": {"size": 4}, "seats": ["human"] * 2}
    )
    game = created.json()
    for version, move in enumerate(moves):
        token = game["tokens"][version % 2]
        body = {"version": version, "move": move}
        answer = client.post(
            f"/api/games/{game['id']}/moves", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 200, answer.text
    return str(game["id"])


def graph_of(client: TestClient, game: str) -> dict[str, Any]:
    found: dict[str, Any] = {}

    def done() -> bool:
        found.update(client.get(f"/api/games/{game}/graph").json())
        return found["status"] == "done"

    _until(done, 60)
    return found


def test_the_solver_says_the_move_threw_the_win_away() -> None:
    state = start_state("hermit", {"size": 4})
    for move in HERMIT_4[: THROWN - 1]:
        state = state.play(move)
    after = state.play(HERMIT_4[THROWN - 1])
    assert analyse("perfect", state, seed=0).result == "win"
    assert after.to_move != state.to_move and analyse("perfect", after, seed=0).result == "win"


@pytest.mark.slow
def test_a_finished_game_gets_its_graph_with_the_thrown_win_marked_from_the_solver(
    client: TestClient,
) -> None:
    game = play(client, HERMIT_4)
    graph = graph_of(client, game)
    points = graph["points"]
    assert [point["ply"] for point in points] == list(range(len(HERMIT_4) + 1))
    assert all(point["result"] in ("win", "loss") and abs(point["value"]) == 1 for point in points)
    assert points[-1]["value"] == 1  # the first seat won
    proofs = [mark for mark in graph["marks"] if mark["proof"]]
    assert {"ply": THROWN, "seat": 1, "kind": "blunder", "was": "win", "now": "loss"}.items() <= proofs[
        0
    ].items()
    assert proofs[0]["move"] == HERMIT_4[THROWN - 1]


@pytest.mark.slow
def test_a_finished_game_gives_the_site_puzzles_where_the_mover_had_a_forced_win(
    client: TestClient, web_db: str
) -> None:
    state, expected = start_state("hermit", {"size": 4}), []
    for move in HERMIT_4:
        expected.append(as_puzzle(state, proof_of("hermit")))
        state = state.play(move)
    found = [puzzle for puzzle in expected if puzzle is not None]
    met = found[:PUZZLES_PER_GAME]  # a game gives its first few
    assert len(found) > len(met) and all(puzzle.id not in {p.id for p in load_puzzles()} for puzzle in met)
    graph_of(client, play(client, HERMIT_4))
    assert client.get(f"/api/puzzles/{met[0].id}").status_code == 404  # nobody's game gives none
    graph_of(client, play(sign_up(client, "hanna"), HERMIT_4))  # an account's game
    assert client.get(f"/api/puzzles/{found[-1].id}").status_code == 404
    for puzzle in met:
        shown = client.get(f"/api/puzzles/{puzzle.id}").json()["puzzle"]
        assert shown["source"] is None and shown["start"] == puzzle.start  # not a lobby game: unlisted
        assert shown["distance"] == puzzle.distance and shown["rating"] == puzzle.rating
    right = winning_moves(proof_of("hermit"), met[0].state(), met[0].distance)[0]
    answer = client.post(f"/api/puzzles/{met[0].id}/moves", json={"line": [], "move": right}).json()
    assert answer["result"] in ("right", "solved")
    store = GameStore(web_db)
    try:
        offered = {puzzle.id for puzzle in PuzzleRoom(store).nearest(1500, 10_000)}
    finally:
        store.close()
    assert {puzzle.id for puzzle in met} <= offered and len(offered) == len(load_puzzles()) + len(met)


def test_a_game_that_goes_on_has_no_graph_yet(client: TestClient) -> None:
    game = play(client, HERMIT_4[:3])
    assert client.get(f"/api/games/{game}/graph").json() == {"status": "none"}


@pytest.mark.parametrize("game", ["nope", "x" * 40, "../games", "%00"])
def test_a_graph_of_no_game_is_not_found(client: TestClient, game: str) -> None:
    assert client.get(f"/api/games/{game}/graph").status_code == 404


def judged(
    to_move: int, score: float, played: float | None = None, result: str | None = None
) -> dict[str, Any]:
    point: dict[str, Any] = {
        "to_move": to_move,
        "score": score,
        "result": result,
        "proven": result is not None,
    }
    return point if played is None else point | {"best_score": score, "played_score": played}


def test_evaluation_drops_are_mistakes_and_blunders_by_the_game_scale() -> None:
    scale = 100.0
    positions = [
        judged(0, scale, played=scale - MISTAKE * scale),
        judged(1, 10.0, played=10.0 - BLUNDER * scale),
        judged(0, 0.0, played=1.0 - MISTAKE * scale),  # just under a mistake
        judged(1, 0.0),
    ]
    graph = graph_points(positions, ["a", "b", "c"])
    assert [(mark["ply"], mark["kind"], mark["proof"]) for mark in graph["marks"]] == [
        (1, "mistake", False),
        (2, "blunder", False),
    ]
    assert (
        graph["scale"] == scale
        and graph["points"][0]["value"] == 0.9
        and graph["points"][1]["value"] == -0.09
    )


def test_a_draw_thrown_away_is_a_blunder_with_proof_and_a_kept_win_is_none() -> None:
    positions = [
        judged(0, 0.0, result="draw"),
        judged(1, 999_990.0, result="win"),
        judged(0, -999_980.0, result="loss"),
    ]
    graph = graph_points(positions, ["a", "b"])
    assert [(mark["ply"], mark["was"], mark["now"]) for mark in graph["marks"]] == [(1, "draw", "loss")]
    assert [point["value"] for point in graph["points"]] == [0, -1, -1]


@pytest.mark.parametrize(
    ("game", "position", "result", "plies"),
    [
        ("santorini", "01001/00001/00211/00200/00310 workers=c1d4,d3c2 turn=2 players=2", "win", 3),
        ("quarto", "ABPD/C.../..../.... hand=N", "draw", None),
    ],
)
def test_a_position_is_judged_exactly_where_the_search_or_solver_proves_it(
    game: str, position: str, result: str, plies: int | None
) -> None:
    judged = judge_position(game, position, None, budgeted_spec(game, GRAPH_LEVEL, 2.0), 2.0)
    assert (judged["result"], judged["plies_to_end"], judged["proven"]) == (result, plies, True)


def test_a_graph_is_claimed_by_one_worker_and_given_up_after_its_attempts(web_db: str) -> None:
    store = GameStore(web_db)
    settings = ApiSettings(job_workers=0)
    with TestClient(create_app(web_db, settings)) as client:
        game = play(client, HERMIT_4)
    queue = GraphQueue(store, lease=60.0)
    assert queue.view(game) == {"status": "waiting"}
    assert queue.claim("first") == (game, 1)
    assert queue.claim("second") is None and queue.view(game) == {"status": "running"}
    assert not queue.finish(game, "second", {"points": []})  # not its graph
    with store.db.transaction() as db:
        db.execute("UPDATE game_graphs SET lease_until = 0, attempts = ?", (MAX_ATTEMPTS,))
    runner = GraphRunner(store, 0.1, supervisor=Supervisor())
    try:
        asyncio.run(runner._next())  # the last attempt has run out: given up, with no search
    finally:
        runner.pool.close()
    assert queue.view(game) == {"status": "failed"}


def test_a_game_an_account_played_gets_its_graph_before_older_anonymous_ones(web_db: str) -> None:
    """Found by an attacker (2026-11-28): games anyone can start and end at once queued ahead of
    everyone's graphs (a backlog of minutes). An account's game now goes first."""
    with TestClient(create_app(web_db, ApiSettings(job_workers=0))) as client:
        anonymous = [play(client, HERMIT_4) for _ in range(2)]
        account = play(sign_up(client, "gerda"), HERMIT_4)
    store = GameStore(web_db)
    try:
        queue = GraphQueue(store, lease=60.0)
        claimed = [queue.claim("worker") for _ in range(3)]
        assert claimed == [(account, 1), (anonymous[0], 1), (anonymous[1], 1)]
    finally:
        store.close()


def test_a_graph_nobodys_account_played_gives_way_to_an_accounts_graph(web_db: str) -> None:
    """Found by an attacker (2026-11-29): one anonymous 126-ply game held the only graph worker
    for over a minute while an account's graph waited. Its graph is handed back after the
    position under way when a graph of a higher priority waits."""
    with TestClient(create_app(web_db, ApiSettings(job_workers=0))) as client:
        anonymous = play(client, HERMIT_4)
        queue = GraphQueue(GameStore(web_db), lease=60.0)
        runner = GraphRunner(queue.store, 0.1, supervisor=Supervisor())
        runner.queue = queue
        assert queue.claim(runner.name) == (anonymous, 1)
        account = play(sign_up(client, "ida"), HERMIT_4)
    try:
        assert asyncio.run(runner.make(anonymous)) is None
    finally:
        runner.pool.close()
    assert queue.claim("another") == (account, 1)
    assert queue.claim("a third") == (anonymous, 1)  # back as it was: its claim not counted
    queue.store.close()


def test_a_game_a_worker_process_ends_gets_its_graph_queued(web_db: str) -> None:
    """A ``bordspel worker`` process opens the store as ``keep_results`` does: the computer's
    move that ends a game there queues its graph as one made by the site would."""
    store = keep_results(GameStore(web_db))
    game, _ = store.create(new_game("hermit", size=3), ["easy", "easy"])

    async def play_out() -> None:
        runner = JobRunner(store, 0.5, 1, lease=60.0)
        runner.start()
        try:
            while store.load(game.id).state.outcome() is None:
                await asyncio.sleep(0.05)
        finally:
            await runner.close(1.0)

    try:
        asyncio.run(asyncio.wait_for(play_out(), 60))
        assert GraphQueue(store, lease=60.0).view(game.id) == {"status": "waiting"}
    finally:
        store.close()


def test_a_position_too_slow_to_prove_is_no_puzzle_and_the_graph_is_kept(web_db: str) -> None:
    store = GameStore(web_db)
    runner = GraphRunner(store, 0.1, supervisor=Supervisor())

    async def overran(*_: Any, **__: Any) -> Any:
        raise AITimeout("the proof took too long")

    runner.pool.close()
    runner.pool.run = overran  # type: ignore[method-assign]
    state = start_state("hermit", {"size": 4}).play("Ra1U")
    try:
        assert asyncio.run(runner._puzzle(state, "game")) == []
    finally:
        store.close()
