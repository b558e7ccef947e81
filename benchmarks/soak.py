"""A soak run with faults: the deployment the docs recommend under mixed traffic and attacks,
while processes are killed, PostgreSQL restarts and a process's open-file limit is besieged.

Starts a real PostgreSQL (``tests/postgres.py``), a real ``redis-server`` for the live updates,
``--web`` ``bordspel serve`` processes (each with one in-process worker for the computer's
moves, 2048 open files) and Debian's nginx with the shipped ``deploy/nginx.conf`` over HTTPS
(``tests/nginx.py``), then for ``--minutes``:

- honest players (``--players`` threads from their own addresses) play Quarto games through
  nginx, a third of them against the computer, asking for a hint now and then;
- viewers hold live-update streams, a reader polls the lobby, an owner logs in every 3 s;
- attacks at a bounded rate: 30 bodies trickled a byte every 5 s, a burst of 80 connections
  from one address every 30 s, a refused sign-up a second, two anonymous board analyses at once
  from one address, and a wrong password a second against the owner's account;
- faults: kill -9 of a web process every ``--kill-every`` seconds (restarted at once, as
  systemd's ``Restart=always`` does), one PostgreSQL restart, and once 2,400 connections straight
  at one web process from 40 addresses (past its open-file limit), held 20 s.

Then it reports the honest players' acknowledged moves, those lost (not in the game's record
read afterwards: must be 0), the computer games stuck (a computer move owed longer than its
search's deadline and a lease: must be 0), p50/p99 of an honest move in the minute before,
during and in the minute after each fault, what the attacks got, and each web process's
memory over time; ``--plot`` draws the latencies and memory (matplotlib, the train extra).
The exit status is 1 when a move was lost or a game stuck (with ``--smoke``, only when a move
was lost: half a minute with three faults on a loaded CI machine leaves a computer move's lease
too little time to say "stuck" fairly).

Run:  python benchmarks/soak.py --minutes 30 --plot docs/figures/soak.png   (the results page)
      python benchmarks/soak.py --smoke                                      (a few seconds' check)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the real servers' helpers

from tests import nginx
from tests.live import free_port
from tests.postgres import PostgresServer
from tests.redis_server import redis_server

from load_web import deadline, made

OPEN_FILES = 2048
"""Each web process's open-file limit (its --max-connections default: half of it)."""
PASSWORD = "soak-owner-" + "x7Qp2LmZ9vRt"


@dataclass
class Fault:
    kind: str
    start: float
    end: float = math.nan


@dataclass
class Site:
    """The web processes (restarted when killed), PostgreSQL, nginx."""

    db: str
    pubsub: str
    args: argparse.Namespace
    postgres: PostgresServer
    ports: list[int] = field(default_factory=list)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start_web(self, port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "bordspel", "serve", "--db", self.db, "--pubsub", self.pubsub]
        command += ["--port", str(port), "--ai-time", str(self.args.ai_time), "--lease", str(self.args.lease)]
        command += ["--job-workers", "1", "--games-per-minute", "0", "--max-queued-jobs", "1000"]
        command += ["--forwarded-allow-ips", "127.0.0.1", "--allowed-host", nginx.NAME]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, preexec_fn=_limit_files)
        assert process.stdout is not None
        process.stdout.readline()  # "bordspel is serving on ..."
        return process

    def start(self) -> None:
        self.ports = [free_port() for _ in range(self.args.web)]
        self.processes = [self.start_web(port) for port in self.ports]
        for port in self.ports:
            wait_ready(port)

    def kill(self, slot: int) -> None:
        """kill -9 the web process of ``slot`` and start it again; return once it is ready."""
        self.processes[slot].send_signal(signal.SIGKILL)
        self.processes[slot].wait()
        self.processes[slot] = self.start_web(self.ports[slot])
        wait_ready(self.ports[slot])

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait()


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def ready(port: int) -> bool:
    with suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as answer:
        return bool(answer.status == 200)
    return False


def wait_ready(port: int) -> None:
    deadline_at = time.monotonic() + 120
    while not ready(port):
        if time.monotonic() > deadline_at:
            raise RuntimeError(f"the web process on {port} is not ready after 120 s")
        time.sleep(0.2)


