"""Players: legal moves only, limits respected, deterministic under a seed, and the search
finds forced wins (checked against a plain minimax written here)."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from bordspel.ai import Analyser, analyse, make_player
from bordspel.ai.mcts import mcts
from bordspel.ai.registry import LEVELS, knowledge
from bordspel.ai.search import WIN, Searcher
from bordspel.core import BordspelError, IllegalMoveError, State, game_class, new_game
from bordspel.record import Game

from .variants import IDS
from .variants import VARIANTS as GAMES

PLAYERS = [
    "random",
    "greedy",
    "alphabeta:depth=2,solver=0",
    "alphabeta:nodes=300,solver=0",
    "mcts:playouts=30,solver=0",
    "easy",
    "medium",
]


def play(game: str, options: dict[str, Any], specs: list[str], seed: int) -> list[str]:
    """A whole game through the checked Game.play: an illegal move would raise."""
    record = Game(new_game(game, **options))
    seats = record.state.num_players
    players = [make_player(specs[s % len(specs)], game, seed=seed + s) for s in range(seats)]
    while not record.state.is_over():
        record.play(players[record.state.to_move].step(record.state))
    return [m.to_str() for m in record.moves]


@pytest.mark.parametrize("game, options", GAMES, ids=IDS)
@pytest.mark.parametrize("spec", PLAYERS)
def test_players_play_legal_moves_and_repeat_under_a_seed(
    game: str, options: dict[str, Any], spec: str
) -> None:
    first = play(game, options, [spec, "random"], seed=5)
    assert first == play(game, options, [spec, "random"], seed=5)


def test_mcts_playout_limit_and_search_node_limit() -> None:
    state = new_game("santorini", workers=[(2, 1), (2, 3), (1, 2), (3, 2)])
    assert mcts(state, random.Random(1), playouts=77).playouts == 77
    searcher = Searcher(knowledge("santorini").evaluate, max_nodes=500, max_depth=30)
    result = searcher.run(state)
    assert result.move in state.legal_moves() and searcher.nodes < 500 + 1024


def test_time_limit_returns_the_best_move_so_far() -> None:
    state = new_game("santorini", workers=[(2, 1), (2, 3), (1, 2), (3, 2)])
    player = make_player("alphabeta:time=0.2", "santorini")
    started = time.perf_counter()
    move = player.step(state)
    assert move in state.legal_moves()
    assert time.perf_counter() - started < 5  # generous: only that the limit stops the search


@pytest.mark.parametrize(
    "spec, message",
    [
        ("chess-bot", "unknown player"),
        ("alphabeta:time=x", "needs a number"),
        ("mcts:speed=3", "no option speed"),
    ],
)
def test_bad_player_specifications(spec: str, message: str) -> None:
    with pytest.raises(BordspelError, match=message):
        make_player(spec, "quarto")


# -- forced wins ---------------------------------------------------------------------------------
def minimax(state: State, depth: int, seat: int) -> int:
    """+1 if ``seat``'s side forces a win within ``depth`` plies, -1 a loss, 0 otherwise."""
    outcome = state.outcome()
    if outcome is not None:
        return 0 if outcome.is_draw else (1 if seat in outcome.winners else -1)
    if depth == 0:
        return 0
    values = [minimax(state.apply_unchecked(m), depth - 1, seat) for m in state.legal_moves()]
    return max(values) if state.team(state.to_move) == state.team(seat) else min(values)


FORCED = [
    # Santorini: a climb onto level 3 at once
    ("santorini", "00000/01230/00000/00000/00000 workers=c2a5,e5e4 turn=1 players=2", 1),
    # Santorini, three players: a climb for the third seat
    ("santorini", "00000/01230/00000/00000/00000 workers=a5b5,e5e4,c2a3 turn=3 players=3", 1),
    # Santorini: no climb now, but a win in three plies whatever the opponent does
    ("santorini", "00001/11220/01112/31212/10033 workers=e2d4,b5b3 turn=1 players=2", 3),
    ("santorini", "01020/10221/11020/00101/10230 workers=d4a2,e2b4 turn=2 players=2", 3),
    # Hermit: wins in three plies (found by brute force, checked again below)
    ("hermit", ".BBY/.Y.Y/.R.R/..BB", 3),
    ("hermit", "R.BR/B.../BYY./..RR", 3),
    ("hermit", "Y...B/B.R.R/B...Y/RR.B./YY..Y", 3),
    # Quarto: the piece in hand completes a line of large pieces
    ("quarto", "ACE./..../..../.... hand=G", 1),
    # Quarto: no quarto now, but a placement and a gift that force one
    ("quarto", "OM../.B.H/LFNI/..A. hand=D", 3),
    ("quarto", ".KHP/.JIC/A.LD/B.F. hand=N", 3),
]


