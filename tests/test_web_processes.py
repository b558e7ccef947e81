"""Many processes, one site: ``bordspel serve`` processes on one database see each other's moves
live (through SQLite's file, PostgreSQL's NOTIFY or Redis), and ``--workers N`` serves one port
from N processes. Real processes, a real PostgreSQL and a real Redis; with the slow tests."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.live import alive, children, free_port
from tests.postgres import PostgresServer

pytestmark = pytest.mark.slow

SERVER = """
import json, socket, sys
from bordspel.web.api import ApiSettings
from bordspel.web.server import serve
port, workers, db, pubsub = json.loads(sys.argv[1])
listener = socket.create_server(("127.0.0.1", port))
print("serving", flush=True)
serve(listener, workers, db, ApiSettings(events_poll=60.0), ("text", "warning"), pubsub=pubsub)
"""
"""``bordspel serve`` whose streams read the version only once a minute by themselves: a move
seen sooner came through the fan-out."""


@contextmanager
def server(db: str, workers: int = 1, pubsub: str | None = None) -> Iterator[tuple[str, int]]:
    """A server process (and its workers) on a free port: its URL and process id."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, json.dumps([port, workers, db, pubsub])], stdout=subprocess.PIPE
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == b"serving\n"
        url = f"http://127.0.0.1:{port}"
        _wait_until_it_answers(url)
        yield url, process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def _wait_until_it_answers(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/meta", timeout=5).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"{url} does not answer")


@contextmanager
def stream(url: str, event: str = "version") -> Iterator[queue.Queue[int]]:
    """The numbers a live-update stream of ``url`` announces in its ``event`` events, as they come."""
    versions: queue.Queue[int] = queue.Queue()
    ready = threading.Event()

    def read() -> None:
        with suppress(httpx.HTTPError), httpx.Client(timeout=120) as client, client.stream("GET", url) as got:
            ready.set()
            kind = ""
            for line in got.iter_lines():
                kind = line[6:].strip() if line.startswith("event:") else kind
                if line.startswith("data:") and kind == event:
                    versions.put(json.loads(line[5:])[event])

    threading.Thread(target=read, daemon=True).start()
    ready.wait(30)
    yield versions


def new_game(url: str) -> dict[str, Any]:
    body = {"game": "quarto", "options": {}, "seats": ["human", "human"]}
    response = httpx.post(f"{url}/api/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play(url: str, game: dict[str, Any], version: int) -> None:
    """The move of ``version`` (Quarto's hands and places), on a connection of its own."""
    moves = ["A", "a1:B", "b1:C", "c1:D", "d2:E", "a2:F"]
    headers = {"Authorization": f"Bearer {game['tokens'][version % 2]}"}
    body = {"version": version, "move": moves[version]}
    response = httpx.post(f"{url}/api/games/{game['id']}/moves", json=body, headers=headers, timeout=30)
    assert response.status_code == 200, response.text


def sees_every_move(watcher: str, players: list[str], moves: int) -> None:
    """A stream on ``watcher`` announces each of ``moves`` moves made through ``players`` in turn
    (within 20 s each, where the stream itself would look only after 60 s)."""
    game = new_game(players[0])
    with stream(f"{watcher}/api/games/{game['id']}/events") as versions:
        assert versions.get(timeout=30) == 0
        for version in range(moves):
            play(players[version % len(players)], game, version)
            assert versions.get(timeout=20) == version + 1


def test_a_stream_on_one_process_sees_the_moves_made_through_another(db: str) -> None:
    with server(db) as (one, _), server(db) as (two, _):
        sees_every_move(one, [two], 3)
        sees_every_move(two, [one, two], 4)


def test_live_updates_between_processes_resume_after_postgresql_restarts(
    postgres_server: PostgresServer,
) -> None:
    db = postgres_server.new_database()
    with server(db) as (one, _), server(db) as (two, _):
        sees_every_move(one, [two], 2)
        postgres_server.restart()  # the pools' connections and each process's LISTEN are cut
        sees_every_move(one, [two], 2)


def test_live_updates_between_processes_through_redis(tmp_path: Path, redis_url: str) -> None:
    db = str(tmp_path / "games.sqlite3")
    with server(db, pubsub=redis_url) as (one, _), server(db, pubsub=redis_url) as (two, _):
        sees_every_move(one, [two], 3)


def test_serve_with_workers_is_one_site_and_a_killed_worker_is_replaced(db: str) -> None:
    with server(db, workers=2) as (url, parent):
        workers = _web_workers(parent)
        assert len(workers) == 2
        sees_every_move(url, [url], 4)  # each move on a new connection: either process takes it
        killed = workers.pop()
        subprocess.run(["kill", "-9", str(killed)], check=True)
        deadline = time.monotonic() + 60
        while killed in _web_workers(parent) or len(_web_workers(parent)) < 2:
            assert time.monotonic() < deadline, "no new web process in 60 s"
            time.sleep(0.2)
        sees_every_move(url, [url], 4)


def _web_workers(parent: int) -> set[int]:
    """The web processes uvicorn's supervisor ``parent`` runs (not its resource tracker)."""
    found = set()
    for pid in children(parent):
        with suppress(OSError):
            command = (Path("/proc") / str(pid) / "cmdline").read_bytes()
            if b"spawn_main" in command and alive(pid):
                found.add(pid)
    return found
