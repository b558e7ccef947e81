"""The modules of ``src/bordspel`` form layers: no import cycle, not even through an import
inside a function or under ``if TYPE_CHECKING`` (each module depends only downwards).

The graph is read from the source (every ``import`` and ``cimport`` statement of every ``.py``,
``.pyx`` and ``.pxd`` file), not from a list of names, so a new module is checked too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+cimport\s+([\w, ]+)|cimport\s+([\w.]+))", re.M)


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((root / "bordspel").rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)
    return found


def imported_names(module: str, path: Path) -> set[str]:
    """The dotted names a module's import statements name, relative imports resolved."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        names: set[str] = set()
        for base, members, plain in CIMPORT.findall(text):
            names |= {plain} if plain else {base} | {f"{base}.{m.strip()}" for m in members.split(",")}
        return names
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return names


def import_graph(root: Path = SOURCE) -> dict[str, set[str]]:
    """Module -> the project's modules it imports. ``from package import module`` is an edge to
    the module; ``from package import name`` an edge to the package."""
    files = module_files(root)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        names = imported_names(module, path)
        targets = {name for name in names if name in files}
        bases = {name.rpartition(".")[0] for name in targets if name.rpartition(".")[0] in targets}
        graph[module] = (targets - bases if bases else targets) - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & members))}" for m in component)


def test_the_source_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50, "the walk found too few modules: is SOURCE right?"
    found = cycles(graph)
    assert not found, "import cycles (each module must depend only downwards):\n" + "\n".join(
        describe(component, graph) for component in found
    )


TYPE_ONLY = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import x"


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        ({"a": "import pkg.b", "b": "from pkg import a"}, [["pkg.a", "pkg.b"]]),
        ({"a": "def f():\n    from pkg.b import x", "b": "import pkg.a"}, [["pkg.a", "pkg.b"]]),
        ({"a": TYPE_ONLY, "b": "from . import a"}, [["pkg.a", "pkg.b"]]),
        ({"a": "import pkg.b", "b": "import os"}, []),
    ],
)  # fmt: skip
def test_the_check_sees_every_kind_of_import(
    tmp_path: Path, sources: dict[str, str], expected: list[list[str]]
) -> None:
    package = tmp_path / "bordspel"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in sources.items():
        (package / f"{name}.py").write_text(text.replace("pkg", "bordspel"))
    found = cycles(import_graph(tmp_path))
    assert found == [[name.replace("pkg", "bordspel") for name in component] for component in expected]
