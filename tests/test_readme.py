"""The README's examples run as doctests, so that the README stays true."""

from __future__ import annotations

import doctest
import os
import re
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


def test_readme_links_every_documentation_page_and_each_link_resolves() -> None:
    text = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\(((?:docs/)[^)#\s]+)\)", text))
    missing = sorted(link for link in linked if not (ROOT / link).exists())
    assert not missing, missing
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md")}
    pages -= {"docs/index.md"} | {p for p in pages if p.startswith("docs/reference/")}
    assert pages <= linked, sorted(pages - linked)


def test_readme_is_short_and_opens_with_the_play_and_test_commands() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) < 300
    first_section = next(i for i, line in enumerate(lines) if line.startswith("## "))
    markers = [lines.index(f"<!-- {name}-command -->") for name in ("play", "test")]
    assert markers == sorted(markers) and markers[-1] < first_section
    assert all(lines[i + 1] == "```sh" and lines[i + 3] == "```" for i in markers)
