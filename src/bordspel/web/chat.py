"""Each game's chat: one room for its players and one for its spectators, stored with the game.

- **Who reads what.** The players' room is read by the game's players only; the spectators'
  room by everyone else, and by the players' pages once the game is over (the page keeps the
  audience's hints from them; it is no secret: anyone who watches the game reads it).
- **Who writes.** A player (by seat token or account) in the players' room; a logged-in
  account that holds no seat of the game in the spectators' room (a message there carries the
  account's name). Anyone else is refused (403).
- **Limits.** A message is one line of 1 to ``MAX_LENGTH`` characters (line breaks and tabs
  become spaces; other control characters, lone surrogates and direction overrides are refused:
  400); ``BURST`` messages a writer per ``WINDOW`` seconds in a game (429 with Retry-After);
  ``ROOM_SIZE`` messages a room, ``WRITER_SHARE`` of them one writer's.
- **A player's choices.** ``off`` hides the chat from that seat and keeps it from writing;
  ``muted`` hides the other players' messages from it, in the page and in the record it asks
  for. Both are kept with the seat.
- **The record.** Nothing of the chat is in a game's record unless a player asks for it
  (``GET /api/games/{id}/record?chat=yes``): then the players' messages are comments on the
  moves they were written after.

Text is stored and sent as it was written; pages put it on the page as text, never as HTML.
Every message changes the key ``chat_key(game_id)``, which wakes the chat's live stream in
every process (``bordspel.web.fanout``: SQLite counts the messages, PostgreSQL and Redis
announce the key).
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bordspel.core import BordspelError
from bordspel.record import Game
from bordspel.web.db import Connection
from bordspel.web.fanout import CHAT_PREFIX
from bordspel.web.store import Forbidden, GameStore, NotFound, TooMany

__all__ = [
    "BURST",
    "MAX_LENGTH",
    "PLAYERS",
    "ROOM_SIZE",
    "SPECTATORS",
    "WINDOW",
    "WRITER_SHARE",
    "Chat",
    "ChatError",
    "Reader",
    "chat_key",
    "with_chat",
]

PLAYERS, SPECTATORS = "players", "spectators"
ROOMS = (PLAYERS, SPECTATORS)
MAX_LENGTH = 140
"""Characters a message holds at most."""
BURST, WINDOW = 5, 10
"""Messages one writer may send in a game within ``WINDOW`` seconds."""
ROOM_SIZE = 500
"""Messages a room holds at most (then it is full: 429)."""
WRITER_SHARE = ROOM_SIZE // 5
"""Messages one writer may have in a room: filling a room takes five writers, not one."""
SHOWN = 100
"""The newest messages of a room that a reader is sent."""
SPACES = re.compile(r"[\t\n\r\f\v\u2028\u2029]+")
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction overrides and isolates: they could turn the rest of a page's line around."""


class ChatError(BordspelError):
    """A message that cannot be sent as written (400)."""


def chat_key(game_id: str) -> str:
    """The live-update key of a game's chat."""
    return CHAT_PREFIX + game_id


@dataclass(frozen=True)
class Reader:
    """Who reads or writes: their seat in the game (None: not a player) and account (None: anonymous)."""

    seat: int | None
    account: str | None


