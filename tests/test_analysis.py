"""The analysis API (``analyse``/``analysis``), the ``bordspel analyse`` command, the baselines
(``hard-v1`` ...) and the search options that tell new players from them."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from bordspel.ai import Analyser, MCTSPlayer, analyse, analyser, make_player
from bordspel.ai.arena import SerialBackend, clock_bound, run_arena
from bordspel.ai.registry import LEVELS, knowledge
from bordspel.ai.search import WIN, Limit, Searcher
from bordspel.cli import main
from bordspel.core import BordspelError, game_class, new_game
from bordspel.games.santorini.ai import evaluate_v1, placement, quiet, threatens, zobrist
from bordspel.games.santorini.evaluation import FEATURES, LinearEvaluation, load_weights
from tests.variants import FIRSTS

WIN_IN_THREE = "00001/11220/01112/31212/10033 workers=e2d4,b5b3 turn=1 players=2"


def test_analysis_streams_every_depth_and_ends_with_the_answer() -> None:
    state = game_class("santorini").from_str(
        "00100/01210/00100/00000/00000 workers=b2d4,c4d2 turn=1 players=2"
    )
    player = analyser("alphabeta:depth=3", "santorini")
    results = list(player.analysis(state))
    assert [r.depth for r in results] == [1, 2, 3]
    assert all(r.result is None and r.describe().startswith("eval") for r in results)
    assert [r.nodes for r in results] == sorted(r.nodes for r in results)
    final = player.analyse(state)
    assert (final.move, final.score, final.depth) == (results[-1].move, results[-1].score, 3)
    assert final.principal_variation[0] == final.move
    child = state.apply(final.move)
    assert final.principal_variation[1] in child.legal_moves()


def test_analysis_reports_a_forced_win_and_its_length() -> None:
    state = game_class("santorini").from_str(WIN_IN_THREE)
    result = analyse("alphabeta:depth=4", state)
    assert result.result == "win" and result.plies_to_end == 3 and result.describe() == "win in 3 plies"
    assert len(result.principal_variation) == 3


def test_a_proven_win_of_unknown_length_is_a_win_in_no_given_number_of_plies() -> None:
    result = analyse("hard", new_game("hermit", size=5))  # the mirror strategy: no length
    assert result.proven and result.result == "win"
    assert result.plies_to_end is None and result.describe() == "win"


def test_a_solver_answer_is_a_proven_result() -> None:
    state = game_class("quarto").from_str("OM../.B.H/LFNI/..A. hand=D")
    result = analyse("hard", state)
    assert result.proven and result.result == "win" and result.depth == 0
    drawn = analyse(make_player("hard", "hermit"), new_game("hermit", size=5))
    assert drawn.proven and drawn.result == "win"  # the mirror strategy: a known win


def test_a_limit_given_to_analyse_overrides_the_players_own() -> None:
    state = new_game("quarto")
    player = make_player("alphabeta:time=30,solver=0", "quarto")
    assert isinstance(player, Analyser)
    assert player.analyse(state, Limit(depth=1)).depth == 1
    assert analyse(player, state, Limit(nodes=50)).nodes <= 51


def test_mcts_analysis_counts_playouts_and_reuses_its_tree() -> None:
    state = new_game("quarto")
    player = make_player("mcts:playouts=200,solver=0,reuse=1", "quarto", seed=3)
    assert isinstance(player, MCTSPlayer)
    first = player.analyse(state)
    assert first.nodes == 200 and first.principal_variation[0] == first.move and -100 <= first.score <= 100
    after = state.apply(first.move).apply(first.principal_variation[1])  # an expanded reply
    assert player.tree is not None
    kept = player.tree.reused(after)
    assert kept is not None and kept.root.visits > 0
    assert player.step(after) in after.legal_moves()
    assert pickle.loads(pickle.dumps(player)).tree is None


def test_search_players_are_analysers_and_the_others_are_refused() -> None:
    for spec in ("hard", "medium", "alphabeta:depth=1", "mcts:playouts=5"):
        assert isinstance(make_player(spec, "quarto"), Analyser), spec
    for spec in ("random", "greedy", "easy"):
        assert not isinstance(make_player(spec, "quarto"), Analyser), spec
        with pytest.raises(BordspelError, match=f"{spec} does not search"):
            analyse(spec, new_game("quarto"))
    result = analyse("mcts:playouts=20", new_game("quarto"), seed=1)
    assert result.nodes == 20 and result.move in new_game("quarto").legal_moves()


def test_cli_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "santorini", WIN_IN_THREE, "--depth", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "win in 3 plies" in lines[-1] and lines[-1].endswith("(proven)") and " d4e" in lines[-1]
    assert main(["analyse", "hermit", "-o", "size=4", "--player", "alphabeta:depth=2,solver=0"]) == 0
    assert capsys.readouterr().out.startswith("depth  1")
    assert main(["analyse", "quarto", "--player", "random"]) == 2
    assert "does not search" in capsys.readouterr().err


BASELINED = [
    (game, options) for game, options in FIRSTS if any(v.endswith("-v1") for v in knowledge(game).levels)
]


@pytest.mark.parametrize("game, options", BASELINED, ids=[game for game, _ in BASELINED])
def test_every_level_has_a_frozen_baseline(game: str, options: dict[str, Any]) -> None:
    levels = knowledge(game).levels
    for level in LEVELS:
        assert f"{level}-v1" in levels
        state = new_game(game, **options)
        player = make_player(f"{level}-v1:time=0.05" if level in ("hard", "perfect") else f"{level}-v1", game)
        assert player.step(state) in state.legal_moves()


def test_the_santorini_baseline_is_the_old_search() -> None:
    new, old = make_player("hard", "santorini"), make_player("hard-v1", "santorini")
    assert new.options.pvs and new.options.extend is threatens and new.options.key is zobrist  # type: ignore[attr-defined]
    assert not old.options.pvs and old.options.extend is None and old.options.opening is None  # type: ignore[attr-defined]
    assert new.options.reduce is quiet and old.options.reduce is None  # type: ignore[attr-defined]
    with pytest.raises(BordspelError, match="unknown evaluation"):
        make_player("alphabeta:eval=v9", "santorini")
    with pytest.raises(BordspelError, match="needs a number"):
        make_player("alphabeta:pvs=yes", "santorini")


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) for s in (0, 1, 2, 3)])
def test_principal_variation_search_and_extensions_keep_forced_results(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game("santorini")
    known = knowledge("santorini")
    while not state.is_over():
        plain = Searcher(known.evaluate, max_depth=3).run(state)
        full = Searcher(known.evaluate, max_depth=3, pvs=True, key=zobrist).run(state)
        assert plain.score == full.score  # the same minimax value, found another way
        extended = Searcher(known.evaluate, max_depth=3, pvs=True, extend=threatens).run(state)
        if abs(plain.score) > WIN - 10:
            assert extended.score == plain.score
        state = state.apply(state.random_move(rng))


def test_climbing_threats_zobrist_keys_and_setup_placement() -> None:
    threat = game_class("santorini").from_str(
        "00000/01230/00000/00000/00000 workers=c2a5,e5e4 turn=2 players=2"
    )
    assert threatens(threat)  # the first colour's worker on c2... next to the level 3 on d2
    assert not threatens(new_game("santorini"))
    rng = random.Random(2)
    seen: dict[int, object] = {}
    state = new_game("santorini")
    while not state.is_over():
        assert seen.setdefault(zobrist(state), state) == state
        state = state.apply(state.random_move(rng))
    first = placement(new_game("santorini"))
    assert first is not None and {first.first, first.second} & {12}  # the centre
    assert placement(threat) is None


def test_the_arena_reports_time_per_move_and_clock_bound_players() -> None:
    standings = run_arena(
        "quarto",
        ["alphabeta:depth=1,solver=0", "alphabeta:time=0.05,solver=0"],
        2,
        backend=SerialBackend(),
        progress=None,
    )
    fixed, timed = standings.stats.values()
    assert not fixed.clock_bound and timed.clock_bound
    assert timed.move_seconds and 0 < timed.mean_seconds <= timed.max_seconds
    assert "clock-bound players: alphabeta:time=0.05,solver=0 (" in standings.summary()
    assert "s/move" in standings.table()
    assert not clock_bound(make_player("mcts:playouts=10,solver=0", "quarto"))
    assert not clock_bound(make_player("mcts:playouts=10", "quarto"))  # its solver solves to the end
    assert not clock_bound(make_player("alphabeta:depth=2", "hermit"))  # its solver counts positions
    assert clock_bound(make_player("mcts:playouts=10,solver_time=0.5", "quarto"))
    assert clock_bound(make_player("alphabeta:depth=2,search_time=0.5", "santorini"))


def test_the_linear_evaluation_with_the_old_weights_is_the_old_evaluation() -> None:
    """The bitboard features reproduce the baseline's hand-set evaluation exactly."""
    old = (30.0, 90.0, 12.0, 0.0, 0.0, 200.0, 4.0, 0.0)
    linear = LinearEvaluation(old)
    rng = random.Random(6)
    for players in (2, 3, 4):
        state = new_game("santorini", players=players)
        while not state.is_over():
            if not state.in_setup:  # type: ignore[attr-defined]
                for seat in range(players):
                    assert linear(state, seat) == pytest.approx(evaluate_v1(state, seat))
            state = state.apply(state.random_move(rng))
    assert len(load_weights()) == len(FEATURES) and knowledge("santorini").evaluate != evaluate_v1


def test_players_without_a_clock_accept_a_time_budget() -> None:
    """The server gives every level a budget; random and greedy refused it (a web game broke)."""
    for level in ("easy", "medium"):
        make_player(f"{level}:time=2,solver_time=1", "santorini")
