"""Limits on game options that each game declares for untrusted callers (the web app).

The library itself takes any size its engine handles and piece files by path; a server on a
network offers only what each game declares here (``State.option_limits``): small enough to stay
quick to play and render, and never a path or a file descriptor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bordspel.errors import BordspelError

__all__ = ["BadOption", "Choice", "Flag", "IntRange", "OptionLimit"]


class BadOption(BordspelError):
    """An option the game does not offer, or a value outside its limits."""


class OptionLimit(Protocol):
    """One option's limit: checks a client's value and describes itself for a start page."""

    def check(self, name: str, value: object) -> Any:
        """The value to pass to ``initial``; BadOption when it is outside the limit."""

    def describe(self) -> dict[str, Any]:
        """The limit as JSON for a start page."""


@dataclass(frozen=True)
class IntRange:
    """An integer option from ``low`` to ``high``."""

    low: int
    high: int

    def check(self, name: str, value: object) -> int:
        """``value`` if it is an int in range, else BadOption."""
        if type(value) is not int or not self.low <= value <= self.high:
            raise BadOption(f"option {name!r} is a whole number from {self.low} to {self.high}")
        return value

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: the smallest and largest value."""
        return {"min": self.low, "max": self.high}


@dataclass(frozen=True)
class Choice:
    """An integer option that takes one of a few values."""

    values: tuple[int, ...]

    def check(self, name: str, value: object) -> int:
        """``value`` if it is one of the values, else BadOption."""
        if type(value) is not int or value not in self.values:
            raise BadOption(f"option {name!r} is one of {', '.join(map(str, self.values))}")
        return value

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: the values to choose from."""
        return {"choices": list(self.values)}


@dataclass(frozen=True)
class Flag:
    """A true-or-false option."""

    def check(self, name: str, value: object) -> bool:
        """``value`` if it is a bool, else BadOption."""
        if not isinstance(value, bool):
            raise BadOption(f"option {name!r} is true or false")
        return value

    def describe(self) -> dict[str, Any]:
        """The limits as JSON for a form: a flag."""
        return {"flag": True}
