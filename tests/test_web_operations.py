"""What a host expects of the server: /healthz and /readyz, JSON logs with request ids, Prometheus
metrics, a graceful shutdown, and configuration from environment variables."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from bordspel.cli import build_parser, main
from bordspel.web.app import ApiSettings, create_app
from bordspel.web.events import Changes, version_stream
from bordspel.web.logs import BURST, RateLimited, configure_logging
from bordspel.web.store import GameStore
from tests.live import free_port
from tests.postgres import start_server
from tests.test_web_jobs import _jobs, _until


def test_health_and_readiness_say_whether_the_store_and_a_worker_answer(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, ApiSettings(job_workers=0))) as web:
        assert web.get("/healthz").json() == {"status": "alive"}
        alone = web.get("/readyz")
        assert alone.status_code == 503 and "no worker" in alone.json()["problems"][0]
        with TestClient(create_app(db)):  # a process with workers on the same store
            _until(lambda: web.get("/readyz").status_code == 200, 10)
            assert web.get("/readyz").json()["workers"] == 1  # one runner, however many searches
            db.rename(tmp_path / "away")
            db.mkdir()  # the store's file is gone: no database opens there
            gone = web.get("/readyz")
            assert gone.status_code == 503 and gone.json()["problems"] == ["the game store is unreachable"]
            assert web.get("/healthz").status_code == 200
            db.rmdir()
            (tmp_path / "away").rename(db)


@pytest.fixture
def json_logs() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    configure_logging("json", stream=stream)
    yield stream
    for name in ("bordspel", "uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.NOTSET)


def test_every_request_logs_one_json_line_with_its_request_id(tmp_path: Path, json_logs: io.StringIO) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", ApiSettings(job_workers=0))) as web:
        created = web.post("/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "human"]})
        given = web.get("/api/games/nope", headers={"X-Request-ID": "proxy-7f3a"})
        hostile = web.get("/healthz", headers={"X-Request-ID": "x" * 65})
    lines = [json.loads(line) for line in json_logs.getvalue().splitlines()]
    access = {line["request_id"]: line for line in lines if line["logger"] == "bordspel.access"}
    mine = access[created.headers["x-request-id"]]
    assert (mine["method"], mine["route"], mine["status"], mine["level"]) == (
        "POST",
        "/api/games",
        201,
        "info",
    )
    assert access["proxy-7f3a"]["status"] == given.status_code == 404
    assert given.headers["x-request-id"] == "proxy-7f3a"
    assert len(hostile.headers["x-request-id"]) == 16 and hostile.headers["x-request-id"] in access


def _sample(metrics: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels) in Prometheus text, 0 when absent."""
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_metrics_count_requests_streams_and_jobs(web_db: str) -> None:
    created = 'bordspel_http_requests_total{method="POST",route="/api/games",status="201"}'
    with TestClient(create_app(web_db, ApiSettings(job_workers=0, ai_time=0.5))) as web:
        before = web.get("/metrics").text
        body = {"game": "hermit", "options": {"size": 3}, "seats": ["easy", "human"]}
        assert web.post("/api/games", json=body).status_code == 201
        after = web.get("/metrics").text
    assert _sample(after, created) == _sample(before, created) + 1
    assert _sample(after, 'bordspel_jobs{state="queued"}') == 1
    assert _sample(after, 'bordspel_jobs{state="running"}') == 0
    assert _sample(after, "bordspel_job_workers") == 0
    assert "bordspel_open_streams" in after and "bordspel_http_request_duration_seconds_bucket" in after


