"""The analysis endpoint: the best move, score, depth, nodes and line of a game's current position,
refused for finished and unknown games, one computation per game and version."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from bordspel.core import available_games, new_game
from bordspel.web.ai_pool import BOARD, HINT, AIPool, analyse_position
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.store import Busy
from tests.live import serving
from tests.test_web_jobs import _until

FIELDS = {
    "version",
    "ply",
    "move",
    "score",
    "describe",
    "result",
    "plies_to_end",
    "proven",
    "depth",
    "nodes",
    "line",
    "seconds",
}


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db, ApiSettings(ai_time=1.0))) as client:
        yield client


def new(client: TestClient, game: str, seats: list[str]) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": {}, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def hint(client: TestClient, game: dict[str, Any], seat: int | None = 0) -> Any:
    """``GET /analysis`` with ``seat``'s token (None: as a spectator)."""
    headers = {} if seat is None else {"Authorization": f"Bearer {game['tokens'][seat]}"}
    return client.get(f"/api/games/{game['id']}/analysis", headers=headers)


@pytest.mark.parametrize("game", available_games())
def test_analysis_names_a_legal_move_with_its_score_and_line(client: TestClient, game: str) -> None:
    view = new(client, game, ["human", "easy"])
    response = hint(client, view)
    assert response.status_code == 200, response.text
    found = response.json()
    assert set(found) == FIELDS and found["version"] == view["version"]
    assert found["move"] in {move["text"] for move in view["legal"]}
    assert found["line"][0] == found["move"] and min(found["nodes"], found["depth"]) >= 0
    assert found["result"] in (None, "win", "draw", "loss")


def test_analysis_of_a_finished_game_is_refused(client: TestClient) -> None:
    game = new(client, "quarto", ["human", "easy"])
    headers = {"Authorization": f"Bearer {game['tokens'][0]}"}
    assert (
        client.post(f"/api/games/{game['id']}/resign", json={"version": 0}, headers=headers).status_code
        == 200
    )
    refused = hint(client, game)
    assert refused.status_code == 409 and "over" in refused.json()["error"]


def test_no_hints_for_spectators_the_computers_seat_or_in_a_game_between_people(client: TestClient) -> None:
    against_computer = new(client, "hermit", ["human", "easy"])
    for seat in (None, 1):
        refused = hint(client, against_computer, seat)
        assert refused.status_code == 403 and "seat's link" in refused.json()["error"]
    between_people = new(client, "santorini", ["human", "human"])
    for seat in (0, 1):
        refused = hint(client, between_people, seat)
        assert refused.status_code == 403 and "between people" in refused.json()["error"]


def test_analysis_of_an_unknown_game_is_a_json_404(client: TestClient) -> None:
    for path in ("/api/games/nope/analysis", "/api/games/..%2F/analysis"):
        missing = client.get(path)
        assert missing.status_code == 404 and "error" in missing.json()


def test_many_asking_at_once_share_one_analysis(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    analyses: list[str] = []
    run = AIPool.run

    async def counting(pool: AIPool, function: Callable[..., Any], *args: Any) -> Any:
        if function is analyse_position:
            analyses.append(args[1])
            await asyncio.sleep(0.5)  # the askers all arrive while the first analysis runs
        return await run(pool, function, *args)

    monkeypatch.setattr(AIPool, "run", counting)
    game = new(client, "hermit", ["human", "easy"])
    barrier = threading.Barrier(4)
    answers: list[dict[str, Any]] = []

    def ask() -> None:
        barrier.wait()
        answers.append(hint(client, game).json())

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(analyses) == 1 and len(answers) == 4 and all(answer == answers[0] for answer in answers)


def test_hints_have_a_worker_of_their_own_so_owed_moves_never_wait_behind_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: dict[str, set[int]] = {"analyse_position": set(), "choose_move": set()}
    run = AIPool.run

    async def recording(pool: AIPool, function: Callable[..., Any], *args: Any) -> Any:
        pools[function.__name__].add(id(pool))
        return await run(pool, function, *args)

    monkeypatch.setattr(AIPool, "run", recording)
    game = new(client, "hermit", ["human", "easy"])
    assert hint(client, game).status_code == 200
    headers, path = {"Authorization": f"Bearer {game['tokens'][0]}"}, f"/api/games/{game['id']}"
    moved = client.post(f"{path}/moves", json={"version": 0, "move": "Ra1U"}, headers=headers)
    answered = client.post(f"{path}/ai", json={"version": 1}, headers=headers)
    assert moved.status_code == answered.status_code == 200
    assert len(pools["analyse_position"]) == len(pools["choose_move"]) == 1
    assert not pools["analyse_position"] & pools["choose_move"]


def test_a_seated_players_hint_goes_before_the_board_analyses_waiting() -> None:
    async def scenario() -> tuple[list[str], str]:
        pool, finished = AIPool(workers=1, deadline=60.0, max_waiting=2), []

        async def ask(name: str, priority: int, seconds: float = 0.0) -> None:
            await pool.run(time.sleep, seconds, priority=priority)
            finished.append(name)

        running = asyncio.ensure_future(ask("running", BOARD, 1.0))
        await asyncio.sleep(0)  # it holds the one process
        waiting = [asyncio.ensure_future(ask(f"board {n}", BOARD)) for n in range(2)]
        await asyncio.sleep(0)
        try:
            await pool.run(time.sleep, 0, priority=BOARD)  # a third board analysis waits no more
            refused = "not refused"
        except Busy as error:
            refused = str(error)
        await ask("hint", HINT)  # still welcome, and first in the queue
        await asyncio.gather(running, *waiting)
        pool.close()
        return finished, refused

    finished, refused = asyncio.run(scenario())
    assert finished == ["running", "hint", "board 0", "board 1"] and "busy" in refused


def test_one_address_has_two_board_analyses_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = [], threading.Event()

    async def held(pool: AIPool, function: Callable[..., Any], *args: Any, priority: int = HINT) -> Any:
        started.append(args)
        await asyncio.to_thread(release.wait, 60)  # the analyses run until the test has looked
        return []

    monkeypatch.setattr(AIPool, "run", held)
    app = create_app(tmp_path / "games.sqlite3", ApiSettings(ai_time=1.0))
    with serving(app) as base:
        ask = functools.partial(httpx.get, f"{base}/api/board/analysis", timeout=60)
        start = new_game("quarto").to_str()
        with ThreadPoolExecutor(2) as analyses:
            running = [
                analyses.submit(ask, params={"game": "quarto", "position": start, "lines": n}) for n in (1, 2)
            ]
            _until(lambda: len(started) == 2, 30)
            refused = ask(params={"game": "quarto", "position": start, "lines": 3})
            release.set()
        assert refused.status_code == 429 and "2 analyses" in refused.json()["error"]
        assert refused.headers["Retry-After"] == "10"
        assert [answer.result().status_code for answer in running] == [200, 200]
        assert ask(params={"game": "quarto", "position": start, "lines": 3}).status_code == 200  # room again
