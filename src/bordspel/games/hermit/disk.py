"""A table of settled Hermit positions on disk, shared by the solver's worker processes.

The proof-number search keeps its numbers in a fixed table in memory that gives up entries when
full; this is its second level: every position it settles with enough work below it is written
here (a 16-byte key, the position's 128-bit hash; one byte, whether the player to move wins) and
read back where the table in memory has no entry. It is an LMDB environment (the ``lmdb``
package, in the ``[solve]`` extra): a memory-mapped B-tree made for many readers and one writer
at a time across processes, whose committed writes survive a killed process, so a run stopped at
any moment keeps what it had settled up to its last commit (at most a second before).

Keys depend only on the position (its regions' canonical forms and the Nim heap of the small
ones), not on the board size, so one table serves every board and every run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bordspel.core import BordspelError

__all__ = ["DiskTable"]

MAP_SIZE = 1 << 40
"""The most the file may grow to (address space, not disk: the file holds what is written)."""


class DiskTable:
    """Settled positions in the LMDB environment at ``path`` (a directory, made if missing).

    ``get`` reads through a read transaction renewed on each ``tick``; ``put`` collects writes
    that ``tick`` commits once ``commit_every`` seconds have passed, and ``flush`` at once."""

    def __init__(self, path: Path | str, commit_every: float = 1.0) -> None:
        try:
            import lmdb
        except ImportError:
            raise BordspelError(
                "the disk table needs the solve extra: pip install 'bordspel[solve]'"
            ) from None
        Path(path).mkdir(parents=True, exist_ok=True)
        self.path = Path(path)
        self.env: Any = lmdb.open(
            str(path), map_size=MAP_SIZE, sync=False, metasync=False, readahead=False, max_dbs=0
        )
        self.commit_every = commit_every
        self.pending: dict[bytes, bytes] = {}
        self.written = 0
        self.last_commit = time.monotonic()
        self.reader: Any = self.env.begin(buffers=False)

    def get(self, key: bytes) -> bytes | None:
        """The stored value of ``key`` (written by this process or committed by any), or None."""
        found = self.pending.get(key)
        return found if found is not None else self.reader.get(key)

    def put(self, key: bytes, value: bytes, work: int = 0, depth: int = 0) -> None:
        """Store ``value`` under ``key`` at the next commit (read back at once by this process);
        the search's ``work`` below the position and its ``depth`` are not kept."""
        self.pending[key] = value

    def tick(self) -> None:
        """Commit the pending writes if ``commit_every`` has passed, and see the others' commits."""
        if time.monotonic() - self.last_commit >= self.commit_every:
            self.flush()

    def flush(self) -> None:
        """Commit the pending writes now; later reads see every process's commits."""
        if self.pending:
            with self.env.begin(write=True) as txn:
                for key, value in self.pending.items():
                    txn.put(key, value)
            self.written += len(self.pending)
            self.pending.clear()
        self.last_commit = time.monotonic()
        self.reader.abort()
        self.reader = self.env.begin(buffers=False)

    def __len__(self) -> int:
        """Positions in the table (committed by any process)."""
        return int(self.env.stat()["entries"])

    def disk_bytes(self) -> int:
        """The size of the table's data file."""
        return (self.path / "data.mdb").stat().st_size

    def close(self) -> None:
        """Commit what is pending and close the environment."""
        self.flush()
        self.reader.abort()
        self.env.close()
