"""A game's options as text: ``size=6`` or ``gods=apollo/pan``, converted by the types of the
defaults of its ``initial`` (the command line's ``-o`` and the engine protocol's options)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from bordspel.core import BordspelError, game_class, option_bool, option_int, option_seed

__all__ = ["option_defaults", "parse_options"]


def option_defaults(game: str) -> dict[str, Any]:
    """The options of ``game``'s ``initial`` with their defaults."""
    return {
        name: p.default
        for name, p in inspect.signature(game_class(game).initial).parameters.items()
        if p.kind is p.KEYWORD_ONLY or p.default is not p.empty
    }


def parse_options(game: str, pairs: Sequence[str]) -> dict[str, Any]:
    """``["size=6"]`` as keyword options of the game, converted by their defaults' types."""
    defaults = option_defaults(game)
    options: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or name not in defaults:
            known = ", ".join(f"{k}=..." for k in defaults)
            raise BordspelError(f"unknown option {pair!r} for {game}; it takes {known}")
        options[name] = _convert(text, defaults[name], name)
    return options


def _convert(text: str, default: object, name: str) -> object:
    """``text`` as the type of the option's default, read by the core's typed parsers."""
    if default is None and text.strip().lstrip("-").isdigit():  # an optional number, like a seed
        return option_seed(name, text)
    if isinstance(default, bool):
        return option_bool(name, text)
    if isinstance(default, int):
        return option_int(name, text, -(2**63))
    return text
