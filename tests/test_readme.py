"""The README's examples run as doctests, so that the README stays true."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_readme_examples() -> None:
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        result = doctest.testfile(
            str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
        )
    finally:
        os.chdir(old)
    assert result.attempted >= 30 and result.failed == 0
