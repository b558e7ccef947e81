"""Tic-tac-toe, registered from outside ``src/``, through every part of bordspel by the generic
defaults: registry and entry points, players and the arena, pictures, codec and move parts.

The per-game tests (conformance, perft, records, pictures, RL adapters, the CLI, the browser)
run it too, through ``tests/variants.py``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bordspel import ansi, svg
from bordspel.ai import make_player
from bordspel.ai.arena import ProcessBackend, SerialBackend, run_arena
from bordspel.ai.registry import GENERIC, knowledge
from bordspel.core import GameSpec, game_spec, new_game, part_path
from bordspel.guide import generic_move_parts
from bordspel.rl.codecs import MoveListCodec, codec_for
from tests.tictactoe.engine import TicTacToeState

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "bordspel"


def test_no_file_in_the_package_names_the_plugin_game() -> None:
    named = [path for path in SRC.rglob("*") if path.is_file() and b"tictactoe" in path.read_bytes().lower()]
    assert named == []


def test_an_entry_point_adds_a_game(tmp_path: Path) -> None:
    info = tmp_path / "bordspel_tictactoe-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bordspel-tictactoe\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bordspel.games]\ntictactoe = tests.tictactoe:SPEC\n")
    script = (
        "from bordspel.core import available_games, new_game; print(available_games(), new_game('tictactoe'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path[:0] = {[str(tmp_path), str(ROOT)]!r}; {script}"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "'tictactoe'" in done.stdout and ".../.../..." in done.stdout


def test_without_the_entry_point_the_game_is_unknown() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from bordspel.core import available_games; print(available_games())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "tictactoe" not in done.stdout and "'hermit'" in done.stdout


def test_the_spec_is_found_by_name() -> None:
    spec = game_spec("TicTacToe")
    assert isinstance(spec, GameSpec) and spec.knowledge is None and spec.codec is None


@pytest.mark.parametrize(
    "player", ["random", "greedy", "alphabeta:depth=9", "mcts:playouts=200", "easy", "hard"]
)
def test_every_player_plays_it_without_game_knowledge(player: str) -> None:
    state = new_game("tictactoe")
    chooser = make_player(player, "tictactoe", seed=1)
    while not state.is_over():
        state = state.apply(chooser.step(state))
    assert knowledge("tictactoe") is GENERIC


def test_alpha_beta_to_the_end_never_loses_a_won_position() -> None:
    state = TicTacToeState.from_str("XX./OO./...")
    assert make_player("alphabeta:depth=9", "tictactoe").step(state).to_str() == "c1"


def test_arena_random_alpha_beta_and_mcts() -> None:
    players = ["random", "alphabeta:depth=9", "mcts:playouts=300"]
    standings = run_arena("tictactoe", players, 6, seed=2, backend=SerialBackend(), progress=io.StringIO())
    assert standings.games == 6
    assert standings.stats["alphabeta:depth=9"].losses == 0  # perfect play never loses tic-tac-toe


def test_arena_in_worker_processes() -> None:
    standings = run_arena(
        "tictactoe", ["random", "greedy"], 4, seed=5, backend=ProcessBackend(2), progress=io.StringIO()
    )
    assert sum(s.wins + s.draws + s.losses for s in standings.stats.values()) == 8


def test_generic_pictures_draw_the_grid() -> None:
    state = TicTacToeState.from_str("X../.O./...")
    picture = svg.render(state, interactive=True)
    assert picture.count('class="square"') == 9 and ">X</text>" in picture and ">O</text>" in picture
    lines = ansi.render(state).splitlines()
    assert len(lines) == 4 and "X" in lines[1] and "O" in lines[2]
    assert ansi.render(state, colour=False) == "X../.O./..."


def test_generic_codec_and_move_parts() -> None:
    state = TicTacToeState.from_str("X../.O./...")
    codec = codec_for("tictactoe")
    assert isinstance(codec, MoveListCodec) and codec.num_actions(state) == 9
    assert codec.legal_actions(state) == [1, 2, 3, 5, 6, 7, 8]
    assert codec.observe(state, 0).shape == (3, 3, 3)
    assert generic_move_parts(state.legal_moves()[0]) == {"paths": [["square:b1"]]}


def test_generic_move_parts_choose_by_text_when_the_text_names_no_squares() -> None:
    class Pass:
        def to_str(self) -> str:
            return "pass"

    assert generic_move_parts(Pass()) == {"paths": [["move:pass"]]}


def test_a_package_gives_its_parts_by_their_conventional_modules() -> None:
    assert part_path("hermit", "codec") == "bordspel.games.hermit.codec:CODEC"
    assert part_path("quarto", "solver") == "bordspel.games.quarto.cli:SOLVER"
    assert part_path("santorini", "solver") is None  # no games/santorini/cli.py
    assert part_path("tictactoe", "knowledge") is None  # no package given: the generic defaults
