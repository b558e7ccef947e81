"""The RL action codec and observation planes of Quarto.

(4 x 4, 288 actions: 0-15 hand over that piece code on the first turn; 16-287
``16 + square * 17 + give``, ``give`` 16 for handing nothing over when the placement ends the game)
    plane 0: filled squares; 1-4: squares whose piece has the second value of characteristic
    1-4; 5-8: the piece in hand's characteristics (whole planes); 9: all ones when a piece is in
    hand; 10: the pieces still to give, piece code ``k`` at square ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bordspel.core import State
from bordspel.games.quarto.engine import QuartoMove, QuartoState
from bordspel.rl.codecs import Codec, Planes, mask_planes

__all__ = ["CODEC", "QuartoCodec"]


class QuartoCodec(Codec):
    """Quarto's 288 actions (a piece to give, or a square and the piece to give after it) and its
    eleven planes of the board, the piece in hand and the pieces left (see the module docstring)."""

    def num_actions(self, start: State) -> int:
        return 16 + 16 * 17

    def encode(self, state: State, move: Any) -> int:
        assert isinstance(state, QuartoState)
        give = 16 if move.give is None else state.pieces.code(move.give)
        if move.square is None:
            return give
        square: int = move.square
        return 16 + square * 17 + give

    def decode(self, state: State, action: int) -> Any:
        assert isinstance(state, QuartoState)
        action = self.checked(state, action)
        chars = state.pieces.chars
        if action < 16:
            return QuartoMove(None, chars[action])
        square, give = divmod(action - 16, 17)
        return QuartoMove(square, None if give == 16 else chars[give])

    def decode_many(self, state: State, actions: Sequence[int]) -> list[Any]:
        assert isinstance(state, QuartoState)
        for bound in (min(actions), max(actions)) if actions else ():
            self.checked(state, bound)
        chars = (*state.pieces.chars, None)  # give 16: nothing handed over
        return [
            QuartoMove(None, chars[action])
            if action < 16
            else QuartoMove((action - 16) // 17, chars[(action - 16) % 17])
            for action in actions
        ]

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, QuartoState)
        full = 0xFFFF
        hand = state.hand
        planes = [state.filled, *state.ones]
        planes += [full if hand >= 0 and hand >> j & 1 else 0 for j in range(4)]
        planes.append(full if hand >= 0 else 0)
        planes.append(sum(1 << code for code in state.available()))
        return np.stack([mask_planes(m, 4, 4) for m in planes], axis=-1)


CODEC = QuartoCodec()
