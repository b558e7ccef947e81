"""Stored games, every game and move, one transaction a change, in SQLite or PostgreSQL.

A game row holds its registered game name, its start position string, who plays each seat, a
version that every change increments, a pending takeback request and a resignation; move rows
hold the moves in order with the version of their notation; seat rows hold a hash of each seat's
secret token. A change is checked against the version the caller saw: when another change landed
first, nothing is written (``Conflict``).

``GameStore(location)`` takes an SQLite file's path (the embedded default) or a
``postgresql://`` URL (``bordspel.web.db`` has both, and the SQL that both read). It brings the
database's schema up to date when it opens it (``bordspel.web.migrations``: to add a table,
append a migration there).

To add a query: a method here (or in a class of your own that takes ``store.db``) that opens
``self.db.transaction()`` (``write=False`` for a consistent read of several rows) and runs its
statements on the connection, with ``?`` placeholders. A write that depends on what it read
writes with a condition (``UPDATE ... WHERE version = ?``, then ``rowcount``) or takes
``connection.lock(name)`` first: PostgreSQL runs write transactions side by side.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bordspel.core import BordspelError, State, game_class
from bordspel.record import Game
from bordspel.web.clocks import Clock, TimeControl
from bordspel.web.db import Busy, Connection, Database, open_database, upgrade
from bordspel.web.fanout import redis_publisher
from bordspel.web.migrations import BASE, LATEST, MIGRATIONS, NOTATION

__all__ = [
    "HUMAN",
    "Busy",
    "Conflict",
    "Forbidden",
    "GameStore",
    "NotFound",
    "QueueFull",
    "StoredGame",
    "TooMany",
    "check_new_games",
    "creator_hash",
    "default_db_path",
    "insert_game",
    "token_hash",
]

GAME_COLUMNS = "game, start, seats, version, takeback, resigned, clock, flagged, rematch, rated"
"""The columns of a game's row that ``GameStore.load`` reads."""

UNCLAIMED = "unclaimed:"
"""How the hash of a rematch's seat not yet claimed begins (no token's hash does)."""


HUMAN = "human"
"""The seat of a person (any other seat is a level of the computer)."""


class NotFound(BordspelError):
    """No game has that id."""


class Conflict(BordspelError):
    """The game moved on since the caller looked (another change landed first)."""


class Forbidden(BordspelError):
    """The caller does not hold the seat the request needs."""


class TooMany(BordspelError):
    """A limit on how often one address may do something was reached (429, with ``Retry-After``
    ``retry_after`` seconds when given, else 60)."""

    def __init__(self, reason: str, retry_after: int | None = None) -> None:
        super().__init__(reason)
        if retry_after is not None:
            self.retry_after = retry_after


class QueueFull(Busy):
    """The computer has as many moves waiting as the server allows: a change that would owe it
    another is refused (503) until the workers catch up."""

    retry_after = 10


