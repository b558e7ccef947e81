"""Symmetric augmentation: a game's symmetries as maps of observation arrays, action masks and
policies, for training on the images of every position (the vector environment's arrays).

The maps are derived from the rules, not written per game: :class:`Augmentation` plays random
games, and for each symmetry (``State.symmetries()``, ``transform`` and ``transform_move``)
compares the planes of the positions with those of their images and the actions of the legal
moves with those of the moved images. A symmetry is kept when it moves the observation's entries
about (a permutation: squares and planes) and sends each action to one action in every position;
others (Quarto's swaps of a characteristic's values, which turn planes over) are left out
(:attr:`Augmentation.symmetries` lists the kept ones). Actions never legal in the sampled games
are mapped among themselves (:attr:`Augmentation.unseen` counts them): right for actions never
legal at all (Hermit's blocks that would stick out of the board); the default 30 games make every
other action of Hermit, Quarto and Santorini without gods legal somewhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import BordspelError, State, new_game
from bordspel.rl.codecs import Codec, codec_for

__all__ = ["MOST_SYMMETRIES", "Augmentation"]

MOST_SYMMETRIES = 64
"""Games with more symmetries (Quarto's 12,288) take the ones to use by number."""

OBSERVED = 200
"""About how many sampled positions the observation maps are derived from."""

Indices = npt.NDArray[np.intp]


class Augmentation:
    """The symmetries of ``game`` (with ``options``) as index maps of observations and actions.

    ``symmetries`` chooses which to try (all by default, when there are at most
    :data:`MOST_SYMMETRIES`); ``games`` random games from ``seed`` are the sample they are
    derived from.
    """

    def __init__(
        self,
        game: str,
        symmetries: Iterable[int] | None = None,
        games: int = 30,
        seed: int = 0,
        **options: Any,
    ) -> None:
        start = new_game(game, **options)
        self.codec = codec_for(start.name, start)
        wanted = list(range(start.symmetries())) if symmetries is None else list(symmetries)
        if symmetries is None and len(wanted) > MOST_SYMMETRIES:
            raise BordspelError(
                f"{start.name} has {len(wanted)} symmetries: choose the ones to use, symmetries=[...]"
            )
        states = _random_positions(start, games, seed)
        seen = states[:: max(1, len(states) // OBSERVED)]
        planes = np.stack([_flat(self.codec, s) for s in seen])
        cover = _covering(self.codec, states)
        self.unseen = self.codec.num_actions(start) - len(
            {self.codec.encode(state, move) for state in cover for move in state.legal_moves()}
        )
        """How many actions no sampled position has legal."""
        self._observations: dict[int, Indices] = {}
        self._actions: dict[int, Indices] = {}
        for symmetry in wanted:
            images = np.stack([_flat(self.codec, s.transform(symmetry)) for s in seen])
            entries = _entry_permutation(planes, images)
            actions = _action_permutation(self.codec, cover, symmetry, self.codec.num_actions(start))
            if entries is not None and actions is not None:
                self._observations[symmetry], self._actions[symmetry] = entries, actions
        self.symmetries = tuple(self._observations)
        """The symmetries kept, in the order tried."""

    def observations(self, obs: npt.NDArray[Any], symmetry: int) -> npt.NDArray[Any]:
        """The planes of the image positions: ``obs`` of shape ``(..., rows, cols, planes)``."""
        shape = obs.shape
        flat = obs.reshape(*shape[:-3], -1)
        return flat[..., self._gather(self._observations, symmetry)].reshape(shape)

    def actions(self, actions: npt.ArrayLike, symmetry: int) -> Indices:
        """The image of each action."""
        images: Indices = self._check(self._actions, symmetry)[np.asarray(actions)]
        return images

    def policies(self, policies: npt.NDArray[Any], symmetry: int) -> npt.NDArray[Any]:
        """Arrays over the actions on their last axis (masks, move probabilities) for the images:
        the value of action ``a`` goes to its image."""
        return policies[..., self._gather(self._actions, symmetry)]

    def _check(self, maps: dict[int, Indices], symmetry: int) -> Indices:
        if symmetry not in maps:
            raise BordspelError(f"symmetry {symmetry} is not one kept: choose from {list(self.symmetries)}")
        return maps[symmetry]

    def _gather(self, maps: dict[int, Indices], symmetry: int) -> Indices:
        """The inverse of the map: where each image entry comes from."""
        forward = self._check(maps, symmetry)
        inverse = np.empty_like(forward)
        inverse[forward] = np.arange(len(forward))
        return inverse


def _random_positions(start: State, games: int, seed: int) -> list[State]:
    """Every position of ``games`` random games."""
    rng, found = random.Random(seed), []
    for _ in range(games):
        state = start
        while not state.is_over():
            found.append(state)
            state = state.apply(state.random_move(rng))
    return found


def _flat(codec: Codec, state: State) -> npt.NDArray[np.int8]:
    return codec.observe(state, state.to_move).ravel()


def _covering(codec: Codec, states: list[State]) -> list[State]:
    """A few of ``states`` in which every action legal in any of them is legal."""
    chosen, seen = [], set[int]()
    for state in states:
        new = {codec.encode(state, move) for move in state.legal_moves()} - seen
        if new:
            chosen.append(state)
            seen |= new
    return chosen


def _entry_permutation(planes: npt.NDArray[np.int8], images: npt.NDArray[np.int8]) -> Indices | None:
    """Where each observation entry goes (the column of ``images`` equal to its column of
    ``planes`` over the sample), or None when the images are no permutation of the entries."""
    free: dict[bytes, list[int]] = {}
    for entry, column in enumerate(images.T):
        free.setdefault(column.tobytes(), []).append(entry)
    found = []
    for column in planes.T:
        places = free.get(column.tobytes())
        if not places:
            return None
        found.append(places.pop(0))
    return np.array(found, dtype=np.intp)


def _action_permutation(codec: Codec, states: list[State], symmetry: int, size: int) -> Indices | None:
    """The image of each action (those never legal in ``states`` among themselves), or None when
    an action has two images."""
    image = np.full(size, -1, dtype=np.intp)
    for state in states:
        turned = state.transform(symmetry)
        for move in state.legal_moves():
            action, target = (
                codec.encode(state, move),
                codec.encode(turned, state.transform_move(move, symmetry)),
            )
            if image[action] not in (-1, target):
                return None
            image[action] = target
    if len(set(image[image >= 0].tolist())) != int((image >= 0).sum()):
        return None
    unused = sorted(set(range(size)) - set(image.tolist()))
    image[image < 0] = unused
    return image
