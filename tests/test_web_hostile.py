"""A hostile client against ``bordspel serve`` started as a user starts it: a body trickled in,
too many connections from one address or in all, and an error storm in the logs (issue 38)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from tests.live import free_port


@contextmanager
def bordspel_serve(db: str, *flags: str) -> Iterator[int]:
    """``bordspel serve --no-workers`` with ``flags`` on a free port until the block ends: its port."""
    port = free_port()
    command = [sys.executable, "-m", "bordspel", "serve", "--port", str(port), "--db", db, "--no-workers"]
    server = subprocess.Popen([*command, *flags], stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None and "serving on" in server.stdout.readline().decode()
        _wait_until_it_answers(port)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_until_it_answers(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with suppress(OSError), _connection(port) as probe:
            if _get(probe, port).startswith(b"HTTP/1.1 200"):
                return
        time.sleep(0.1)
    raise AssertionError(f"port {port} does not answer")


@contextmanager
def _connection(port: int, source: str = "127.0.0.1") -> Iterator[socket.socket]:
    """A TCP connection to the server from ``source`` (any 127.x.y.z is this machine)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0)) as sock:
        yield sock


def _get(sock: socket.socket, port: int) -> bytes:
    """The answer to ``GET /healthz`` on a kept-alive connection (its whole, short text)."""
    sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    return answer


def _until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    answer = b""
    with suppress(ConnectionResetError):
        while chunk := sock.recv(4096):
            answer += chunk
    return answer


def test_a_body_trickled_in_is_cut_off_with_408(tmp_path: Path) -> None:
    with bordspel_serve(str(tmp_path / "g.db"), "--body-timeout", "1") as port, _connection(port) as slow:
        slow.sendall(
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{".encode()
        )
        slow.settimeout(0.25)
        answer = b""
        for _ in range(240):  # a byte every quarter of a second, for up to a minute
            try:
                answer = slow.recv(4096)
                break
            except TimeoutError:
                with suppress(OSError):
                    slow.sendall(b" ")
        assert answer.startswith(b"HTTP/1.1 408"), answer
        slow.settimeout(30)
        assert b"came too slowly" in answer + _until_closed(slow)
        with _connection(port) as honest:  # the server answers others as before
            assert _get(honest, port).startswith(b"HTTP/1.1 200")


def test_connections_past_an_address_cap_and_the_process_cap_are_refused_at_once(tmp_path: Path) -> None:
    flags = ("--connections-per-address", "3", "--max-connections", "7")
    with bordspel_serve(str(tmp_path / "g.db"), *flags) as port, ExitStack() as held:
        mine = [held.enter_context(_connection(port)) for _ in range(3)]
        for sock in mine:
            assert _get(sock, port).startswith(b"HTTP/1.1 200")  # accepted and counted
        with _connection(port) as fourth:
            refused = _until_closed(fourth)
        assert refused.startswith(b"HTTP/1.1 503") and b"from your address" in refused, refused
        others = [held.enter_context(_connection(port, f"127.0.0.{n}")) for n in (2, 2, 3, 3)]
        for sock in others:
            assert _get(sock, port).startswith(b"HTTP/1.1 200")
        with _connection(port, "127.0.0.4") as eighth:
            refused = _until_closed(eighth)
        assert refused.startswith(b"HTTP/1.1 503") and b"too many open connections" in refused, refused
        mine.pop().close()  # a connection given up makes room for another
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with _connection(port) as again:
                if _get(again, port).startswith(b"HTTP/1.1 200"):
                    return
            time.sleep(0.1)
        raise AssertionError("a closed connection never made room")


def test_requests_h11_cannot_read_get_a_json_400(tmp_path: Path) -> None:
    """Found by an attacker (2026-11-28): no Host header, or a query past the line limit, got
    uvicorn's plain-text 400; every refusal of the server is JSON."""
    with bordspel_serve(str(tmp_path / "games.sqlite3")) as port:
        for request in (b"GET /healthz HTTP/1.1\r\n\r\n", b"GET /?q=" + b"x" * 70_000 + b" HTTP/1.1\r\n\r\n"):
            with _connection(port) as sock:
                with suppress(ConnectionResetError, BrokenPipeError):
                    sock.sendall(request)
                answer = _until_closed(sock)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400"), answer[:300]
            assert b"content-type: application/json" in head
            assert "Host header" in json.loads(body)["error"]
