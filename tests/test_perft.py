"""Perft counts of every game and variant, read from the data files in ``tests/perft/``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bordspel.core import available_games, game_class

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass(frozen=True)
class PerftCase:
    id: str
    game: str
    position: str
    depth: int
    count: int
    slow: bool


def read_perft_file(path: Path) -> list[PerftCase]:
    """The cases of one ``.perft`` file: blocks of ``id``, ``game``, ``position``, ``perft`` lines."""
    cases: list[PerftCase] = []
    block: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(" ")
        if not line.strip() or line.startswith("#"):
            continue
        if key in ("perft", "perft-slow"):
            depth, count = value.split()
            cases.append(
                PerftCase(
                    block["id"], block["game"], block["position"], int(depth), int(count), key != "perft"
                )
            )
        else:
            block[key] = value
    return cases


CASES = [case for path in sorted(PERFT_DIR.glob("*.perft")) for case in read_perft_file(path)]


def _param(case: PerftCase) -> object:
    marks = [pytest.mark.slow] if case.slow else []
    return pytest.param(case, id=f"{case.id}-{case.depth}", marks=marks)


def test_every_game_has_perft_data() -> None:
    assert {case.game for case in CASES} == set(available_games())


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_perft(case: PerftCase) -> None:
    state = game_class(case.game).from_str(case.position)
    assert state.to_str() == case.position
    assert state.perft(case.depth) == case.count
