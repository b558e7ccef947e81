"""Symmetric augmentation (``bordspel.rl.symmetry``): the image of an observation, a mask, a
policy and an action is that of the transformed position, on positions the maps were not
derived from."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from bordspel.core import BordspelError, new_game
from bordspel.rl.codecs import codec_for

pytest.importorskip("numpy")

from bordspel.rl.symmetry import Augmentation

CASES = [
    pytest.param("hermit", {"size": 3}, None, 48, id="hermit-3", marks=pytest.mark.slow),
    pytest.param("hermit", {"size": 2}, None, 48, id="hermit-2"),
    pytest.param("hermit", {"size": 4}, None, 48, id="hermit-4", marks=pytest.mark.slow),
    pytest.param("santorini", {}, None, 8, id="santorini", marks=pytest.mark.slow),
    pytest.param("santorini", {"players": 3}, None, 8, id="santorini-3", marks=pytest.mark.slow),
    pytest.param("quarto", {}, [1, 384 * 31 + 64], 1, id="quarto"),
    pytest.param(
        "quarto", {}, [0, 1, 384 * 5, 384 * 7 + 17, 384 * 31 + 64], 3, id="quarto-5", marks=pytest.mark.slow
    ),
    pytest.param(
        "quarto",
        {"advanced": True},
        [384 * 3 + 16, 384 * 7, 6],
        2,
        id="quarto-advanced",
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize("game, options, symmetries, kept", CASES)
def test_images_of_observations_masks_policies_and_actions_are_those_of_the_transformed_position(
    game: str, options: dict[str, Any], symmetries: list[int] | None, kept: int
) -> None:
    augmentation = Augmentation(game, symmetries, **options)
    assert len(augmentation.symmetries) == kept
    codec, rng = codec_for(game), random.Random(99)
    state = new_game(game, **options)
    while not state.is_over():
        moves = state.legal_moves()
        policy = np.zeros(codec.num_actions(state))
        weights = [rng.random() for _ in moves]
        for move, weight in zip(moves, weights, strict=True):
            policy[codec.encode(state, move)] = weight
        for symmetry in augmentation.symmetries:
            image = state.transform(symmetry)
            obs = codec.observe(state, state.to_move)[None]
            assert np.array_equal(
                augmentation.observations(obs, symmetry)[0], codec.observe(image, image.to_move)
            )
            assert np.array_equal(augmentation.policies(codec.mask(state), symmetry), codec.mask(image))
            turned = np.zeros_like(policy)
            for move, weight in zip(moves, weights, strict=True):
                action = codec.encode(state, move)
                target = codec.encode(image, state.transform_move(move, symmetry))
                assert augmentation.actions([action], symmetry)[0] == target
                turned[target] = weight
            assert np.array_equal(augmentation.policies(policy, symmetry), turned)
        state = state.apply(rng.choice(moves))


def test_symmetries_that_turn_planes_over_are_left_out_and_refused() -> None:
    augmentation = Augmentation("quarto", [0, 1], games=5)
    assert (
        augmentation.unseen > 0
    )  # five games leave some placements unplayed  # 1 swaps the values of a characteristic
    assert augmentation.symmetries == (0,)
    with pytest.raises(BordspelError, match="not one kept"):
        augmentation.actions([0], 1)
    with pytest.raises(BordspelError, match="choose the ones to use"):
        Augmentation("quarto")
