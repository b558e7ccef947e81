"""AlphaZero-style self-play (``bordspel train``), its networks as ONNX, and the ``zero`` player.

``search`` (batched PUCT over a network, NumPy), ``player`` (the ``zero`` player, onnxruntime),
``judge`` (won positions judged by a solver: move accuracy), ``network`` and ``train`` (PyTorch,
the ``train`` extra). Shipped networks and judged sets are in ``data/``, named by
:func:`data_name`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bordspel.core import State

__all__ = ["DATA", "data_name", "shipped_networks", "zero_available"]

DATA = Path(__file__).resolve().parent / "data"
"""The shipped networks (``NAME.onnx``) and judged sets (``NAME-won.jsonl``)."""


def data_name(start: State) -> str:
    """The name of a game with its plain options (numbers, flags, words), for its files:
    ``hermit-size5``, ``quarto-advanced0``."""
    plain = {key: int(v) if isinstance(v, bool) else v for key, v in start.options().items()}
    options = "-".join(f"{key}{v}" for key, v in sorted(plain.items()) if isinstance(v, (int, str)))
    return f"{start.name}-{options}" if options else start.name


def shipped_networks(game: str) -> list[Path]:
    """The networks shipped for ``game`` (one per set of options)."""
    return sorted(path for path in DATA.glob("*.onnx") if path.stem.split("-")[0] == game)


def zero_available(game: str) -> bool:
    """Whether ``zero`` can play ``game`` here: onnxruntime is installed and a network is shipped."""
    return bool(shipped_networks(game)) and importlib.util.find_spec("onnxruntime") is not None
