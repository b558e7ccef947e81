"""The store's schema: the first one (``BASE``) and the one list of changes to it (``MIGRATIONS``).

Both databases get their schema from here (see ``bordspel.web.db`` for the SQL both read).
``MIGRATIONS[n]`` takes a database from schema version n to n + 1; the version is kept in the
database, and a store brings its database up to date when it opens it (``bordspel db upgrade``
does it ahead of a deployment, ``bordspel db status`` tells where a database stands).

To add a table or a column, append one migration at the end of ``MIGRATIONS`` (never change
one that was released): a tuple of statements, and where SQL alone cannot do it a function
that takes the :class:`~bordspel.web.db.Connection`. Write ``?`` for parameters, ``{float}``
for a floating-point column, ``INTEGER`` (0/1) for a flag and ``TEXT`` for strings and JSON;
``BIGINT`` for numbers past 2**31; ``INTEGER PRIMARY KEY`` works in SQLite only, so give tables
text keys (``secrets.token_urlsafe``) or a composite key. Then test it in
``tests/test_web_store.py``, which runs every migration on both databases.
"""

from __future__ import annotations

import json

from bordspel.ai import LEVELS
from bordspel.web.db import Connection, Step

__all__ = ["BASE", "LATEST", "MIGRATIONS", "NOTATION"]

NOTATION = 1
"""The version of the move notation written with each stored move."""

BASE = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        start TEXT NOT NULL,
        seats TEXT NOT NULL,
        created {float} NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        created {float} NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
)
"""The first release's schema (version 0); ``IF NOT EXISTS``: that release's files have it."""


def _named_seats(db: Connection) -> None:
    """The first release stored any player text; what is not a plain level becomes ``medium``."""
    for game_id, seats in db.execute("SELECT id, seats FROM games").fetchall():
        named = [seat if seat in ("human", *LEVELS) else "medium" for seat in json.loads(seats)]
        db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(named), game_id))


MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    (  # 1: versions, takebacks, resignations, seat tokens and notation versions; named levels only
        "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN takeback INTEGER",
        "ALTER TABLE games ADD COLUMN resigned INTEGER",
        f"ALTER TABLE moves ADD COLUMN notation INTEGER NOT NULL DEFAULT {NOTATION}",
        """CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            PRIMARY KEY (game_id, seat)
        )""",
        "UPDATE games SET version = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)",
        _named_seats,
    ),
    (  # 2: who created each game (a hash of the address), for the limit on new games
        "ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX games_by_creator ON games (creator, created)",
    ),
    (  # 3: the computer's owed moves as jobs (one a game: the move owed at its version), and the
        # workers that make them (bordspel.web.jobs)
        """CREATE TABLE jobs (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            level TEXT NOT NULL,
            created {float} NOT NULL,
            lease_until {float} NOT NULL DEFAULT 0,
            worker TEXT NOT NULL DEFAULT '',
            attempts INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX jobs_by_lease ON jobs (lease_until, created)",
        "CREATE TABLE job_workers (id TEXT PRIMARY KEY, seen {float} NOT NULL, running INTEGER NOT NULL)",
    ),
    (  # 4: clocks (flag_at: when the running seat's flag falls), the seat whose flag fell, whether a
        # game is over, its rematch; the lobby's challenges and the seats taken at them
        "ALTER TABLE games ADD COLUMN clock TEXT",
        "ALTER TABLE games ADD COLUMN flag_at {float}",
        "ALTER TABLE games ADD COLUMN flagged INTEGER",
        "ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN rematch TEXT",
        "CREATE INDEX games_by_flag ON games (flag_at)",
        """CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            clock TEXT,
            rated INTEGER NOT NULL,
            seat TEXT NOT NULL,
            seats INTEGER NOT NULL,
            creator TEXT NOT NULL,
            created {float} NOT NULL,
            expires {float} NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            cancelled INTEGER NOT NULL DEFAULT 0,
            game_id TEXT REFERENCES games(id)
        )""",
        "CREATE INDEX challenges_open ON challenges (expires)",
        "CREATE INDEX challenges_by_creator ON challenges (creator, created)",
        """CREATE TABLE challenge_seats (
            challenge_id TEXT NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            host INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (challenge_id, seat)
        )""",
    ),
    (  # 5: accounts, their sessions, failed log-ins, the server's secret, seats bound to accounts,
        # rated games, ratings per pool and each rated game's change (bordspel.web.accounts,
        # ratings), each finished game's winning seats (a JSON list; NULL while it goes on)
        """CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            password TEXT NOT NULL,
            created {float} NOT NULL,
            creator TEXT NOT NULL
        )""",
        "CREATE INDEX accounts_by_creator ON accounts (creator, created)",
        """CREATE TABLE sessions (
            id_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            created {float} NOT NULL
        )""",
        "CREATE TABLE attempts (who TEXT NOT NULL, created {float} NOT NULL)",
        "CREATE INDEX attempts_by_who ON attempts (who, created)",
        "CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "ALTER TABLE seats ADD COLUMN account_id TEXT REFERENCES accounts(id)",
        "CREATE INDEX seats_by_account ON seats (account_id)",
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN winners TEXT",
        """CREATE TABLE ratings (
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            pool TEXT NOT NULL,
            mu {float} NOT NULL,
            sigma {float} NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (account_id, pool)
        )""",
        """CREATE TABLE rating_changes (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            pool TEXT NOT NULL,
            mu {float} NOT NULL,
            sigma {float} NOT NULL,
            created {float} NOT NULL,
            PRIMARY KEY (game_id, account_id)
        )""",
        "CREATE INDEX rating_changes_by_account ON rating_changes (account_id, created)",
    ),
    (  # 6: the account that took each seat at a challenge (a rated challenge's seats are accounts')
        "ALTER TABLE challenge_seats ADD COLUMN account_id TEXT REFERENCES accounts(id)",
    ),
    (  # 7: aborted games (ended before every seat moved: unrated), when each game ended (for
        # the notices, bordspel.web.notices), each rated game's rating change
        "ALTER TABLE games ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN ended {float}",
        "ALTER TABLE rating_changes ADD COLUMN delta {float}",
    ),
    (  # 8: each game's chat (bordspel.web.chat): its messages per room, and each seat's choices
        # (chat turned off, the other players muted)
        """CREATE TABLE chat_messages (
            id TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            room TEXT NOT NULL,
            writer TEXT NOT NULL,
            seat INTEGER,
            name TEXT,
            text TEXT NOT NULL,
            ply INTEGER NOT NULL,
            created {float} NOT NULL
        )""",
        "CREATE INDEX chat_by_game ON chat_messages (game_id, created)",
        "ALTER TABLE seats ADD COLUMN chat_off INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE seats ADD COLUMN chat_muted INTEGER NOT NULL DEFAULT 0",
    ),
    (  # 9: each account's first attempt at each puzzle (bordspel.web.puzzles): whether it was
        # solved and the change of the account's puzzle rating (pool ``puzzles`` of ``ratings``)
        """CREATE TABLE puzzle_attempts (
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            puzzle_id TEXT NOT NULL,
            solved INTEGER NOT NULL,
            delta {float} NOT NULL,
            created {float} NOT NULL,
            PRIMARY KEY (account_id, puzzle_id)
        )""",
    ),
    (  # 10: each finished game's evaluation graph, made by a job after the game (bordspel.web.graphs):
        # waiting (leased to a worker while it runs), done (the graph as JSON) or failed
        """CREATE TABLE game_graphs (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            status TEXT NOT NULL,
            graph TEXT,
            created {float} NOT NULL,
            lease_until {float} NOT NULL DEFAULT 0,
            worker TEXT NOT NULL DEFAULT '',
            attempts INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX game_graphs_waiting ON game_graphs (status, lease_until, created)",
    ),
    (  # 11: the puzzles each account began from their first move (bordspel.web.puzzles): only
        # such an attempt is rated, not one that sends a whole line found some other way
        """CREATE TABLE puzzle_starts (
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            puzzle_id TEXT NOT NULL,
            created {float} NOT NULL,
            PRIMARY KEY (account_id, puzzle_id)
        )""",
    ),
    (  # 12: puzzles met in the site's finished games (bordspel.web.puzzles), found by the job that
        # makes the game's evaluation graph (bordspel.web.graphs); the game is kept as ``source``
        """CREATE TABLE site_puzzles (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            start TEXT NOT NULL,
            distance INTEGER NOT NULL,
            winning INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            rating INTEGER NOT NULL,
            source TEXT NOT NULL,
            created {float} NOT NULL
        )""",
    ),
    (  # 13: the site's puzzles by rating, so that the puzzle near a player's rating is found by
        # index (``PuzzleRoom.nearest``), however many the site's games have given
        "CREATE INDEX site_puzzles_by_rating ON site_puzzles (rating, id)",
    ),
    (  # 14: which graphs are made first (bordspel.web.graphs.graph_priority): rated games, then
        # games an account played, then the rest; and the lobby's challenge of a game, by game
        # (whether a site puzzle's source game was open to all)
        "ALTER TABLE game_graphs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX game_graphs_next ON game_graphs (status, priority DESC, created)",
        "CREATE INDEX challenges_by_game ON challenges (game_id)",
    ),
    (  # 15: the puzzles given to each account (``PuzzleRoom.next``) and whether it began them
        # from their first move: only such an attempt is rated (earlier rows were begun)
        "ALTER TABLE puzzle_starts ADD COLUMN begun INTEGER NOT NULL DEFAULT 1",
    ),
)

LATEST = len(MIGRATIONS)
"""The schema version this bordspel writes."""