class Chat:
    """The chats of the games in ``store``; ``clock`` tells the time (seconds since the epoch)."""

    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time) -> None:
        self.store, self.clock = store, clock

    def version(self, game_id: str) -> int:
        """The number of messages in the game's chat (changes with every message)."""
        with self.store.db.transaction(write=False) as db:
            _over(db, game_id)
            return _count(db, game_id)

    def read(self, game_id: str, reader: Reader) -> dict[str, Any]:
        """The rooms ``reader`` may read, each with its newest messages (the muted left out) and
        whether ``reader`` may write there; the reader's seat (``you``), settings and the limits."""
        with self.store.db.transaction(write=False) as db:
            over = _over(db, game_id)
            settings = None if reader.seat is None else _settings(db, game_id, reader.seat)
            rooms = {
                room: {"messages": _messages(db, game_id, room, reader.seat, settings), "can_write": writes}
                for room, writes in _rooms(reader, over, settings).items()
            }
        limits = {"length": MAX_LENGTH, "burst": BURST, "window": WINDOW}
        return {"rooms": rooms, "you": reader.seat, "settings": settings, "limits": limits}

    def write(self, game_id: str, room: str, text: str, reader: Reader) -> dict[str, Any]:
        """Store ``reader``'s message in ``room``; the message as stored."""
        line = clean(text)
        writer = f"seat:{reader.seat}" if reader.seat is not None else f"account:{reader.account}"
        with self.store.db.transaction() as db:
            db.lock(chat_key(game_id))  # the limits are counted one writer at a time
            over = _over(db, game_id)
            settings = None if reader.seat is None else _settings(db, game_id, reader.seat)
            if not _rooms(reader, over, settings).get(room, False):
                raise Forbidden(_refusal(room, reader, settings))
            now = self.clock()
            _check_pace(db, game_id, room, writer, now)
            message = _insert(db, game_id, room, writer, line, reader, now)
            db.notify(chat_key(game_id))
        self.store.publish(chat_key(game_id))
        return message

    def choose(self, game_id: str, seat: int | None, off: bool | None, muted: bool | None) -> dict[str, bool]:
        """Set a player's ``off`` and ``muted`` (None: unchanged); the settings now."""
        if seat is None:
            raise Forbidden("only a player of this game has chat settings")
        with self.store.db.transaction() as db:
            _over(db, game_id)
            for column, value in (("chat_off", off), ("chat_muted", muted)):
                if value is not None:
                    query = f"UPDATE seats SET {column} = ? WHERE game_id = ? AND seat = ?"
                    db.execute(query, (int(value), game_id, seat))
            return _settings(db, game_id, seat)

    def transcript(self, game_id: str, seat: int) -> list[tuple[int, str]]:
        """The players' messages as player ``seat`` reads them (its own only when it muted the
        others; Forbidden when it turned the chat off), oldest first: the ply each was written at
        and ``name: text``."""
        query = (
            "SELECT ply, seat, name, text FROM chat_messages WHERE game_id = ? AND room = ?"
            " ORDER BY created, id"
        )
        with self.store.db.transaction(write=False) as db:
            settings = _settings(db, game_id, seat)
            rows = db.execute(query, (game_id, PLAYERS)).fetchall()
        if settings["off"]:
            raise Forbidden("you turned the chat off: turn it on to add it to the record")
        return [
            (int(ply), f"{name or f'Seat {author + 1}'}: {text}")
            for ply, author, name, text in rows
            if not settings["muted"] or author == seat
        ]


def clean(text: str) -> str:
    """``text`` as one line of 1 to ``MAX_LENGTH`` characters; ChatError if it cannot be."""
    line = SPACES.sub(" ", text).strip()
    if not line:
        raise ChatError("write something first")
    if len(line) > MAX_LENGTH:
        raise ChatError(f"a message holds at most {MAX_LENGTH} characters, not {len(line)}")
    if any(unicodedata.category(char) in ("Cc", "Cs") or char in BIDI for char in line):
        raise ChatError("a message cannot hold control characters")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in line):
        raise ChatError("write something that shows: a letter, a digit, a sign or an emoji")
    return line


def with_chat(game: Game, transcript: list[tuple[int, str]]) -> None:
    """Put ``transcript`` in ``game`` as comments on the moves its messages were written after."""
    nodes = [game.root, *game.root.mainline()]
    for ply, line in transcript:
        node = nodes[min(ply, len(nodes) - 1)]
        node.comment = f"{node.comment} | {line}" if node.comment else line


