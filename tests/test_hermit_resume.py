"""``bordspel solve hermit N --resume``: runs that add up through the data folder (the book, the
frontier, the results), whatever stops them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bordspel._native import load
from bordspel.core import BordspelError
from bordspel.games.hermit import book as book_module
from bordspel.games.hermit.book import Book, Frontier
from bordspel.games.hermit.engine import HermitState
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.resume import Resumable
from bordspel.games.hermit.solve import read_results
from bordspel.stopping import Stopped

if load("hermit_core") is None:
    pytest.skip("the compiled Hermit core is not built", allow_module_level=True)


def test_the_book_reads_back_what_it_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_module, "PART_BYTES", len(book_module.MAGIC) + 2 * book_module.RECORD)
    book = Book(tmp_path, min_work=100, stamp="run")
    book.add(b"a" * 16, b"\x01", 5000)
    book.add(b"b" * 16, b"\x00", 100)
    book.add(b"c" * 16, b"\x01", 99)  # too little work for the files
    book.add(b"d" * 16, b"\x00", 1 << 20)
    assert [path.name for path in book.save()] == ["book-run-00.bin", "book-run-01.bin"]
    assert not list(tmp_path.glob(".*"))  # no temporary file left
    again = Book(tmp_path, min_work=100, stamp="next")
    again.load()
    assert again.known == {b"a" * 16: b"\x01", b"b" * 16: b"\x00", b"d" * 16: b"\x00"}
    (tmp_path / "book-run-01.bin").write_bytes(book_module.MAGIC + b"x" * 5)
    with pytest.raises(BordspelError, match="cut short"):
        Book(tmp_path, 100, "third").load()


def test_the_frontier_keeps_lines_another_run_saved(tmp_path: Path) -> None:
    one, two = Frontier(tmp_path / "frontier.txt"), Frontier(tmp_path / "frontier.txt")
    one.add(("Rc3H", "Ra1H"), True)
    one.save()
    two.add(("Rc3H", "Ra1U"), False)
    two.save()
    read = Frontier(tmp_path / "frontier.txt")
    read.load()
    assert read.settled == {("Rc3H", "Ra1H"): True, ("Rc3H", "Ra1U"): False}
    assert "Rc3H Ra1U second" in (tmp_path / "frontier.txt").read_text()


def test_a_resumed_4x4_run_agrees_with_the_solver(tmp_path: Path) -> None:
    settled = Resumable(4, tmp_path, book_work=16, log_every=0).run()
    solver = ProofSolver(4, proof_numbers=True)  # not solve_empty's: its cached solvers outlive the test
    start = HermitState.initial(size=4)
    for move, result in settled.items():
        assert result.wins == (not solver.state_wins(start.apply(start.parse_move(move))))
    assert len(settled) == 7 and not any(s.wins for s in settled.values())  # the second player wins
    assert read_results(tmp_path / "results.jsonl", 4) == settled


def test_the_book_cuts_the_positions_searched(tmp_path: Path) -> None:
    first = Resumable(5, tmp_path, book_work=64, log_every=0, first_only=True)
    first.run()
    searched = first.solver.total_examined()
    (tmp_path / "frontier.txt").unlink()  # the book alone: no sub-problem is skipped
    (tmp_path / "results.jsonl").unlink()
    again = Resumable(5, tmp_path, book_work=64, log_every=0, first_only=True)
    settled = again.run()
    assert again.book.loaded > 0
    assert again.solver.total_examined() < searched / 5
    assert settled["Rc3U"].wins  # the centre block wins 5x5


def _start(data: Path, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "bordspel", "solve", "hermit", "5", "--resume", "--data", str(data)]
    command += ["--cache", "none", "--memory", "64", "--book-work", "64", *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_a_class_and_a_save(data: Path, run: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not (read_results(data / "results.jsonl", 5) and list(data.glob("book-*.bin"))):
        assert run.poll() is None, "the run ended before a class settled and it saved"
        assert time.monotonic() < deadline, "no class settled and saved within two minutes"
        time.sleep(0.05)


def test_a_run_stopped_by_sigterm_in_the_middle_resumes(tmp_path: Path) -> None:
    run = Resumable(5, tmp_path, book_work=64, log_every=0, first_only=True)
    calls = []
    before = signal.getsignal(signal.SIGTERM)  # another library's (Ray's) in a long test session

    def terminate_at_the_third_report(_: int) -> None:
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        run._progress()

    run.solver.on_progress = terminate_at_the_third_report
    with pytest.raises(Stopped):
        run.run()
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is put back
    assert not read_results(tmp_path / "results.jsonl", 5) and list(tmp_path.glob("book-*.bin"))
    resumed = Resumable(5, tmp_path, book_work=64, log_every=0, first_only=True)
    settled = resumed.run()
    assert list(settled) == ["Rc3U"] and settled["Rc3U"].wins
    assert resumed.book.loaded > 0 and resumed.solver.total_examined() < run.solver.total_examined()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_run_resumes_to_the_same_answer(tmp_path: Path, stop: signal.Signals) -> None:
    run = _start(tmp_path, "--save-every", "0.5")
    _wait_for_a_class_and_a_save(tmp_path, run)
    time.sleep(1.0)
    os.kill(run.pid, stop)
    out, _ = run.communicate(timeout=60)
    assert run.returncode == (128 + stop if stop == signal.SIGTERM else -stop)
    if stop == signal.SIGTERM:
        assert "what the run learned is saved" in out
    before = read_results(tmp_path / "results.jsonl", 5)
    assert 0 < len(before) < 12
    frontier = Frontier(tmp_path / "frontier.txt")
    frontier.load()
    resumed = _start(tmp_path)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"frontier {len(frontier.settled):,} sub-problems" in err and "book 0 positions" not in err
    assert f"{len(before)} settled before" in err
    assert "classes of first moves settled 12" in out and "winning classes: Rc3U\n" in out


def test_the_command_resumes_into_its_data_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bordspel.cli import main

    command = ["solve", "hermit", "4", "--resume", "--data", str(tmp_path), "--cache", "none"]
    assert main(command) == 0
    assert "Hermit 4x4: classes of first moves settled 7" in capsys.readouterr().out
    assert main(command) == 0  # everything read back from the folder
    assert "7 settled before" in capsys.readouterr().err
    assert main([*command, "--workers", "2"]) == 0  # spread over two processes: the same
    assert "7 settled before" in capsys.readouterr().err


def test_a_results_line_cut_short_by_a_kill_is_left_out(tmp_path: Path) -> None:
    from bordspel.games.hermit.solve import Settled, read_results

    whole = Settled(4, "Rb2U", True, 1234, 0.5).to_json()
    path = tmp_path / "results.jsonl"
    path.write_text(whole + "\n" + whole[:20])
    assert list(read_results(path, 4)) == ["Rb2U"]
