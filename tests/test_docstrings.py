"""Every public class, function, method and property of the package has a docstring."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from bordspel.rl.codecs import Codec
from tests.test_api_reference import public_module_names


def public_modules() -> Iterator[ModuleType]:
    """The package and every module under it whose name has no part starting with ``_``, but
    those that need an optional extra that is not installed (``test_api_reference`` says which)."""
    for name in public_module_names():
        try:
            yield importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name is None or error.name.split(".")[0] == "bordspel":
                raise


def public_names(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name in vars(module) if not name.startswith("_")]
    return [name for name in names if _defined_in(getattr(module, name), module)]


def _defined_in(value: Any, module: ModuleType) -> bool:
    return (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__ == module.__name__


def members(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods and properties that ``cls`` itself defines."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        if inspect.isfunction(function) or isinstance(value, property):
            yield name, getattr(cls, name)


def documented(value: Any) -> bool:
    """Whether ``value`` has a docstring of its own making: a class's written in its own body
    (not inherited from ``Protocol``, ``Generic`` or a base, nor one a dataclass or NamedTuple wrote)."""
    if not inspect.isclass(value):
        return bool(inspect.getdoc(value))
    doc = inspect.cleandoc(vars(value).get("__doc__") or "")
    return bool(doc) and not (doc.startswith(f"{value.__name__}(") and doc.endswith(")") and "\n" not in doc)


def undocumented() -> list[str]:
    missing = []
    for module in public_modules():
        for name in public_names(module):
            value = getattr(module, name)
            if not documented(value):
                missing.append(f"{module.__name__}.{name}")
            if inspect.isclass(value):
                missing += [
                    f"{module.__name__}.{name}.{member}"
                    for member, attribute in members(value)
                    if not documented(attribute)
                ]
    return missing


def test_every_public_name_has_a_docstring() -> None:
    missing = undocumented()
    assert not missing, f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)


def test_the_walk_finds_the_public_api() -> None:
    modules = {module.__name__ for module in public_modules()}
    assert {"bordspel.core", "bordspel.record", "bordspel.ai.players", "bordspel.rl.gymnasium"} <= modules
    assert "bordspel.record.GameNode.add_variation" not in undocumented()
    names = public_names(importlib.import_module("bordspel.record"))
    assert {"Game", "GameNode", "read_games"} <= set(names) and "MAX_RECORD" not in names


def test_generated_docstrings_do_not_count() -> None:
    @dataclass
    class Plain:
        value: int

    class Pair(NamedTuple):
        first: int

    @dataclass
    class Described:
        """A value with a docstring of its own."""

        value: int

    assert not documented(Plain) and not documented(Pair) and documented(Described)
    assert not documented(lambda: None) and documented(documented)


def test_inherited_docstrings_do_not_count() -> None:
    class Bare(Protocol):
        name: str

    class Child(Codec):
        pass

    assert inspect.getdoc(Bare) and inspect.getdoc(Child)  # what made the walk miss them
    assert not documented(Bare) and not documented(Child) and documented(Codec)
