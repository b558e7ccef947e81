"""Shared test helpers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

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