def _over(db: Connection, game_id: str) -> bool:
    row = db.execute("SELECT over FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound(f"there is no game {game_id!r}")
    return bool(row[0])


def _count(db: Connection, game_id: str) -> int:
    (count,) = db.execute("SELECT COUNT(*) FROM chat_messages WHERE game_id = ?", (game_id,)).fetchone()
    return int(count)


def _settings(db: Connection, game_id: str, seat: int) -> dict[str, bool]:
    query = "SELECT chat_off, chat_muted FROM seats WHERE game_id = ? AND seat = ?"
    off, muted = db.execute(query, (game_id, seat)).fetchone()
    return {"off": bool(off), "muted": bool(muted)}


def _rooms(reader: Reader, over: bool, settings: dict[str, bool] | None) -> dict[str, bool]:
    """The rooms ``reader`` reads, each with whether they may write there."""
    if reader.seat is None:
        return {SPECTATORS: reader.account is not None}
    assert settings is not None
    if settings["off"]:
        return {}
    return {PLAYERS: True, SPECTATORS: False} if over else {PLAYERS: True}


def _refusal(room: str, reader: Reader, settings: dict[str, bool] | None) -> str:
    if room not in ROOMS:
        return f"a game's chat rooms are {' and '.join(ROOMS)}"
    if reader.seat is None:
        return "only the players write in the players' chat" if room == PLAYERS else "log in to chat"
    if settings and settings["off"]:
        return "you turned the chat off: turn it on to write"
    return "the players write in the players' chat only"


def _messages(
    db: Connection, game_id: str, room: str, seat: int | None, settings: dict[str, bool] | None
) -> list[dict[str, Any]]:
    query = (
        "SELECT id, seat, name, text, created FROM chat_messages WHERE game_id = ? AND room = ?"
        " ORDER BY created DESC, id DESC LIMIT ?"
    )
    rows = db.execute(query, (game_id, room, SHOWN)).fetchall()
    muted = settings is not None and settings["muted"]
    shown = [row for row in reversed(rows) if not (muted and room == PLAYERS and row[1] != seat)]
    return [
        {"id": key, "seat": author, "name": name, "text": text, "at": created}
        for key, author, name, text, created in shown
    ]


def _check_pace(db: Connection, game_id: str, room: str, writer: str, now: float) -> None:
    query = "SELECT COUNT(*) FROM chat_messages WHERE game_id = ? AND writer = ? AND created > ?"
    (recent,) = db.execute(query, (game_id, writer, now - WINDOW)).fetchone()
    if recent >= BURST:
        raise TooMany(f"at most {BURST} messages in {WINDOW} seconds: wait a moment", retry_after=WINDOW)
    query = "SELECT COUNT(*) FROM chat_messages WHERE game_id = ? AND room = ? AND writer = ?"
    (own,) = db.execute(query, (game_id, room, writer)).fetchone()
    if own >= WRITER_SHARE:
        raise TooMany(f"you wrote {WRITER_SHARE} messages here, a writer's most", retry_after=3600)
    query = "SELECT COUNT(*) FROM chat_messages WHERE game_id = ? AND room = ?"
    (held,) = db.execute(query, (game_id, room)).fetchone()
    if held >= ROOM_SIZE:
        raise TooMany(f"this chat is full ({ROOM_SIZE} messages)", retry_after=3600)


def _insert(
    db: Connection, game_id: str, room: str, writer: str, text: str, reader: Reader, now: float
) -> dict[str, Any]:
    (ply,) = db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
    key, name = secrets.token_urlsafe(12), _name(db, game_id, reader)
    db.execute(
        "INSERT INTO chat_messages (id, game_id, room, writer, seat, name, text, ply, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (key, game_id, room, writer, reader.seat, name, text, int(ply), now),
    )
    return {"id": key, "seat": reader.seat, "name": name, "text": text, "at": now}


def _name(db: Connection, game_id: str, reader: Reader) -> str | None:
    """A player's name is their seat's account's (None: anonymous), a spectator's their account's."""
    if reader.seat is not None:
        query = (
            "SELECT username FROM seats LEFT JOIN accounts ON accounts.id = account_id"
            " WHERE game_id = ? AND seat = ?"
        )
        row = db.execute(query, (game_id, reader.seat)).fetchone()
    else:
        row = db.execute("SELECT username FROM accounts WHERE id = ?", (reader.account,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])
