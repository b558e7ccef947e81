"""Load on the browser app over loopback: many games at once on 1, 2 and 4 web processes.

For each count of web processes (``--web 1,2,4``) it starts that many ``bordspel serve
--no-workers`` on one store (a fresh SQLite file, or ``--db postgresql://...``) and
``--workers`` ``bordspel worker`` processes, then keeps ``--games`` games going at once, of which
``--computer-games`` are a person against the computer (``--level``): ``--clients`` threads
take turns over the games, spreading their requests over the web processes: GET the game, and
when it is the person's turn POST their move (the first legal one, with the version seen). The
computer's moves are made by the workers, with nobody asking. A game that ends is replaced.

Prints progress every second, then per count of web processes: requests per second, the
person's moves per second with their p50/p99, and the computer's moves seen made.

``--faults``: meanwhile kill -9 one worker every 10 s and one web process every 20 s, each
restarted at once (as systemd's ``Restart=always`` does), and count

- acknowledged moves lost: a person's move answered 200 that is not at its ply in the game's
  record read after the run (from a live process, once every owed move was made);
- computer games stuck: a computer move owed for longer than its deadline plus the lease (the
  search's hard deadline, ``ai_time`` and half again, at least 2 s more, plus ``--lease``): from
  the moment the person's move that made it owed was acknowledged to the time the store wrote
  the computer's move (each move row's ``created``, read from the store after the run), or not
  made at all by then.

Both are printed without ``--faults`` too; the exit status is 1 when either is not 0, or when a
request failed without a fault to explain it.

Run:  python benchmarks/load_web.py                                  (the results page's figures)
      python benchmarks/load_web.py --faults --web 2                 (the fault run)
      python benchmarks/load_web.py --web 1 --games 8 --computer-games 2 --seconds 3   (smoke)
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import math
import os
import random
import signal
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
from dataclasses import dataclass, field
from typing import Any

GAME = {"game": "quarto", "options": {}}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Site:
    """The web processes and workers of one run, restarted when killed."""

    db: str
    ai_time: float
    lease: float
    web: list[tuple[int, subprocess.Popen[bytes]]] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def command(self, *words: str) -> list[str]:
        timing = ["--ai-time", str(self.ai_time), "--lease", str(self.lease)]
        return [sys.executable, "-m", "bordspel", *words, "--db", self.db, *timing]

    def start_web(self, port: int) -> subprocess.Popen[bytes]:
        unbounded = ["--games-per-minute", "0", "--max-queued-jobs", "100000"]  # the load is the measure
        extra = ["--no-workers", "--port", str(port), *unbounded]
        server = subprocess.Popen(self.command("serve", *extra), stdout=subprocess.PIPE)
        assert server.stdout is not None
        server.stdout.readline()  # "bordspel is serving on ..."
        return server

    def start_worker(self) -> subprocess.Popen[bytes]:
        worker = subprocess.Popen(self.command("worker", "--job-workers", "1"), stdout=subprocess.PIPE)
        assert worker.stdout is not None
        worker.stdout.readline()  # "bordspel worker ...: 1 moves at once ..."
        return worker

    def start(self, web: int, workers: int) -> None:
        """Start the processes; return once every web process is ready (its /readyz: the store
        answers and a worker is alive)."""
        self.web = [(port, self.start_web(port)) for port in [free_port() for _ in range(web)]]
        self.workers = [self.start_worker() for _ in range(workers)]
        for port, _ in self.web:
            while not ready(port):
                time.sleep(0.2)

    def kill_web(self, index: int) -> None:
        port, server = self.web[index]
        server.send_signal(signal.SIGKILL)
        server.wait()
        self.web[index] = (port, self.start_web(port))

    def kill_worker(self, index: int) -> None:
        self.workers[index].send_signal(signal.SIGKILL)
        self.workers[index].wait()
        self.workers[index] = self.start_worker()

    def stop(self) -> None:
        for process in [server for _, server in self.web] + self.workers:
            process.terminate()
        for process in [server for _, server in self.web] + self.workers:
            process.wait()


def ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as answer:
            return bool(answer.status == 200)
    except (OSError, http.client.HTTPException):
        return False


class Load:
    """The games, what was acknowledged, the latencies and failures, shared by the client threads."""

    def __init__(self, ports: list[int], args: argparse.Namespace) -> None:
        self.ports, self.args = ports, args
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.failures: Counter[str] = Counter()
        self.acknowledged: list[tuple[str, int, str]] = []
        self.owed: dict[tuple[str, int], float] = {}
        """(game, ply of the computer's move) -> when the move that made it owed was acknowledged."""
        self.games: list[dict[str, Any]] = []
        self.every_game: list[dict[str, Any]] = []
        self._next = itertools.count()

    def request(self, kind: str, method: str, path: str, body: Any = None, token: str = "") -> Any:
        """The answer's JSON (None on an HTTP error or when no web process answered)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for _ in range(10 * len(self.ports)):  # a killed web process: the next one
            port = self.ports[next(self._next) % len(self.ports)]
            started = time.perf_counter()
            try:
                sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
                with urllib.request.urlopen(sent, timeout=30) as response:
                    answer = json.loads(response.read())
            except urllib.error.HTTPError as error:
                self._failed(f"{kind} {error.code}: {error.read()[:80].decode(errors='replace')}")
                return None
            except (OSError, http.client.HTTPException) as error:
                self._failed(f"{kind}: no answer ({type(error).__name__})")
                if method == "POST" and kind == "move":
                    return None  # it may have landed: not acknowledged, the next GET shows
                time.sleep(0.05)
                continue
            with self.lock:
                self.times[kind].append(time.perf_counter() - started)
            return answer
        return None

    def _failed(self, what: str) -> None:
        with self.lock:
            self.failures[what] += 1

    def new_game(self, computer: bool) -> dict[str, Any] | None:
        seats = ["human", self.args.level] if computer else ["human", "human"]
        game = self.request("create", "POST", "/api/games", {**GAME, "seats": seats})
        if game is not None:
            with self.lock:
                self.every_game.append(game)
        return game

    def turn(self, index: int) -> None:
        """One look at game ``index``: the person's move when it is their turn."""
        game = self.games[index]
        view = self.request("get", "GET", f"/api/games/{game['id']}")
        if view is None:
            return
        if view["outcome"]:
            computer = game["seats"][1] != "human"
            self.games[index] = self.new_game(computer) or game
            return
        if view["seats"][view["to_move"]] != "human":
            return  # the computer's: a worker makes it
        move = view["legal"][0]["text"]
        body = {"version": view["version"], "move": move}
        token = game["tokens"][view["to_move"]]
        played = self.request("move", "POST", f"/api/games/{game['id']}/moves", body, token)
        if played is not None:
            with self.lock:
                self.acknowledged.append((game["id"], len(view["moves"]), move))
                if not played["outcome"] and played["seats"][played["to_move"]] != "human":
                    self.owed[game["id"], len(played["moves"])] = time.time()


def client(load: Load, mine: list[int], until: float) -> None:
    while time.monotonic() < until:
        for index in mine:
            load.turn(index)


def faults(site: Site, load: Load, until: float, killed: Counter[str]) -> None:
    """kill -9 a worker every 10 s and a web process every 20 s (each restarted)."""
    started, chooser = time.monotonic(), random.Random(7)
    for tick in itertools.count(1):
        if started + 10 * tick >= until:
            return
        time.sleep(max(0.0, started + 10 * tick - time.monotonic()))
        site.kill_worker(chooser.randrange(len(site.workers)))
        killed["worker"] += 1
        if tick % 2 == 0:
            site.kill_web(chooser.randrange(len(site.web)))
            killed["web"] += 1


def deadline(args: argparse.Namespace) -> float:
    """How long a computer move may be owed: the search's hard deadline and a lease."""
    return args.ai_time + max(2.0, args.ai_time / 2) + args.lease


def made(db: str, owed: dict[tuple[str, int], float]) -> dict[tuple[str, int], float]:
    """When the store wrote each owed computer move that it has (read through bordspel's store)."""
    from bordspel.web.store import GameStore

    store = GameStore(db)
    try:
        with store.db.transaction(write=False) as connection:
            rows = connection.execute("SELECT game_id, ply, created FROM moves").fetchall()
    finally:
        store.close()
    return {(game_id, ply): created for game_id, ply, created in rows if (game_id, ply) in owed}


def settle(load: Load, db: str) -> tuple[int, list[float]]:
    """After the run: the acknowledged moves lost, and the owed computer moves' waits (inf: never
    made), once every owed move was made or had its deadline and a lease to be."""
    end = time.monotonic() + deadline(load.args) + 1
    while len(made(db, load.owed)) < len(load.owed) and time.monotonic() < end:
        time.sleep(0.5)
    written = made(db, load.owed)
    waits = [written.get(key, math.inf) - acknowledged for key, acknowledged in load.owed.items()]
    records = {}
    for game in load.every_game:
        view = load.request("get", "GET", f"/api/games/{game['id']}")
        records[game["id"]] = view["moves"] if view else []
    lost = sum(records[game_id][ply : ply + 1] != [move] for game_id, ply, move in load.acknowledged)
    return lost, waits


def percentiles(times: list[float]) -> str:
    if len(times) < 2:
        return "too few"
    cuts = statistics.quantiles(times, n=100)
    return f"p50 {cuts[49] * 1000:6.1f} ms  p99 {cuts[98] * 1000:6.1f} ms"


def run(web: int, args: argparse.Namespace) -> bool:
    """One count of web processes; whether it kept every acknowledged move and left none stuck."""
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="bordspel-load-"), "games.sqlite3")
    site = Site(db, args.ai_time, args.lease)
    site.start(web, args.workers)
    load = Load([port for port, _ in site.web], args)
    try:
        computer = [True] * args.computer_games + [False] * (args.games - args.computer_games)
        load.games = [game for game in map(load.new_game, computer) if game is not None]
        until = time.monotonic() + args.seconds
        threads = [
            threading.Thread(target=client, args=(load, list(range(n, len(load.games), args.clients)), until))
            for n in range(args.clients)
        ]
        killed: Counter[str] = Counter()
        if args.faults:
            threads.append(threading.Thread(target=faults, args=(site, load, until, killed)))
        started = time.monotonic()
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            time.sleep(1)
            moves, owed, elapsed = len(load.times["move"]), len(load.owed), time.monotonic() - started
            print(f"\r  {elapsed:4.0f} s: {moves} moves, {owed} computer moves owed", end="", flush=True)
        seconds = time.monotonic() - started
        lost, waits = settle(load, db)
    finally:
        site.stop()
    stuck = sum(wait > deadline(args) for wait in waits)
    report(web, load, seconds, killed, lost, stuck, waits)
    unexplained = load.failures and not args.faults
    return not (lost or stuck or unexplained)


