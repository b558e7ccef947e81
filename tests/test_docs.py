"""The documentation site: its examples run as doctests, and its pictures are drawn from positions."""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
from pathlib import Path
from types import ModuleType

import pytest

from bordspel import core, svg
from bordspel.cli import main
from bordspel.core import BordspelError, game_class

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
EXAMPLE_PAGES = [page for page in PAGES if ">>> " in page.read_text(encoding="utf-8")]


def hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_pages_have_examples() -> None:
    names = {page.relative_to(DOCS).as_posix() for page in EXAMPLE_PAGES}
    assert {"getting-started.md", "engine.md", "records.md", "adapters.md", "web.md"} <= names
    assert {f"games/{game}.md" for game in ("hermit", "santorini", "quarto")} <= names


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=[p.relative_to(DOCS).as_posix() for p in EXAMPLE_PAGES])
def test_page_examples(page: Path) -> None:
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        result = doctest.testfile(str(page), module_relative=False, optionflags=flags)
    finally:
        os.chdir(old)
    assert result.attempted > 0 and result.failed == 0


def test_pictures_are_drawn_from_positions() -> None:
    markdown = 'Text\n\n![Start](bordspel:hermit "R../.../...")\n![Again](bordspel:hermit "R../.../...")\n'
    text, drawn = hooks().pictures(markdown, "games/hermit.md")
    expected = svg.render(game_class("hermit").from_str("R../.../..."))
    (path, picture), *others = drawn.items()
    assert not others and picture == expected and path.startswith("pictures/") and path.endswith(".svg")
    assert text == f"Text\n\n![Start](../{path})\n![Again](../{path})\n"
    assert hooks().pictures(markdown, "index.md")[0].count(f"]({path})") == 2


def test_the_docstrings_sphinx_roles_are_not_shown_as_text() -> None:
    """Found by a researcher (issue 41): 87 raw roles (``:class:Info``) on the reference pages."""
    html = "raises :class:<code>EngineTimeout</code>; see :meth:<code>analyse</code> and a:b:<code>c</code>"
    assert (
        hooks().without_roles(html)
        == "raises <code>EngineTimeout</code>; see <code>analyse</code> and a:b:<code>c</code>"
    )


def test_every_picture_in_the_pages_is_a_position() -> None:
    module = hooks()
    found = 0
    for page in PAGES:
        markdown = page.read_text(encoding="utf-8")
        found += len(module.PICTURE.findall(markdown))
        module.pictures(markdown, page.relative_to(DOCS).as_posix())
    assert found >= 8
    with pytest.raises(BordspelError):
        module.pictures('![x](bordspel:hermit "RRR/Q")', "index.md")


FILE_MARK = re.compile(r"<!-- file: ([\w/]+\.py) -->\n```python\n(.*?)```", re.S)
USE_BLOCK = re.compile(r"knows it:\n\n```python\n(.*?)```", re.S)


def test_adding_a_game_page_builds_a_game_that_every_tool_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (DOCS / "adding-a-game.md").read_text(encoding="utf-8")
    files = FILE_MARK.findall(page)
    assert [name for name, _ in files] == ["pile/__init__.py", "pile/engine.py"]
    for name, code in files:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(core, "_GAMES", dict(core._registry()))
    use = USE_BLOCK.search(page)
    assert use is not None
    exec(compile(use.group(1), "adding-a-game.md", "exec"), {})  # registers it and runs conformance
    start = core.new_game("pile", stones=7)
    assert [move.to_str() for move in start.legal_moves()] == ["1", "2", "3"]
    assert start.play("3").play("3").play("1").outcome() == core.Outcome(
        frozenset({0}), "took the last stone", 2
    )
    assert main(["arena", "pile", "easy", "random", "-n", "4", "--backend", "serial"]) == 0
    assert "easy" in capsys.readouterr().out
