"""The deployment the docs recommend, started as it is written: Debian's nginx with the shipped
``deploy/nginx.conf`` (TLS with a self-signed certificate) in front of two ``bordspel serve
--no-workers`` on one real PostgreSQL (one of them ``--workers 2``: two web processes on its
port), a ``bordspel worker`` for the computer's moves, and the live updates through a real
``redis-server``. Clients come from several loopback addresses (127.0.0.x), which nginx tells
apart. With the slow tests."""

from __future__ import annotations

import json
import secrets
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from tests import nginx
from tests.live import free_port, serving
from tests.postgres import PostgresServer

pytestmark = pytest.mark.slow

GAMES_PER_MINUTE = 3
SIGNUPS_PER_HOUR = 2


@dataclass
class Site:
    """nginx's HTTPS address, the certificate to trust, and the web processes' own ports."""

    url: str
    port: int
    plain_port: int
    certificate: Path
    backends: list[int]

    def client(self, address: str) -> httpx.Client:
        """An HTTPS client of the site that connects from ``address`` (a loopback address)."""
        trusted = ssl.create_default_context(cafile=str(self.certificate))
        transport = httpx.HTTPTransport(local_address=address, verify=trusted)
        return httpx.Client(base_url=self.url, transport=transport, headers={"Host": nginx.NAME}, timeout=30)

    def connection(self, address: str) -> ssl.SSLSocket:
        """A raw TLS connection to nginx from ``address``."""
        context = ssl.create_default_context(cafile=str(self.certificate))
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=30, source_address=(address, 0))
        return context.wrap_socket(raw, server_hostname=nginx.NAME)


def web_process(db: str, pubsub: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``bordspel serve --no-workers --workers N`` as the deployment page runs it behind nginx."""
    command = [sys.executable, "-m", "bordspel", "serve", "--db", db, "--pubsub", pubsub, "--port", str(port)]
    command += ["--no-workers", "--workers", str(workers), "--ai-time", "0.3"]
    command += ["--forwarded-allow-ips", "127.0.0.1", "--allowed-host", nginx.NAME]
    command += ["--allowed-origin", f"https://{nginx.NAME}"]
    command += ["--games-per-minute", str(GAMES_PER_MINUTE), "--signups-per-hour", str(SIGNUPS_PER_HOUR)]
    return started(command)  # "bordspel is serving on ..."


def worker(db: str) -> subprocess.Popen[bytes]:
    """A ``bordspel worker`` for the computer's moves, one search at a time."""
    return started(
        [sys.executable, "-m", "bordspel", "worker", "--db", db, "--ai-time", "0.3", "--job-workers", "1"]
    )


def started(command: list[str]) -> subprocess.Popen[bytes]:
    """``command`` running, once it printed its first line."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()
    return process


@contextmanager
def running(process: subprocess.Popen[bytes]) -> Iterator[None]:
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def site(postgres_server: PostgresServer, redis_url: str) -> Iterator[Site]:
    nginx.require()
    db = postgres_server.new_database()
    subprocess.run([sys.executable, "-m", "bordspel", "db", "upgrade", "--db", db], check=True)
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for port, workers in zip(ports, (2, 1), strict=True):
            stack.enter_context(running(web_process(db, redis_url, port, workers)))
        stack.enter_context(running(worker(db)))
        proxy = nginx.Nginx(ports)
        stack.callback(proxy.stop)
        found = Site(proxy.url, proxy.port, proxy.plain_port, proxy.certificate, ports)
        _wait_until_ready(found)
        yield found


def _wait_until_ready(site: Site) -> None:
    """Each web process's own ``/readyz`` answers 200 (the store answers and a worker is alive)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with suppress(httpx.HTTPError):
            answers = [httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5) for port in site.backends]
            if all(answer.status_code == 200 for answer in answers):
                return
        time.sleep(0.2)
    raise AssertionError("the web processes are not ready")


