"""The lobby's challenges: open games anyone may join, seat by seat, until the table is full.

A challenge names a game, its options, a time control (or none), whether it is rated and the
creator's seat (a number, or ``random``: drawn when it is posted). Whoever takes a seat, the
creator first, gets that seat's secret token at once; only its hash is stored, and it becomes the
seat's token of the game that starts when the last seat is taken (in the same transaction).
Two players: the first to accept starts the game; three or four (Santorini): the table fills
seat by seat. A challenge that nobody completes expires after ``lifetime`` seconds; its creator
may cancel it before. Every change increments the challenge's version with a condition on the
one read, so of two people taking the last seat at once exactly one succeeds (``Conflict``).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from bordspel.core import State
from bordspel.web.clocks import TimeControl
from bordspel.web.db import Connection
from bordspel.web.seats import HUMAN
from bordspel.web.store import (
    Conflict,
    Forbidden,
    GameStore,
    NotFound,
    StoredGame,
    TooMany,
    check_new_games,
    creator_hash,
    insert_game,
    token_hash,
)

__all__ = ["LOBBY", "RANDOM", "Challenge", "Lobby", "Seated"]

LOBBY = "/lobby"
"""The key of the lobby's live updates among the games' (no game id has a slash)."""
RANDOM = "random"
"""The creator's seat choice that leaves it to chance."""

COLUMNS = "id, game, options, clock, rated, seat, seats, created, expires, version, cancelled, game_id"
LISTED = 100
"""Open challenges and games in progress the lobby lists at most (newest first); no more
challenges than that may be open at once, site-wide."""
ANONYMOUS = LISTED // 2
"""Open challenges posted without an account, site-wide: the other half is for accounts."""


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored, and the seats taken at it."""

    id: str
    game: str
    options: dict[str, Any]
    control: TimeControl | None
    rated: bool
    seat: str
    """The creator's choice: a seat number (from 0) or ``random``."""
    seats: int
    created: float
    expires: float
    version: int
    cancelled: bool
    game_id: str | None
    taken: tuple[int, ...] = ()
    players: tuple[str | None, ...] = ()
    """The username at each seat taken (None: a player without an account), as ``taken``."""

    def status(self, now: float) -> str:
        """``open``, ``started``, ``cancelled`` or ``expired``."""
        if self.game_id is not None:
            return "started"
        if self.cancelled:
            return "cancelled"
        return "expired" if now >= self.expires else "open"

    def view(self, now: float) -> dict[str, Any]:
        """The challenge as every visitor of the lobby sees it (no tokens, no addresses)."""
        control = self.control
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "clock": None if control is None else {**control.to_json(), "label": control.label()},
            "rated": self.rated,
            "seat": self.seat,
            "seats": self.seats,
            "taken": list(self.taken),
            "players": list(self.players),
            "status": self.status(now),
            "created": round(self.created, 3),
            "expires": round(self.expires, 3),
            "game_id": self.game_id,
        }


@dataclass(frozen=True)
class Seated:
    """A seat taken at a challenge: its number and token, and the game once the table is full."""

    challenge: Challenge
    seat: int
    token: str
    game: StoredGame | None


def _challenge(row: tuple[Any, ...], taken: tuple[tuple[int, str | None], ...] = ()) -> Challenge:
    id_, game, options, clock, rated, seat, seats, created, expires, version, cancelled, game_id = row
    control = None if clock is None else TimeControl.loads(json.loads(clock))
    return Challenge(
        id_,
        game,
        json.loads(options),
        control,
        bool(rated),
        seat,
        seats,
        created,
        expires,
        version,
        bool(cancelled),
        game_id,
        tuple(seat for seat, _ in taken),
        tuple(name for _, name in taken),
    )