class Traffic:
    """What every thread saw: honest moves, acknowledged moves, owed computer moves, statuses."""

    def __init__(self, url: str, certificate: Path, until: float) -> None:
        self.url, self.until, self.began = url, until, time.time()
        self.context = ssl.create_default_context(cafile=str(certificate))
        self.lock = threading.Lock()
        self.moves: list[tuple[float, float, int]] = []  # (when sent, seconds, status)
        self.acknowledged: list[tuple[str, int, str]] = []
        self.owed: dict[tuple[str, int], float] = {}
        self.games: list[dict[str, Any]] = []
        self.statuses: Counter[str] = Counter()
        self.failures: list[tuple[float, str]] = []  # (when, what): no answer, or 5xx
        self.events = 0

    def running(self) -> bool:
        return time.monotonic() < self.until

    def client(self, address: str, timeout: float = 30) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address, verify=self.context)
        headers = {"Host": nginx.NAME}
        return httpx.Client(base_url=self.url, transport=transport, headers=headers, timeout=timeout)

    def call(
        self, client: httpx.Client, kind: str, method: str, path: str, **kw: Any
    ) -> httpx.Response | None:
        """The answer (None when none came), its status counted under ``kind``."""
        try:
            answer = client.request(method, path, **kw)
        except httpx.HTTPError as error:
            self.count(kind, type(error).__name__)
            return None
        self.count(kind, str(answer.status_code))
        return answer

    def count(self, kind: str, what: str) -> None:
        with self.lock:
            self.statuses[f"{kind} {what}"] += 1
            if what[0] not in "234":
                self.failures.append((time.time(), f"{kind} {what}"))


def new_game(traffic: Traffic, client: httpx.Client, computer: bool) -> dict[str, Any] | None:
    seats = ["human", "easy"] if computer else ["human", "human"]
    body = {"game": "quarto", "options": {}, "seats": seats}
    answer = traffic.call(client, "create", "POST", "/api/games", json=body)
    if answer is None or answer.status_code != 201:
        return None
    game: dict[str, Any] = answer.json()
    with traffic.lock:
        traffic.games.append(game)
    return game


def player(traffic: Traffic, number: int) -> None:
    """An honest player from an address of its own: three games at once, one against the computer."""
    with traffic.client(f"127.0.3.{number + 1}") as client:
        games = [new_game(traffic, client, computer) for computer in (True, False, False)]
        turns = 0
        while traffic.running():
            for index, game in enumerate(games):
                if game is None:
                    games[index] = new_game(traffic, client, index == 0)
                    continue
                turns += 1
                if not turn(traffic, client, game, hint=turns % 15 == 0):
                    games[index] = new_game(traffic, client, index == 0)
            time.sleep(0.1)


def turn(traffic: Traffic, client: httpx.Client, game: dict[str, Any], hint: bool) -> bool:
    """One look at ``game``: the person's move on their turn; False once the game is over."""
    answer = traffic.call(client, "get", "GET", f"/api/games/{game['id']}")
    if answer is None or answer.status_code != 200:
        return True
    view = answer.json()
    if view["outcome"]:
        return False
    if view["seats"][view["to_move"]] != "human":
        return True
    headers = {"Authorization": f"Bearer {game['tokens'][view['to_move']]}"}
    if hint and view["seats"][1 - view["to_move"]] != "human":
        traffic.call(client, "hint", "GET", f"/api/games/{game['id']}/analysis", headers=headers)
    move = random.choice(view["legal"])["text"]
    body = {"version": view["version"], "move": move}
    sent, started = time.time(), time.perf_counter()
    played = traffic.call(
        client, "move", "POST", f"/api/games/{game['id']}/moves", json=body, headers=headers
    )
    status = 0 if played is None else played.status_code
    with traffic.lock:
        traffic.moves.append((sent, time.perf_counter() - started, status))
        if status == 200:
            after = played.json() if played is not None else {}
            traffic.acknowledged.append((game["id"], len(view["moves"]), move))
            if not after["outcome"] and after["seats"][after["to_move"]] != "human":
                traffic.owed[game["id"], len(after["moves"])] = time.time()
    return True


