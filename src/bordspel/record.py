"""Games in progress (moves, undo) and game records in a PGN-like text format.

A record is tag pairs, a blank line, then the moves numbered by round::

    [Game "santorini"]
    [Start "00000/00000/00000/00000/00000 workers=-,- turn=1 players=2"]
    [Result "1-0"]

    1. b2d4 c3c4 2. b2b3c2 c3d3e3 ...

``Start`` is the lossless position string of the first position, so it carries every game
option. Any other tags are kept as they are. Comments in ``{}`` are skipped when reading.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

from bordspel.core import BordspelError, Outcome, State, game_class

__all__ = ["MAX_RECORD", "Game", "RecordError"]

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_RESULT = re.compile(r"^(\*|(?:1/2|1|0)(?:-(?:1/2|1|0))+)$")
_NUMBER = re.compile(r"^\d+\.$")
MAX_RECORD = 1_000_000
"""The longest record read, in characters (a long Santorini game takes a few thousand)."""


class RecordError(BordspelError):
    """A record that cannot be read; the message names the line."""


class Game:
    """A game being played: its start, the moves so far, undo, and its record."""

    def __init__(self, start: State, tags: dict[str, str] | None = None) -> None:
        self.start = start
        self.tags: dict[str, str] = dict(tags or {})
        self.moves: list[Any] = []
        self.states: list[State] = [start]

    @classmethod
    def new(cls, game: str, **options: Any) -> Game:
        """A new game of the registered ``game`` with its options."""
        return cls(game_class(game).initial(**options))

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    def play(self, move: Any) -> Any:
        """Play a move (a move value or its text); refused moves raise and change nothing."""
        state = self.state
        if isinstance(move, str):
            move = state.parse_move(move)
            following = state.apply_unchecked(move)
        else:
            following = state.apply(move)
        self.moves.append(move)
        self.states.append(following)
        return move

    def undo(self) -> Any:
        """Take back the last move and return it."""
        if not self.moves:
            raise BordspelError("there is no move to undo")
        self.states.pop()
        return self.moves.pop()

    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    # -- records ---------------------------------------------------------------------------
    def to_record(self) -> str:
        outcome = self.outcome()
        result = outcome.result_str() if outcome else "*"
        tags = {"Game": self.start.name, "Start": self.start.to_str(), **self.tags, "Result": result}
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
        return "\n".join([*lines, "", _movetext(self.moves, self.start.num_players, result), ""])

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Read a record; a malformed one raises RecordError naming the line."""
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        if len(text) > MAX_RECORD:
            raise RecordError(f"a record is at most {MAX_RECORD} characters long, not {len(text)}")
        tags: dict[str, str] = {}
        moves: list[tuple[int, str]] = []
        result = None
        for number, line in enumerate(_strip_comments(text).split("\n"), 1):
            line = line.strip()
            if line.startswith("["):
                if moves:
                    raise RecordError(f"line {number}: tags must come before the moves")
                match = _TAG.match(line)
                if not match:
                    raise RecordError(f'line {number}: a tag is written [Name "value"], not {line!r}')
                tags[match[1]] = _unescape(match[2])
                continue
            for token in line.split():
                if _NUMBER.match(token):
                    continue
                if _RESULT.match(token):
                    result = token
                    continue
                moves.append((number, token))
        game = cls(
            _start_position(tags), {k: v for k, v in tags.items() if k not in ("Game", "Start", "Result")}
        )
        for number, token in moves:
            try:
                game.play(token)
            except BordspelError as error:
                raise RecordError(f"line {number}: {error}") from None
        _check_result(game, tags.get("Result", result))
        return game

    @classmethod
    def read(cls, path: str | Path) -> Game:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a UTF-8 text file") from None
        return cls.from_record(text)

    def write(self, path: str | Path) -> None:
        """Write the record; the old file stays whole until the new one is complete."""
        target = Path(path)
        handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(self.to_record())
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise


def _start_position(tags: dict[str, str]) -> State:
    if "Game" not in tags:
        raise RecordError('line 1: a record starts with a [Game "..."] tag')
    try:
        cls = game_class(tags["Game"])
        return cls.from_str(tags["Start"]) if "Start" in tags else cls.initial()
    except BordspelError as error:
        raise RecordError(f"tags: {error}") from None


def _check_result(game: Game, result: str | None) -> None:
    outcome = game.outcome()
    actual = outcome.result_str() if outcome else "*"
    if result is not None and result != actual:
        raise RecordError(f"the record says the result is {result}, but its moves give {actual}")


def _movetext(moves: list[Any], players: int, result: str) -> str:
    tokens = []
    for index, move in enumerate(moves):
        if index % players == 0:
            tokens.append(f"{index // players + 1}.")
        tokens.append(move.to_str())
    tokens.append(result)
    lines, current = [], ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > 79:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    return "\n".join([*lines, current])


def _strip_comments(text: str) -> str:
    """Remove ``{...}`` comments, keeping line breaks so that line numbers stay right."""
    kept: list[str] = []
    end = 0
    while (start := text.find("{", end)) >= 0:
        kept.append(text[end:start])
        end = text.find("}", start)
        if end < 0:
            line = text.count("\n", 0, start) + 1
            raise RecordError(f"line {line}: a comment opened with {{ is never closed with }}")
        kept.append("\n" * text.count("\n", start, end))
        end += 1
    kept.append(text[end:])
    return "".join(kept)


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"n": "\n", "r": "\r"}


def _escape(value: str) -> str:
    """A tag value on one line: backslash, quote and line breaks escaped."""
    return re.sub(r'[\\"\n\r]', lambda m: _ESCAPES[m[0]], value)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m[1], m[1]), value)