def creator_hash(address: str) -> str:
    """What the store keeps of a creator's address: a hash, enough to count its games."""
    return hashlib.sha256(f"bordspel creator {address}".encode()).hexdigest()[:24] if address else ""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/bordspel/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "bordspel" / "games.sqlite3"


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class StoredGame:
    """A game as stored: its seats, record, version, takeback request and resignation."""

    id: str
    seats: list[str]
    """Per seat: ``human`` or a level of the computer (``easy``, ``hard``, ...)."""
    game: Game
    version: int = 0
    """Incremented by every change: move, undo, takeback request or answer, resignation."""
    takeback: int | None = None
    """The seat that asks to take back its last move, if any."""
    resigned: int | None = None
    """The seat that resigned, if any."""
    clock: Clock | None = None
    """The game's clock, in a timed game."""
    flagged: int | None = None
    """The seat whose flag fell (settled in the store), if any."""
    rematch: str | None = None
    """The id of the rematch, once a player asked for one."""
    loaded: float = field(default_factory=time.time)
    """When the game was read: the moment a change or a view is judged at (clocks, flags)."""
    players: list[str | None] = field(default_factory=list)
    """Per seat: the username of the account it is bound to, or None (anonymous or the computer)."""
    rated: bool = False
    """Whether the game counts for the ratings of its accounts (``bordspel.web.ratings``)."""

    @property
    def ply(self) -> int:
        """The number of moves played."""
        return len(self.game.moves)

    @property
    def state(self) -> State:
        """The current position."""
        return self.game.state

    def is_over(self) -> bool:
        """Whether the game has ended, by the rules, by resignation or on time."""
        return self.resigned is not None or self.game.state.is_over() or self.flag_down() is not None

    def ended(self) -> bool:
        """Whether the game's end is written: by the rules, a resignation or a settled flag (a
        flag that is due but not settled yet ends the game with the change that settles it)."""
        return self.resigned is not None or self.flagged is not None or self.game.state.is_over()

    def aborted(self) -> bool:
        """Whether the game ended by a resignation (an abort) or a flag fall before every seat
        had made its first move: nobody played it, so nobody wins and it is not rated."""
        early = not self.everyone_moved() and not self.game.state.is_over()
        return early and (self.resigned is not None or self.flag_down() is not None)

    def everyone_moved(self) -> bool:
        """Whether every seat has made a move (from then on the game can no longer be aborted)."""
        movers = {state.to_move for state in self.game.states[:-1]}
        return len(movers) == len(self.seats)

    def flag_down(self) -> int | None:
        """The seat whose time ran out (settled, or due at ``loaded``), if any."""
        if self.flagged is not None:
            return self.flagged
        if self.clock is None or self.resigned is not None or self.game.state.is_over():
            return None
        return self.clock.running if self.clock.fallen(self.loaded) else None

    def run_clock(self, ply_before: int, movers: list[int]) -> None:
        """After a change: charge the running seat and start the next one's clock (stop them all
        once the game is over); a move played adds the increment, and a move taken back takes
        its increment away (``movers``: who played each move before the change)."""
        if self.clock is None or self.clock.waiting():
            return
        to_move = None if self.is_over() else self.state.to_move
        if to_move != self.clock.running or self.ply != ply_before:
            self.clock = self.clock.switch(self.ply > ply_before, to_move, self.loaded)
        if self.ply < ply_before:
            self.clock = self.clock.without_increments(movers[self.ply : ply_before])

    def owed_level(self) -> str | None:
        """The level of the computer that owes the next move (None: a person's turn, or the end)."""
        level = self.seats[self.state.to_move] if not self.is_over() else HUMAN
        return None if level == HUMAN else level


Edit = Callable[[StoredGame, "int | None"], None]
"""A change to a loaded game, given the seat of the caller's token (None: no token)."""

EndHook = Callable[[Connection, StoredGame], None]
"""Work done in the transaction that ends a game (a rated game's rating update)."""


