"""The arena: seats rotate, results add up, records are saved, runs repeat under a seed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bordspel.ai.arena import PlayerStats, ProcessBackend, SerialBackend, Standings, elo, run_arena, schedule
from bordspel.cli import main
from bordspel.core import BordspelError
from bordspel.record import Game


def test_seats_rotate() -> None:
    tasks = schedule("santorini", ["a", "b"], 4, seed=1, options={"players": 4})
    assert [t.seats for t in tasks] == [("a", "b", "a", "b"), ("b", "a", "b", "a")] * 2
    three = schedule("santorini", ["a", "b", "c"], 3, seed=1, options={"players": 3})
    assert [t.seats[0] for t in three] == ["a", "b", "c"]
    assert len({t.seed for t in tasks}) == 4


def test_results_add_up_and_records_are_saved(tmp_path: Path) -> None:
    standings = run_arena(
        "hermit",
        ["greedy", "random"],
        6,
        seed=3,
        options={"size": 3},
        backend=SerialBackend(),
        records=tmp_path,
        progress=io.StringIO(),
    )
    assert standings.games == 6
    for stats in standings.stats.values():
        assert stats.wins + stats.draws + stats.losses == 6
    assert sum(s.wins for s in standings.stats.values()) == 6  # Hermit has no draws
    saved = sorted(tmp_path.glob("game-*.txt"))
    assert len(saved) == 6
    replayed = Game.read(saved[0])
    assert replayed.outcome() is not None and replayed.tags["Seat1"] in ("greedy", "random")


def test_same_seed_same_results_in_parallel_and_serial() -> None:
    def run(backend: object) -> list[tuple[int, int, int]]:
        standings = run_arena("quarto", ["greedy", "random"], 4, seed=8, backend=backend, progress=None)  # type: ignore[arg-type]
        return [(s.wins, s.draws, s.losses) for s in standings.stats.values()]

    assert run(SerialBackend()) == run(ProcessBackend(2))


def test_self_play_labels_and_team_games() -> None:
    standings = run_arena(
        "santorini", ["random", "random"], 4, options={"players": 4}, backend=SerialBackend(), progress=None
    )
    assert list(standings.stats) == ["random#1", "random#2"]
    assert all(s.games == 4 for s in standings.stats.values())


def test_deterministic_players_repeat_without_an_opening_and_vary_with_one() -> None:
    def run(opening: int) -> Standings:
        return run_arena(
            "hermit",
            ["alphabeta:depth=1", "alphabeta:depth=2"],
            8,
            options={"size": 4},
            backend=SerialBackend(),
            opening=opening,
            progress=None,
        )

    repeated = run(0)
    assert repeated.games == 8
    assert len(repeated.distinct) <= 2 and "some games repeat" in repeated.summary()
    varied = run(3)
    assert len(varied.distinct) >= 4  # a round's games may still coincide: these players agree a lot


def test_games_of_a_round_share_their_random_opening(tmp_path: Path) -> None:
    tasks = schedule("quarto", ["a", "b"], 6, seed=2, options={}, opening=4)
    assert [t.opening_seed for t in tasks][::2] == [t.opening_seed for t in tasks][1::2]
    assert len({t.opening_seed for t in tasks}) == 3
    run_arena(
        "quarto",
        ["greedy", "random"],
        2,
        seed=2,
        opening=4,
        backend=SerialBackend(),
        records=tmp_path,
        progress=None,
    )
    first, second = (Game.read(path) for path in sorted(tmp_path.glob("game-*.txt")))
    assert first.moves[:4] == second.moves[:4]
    assert first.tags["Seat1"] == second.tags["Seat2"] and "4 random plies" in first.tags["Opening"]
    with pytest.raises(BordspelError, match="0 or more"):
        run_arena("quarto", ["greedy", "random"], 2, opening=-1, progress=None)


def test_confidence_intervals_and_elo() -> None:
    stats = PlayerStats("x", wins=60, losses=40, scores=[1.0] * 60 + [0.0] * 40)
    low, high = stats.interval()
    assert 0.49 < low < 0.6 < high < 0.7
    assert elo(0.5) == 0 and elo(0.76) == pytest.approx(200, abs=1)
    assert "60.0%" in Standings({"x": stats}).table()


def test_a_clean_sweep_has_only_a_bound_on_its_elo() -> None:
    winner = PlayerStats("w", wins=20, scores=[1.0] * 20)
    loser = PlayerStats("l", losses=20, scores=[0.0] * 20)
    assert winner.interval()[1] == 1.0 and loser.interval()[0] == 0.0
    table = Standings({"w": winner, "l": loser}).table()
    assert ">=+" in table and ",+inf]" in table  # no made-up upper end such as +6261
    assert "<=-" in table and "[-inf," in table


def test_the_table_columns_line_up_whatever_the_players_names() -> None:
    long = "mcts:playouts=20,puct=0,time=3,exploration=1.4"
    stats = {
        "random": PlayerStats("random", wins=1, losses=1, scores=[1.0, 0.0]),
        long: PlayerStats(long, wins=40, scores=[1.0] * 40),  # its interval ends at 100.0%
    }
    header, *rows = Standings(stats).table().splitlines()
    for column in ("score", "95% interval", "s/move"):
        ends = header.index(column) + len(column)  # each value ends under its column's name
        assert all(row[ends - 1] != " " and row[ends : ends + 1] in (" ", "") for row in rows), column


def test_arena_refuses_bad_players() -> None:
    with pytest.raises(BordspelError, match="unknown player"):
        run_arena("quarto", ["random", "wizard"], 2, progress=None)
    with pytest.raises(BordspelError, match="at least two"):
        run_arena("quarto", ["random"], 2, progress=None)


def test_cli_arena_and_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "hermit", "greedy", "random", "-n", "4", "-o", "size=3", "--backend", "serial"]) == 0
    )
    out = capsys.readouterr().out
    assert "greedy" in out and "4 games" in out
    assert main(["solve", "hermit", "3"]) == 0
    out = capsys.readouterr().out
    assert "the first player wins" in out and "Rb2U Yb2U Bb2U" in out and "positions examined: " in out
    assert main(["solve", "quarto", "ACE./..../..../.... hand=G"]) == 0
    assert "player 1 to move: win in 1 placement; best move d1" in capsys.readouterr().out
    assert main(["solve", "hermit", "four"]) == 2