class Lobby:
    """The challenges in the game store: post, take a seat, cancel, list."""

    def __init__(
        self, store: GameStore, lifetime: float, per_address: int, games_per_minute: int | None = None
    ) -> None:
        self.store = store
        self.games_per_minute = games_per_minute
        """New games one address may start in a minute, by taking the last seat too."""
        self.lifetime = lifetime
        """Seconds an open challenge waits for its players."""
        self.per_address = per_address
        """Open challenges one address may have at once."""

    def post(
        self,
        start: State,
        options: dict[str, Any],
        control: TimeControl | None,
        rated: bool,
        seat: int | str,
        address: str,
        account: str | None = None,
    ) -> Seated:
        """A new challenge to play ``start``, the creator (``account``: their account id, if they
        are logged in) at ``seat`` (a number or ``random``); ``TooMany`` past the limit of open
        challenges from one address, or from one account. Rated challenges need an account."""
        _rated_needs(rated, account)
        who, now, seats = creator_hash(address), time.time(), start.num_players
        mine = secrets.randbelow(seats) if seat == RANDOM else int(seat)
        challenge = Challenge(
            secrets.token_urlsafe(8),
            start.name,
            options,
            control,
            rated,
            str(seat),
            seats,
            now,
            now + self.lifetime,
            0,
            False,
            None,
            (mine,),
        )
        token = secrets.token_urlsafe(18)
        with self.store.db.transaction() as db:
            db.lock(f"challenges {who}")  # two processes cannot both post the last one allowed
            query = "SELECT COUNT(*) FROM challenges WHERE creator = ? AND cancelled = 0"
            (open_now,) = db.execute(query + " AND game_id IS NULL AND expires > ?", (who, now)).fetchone()
            if open_now >= self.per_address or _open_by(db, account, now) >= self.per_address:
                raise TooMany(
                    f"at most {self.per_address} open challenges from one address or account: "
                    "cancel one or wait"
                )
            _check_site_wide(db, account, now)
            db.execute(
                f"INSERT INTO challenges ({COLUMNS}, creator) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    challenge.id,
                    challenge.game,
                    json.dumps(options),
                    None if control is None else json.dumps(control.dumps()),
                    int(rated),
                    challenge.seat,
                    seats,
                    now,
                    challenge.expires,
                    0,
                    0,
                    None,
                    who,
                ),
            )
            _seat(db, challenge.id, mine, token, account, host=True)
            posted = _load(db, challenge.id)
            db.notify(LOBBY)
        self.store.publish(LOBBY)
        return Seated(posted, mine, token, None)

    def load(self, challenge_id: str) -> Challenge:
        """The challenge ``challenge_id`` (NotFound if there is none)."""
        with self.store.db.transaction(write=False) as db:
            return _load(db, challenge_id)

    def take(
        self,
        challenge_id: str,
        start: State,
        wanted: int | None,
        token: str | None,
        address: str = "",
        account: str | None = None,
    ) -> Seated:
        """Take seat ``wanted`` (None: the first free one) at an open challenge; the game starts
        when it was the last one, as a new game of ``address`` (within ``games_per_minute``).
        ``token`` is the caller's own seat token, if any: one person takes one seat."""
        now, new_token = time.time(), secrets.token_urlsafe(18)
        with self.store.db.transaction() as db:
            db.lock(f"challenge {challenge_id}")  # one seat at a time, in every process
            challenge = _open(_load(db, challenge_id), now)
            _rated_needs(challenge.rated, account)
            _not_seated(db, challenge, token, account)
            seat = _free_seat(challenge, wanted)
            _next_version(db, challenge)
            _seat(db, challenge.id, seat, new_token, account)
            game = None
            if len(challenge.taken) + 1 == challenge.seats:
                who = creator_hash(address)
                check_new_games(db, who, self.games_per_minute)
                game = self._start(db, challenge, start, who)
            seated = _load(db, challenge.id)
            db.notify(LOBBY)
        self.store.publish(LOBBY)
        return Seated(seated, seat, new_token, game)

    def _start(self, db: Connection, challenge: Challenge, start: State, creator: str) -> StoredGame:
        query = "SELECT token_hash, account_id FROM challenge_seats WHERE challenge_id = ? ORDER BY seat"
        rows = db.execute(query, (challenge.id,)).fetchall()
        hashes, accounts = [hashed for hashed, _ in rows], [account for _, account in rows]
        seats, control = [HUMAN] * challenge.seats, challenge.control
        game = insert_game(
            db, start, seats, creator, hashes, control, accounts=accounts, rated=challenge.rated
        )
        db.execute("UPDATE challenges SET game_id = ? WHERE id = ?", (game.id, challenge.id))
        return game

    def cancel(self, challenge_id: str, token: str | None) -> Challenge:
        """The creator (by the token of their seat) withdraws an open challenge."""
        with self.store.db.transaction() as db:
            db.lock(f"challenge {challenge_id}")
            challenge = _open(_load(db, challenge_id), time.time())
            row = db.execute(
                "SELECT host FROM challenge_seats WHERE challenge_id = ? AND token_hash = ?",
                (challenge.id, token_hash(token or "")),
            ).fetchone()
            if token is None or row is None or not row[0]:
                raise Forbidden("only the player who posted this challenge may cancel it")
            _next_version(db, challenge, "cancelled = 1, ")
            db.notify(LOBBY)
            cancelled = _load(db, challenge.id)
        self.store.publish(LOBBY)
        return cancelled

    def listing(self) -> tuple[list[Challenge], list[dict[str, Any]]]:
        """The open challenges, and the games in progress that started here (newest first), each
        with its players' usernames by seat (None: no account)."""
        now = time.time()
        with self.store.db.transaction(write=False) as db:
            query = (
                f"SELECT {COLUMNS} FROM challenges WHERE game_id IS NULL AND cancelled = 0 AND expires > ?"
            )
            rows = db.execute(query + " ORDER BY created DESC LIMIT ?", (now, LISTED)).fetchall()
            challenges = [_challenge(row, _taken(db, row[0])) for row in rows]
            playing = db.execute(
                f"SELECT {', '.join('c.' + name for name in COLUMNS.split(', '))} FROM challenges c"
                " JOIN games g ON g.id = c.game_id WHERE g.over = 0 ORDER BY g.created DESC LIMIT ?",
                (LISTED,),
            ).fetchall()
            games = [_playing(_challenge(row, _taken(db, row[0]))) for row in playing]
        return challenges, games

    def version(self) -> int:
        """A number that changes whenever the lobby's lists do (for its live stream): every
        challenge posted, seat taken or cancellation, and every game from the lobby that ends."""
        query = (
            "SELECT (SELECT COUNT(*) + COALESCE(SUM(version), 0) FROM challenges),"
            " (SELECT COUNT(*) FROM challenges c JOIN games g ON g.id = c.game_id WHERE g.over = 1)"
        )
        with self.store.db.transaction(write=False) as db:
            changes, ended = db.execute(query).fetchone()
        return int(changes) + int(ended)