class GameStore:
    """Games and their moves in a database (an SQLite file or PostgreSQL), each change in one
    transaction. ``upgrade_schema=False``: refuse a database whose schema is behind, rather than
    upgrade it (for deployments that run ``bordspel db upgrade`` themselves)."""

    def __init__(
        self,
        location: str | Path,
        *,
        upgrade_schema: bool = True,
        pubsub: str | None = None,
        max_queued: int | None = None,
    ) -> None:
        self.db: Database = open_database(location)
        self.max_queued = max_queued
        """The computer's moves that may wait for a worker (None: no bound); a change that would
        owe one more raises ``QueueFull`` and stores nothing."""
        """The database, for the queries of other parts of the app (see the module's docstring)."""
        self.pubsub = pubsub
        """A Redis URL on which every change is announced, or None: the database announces it
        (``bordspel.web.fanout``)."""
        self._publish = redis_publisher(pubsub) if pubsub else None
        self.on_end: list[EndHook] = []
        """Called in the transaction of the change that ends a game, so exactly once a game."""
        try:
            upgrade(self.db, BASE, MIGRATIONS) if upgrade_schema else self._check_schema()
        except BaseException:
            self.db.close()
            raise

    def _check_schema(self) -> None:
        with self.db.transaction(write=False) as db:
            version = self.db.schema_version(db)
        if version != LATEST:
            raise BordspelError(
                f"{self.db.describe()} has schema {version}, this bordspel needs {LATEST}: "
                "run bordspel db upgrade --db ..."
            )

    def close(self) -> None:
        """Let go of the database's pooled connections."""
        self.db.close()

    def publish(self, key: str) -> None:
        """Announce ``key`` on the Redis channel, if the store has one, after a change written by
        other code than ``change`` (which the database announces with ``db.notify(key)``)."""
        if self._publish:
            self._publish(key)

    # -- reading -----------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame:
        """The stored game ``game_id`` (NotFound if there is none)."""
        with self.db.transaction(write=False) as db:
            return self._load(db, game_id)

    def version(self, game_id: str) -> int:
        """The game's version (cheap: no replay)."""
        with self.db.transaction(write=False) as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        return int(row[0])

    def seat_of(self, game_id: str, token: str | None, account: str | None = None) -> int | None:
        """The seat whose token this is, else the seat bound to ``account`` (an account id; the
        one to move if it holds several), else None; Forbidden for a wrong token."""
        with self.db.transaction(write=False) as db:
            return _seat_of(db, game_id, token, account)

    def due_flags(self, now: float) -> list[tuple[str, int]]:
        """The games (id and version) whose running clock ran out by ``now`` and are not settled."""
        query = "SELECT id, version FROM games WHERE flag_at <= ? AND over = 0 ORDER BY flag_at LIMIT 100"
        with self.db.transaction(write=False) as db:
            return [(game_id, int(version)) for game_id, version in db.execute(query, (now,)).fetchall()]

    def _load(self, db: Connection, game_id: str) -> StoredGame:
        row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        name, start, seats, version, takeback, resigned, clock, flagged, rematch, rated = row
        game = Game(game_class(name).from_str(start))
        query = "SELECT move, notation FROM moves WHERE game_id = ? ORDER BY ply"
        for move, notation in db.execute(query, (game_id,)).fetchall():
            if notation > NOTATION:
                raise BordspelError(f"game {game_id} has moves in a newer notation ({notation})")
            game.play(move)
        timed = None if clock is None else Clock.loads(clock)
        query = (
            "SELECT username FROM seats LEFT JOIN accounts ON accounts.id = account_id "
            "WHERE game_id = ? ORDER BY seat"
        )
        players = [username for (username,) in db.execute(query, (game_id,)).fetchall()]
        return StoredGame(
            game_id, json.loads(seats), game, version, takeback, resigned, timed, flagged, rematch,
            players=players, rated=bool(rated),
        )  # fmt: skip

    # -- writing -----------------------------------------------------------------------------
    def rematch(
        self, game_id: str, token: str | None, start: State, address: str = "", per_minute: int | None = None
    ) -> tuple[StoredGame, int, str]:
        """The caller's seat in the rematch of a finished game, each player one seat on (with
        two, the seats swapped), and a fresh token for it. The first to ask starts the rematch
        from ``start`` with the same clock; each other person claims their seat by asking too,
        with the token of their seat in this game (only its hash is kept, so a seat not yet
        claimed holds a placeholder that no token matches); its clock starts once every person has
        their seat. Starting one counts as a new game of ``address`` (``per_minute``, as ``create``)."""
        fresh = secrets.token_urlsafe(18)
        with self.db.transaction() as db:
            db.lock(f"rematch {game_id}")  # of two players asking at once, one starts it
            stored = self._load(db, game_id)
            seat = _seat_of(db, game_id, token)
            if seat is None or stored.seats[seat] != HUMAN:
                raise Forbidden("only a person playing this game may ask for a rematch: use your seat's link")
            if not stored.is_over():
                raise Conflict("a rematch starts once the game is over")
            mine = (seat + 1) % len(stored.seats)
            if stored.rematch is None:
                who = creator_hash(address)
                check_new_games(db, who, per_minute)
                new = self._start_rematch(db, stored, start, mine, fresh, who)
                db.notify(game_id)
            else:
                new = self._claim(db, stored.rematch, mine, fresh)
        self.publish(game_id)
        return new, mine, fresh

    def decline_rematch(self, game_id: str, token: str | None) -> StoredGame:
        """The caller's seat of a finished game turns down the rematch another player started,
        before taking its seat in it: the rematch is aborted (unrated, nobody wins) and this game
        offers none any more (either player may ask again). The aborted rematch is returned."""
        with self.db.transaction() as db:
            db.lock(f"rematch {game_id}")
            stored = self._load(db, game_id)
            seat = _seat_of(db, game_id, token)
            if seat is None or stored.seats[seat] != HUMAN:
                raise Forbidden("only a person playing this game may decline its rematch")
            if stored.rematch is None:
                raise Conflict("nobody has asked for a rematch of this game")
            mine = (seat + 1) % len(stored.seats)
            query = "SELECT 1 FROM seats WHERE game_id = ? AND seat = ? AND token_hash LIKE ?"
            if db.execute(query, (stored.rematch, mine, f"{UNCLAIMED}%")).fetchone() is None:
                raise Conflict("you have your seat in the rematch: abort it from its page")
            rematch = self._load(db, stored.rematch)
            rematch.resigned, rematch.version = mine, rematch.version + 1  # before any move: aborted
            self._write(db, rematch, rematch.version - 1, rematch.ply)
            for hook in self.on_end:
                hook(db, rematch)
            db.execute("UPDATE games SET rematch = NULL, version = version + 1 WHERE id = ?", (game_id,))
            db.notify(rematch.id)
            db.notify(game_id)
        self.publish(rematch.id)
        self.publish(game_id)
        return rematch

    def _start_rematch(
        self, db: Connection, stored: StoredGame, start: State, mine: int, fresh: str, creator: str
    ) -> StoredGame:
        hashes = [f"{UNCLAIMED}{secrets.token_hex(16)}" for _ in stored.seats]
        hashes[mine] = token_hash(fresh)
        seats = stored.seats[-1:] + stored.seats[:-1]
        control = None if stored.clock is None else stored.clock.control
        query = "SELECT account_id FROM seats WHERE game_id = ? ORDER BY seat"
        accounts = [account for (account,) in db.execute(query, (stored.id,)).fetchall()]
        accounts = accounts[-1:] + accounts[:-1]  # each account one seat on, as its player
        others = any(spec == HUMAN for seat, spec in enumerate(seats) if seat != mine)
        new = insert_game(
            db,
            start,
            seats,
            creator,
            hashes,
            control,
            waiting=others,
            accounts=accounts,
            rated=stored.rated,
            max_queued=self.max_queued,
        )
        db.execute("UPDATE games SET rematch = ?, version = version + 1 WHERE id = ?", (new.id, stored.id))
        return new

    def _claim(self, db: Connection, game_id: str, seat: int, fresh: str) -> StoredGame:
        claimed = db.execute(
            "UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? AND token_hash LIKE ?",
            (token_hash(fresh), game_id, seat, f"{UNCLAIMED}%"),
        ).rowcount
        if claimed != 1:
            raise Conflict("you already have your seat in the rematch: open it from Your games")
        new = self._load(db, game_id)
        unclaimed = db.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND token_hash LIKE ?", (game_id, f"{UNCLAIMED}%")
        ).fetchall()
        if new.clock is not None and not any(new.seats[seat] == HUMAN for (seat,) in unclaimed):
            new.clock = new.clock.started(new.state.to_move, time.time())
            db.execute(
                "UPDATE games SET clock = ?, flag_at = ?, version = version + 1 WHERE id = ?",
                (new.clock.dumps(), new.clock.flag_at(), game_id),
            )
            new.version += 1
            db.notify(game_id)
        return new

    def create(
        self,
        start: State,
        seats: list[str],
        creator: str = "",
        per_minute: int | None = None,
        control: TimeControl | None = None,
        *,
        accounts: list[str | None] | None = None,
        rated: bool = False,
    ) -> tuple[StoredGame, list[str]]:
        """A new game from ``start`` (timed by ``control``, if given), and a fresh secret token
        for each seat. With ``per_minute``, ``TooMany`` when ``creator`` (an address) made that
        many games in the last minute: the count is in the store, so it holds for every process
        that serves it. ``accounts``: the account id each seat is bound to (None: anonymous);
        ``rated``: the game counts for the ratings (every seat a person with an account of their
        own, else ``BordspelError``)."""
        tokens = [secrets.token_urlsafe(18) for _ in seats]
        who = creator_hash(creator)
        with self.db.transaction() as db:
            check_new_games(db, who, per_minute)
            hashes = [token_hash(token) for token in tokens]
            stored = insert_game(
                db,
                start,
                seats,
                who,
                hashes,
                control,
                accounts=accounts,
                rated=rated,
                max_queued=self.max_queued,
            )
        return stored, tokens

    def bind(self, game_id: str, seat: int, account: str) -> None:
        """Bind a person's seat to ``account`` (an account id): the account's session then
        authorises the seat's requests and the game is on its profile. Forbidden when the seat
        is the computer's or bound to another account."""
        with self.db.transaction() as db:
            _bind(db, self._load(db, game_id), seat, account)

    def claim(self, game_id: str, token: str, account: str) -> int:
        """Bind the seat of ``token`` to ``account`` (a game played before logging in); its seat."""
        with self.db.transaction() as db:
            seat = _seat_of(db, game_id, token)
            assert seat is not None
            _bind(db, self._load(db, game_id), seat, account)
        return seat

    def change(
        self, game_id: str, version: int, token: str | None, edit: Edit, account: str | None = None
    ) -> StoredGame:
        """Apply ``edit`` to the game the caller (by seat token, else by account id) saw at ``version``.

        The game is read and edited outside the write transaction, which only writes if the
        version is still the one read, so writers hold locks for microseconds. The change that
        writes the game's end runs the ``on_end`` hooks in its transaction.
        """
        with self.db.transaction(write=False) as db:  # one consistent snapshot of the game and its moves
            stored = self._load(db, game_id)
            seat = _seat_of(db, game_id, token, account, stored.state.to_move)
        if stored.version != version:
            raise _conflict(stored.version, version)
        before, was_ended = stored.ply, stored.ended()
        movers = [state.to_move for state in stored.game.states[:-1]]
        edit(stored, seat)
        stored.run_clock(before, movers)
        stored.version += 1
        with self.db.transaction() as db:
            self._write(db, stored, version, min(before, stored.ply))
            if stored.ended() and not was_ended:
                for hook in self.on_end:
                    hook(db, stored)
            db.notify(stored.id)  # every process's live updates (bordspel.web.fanout)
        if self._publish:
            self._publish(stored.id)
        return stored

    def _write(self, db: Connection, stored: StoredGame, seen: int, kept: int) -> None:
        """Store the game's row, if it is still at version ``seen``, and its moves after the first
        ``kept`` (which did not change)."""
        clock = stored.clock
        updated = db.execute(
            "UPDATE games SET version = ?, takeback = ?, resigned = ?, clock = ?, flag_at = ?, flagged = ?,"
            " over = ? WHERE id = ? AND version = ?",
            (
                stored.version,
                stored.takeback,
                stored.resigned,
                None if clock is None else clock.dumps(),
                None if clock is None else clock.flag_at(),
                stored.flagged,
                int(stored.is_over()),
                stored.id,
                seen,
            ),
        ).rowcount
        if updated != 1:
            (current,) = db.execute("SELECT version FROM games WHERE id = ?", (stored.id,)).fetchone()
            raise _conflict(current, seen)
        db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (stored.id, kept))
        db.executemany(
            "INSERT INTO moves (game_id, ply, move, created, notation) VALUES (?, ?, ?, ?, ?)",
            [
                (stored.id, ply, move.to_str(), time.time(), NOTATION)
                for ply, move in enumerate(stored.game.moves[kept:], kept)
            ],
        )
        _owe(db, stored, self.max_queued)

    def owe(self, stored: StoredGame) -> None:
        """Write the job of the computer's move that ``stored`` owes, unless it is there already
        (a game stored before jobs were); no effect when the game has moved on."""
        with self.db.transaction() as db:
            (current,) = db.execute("SELECT version FROM games WHERE id = ?", (stored.id,)).fetchone()
            owed = db.execute("SELECT 1 FROM jobs WHERE game_id = ? AND version = ?", (stored.id, current))
            if current == stored.version and owed.fetchone() is None:
                _owe(db, stored, self.max_queued)


