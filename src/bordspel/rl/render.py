"""Frames of a position for the adapters' render modes.

``ansi`` is coloured text, ``svg`` the picture of ``bordspel.svg``, ``rgb_array`` that picture
rasterised by resvg (``resvg-py``, a self-contained wheel) and decoded by Pillow into a
``(height, width, 3)`` ``uint8`` array, and ``human`` prints the coloured text to standard
output (so it works in a terminal, a notebook or a headless job; no window is opened).
"""

from __future__ import annotations

import io
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel import ansi, svg
from bordspel.core import State

__all__ = ["RENDER_MODES", "check_mode", "frame", "rgb_array"]

RENDER_MODES = ["human", "ansi", "svg", "rgb_array"]


def rgb_array(state: State, size: int = 400) -> npt.NDArray[np.uint8]:
    """The SVG picture of ``state`` as RGB pixels on a white background, about ``size`` wide."""
    import resvg_py
    from PIL import Image

    png = resvg_py.svg_to_bytes(svg_string=svg.render(state, size), background="#ffffff")
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def frame(state: State, mode: str | None) -> Any:
    """What ``render()`` returns for ``mode``; ``human`` prints the text picture and returns None."""
    if mode == "rgb_array":
        return rgb_array(state)
    if mode == "svg":
        return svg.render(state)
    if mode == "ansi":
        return ansi.render(state)
    if mode == "human":
        print(ansi.render(state), file=sys.stdout, flush=True)
    return None


def check_mode(mode: str | None) -> None:
    """Refuse a render mode the adapters do not offer."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {mode!r}")
