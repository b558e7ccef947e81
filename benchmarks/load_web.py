"""Load on the browser app over loopback: N clients for S seconds while the computer thinks.

Starts ``bordspel serve`` on a free port with a fresh database (or uses ``--url``). Each client
plays Quarto between two people as fast as it can: GET the game, POST its first legal move (with
the version it saw), a new game when one ends. Meanwhile ``--thinkers`` threads keep the
computer busy with games between two ``hard`` players (Santorini, ``/ai`` requests). Prints
progress every second, then the p50/p99 latency of the GETs and POSTs and of the AI moves, and
any answer that was not a success (then the exit status is 1).

Run:  python benchmarks/load_web.py                          (the README's figures)
      python benchmarks/load_web.py --clients 2 --seconds 3  (a quick look)
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from typing import Any


class Load:
    """Latencies per kind of request and the statuses of failures, shared by the client threads."""

    def __init__(self, base: str, until: float) -> None:
        self.base, self.until = base, until
        self.times: dict[str, list[float]] = defaultdict(list)
        self.failures: Counter[str] = Counter()
        self.lock = threading.Lock()

    def request(self, kind: str, method: str, path: str, body: Any = None, token: str = "") -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        try:
            sent = urllib.request.Request(self.base + path, data, headers, method=method)
            with urllib.request.urlopen(sent) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as error:
            with self.lock:
                self.failures[f"{kind} {error.code}: {error.read()[:100].decode(errors='replace')}"] += 1
            return None
        with self.lock:
            self.times[kind].append(time.perf_counter() - started)
        return answer

    def new_game(self, game: str, seats: list[str]) -> Any:
        return self.request("POST", "POST", "/api/games", {"game": game, "options": {}, "seats": seats})


def player(load: Load) -> None:
    """Two people's Quarto, move after move."""
    game = load.new_game("quarto", ["human", "human"])
    while time.monotonic() < load.until:
        view = load.request("GET", "GET", f"/api/games/{game['id']}")
        if view is None or view["outcome"]:
            game = load.new_game("quarto", ["human", "human"])
            continue
        body = {"version": view["version"], "move": view["legal"][0]["text"]}
        load.request("POST", "POST", f"/api/games/{game['id']}/moves", body, game["tokens"][view["to_move"]])


def thinker(load: Load) -> None:
    """The computer against itself, one /ai request after another."""
    game = load.new_game("santorini", ["hard", "hard"])
    version = 0
    while time.monotonic() < load.until:
        path = f"/api/games/{game['id']}/ai"
        view = load.request("AI", "POST", path, {"version": version}, game["tokens"][0])
        if view is None or view["outcome"]:
            game, version = load.new_game("santorini", ["hard", "hard"]), 0
        else:
            version = view["version"]


def serve(ai_time: float) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = os.path.join(tempfile.mkdtemp(), "games.sqlite3")
    command = [
        sys.executable,
        "-m",
        "bordspel",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--games-per-minute",
        "0",
    ]
    server = subprocess.Popen([*command, "--ai-time", str(ai_time)], stdout=subprocess.PIPE)
    assert server.stdout is not None
    server.stdout.readline()  # "bordspel is serving on ..."
    return server, f"http://127.0.0.1:{port}"


def percentiles(times: list[float]) -> str:
    if len(times) < 2:
        return "too few"
    cuts = statistics.quantiles(times, n=100)
    return f"p50 {cuts[49] * 1000:7.1f} ms  p99 {cuts[98] * 1000:7.1f} ms  ({len(times)} requests)"


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--thinkers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--ai-time", type=float, default=2.0, help="the server's --ai-time")
    parser.add_argument("--url", help="a running server instead of a fresh one")
    args = parser.parse_args()
    server, base = (None, args.url) if args.url else serve(args.ai_time)
    load = Load(base.rstrip("/"), time.monotonic() + args.seconds)
    threads = [threading.Thread(target=player, args=(load,)) for _ in range(args.clients)]
    threads += [threading.Thread(target=thinker, args=(load,)) for _ in range(args.thinkers)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        time.sleep(1)
        done = ", ".join(f"{len(load.times[kind])} {kind}" for kind in ("GET", "POST", "AI"))
        print(f"\r  {done} answered", end="", flush=True)
    print(f"\n{args.clients} clients and {args.thinkers} AI games for {args.seconds:g} s against {base}")
    for kind in ("GET", "POST", "AI"):
        print(f"  {kind:4} {percentiles(load.times[kind])}")
    print(f"  failures: {dict(load.failures) or 'none'}")
    if server is not None:
        server.terminate()
        server.wait()
    return 1 if load.failures or not load.times["POST"] else 0


if __name__ == "__main__":
    sys.exit(main())
