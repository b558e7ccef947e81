"""Santorini's board primitives (``bordspel.games.santorini.board``): each rule on small boards."""

from __future__ import annotations

from bordspel.games.santorini.board import (
    CELLS,
    DOME,
    MAX_CLIMB,
    NEIGHBOURS,
    STEPS,
    WIN_LEVEL,
    Levels,
    build_targets,
    can_step,
    height,
    is_winning_move,
    move_targets,
    raise_tower,
    winning_steps,
)


def tower(levels: Levels, cell: int, pieces: int) -> Levels:
    for _ in range(pieces):
        levels = raise_tower(levels, cell)
    return levels


def cells(mask: int) -> set[int]:
    return {cell for cell in range(CELLS) if mask >> cell & 1}


def test_neighbours_are_the_squares_one_king_step_away() -> None:
    assert [NEIGHBOURS[cell].bit_count() for cell in (0, 2, 12)] == [3, 5, 8]
    assert all(NEIGHBOURS[b] >> a & 1 for a in range(CELLS) for b in cells(NEIGHBOURS[a]))
    assert all(cells(NEIGHBOURS[cell]) == {n for n in STEPS[cell] if n >= 0} for cell in range(CELLS))


def test_a_worker_climbs_at_most_max_climb_levels_and_steps_down_any_number() -> None:
    levels = tower(tower(tower((0, 0, 0, 0), 1, MAX_CLIMB), 5, MAX_CLIMB + 1), 6, DOME)
    assert cells(move_targets(levels, 0, 0)) == {1}
    assert can_step(levels, 0, 0, 1) and not can_step(levels, 0, 0, 5) and not can_step(levels, 0, 0, 6)
    high = tower(levels, 0, 3)
    assert cells(move_targets(high, 0, 0)) == {1, 5}
    assert cells(move_targets(levels, 1 << 1, 0)) == set()  # a worker stands there


def test_a_power_that_forbids_moving_up_passes_a_climb_of_zero() -> None:
    levels = tower(tower((0, 0, 0, 0), 1, 1), 0, 1)
    assert cells(move_targets(levels, 0, 6, climb=0)) == {2, 5, 7, 10, 11, 12}
    assert cells(move_targets(levels, 0, 0, climb=0)) == {1, 5, 6}


def test_domes_at_any_level_block_steps_and_builds() -> None:
    levels: Levels = (0, 0, 0, 1 << 1)  # a dome on the ground (Atlas)
    assert height(levels, 1) == DOME
    assert not can_step(levels, 0, 0, 1)
    assert cells(build_targets(levels, 1 << 5, 0)) == {6}


def test_only_a_move_up_onto_the_win_level_wins() -> None:
    assert is_winning_move(WIN_LEVEL - 1, WIN_LEVEL)
    assert not is_winning_move(WIN_LEVEL, WIN_LEVEL)
    assert not is_winning_move(WIN_LEVEL - 1, WIN_LEVEL - 1)
    levels = tower(tower(tower((0, 0, 0, 0), 0, 2), 1, 3), 5, 4)
    assert cells(winning_steps(levels, 0, move_targets(levels, 0, 0))) == {1}
    assert winning_steps(levels, 0, move_targets(levels, 1 << 1, 0)) == 0
    top = tower(levels, 6, 3)
    assert winning_steps(top, 1, move_targets(top, 0, 1)) == 0  # already on the win level