@pytest.mark.parametrize("game, position, depth", FORCED)
def test_search_finds_forced_wins(game: str, position: str, depth: int) -> None:
    state = game_class(game).from_str(position)
    seat = state.to_move
    assert minimax(state, depth, seat) == 1, "the position must hold a forced win (checked by minimax)"
    result = Searcher(knowledge(game).evaluate, max_depth=depth).run(state)
    assert result.score >= WIN - depth
    assert minimax(state.apply_unchecked(result.move), depth - 1, seat) == 1


@pytest.mark.parametrize("seed", range(6))
def test_search_agrees_with_minimax_on_forced_results(seed: int) -> None:
    rng = random.Random(seed)
    game, options = rng.choice([("hermit", {"size": 3}), ("quarto", {}), ("santorini", {})])
    state = new_game(game, **options)
    while not state.is_over():
        value = minimax(state, 2, state.to_move) if state.count_moves() < 60 else None
        if value:
            score = Searcher(knowledge(game).evaluate, max_depth=2).run(state).score
            assert (score > WIN - 10) == (value > 0) and (score < -(WIN - 10)) == (value < 0)
        state = state.apply(state.random_move(rng))


FINISHED = [
    ("hermit", "RBB/Y.Y/RBR"),
    ("quarto", "BKMH/IGD./CENF/J.OL hand=-"),
    ("santorini", "00000/01230/00000/00000/00000 workers=d2a5,e5e4 turn=1 players=2"),
]


@pytest.mark.parametrize("game, position", FINISHED)
@pytest.mark.parametrize("level", LEVELS)
def test_no_player_makes_up_a_move_on_a_finished_position(game: str, position: str, level: str) -> None:
    state = game_class(game).from_str(position)
    assert state.is_over()
    player = make_player(level, game, seed=0)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        player.step(state)
    if isinstance(player, Analyser):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            analyse(player, state)


def test_the_solver_share_is_a_fraction_of_the_move_and_solver_time_seconds() -> None:
    assert make_player("alphabeta:time=5,solver_share=0.8", "hermit").solver_time == 4.0  # type: ignore[attr-defined]
    assert make_player("alphabeta:time=5,solver_time=1", "hermit").solver_time == 1.0  # type: ignore[attr-defined]
    assert make_player("alphabeta:time=5", "hermit").solver_time == 2.5  # type: ignore[attr-defined]
    assert make_player("hard:time=5", "hermit").solver_time == 4.5  # type: ignore[attr-defined]


def test_a_solver_is_chosen_by_name() -> None:
    """``solver=0`` turns it off, ``solver=1`` (or nothing) is the game's own, a name another."""
    named = make_player("alphabeta:time=1,solver=prune", "hermit")
    assert type(named.endgame).__name__ == "PruningEndgame"  # type: ignore[attr-defined]
    assert type(make_player("alphabeta:time=1,solver=1", "hermit").endgame).__name__ == "HermitEndgame"  # type: ignore[attr-defined]
    assert make_player("alphabeta:time=1,solver=0", "hermit").endgame is None  # type: ignore[attr-defined]
    with pytest.raises(BordspelError, match=r"unknown solver 'fast': choose one of 0, 1, prune, v1"):
        make_player("alphabeta:time=1,solver=fast", "hermit")
    with pytest.raises(BordspelError, match=r"choose one of 0, 1$"):
        make_player("mcts:time=1,solver=prune", "quarto")


@pytest.mark.parametrize(
    "spec, error",
    [
        ("alphabeta:depth=-1", "depth=-1 needs a whole number of at least 1"),
        ("alphabeta:depth=2.5", "depth=2.5 needs a whole number of at least 1"),
        ("mcts:playouts=0", "playouts=0 needs a whole number of at least 1"),
        ("alphabeta:time=-1", "time=-1 needs a number of at least 0"),
        ("alphabeta:time=nan", "time=nan needs a number of at least 0"),
    ],
)
def test_a_budget_that_is_none_is_refused(spec: str, error: str) -> None:
    with pytest.raises(BordspelError, match=re.escape(error)):
        make_player(spec, "quarto")
