"""The API reference covers every public module of ``src/bordspel``.

Every module whose dotted name has no part starting with ``_`` has a docstring and an ``__all__``,
and appears in a page of docs/reference/ as a ``::: dotted.name`` block (mkdocstrings renders
the members its ``__all__`` names), or else each name of its ``__all__`` has a block of its own.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from itertools import takewhile
from pathlib import Path
from types import ModuleType

import pytest

import bordspel

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "reference"
BLOCK = re.compile(r"^:::[ \t]+([\w.]+)[ \t]*$", re.M)


def public_module_names() -> list[str]:
    """The package and every module under it whose dotted name has no part starting with ``_``."""
    found = [info.name for info in pkgutil.walk_packages(bordspel.__path__, "bordspel.")]
    return ["bordspel"] + [
        name for name in found if not any(part.startswith("_") for part in name.split("."))
    ]


def reference_blocks(folder: Path = REFERENCE) -> dict[str, str]:
    """The dotted name of every ``:::`` block in the reference pages, with its page's path."""
    return {
        name: f"docs/reference/{page.name}"
        for page in sorted(folder.glob("*.md"))
        for name in BLOCK.findall(page.read_text(encoding="utf-8"))
    }


def page_for(module: str, blocks: dict[str, str]) -> str:
    """The page that documents the modules nearest to ``module`` (the longest shared prefix), or
    the core page for a module directly under ``bordspel``."""

    def shared(name: str) -> int:
        pairs = zip(name.split("."), module.split("."), strict=False)
        return len(list(takewhile(lambda pair: pair[0] == pair[1], pairs)))

    nearest = max(blocks, key=shared, default=None)
    return blocks[nearest] if nearest is not None and shared(nearest) > 1 else "docs/reference/core.md"


def gaps(module: ModuleType, blocks: dict[str, str]) -> list[str]:
    """What the reference (or the module) lacks, each said with where to fix it."""
    name = module.__name__
    found = []
    if not (module.__doc__ or "").strip():
        found.append(f"{name} has no module docstring: say in one what the module is for")
    names = getattr(module, "__all__", None)
    if names is None:
        return [*found, f"{name} has no __all__: list its public names in one (an empty list if none)"]
    if name not in blocks:
        missing = [member for member in names if f"{name}.{member}" not in blocks]
        if missing or not names:
            page = page_for(name, blocks)
            found.append(f"{name} is not in the API reference: add '::: {name}' to {page}")
        if missing and len(missing) < len(names):
            found[-1] += f" (or a block for each of {', '.join(f'{name}.{member}' for member in missing)})"
    return found


def _import(name: str) -> ModuleType:
    """The module; skipped when an optional extra it needs is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] == "bordspel":
            raise
        pytest.skip(f"{name} needs {error.name}, an optional extra that is not installed")


@pytest.mark.parametrize("name", public_module_names())
def test_every_public_module_is_in_the_reference(name: str) -> None:
    problems = gaps(_import(name), reference_blocks())
    assert not problems, "\n".join(problems)


def test_the_walk_finds_modules_at_every_depth() -> None:
    names = set(public_module_names())
    assert {"bordspel", "bordspel.cli", "bordspel.rl.gymnasium", "bordspel.games.quarto.solve"} <= names
    assert {"bordspel.web.app", "bordspel.games.santorini.turns"} <= names
    assert not any(name.startswith("bordspel._native") or ".__" in name for name in names)


def test_a_module_left_out_is_named_with_its_page(tmp_path: Path) -> None:
    (tmp_path / "games.md").write_text("# Games\n\n::: bordspel.games.quarto.engine\n", encoding="utf-8")
    (tmp_path / "core.md").write_text("::: bordspel.core\n\n  ::: not.a.block\n", encoding="utf-8")
    blocks = reference_blocks(tmp_path)
    assert blocks == {
        "bordspel.games.quarto.engine": "docs/reference/games.md",
        "bordspel.core": "docs/reference/core.md",
    }
    solve = ModuleType("bordspel.games.quarto.solve", "The empty board over workers.")
    solve.__all__ = ["solve", "Leaf"]  # type: ignore[attr-defined]
    assert gaps(solve, blocks) == [
        "bordspel.games.quarto.solve is not in the API reference: "
        "add '::: bordspel.games.quarto.solve' to docs/reference/games.md"
    ]
    blocks |= {"bordspel.games.quarto.solve.solve": "docs/reference/games.md"}
    assert gaps(solve, blocks) == [
        "bordspel.games.quarto.solve is not in the API reference: add '::: bordspel.games.quarto.solve' "
        "to docs/reference/games.md (or a block for each of bordspel.games.quarto.solve.Leaf)"
    ]
    blocks |= {"bordspel.games.quarto.solve.Leaf": "docs/reference/games.md"}
    assert gaps(solve, blocks) == []


def test_a_module_without_all_or_docstring_is_named() -> None:
    bare = ModuleType("bordspel.progress")
    assert gaps(bare, {"bordspel.progress": "docs/reference/cli.md"}) == [
        "bordspel.progress has no module docstring: say in one what the module is for",
        "bordspel.progress has no __all__: list its public names in one (an empty list if none)",
    ]


def test_only_a_missing_extra_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "bordspel.rl.gymnasium")
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(pytest.skip.Exception, match="needs gymnasium"):
        _import("bordspel.rl.gymnasium")
    with pytest.raises(ModuleNotFoundError):
        _import("bordspel.no_such_module")
