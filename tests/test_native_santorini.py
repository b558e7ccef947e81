"""The compiled Santorini core against the pure engine, and the batch API of random games.

The compiled tests skip when the extension is not built, unless ``BORDSPEL_REQUIRE_NATIVE`` is
set (CI sets it), and then they fail.
"""

from __future__ import annotations

import os
import random
from types import ModuleType

import pytest

from bordspel.ai.registry import knowledge, make_player
from bordspel.core import BordspelError
from bordspel.games.santorini import batch as santorini_batch
from bordspel.games.santorini import board
from bordspel.games.santorini import engine as santorini_engine
from bordspel.games.santorini.batch import SplitMix64, pure_random_games, random_games
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn

VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "finite_supply": True},
    {"players": 3, "finite_supply": True},
]
PARSED = [
    # little supply left: only level-2 blocks and domes
    "01230/12340/00100/03210/00000 workers=a1e5,c3e4 turn=2 players=2 supply=0,3,0,1",
    # seat 3 is out; the others play on
    "00000/01200/02300/00400/00000 workers=a1b1,-,e4e5 turn=3 players=3 out=2",
    # three players, seat 1 walled in by domes: it is out at once
    "04040/44044/00000/00000/00000 workers=a1e1,c3d4,a5e5 turn=1 players=3",
    # four players, seats 2 and 4 (workers c3 d5) can climb onto level 3
    "00000/00000/00230/00000/00000 workers=a1e1,c3d5 turn=2 players=4",
    # setup with towers and a dome on the board
    "00000/01200/00340/00000/00000 workers=a1b1,- turn=2 players=2",
]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    from bordspel._native import load

    module = load("santorini_core")
    if module is None:
        if os.environ.get("BORDSPEL_REQUIRE_NATIVE") and os.environ.get("BORDSPEL_PURE", "") in ("", "0"):
            pytest.fail("the compiled santorini_core is not built (BORDSPEL_REQUIRE_NATIVE is set)")
        pytest.skip("the compiled santorini_core is not in use (not built, or BORDSPEL_PURE=1)")
    return module


