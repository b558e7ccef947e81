"""The browser app against hostile use: foreign sites and hosts, wrong content types, big bodies,
unknown routes, a locked database, old database files, stuck searches, and duplicate AI requests."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bordspel.ai.registry import knowledge
from bordspel.core import available_games
from bordspel.record import Game
from bordspel.web.ai_pool import AIPool, AITimeout, SharedTasks
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.pages import PAGES, render
from bordspel.web.seats import budgeted_spec
from bordspel.web.security import Guard, GuardSettings
from bordspel.web.store import LATEST, GameStore
from tests.live import serving

FIXTURE = Path(__file__).parent / "data" / "games-v0.sqlite3"
CREATE = b'{"game": "quarto", "options": {}, "seats": ["human", "human"]}'


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(web_db)) as client:
        yield client


def post(client: TestClient, headers: dict[str, str], body: bytes = CREATE, path: str = "/api/games") -> int:
    return client.post(path, content=body, headers=headers).status_code


def test_a_plain_text_post_from_another_site_is_refused(client: TestClient) -> None:
    assert post(client, {"Content-Type": "text/plain"}) == 415
    assert post(client, {}) == 415
    json = {"Content-Type": "application/json; charset=utf-8"}
    assert post(client, {**json, "Origin": "http://evil.example"}) == 403
    assert post(client, {**json, "Origin": "null"}) == 403
    assert post(client, {**json, "Host": "evil.example"}) == 403
    assert post(client, {**json, "Origin": "http://testserver"}) == 201
    assert post(client, json) == 201


def test_hosts_and_origins_behind_a_proxy_are_allowed_by_name(tmp_path: Path) -> None:
    app = create_app(
        tmp_path / "g.sqlite3",
        allowed_hosts=["games.example.org"],
        allowed_origins=["https://games.example.org"],
    )
    with TestClient(app) as client:
        json = {"Content-Type": "application/json"}
        assert (
            post(client, {**json, "Host": "games.example.org", "Origin": "https://games.example.org"}) == 201
        )
        assert post(client, {**json, "Host": "other.example.org"}) == 403
        assert post(client, {**json, "Origin": "https://other.example.org"}) == 403


def test_loopback_and_ip_hosts_with_the_servers_port_are_the_servers_own(client: TestClient) -> None:
    json = {"Content-Type": "application/json"}
    assert post(client, {**json, "Host": "127.0.0.1"}) == 201
    assert post(client, {**json, "Host": "localhost:80"}) == 201
    assert post(client, {**json, "Host": "127.0.0.1:8080"}) == 403
    assert post(client, {**json, "Host": "localhost.evil.example"}) == 403


def test_digits_that_are_not_ascii_are_refused_not_a_server_error(tmp_path: Path) -> None:
    async def answer(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(answer, GuardSettings.of((), ()))
    superscript = "\u00b2".encode("latin-1")  # "²": str.isdigit() says yes, int() says no
    host = [(b"host", b"127.0.0.1:" + superscript)]
    length = [
        (b"host", b"127.0.0.1:80"),
        (b"content-type", b"application/json"),
        (b"content-length", superscript),
    ]
    assert [_status(guard, "POST", headers) for headers in (host, length)] == [403, 204]


def _status(app: ASGIApp, method: str, headers: list[tuple[bytes, bytes]]) -> int:
    """The status ``app`` answers to a request with ``headers`` and an empty body, to 127.0.0.1:80."""
    sent: list[Message] = []
    scope = {
        "type": "http",
        "method": method,
        "path": "/api/games",
        "headers": headers,
        "server": ("127.0.0.1", 80),
    }

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return int(sent[0]["status"])


def test_bodies_over_64_kb_are_refused(client: TestClient) -> None:
    big = b'{"game": "quarto", "pad": "' + b"x" * 70_000 + b'"}'
    assert post(client, {"Content-Type": "application/json"}, big) == 413

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"x" * 1000

    response = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "larger" in response.json()["error"]


def test_every_answer_has_the_security_headers_and_pages_no_inline_script(client: TestClient) -> None:
    for path in ("/", "/api/meta", "/static/app.js", "/nowhere"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert (
            "'unsafe-inline'" not in headers["content-security-policy"].split("script-src")[1].split(";")[0]
        )
        assert headers["x-content-type-options"] == "nosniff"
    for name in PAGES:
        assert "<script>" not in render(name)


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/nowhere", 404),
        ("GET", "/api/nowhere", 404),
        ("DELETE", "/api/meta", 405),
        ("PUT", "/api/games", 405),
        ("GET", "/api/games/x%00y", 404),
        ("GET", "/api/games/" + "a" * 500, 404),
        ("GET", "/api/games/missing/record", 404),
        ("GET", "/static/../pyproject.toml", 404),
    ],
)
def test_unknown_routes_and_methods_answer_json(
    client: TestClient, method: str, path: str, status: int
) -> None:
    response = client.request(method, path)
    assert response.status_code == status and "error" in response.json()


def test_quarto_pieces_never_name_a_descriptor_and_the_server_keeps_answering(client: TestClient) -> None:
    for pieces in (0, 1, 2, 6, "6", "/dev/stdin"):
        body = {"game": "quarto", "options": {"pieces": pieces}, "seats": ["human", "human"]}
        assert client.post("/api/games", json=body).status_code == 400
    assert client.get("/api/meta").status_code == 200
    os.fstat(0)  # stdin is still open


@pytest.mark.slow
def test_a_locked_database_answers_503_with_retry_after(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        game = client.post("/api/games", content=CREATE, headers={"Content-Type": "application/json"}).json()
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        started = time.monotonic()
        response = client.post(
            f"/api/games/{game['id']}/moves",
            json={"version": 0, "move": "A"},
            headers={"Authorization": f"Bearer {game['tokens'][0]}"},
        )
        waited = time.monotonic() - started
        locker.execute("ROLLBACK")
        assert response.status_code == 503 and response.headers["retry-after"] == "1", (response.text, waited)
        assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_new_games_are_limited_per_address_across_processes_sharing_the_store(tmp_path: Path) -> None:
    settings = ApiSettings(games_per_minute=3)
    body = {"game": "hermit", "options": {"size": 3}, "seats": ["human", "easy"]}
    db = tmp_path / "g.sqlite3"
    with TestClient(create_app(db, settings)) as one, TestClient(create_app(db, settings)) as two:
        made = [client.post("/api/games", json=body).status_code for client in (one, two, one)]
        refused = two.post("/api/games", json=body)  # the second server process counts the first's games
    assert made == [201] * 3
    assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
    assert "new games a minute" in refused.json()["error"]
    with sqlite3.connect(tmp_path / "g.sqlite3") as raw:
        creators = {row[0] for row in raw.execute("SELECT creator FROM games")}
        assert len(creators) == 1 and "testclient" not in creators.pop()  # a hash, not the address
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3


@pytest.mark.parametrize("proxy", [None, "127.0.0.1"])
def test_x_forwarded_for_names_the_client_only_when_it_comes_from_the_named_proxy(
    tmp_path: Path, proxy: str | None
) -> None:
    app = create_app(tmp_path / "g.sqlite3", ApiSettings(job_workers=0, games_per_minute=1))
    body = {"game": "hermit", "options": {"size": 3}, "seats": ["human", "human"]}
    with serving(app, proxy) as base, httpx.Client(base_url=base, timeout=10) as client:
        made = [
            client.post("/api/games", json=body, headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
            for n in (1, 2)
        ]
    assert made == ([201, 429] if proxy is None else [201, 201])  # one address, or the proxy's two


def test_the_first_releases_database_is_migrated(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, db)
    os.chmod(db, 0o644)
    store = GameStore(db)
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST
        ids = dict(raw.execute("SELECT game, id FROM games").fetchall())
        assert raw.execute("SELECT DISTINCT notation FROM moves").fetchall() == [(1,)]
    santorini = store.load(ids["santorini"])
    assert santorini.version == 3 and [m.to_str() for m in santorini.game.moves] == ["a1b1", "e4e5", "a1a2b2"]
    hermit = store.load(ids["hermit"])
    assert hermit.seats == ["human", "medium"]  # a raw player text with a newline is gone
    with TestClient(create_app(db)) as client:
        record = client.get(f"/api/games/{ids['hermit']}/record").text
        assert Game.from_record(record).tags["Seat2"] == "medium"
    GameStore(db)  # opening it again changes nothing


def test_a_new_database_is_private_with_foreign_keys(tmp_path: Path) -> None:
    db = tmp_path / "new" / "games.sqlite3"
    store = GameStore(db)
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    with store.db.transaction() as raw:
        assert raw.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute("INSERT INTO moves (game_id, ply, move, created) VALUES ('none', 0, 'A', 0)")


def test_every_level_gets_the_servers_time_budget() -> None:
    for game in available_games():
        for level in knowledge(game).levels:
            spec = budgeted_spec(game, level, 4.0)
            options = dict(part.split("=") for part in spec.split(":")[1].split(","))
            assert float(options["time"]) <= 4.0 and float(options["solver_time"]) <= 2.0, spec
    assert "solver_time=2" in budgeted_spec("hermit", "perfect", 4.0)
    assert "solver_time=0.9" in budgeted_spec("hermit", "hard", 4.0)  # its share of its own second


def test_a_search_past_its_deadline_is_killed_and_the_pool_goes_on() -> None:
    async def scenario() -> tuple[float, str]:
        pool = AIPool(workers=1, deadline=1.0)
        started = time.monotonic()
        with pytest.raises(AITimeout):
            await pool.run(time.sleep, 60)
        took = time.monotonic() - started
        pool.deadline = 30.0  # the replacement process may start slowly on a loaded machine
        answer = await pool.run(str, 42)
        pool.close()
        return took, answer

    took, answer = asyncio.run(scenario())
    assert took < 30 and answer == "42"


def test_two_requests_for_one_turn_share_one_computation() -> None:
    calls: list[int] = []

    async def compute() -> int:
        calls.append(1)
        await asyncio.sleep(0.05)
        return len(calls)

    async def scenario() -> list[int]:
        shared = SharedTasks()
        results = await asyncio.gather(*(shared.run(("game", 3), compute) for _ in range(40)))
        return list(results)

    assert asyncio.run(scenario()) == [1] * 40 and calls == [1]