def viewer(traffic: Traffic, number: int) -> None:
    """A spectator on a live-update stream of a random game, reconnecting when it ends."""
    with traffic.client(f"127.0.4.{number + 1}", timeout=90) as client:
        while traffic.running():
            with traffic.lock:
                game = random.choice(traffic.games) if traffic.games else None
            if game is None:
                time.sleep(1)
                continue
            with suppress(httpx.HTTPError), client.stream("GET", f"/api/games/{game['id']}/events") as got:
                traffic.count("stream", str(got.status_code))
                for line in got.iter_lines():
                    if line.startswith("event: version"):
                        with traffic.lock:
                            traffic.events += 1
                    if not traffic.running():
                        break
            time.sleep(0.5)


def every(
    seconds: float, address: str, action: Callable[[Traffic, httpx.Client], None]
) -> Callable[[Traffic], None]:
    """A thread's loop: ``action`` every ``seconds`` from ``address``."""

    def loop(traffic: Traffic) -> None:
        with traffic.client(address) as client:
            while traffic.running():
                action(traffic, client)
                time.sleep(seconds)

    return loop


def lobby(traffic: Traffic, client: httpx.Client) -> None:
    traffic.call(client, "lobby", "GET", "/api/lobby")


def owner_logs_in(traffic: Traffic, client: httpx.Client) -> None:
    body = {"username": "soakowner", "password": PASSWORD}
    traffic.call(client, "owner log-in", "POST", "/api/session", json=body)


def guesses_password(traffic: Traffic, client: httpx.Client) -> None:
    body = {"username": "soakowner", "password": f"guess{random.randrange(10**9)}"}
    traffic.call(client, "attack: password guess", "POST", "/api/session", json=body)


def weak_sign_up(traffic: Traffic, client: httpx.Client) -> None:
    body = {"username": f"weak{random.randrange(10**9)}", "password": "12345678"}
    traffic.call(client, "attack: weak sign-up", "POST", "/api/account", json=body)


def board_analysis(traffic: Traffic, client: httpx.Client) -> None:
    first = random.choice([{}, {"move": "A"}, {"move": "B"}])
    board = traffic.call(client, "attack: board", "GET", "/api/board", params={"game": "quarto", **first})
    if board is not None and board.status_code == 200:
        query = {"game": "quarto", "position": board.json()["position"], "lines": "5"}
        traffic.call(client, "attack: board analysis", "GET", "/api/board/analysis", params=query)


def connection(traffic: Traffic, address: str) -> ssl.SSLSocket:
    port = int(traffic.url.rsplit(":", 1)[1])
    raw = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(address, 0))
    return traffic.context.wrap_socket(raw, server_hostname=nginx.NAME)


HEAD = f"POST /api/games HTTP/1.1\r\nHost: {nginx.NAME}\r\nContent-Type: application/json\r\n"


def trickler(traffic: Traffic) -> None:
    """30 bodies trickled a byte every 5 s from one address, each replaced when cut."""
    held: list[ssl.SSLSocket | None] = [None] * 30
    while traffic.running():
        for index, socket_ in enumerate(held):
            try:
                if socket_ is None:
                    socket_ = held[index] = connection(traffic, "127.0.0.67")
                    socket_.sendall(f"{HEAD}Content-Length: 100000\r\n\r\n".encode())
                socket_.sendall(b" ")
            except OSError:
                traffic.count("attack: trickled body", "cut")
                held[index] = None
        time.sleep(5)
    for socket_ in held:
        if socket_ is not None:
            socket_.close()


def burst(traffic: Traffic, client: httpx.Client) -> None:
    """80 connections at once from one address, each a body begun; then a request (429 expected)."""
    held = []
    with suppress(OSError):
        for _ in range(80):
            opened = connection(traffic, "127.0.0.68")
            opened.sendall(f"{HEAD}Content-Length: 1000\r\n\r\n{{".encode())
            held.append(opened)
    traffic.call(client, "attack: request during a burst", "GET", "/api/meta")
    for opened in held:
        opened.close()


