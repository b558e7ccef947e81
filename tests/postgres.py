"""A real PostgreSQL server for the tests: Debian's PostgreSQL 15 in a temporary directory.

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` system user
(``runuser``) in a directory it owns. It listens on 127.0.0.1 on a free port and on a Unix
socket in its directory; ``fsync`` is off (a test's data need not survive a crash of the machine).
Without the binaries, the tests that need it are skipped, or fail when
``BORDSPEL_REQUIRE_POSTGRES=1`` (as in CI).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

BIN = Path(os.environ.get("BORDSPEL_POSTGRES_BIN", "/usr/lib/postgresql/15/bin"))
USER = "postgres"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One server for a test session; :meth:`new_database` gives each test a database of its own."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="bordspel-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count()
        as_root = os.geteuid() == 0
        self._prefix = ["runuser", "-u", USER, "--"] if as_root else []
        if as_root:
            shutil.chown(self.root, USER)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        self.options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.options += " -c max_connections=200"
        self._pg_ctl("start")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}"

    def _pg_ctl(self, action: str) -> None:
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", self.options, "-l", log, "-m", "fast", "-w", action)

    def restart(self) -> None:
        """Stop the server (closing every connection) and start it again."""
        self._pg_ctl("restart")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self._prefix, str(BIN / program), *args], check=True, capture_output=True)

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return f"{self.url}/{name}"

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> PostgresServer:
    """A running server, or a skip (a failure under ``BORDSPEL_REQUIRE_POSTGRES=1``) without one."""
    missing = _missing()
    if missing:
        if os.environ.get("BORDSPEL_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{missing} (BORDSPEL_REQUIRE_POSTGRES=1): apt-get install postgresql")
        pytest.skip(missing)
    return PostgresServer()


def _missing() -> str:
    if not (BIN / "initdb").exists():
        return f"no PostgreSQL server binaries in {BIN}"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    return ""
