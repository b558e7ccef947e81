"""The errors bordspel raises for bad input: every one is a ``ValueError``."""

from __future__ import annotations

__all__ = ["BordspelError", "IllegalMoveError", "NotationError"]


class BordspelError(ValueError):
    """Base class of every error bordspel raises for bad input."""


class IllegalMoveError(BordspelError):
    """A well-formed move that the rules do not allow in this position."""


class NotationError(BordspelError):
    """A move, square or position string that cannot be read."""
