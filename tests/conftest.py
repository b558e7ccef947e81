"""Shared test helpers."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import bordspel
from tests.postgres import PostgresServer, start_server
from tests.redis_server import redis_server, require

SPEC_DIR = Path(__file__).parent / "spec"

PIECE_FILE = (Path(__file__).parent / "data" / "stukken.txt").read_text(encoding="utf-8")
"""The example piece file of the Quarto exercise."""


def sizes(quick: int, deep: int) -> list[pytest.ParameterSet]:
    """A randomised test's two sizes: ``quick`` in the default run, ``deep`` marked slow (CI)."""
    return [pytest.param(quick, id="quick"), pytest.param(deep, id="deep", marks=pytest.mark.slow)]


def sampled(values: Iterable[object], every: int) -> list[pytest.ParameterSet]:
    """``values`` as parameters: every ``every``-th in the default run, the others marked slow (CI),
    for a long family of cases whose sample keeps the fast loop's cover."""
    return [
        pytest.param(value, marks=[] if index % every == 0 else [pytest.mark.slow])
        for index, value in enumerate(values)
    ]


@pytest.fixture
def piece_file(tmp_path: Path) -> Path:
    path = tmp_path / "stukken.txt"
    path.write_text(PIECE_FILE, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session (skipped without one, see tests/postgres.py)."""
    server = start_server()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A Redis server of the module's own (skipped without one, see tests/redis_server.py)."""
    with redis_server(require()) as url:
        yield url


def backends(slow_postgres: bool = False) -> list[pytest.ParameterSet]:
    """The store's two databases as parameters of a ``db`` fixture; ``slow_postgres``: the
    PostgreSQL case runs with the slow tests (for long suites, to keep the fast loop short)."""
    marks = [pytest.mark.slow] if slow_postgres else []
    return [pytest.param("sqlite", id="sqlite"), pytest.param("postgresql", id="postgresql", marks=marks)]


postgres_when_slow = pytest.mark.parametrize("db", backends(slow_postgres=True), indirect=True)
"""For a test that takes ``db``: its PostgreSQL case runs with the slow tests."""


def _location(request: pytest.FixtureRequest, folder: Path) -> str:
    if request.param == "sqlite":
        return str(folder / "games.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture(params=backends())
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: an SQLite file, then a fresh PostgreSQL database."""
    return _location(request, tmp_path)


@pytest.fixture(params=backends(slow_postgres=True))
def web_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """``db`` for the web suites: their PostgreSQL cases run with the slow tests."""
    return _location(request, tmp_path)


@pytest.fixture(scope="module", params=backends(slow_postgres=True))
def module_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``web_db`` for a module's one server."""
    return _location(request, tmp_path_factory.mktemp("db"))


def _register_test_games() -> None:
    """Tic-tac-toe, from outside ``src/``: every per-game test then runs it too (see variants.py)."""
    from bordspel.core import register_game
    from tests.tictactoe import SPEC

    register_game(SPEC)


_register_test_games()

LONG_IN_THE_DEFAULT_RUN = (
    "tests/test_ai_solvers.py::test_proof_search_agrees_with_grundy_values_on_4x4[10-8]",
    "tests/test_santorini_gods_brute.py::test_every_turn_leads_where_the_brute_force_goes[hermes]",
    "tests/test_web_notices_browser.py::test_a_challenge_accepted_is_told_on_the_home_page_and_an_aborted",
    'tests/test_web_api.py::test_bad_games_are_refused_with_json[sqlite-{"game":',
    "tests/test_hermit_audit.py::test_the_data_of_a_4x4_run_holds",
    "tests/test_web_browser.py::test_play_a_whole_game_by_clicking[sqlite-hermit]",
    "tests/test_ai_players.py::test_players_play_legal_moves_and_repeat_under_a_seed[alphabeta:depth=2,so",
    "tests/test_examples.py::test_reinforce_example_smoke",
    "tests/test_ai_solvers.py::test_grundy_values_are_the_same_under_symmetry",
    "tests/test_conformance.py::test_conformance[santorini-{'players':",
    "tests/test_ai_players.py::test_players_play_legal_moves_and_repeat_under_a_seed[mcts:playouts=30,sol",
    "tests/test_web_browser.py::test_hint_shows_the_best_move_its_line_and_outlines_it_on_the_board[sqlit",
    "tests/test_web_fuzz.py::test_no_request_gets_a_5xx[sqlite-quick]",
    "tests/test_santorini_gods_rl.py::test_openspiel_drawn_gods_survive_clones_serialisation_and_mcts[ran",
    "tests/test_web_live.py::test_many_requests_for_one_computer_turn_share_one_computation[sqlite]",
    "tests/test_web_clocks.py::test_three_players_a_flag_ends_the_game_the_others_win[sqlite]",
    "tests/test_conformance.py::test_conformance[quarto-{'advanced':",
    "tests/test_web_clocks.py::test_a_flag_falls_with_nobody_watching_and_a_late_move_changes_nothing[sql",
    "tests/test_web_live.py::test_no_worker_outlives_a_server_killed_during_a_search",
    "tests/test_conformance.py::test_conformance[quarto-{}]",
    "tests/test_rl.py::test_openspiel_random_simulations_with_serialisation[santorini-{'players':",
    "tests/test_santorini_gods_rl.py::test_god_turns_round_trip_through_actions[hermes,zeus]",
    "tests/test_rl.py::test_openspiel_python_mcts_plays_whole_games[santorini-params1]",
    "tests/test_web_gods.py::test_a_god_game_shows_its_view_and_positions_through_its_turns[sqlite-hermes",
    "tests/test_web_api.py::test_only_one_of_simultaneous_moves_lands[sqlite]",
    "tests/test_engine.py::test_the_driver_sees_the_end_of_an_engine_whose_child_keeps_its_stdout",
    "tests/test_santorini_gods.py::test_random_games_with_gods_end_for_a_named_reason",
    "tests/test_terminal.py::test_the_prompt_asks_the_person_what_to_type_in_words",
    "tests/test_ai_solvers.py::test_quarto_solver_agrees_with_brute_force[11]",
    "tests/test_web_hostile.py::test_a_body_trickled_in_is_cut_off_with_408",
    "tests/test_hermit_verify.py::test_the_4x4_proof_holds",
    "tests/test_santorini_god_properties.py::test_every_legal_turn_applies_and_positions_round_trip[quick",
    "tests/test_arena.py::test_deterministic_players_repeat_without_an_opening_and_vary_with_one",
    "tests/test_web_browser.py::test_a_winning_santorini_climb_needs_no_build_click[sqlite]",
    "tests/test_docs.py::test_page_examples[adapters.md]",
    "tests/test_native_hermit.py::test_grundy_values_agree[4]",
    "tests/test_ai_solvers.py::test_quarto_solver_agrees_with_brute_force[5]",
    "tests/test_conformance.py::test_conformance[santorini-{}]",
    "tests/test_hermit_ai.py::test_below_7x7_the_pruning_solver_searches_as_the_baseline",
    "tests/test_santorini_gods_brute.py::test_perft_counts_match_the_brute_force[santorini-gods-plies-pro",
    "tests/test_web_browser.py::test_play_a_whole_game_by_clicking[sqlite-tictactoe]",
    "tests/test_web_browser.py::test_gods_chosen_at_the_start_show_their_cards[sqlite]",
    "tests/test_conformance.py::test_conformance[santorini-{'finite_supply':",
    "tests/test_symmetry.py::test_every_image_has_the_same_canonical_form[quarto-{}]",
    "tests/test_typing.py::test_mypy_strict_checks_moves_states_and_players_in_a_users_script[engine]",
)
"""Tests that took over 2 s each in the default run (``--durations=0`` on the project's 2-core
machine, 2026-11-28), moved to the slow run so that the README's test command stays under 3
minutes; CI runs them with the slow tests. A parametrized test's id may be cut short: an id that
starts with an entry is meant."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`LONG_IN_THE_DEFAULT_RUN` slow."""
    for item in items:
        if item.nodeid.startswith(LONG_IN_THE_DEFAULT_RUN):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def two_node_cluster() -> Iterator[tuple[str, dict[str, str]]]:
    """A Ray cluster of two nodes of one CPU on this machine, in a temporary folder (its own home,
    so that no token of another cluster applies), and the environment to join it with; its
    processes are ended when the test ends."""
    pytest.importorskip("ray")
    ray_program = Path(sys.executable).with_name("ray")
    if not ray_program.exists():
        pytest.skip("no ray program beside this Python")
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths have a limit
    source = str(Path(bordspel.__file__).parents[1])
    env = {**os.environ, "HOME": folder, "PYTHONPATH": source, "RAY_USAGE_STATS_ENABLED": "0"}
    env["RAY_AUTH_MODE"] = "disabled"  # a loopback cluster (an earlier local ray.init sets "token")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"127.0.0.1:{port}"
    head = [str(ray_program), "start", "--head", "--port", str(port), "--temp-dir", folder]
    nodes = [[*head, "--include-dashboard=false"], [str(ray_program), "start", "--address", address]]
    started = []
    try:
        for node in nodes:
            started.append(subprocess.Popen([*node, "--num-cpus", "1"], env=env, start_new_session=True))
            assert started[-1].wait(timeout=120) == 0
        yield address, env
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # the node's processes: that start's session
        shutil.rmtree(folder, ignore_errors=True)