def _owe(db: Connection, stored: StoredGame, max_queued: int | None) -> None:
    """In the change's own transaction: the game's job is the move owed now, or none. A game
    without a job gets one only while fewer than ``max_queued`` jobs wait (else ``QueueFull``)."""
    level = stored.owed_level()
    if level is None:
        db.execute("DELETE FROM jobs WHERE game_id = ?", (stored.id,))
        return
    if max_queued is not None:
        _check_room(db, stored.id, max_queued)
    db.execute(
        """INSERT INTO jobs (game_id, version, level, created) VALUES (?, ?, ?, ?)
        ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, level = excluded.level,
        created = excluded.created, lease_until = 0, worker = '', attempts = 0""",
        (stored.id, stored.version, level, time.time()),
    )


def _check_room(db: Connection, game_id: str, max_queued: int) -> None:
    """``QueueFull`` when game ``game_id`` has no job yet and ``max_queued`` jobs wait already
    (a game's next job replaces its own, which adds nothing to the queue)."""
    if db.execute("SELECT 1 FROM jobs WHERE game_id = ?", (game_id,)).fetchone() is not None:
        return
    query = "SELECT COUNT(*) FROM jobs WHERE lease_until < ?"
    (waiting,) = db.execute(query, (time.time(),)).fetchone()
    if waiting >= max_queued:
        raise QueueFull(
            f"the computer has {waiting} moves waiting, as many as this server takes: "
            "try again in a few seconds, or play a person meanwhile"
        )


