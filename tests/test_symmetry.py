"""Symmetries through the game protocol: every game's images of positions and moves, checked
without naming a game (legal moves go to legal moves, perft and outcomes stay, the canonical
form is shared by all images)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bordspel.core import BordspelError, State, canonical, canonical_symmetry, new_game, square_symmetries
from bordspel.games.quarto.engine import DEFAULT_PIECES, PieceSet, QuartoState
from bordspel.games.santorini.engine import SantoriniState

from .variants import GOD_IDS, GOD_VARIANTS, IDS, VARIANTS


def positions(game: str, options: dict[str, Any], seed: int, count: int = 3) -> list[State]:
    """A few positions along a random game, the start among them."""
    rng = random.Random(seed)
    state = new_game(game, **options)
    found = [state]
    while len(found) < count and not state.is_over():
        for _ in range(rng.randint(1, 4)):
            if not state.is_over():
                state = state.apply(state.random_move(rng))
        found.append(state)
    return found


def chosen_symmetries(state: State, rng: random.Random, most: int = 8) -> list[int]:
    count = state.symmetries()
    return list(range(count)) if count <= most else [0, *rng.sample(range(1, count), most - 1)]


def check_symmetry(state: State, symmetry: int, rng: random.Random) -> None:
    image = state.transform(symmetry)
    moves = state.legal_moves()
    images = [state.transform_move(move, symmetry) for move in moves]
    assert sorted(map(str, images)) == sorted(map(str, image.legal_moves())), symmetry
    depth = 2 if len(moves) < 50 else 1
    assert image.outcome() == state.outcome() and image.perft(depth) == state.perft(depth)
    assert type(image).from_str(image.to_str()) == image
    for move, moved in rng.sample(list(zip(moves, images)), min(4, len(moves))):
        assert image.apply(moved) == state.apply(move).transform(symmetry)


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=IDS)
def test_symmetries_map_legal_moves_to_legal_moves_and_keep_perft(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(3)
    for state in positions(game, options, seed=len(game)):
        assert state.transform(0) == state and state.symmetries() >= 1
        for symmetry in chosen_symmetries(state, rng, most=6):
            check_symmetry(state, symmetry, rng)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        pytest.param(*variant, marks=[pytest.mark.slow] if "hermes" in str(variant) else [])
        for variant in GOD_VARIANTS
    ],
    ids=GOD_IDS,
)  # Hermes's thousands of walks: 5 s
def test_symmetries_of_god_positions_map_their_turns(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(3)
    state = positions(game, options, seed=4, count=4)[-1]
    for symmetry in chosen_symmetries(state, rng, most=3):
        check_symmetry(state, symmetry, rng)


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=IDS)
def test_every_image_has_the_same_canonical_form(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    state = positions(game, options, seed=7)[-1]
    form = canonical(state)
    assert form == state.transform(canonical_symmetry(state))
    assert all(
        form.to_str() <= state.transform(s).normalized().to_str() for s in chosen_symmetries(state, rng, 48)
    )
    for symmetry in chosen_symmetries(state, rng, most=2 if state.symmetries() > 100 else 8):
        assert canonical(state.transform(symmetry)) == form


def test_the_square_symmetries_are_the_group_of_the_square() -> None:
    perms = square_symmetries(5)
    assert perms[0] == tuple(range(25)) and len(set(perms)) == 8
    composed = {tuple(a[b[cell]] for cell in range(25)) for a in perms for b in perms}
    assert composed == set(perms)
    assert perms[1][0] == 4  # a quarter turn takes a1 (top left) to e1 (top right)


def test_quarto_symmetries_include_the_board_permutations_and_the_piece_maps() -> None:
    assert QuartoState.initial().symmetries() == 32 * 384
    assert QuartoState.initial(advanced=True).symmetries() == 8 * 384
    state = QuartoState.from_str("A.../..../..B./.... hand=C")
    flipped = state.transform(1)  # piece map 1: every piece's first characteristic swapped
    assert flipped.to_str() == "B.../..../..A./.... hand=D"


def test_santorini_symmetries_keep_gods_memos_and_the_workers_order() -> None:
    state = SantoriniState.from_str(
        "10000/02000/00300/00020/00000 workers=a1b2,e5d4 turn=1 players=2 gods=morpheus:2,selene"
    )
    assert state.symmetries() == 8
    assert state.transform(4).to_str() == (
        "00001/00020/00300/02000/00000 workers=e1d2,a5b4 turn=1 players=2 gods=morpheus:2,selene"
    )


def test_santorini_images_keep_the_workers_order_and_a_colour_s_workers_are_alike() -> None:
    state = SantoriniState.from_str(
        "10000/02000/00300/00020/00000 workers=a1b2,e5d4 turn=1 players=2 gods=morpheus:2,pan"
    )
    image = state.transform(4)
    assert image.to_str().split()[1] == "workers=e1d2,a5b4"
    assert image == SantoriniState.from_str(
        "00001/00020/00300/02000/00000 workers=d2e1,b4a5 turn=1 players=2 gods=morpheus:2,pan"
    )
    assert image.normalized().to_str().split()[1] == "workers=e1d2,b4a5"  # cells 4, 8 and 16, 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_santorini_placements_commute_with_every_symmetry(players: int) -> None:
    rng = random.Random(players)
    state = new_game("santorini", players=players)
    while state.in_setup:  # type: ignore[attr-defined]
        for move in rng.sample(state.legal_moves(), 20):
            for symmetry in range(8):
                image = state.transform(symmetry).apply(state.transform_move(move, symmetry))
                assert image == state.apply(move).transform(symmetry), (move, symmetry)
                assert hash(image) == hash(state.apply(move).transform(symmetry))
        state = state.apply(state.random_move(rng))


def test_mirror_image_setups_share_their_canonical_form() -> None:
    left, right = new_game("santorini").play("a3d3"), new_game("santorini").play("b3e3")
    assert canonical(left) == canonical(right)
    assert canonical(left).to_str() == canonical(right).to_str()
    both = new_game("santorini").play("a1b2").play("c3d4")
    mirrored = new_game("santorini").play("e1d2").play("c3b4")
    assert canonical(both).to_str() == canonical(mirrored).to_str()


def test_a_symmetry_out_of_range_is_refused() -> None:
    with pytest.raises(BordspelError, match="a symmetry of hermit must be from 0 to 47, not 48"):
        new_game("hermit").transform(48)
    with pytest.raises(BordspelError, match="whole number"):
        new_game("santorini").transform_move(new_game("santorini").legal_moves()[0], "1")  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    advanced=st.booleans(),
    chars=st.sampled_from([DEFAULT_PIECES.chars, tuple("!#$%&'+0abcdefgh"), tuple("PONMLKJIHGFEDCBA")]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 12),
)
def test_quartos_quick_canonical_symmetry_is_the_generic_one(
    advanced: bool, chars: tuple[str, ...], seed: int, plies: int
) -> None:
    pieces = PieceSet(DEFAULT_PIECES.characteristics, DEFAULT_PIECES.values, chars)
    state, rng = QuartoState.initial(advanced=advanced, pieces=pieces), random.Random(seed)
    for _ in range(plies):
        if not state.is_over():
            state = state.apply(state.random_move(rng))
    assert state.canonical_symmetry() == State.canonical_symmetry(state)
