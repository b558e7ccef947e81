"""Compiled hot paths (Cython modules built by ``pip install .``) and the switch between them
and the pure-Python reference modules.

``BORDSPEL_PURE=1`` in the environment forces the pure-Python modules everywhere;
:func:`backend` says which is in use. Callers import a compiled module with :func:`load`,
which answers ``None`` when it is missing or switched off.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from pathlib import Path
from types import ModuleType

from bordspel.core import available_games, game_spec

__all__ = ["backend", "load", "modules", "source_digest", "twin"]


def modules() -> list[str]:
    """The compiled modules the registered games ship (each game's GameSpec names its own)."""
    return [name for game in available_games() for name in game_spec(game).native]


def _forced_pure() -> bool:
    return os.environ.get("BORDSPEL_PURE", "") not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The compiled module ``bordspel._native.<name>``, or ``None`` (pure Python is used)."""
    if _forced_pure():
        return None
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        return None


def backend() -> str:
    """``"compiled"`` when every compiled module loads, ``"pure"`` when none does (or
    ``BORDSPEL_PURE=1``), else ``"mixed (compiled: ...)"``."""
    wanted = modules()
    loaded = [name for name in wanted if load(name) is not None]
    if loaded and len(loaded) == len(wanted):
        return "compiled"
    if not loaded:
        return "pure"
    return f"mixed (compiled: {', '.join(loaded)})"


def source_digest(path: str | Path) -> str:
    """The SHA-256 of a source file: a compiled twin carries the one of the file it was built from."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def twin(name: str, reference: ModuleType) -> ModuleType:
    """The compiled twin ``bordspel._native.<name>`` of the pure-Python module ``reference`` (the
    same source compiled by ``pip install .``) when it is built from that source as it is now;
    else ``reference`` itself (with a warning when the twin is out of date)."""
    compiled = load(name)
    if compiled is None or reference.__file__ is None:
        return reference
    if getattr(compiled, "SOURCE_DIGEST", None) != source_digest(reference.__file__):
        warnings.warn(
            f"bordspel._native.{name} was compiled from another version of {reference.__name__}, so the "
            "pure-Python module is used; rebuild it with `pip install -e .` (or `python setup.py build_ext "
            "--inplace`)",
            RuntimeWarning,
            stacklevel=2,
        )
        return reference
    return compiled
