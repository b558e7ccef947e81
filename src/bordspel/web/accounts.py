"""Accounts: usernames, passwords hashed with argon2, sessions in signed cookies, abuse limits.

Accounts are optional: anyone plays at once with seat tokens. An account's password is kept as
an argon2id hash (``argon2-cffi``, parameters from its profile ``RFC_9106_LOW_MEMORY``), and a new
password must not be easy to guess (``zxcvbn``, Dropbox's strength estimator: common passwords,
repeats, keyboard walks, the username); a log-in
opens a session, a row in the store whose id the browser holds in an HttpOnly, SameSite cookie
signed (``itsdangerous``) with the server's secret, so that logging out ends it everywhere and
every process that serves the store knows it. The secret is given by ``--secret`` (or
``BORDSPEL_SECRET``) or made once and kept in the store.

Limits, counted in the store (so they hold across processes): sign-ups per address an hour;
wrong passwords a quarter of an hour per address and per (account, address), and for an account
from anywhere a slow-down rather than a lock (as OWASP's guidance on brute force and lichess
do): past ``failures_per_account`` wrong guesses in a quarter of an hour, the account takes one
guess every ``account_spacing`` seconds, except from a browser that logged in to it before (its
signed *device cookie*, OWASP's "device cookies"), so an attacker cannot lock its owner out.
Every guess is counted before its password is checked, in one write transaction that holds the
locks of its counters, so parallel guesses never check more passwords than the limits allow;
``Retry-After`` says when the oldest counted guess leaves its window.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

import argon2
import zxcvbn
from itsdangerous import BadSignature, Signer

from bordspel.core import BordspelError
from bordspel.web.db import Connection
from bordspel.web.store import Forbidden, GameStore, TooMany, creator_hash

__all__ = [
    "COOKIE",
    "DEVICE_COOKIE",
    "RESERVED",
    "Account",
    "Accounts",
    "BadAccount",
    "Counters",
    "Limits",
    "Throttled",
    "check_password",
    "check_username",
    "server_secret",
]

COOKIE = "bordspel_session"
"""The session cookie's name."""
DEVICE_COOKIE = "bordspel_device"
"""The cookie of a browser that logged in to an account: its guesses are not slowed down."""
DEVICE_DAYS = 365
SESSION_DAYS = 30
"""How long a session lasts after the log-in."""
USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
RESERVED = frozenset(
    {
        *("admin", "administrator", "root", "system", "bordspel", "api", "static", "games", "players"),
        *("player", "account", "session", "lobby", "moderator", "support", "help", "anonymous"),
        *("guest", "computer", "human", "nobody", "null", "undefined", "you", "me"),
        *("easy", "medium", "hard", "perfect", "random", "greedy"),
    }
)
"""Usernames nobody may take (case-insensitive): the site's own words and the computer's levels."""
PASSWORD_LENGTH = (8, 256)
STRENGTH = 2
"""The least zxcvbn score a new password needs (0-4; 2: "somewhat guessable", safe against
throttled online guessing, which is what the log-in limits leave an attacker)."""
STRENGTH_CHECKED = 32
"""The characters of a password zxcvbn rates: its time grows fast with the length (a 72-character
password of look-alike substitutions took 2.2 s, 32 characters 0.6 s), and 32 characters of a
password are plenty for a strength score."""
FAILURE_WINDOW = 15 * 60.0


class BadAccount(BordspelError):
    """A username or password the site does not accept (400), or a wrong log-in (403)."""


class Throttled(TooMany):
    """Too many wrong passwords (429); ``retry_after`` is when the next guess counts again."""

    def __init__(self, reason: str, seconds: float) -> None:
        wait = max(1, math.ceil(seconds))
        super().__init__(f"{reason}: try again in {wait} s", retry_after=wait)


@dataclass(frozen=True)
class Counters:
    """The counters of one log-in's guesses: its address, the account from that address, the account."""

    pair: str
    address: str
    account: str

    @classmethod
    def of(cls, username: str, address: str) -> Counters:
        """The counters of a guess at ``username`` from ``address``."""
        name, who = username.lower()[:40], creator_hash(address)
        return cls(f"pair {name} {who}", f"address {who}", f"name {name}")


