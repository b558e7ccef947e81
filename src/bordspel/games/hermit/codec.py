"""The RL action codec and observation planes of Hermit.

(n x n, 9 n^2 actions: ``(colour * 3 + placement) * n^2 + row * n + col``, colours
R Y B, placements U H V; the square is the block's top-left one)
    planes 0-2: the squares covered in red, yellow, blue; 3-5: the squares where a red, yellow,
    blue block may go.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bordspel.core import State
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.rules import COLOURS, PLACEMENTS
from bordspel.rl.codecs import Codec, Planes, mask_planes

__all__ = ["CODEC", "HermitCodec"]


class HermitCodec(Codec):
    """Hermit's actions (colour, placement and top-left square: ``9 n^2``) and its six planes
    of covered and open squares per colour (see the module docstring)."""

    def num_actions(self, start: State) -> int:
        assert isinstance(start, HermitState)
        return 9 * start.n * start.n

    def encode(self, state: State, move: Any) -> int:
        assert isinstance(state, HermitState)
        kind = COLOURS.index(move.colour) * 3 + PLACEMENTS.index(move.placement)
        return int(kind * state.n * state.n + move.row * state.n + move.col)

    def decode(self, state: State, action: int) -> Any:
        assert isinstance(state, HermitState)
        action = self.checked(state, action)
        kind, cell = divmod(action, state.n * state.n)
        colour, placement = divmod(kind, 3)
        return HermitMove(COLOURS[colour], cell // state.n, cell % state.n, PLACEMENTS[placement])

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, HermitState)
        n = state.n
        masks = [*state.masks, *(state.free_mask(i) for i in range(3))]
        return np.stack([mask_planes(m, n, n) for m in masks], axis=-1)


CODEC = HermitCodec()
