"""The examples run (in their smoke versions), and the REINFORCE example learns."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
REINFORCE = ROOT / "examples" / "train_reinforce.py"


def load_example(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def learned(first: Any, last: Any) -> bool:
    """Whether the win rate rose clearly: by 15 points at least, the intervals apart."""
    return bool(last.rate >= first.rate + 0.15 and last.low > first.high)


def test_reinforce_example_smoke(tmp_path: Path) -> None:
    picture = tmp_path / "curve.png"
    done = subprocess.run(
        [sys.executable, str(REINFORCE), "--smoke", "--plot", str(picture)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("episodes")]
    assert [line.split(":")[0].split()[1] for line in lines] == ["0", "2"]
    assert all("win rate" in line and "over 2 games against mcts" in line for line in lines)
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_a_flat_curve_is_not_learning() -> None:
    point = load_example(REINFORCE).Point
    assert learned(point(0, 0.30, 0.22, 0.40), point(300, 0.65, 0.55, 0.74))
    assert not learned(point(0, 0.30, 0.22, 0.40), point(300, 0.38, 0.29, 0.48))  # intervals overlap
    assert not learned(point(0, 0.30, 0.25, 0.35), point(300, 0.40, 0.36, 0.44))  # too small a rise


@pytest.mark.slow
def test_reinforce_learns_to_beat_its_opponent() -> None:
    example = load_example(REINFORCE)
    args = example.parse(["--episodes", "300", "--every", "300", "--eval-games", "100", "--seed", "1"])
    first, last = example.Trainer(args).run()
    assert first.rate < 0.5
    assert learned(first, last), (first, last)