@dataclass(frozen=True)
class Account:
    """An account: its id (never shown) and its username."""

    id: str
    username: str


@dataclass(frozen=True)
class Limits:
    """How often one address may sign up, and how many wrong passwords are let through (None: no
    limit)."""

    signups_per_hour: int | None = None
    failures_per_pair: int | None = 10
    """Wrong passwords for one account from one address, a quarter of an hour."""
    failures_per_address: int | None = 50
    """Wrong passwords from one address for any accounts, a quarter of an hour."""
    failures_per_account: int | None = 10
    """Wrong passwords for one account from anywhere before its guesses are slowed down."""
    account_spacing: float = 10.0
    """Seconds between two guesses at a slowed-down account (not from its devices)."""


def check_username(name: object) -> str:
    """``name`` when it is a username the site accepts: 3-20 letters, digits, ``_`` or ``-``,
    starting with a letter, and not reserved in any case, with ``_`` and ``-`` or digits at the
    end (``ADMIN-``, ``Admin_1`` are ``admin``)."""
    if not isinstance(name, str) or not USERNAME.fullmatch(name):
        raise BadAccount("a username has 3 to 20 letters, digits, _ or -, and starts with a letter")
    if name.lower() in RESERVED or _bare(name) in RESERVED:
        raise BadAccount(f"the username {name!r} is reserved (it reads as {_bare(name)!r}): choose another")
    return name


def _bare(name: str) -> str:
    """``name`` in lower case without ``_``, ``-`` and digits at its end."""
    return re.sub(r"[0-9]+$", "", name.lower().replace("_", "").replace("-", ""))


def check_password(password: object, username: object = None) -> str:
    """``password`` when it has 8 to 256 characters and zxcvbn rates it at least ``STRENGTH``
    (not a common password, a repeat, a keyboard walk, nor the username)."""
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise BadAccount(f"a password has {low} to {high} characters")
    rated = zxcvbn.zxcvbn(
        password[:STRENGTH_CHECKED], user_inputs=[username] if isinstance(username, str) else []
    )
    if int(rated["score"]) < STRENGTH:
        warning = str(rated["feedback"]["warning"] or "").rstrip(".")
        why = f": {warning[0].lower()}{warning[1:]}" if warning else ""
        raise BadAccount(
            f"that password is too easy to guess{why}. Use a few unusual words together, not your username"
        )
    return password


def server_secret(store: GameStore) -> str:
    """The secret kept in the store, made by the first process that asks."""
    with store.db.transaction() as db:
        db.execute(
            "INSERT INTO server_secrets (name, value) VALUES ('session', ?) ON CONFLICT (name) DO NOTHING",
            (secrets.token_urlsafe(32),),
        )
        (value,) = db.execute("SELECT value FROM server_secrets WHERE name = 'session'").fetchone()
    return str(value)


def _id_hash(session: str) -> str:
    return hashlib.sha256(f"bordspel session {session}".encode()).hexdigest()


