"""Compiled hot paths (Cython modules built by ``pip install .``) and the switch between them
and the pure-Python reference modules.

``BORDSPEL_PURE=1`` in the environment forces the pure-Python modules everywhere;
:func:`backend` says which is in use. Callers import a compiled module with :func:`load`,
which answers ``None`` when it is missing or switched off.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["MODULES", "backend", "load"]

MODULES: tuple[str, ...] = ("santorini_core", "quarto_solver", "quarto_playout", "hermit_core")
"""The compiled modules this release ships (each has a pure-Python reference)."""


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
    loaded = [name for name in MODULES if load(name) is not None]
    if loaded and len(loaded) == len(MODULES):
        return "compiled"
    if not loaded:
        return "pure"
    return f"mixed (compiled: {', '.join(loaded)})"