def _playing(challenge: Challenge) -> dict[str, Any]:
    view = challenge.view(time.time())
    return {
        "id": challenge.game_id,
        **{key: view[key] for key in ("game", "options", "clock", "rated", "seats", "taken", "players")},
    }


def _load(db: Connection, challenge_id: str) -> Challenge:
    row = db.execute(f"SELECT {COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)).fetchone()
    if row is None:
        raise NotFound(f"there is no challenge {challenge_id!r}")
    return _challenge(row, _taken(db, challenge_id))


def _taken(db: Connection, challenge_id: str) -> tuple[tuple[int, str | None], ...]:
    """The seats taken, each with its player's username (None without an account)."""
    query = (
        "SELECT seat, username FROM challenge_seats LEFT JOIN accounts ON accounts.id = account_id"
        " WHERE challenge_id = ? ORDER BY seat"
    )
    return tuple((int(seat), name) for seat, name in db.execute(query, (challenge_id,)).fetchall())


def _open(challenge: Challenge, now: float) -> Challenge:
    status = challenge.status(now)
    if status != "open":
        raise Conflict(f"this challenge is {status}: choose another one in the lobby")
    return challenge


def _not_seated(db: Connection, challenge: Challenge, token: str | None, account: str | None) -> None:
    """One person, one seat: by their seat token at this challenge, or by their account."""
    query = "SELECT seat FROM challenge_seats WHERE challenge_id = ? AND (token_hash = ? OR account_id = ?)"
    found = db.execute(query, (challenge.id, token_hash(token or ""), account)).fetchone()
    if (token is not None or account is not None) and found is not None:
        raise Conflict("you already have a seat at this challenge: wait for the other players")


def _rated_needs(rated: bool, account: str | None) -> None:
    if rated and account is None:
        raise Forbidden("rated games are between accounts: sign up or log in to post or accept one")


def _check_site_wide(db: Connection, account: str | None, now: float) -> None:
    """TooMany when the lobby holds ``LISTED`` open challenges, or ``ANONYMOUS`` without an
    account and this is one more: a flood cannot push real challenges off the lobby's list."""
    db.lock("challenges site-wide")  # two processes cannot both post the last one allowed
    (total, anonymous) = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN s.account_id IS NULL THEN 1 ELSE 0 END), 0)"
        " FROM challenges c JOIN challenge_seats s ON s.challenge_id = c.id AND s.host = 1"
        " WHERE c.cancelled = 0 AND c.game_id IS NULL AND c.expires > ?",
        (now,),
    ).fetchone()
    if total >= LISTED or (account is None and anonymous >= ANONYMOUS):
        whose = "" if account else " without an account (log in to post one)"
        raise TooMany(
            f"the lobby has as many open challenges{whose} as it shows: take one of them, or try "
            "again in a few minutes",
            retry_after=60,
        )


def _open_by(db: Connection, account: str | None, now: float) -> int:
    """The open challenges posted by ``account`` (0 without one)."""
    if account is None:
        return 0
    (count,) = db.execute(
        "SELECT COUNT(*) FROM challenges c JOIN challenge_seats s ON s.challenge_id = c.id"
        " WHERE s.account_id = ? AND s.host = 1 AND c.cancelled = 0 AND c.game_id IS NULL AND c.expires > ?",
        (account, now),
    ).fetchone()
    return int(count)


def _free_seat(challenge: Challenge, wanted: int | None) -> int:
    free = [seat for seat in range(challenge.seats) if seat not in challenge.taken]
    if wanted is None:
        return free[0]
    if wanted not in free:
        raise Conflict(
            f"seat {wanted + 1} is taken: the free seats are {', '.join(str(s + 1) for s in free)}"
        )
    return wanted


def _seat(
    db: Connection, challenge_id: str, seat: int, token: str, account: str | None, host: bool = False
) -> None:
    db.execute(
        "INSERT INTO challenge_seats (challenge_id, seat, token_hash, host, account_id)"
        " VALUES (?, ?, ?, ?, ?)",
        (challenge_id, seat, token_hash(token), int(host), account),
    )


def _next_version(db: Connection, challenge: Challenge, also: str = "") -> None:
    """Increment the version, on the condition that it is still the one read (else Conflict)."""
    changed = db.execute(
        f"UPDATE challenges SET {also}version = version + 1 WHERE id = ? AND version = ?",
        (challenge.id, challenge.version),
    ).rowcount
    if changed != 1:
        raise Conflict("the challenge changed meanwhile: look at the lobby again")