class Accounts:
    """Sign-up, log-in and sessions over the game store."""

    def __init__(
        self, store: GameStore, secret: str, limits: Limits, cost: str = "RFC_9106_LOW_MEMORY"
    ) -> None:
        self.store = store
        self.limits = limits
        self.hasher = argon2.PasswordHasher.from_parameters(getattr(argon2.profiles, cost))
        self.signer = Signer(secret, salt="bordspel session")
        self.device_signer = Signer(secret, salt="bordspel device")
        self._unknown = self.hasher.hash(secrets.token_urlsafe(16))
        """A hash to check a password against when the username is unknown (the same work)."""

    # -- the cookie ------------------------------------------------------------------------------
    def cookie(self, session: str) -> str:
        """The cookie's value for ``session``: its id, signed."""
        return self.signer.sign(session).decode()

    def session_of(self, cookie: str | None) -> str | None:
        """The session id in a cookie, when its signature is the server's."""
        return _unsigned(self.signer, cookie)

    # -- accounts and sessions -------------------------------------------------------------------
    def sign_up(self, username: object, password: object, address: str) -> tuple[Account, str]:
        """A new account and its first session (``check_sign_up``, the hash, ``add_account``)."""
        name, secret = self.check_sign_up(username, password, address)
        return self.add_account(name, self.hasher.hash(secret), address)

    def check_sign_up(self, username: object, password: object, address: str) -> tuple[str, str]:
        """The name and password of a sign-up that may go on to the (costly) hash: BadAccount for
        a bad or taken name or a bad password, TooMany past the sign-ups an address may make in an
        hour (both checked again as the account is added)."""
        name = check_username(username)
        with self.store.db.transaction(write=False) as db:
            self._count_signups(db, creator_hash(address))
            if db.execute("SELECT 1 FROM accounts WHERE name_key = ?", (name.lower(),)).fetchone():
                raise BadAccount(f"the username {name!r} is taken: choose another")
        return name, check_password(password, username)  # the strength check costs most: last

    def add_account(self, name: str, hashed: str, address: str) -> tuple[Account, str]:
        """The account ``name`` with password hash ``hashed``, and its first session."""
        account = Account(secrets.token_urlsafe(12), name)
        with self.store.db.transaction() as db:
            db.lock(f"signups {creator_hash(address)}")  # two processes cannot both take the last one
            self._count_signups(db, creator_hash(address))
            added = db.execute(
                "INSERT INTO accounts (id, username, name_key, password, created, creator) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING",
                (account.id, name, name.lower(), hashed, time.time(), creator_hash(address)),
            ).rowcount
            if added != 1:
                raise BadAccount(f"the username {name!r} is taken: choose another")
            return account, _open_session(db, account)

    def _count_signups(self, db: Connection, who: str) -> None:
        limit = self.limits.signups_per_hour
        if limit is None:
            return
        query = "SELECT COUNT(*) FROM accounts WHERE creator = ? AND created > ?"
        (recent,) = db.execute(query, (who, time.time() - 3600)).fetchone()
        if recent >= limit:
            raise TooMany(f"at most {limit} new accounts an hour from one address: try again later")

    def log_in(
        self, username: object, password: object, address: str, device: str | None = None
    ) -> tuple[Account, str]:
        """A new session for the account; Forbidden (403) for a wrong name or password, Throttled
        (429) past the limits on wrong passwords (``device``: the browser's device cookie)."""
        if (
            not isinstance(username, str)
            or not isinstance(password, str)
            or len(password) > PASSWORD_LENGTH[1]
        ):
            raise BadAccount("give 'username' and 'password' as text")
        if not USERNAME.fullmatch(username):  # no account has such a name: nothing to look up
            raise Forbidden("wrong username or password")
        counters = Counters.of(username, address)
        counted, row = self._count_guess(username, counters, device)
        if not self._verified(row[2] if row else self._unknown, password) or row is None:
            raise Forbidden("wrong username or password")  # the guess stays counted
        account = Account(row[0], row[1])
        with self.store.db.transaction() as db:
            marks = ", ".join("?" * len(counted))
            db.execute(
                f"DELETE FROM attempts WHERE created = ? AND who IN ({marks})",
                (counted[0][1], *[key for key, _ in counted]),
            )
            return account, _open_session(db, account)

    def _count_guess(
        self, username: str, counters: Counters, device: str | None
    ) -> tuple[list[tuple[str, float]], Any]:
        """Count a guess at ``username`` before its password is checked (Throttled past a limit):
        the counters' rows written, and the account's row (None: no such account)."""
        now = time.time()
        with self.store.db.transaction() as db:
            for key in sorted((counters.pair, counters.address, counters.account)):
                db.lock(key)  # parallel guesses on the same counters take turns
            db.execute("DELETE FROM attempts WHERE created < ?", (now - FAILURE_WINDOW,))
            row = db.execute(
                "SELECT id, username, password FROM accounts WHERE name_key = ?", (username.lower(),)
            ).fetchone()
            trusted = row is not None and self.device_account(device) == row[0]
            self._check_guesses(db, counters, trusted, now)
            keys = [counters.pair, counters.address] + ([] if trusted else [counters.account])
            counted = [(key, now) for key in keys]
            db.executemany("INSERT INTO attempts (who, created) VALUES (?, ?)", counted)
        return counted, row

    def _check_guesses(self, db: Connection, counters: Counters, trusted: bool, now: float) -> None:
        since = now - FAILURE_WINDOW
        limits = self.limits
        for key, limit, whose in (
            (counters.pair, limits.failures_per_pair, "for this account from your address"),
            (counters.address, limits.failures_per_address, "from your address"),
        ):
            if limit is not None:
                _check_count(
                    db, key, limit, since, f"too many wrong passwords {whose} ({limit} in 15 minutes)"
                )
        if trusted or limits.failures_per_account is None:
            return
        (failed, last) = db.execute(
            "SELECT COUNT(*), MAX(created) FROM attempts WHERE who = ? AND created > ?",
            (counters.account, since),
        ).fetchone()
        wait = (last or 0) + limits.account_spacing - now
        if failed >= limits.failures_per_account and wait > 0:
            raise Throttled(
                f"too many wrong passwords for this account lately, so it takes one guess every "
                f"{limits.account_spacing:g} s (not from a browser that logged in to it before)",
                wait,
            )

    def device_cookie(self, account: Account) -> str:
        """The device cookie's value for a browser that logged in to ``account``."""
        return self.device_signer.sign(account.id).decode()

    def device_account(self, cookie: str | None) -> str | None:
        """The account id of a device cookie signed by this server (None: none, or forged)."""
        return _unsigned(self.device_signer, cookie)

    def _verified(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except argon2.exceptions.VerificationError:
            return False

    def account_of(self, session: str | None) -> Account | None:
        """The account of a session id, while the session lasts."""
        if session is None:
            return None
        since = time.time() - SESSION_DAYS * 86400
        with self.store.db.transaction(write=False) as db:
            row = db.execute(
                "SELECT accounts.id, username FROM sessions JOIN accounts ON accounts.id = account_id "
                "WHERE id_hash = ? AND sessions.created > ?",
                (_id_hash(session), since),
            ).fetchone()
        return None if row is None else Account(row[0], row[1])

    def log_out(self, session: str | None) -> None:
        """End the session (nothing when there is none)."""
        if session is not None:
            with self.store.db.transaction() as db:
                db.execute("DELETE FROM sessions WHERE id_hash = ?", (_id_hash(session),))

    def find(self, username: str) -> Account | None:
        """The account with this username (any case), if there is one."""
        if "\x00" in username:  # no text column holds one (PostgreSQL refuses it)
            return None
        with self.store.db.transaction(write=False) as db:
            row = db.execute(
                "SELECT id, username FROM accounts WHERE name_key = ?", (username.lower()[:40],)
            ).fetchone()
        return None if row is None else Account(row[0], row[1])


def _unsigned(signer: Signer, cookie: str | None) -> str | None:
    """A cookie's value, when ``signer`` signed it (None: no cookie, too long, or forged)."""
    if not cookie or len(cookie) > 200:
        return None
    try:
        return signer.unsign(cookie).decode()
    except BadSignature:
        return None


def _check_count(db: Connection, key: str, limit: int, since: float, reason: str) -> None:
    """Throttled when counter ``key`` has ``limit`` guesses since ``since``, for as long as it
    takes the oldest of them that keeps it at the limit to leave the window."""
    (failed,) = db.execute(
        "SELECT COUNT(*) FROM attempts WHERE who = ? AND created > ?", (key, since)
    ).fetchone()
    if failed >= limit:
        (oldest,) = db.execute(
            "SELECT created FROM attempts WHERE who = ? AND created > ? ORDER BY created LIMIT 1 OFFSET ?",
            (key, since, failed - limit),
        ).fetchone()
        raise Throttled(reason, oldest - since)


def _open_session(db: Connection, account: Account) -> str:
    """A new session of the account (and its expired ones gone)."""
    session = secrets.token_urlsafe(32)
    expired = time.time() - SESSION_DAYS * 86400
    db.execute("DELETE FROM sessions WHERE account_id = ? AND created < ?", (account.id, expired))
    db.execute(
        "INSERT INTO sessions (id_hash, account_id, created) VALUES (?, ?, ?)",
        (_id_hash(session), account.id, time.time()),
    )
    return session
