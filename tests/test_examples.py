"""The examples run (in their smoke versions)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_reinforce_example_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_reinforce.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "reinforce" in done.stdout and "random" in done.stdout
