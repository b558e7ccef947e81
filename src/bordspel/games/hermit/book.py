"""What a solving run has learned, small enough for the repository: a book and a frontier.

- The **book** (``book-*.bin``) holds the positions df-pn settled with at least ``min_work``
  positions searched below them: a file is a magic line and then 17-byte records, a position's
  16-byte key (its 128-bit hash, as in the disk table) and one byte, ``0x80`` when the player to
  move wins plus the bit length of the work below it (so a later run can keep only the largest).
  Each run writes its own files, ``book-<start>-<part>.bin``, at most ``PART_BYTES`` each.
- The **frontier** (``frontier.txt``) holds settled sub-problems, one a line: the moves from the
  empty board (a first move, a reply, a reply to it) and who wins after them with best play,
  ``first`` or ``second``.

Both are rewritten whole (a temporary file, then a rename), so a run killed at any moment leaves
the previous save intact. ``Store`` is what the compiled search reads and writes as its ``disk``:
the book and the frontier's positions in memory, in front of an optional LMDB cache.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from bordspel.core import BordspelError
from bordspel.games.hermit.disk import DiskTable

__all__ = ["PART_BYTES", "Book", "Frontier", "Store", "atomic_write"]

MAGIC = b"bordspel hermit book 1\n"
RECORD = 17
PART_BYTES = 16 * 2**20
"""The largest book file a run writes (git hosts refuse files far larger)."""
WINS = b"\x01"
LOSES = b"\x00"


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` all at once: a killed writer leaves the old file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


class Book:
    """Settled positions: those read from ``folder``'s book files and those this run adds."""

    def __init__(self, folder: Path, min_work: int, stamp: str) -> None:
        self.folder, self.min_work, self.stamp = folder, min_work, stamp
        self.known: dict[bytes, bytes] = {}
        """Every position known settled: key -> ``WINS`` or ``LOSES`` for the player to move."""
        self.new: dict[bytes, int] = {}
        """This run's records: key -> the record's last byte."""
        self.added: set[bytes] = set()
        """Every position this run settled (``new`` has those for the files)."""
        self.loaded = 0

    def load(self) -> None:
        """Read every book file of the folder (the ones this run writes included)."""
        for path in sorted(self.folder.glob("book-*.bin")):
            self.loaded += self.read(_body(path))

    def read(self, records: bytes) -> int:
        """Know the positions of ``records`` (a book file's, after its magic line); how many."""
        for key, flags in _unpack(records):
            self.known[key] = WINS if flags & 0x80 else LOSES
        return len(records) // RECORD

    def records(self, keys: Iterable[bytes] | None = None) -> bytes:
        """The positions known (all, or those of ``keys``) as records (what ``read`` reads; no
        work figures)."""
        known = self.known
        return b"".join(
            key + (b"\x80" if known[key] == WINS else b"\x00") for key in (known if keys is None else keys)
        )

    def new_records(self) -> bytes:
        """This run's records, as its book files hold them (sorted by key)."""
        return b"".join(key + bytes([flags]) for key, flags in sorted(self.new.items()))

    def merge(self, records: bytes) -> None:
        """Add another search's new records (``new_records``) to this run's."""
        for key, flags in _unpack(records):
            self.known[key] = WINS if flags & 0x80 else LOSES
            self.new[key] = flags

    def add(self, key: bytes, value: bytes, work: int) -> None:
        """A position settled with ``work`` positions below it (kept if ``work >= min_work``)."""
        self.known[key] = value
        self.added.add(key)
        if work >= self.min_work:
            self.new[key] = (0x80 if value == WINS else 0) | min(work.bit_length(), 0x7F)

    def save(self) -> list[Path]:
        """Write this run's records to its book files; the files written."""
        records = self.new_records()
        part_size = (PART_BYTES - len(MAGIC)) // RECORD * RECORD
        paths = []
        for part, start in enumerate(range(0, len(records), part_size)):
            path = self.folder / f"book-{self.stamp}-{part:02d}.bin"
            atomic_write(path, MAGIC + records[start : start + part_size])
            paths.append(path)
        return paths


def _body(path: Path) -> bytes:
    """The records of a book file (after its magic line)."""
    data = path.read_bytes()
    if not data.startswith(MAGIC) or (len(data) - len(MAGIC)) % RECORD:
        raise BordspelError(
            f"{path} is not a Hermit book file (or is cut short): delete it or restore it from git"
        )
    return data[len(MAGIC) :]


def _unpack(records: bytes) -> Iterator[tuple[bytes, int]]:
    """The (key, flags) pairs of records."""
    for start in range(0, len(records), RECORD):
        yield records[start : start + 16], records[start + 16]


class Frontier:
    """Settled sub-problems: moves from the empty board -> whether the first player wins."""

    HEADER = "# moves from the empty board, then who wins after them with best play (first or second)\n"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.settled: dict[tuple[str, ...], bool] = {}

    def load(self) -> None:
        """Add the lines of the file (if any) to what is known."""
        if not self.path.exists():
            return
        for number, line in enumerate(self.path.read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            *moves, winner = line.split()
            if winner not in ("first", "second") or not moves:
                raise BordspelError(
                    f"{self.path}:{number}: expected moves then first or second, not {line!r}"
                )
            self.settled[tuple(moves)] = winner == "first"

    def add(self, moves: tuple[str, ...], first_wins: bool) -> None:
        """A sub-problem settled: after ``moves``, whether the first player wins."""
        self.settled[moves] = first_wins

    def save(self) -> None:
        """Write every settled sub-problem, with any a concurrent run wrote meanwhile."""
        mine = dict(self.settled)
        self.load()
        self.settled.update(mine)
        lines = (
            f"{' '.join(moves)} {'first' if wins else 'second'}\n"
            for moves, wins in sorted(self.settled.items())
        )
        atomic_write(self.path, (self.HEADER + "".join(lines)).encode())


class Store:
    """The compiled search's ``disk``: the book in memory, then an optional LMDB ``cache``.

    Every position the search settles goes to the cache; to the book when its work is large;
    and to the book's memory (not its files) within two moves of the first move searched, so
    the run can tell which replies, and replies to them, are settled."""

    def __init__(self, book: Book, cache: DiskTable | None = None) -> None:
        self.book, self.cache = book, cache

    def get(self, key: bytes) -> bytes | None:
        """The settled value of a position: the book's, else the cache's, else None."""
        found = self.book.known.get(key)
        if found is None and self.cache is not None:
            found = self.cache.get(key)
        return found

    def put(self, key: bytes, value: bytes, work: int = 0, depth: int = 0) -> None:
        """A settled position: into the cache, and into the book when it is near the root or cost
        at least the book's ``min_work`` positions."""
        if self.cache is not None:
            self.cache.put(key, value)
        if depth <= 2 or work >= self.book.min_work:
            self.book.add(key, value, work)

    def tick(self) -> None:
        """Let the cache commit its pending writes when its interval has passed."""
        if self.cache is not None:
            self.cache.tick()

    def flush(self) -> None:
        """Commit the cache's pending writes now."""
        if self.cache is not None:
            self.cache.flush()
