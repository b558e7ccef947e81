"""The replay buffer of self-play (NumPy): searched positions with their visit shares and value
targets, stored in several images under the game's symmetries."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import State
from bordspel.zero.search import Encoder

__all__ = ["Buffer", "Record", "symmetric_samples"]

Actions = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]


class Buffer:
    """The last ``capacity`` samples: planes, the actions of the legal moves with their visit
    shares (a short list each: a game's action space can be wide, 103,709 with Santorini's
    gods), and results."""

    def __init__(self, capacity: int, planes: tuple[int, ...]) -> None:
        self.capacity, self.size, self.next = capacity, 0, 0
        self.planes = np.zeros((capacity, *planes), dtype=np.float32)
        self.results = np.zeros(capacity, dtype=np.float32)
        self.actions: list[Actions] = [np.zeros(0, dtype=np.int64)] * capacity
        self.shares: list[Floats] = [np.zeros(0, dtype=np.float32)] * capacity

    def add(self, planes: np.ndarray, actions: Actions, shares: Floats, result: float) -> None:
        """Store a sample, in place of the oldest when the buffer is full."""
        i = self.next
        self.planes[i], self.results[i] = planes, result
        self.actions[i], self.shares[i] = np.asarray(actions, np.int64), np.asarray(shares, np.float32)
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        """``count`` samples drawn uniformly (with repeats): planes, the legal actions and their
        shares (rows padded to the longest: action 0 with share 0, marked by ``legal``), legal,
        results."""
        index = rng.integers(0, self.size, count)
        width = max(len(self.actions[i]) for i in index)
        actions = np.zeros((count, width), dtype=np.int64)
        shares = np.zeros((count, width), dtype=np.float32)
        legal = np.zeros((count, width), dtype=np.bool_)
        for row, i in enumerate(index):
            length = len(self.actions[i])
            actions[row, :length], shares[row, :length], legal[row, :length] = (
                self.actions[i],
                self.shares[i],
                True,
            )
        return self.planes[index], actions, shares, legal, self.results[index]

    def arrays(self) -> dict[str, Any]:
        """The contents, for a checkpoint: the rows filled so far, not the whole capacity (until
        the buffer wraps, the first ``size`` rows), the actions and shares of all of them end to
        end with each row's length."""
        rows = range(self.size)
        return {
            "planes": self.planes[: self.size],
            "results": self.results[: self.size],
            "lengths": np.array([len(self.actions[i]) for i in rows], dtype=np.int64),
            "actions": np.concatenate([self.actions[i] for i in rows] or [np.zeros(0, np.int64)]),
            "shares": np.concatenate([self.shares[i] for i in rows] or [np.zeros(0, np.float32)]),
            "size": self.size,
            "next": self.next,
        }

    def restore(self, arrays: dict[str, Any]) -> None:
        """Take the contents of a checkpoint (:meth:`arrays`) into this buffer's first rows."""
        count = len(arrays["planes"])
        self.planes[:count], self.results[:count] = arrays["planes"], arrays["results"]
        ends = np.cumsum(arrays["lengths"])[:-1]
        for key, kind in (("actions", np.int64), ("shares", np.float32)):
            rows = np.split(np.asarray(arrays[key], kind), ends) if count else []
            getattr(self, key)[:count] = rows
        self.size, self.next = int(arrays["size"]), int(arrays["next"])


@dataclass
class Record:
    """A searched position of a self-play game: its moves, their visit shares and the search's
    value for the seat to move."""

    state: State
    moves: list[Any]
    shares: np.ndarray
    value: float


def symmetric_samples(
    record: Record, encoder: Encoder, count: int, rng: random.Random
) -> list[tuple[Floats, Actions, Floats]]:
    """``count`` images (planes, actions of the moves, their shares) of a record under distinct
    symmetries, the identity first: each move's share goes to the action of its image."""
    state = record.state
    others = rng.sample(range(1, state.symmetries()), min(count, state.symmetries()) - 1)
    samples = []
    for symmetry in [0, *others]:
        image = state.transform(symmetry)
        moves = [state.transform_move(m, symmetry) for m in record.moves]
        actions = np.array(encoder.codec.encode_legal(image, moves), dtype=np.int64)
        samples.append((encoder.planes(image), actions, record.shares.astype(np.float32)))
    return samples
