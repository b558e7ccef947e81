"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

SPEC_DIR = Path(__file__).parent / "spec"

PIECE_FILE = (Path(__file__).parent / "data" / "stukken.txt").read_text(encoding="utf-8")
"""The example piece file of the Quarto exercise."""


def sizes(quick: int, deep: int) -> list[pytest.ParameterSet]:
    """A randomised test's two sizes: ``quick`` in the default run, ``deep`` marked slow (CI)."""
    return [pytest.param(quick, id="quick"), pytest.param(deep, id="deep", marks=pytest.mark.slow)]


@pytest.fixture
def piece_file(tmp_path: Path) -> Path:
    path = tmp_path / "stukken.txt"
    path.write_text(PIECE_FILE, encoding="utf-8")
    return path


def _register_test_games() -> None:
    """Tic-tac-toe, from outside ``src/``: every per-game test then runs it too (see variants.py)."""
    from bordspel.core import register_game
    from tests.tictactoe import SPEC

    register_game(SPEC)


_register_test_games()