def test_unknown_methods_and_paths_add_no_label_values(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", ApiSettings(job_workers=0))) as web:
        for number in range(3):
            web.request(f"BREW{number}", "/")
            web.get(f"/no/such/path/{number}")
        metrics = web.get("/metrics").text
    assert "BREW" not in metrics and "/no/such" not in metrics
    assert _sample(metrics, 'bordspel_http_requests_total{method="other",route="/",status="405"}') >= 3
    assert _sample(metrics, 'bordspel_http_requests_total{method="GET",route="unmatched",status="404"}') >= 3


def test_metrics_answer_without_the_stores_gauges_when_the_store_is_unreachable(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, ApiSettings(job_workers=0))) as web:
        db.rename(tmp_path / "away")
        _block_with_a_directory(db)
        metrics = web.get("/metrics")
        db.rmdir()
        (tmp_path / "away").rename(db)
    assert metrics.status_code == 200 and "bordspel_http_requests_total" in metrics.text
    assert "bordspel_jobs" not in metrics.text


def _block_with_a_directory(path: Path) -> None:
    """A directory where the store's file was, so that no database opens there (the server's
    background tasks may create the file again between the two steps: it is removed until none is)."""
    while True:
        path.unlink(missing_ok=True)
        try:
            path.mkdir()
            return
        except FileExistsError:
            continue


@pytest.mark.slow
def test_metrics_answer_without_the_stores_gauges_when_postgresql_is_down() -> None:
    server = start_server()  # a server of its own, to stop
    try:
        with TestClient(create_app(server.new_database(), ApiSettings(job_workers=0))) as web:
            up = web.get("/metrics").text
            server.stop()
            metrics = web.get("/metrics")
    finally:
        if server.data.exists():  # stop removes it
            server.stop()
    assert "bordspel_jobs" in up
    assert metrics.status_code == 200 and "bordspel_http_requests_total" in metrics.text
    assert "bordspel_jobs" not in metrics.text


def test_a_computer_move_lands_with_nobody_watching_and_is_timed_and_logged(
    web_db: str, json_logs: io.StringIO
) -> None:
    landed = 'bordspel_job_seconds_count{level="easy"}'
    with TestClient(create_app(web_db, ApiSettings(ai_time=0.5))) as web:
        before = _sample(web.get("/metrics").text, landed)
        body = {"game": "hermit", "options": {"size": 3}, "seats": ["easy", "human"]}
        game = web.post("/api/games", json=body).json()
        _until(lambda: web.get(f"/api/games/{game['id']}").json()["version"] == 1, 30)
        assert _sample(web.get("/metrics").text, landed) == before + 1
    lines = [json.loads(line) for line in json_logs.getvalue().splitlines()]
    (move,) = [line for line in lines if line["logger"] == "bordspel.jobs"]
    assert (move["level"], move["computer"], move["game"], move["version"]) == ("info", "easy", game["id"], 0)


def test_a_closing_server_ends_its_streams_with_a_retry_hint() -> None:
    async def stream() -> list[str]:
        changes = Changes()

        async def version() -> int:
            changes.close()  # the server shuts down while the stream runs
            return 3

        parts = {"version": ("g", version)}
        return [text async for text in version_stream(parts, changes, lifetime=60, poll=30)]

    sent = asyncio.run(stream())
    assert sent[-1] == "retry: 2000\nevent: closing\ndata: {}\n\n" and len(sent) == 3