def report(
    web: int, load: Load, seconds: float, killed: Counter[str], lost: int, stuck: int, waits: list[float]
) -> None:
    requests = sum(len(times) for times in load.times.values())
    moves = load.times["move"]
    print(f"\n{web} web process(es), {len(load.games)} games ({load.args.computer_games} with the computer):")
    rates = f"{requests / seconds:7.1f} requests/s, {len(moves) / seconds:6.1f} moves/s"
    print(f"  {rates}, a person's move {percentiles(moves)}")
    made = [wait for wait in waits if wait < math.inf]
    worst = f", owed for p50 {statistics.median(made):.2f} s, the longest {max(made):.1f} s" if made else ""
    print(
        f"  {len(made)} of {len(waits)} owed computer moves made{worst} (allowed {deadline(load.args):g} s)"
    )
    if killed:
        print(f"  killed -9: {killed['worker']} workers, {killed['web']} web processes")
    print(f"  acknowledged moves lost: {lost} of {len(load.acknowledged)}; computer games stuck: {stuck}")
    print(f"  failures: {dict(load.failures.most_common(6)) or 'none'}")


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument(
        "--web", default="1,2,4", help="counts of web processes, one run each (default 1,2,4)"
    )
    parser.add_argument("--workers", type=int, default=2, help="bordspel worker processes (default 2)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--computer-games", type=int, default=50)
    parser.add_argument("--level", default="easy", help="the computer's level (default easy)")
    parser.add_argument("--clients", type=int, default=16, help="client threads (default 16)")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--ai-time", type=float, default=1.0, help="the computer's --ai-time (default 1)")
    parser.add_argument("--lease", type=float, default=3.0, help="the workers' --lease (default 3)")
    parser.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file per run)")
    parser.add_argument(
        "--faults", action="store_true", help="kill -9 a worker every 10 s, a web process every 20 s"
    )
    args = parser.parse_args()
    results = [run(int(count), args) for count in args.web.split(",")]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
