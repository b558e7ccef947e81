"""Fixed action spaces and observation planes per game, shared by every RL adapter.

An action is an integer below ``num_actions(start)`` (fixed for a game and its options); moves
map to actions and back. Observations are NumPy ``int8`` arrays of shape ``(rows, cols,
planes)``, seen from one seat:

Hermit (n x n, 9 n^2 actions: ``(colour * 3 + placement) * n^2 + row * n + col``, colours
R Y B, placements U H V; the square is the block's top-left one)
    planes 0-2: the squares covered in red, yellow, blue; 3-5: the squares where a red, yellow,
    blue block may go.

Santorini (5 x 5, 444 actions: 0-299 the setup pairs of squares in ``itertools.combinations``
order; 300-427 ``300 + (worker * 8 + move) * 8 + build`` for a turn of the first or second of
the mover's workers, with the directions N NE E SE S SW W NW; 428-443 ``428 + worker * 8 + move``
for a winning move, which builds nothing)
    planes 0-4: tower height 0, 1, 2, 3, dome; then one plane per colour of workers, the
    observer's colour first and the others in seat order; last: all ones during the setup.

Quarto (4 x 4, 288 actions: 0-15 hand over that piece code on the first turn; 16-287
``16 + square * 17 + give``, ``give`` 16 for handing nothing over when the placement ends the game)
    plane 0: filled squares; 1-4: squares whose piece has the second value of characteristic
    1-4; 5-8: the piece in hand's characteristics (whole planes); 9: all ones when a piece is in
    hand; 10: the pieces still to give, piece code ``k`` at square ``k``.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import BordspelError, State
from bordspel.hermit import COLOURS, PLACEMENTS, HermitMove, HermitState
from bordspel.quarto import QuartoMove, QuartoState
from bordspel.santorini import CELLS, STEPS, Placement, SantoriniState, Turn, height

__all__ = ["Codec", "codec_for"]

Planes = npt.NDArray[np.int8]


class Codec:
    """Maps a game's moves to integers and its positions to planes."""

    def num_actions(self, start: State) -> int:
        """The size of the action space for games from ``start``."""
        raise NotImplementedError

    def encode(self, state: State, move: Any) -> int:
        """The action of ``move`` in ``state``."""
        raise NotImplementedError

    def decode(self, state: State, action: int) -> Any:
        """The move of ``action`` in ``state``."""
        raise NotImplementedError

    def observe(self, state: State, seat: int) -> Planes:
        """The observation planes of ``state`` as ``seat`` sees it."""
        raise NotImplementedError

    def mask(self, state: State) -> Planes:
        """1 for each legal action, 0 elsewhere."""
        mask = np.zeros(self.num_actions(state), dtype=np.int8)
        for move in state.legal_moves():
            mask[self.encode(state, move)] = 1
        return mask

    def legal_actions(self, state: State) -> list[int]:
        """The actions of the legal moves, sorted."""
        return sorted(self.encode(state, move) for move in state.legal_moves())

    def move(self, state: State, action: int) -> Any:
        """The legal move behind ``action``; BordspelError when there is none."""
        if not 0 <= action < self.num_actions(state):
            raise BordspelError(f"action {action} is out of range")
        move = self.decode(state, action)
        if move is None or not state.is_legal(move):
            raise BordspelError(f"action {action} is not legal here")
        return move


def _mask_planes(mask: int, rows: int, cols: int) -> Planes:
    return np.array([[mask >> (r * cols + c) & 1 for c in range(cols)] for r in range(rows)], dtype=np.int8)


class HermitCodec(Codec):
    def num_actions(self, start: State) -> int:
        assert isinstance(start, HermitState)
        return 9 * start.n * start.n

    def encode(self, state: State, move: Any) -> int:
        assert isinstance(state, HermitState)
        kind = COLOURS.index(move.colour) * 3 + PLACEMENTS.index(move.placement)
        return int(kind * state.n * state.n + move.row * state.n + move.col)

    def decode(self, state: State, action: int) -> Any:
        assert isinstance(state, HermitState)
        kind, cell = divmod(action, state.n * state.n)
        colour, placement = divmod(kind, 3)
        return HermitMove(COLOURS[colour], cell // state.n, cell % state.n, PLACEMENTS[placement])

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, HermitState)
        n = state.n
        masks = [*state.masks, *(state.free_mask(i) for i in range(3))]
        return np.stack([_mask_planes(m, n, n) for m in masks], axis=-1)


PAIRS = list(combinations(range(CELLS), 2))
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
TURNS, WINS = 300, 428


class SantoriniCodec(Codec):
    def num_actions(self, start: State) -> int:
        return 444

    def encode(self, state: State, move: Any) -> int:
        assert isinstance(state, SantoriniState)
        if isinstance(move, Placement):
            return int(PAIR_INDEX[(move.first, move.second)])
        worker: int = state.my_workers().index(move.source)
        step: int = STEPS[move.source].index(move.target)
        if move.build is None:
            return WINS + worker * 8 + step
        build: int = STEPS[move.target].index(move.build)
        return TURNS + (worker * 8 + step) * 8 + build

    def decode(self, state: State, action: int) -> Any:
        assert isinstance(state, SantoriniState)
        if action < TURNS:
            return Placement(*PAIRS[action])
        if action >= WINS:
            worker, step = divmod(action - WINS, 8)
            build = None
        else:
            rest, build = divmod(action - TURNS, 8)
            worker, step = divmod(rest, 8)
        source = state.my_workers()[worker]
        target = STEPS[source][step] if source >= 0 else -1
        if target < 0:
            return None
        if build is None:
            return Turn(source, target, None)
        built = STEPS[target][build]
        return None if built < 0 else Turn(source, target, built)

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, SantoriniState)
        heights = [height(state.levels, c) for c in range(CELLS)]
        planes = [sum(1 << c for c in range(CELLS) if heights[c] == level) for level in range(5)]
        mine = state.colour_of(seat)
        for colour in [mine, *(c for c in range(state.colours) if c != mine)]:
            planes.append(sum(1 << c for c in state.workers[2 * colour : 2 * colour + 2] if c >= 0))
        planes.append((1 << CELLS) - 1 if state.in_setup else 0)
        return np.stack([_mask_planes(m, 5, 5) for m in planes], axis=-1)


class QuartoCodec(Codec):
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
        chars = state.pieces.chars
        if action < 16:
            return QuartoMove(None, chars[action])
        square, give = divmod(action - 16, 17)
        return QuartoMove(square, None if give == 16 else chars[give])

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, QuartoState)
        full = 0xFFFF
        hand = state.hand
        planes = [state.filled, *state.ones]
        planes += [full if hand >= 0 and hand >> j & 1 else 0 for j in range(4)]
        planes.append(full if hand >= 0 else 0)
        planes.append(sum(1 << code for code in state.available()))
        return np.stack([_mask_planes(m, 4, 4) for m in planes], axis=-1)


_CODECS: dict[str, Codec] = {"hermit": HermitCodec(), "santorini": SantoriniCodec(), "quarto": QuartoCodec()}


@functools.cache
def codec_for(game: str) -> Codec:
    try:
        return _CODECS[game]
    except KeyError:
        raise BordspelError(f"no action codec for {game!r}: choose one of {', '.join(_CODECS)}") from None
