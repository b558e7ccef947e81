"""``bordspel solve hermit N --resume`` spread over a backend: each open reply of a class is a
task (local processes, or Ray tasks on a cluster), and the merged data is the one-process run's."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bordspel._native import load
from bordspel.ai.arena import ProcessBackend, SerialBackend
from bordspel.games.hermit.book import Book, Frontier
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.resume import Resumable
from bordspel.games.hermit.solve import read_results

if load("hermit_core") is None:
    pytest.skip("the compiled Hermit core is not built", allow_module_level=True)


def _data(folder: Path, n: int) -> tuple[dict[str, bool], dict[tuple[str, ...], bool], dict[bytes, bytes]]:
    """A data folder as values: the settled classes, the frontier, the book."""
    frontier = Frontier(folder / "frontier.txt")
    frontier.load()
    book = Book(folder, 0, "read")
    book.load()
    classes = {move: result.wins for move, result in read_results(folder / "results.jsonl", n).items()}
    return classes, frontier.settled, book.known


def _solved(n: int, frontier: dict[tuple[str, ...], bool]) -> bool:
    """Whether every line of the frontier has the value the solver finds."""
    solver = ProofSolver(n, table_bits=12, proof_numbers=True)
    for line, first_wins in frontier.items():
        state = HermitState.initial(size=n)
        for move in line:
            state = state.apply(state.parse_move(move))
        if solver.state_wins(state) != (first_wins == (len(line) % 2 == 0)):
            return False
    return True


def _agree(book: dict[bytes, bytes], other: dict[bytes, bytes]) -> None:
    common = book.keys() & other.keys()
    assert common and all(book[key] == other[key] for key in common)


@pytest.mark.slow  # 5-6 s
def test_worker_processes_settle_the_sub_problems_the_one_process_run_settles(tmp_path: Path) -> None:
    one, spread = tmp_path / "one", tmp_path / "spread"
    Resumable(5, one, book_work=64, log_every=0, first_only=True).run()
    run = Resumable(5, spread, book_work=64, log_every=0, first_only=True, backend=ProcessBackend(2))
    assert {move: result.wins for move, result in run.run().items()} == {"Rc3U": True}
    classes, frontier, book = _data(spread, 5)
    assert (classes, frontier) == _data(one, 5)[:2]
    assert len(frontier) == 15 and all(line[0] == "Rc3U" for line in frontier)
    _agree(book, _data(one, 5)[2])
    again = Resumable(5, spread, book_work=64, log_every=0, first_only=True)  # one process, its data
    assert again.run()["Rc3U"].wins and again.solver.total_examined() == 0


def test_a_spread_4x4_run_resumes_a_one_process_run_and_agrees_with_it(tmp_path: Path) -> None:
    one = tmp_path / "one"
    Resumable(4, one, book_work=16, log_every=0).run()
    first = (one / "results.jsonl").read_text().splitlines()[0]  # a run stopped after one class
    (tmp_path / "results.jsonl").write_text(first + "\n")
    move = json.loads(first)["move"]
    lines = (one / "frontier.txt").read_text().splitlines(keepends=True)
    (tmp_path / "frontier.txt").write_text("".join(line for line in lines if line.startswith(f"{move} ")))
    settled = Resumable(4, tmp_path, book_work=16, log_every=0, backend=ProcessBackend(2)).run()
    assert len(settled) == 7 and not any(result.wins for result in settled.values())
    classes, frontier, book = _data(tmp_path, 4)
    one_classes, one_frontier, one_book = _data(one, 4)
    assert classes == one_classes == {move: result.wins for move, result in settled.items()}
    assert {line[0] for line in frontier} == set(settled) and _solved(4, frontier)
    assert all(frontier[line] == one_frontier[line] for line in frontier.keys() & one_frontier.keys())
    _agree(book, one_book)  # the tasks' records, merged and saved


@pytest.mark.slow  # 8 s
def test_tasks_out_of_time_come_back_with_twice_the_time_and_settle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = Resumable(5, tmp_path, book_work=64, log_every=0, first_only=True, backend=SerialBackend())
    run.first_slice = 0.02
    assert run.run()["Rc3U"].wins
    log = capsys.readouterr().err
    assert ": open after 0 s" in log and "5x5 Rc3U settled: the first player wins" in log
    _, frontier, _ = _data(tmp_path, 5)
    assert _solved(5, frontier)
    assert len([line for line in frontier if len(line) == 2]) == 15


def _start(data: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "bordspel", "solve", "hermit", "5", "--resume", "--data", str(data)]
    command += ["--cache", "none", "--memory", "64", "--book-work", "64", *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["local", "ray"])
def test_sigterm_on_the_driver_saves_what_the_tasks_settled(tmp_path: Path, backend: str) -> None:
    if backend == "ray":
        pytest.importorskip("ray")
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    run = _start(tmp_path, "--first", "--backend", backend, "--workers", "2", "--save-every", "0.2", env=env)
    err = ""
    for line in run.stderr or []:
        err += line
        if "Rc3U" in line and "first player wins after" in line:
            break
    os.kill(run.pid, signal.SIGTERM)
    out, rest = run.communicate(timeout=120)
    assert run.returncode == 128 + signal.SIGTERM, err + rest
    assert "what the run learned is saved" in out
    _, frontier, _ = _data(tmp_path, 5)
    assert ("Rc3U", re.findall(r"Rc3U (\S+): first player wins after", err)[0]) in frontier
    resumed = _start(tmp_path, "--first")  # one process
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert "classes of first moves settled 1\n" in out and "winning classes: Rc3U\n" in out


# The driver runs in a process of its own: a process that ran a local Ray before (another test)
# cannot join a cluster (see tests/test_zero_actors.py).
@pytest.mark.slow
def test_ray_tasks_on_two_nodes_merge_into_the_one_process_runs_data(
    tmp_path: Path, two_node_cluster: tuple[str, dict[str, str]]
) -> None:
    address, env = two_node_cluster
    one, spread = tmp_path / "one", tmp_path / "spread"
    Resumable(5, one, book_work=64, log_every=0, first_only=True).run()
    driver = _start(spread, "--first", "--backend", "ray", "--address", address, env=env)
    out, err = driver.communicate(timeout=600)
    assert driver.returncode == 0, err[-3000:]
    assert "winning classes: Rc3U\n" in out
    nodes = set(re.findall(r"first player wins after .*\(node (\w+)\)", err))
    assert len(nodes) == 2, err[-3000:]
    classes, frontier, book = _data(spread, 5)
    assert (classes, frontier) == _data(one, 5)[:2]
    _agree(book, _data(one, 5)[2])
