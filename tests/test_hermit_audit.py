"""A run's data folder checked by the independent checker (``bordspel.games.hermit.audit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bordspel.games.hermit.audit import check_data
from bordspel.games.hermit.verify import ProofError

pytest.importorskip("bordspel._native.hermit_core")


@pytest.fixture(scope="module")
def data_4x4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a resumable run that settled every 4x4 first move."""
    from bordspel.games.hermit.resume import Resumable

    folder = tmp_path_factory.mktemp("hermit-4x4")
    Resumable(4, folder, table_bits=14, book_work=16, log_every=0).run()
    return folder


def test_the_data_of_a_4x4_run_holds(data_4x4: Path) -> None:
    assert "claims in full" in check_data(data_4x4, 4, brute_force=6)
    assert "random lines" in check_data(data_4x4, 4, sample=20, brute_force=6)


def test_a_wrong_frontier_line_is_caught(data_4x4: Path, tmp_path: Path) -> None:
    (tmp_path / "frontier.txt").write_text(
        "".join(
            line.replace(" first", " SECOND").replace(" second", " first").replace(" SECOND", " second")
            for line in (data_4x4 / "frontier.txt").read_text().splitlines(keepends=True)
        )
    )
    with pytest.raises(ProofError):
        check_data(tmp_path, 4, brute_force=6)