@pytest.fixture
def pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the batch module to its pure-Python reference for one test."""
    monkeypatch.setattr(santorini_batch, "_CORE", None)


def positions(seed: int, count: int) -> list[SantoriniState]:
    """Positions of every variant after 0 to 40 random plies (setup included), and parsed ones."""
    rng = random.Random(seed)
    found = [SantoriniState.from_str(text) for text in PARSED]
    for index in range(count):
        state = SantoriniState.initial(**VARIANTS[index % len(VARIANTS)])
        for _ in range(rng.choice([0, 1, 2, 3, 5, 10, 20, 30, 40])):
            if state.is_over():
                break
            state = state.apply_unchecked(state.random_move(rng))
        found.append(state)
    return found


def pure_perft(state: SantoriniState, depth: int) -> int:
    if depth == 1:
        return len(state.legal_moves())
    return sum(pure_perft(state.apply_unchecked(move), depth - 1) for move in state.legal_moves())


def test_the_compiled_board_rules_are_the_python_ones(core: ModuleType) -> None:
    """santorini_board.pxd's constants, neighbours, steps and wins are board.py's: a rule changed
    on one side only fails here."""
    steps, wins = [], []
    for before in range(board.DOME + 1):
        for after in range(board.DOME + 1):
            levels: board.Levels = (0, 0, 0, 0)
            for cell, pieces in ((0, before), (1, after)):
                for _ in range(pieces):
                    levels = board.raise_tower(levels, cell)
            steps.append(board.can_step(levels, 0, 0, 1))
            wins.append(board.is_winning_move(before, after))
    assert core.board_rules() == {
        "SIZE": board.SIZE,
        "CELLS": board.CELLS,
        "MAX_CLIMB": board.MAX_CLIMB,
        "WIN_LEVEL": board.WIN_LEVEL,
        "DOME": board.DOME,
        "NEIGHBOURS": board.NEIGHBOURS,
        "steps": steps,
        "wins": wins,
    }


@pytest.mark.parametrize("state", positions(1, 60), ids=str)
def test_legal_moves_and_counts_match_the_pure_engine(core: ModuleType, state: SantoriniState) -> None:
    assert core.legal_moves(state) == [tuple(move) for move in state.legal_moves()]
    assert core.count_moves(state) == len(state.legal_moves())


@pytest.mark.parametrize("state", positions(2, 30), ids=str)
def test_perft_matches_the_pure_engine(core: ModuleType, state: SantoriniState) -> None:
    depths = (1, 2) if state.in_setup else (1, 2, 3)
    assert [core.perft(state, d) for d in depths] == [pure_perft(state, d) for d in depths]


def test_perft_counts_from_the_issue_start(core: ModuleType) -> None:
    start = SantoriniState.initial(workers=[(2, 1), (2, 3), (1, 2), (3, 2)])
    assert [start.perft(d) for d in (1, 2, 3, 4)] == [68, 5_156, 350_208, 24_545_388]


def test_perft_of_a_fresh_game_counts_the_setup(core: ModuleType) -> None:
    assert SantoriniState.initial().perft(2) == 300 * 253  # 25 then 23 empty squares, two each


def test_state_perft_uses_the_compiled_module_and_agrees_with_pure(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = SantoriniState.from_str(PARSED[0])
    compiled = state.perft(3)
    monkeypatch.setattr(santorini_engine, "_CORE", None)
    assert state.perft(3) == compiled == core.perft(state, 3)


@pytest.mark.parametrize("state", positions(3, 25), ids=str)
def test_random_games_are_the_pure_reference_games(core: ModuleType, state: SantoriniState) -> None:
    assert random_games(state, 20, seed=11) == pure_random_games(state, 20, 11)


@pytest.mark.parametrize("state", positions(4, 25), ids=str)
def test_a_compiled_random_game_replays_legally_in_the_pure_engine(
    core: ModuleType, state: SantoriniState
) -> None:
    moves, winners = core.random_game_moves(state, 2024)
    for move in moves:
        state = state.apply(Placement(*move) if len(move) == 2 else Turn(*move))
    assert state.winners is not None
    assert winners == sum(1 << seat for seat in state.winners)


def test_mcts_players_use_the_compiled_playout(core: ModuleType) -> None:
    player = make_player("mcts:playouts=20", "santorini", seed=1)
    assert player.playout is knowledge("santorini").playout is not None  # type: ignore[attr-defined]
    state = SantoriniState.from_str(PARSED[3])
    assert player.step(state) in state.legal_moves()


def test_the_compiled_playout_returns_the_winners(core: ModuleType) -> None:
    playout = knowledge("santorini").playout
    assert playout is not None
    state = SantoriniState.from_str("00000/00000/00230/00000/00000 workers=c3a5,a1e1 turn=1 players=2")
    returns = [playout(state, random.Random(seed)) for seed in range(50)]
    assert set(returns) == {(1.0, -1.0), (-1.0, 1.0)}


# -- the batch API without the compiled module ------------------------------------------------
@pytest.mark.parametrize("options", VARIANTS, ids=str)
def test_pure_random_games_end_legally(pure: None, options: dict[str, object]) -> None:
    start = SantoriniState.initial(**options)
    games = random_games(start, 5, seed=3)
    assert games == random_games(start, 5, seed=3)
    assert len(games.winners) == 5 and games.plies >= 5 * 6
    everyone = frozenset(range(start.players))
    assert all(winners and winners < everyone for winners in games.winners)


def test_random_games_from_a_finished_game_play_no_move() -> None:
    state = SantoriniState.from_str("00000/00000/00300/00000/00000 workers=c3a5,a1e1 turn=2 players=2")
    assert random_games(state, 3, seed=1) == ([frozenset({0})] * 3, 0)


def test_random_games_refuse_a_negative_count() -> None:
    with pytest.raises(BordspelError, match="0 or more"):
        random_games(SantoriniState.initial(), -1)


def test_splitmix64_known_values() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(2)] == [6457827717110365317, 3203168211198807973]
    assert all(0 <= SplitMix64(seed).below(7) < 7 for seed in range(100))
