"""The replay buffer of self-play (NumPy): searched positions with their visit shares and value
targets, stored in several images under the game's symmetries."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from bordspel.core import State
from bordspel.zero.search import Encoder

__all__ = ["Buffer", "Record", "symmetric_samples"]

SAMPLES = ("planes", "masks", "policies", "results")
"""The buffer's arrays, a row a sample."""


class Buffer:
    """The last ``capacity`` samples: planes, legal masks, visit shares and results."""

    def __init__(self, capacity: int, planes: tuple[int, ...], actions: int) -> None:
        self.capacity, self.size, self.next = capacity, 0, 0
        self.planes = np.zeros((capacity, *planes), dtype=np.float32)
        self.masks = np.zeros((capacity, actions), dtype=np.bool_)
        self.policies = np.zeros((capacity, actions), dtype=np.float32)
        self.results = np.zeros(capacity, dtype=np.float32)

    def add(self, planes: np.ndarray, mask: np.ndarray, policy: np.ndarray, result: float) -> None:
        """Store a sample, in place of the oldest when the buffer is full."""
        i = self.next
        self.planes[i], self.masks[i], self.policies[i], self.results[i] = planes, mask, policy, result
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        """``count`` samples drawn uniformly (with repeats): planes, masks, policies, results."""
        index = rng.integers(0, self.size, count)
        return self.planes[index], self.masks[index], self.policies[index], self.results[index]

    def arrays(self) -> dict[str, Any]:
        """The contents, for a checkpoint: the rows filled so far, not the whole capacity (until
        the buffer wraps, the first ``size`` rows)."""
        kept = {key: getattr(self, key)[: self.size] for key in SAMPLES}
        return {**kept, "size": self.size, "next": self.next}

    def restore(self, arrays: dict[str, Any]) -> None:
        """Take the contents of a checkpoint (:meth:`arrays`) into this buffer's first rows."""
        for key in SAMPLES:
            rows = arrays[key]
            getattr(self, key)[: len(rows)] = rows
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
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``count`` images (planes, mask, policy) of a record under distinct symmetries, the
    identity first: each move's share goes to the action of its image."""
    state = record.state
    others = rng.sample(range(1, state.symmetries()), min(count, state.symmetries()) - 1)
    samples = []
    for symmetry in [0, *others]:
        image = state.transform(symmetry)
        moves = [state.transform_move(m, symmetry) for m in record.moves]
        actions = encoder.codec.encode_legal(image, moves)
        policy = np.zeros(encoder.actions, dtype=np.float32)
        policy[actions] = record.shares
        samples.append((encoder.planes(image), encoder.mask(np.array(actions, dtype=np.int64)), policy))
    return samples
