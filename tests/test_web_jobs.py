"""The computer's moves as durable jobs: written with the change that owes them, made by workers
with nobody watching, taken over after a worker is killed, and landed exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prometheus_client import REGISTRY
from starlette.testclient import TestClient

from bordspel import new_game
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.jobs import Job, JobQueue, JobRunner
from bordspel.web.store import GameStore


def _jobs(store: GameStore) -> list[tuple[str, int, str, str, int]]:
    with store.db.transaction(write=False) as db:
        query = "SELECT game_id, version, level, worker, attempts FROM jobs ORDER BY created"
        return [tuple(row) for row in db.execute(query).fetchall()]  # type: ignore[misc]


def _until(condition: object, seconds: float) -> None:
    """Wait (polling) until ``condition()`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the condition did not come about in time"
        time.sleep(0.05)


def test_the_job_is_written_with_the_change_that_owes_the_move_and_goes_with_the_next(web_db: str) -> None:
    store = GameStore(web_db)
    first, _ = store.create(new_game("quarto"), ["easy", "human"])
    second, tokens = store.create(new_game("quarto"), ["human", "hard"])
    assert [(game, version, level) for game, version, level, *_ in _jobs(store)] == [(first.id, 0, "easy")]
    store.change(second.id, 0, tokens[0], lambda stored, seat: stored.game.play("A"))
    assert [row[:3] for row in _jobs(store)] == [(first.id, 0, "easy"), (second.id, 1, "hard")]
    store.change(first.id, 0, None, lambda stored, seat: stored.game.play("B"))
    assert [row[:3] for row in _jobs(store)] == [(second.id, 1, "hard")]


@pytest.mark.slow
def test_a_computer_game_plays_to_its_end_with_nobody_watching(web_db: str) -> None:
    with TestClient(create_app(web_db, ApiSettings(ai_time=0.5))) as client:
        body = {"game": "hermit", "options": {"size": 3}, "seats": ["easy", "easy"]}
        game = client.post("/api/games", json=body).json()
        _until(lambda: client.get(f"/api/games/{game['id']}").json()["outcome"] is not None, 60)
        view = client.get(f"/api/games/{game['id']}").json()
    assert view["version"] == view["ply"] >= 2 and not _jobs(GameStore(web_db))


def test_two_workers_holding_the_same_job_land_one_move(web_db: str) -> None:
    """The second claims the job once the first's short lease has run out; both compute (their
    next renewal is far off) and both try to land: the version check lets one move in."""
    store = GameStore(web_db)
    game, _ = store.create(new_game("hermit", size=4), ["easy", "easy"])  # unchecked, both would land

    async def race() -> list[bool]:
        first, second = (JobRunner(store, 0.5, 1, lease=60.0) for _ in range(2))
        short = JobQueue(store, lease=0.2)
        jobs = [short.claim(first.name)]
        time.sleep(0.25)
        jobs.append(short.claim(second.name))
        assert jobs[0] is not None and jobs[1] is not None and jobs[0].game_id == jobs[1].game_id == game.id
        try:
            return list(await asyncio.gather(first.run_job(jobs[0]), second.run_job(jobs[1])))
        finally:
            first.pool.close()
            second.pool.close()

    assert sorted(asyncio.run(race())) == [False, True]
    stored = store.load(game.id)
    assert stored.version == stored.ply == 1


def test_a_worker_that_stops_hands_its_job_back(web_db: str) -> None:
    store = GameStore(web_db)
    store.create(new_game("hermit", size=8), ["perfect", "human"])

    async def stop_mid_search() -> None:
        runner = JobRunner(store, 30.0, 1, lease=30.0)
        runner.start()
        while runner.running == 0:
            await asyncio.sleep(0.02)
        await runner.close(grace=0.2)

    asyncio.run(stop_mid_search())
    ((_, version, _, worker, attempts),) = _jobs(store)
    assert (version, worker, attempts) == (0, "", 1)
    assert JobQueue(store, 1.0).counts() == (1, 0)


def _worker(db: str, *options: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "bordspel", "worker", "--db", db, *options]
    worker = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert worker.stdout is not None and b"bordspel worker" in worker.stdout.readline()
    return worker


@pytest.mark.slow
def test_a_worker_killed_mid_search_loses_its_lease_and_another_makes_the_move(web_db: str) -> None:
    store = GameStore(web_db)
    game, _ = store.create(new_game("hermit", size=8), ["perfect", "human"])
    workers = [_worker(web_db, "--lease", "1", "--ai-time", "2", "--job-workers", "1") for _ in range(2)]
    try:
        _until(lambda: _jobs(store)[0][3] != "", 30)
        pid = int(_jobs(store)[0][3].split(":")[1])
        (killed,) = [worker for worker in workers if worker.pid == pid]
        os.kill(pid, signal.SIGKILL)
        killed.wait()
        _until(lambda: store.version(game.id) == 1, 30)
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
    stored = store.load(game.id)
    assert stored.ply == 1 and stored.state.to_move == 1 and not _jobs(store)


def test_the_computers_queue_is_bounded_and_a_full_queue_refuses_what_would_owe_it_more(
    tmp_path: Path,
) -> None:
    computer_first = {"game": "hermit", "options": {"size": 3}, "seats": ["easy", "human"]}
    person_first = {**computer_first, "seats": ["human", "easy"]}
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, ApiSettings(job_workers=0, max_queued_jobs=2))) as web:
        waiting = [web.post("/api/games", json=computer_first).status_code for _ in range(2)]
        game = web.post("/api/games", json=person_first).json()  # owes the computer nothing yet
        refused = web.post("/api/games", json=computer_first)
        move = {"version": 0, "move": game["legal"][0]["text"]}
        headers = {"Authorization": f"Bearer {game['tokens'][0]}"}
        moved = web.post(f"/api/games/{game['id']}/moves", json=move, headers=headers)
        unchanged = web.get(f"/api/games/{game['id']}").json()["version"]
    assert waiting == [201, 201] and refused.status_code == moved.status_code == 503
    assert refused.headers["retry-after"] == "10" and "2 moves waiting" in refused.json()["error"]
    store = GameStore(db)
    assert unchanged == 0 and len(_jobs(store)) == 2
    store.close()


def test_the_default_bound_on_the_queue_follows_the_workers() -> None:
    assert ApiSettings().queue_bound() == 8 and ApiSettings(job_workers=5).queue_bound() == 20
    assert ApiSettings(job_workers=0).queue_bound() == 8 and ApiSettings(max_queued_jobs=3).queue_bound() == 3


def _failing_claims(monkeypatch: pytest.MonkeyPatch, failures: list[int]) -> None:
    """``JobQueue.claim`` raises the error of a process out of file handles while
    ``failures[0]`` > 0 (each failure counts it down; -1: for ever)."""
    claim = JobQueue.claim

    def failing(queue: JobQueue, worker: str) -> Job | None:
        if failures[0]:
            failures[0] -= 1
            raise sqlite3.OperationalError("unable to open database file")
        return claim(queue, worker)

    monkeypatch.setattr(JobQueue, "claim", failing)


def _errors_counted(web: TestClient, loop: str) -> float:
    line = f'bordspel_background_errors_total{{loop="{loop}"}} '
    found = [text for text in web.get("/metrics").text.splitlines() if text.startswith(line)]
    return float(found[0].split()[-1]) if found else 0.0


def test_one_store_error_does_not_end_the_computers_worker(
    web_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _failing_claims(monkeypatch, [1])
    before = REGISTRY.get_sample_value("bordspel_background_errors_total", {"loop": "jobs"}) or 0.0
    with TestClient(create_app(web_db, ApiSettings(ai_time=0.2, job_workers=1))) as web:
        body = {"game": "quarto", "options": {}, "seats": ["easy", "human"]}
        game = web.post("/api/games", json=body).json()
        _until(lambda: web.get(f"/api/games/{game['id']}").json()["version"] >= 1, 60)
        assert _errors_counted(web, "jobs") == before + 1


def test_readiness_says_which_loop_fails_while_it_fails(web_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    failures = [-1]
    _failing_claims(monkeypatch, failures)
    with TestClient(create_app(web_db, ApiSettings(ai_time=0.2, job_workers=1))) as web:
        game = web.post(
            "/api/games", json={"game": "quarto", "options": {}, "seats": ["easy", "human"]}
        ).json()
        _until(lambda: web.get("/readyz").status_code == 503, 30)
        problems = web.get("/readyz").json()["problems"]
        assert any("'jobs'" in problem and "unable to open database file" in problem for problem in problems)
        failures[0] = 0  # the store answers again: the move is made and the site is ready
        _until(lambda: web.get(f"/api/games/{game['id']}").json()["version"] >= 1, 60)
        _until(lambda: web.get("/readyz").status_code == 200, 30)
