"""The app over real HTTP: live updates through Server-Sent Events, and ``bordspel serve`` on a
port that is already taken."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from bordspel.web.app import ApiSettings, create_app
from bordspel.web.events import StreamSlots
from bordspel.web.server import HeaderDeadline
from bordspel.web.store import Busy
from tests.live import alive, children, free_port, serving


def _events(url: str, seen: list[tuple[float, dict[str, Any]]], wanted: int) -> None:
    """Collect ``version`` events (with their arrival time) until ``wanted`` have come."""
    with httpx.Client(timeout=10) as client, client.stream("GET", url) as stream:
        kind = None
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and kind == "version":
                seen.append((time.monotonic(), json.loads(line[5:])))
                if len(seen) == wanted:
                    return


def test_a_move_reaches_a_listening_browser_through_server_sent_events(web_db: str) -> None:
    app = create_app(web_db, ApiSettings(events_poll=30.0))
    with serving(app) as base, httpx.Client(base_url=base, timeout=10) as client:
        game = client.post(
            "/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "human"]}
        ).json()
        seen: list[tuple[float, dict[str, Any]]] = []
        listener = threading.Thread(target=_events, args=(f"{base}/api/games/{game['id']}/events", seen, 2))
        listener.start()
        while not seen:
            time.sleep(0.01)
        sent = time.monotonic()
        moved = client.post(
            f"/api/games/{game['id']}/moves",
            json={"version": 0, "move": "A"},
            headers={"Authorization": f"Bearer {game['tokens'][0]}"},
        )
        listener.join(timeout=10)
        assert moved.status_code == 200 and [event for _, event in seen] == [{"version": 0}, {"version": 1}]
        assert seen[1][0] - sent < 5  # woken by the move, not by the 30 s look at the store
        assert client.get("/api/games/nope/events").status_code == 404


def _opens(client: httpx.Client, url: str) -> bool:
    """Whether a stream of ``url`` opens within a few seconds (the server notices closed ones)."""
    for _ in range(50):
        with client.stream("GET", url) as stream:
            if stream.status_code == 200:
                return True
        time.sleep(0.1)
    return False


def test_live_streams_are_capped_per_address_and_in_all_and_a_closed_one_frees_its_slot(
    tmp_path: Path,
) -> None:
    app = create_app(tmp_path / "games.sqlite3", ApiSettings(streams_per_client=2, streams_total=3))
    with serving(app) as base, httpx.Client(base_url=base, timeout=10) as client:
        game = client.post("/api/games", json={"game": "quarto", "options": {}, "seats": ["human", "human"]})
        url = f"/api/games/{game.json()['id']}/events"
        first, second = (client.stream("GET", url) for _ in range(2))
        with first as one, second as two:
            assert one.status_code == two.status_code == 200
            refused = client.get(url)
            assert refused.status_code == 503 and refused.headers["Retry-After"]
            assert "from your address" in refused.json()["error"]
        assert _opens(client, url)  # the two closed streams gave their slots back
    streams = StreamSlots(per_client=5, total=2)
    streams.take("a")
    streams.take("b")
    with pytest.raises(Busy, match="try again shortly"):
        streams.take("c")
    streams.give_back("a")
    streams.take("c")


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes) -> bool:
    """Send ``trickle`` a byte at a time; whether the server closes the socket within ``seconds``."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    for byte in trickle:
        if time.monotonic() > deadline:
            return False
        try:
            sock.sendall(bytes([byte]))
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            return True
    return False


def test_a_client_that_sends_its_headers_too_slowly_is_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HeaderDeadline, "header_timeout", 0.5)
    with serving(create_app(tmp_path / "games.sqlite3")) as base:
        host, port = base.removeprefix("http://").split(":")
        request = f"GET /api/meta HTTP/1.1\r\nHost: {host}:{port}\r\n".encode()
        slow = request + b"X-Slow: " + b"a" * 200
        with socket.create_connection((host, int(port))) as first:
            assert _closed_within(first, 5, slow)
        with socket.create_connection((host, int(port))) as second:  # a whole request is served,
            second.sendall(request + b"\r\n")
            answer = second.recv(64)
            assert answer.startswith(b"HTTP/1.1 200"), answer
            time.sleep(0.1)
            second.recv(1 << 20)
            assert _closed_within(second, 5, slow)  # and the next one on the connection has the deadline too


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_no_worker_outlives_a_server_killed_during_a_search(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "bordspel", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")]
    server = subprocess.Popen([*command, "--ai-time", "30"], stdout=subprocess.PIPE)
    assert server.stdout is not None and "serving on" in server.stdout.readline().decode()
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=60) as client:
        body = {"game": "hermit", "options": {"size": 8}, "seats": ["hard", "human"]}
        game = client.post("/api/games", json=body).json()
        headers = {"Authorization": f"Bearer {game['tokens'][1]}"}

        def ask_for_the_computers_move() -> None:
            with suppress(httpx.HTTPError):  # the server dies while it searches
                client.post(f"/api/games/{game['id']}/ai", json={"version": 0}, headers=headers)

        threading.Thread(target=ask_for_the_computers_move, daemon=True).start()
        deadline = time.monotonic() + 30
        while len(children(server.pid)) < 2 and time.monotonic() < deadline:  # a worker and the tracker
            time.sleep(0.1)
        workers = children(server.pid)
        time.sleep(1)  # the worker is searching
        server.kill()
        server.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) >= 2 and not [pid for pid in workers if alive(pid)]


def test_serve_on_a_busy_port_says_so_and_exits_2(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        result = subprocess.run(
            [sys.executable, "-m", "bordspel", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2 and "serving on" not in result.stdout
    assert f"cannot serve on 127.0.0.1:{port}" in result.stderr and "in use" in result.stderr


def test_many_requests_for_one_computer_turn_share_one_computation(web_db: str) -> None:
    with serving(create_app(web_db, ApiSettings(ai_time=1.0))) as base:
        with httpx.Client(base_url=base, timeout=30) as client:
            body = {"game": "santorini", "options": {}, "seats": ["hard", "human"]}
            game = client.post("/api/games", json=body).json()
        answers: list[httpx.Response] = []

        def ask() -> None:
            with httpx.Client(base_url=base, timeout=30) as client:
                headers = {"Authorization": f"Bearer {game['tokens'][1]}"}
                answers.append(
                    client.post(f"/api/games/{game['id']}/ai", json={"version": 0}, headers=headers)
                )

        askers = [threading.Thread(target=ask) for _ in range(20)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        assert [answer.status_code for answer in answers] == [200] * 20, [
            a.text for a in answers if a.status_code != 200
        ]
        assert {answer.json()["version"] for answer in answers} == {1}
        assert len({json.dumps(answer.json()["moves"]) for answer in answers}) == 1