def check_new_games(db: Connection, who: str, per_minute: int | None) -> None:
    """``TooMany`` when ``who`` (an address's hash) started ``per_minute`` games in the last minute
    (None: no limit). The count is in the store, so it holds for every process that serves it."""
    if per_minute is None:
        return
    db.lock(f"creator {who}")  # two processes cannot both take the last game of the minute
    query = "SELECT COUNT(*) FROM games WHERE creator = ? AND created > ?"
    (recent,) = db.execute(query, (who, time.time() - 60)).fetchone()
    if recent >= per_minute:
        raise TooMany(f"at most {per_minute} new games a minute from one address: wait a minute")


def insert_game(
    db: Connection,
    start: State,
    seats: list[str],
    creator: str,
    hashes: list[str],
    control: TimeControl | None = None,
    waiting: bool = False,
    *,
    accounts: list[str | None] | None = None,
    rated: bool = False,
    max_queued: int | None = None,
) -> StoredGame:
    """Write a new game (inside the caller's transaction): its row and its seats' token hashes
    and accounts (``accounts``: the account id of each seat, None for anonymous); with a time
    control, the clock of the seat to move starts now (``waiting``: once the players are there,
    ``Clock.started``). A ``rated`` game is between people with an account each, one seat an
    account (else ``BordspelError``). ``QueueFull`` when the game would owe the computer a move
    and ``max_queued`` moves wait already."""
    bound = accounts or [None] * len(seats)
    people = all(spec == HUMAN for spec in seats) and None not in bound and len(set(bound)) == len(bound)
    if len(bound) != len(seats) or (rated and not people):
        raise BordspelError("a rated game is between people with an account each, one seat an account")
    game_id, now = secrets.token_urlsafe(8), time.time()
    clock = (
        None if control is None else Clock.start(control, len(seats), None if waiting else start.to_move, now)
    )
    db.execute(
        "INSERT INTO games (id, game, start, seats, created, creator, clock, flag_at, rated)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            start.name,
            start.to_str(),
            json.dumps(seats),
            now,
            creator,
            None if clock is None else clock.dumps(),
            None if clock is None else clock.flag_at(),
            int(rated),
        ),
    )
    db.executemany(
        "INSERT INTO seats (game_id, seat, token_hash, account_id) VALUES (?, ?, ?, ?)",
        [(game_id, seat, hashed, bound[seat]) for seat, hashed in enumerate(hashes)],
    )
    players = [_username(db, account) for account in bound]
    stored = StoredGame(game_id, seats, Game(start), clock=clock, loaded=now, players=players, rated=rated)
    _owe(db, stored, max_queued)
    return stored


