"""AlphaZero-style self-play (``bordspel train``), its networks as ONNX, and the ``zero`` player.

``search`` (batched PUCT over a network, NumPy), ``player`` (the ``zero`` player, onnxruntime),
``judge`` (won positions judged by a solver: move accuracy), ``network`` and ``train`` (PyTorch,
the ``train`` extra). Shipped networks and judged sets are in ``data/``, named by
:func:`data_name`.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bordspel.core import State
from bordspel.game_options import option_defaults

__all__ = [
    "DATA",
    "DRAWN",
    "data_name",
    "network_options",
    "option_plays",
    "plays_options",
    "shipped_for",
    "shipped_networks",
    "zero_available",
]

DATA = Path(__file__).resolve().parent / "data"
"""The shipped networks (``NAME.onnx``) and judged sets (``NAME-won.jsonl``)."""


DRAWN = "random"
"""An option's value in a network's name and metadata when the run drew it for every game (as
Santorini's ``gods=random``): the network plays any value of that option but none."""


def data_name(start: State, options: Mapping[str, Any] | None = None) -> str:
    """The name of a game with its plain options (numbers, flags, words), for its files:
    ``hermit-size5``, ``quarto-advanced0``; ``options`` (a run's) in place of ``start``'s."""
    given = start.options() if options is None else options
    plain = {key: int(v) if isinstance(v, bool) else v for key, v in given.items()}
    named = "-".join(f"{key}{v}" for key, v in sorted(plain.items()) if isinstance(v, (int, str)))
    return f"{start.name}-{named}" if named else start.name


def option_plays(trained: object, here: object) -> bool:
    """Whether a network trained with an option's value ``trained`` plays a game with ``here``:
    the same value, or any value but none when it was drawn (:data:`DRAWN`)."""
    return trained == here or (trained == DRAWN and bool(here))


def shipped_networks(game: str) -> list[Path]:
    """The networks shipped for ``game`` (one per set of options)."""
    return sorted(path for path in DATA.glob("*.onnx") if path.stem.split("-")[0] == game)


def network_options(game: str) -> list[dict[str, bool | int | str]]:
    """The options of each network shipped for ``game``, read back from its :func:`data_name`:
    ``[{"size": 5}]`` for ``hermit-size5``."""
    defaults = option_defaults(game)
    names = "|".join(re.escape(name) for name in sorted(defaults, key=len, reverse=True))
    parts = [re.split(f"-(?={names})", path.stem)[1:] for path in shipped_networks(game)]
    return [dict(_option(part, defaults) for part in network) for network in parts]


def _option(part: str, defaults: dict[str, Any]) -> tuple[str, bool | int | str]:
    """One ``NAMEVALUE`` part of a data name (``size5``, ``finite_supply0``) as ``("size", 5)``."""
    name = max((name for name in defaults if part.startswith(name)), key=len)
    text, default = part[len(name) :], defaults[name]
    if isinstance(default, bool):
        return name, text == "1"
    return name, int(text) if text.lstrip("-").isdigit() else text


def shipped_for(start: State) -> Path | None:
    """The network shipped for ``start``'s game and options: the one named by them, else one
    trained on drawn values of some of them (:func:`option_plays`); None when there is none."""
    named = DATA / f"{data_name(start)}.onnx"
    if named.exists():
        return named
    here = start.options()
    for path, options in zip(shipped_networks(start.name), network_options(start.name)):
        keys = options.keys() | here.keys()
        if all(option_plays(options.get(key), here.get(key)) for key in keys):
            return path
    return None


def plays_options(start: State) -> bool:
    """Whether a network is shipped for ``start``'s game with its options (``zero`` without
    ``model=`` plays only those)."""
    return shipped_for(start) is not None


def zero_available(game: str) -> bool:
    """Whether ``zero`` can play ``game`` here: onnxruntime is installed and a network is shipped."""
    return bool(shipped_networks(game)) and importlib.util.find_spec("onnxruntime") is not None
