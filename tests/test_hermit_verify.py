"""Hermit proofs: written by the solver, checked by the independent checker (``verify``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bordspel.cli import main
from bordspel.games.hermit.solve import write_proof
from bordspel.games.hermit.verify import ProofError, check_proof

pytest.importorskip("bordspel._native.hermit_core")  # the writer's search: slow in pure Python


@pytest.fixture(scope="module")
def proof_4x4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The proof that the first move Ra1U loses on 4x4, down to 6 live squares."""
    path = tmp_path_factory.mktemp("proofs") / "hermit-4x4-Ra1U.jsonl"
    assert not write_proof(4, "Ra1U", path, brute_force=6)
    return path


def rewritten(source: Path, target: Path, change: int, row: dict[str, object] | None) -> Path:
    """``source`` with line ``change`` replaced by ``row`` (or left out when None)."""
    lines = source.read_text().splitlines()
    lines[change : change + 1] = [] if row is None else [json.dumps(row)]
    target.write_text("\n".join(lines) + "\n")
    return target


@pytest.mark.parametrize("n, move, first_wins", [(3, "Rb2U", True), (3, "Ra1H", False)])
def test_proofs_of_3x3_first_moves_hold(tmp_path: Path, n: int, move: str, first_wins: bool) -> None:
    path = tmp_path / "proof.jsonl"
    assert write_proof(n, move, path, brute_force=3) is first_wins
    assert check_proof(path).wins is not first_wins  # the claim is about the second player


def test_the_4x4_proof_holds(proof_4x4: Path) -> None:
    header = check_proof(proof_4x4)
    assert header.n == 4 and header.wins and header.brute_force == 6


def test_a_missing_reply_is_refused(proof_4x4: Path, tmp_path: Path) -> None:
    with pytest.raises(ProofError, match="no reply for the winner"):
        check_proof(rewritten(proof_4x4, tmp_path / "cut.jsonl", 1, None))


def test_an_illegal_reply_is_refused(proof_4x4: Path, tmp_path: Path) -> None:
    row = json.loads(proof_4x4.read_text().splitlines()[1])
    row["reply"] = [row["reply"][0], 15, 1]  # a horizontal block off the board's edge
    with pytest.raises(ProofError, match="not a legal move"):
        check_proof(rewritten(proof_4x4, tmp_path / "illegal.jsonl", 1, row))


def test_a_false_claim_is_refused(proof_4x4: Path, tmp_path: Path) -> None:
    header = json.loads(proof_4x4.read_text().splitlines()[0])
    header["claim"] = "loses"
    with pytest.raises(ProofError, match=r"no reply|brute force disagrees"):
        check_proof(rewritten(proof_4x4, tmp_path / "false.jsonl", 0, header))


def test_a_losing_reply_is_refused(tmp_path: Path) -> None:
    """On 3x3 after Ra1H the winner's stored reply replaced by every other legal one: each that
    does not win is caught."""
    path = tmp_path / "proof.jsonl"
    write_proof(3, "Ra1H", path, brute_force=3)
    lines = path.read_text().splitlines()
    row = json.loads(lines[1])
    refused = 0
    for colour in range(3):
        for cell in range(9):
            row["reply"] = [colour, cell, 0]
            try:
                check_proof(rewritten(path, tmp_path / "changed.jsonl", 1, row))
            except ProofError:
                refused += 1
    assert refused > 0


def test_the_checker_shares_no_code_with_the_solvers() -> None:
    code = "import sys, bordspel.games.hermit.verify; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    for module in (
        "hermit.proof",
        "hermit.grundy",
        "hermit.solve",
        "hermit.engine",
        "hermit_core",
        "bordspel.ai",
    ):
        assert module not in loaded


def test_bordspel_verify_checks_the_file_and_its_size(
    proof_4x4: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "hermit-4x4", str(proof_4x4)]) == 0
    assert "proof checked: on 4x4, the player to move wins" in capsys.readouterr().out
    assert main(["verify", "hermit-6x6", str(proof_4x4)]) != 0
    assert "not 6x6" in capsys.readouterr().err


@pytest.mark.slow
def test_the_5x5_centre_proof_holds(tmp_path: Path) -> None:
    """About 800,000 replies: four minutes to write, two to check."""
    path = tmp_path / "hermit-5x5-Rc3U.jsonl"
    assert write_proof(5, "Rc3U", path, brute_force=10)
    assert not check_proof(path).wins
