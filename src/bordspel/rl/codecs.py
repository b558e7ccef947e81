"""Fixed action spaces and observation planes, shared by every RL adapter.

An action is an integer below ``num_actions(start)`` (fixed for a game and its options); moves
map to actions and back. Observations are NumPy ``int8`` arrays of shape ``(rows, cols,
planes)``, seen from one seat. Each game gives its codec (its GameSpec's ``codec`` part; the
encodings are documented there, in ``bordspel.games.<game>.codec``); a game without one gets
:class:`MoveListCodec`: the actions are the start position's legal moves in their order, and the
observation the empty squares of ``grid()`` and one plane per piece character (the GameSpec's
``pieces``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import BordspelError, Grid, Part, State, game_part, game_spec, new_game

__all__ = ["CODEC_PART", "Codec", "MoveListCodec", "Planes", "codec_for", "mask_planes"]

Planes = npt.NDArray[np.int8]


class Codec:
    """Maps a game's moves to integers and its positions to planes."""

    def num_actions(self, start: State) -> int:
        """The size of the action space for games from ``start``."""
        raise NotImplementedError

    def encode(self, state: State, move: Any) -> int:
        """The action of ``move`` in ``state``."""
        raise NotImplementedError

    def encode_legal(self, state: State, moves: Sequence[Any]) -> list[int]:
        """The actions of ``moves``, legal moves of ``state`` (not checked again: a game's codec
        may skip what :meth:`encode` checks)."""
        return [self.encode(state, move) for move in moves]

    def decode(self, state: State, action: int) -> Any:
        """The move of ``action`` in ``state`` (see :meth:`checked` for its range)."""
        raise NotImplementedError

    def decode_many(self, state: State, actions: Sequence[int]) -> list[Any]:
        """The moves of several actions of ``state`` (a game's codec may do it faster than
        :meth:`decode` one by one)."""
        return [self.decode(state, action) for action in actions]

    def checked(self, state: State, action: object) -> int:
        """``action`` as an int if it is one of the actions of ``state``'s game, else BordspelError
        (every ``decode`` checks its action with this first)."""
        count = self.num_actions(state)
        number = int(action) if isinstance(action, np.integer) else action
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < count:
            raise BordspelError(
                f"action {action!r} is not one of {state.name}'s actions: give 0 to {count - 1}"
            )
        return number

    def observe(self, state: State, seat: int) -> Planes:
        """The observation planes of ``state`` as ``seat`` sees it."""
        raise NotImplementedError

    def action_parts(self, start: State) -> npt.NDArray[np.int64] | None:
        """What a network's policy head scores for games from ``start``: an ``(actions, J)``
        array of part numbers, an action's logit being the sum of its parts' (-1 fills a row of
        fewer than ``J``); None: each action is a part of its own. A game whose action space is
        wide gives parts so that the head stays small."""
        return None

    def highest(self, start: State) -> int:
        """The largest value in the planes of games from ``start`` (the observation space's bound)."""
        return 1

    def mask(self, state: State) -> Planes:
        """1 for each legal action, 0 elsewhere."""
        mask = np.zeros(self.num_actions(state), dtype=np.int8)
        mask[self.encode_legal(state, state.legal_moves())] = 1
        return mask

    def legal_actions(self, state: State) -> list[int]:
        """The actions of the legal moves, sorted."""
        return sorted(self.encode_legal(state, state.legal_moves()))

    def move(self, state: State, action: int) -> Any:
        """The legal move behind ``action``; BordspelError when there is none."""
        if not 0 <= action < self.num_actions(state):
            raise BordspelError(f"action {action} is out of range")
        move = self.decode(state, action)
        if move is None or not state.is_legal(move):
            raise BordspelError(f"action {action} is not legal here")
        return move


def mask_planes(mask: int, rows: int, cols: int) -> Planes:
    """The bit ``mask`` as a ``rows`` x ``cols`` plane of 0 and 1."""
    return np.array([[mask >> (r * cols + c) & 1 for c in range(cols)] for r in range(rows)], dtype=np.int8)


class MoveListCodec(Codec):
    """The generic codec: action ``i`` is the ``i``-th legal move of the start position (by its text).

        It fits games whose start position lists every move there is (placement games such as
        tic-tac-toe); observations are ``grid()``: the empty squares (``.``), then one plane per
    character of ``pieces``.
    """

    def __init__(self, start: State, pieces: str) -> None:
        self.start, self.pieces = start, pieces
        self.texts = [move.to_str() for move in start.legal_moves()]
        self.index = {text: i for i, text in enumerate(self.texts)}

    def num_actions(self, start: State) -> int:
        return len(self.texts)

    def encode(self, state: State, move: Any) -> int:
        try:
            return self.index[move.to_str()]
        except KeyError:
            raise BordspelError(
                f"{move.to_str()} has no action: the generic codec knows the first moves"
            ) from None

    def decode(self, state: State, action: int) -> Any:
        return state.move_from_str(self.texts[self.checked(state, action)])

    def observe(self, state: State, seat: int) -> Planes:
        if not isinstance(state, Grid):
            raise BordspelError(f"{state.name} has no grid() to observe: give its GameSpec a codec")
        rows = list(state.grid())
        planes = [[[int(ch == piece) for piece in "." + self.pieces] for ch in row] for row in rows]
        return np.array(planes, dtype=np.int8)


CODEC_PART: Part[Codec] = Part("codec", "a Codec", lambda found: isinstance(found, Codec))
"""The ``codec`` part of a GameSpec (by convention ``<package>.codec:CODEC``)."""


def codec_for(game: str, start: State | None = None) -> Codec:
    """The codec of ``game``: its own, or a :class:`MoveListCodec` of ``start`` (its default start)."""
    own = game_part(game, CODEC_PART)
    if own is not None:
        return own
    return _move_list_codec(game) if start is None else MoveListCodec(start, game_spec(game).pieces)


@functools.cache
def _move_list_codec(game: str) -> Codec:
    return MoveListCodec(new_game(game), game_spec(game).pieces)