def new_game(client: httpx.Client, seats: list[str]) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "quarto", "options": {}, "seats": seats})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play(client: httpx.Client, game: dict[str, Any], version: int, move: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {game['tokens'][version % 2]}"}
    body = {"version": version, "move": move}
    return client.post(f"/api/games/{game['id']}/moves", json=body, headers=headers)


def test_a_game_against_the_computer_is_played_over_https_through_the_proxy(site: Site) -> None:
    with site.client("127.0.0.2") as client:
        game = new_game(client, ["human", "easy"])
        assert play(client, game, 0, "A").status_code == 200
        deadline = time.monotonic() + 60
        while (view := client.get(f"/api/games/{game['id']}").json())["version"] < 2:
            assert time.monotonic() < deadline, "the computer's move did not come"
            time.sleep(0.2)
        assert view["to_move"] == 0 and len(view["moves"]) == 2


def test_live_updates_come_through_the_proxy_unbuffered_from_both_processes(site: Site) -> None:
    versions: list[int] = []
    seen = threading.Condition()

    def watch(game_id: str) -> None:
        path = f"/api/games/{game_id}/events"
        with (
            suppress(httpx.HTTPError),
            site.client("127.0.0.3") as watcher,
            watcher.stream("GET", path) as got,
        ):
            kind = ""
            for line in got.iter_lines():
                kind = line[6:].strip() if line.startswith("event:") else kind
                if line.startswith("data:") and kind == "version":
                    with seen:
                        versions.append(json.loads(line[5:])["version"])
                        seen.notify_all()

    with site.client("127.0.0.3") as client:
        game = new_game(client, ["human", "human"])
        threading.Thread(target=watch, args=(game["id"],), daemon=True).start()

        def announced(version: int) -> bool:
            with seen:
                return seen.wait_for(lambda: version in versions, timeout=20)

        for version, move in enumerate(["A", "a1:B", "b1:C", "c1:D"]):  # nginx alternates the two
            assert announced(version), versions
            assert play(client, game, version, move).status_code == 200
        assert announced(4), versions


def test_one_address_is_held_to_its_connections_while_another_plays(site: Site) -> None:
    """64 connections trickling bodies from one address (``limit_conn``, site-wide for this
    nginx): its 65th request is refused at once (429), and another address plays on."""
    held = []
    try:
        for _ in range(64):
            connection = site.connection("127.0.0.4")
            connection.sendall(_post_head(1000) + b"{")
            held.append(connection)
        time.sleep(0.5)
        with site.client("127.0.0.4") as attacker:
            assert attacker.get("/api/meta").status_code == 429
        with site.client("127.0.0.5") as other:
            game = new_game(other, ["human", "human"])
            assert play(other, game, 0, "A").status_code == 200
    finally:
        for connection in held:
            connection.close()


def _post_head(length: int) -> bytes:
    return (
        f"POST /api/games HTTP/1.1\r\nHost: {nginx.NAME}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def test_a_stalled_body_is_cut_by_the_proxy(site: Site) -> None:
    connection = site.connection("127.0.0.6")
    with connection:
        connection.sendall(_post_head(1000) + b"{")
        connection.settimeout(30)
        started = time.monotonic()
        answer = connection.recv(1000)
        assert time.monotonic() - started < 25
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:100]


def test_the_address_nginx_saw_counts_and_a_client_cannot_claim_another(site: Site) -> None:
    """New games a minute are counted per address across both processes (nginx alternates), by
    the address nginx saw, whatever ``X-Forwarded-For`` the client sends."""
    with site.client("127.0.0.7") as client:
        for n in range(GAMES_PER_MINUTE):
            spoofed = {"X-Forwarded-For": f"10.0.0.{n}"}
            body = {"game": "quarto", "options": {}, "seats": ["human", "human"]}
            assert client.post("/api/games", json=body, headers=spoofed).status_code == 201
        refused = client.post("/api/games", json=body, headers={"X-Forwarded-For": "10.9.9.9"})
        assert refused.status_code == 429, refused.text
    with site.client("127.0.0.8") as other:
        new_game(other, ["human", "human"])


def test_metrics_and_readiness_answer_only_inside(site: Site) -> None:
    with site.client("127.0.0.9") as outside, site.client("127.0.0.1") as inside:
        assert outside.get("/metrics").status_code == 403
        assert outside.get("/readyz").status_code == 403
        assert inside.get("/readyz").status_code == 200
        assert "bordspel_http_requests_total" in inside.get("/metrics").text


def test_sign_ups_are_limited_per_address_across_both_processes(site: Site) -> None:
    def sign_up(n: int) -> int:
        with site.client("127.0.0.10") as client:
            body = {"username": f"deploy{secrets.token_hex(4)}{n}", "password": secrets.token_urlsafe(18)}
            return client.post("/api/account", json=body).status_code

    with ThreadPoolExecutor(2 * SIGNUPS_PER_HOUR) as pool:
        statuses = sorted(pool.map(sign_up, range(2 * SIGNUPS_PER_HOUR)))
    assert statuses == [201] * SIGNUPS_PER_HOUR + [429] * SIGNUPS_PER_HOUR


def test_the_open_challenges_cap_holds_across_both_processes(site: Site) -> None:
    """Anonymous challenges posted at once from 60 addresses through both processes: exactly the
    lobby's share for them is taken, the rest refused."""
    from bordspel.web.lobby import ANONYMOUS

    def post(n: int) -> int:
        with site.client(f"127.0.1.{n + 1}") as client:
            return client.post("/api/challenges", json={"game": "quarto", "options": {}}).status_code

    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(post, range(ANONYMOUS + 10)))
    assert statuses.count(201) == ANONYMOUS and statuses.count(429) == 10, statuses


def test_plain_http_is_sent_to_https(site: Site) -> None:
    answer = httpx.get(f"http://127.0.0.1:{site.plain_port}/lobby", headers={"Host": nginx.NAME})
    assert answer.status_code == 301
    assert answer.headers["Location"] == f"https://{nginx.NAME}/lobby"


def _busy_or_fine(request: Request) -> PlainTextResponse:
    busy = request.url.path == "/busy"
    return PlainTextResponse("busy" if busy else "fine", status_code=503 if busy else 200)


def test_a_503_of_the_web_processes_reaches_the_client_and_takes_no_server_out() -> None:
    """A web process's own 503 (a queue full, the hint worker busy) is passed on as it is: were it
    a failure to nginx, two of them would take both servers out and every client would get 502."""
    nginx.require()
    app = Starlette(routes=[Route("/{path:path}", _busy_or_fine)])
    with serving(app) as one, serving(app) as two:
        proxy = nginx.Nginx([int(one.rsplit(":", 1)[1]), int(two.rsplit(":", 1)[1])])
        trusted = ssl.create_default_context(cafile=str(proxy.certificate))
        try:
            with httpx.Client(base_url=proxy.url, verify=trusted, headers={"Host": nginx.NAME}) as client:
                assert [client.get("/busy").status_code for _ in range(2)] == [503, 503]
                assert [client.get("/").status_code for _ in range(6)] == [200] * 6
        finally:
            proxy.stop()
