"""How long a move made through one server process takes to reach a live stream on another.

Starts two ``bordspel serve`` processes on one database (a fresh SQLite file, or ``--db URL``;
``--pubsub redis://...`` passes the news through Redis). A stream listens on the first; moves
are made through the second, one at a time, each when the previous one was announced. The delay
of a move is from the moment its request is sent to the moment the stream announces its version
(so it includes the request itself). Prints progress, then p50, p99 and the largest delay.

Run:  python benchmarks/live_delay.py                                   (SQLite)
      python benchmarks/live_delay.py --db postgresql://USER@HOST/DB     (PostgreSQL NOTIFY)
      python benchmarks/live_delay.py --pubsub redis://127.0.0.1:6379/0  (Redis pub/sub)
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PIECES = "ABCDEFGH"
SQUARES = ["a1", "b1", "c1", "a2", "b2", "d2", "a4"]
"""Seven squares with no four in a line: eight moves of a game that goes on."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(db: str, pubsub: str | None) -> Iterator[str]:
    """``bordspel serve`` on a free port: its URL, until the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "bordspel", "serve", "--port", str(port), "--db", db]
    command += ["--games-per-minute", "0", *(["--pubsub", pubsub] if pubsub else [])]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()  # "bordspel is serving on ..."
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait()


def post(url: str, body: Any, token: str = "") -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def listen(url: str, versions: queue.Queue[tuple[float, int]]) -> None:
    """Put (arrival time, version) for each version the stream at ``url`` announces."""
    with urllib.request.urlopen(url, timeout=120) as stream:
        kind = b""
        for line in stream:
            kind = line[6:].strip() if line.startswith(b"event:") else kind
            if line.startswith(b"data:") and kind == b"version":
                versions.put((time.perf_counter(), json.loads(line[5:])["version"]))


def quarto_moves() -> Iterator[str]:
    """A game's moves: hand over a piece, then place it and hand over the next, square by square."""
    yield PIECES[0]
    yield from (f"{square}:{piece}" for square, piece in zip(SQUARES, PIECES[1:]))


def measure(watcher: str, player: str, moves: int) -> list[float]:
    """The delays of ``moves`` moves made through ``player``, seen on ``watcher``'s stream."""
    delays: list[float] = []
    while len(delays) < moves:
        body = {"game": "quarto", "options": {}, "seats": ["human", "human"]}
        game = post(f"{player}/api/games", body)
        versions: queue.Queue[tuple[float, int]] = queue.Queue()
        events = f"{watcher}/api/games/{game['id']}/events"
        threading.Thread(target=listen, args=(events, versions), daemon=True).start()
        versions.get(timeout=30)  # version 0: the stream is open
        for version, move in enumerate(quarto_moves()):
            sent = time.perf_counter()
            body = {"version": version, "move": move}
            post(f"{player}/api/games/{game['id']}/moves", body, game["tokens"][version % 2])
            arrived, seen = versions.get(timeout=30)
            assert seen == version + 1, (seen, version)
            delays.append(arrived - sent)
        print(f"  {len(delays)}/{moves} moves, last delay {delays[-1] * 1000:.1f} ms", flush=True)
    return delays[:moves]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file)")
    parser.add_argument("--pubsub", help="a redis:// URL")
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    db = args.db or os.path.join(tempfile.mkdtemp(), "games.sqlite3")
    with server(db, args.pubsub) as watcher, server(db, args.pubsub) as player:
        delays = sorted(measure(watcher, player, args.moves))
    way = f"Redis ({args.pubsub})" if args.pubsub else ("PostgreSQL" if args.db else "SQLite")
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    p50, top = statistics.median(delays), delays[-1]
    print(f"{len(delays)} moves through process B seen on process A's stream via {way}: ", end="")
    print(f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {top * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
