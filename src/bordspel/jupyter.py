"""Notebooks show positions as pictures: a game's state class derives from :class:`PicturedState`.

The picture module is imported only when a notebook asks for a picture, so a game that is only
played loads none of it.
"""

from __future__ import annotations

from bordspel.core import MoveT, State

__all__ = ["PicturedState"]


class PicturedState(State[MoveT]):
    """A :class:`~bordspel.core.State` that Jupyter draws with :func:`bordspel.svg.render`."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The SVG picture of the position."""
        from bordspel.svg import render

        return render(self)
