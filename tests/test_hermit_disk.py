"""The solver's disk table (``bordspel.games.hermit.disk``): settled positions written by df-pn,
shared by worker processes, read back by a search that was stopped and by later runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bordspel._native import load
from bordspel.ai.search import OutOfTime
from bordspel.games.hermit.disk import DiskTable
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.solve import read_results, settle, solve_empty

pytest.importorskip("lmdb")
core = load("hermit_core")
if core is None:
    pytest.skip("the compiled Hermit core is not built", allow_module_level=True)


def test_values_survive_the_process_that_wrote_them(tmp_path: Path) -> None:
    table = DiskTable(tmp_path)
    table.put(b"k" * 16, b"\x01")
    assert table.get(b"k" * 16) == b"\x01" and len(table) == 0  # pending, seen by its writer
    table.close()
    script = "import sys; from bordspel.games.hermit.disk import DiskTable; "
    script += "print(DiskTable(sys.argv[1]).get(b'k' * 16))"
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "b'\\x01'"


def test_a_stopped_search_resumes_from_the_disk_table(tmp_path: Path) -> None:
    start = HermitState.initial(size=5)
    masks = tuple(start.apply(start.parse_move("Rb3H")).free_mask(c) for c in range(3))
    table = DiskTable(tmp_path)
    stopped = core.Solver(5, 8, 12, True, True)
    stopped.disk, stopped.node_limit = table, 40_000  # about half of what it needs
    with pytest.raises(OutOfTime):
        stopped.prove(*masks)
    table.flush()
    assert len(table) > 0
    resumed = core.Solver(5, 8, 12, True, True)  # an empty table in memory: a new run
    resumed.disk = table
    assert resumed.prove(*masks)  # the second player wins: only the centre block wins on 5x5
    assert resumed.disk_hits > 0
    again = core.Solver(5, 8, 12, True, True)
    again.disk = table
    assert again.prove(*masks) and again.examined == 0 and again.disk_hits == 1


def test_worker_processes_share_the_disk_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bordspel.ai.arena import ProcessBackend

    def run(tasks: list) -> object:  # type: ignore[type-arg]
        return ProcessBackend(2).run(settle, tasks)

    first = solve_empty(4, run=run, disk=tmp_path / "disk", log_every=3600)
    assert len(DiskTable(tmp_path / "disk")) > 0 and first.examined > 0
    log = capsys.readouterr().err.splitlines()
    assert "4x4: 7 classes of first moves, 0 settled before" in log[0]
    assert "settled: the first player loses; positions" in log[-1] and "classes settled 7/7" in log[-1]
    again = solve_empty(4, run=run, disk=tmp_path / "disk")  # no results file: only the disk table
    assert again.examined == 0 and again.first_player_wins == first.first_player_wins


@pytest.mark.slow
def test_a_killed_5x5_run_resumes_with_the_same_results(tmp_path: Path) -> None:
    results, disk = tmp_path / "results.jsonl", tmp_path / "disk"
    command = [sys.executable, "-m", "bordspel", "solve", "hermit", "5", "--workers", "2"]
    command += ["--memory", "256", "--results", str(results), "--disk", str(disk)]
    run = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    while run.poll() is None and len(read_results(results, 5)) < 4:
        time.sleep(0.2)
    os.killpg(run.pid, signal.SIGKILL)  # the run and its workers, in the middle of the next classes
    run.wait()
    assert 4 <= len(read_results(results, 5)) < 12 and len(DiskTable(disk)) > 0
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    resumed = {move: settled.wins for move, settled in read_results(results, 5).items()}
    fresh = tmp_path / "fresh.jsonl"
    solve_empty(5, results=fresh, bits=20)
    assert resumed == {move: settled.wins for move, settled in read_results(fresh, 5).items()}
    assert [move for move, wins in resumed.items() if wins] == ["Rc3U"]
    assert all(json.loads(line)["n"] == 5 for line in results.read_text().splitlines())


@pytest.mark.slow
def test_a_proof_written_with_the_disk_table_is_the_same(tmp_path: Path) -> None:
    from bordspel.games.hermit.solve import write_proof
    from bordspel.games.hermit.verify import check_proof

    solve_empty(4, disk=tmp_path / "disk")
    plain, with_disk = tmp_path / "plain.jsonl", tmp_path / "disk.jsonl"
    assert not write_proof(4, "Ra1U", plain, brute_force=10)
    assert not write_proof(4, "Ra1U", with_disk, brute_force=10, disk=tmp_path / "disk")
    assert sorted(with_disk.read_text().splitlines()) == sorted(plain.read_text().splitlines())
    assert check_proof(with_disk).wins