def _conflict(current: int, seen: int) -> Conflict:
    return Conflict(f"the game is at version {current}, not {seen}: it changed since")


def _seat_of(
    db: Connection, game_id: str, token: str | None, account: str | None = None, to_move: int = 0
) -> int | None:
    if token is None:
        if account is None:
            return None
        query = "SELECT seat FROM seats WHERE game_id = ? AND account_id = ?"
        held = [int(seat) for (seat,) in db.execute(query, (game_id, account)).fetchall()]
        return (to_move if to_move in held else held[0]) if held else None
    row = db.execute(
        "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?", (game_id, token_hash(token))
    ).fetchone()
    if row is None:
        raise Forbidden("this link does not hold a seat of this game")
    return int(row[0])


def _bind(db: Connection, stored: StoredGame, seat: int, account: str) -> None:
    if not 0 <= seat < len(stored.seats) or stored.seats[seat] != HUMAN:
        raise Forbidden(f"seat {seat + 1} is not a person's: only a person's seat is bound to an account")
    bound = db.execute(
        "UPDATE seats SET account_id = ? "
        "WHERE game_id = ? AND seat = ? AND (account_id IS NULL OR account_id = ?)",
        (account, stored.id, seat, account),
    ).rowcount
    if bound != 1:
        raise Forbidden(f"seat {seat + 1} of this game belongs to another account")


def _username(db: Connection, account: str | None) -> str | None:
    if account is None:
        return None
    row = db.execute("SELECT username FROM accounts WHERE id = ?", (account,)).fetchone()
    if row is None:
        raise NotFound("there is no such account")
    return str(row[0])