@pytest.mark.slow
def test_sigterm_ends_streams_with_a_retry_hint_and_hands_back_the_running_job(web_db: str) -> None:
    """Two web processes (uvicorn's supervisor): SIGTERM reaches each, which drains itself."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "bordspel",
        "serve",
        "--port",
        str(port),
        "--db",
        web_db,
        "--workers",
        "2",
    ]
    server = subprocess.Popen([*command, "--ai-time", "60"], stdout=subprocess.PIPE)
    assert server.stdout is not None and "serving on" in server.stdout.readline().decode()
    store = GameStore(web_db)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            _until(lambda: _answers(client), 30)
            body = {"game": "hermit", "options": {"size": 8}, "seats": ["perfect", "human"]}
            game = client.post("/api/games", json=body).json()
            _until(lambda: _jobs(store)[0][3] != "", 30)  # a worker searches
            with client.stream("GET", f"/api/games/{game['id']}/events") as stream:
                server.send_signal(signal.SIGTERM)
                lines = list(stream.iter_lines())
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
    assert "event: closing" in lines and "retry: 2000" in lines
    ((_, version, _, worker, attempts),) = _jobs(store)
    assert (version, worker, attempts) == (0, "", 1)


def _answers(client: httpx.Client) -> bool:
    try:
        return client.get("/healthz").status_code == 200
    except httpx.HTTPError:
        return False


def test_options_come_from_environment_variables_and_flags_win(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BORDSPEL_DB", "/srv/bordspel/games.sqlite3")
    monkeypatch.setenv("BORDSPEL_JOB_WORKERS", "0")
    monkeypatch.setenv("BORDSPEL_ALLOWED_HOST", "games.example.org, play.example.org")
    monkeypatch.setenv("BORDSPEL_AI_TIME", "4")
    args = build_parser().parse_args(["serve", "--ai-time", "3"])
    assert (args.db, args.job_workers, args.ai_time) == ("/srv/bordspel/games.sqlite3", 0, 3.0)
    assert args.allowed_host == ["games.example.org", "play.example.org"]
    assert build_parser().parse_args(["db", "upgrade"]).db == "/srv/bordspel/games.sqlite3"
    monkeypatch.setenv("BORDSPEL_LEASE", "soon")
    monkeypatch.delenv("BORDSPEL_JOB_WORKERS")
    assert main(["worker"]) == 2
    assert "BORDSPEL_LEASE='soon'" in capsys.readouterr().err


@pytest.mark.slow
def test_several_processes_share_their_metrics_in_multi_process_mode(tmp_path: Path) -> None:
    """Two web processes with PROMETHEUS_MULTIPROC_DIR: either one's /metrics counts both."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    ports = [free_port(), free_port()]
    command = [sys.executable, "-m", "bordspel", "serve", "--db", str(tmp_path / "g.db"), "--no-workers"]
    servers = [
        subprocess.Popen([*command, "--port", str(port)], stdout=subprocess.PIPE, env=env) for port in ports
    ]
    try:
        for server in servers:
            assert server.stdout is not None and "serving on" in server.stdout.readline().decode()
        for port in ports:
            _until(lambda: httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200, 20)  # noqa: B023
        metrics = httpx.get(f"http://127.0.0.1:{ports[0]}/metrics").text
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    assert _sample(metrics, 'bordspel_http_requests_total{method="GET",route="/healthz",status="200"}') >= 2


def test_an_error_storm_is_logged_a_few_lines_a_minute(json_logs: io.StringIO) -> None:
    storm = logging.getLogger("asyncio")  # where the event loop reports a failing accept()
    for attempt in range(5000):
        storm.error("socket.accept() out of system resource\nsocket: <socket fd=%d>", attempt)
    logging.getLogger("bordspel.web").error("another failure")  # other kinds still get through
    logging.getLogger("bordspel.access").info("GET / 200")  # and requests are never held back
    lines = json_logs.getvalue().splitlines()
    assert len([line for line in lines if "out of system resource" in line]) == BURST
    assert any("another failure" in line for line in lines) and any("GET / 200" in line for line in lines)


def test_the_next_period_says_how_many_lines_were_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    limited, now = RateLimited(burst=2, period=60.0), [1000.0]
    monkeypatch.setattr("bordspel.web.logs.time.monotonic", lambda: now[0])

    def record() -> logging.LogRecord:
        return logging.LogRecord(
            "bordspel.jobs", logging.ERROR, __file__, 1, "claim failed: %s", ("x",), None
        )

    assert [limited.filter(record()) for _ in range(5)] == [True, True, False, False, False]
    now[0] += 61
    later = record()
    assert limited.filter(later) and getattr(later, "suppressed", None) == 3
