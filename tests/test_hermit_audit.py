"""A run's data folder checked claim by claim (``bordspel.games.hermit.audit``)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from bordspel.games.hermit.audit import DataChecker, RegionBruteForce, check_data
from bordspel.games.hermit.book import MAGIC, RECORD
from bordspel.games.hermit.rules import after_block, fitting_blocks, geometry
from bordspel.games.hermit.verify import ProofError, _Checker

pytest.importorskip("bordspel._native.hermit_core")

LIMIT = 4
"""Brute force on regions of at most 4 squares, so that 4x4 checks lean on the data."""


@pytest.fixture(scope="module")
def data_4x4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a resumable run that settled every 4x4 first move."""
    from bordspel.games.hermit.resume import Resumable

    folder = tmp_path_factory.mktemp("hermit-4x4")
    Resumable(4, folder, table_bits=14, book_work=16, log_every=0).run()
    return folder


def _copy(data: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(data, folder)
    return folder


def test_the_data_of_a_4x4_run_holds(data_4x4: Path) -> None:
    full = check_data(data_4x4, 4, limit=LIMIT)
    assert "every claim" in full and "by a claim of the data 0," not in full
    assert "30 claims checked" in check_data(data_4x4, 4, sample=30, seed=3, limit=LIMIT)


def test_a_wrong_frontier_line_is_caught(data_4x4: Path, tmp_path: Path) -> None:
    folder = _copy(data_4x4, tmp_path)
    lines = (folder / "frontier.txt").read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.endswith(" second\n"))
    lines[index] = lines[index].replace(" second", " first")
    (folder / "frontier.txt").write_text("".join(lines))
    with pytest.raises(ProofError):
        check_data(folder, 4, limit=LIMIT)


def test_a_corrupted_book_record_is_caught(data_4x4: Path, tmp_path: Path) -> None:
    folder = _copy(data_4x4, tmp_path)
    flipped = _flip_a_record_a_losing_claim_leans_on(folder)
    with pytest.raises(ProofError, match="says the player to move there loses"):
        check_data(folder, 4, limit=LIMIT)
    assert flipped


def _flip_a_record_a_losing_claim_leans_on(folder: Path) -> bytes:
    """Turn "wins" into "loses" in the book record of a child that a losing root leans on."""
    checker = DataChecker(folder, 4, LIMIT)
    (book,) = folder.glob("book-*.bin")
    data = bytearray(book.read_bytes())
    records = {bytes(data[i : i + 16]): i for i in range(len(MAGIC), len(data), RECORD)}
    for accepts, mover_wins in checker.roots:
        if not mover_wins:
            for child, _ in checker.step(accepts, mover_wins):
                key = bytes(checker.key(*child))
                if key in records:
                    data[records[key] + 16] &= 0x7F
                    book.write_bytes(bytes(data))
                    return key
    raise AssertionError("no losing claim leans on a book record")


def test_the_region_brute_force_agrees_with_the_whole_board_one() -> None:
    geo, rng = geometry(4), random.Random(5)
    regions, whole = RegionBruteForce(geo, limit=16), _Checker(geo, lambda masks: None, 16)
    for _ in range(40):
        accepts = (geo.full, geo.full, geo.full)
        for _ in range(rng.randrange(4, 8)):
            moves = [(c, block) for c in range(3) for _, block in fitting_blocks(accepts[c], geo)]
            if moves:
                accepts = after_block(accepts, *rng.choice(moves), geo)
        assert regions.wins(accepts) == whole.brute_wins(accepts)
    assert RegionBruteForce(geo, limit=3).wins((geo.full, geo.full, geo.full)) is None


def test_bordspel_verify_samples_a_data_folder(data_4x4: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bordspel.cli import main

    assert main(["verify", "hermit-4x4", str(data_4x4), "--sample", "3", "--seed", "2"]) == 0
    assert "a sample (seed 2)" in capsys.readouterr().out
    assert main(["verify", "hermit-5", str(data_4x4), "--sample", "3"]) != 0
    assert "like hermit-6x6" in capsys.readouterr().err