class Faults:
    """kill -9, a PostgreSQL restart and a siege of one process's open files, at their times."""

    def __init__(self, site: Site, traffic: Traffic, args: argparse.Namespace) -> None:
        self.site, self.traffic, self.args = site, traffic, args
        self.done: list[Fault] = []
        self.siege: Counter[str] = Counter()

    def run(self, started: float) -> None:
        seconds = self.args.minutes * 60
        every_ = self.args.kill_every
        kills = [every_ * n for n in range(1, int(seconds // every_) + 1) if every_ * n < seconds - 10]
        plan = [(at, "kill") for at in kills] + [(seconds * 0.45, "postgres"), (seconds * 0.62, "siege")]
        for at, kind in sorted(plan):
            time.sleep(max(0.0, started + at - time.monotonic()))
            if self.traffic.running():
                self.fault(kind)

    def fault(self, kind: str) -> None:
        fault = Fault(kind, time.time())
        if kind == "kill":
            slot = sum(f.kind.startswith("kill") for f in self.done) % len(self.site.ports)
            fault.kind = f"kill -9 web {slot}"
            self.site.kill(slot)
        elif kind == "postgres":
            fault.kind = "PostgreSQL restart"
            self.site.postgres.restart()
        else:
            fault.kind = "open files besieged (web 0)"
            self.besiege(self.site.ports[0])
        fault.end = time.time()
        self.done.append(fault)
        print(f"\n  {fault.kind}: {fault.end - fault.start:.1f} s", flush=True)

    def besiege(self, port: int) -> None:
        """2,400 connections straight at one web process from 40 addresses, held 20 s."""
        held = []
        for address in range(1, 41):
            for _ in range(60):
                try:
                    held.append(socket.create_connection(("127.0.0.1", port), 5, (f"127.0.2.{address}", 0)))
                    self.siege["opened"] += 1
                except OSError:
                    self.siege["refused"] += 1
        time.sleep(20)
        for opened in held:
            opened.close()


def memory(site: Site, traffic: Traffic, samples: list[tuple[float, int, int, float]]) -> None:
    """Each web process's resident memory (MB) every 10 s: (when, slot, pid, MB)."""
    while traffic.running():
        for slot, process in enumerate(site.processes):
            with suppress(OSError, ValueError, IndexError):  # IndexError: a killed process, no VmRSS
                status = Path(f"/proc/{process.pid}/status").read_text()
                kilobytes = int(status.split("VmRSS:")[1].split()[0])
                samples.append((time.time(), slot, process.pid, kilobytes / 1024))
        time.sleep(10)


def settle(site: Site, traffic: Traffic, args: argparse.Namespace) -> tuple[int, int]:
    """After the run: acknowledged moves lost and computer games stuck."""
    end = time.monotonic() + deadline(args) + 5
    while len(made(site.db, traffic.owed)) < len(traffic.owed) and time.monotonic() < end:
        time.sleep(0.5)
    written = made(site.db, traffic.owed)
    waits = {key: written.get(key, math.inf) - at for key, at in traffic.owed.items()}
    stuck = sum(wait > deadline(args) for wait in waits.values())
    for (game, ply), wait in waits.items():
        if wait > deadline(args):
            print(f"stuck: game {game} ply {ply}: owed {wait:.1f} s (allowed {deadline(args):.1f} s)")
    records: dict[str, list[str]] = {}
    with traffic.client("127.0.0.2") as client:
        for game in traffic.games:
            answer = client.get(f"/api/games/{game['id']}")
            records[game["id"]] = answer.json()["moves"] if answer.status_code == 200 else []
    lost = sum(records.get(game, [])[ply : ply + 1] != [move] for game, ply, move in traffic.acknowledged)
    return lost, stuck


def window(moves: list[tuple[float, float, int]], start: float, end: float) -> str:
    """p50/p99 (ms) of the honest moves sent in [start, end), and how many failed."""
    times = [seconds for sent, seconds, status in moves if start <= sent < end and status == 200]
    failed = sum(start <= sent < end and status != 200 for sent, _, status in moves)
    if len(times) < 2:
        return f"{len(times)} moves"
    cuts = statistics.quantiles(times, n=100)
    extra = f", {failed} not 200" if failed else ""
    return f"{cuts[49] * 1000:.0f} / {cuts[98] * 1000:.0f} ms ({len(times)}{extra})"


def figures(
    traffic: Traffic, faults: Faults, samples: list[tuple[float, int, int, float]], settled: tuple[int, int]
) -> dict[str, Any]:
    """A run's raw figures (what ``--json`` saves and ``--report`` reads back)."""
    return {
        "moves": traffic.moves,
        "faults": [(f.kind, f.start, f.end) for f in faults.done],
        "memory": samples,
        "began": traffic.began,
        "lost": settled[0],
        "stuck": settled[1],
        "acknowledged": len(traffic.acknowledged),
        "owed": len(traffic.owed),
        "games": len(traffic.games),
        "events": traffic.events,
        "siege": dict(faults.siege),
        "statuses": dict(traffic.statuses),
        "failures": traffic.failures,
    }


def report(data: dict[str, Any]) -> None:
    """The faults' table, the run's totals, memory per process and every status seen."""
    fault_table(data)
    print(f"\nhonest moves over the whole run: {window(data['moves'], 0, math.inf)}")
    print(f"acknowledged moves: {data['acknowledged']}; lost: {data['lost']}")
    print(f"computer moves owed: {data['owed']}; games stuck: {data['stuck']}; games: {data['games']}")
    print(f"live updates seen by viewers: {data['events']}; siege of open files: {data['siege']}")
    memory_table(data["memory"])
    print("\nstatuses:")
    for what, count in sorted(data["statuses"].items()):
        print(f"  {what}: {count}")


def fault_table(data: dict[str, Any]) -> None:
    moves, began = data["moves"], data["began"]
    print("\n| fault | at (min) | lasted | honest move p50 / p99, minute before | during | minute after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for kind, start, end in data["faults"]:
        before = window(moves, start - 60, start)
        during = window(moves, start, end + 5)
        after = window(moves, end + 5, end + 65)
        print(
            f"| {kind} | {(start - began) / 60:.1f} | {end - start:.1f} s | {before} | {during} | {after} |"
        )


def memory_table(samples: list[tuple[float, int, int, float]]) -> None:
    """Each web process's resident memory: first, last and largest sample of each of its lives."""
    print("\n| web process | pid | samples | first MB | last MB | max MB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for slot in sorted({slot for _, slot, _, _ in samples}):
        for pid in dict.fromkeys(pid for _, s, pid, _ in samples if s == slot):
            mine = [mb for _, s, p, mb in samples if s == slot and p == pid]
            print(f"| web {slot} | {pid} | {len(mine)} | {mine[0]:.0f} | {mine[-1]:.0f} | {max(mine):.0f} |")


def plot(data: dict[str, Any], path: str) -> None:
    """Honest moves' p50/p99 per 30 s and each web process's memory, the faults shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (latency, memory_axis) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    for label, (minutes, values) in latency_lines(data).items():
        latency.plot(minutes, values, label=f"honest move {label}")
    latency.set_yscale("log")
    latency.set_ylabel("ms (per 30 s)")
    for slot, (minutes, megabytes) in memory_lines(data).items():
        memory_axis.plot(minutes, megabytes, ".", markersize=3, label=f"web {slot}")
    memory_axis.set_ylabel("resident MB")
    memory_axis.set_xlabel("minutes")
    top = latency.get_ylim()[1]
    for kind, start, end in data["faults"]:
        at, until = (start - data["began"]) / 60, (end - data["began"]) / 60
        for axis in (latency, memory_axis):
            axis.axvspan(at, until + 0.05, color="red", alpha=0.2)
        latency.annotate(kind.split(" (")[0], (at, top), rotation=90, fontsize=7, va="top")
    latency.legend(loc="upper left")
    memory_axis.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def latency_lines(data: dict[str, Any]) -> dict[str, tuple[list[float], list[float]]]:
    """p50 and p99 (ms) of the honest moves answered 200 in each 30 s, at the minute of its middle."""
    buckets: dict[int, list[float]] = {}
    for sent, seconds, status in data["moves"]:
        if status == 200:
            buckets.setdefault(int((sent - data["began"]) // 30), []).append(seconds * 1000)
    kept = [bucket for bucket in sorted(buckets) if len(buckets[bucket]) > 1]
    minutes = [(bucket + 0.5) / 2 for bucket in kept]
    cuts = [statistics.quantiles(buckets[bucket], n=100) for bucket in kept]
    return {"p50": (minutes, [cut[49] for cut in cuts]), "p99": (minutes, [cut[98] for cut in cuts])}


def memory_lines(data: dict[str, Any]) -> dict[int, tuple[list[float], list[float]]]:
    """Each web process slot's samples: minutes and resident MB (a restarted process continues it)."""
    lines: dict[int, tuple[list[float], list[float]]] = {}
    for when, slot, _, megabytes in data["memory"]:
        minutes, values = lines.setdefault(slot, ([], []))
        minutes.append((when - data["began"]) / 60)
        values.append(megabytes)
    return lines


def traffic_threads(traffic: Traffic, args: argparse.Namespace) -> list[threading.Thread]:
    loops: list[Callable[[Traffic], None]] = [
        every(1.0, "127.0.0.20", lobby),
        every(3.0, "127.0.0.21", owner_logs_in),
        every(1.0, "127.0.0.66", guesses_password),
        every(1.0, "127.0.0.69", weak_sign_up),
        every(30.0, "127.0.0.68", burst),
        every(0.2, "127.0.0.70", board_analysis),
        every(0.2, "127.0.0.70", board_analysis),
        trickler,
    ]
    threads = [threading.Thread(target=loop, args=(traffic,), daemon=True) for loop in loops]
    threads += [threading.Thread(target=player, args=(traffic, n), daemon=True) for n in range(args.players)]
    threads += [threading.Thread(target=viewer, args=(traffic, n), daemon=True) for n in range(args.viewers)]
    return threads


def sign_up_owner(traffic: Traffic) -> None:
    with traffic.client("127.0.0.21") as client:
        answer = client.post("/api/account", json={"username": "soakowner", "password": PASSWORD})
        assert answer.status_code == 201, answer.text


def soak(args: argparse.Namespace) -> dict[str, Any]:
    """Start the site, run the traffic and the faults for ``--minutes``, settle: the figures."""
    with ExitStack() as stack:
        postgres = PostgresServer()
        stack.callback(postgres.stop)
        db = postgres.new_database()
        subprocess.run([sys.executable, "-m", "bordspel", "db", "upgrade", "--db", db], check=True)
        site = Site(db, stack.enter_context(redis_server()), args, postgres)
        site.start()
        stack.callback(site.stop)
        proxy = nginx.Nginx(site.ports)
        stack.callback(proxy.stop)
        traffic = Traffic(proxy.url, proxy.certificate, time.monotonic() + args.minutes * 60)
        sign_up_owner(traffic)
        faults, samples = Faults(site, traffic, args), []
        threads = traffic_threads(traffic, args)
        threads.append(threading.Thread(target=memory, args=(site, traffic, samples), daemon=True))
        threads.append(threading.Thread(target=faults.run, args=(time.monotonic(),), daemon=True))
        for thread in threads:
            thread.start()
        while traffic.running():
            time.sleep(5)
            minutes = (time.time() - traffic.began) / 60
            print(
                f"\r  {minutes:5.1f} min: {len(traffic.acknowledged)} moves acknowledged", end="", flush=True
            )
        for thread in threads:
            thread.join(timeout=60)
        return figures(traffic, faults, samples, settle(site, traffic, args))


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--web", type=int, default=2, help="bordspel serve processes (default 2)")
    parser.add_argument("--players", type=int, default=8, help="honest players (default 8)")
    parser.add_argument("--viewers", type=int, default=4, help="live-update viewers (default 4)")
    parser.add_argument(
        "--kill-every", type=float, default=240, help="seconds between kill -9s (default 240)"
    )
    parser.add_argument("--ai-time", type=float, default=0.3, help="the computer's --ai-time (default 0.3)")
    parser.add_argument("--lease", type=float, default=3.0, help="the workers' --lease (default 3)")
    parser.add_argument("--plot", help="a PNG of latencies and memory over time")
    parser.add_argument("--json", help="the raw figures as JSON")
    parser.add_argument("--smoke", action="store_true", help="half a minute, a kill every 10 s")
    parser.add_argument("--report", metavar="JSON", help="no run: the report (and --plot) of a saved one")
    args = parser.parse_args()
    if args.smoke:
        args.minutes, args.kill_every, args.players, args.viewers = 0.5, 10, 2, 1
    data = json.loads(Path(args.report).read_text()) if args.report else soak(args)
    if args.json:
        Path(args.json).write_text(json.dumps(data))
    report(data)
    if args.plot:
        plot(data, args.plot)
    return 1 if data["lost"] or (data["stuck"] and not args.smoke) else 0


if __name__ == "__main__":
    sys.exit(main())
