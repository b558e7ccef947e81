"""The game store on both of its databases (an SQLite file, a real PostgreSQL server): games,
versions, seat tokens, the limit on new games across processes, migrations and ``bordspel db``."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bordspel import new_game
from bordspel.cli import main
from bordspel.core import BordspelError
from bordspel.web import actions
from bordspel.web.db import dialect_sql, hide_password, open_database, schema_status, upgrade
from bordspel.web.migrations import BASE, LATEST, MIGRATIONS
from bordspel.web.store import Busy, Conflict, Forbidden, GameStore, NotFound, TooMany
from tests.conftest import postgres_when_slow
from tests.postgres import PostgresServer

HUMANS = ["human", "human"]
Opener = Callable[..., GameStore]


@pytest.fixture
def opened(db: str) -> Iterator[Opener]:
    """``opened()``: a store on the test's database (closed after the test), as another process
    would open it."""
    stores: list[GameStore] = []

    def store(**options: bool) -> GameStore:
        stores.append(GameStore(db, **options))
        return stores[-1]

    yield store
    for store_ in stores:
        store_.close()


def test_a_game_is_created_changed_and_read_back(opened: Opener) -> None:
    store = opened()
    created, tokens = store.create(new_game("quarto"), HUMANS)
    played = store.change(created.id, 0, tokens[0], actions.human_move("A"))
    again = opened().load(created.id)  # another store on the same database: another process
    assert (played.version, again.version, store.version(created.id)) == (1, 1, 1)
    assert [move.to_str() for move in again.game.moves] == ["A"] and again.seats == HUMANS
    assert [store.seat_of(created.id, token) for token in tokens] == [0, 1]
    assert store.seat_of(created.id, None) is None


@postgres_when_slow
def test_refused_requests_change_nothing(opened: Opener) -> None:
    store = opened()
    created, tokens = store.create(new_game("quarto"), HUMANS)
    store.change(created.id, 0, tokens[0], actions.human_move("A"))
    with pytest.raises(Conflict, match="at version 1, not 0"):
        store.change(created.id, 0, tokens[0], actions.human_move("B"))
    with pytest.raises(Forbidden):
        store.seat_of(created.id, "not-a-token")
    with pytest.raises(NotFound):
        store.load("nothing")
    with pytest.raises(BordspelError):
        store.change(created.id, 1, tokens[1], actions.human_move("z9:Q"))  # illegal
    assert store.version(created.id) == 1 and len(store.load(created.id).game.moves) == 1


def test_of_simultaneous_changes_at_one_version_exactly_one_lands(opened: Opener) -> None:
    stores = [opened() for _ in range(2)]
    created, tokens = stores[0].create(new_game("quarto"), HUMANS)
    barrier, landed, refused = threading.Barrier(8), [], []

    def play(piece: str) -> None:
        store = stores[len(landed + refused) % 2]
        barrier.wait()
        try:
            landed.append(store.change(created.id, 0, tokens[0], actions.human_move(piece)).version)
        except Conflict:
            refused.append(piece)

    threads = [threading.Thread(target=play, args=(piece,)) for piece in "ABCDEFGH"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert landed == [1] and len(refused) == 7
    assert len(stores[1].load(created.id).game.moves) == 1


@pytest.mark.slow  # waits out the lock timeout, twice
def test_a_game_locked_by_another_writer_is_busy_and_nothing_is_written(opened: Opener) -> None:
    store, other = opened(), opened()
    created, tokens = store.create(new_game("quarto"), HUMANS)
    with store.db.transaction() as holder:  # SQLite's write lock; a row lock in PostgreSQL
        holder.execute("UPDATE games SET seats = seats WHERE id = ?", (created.id,))
        with pytest.raises(Busy, match="busy; try again"):
            other.change(created.id, 0, tokens[0], actions.human_move("A"))
    assert other.version(created.id) == 0 and not other.load(created.id).game.moves


@pytest.mark.slow
def test_a_store_works_on_after_postgresql_restarts(postgres_server: PostgresServer) -> None:
    store = GameStore(postgres_server.new_database())
    created, tokens = store.create(new_game("quarto"), HUMANS)
    postgres_server.restart()  # every pooled connection is gone
    try:
        assert store.change(created.id, 0, tokens[0], actions.human_move("A")).version == 1
        assert store.version(created.id) == 1
    finally:
        store.close()


@postgres_when_slow
def test_the_limit_on_new_games_holds_across_stores(opened: Opener) -> None:
    one, two = opened(), opened()
    for store in (one, two, one):
        store.create(new_game("quarto"), HUMANS, creator="10.0.0.1", per_minute=3)
    with pytest.raises(TooMany):
        two.create(new_game("quarto"), HUMANS, creator="10.0.0.1", per_minute=3)
    two.create(new_game("quarto"), HUMANS, creator="10.0.0.2", per_minute=3)  # another address


@postgres_when_slow
def test_of_simultaneous_new_games_from_one_address_only_the_limit_lands(opened: Opener) -> None:
    stores, barrier, made, refused = [opened(), opened()], threading.Barrier(8), [], []

    def create(store: GameStore) -> None:
        barrier.wait()
        try:
            made.append(store.create(new_game("quarto"), HUMANS, creator="10.0.0.9", per_minute=3))
        except TooMany:
            refused.append(store)

    threads = [threading.Thread(target=create, args=(stores[n % 2],)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (len(made), len(refused)) == (3, 5)


@postgres_when_slow
def test_migrations_run_once_and_a_newer_schema_is_refused(db: str, opened: Opener) -> None:
    database = open_database(db)
    assert upgrade(database, BASE, MIGRATIONS) == (0, LATEST)
    assert upgrade(database, BASE, MIGRATIONS) == (LATEST, LATEST)
    assert schema_status(database, LATEST).endswith(f"schema {LATEST} of {LATEST} (up to date)")
    with database.transaction() as connection:
        database.set_schema_version(connection, LATEST + 1)
    with pytest.raises(BordspelError, match="newer bordspel"):
        opened()
    database.close()


@postgres_when_slow
def test_stores_opened_at_once_on_a_new_database_migrate_it_once(db: str, opened: Opener) -> None:
    barrier, errors = threading.Barrier(4), []

    def open_it() -> None:
        barrier.wait()
        try:
            opened()
        except Exception as error:  # the test's answer: any failure to open is one
            errors.append(error)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    database = open_database(db)
    assert schema_status(database, LATEST).endswith("(up to date)")
    database.close()


def _open_and_close(path: str, barrier: Any) -> None:
    barrier.wait()
    GameStore(path).close()


@pytest.mark.slow
def test_processes_that_open_a_new_sqlite_file_at_once_all_open_it(tmp_path: Path) -> None:
    """``PRAGMA journal_mode = WAL`` does not wait for the lock it takes: each store waits."""
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        barrier = context.Barrier(3)
        path = str(tmp_path / f"games-{attempt}.sqlite3")
        processes = [context.Process(target=_open_and_close, args=(path, barrier)) for _ in range(3)]
        for process in processes:
            process.start()
        for process in processes:
            process.join()
        assert [process.exitcode for process in processes] == [0, 0, 0]


@postgres_when_slow
def test_a_store_that_may_not_upgrade_refuses_an_old_schema(db: str, opened: Opener) -> None:
    database = open_database(db)
    upgrade(database, BASE, MIGRATIONS[:1])
    database.close()
    with pytest.raises(
        BordspelError, match=f"schema 1, this bordspel needs {LATEST}: run bordspel db upgrade"
    ):
        opened(upgrade_schema=False)
    opened()  # upgrades it
    opened(upgrade_schema=False)


@postgres_when_slow
def test_bordspel_db_upgrade_and_status(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "status", "--db", db]) == 0
    assert main(["db", "upgrade", "--db", db]) == 0
    assert main(["db", "upgrade", "--db", db]) == 0
    assert main(["db", "status", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "upgraded from schema 0 to" in lines[1] and "up to date" in lines[2], lines
    assert lines[3].endswith(f"schema {LATEST} of {LATEST} (up to date)"), lines


def test_a_database_that_cannot_be_reached_is_a_clear_error() -> None:
    with pytest.raises(
        BordspelError, match=r"cannot reach PostgreSQL at postgresql://me:\*\*\*@127.0.0.1:1/x"
    ):
        GameStore("postgresql://me:secret@127.0.0.1:1/x?connect_timeout=1")


def test_one_query_text_for_both_databases() -> None:
    query = "SELECT id FROM jobs WHERE name LIKE '%x' AND at > ? {skip_locked}"
    assert dialect_sql("sqlite", query) == "SELECT id FROM jobs WHERE name LIKE '%x' AND at > ? "
    assert dialect_sql("postgresql", query) == (
        "SELECT id FROM jobs WHERE name LIKE '%%x' AND at > %s FOR UPDATE SKIP LOCKED"
    )
    assert dialect_sql("postgresql", "{float} {unknown}") == "DOUBLE PRECISION {unknown}"
    assert hide_password("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"
    assert hide_password("postgresql://h/db") == "postgresql://h/db"
