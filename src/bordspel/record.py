"""Game records in a PGN-like text format: a game tree with variations and comments.

A record is tag pairs, a blank line, then the moves numbered by round:

    [Game "santorini"]
    [Start "00000/00000/00000/00000/00000 workers=-,- turn=1 players=2"]
    [Result "1-0"]

    {A quiet start.} 1. b2d4 c3c4 {threatens d3} (1... c3c2 2. b2c2) 2. b2b3c2 $1 c3d3e3 ...

``Start`` is the lossless position string of the first position, so it carries every game
option. Any other tags are kept as they are. A comment in ``{}`` belongs to the move before it
(before the first move: to the game; just after ``(``: to the first move of that variation); so
does a ``;`` comment, which runs to the end of its line (as in PGN; it is written back in ``{}``).
A variation in ``()`` is an alternative to the move just before it and may hold variations of
its own. ``$n`` is a numeric annotation of the move before it (as in PGN).

A file holds any number of records one after the other. ``read_games`` reads them one at a
time, so a file of any size is read with the memory of one game; ``write_games`` writes them.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from bordspel.core import BordspelError, Outcome, State, game_class

__all__ = [
    "MAX_NAG",
    "MAX_RECORD",
    "MAX_VARIATION_DEPTH",
    "Game",
    "GameNode",
    "RecordError",
    "RecordReader",
    "read_games",
    "write_games",
]

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_RESULT = re.compile(r"^(\*|(?:1/2|1|0)(?:-(?:1/2|1|0))+)$")
_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$")
_NAG = re.compile(r"^\$(\d{1,3})$")
_TOKEN = re.compile(r"[(){};]|[^\s(){};]+")
MAX_RECORD = 1_000_000
"""The longest record read, in characters (a long Santorini game takes a few thousand)."""
MAX_VARIATION_DEPTH = 100
"""How deep variations may nest inside variations in a record that is read."""
MAX_NAG = 255
"""The largest numeric annotation ``$n`` (PGN's range)."""


class RecordError(BordspelError):
    """A record that cannot be read; the message names the line."""


class GameNode:
    """A position in a game tree: the move that led here, its comments, and the moves after it.

    ``variations[0]`` continues the main line; the other variations are alternatives to it.
    """

    __slots__ = ("comment", "move", "nags", "parent", "ply", "starting_comment", "state", "variations")

    def __init__(self, state: State, move: Any = None, parent: GameNode | None = None) -> None:
        self.state = state
        self.move = move
        self.parent = parent
        self.ply: int = 0 if parent is None else parent.ply + 1
        """The number of moves from the start of the game to this position."""
        self.comment = ""
        """The comment after the move (at the start of the game: the comment on the game)."""
        self.starting_comment = ""
        """The comment before the move; written when the move starts a variation."""
        self.nags: set[int] = set()
        """The move's numeric annotations (``$1`` is a good move, ``$2`` a mistake, as in PGN)."""
        self.variations: list[GameNode] = []

    def __repr__(self) -> str:
        move = "start" if self.parent is None else self.move.to_str()
        return f"<GameNode ply={self.ply} {move} {self.state.to_str()!r}>"

    def add_variation(self, move: Any, *, comment: str = "", starting_comment: str = "") -> GameNode:
        """Add ``move`` (a move or its text) as the last variation from here and return its node.

        A refused move raises (an IllegalMoveError or NotationError) and changes nothing.
        """
        if isinstance(move, str):
            move = self.state.parse_move(move)
            following = self.state.apply_unchecked(move)
        else:
            following = self.state.apply(move)
        node = GameNode(following, move, self)
        node.comment, node.starting_comment = comment, starting_comment
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Any, *, comment: str = "") -> GameNode:
        """Add ``move`` as the main continuation from here; the old one becomes an alternative."""
        node = self.add_variation(move, comment=comment)
        node.promote_to_main()
        return node

    def next(self) -> GameNode | None:
        """The main continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def is_main_variation(self) -> bool:
        """Whether this node is the main continuation of its parent (the start always is)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether this node lies on the game's main line."""
        node: GameNode | None = self
        while node is not None:
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def promote_to_main(self) -> None:
        """Make this node its parent's main continuation."""
        if self.parent is not None:
            self.parent.variations.remove(self)
            self.parent.variations.insert(0, self)

    def remove_variation(self, node: GameNode) -> None:
        """Remove the variation that starts with ``node`` (raises BordspelError if it is none)."""
        if not any(child is node for child in self.variations):
            raise BordspelError("that node is not a variation of this one")
        self.variations = [child for child in self.variations if child is not node]


class Game:
    """A game record: tags and a tree of moves, with the main line played and undone at its end."""

    def __init__(self, start: State, tags: dict[str, str] | None = None) -> None:
        self.root = GameNode(start)
        """The start of the game tree (its ``comment`` is the comment on the whole game)."""
        self.tags: dict[str, str] = dict(tags or {})
        self.ending: Outcome | None = None
        """An end the moves do not reach (a resignation, a flag fall, a draw agreed): its
        ``termination`` is written as the ``Termination`` tag, its result as the record's."""

    @classmethod
    def new(cls, game: str, **options: Any) -> Game:
        """A new game of the registered ``game`` with its options."""
        return cls(game_class(game).initial(**options))

    @property
    def start(self) -> State:
        """The first position."""
        return self.root.state

    @property
    def moves(self) -> list[Any]:
        """The moves of the main line."""
        return [node.move for node in self.root.mainline()]

    @property
    def states(self) -> list[State]:
        """The positions of the main line, from the start to the current position."""
        return [self.root.state, *(node.state for node in self.root.mainline())]

    @property
    def state(self) -> State:
        """The current position: the end of the main line."""
        return self.end().state

    def end(self) -> GameNode:
        """The last node of the main line."""
        return self.root.end()

    def play(self, move: Any) -> Any:
        """Play a move (a move value or its text); refused moves raise and change nothing."""
        return self.end().add_variation(move).move

    def undo(self) -> Any:
        """Take back the last move of the main line, with the alternatives to it, and return it."""
        last = self.end()
        if last.parent is None:
            raise BordspelError("there is no move to undo")
        last.parent.variations = []
        return last.move

    def outcome(self) -> Outcome | None:
        """The outcome at the end of the main line, else ``ending`` (None while the game goes on)."""
        return self.state.outcome() or self.ending

    # -- records ---------------------------------------------------------------------------
    def to_record(self) -> str:
        """The record text: tags, a blank line, the move tree and the result."""
        outcome = self.outcome()
        result = outcome.result_str() if outcome else "*"
        tags = {"Game": self.start.name, "Start": self.start.to_str(), **self.tags}
        if outcome is not None and outcome is self.ending:
            tags["Termination"] = outcome.termination
        tags["Result"] = result
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
        movetext = _MovetextWriter(self.start.num_players).write(self.root, result)
        return "\n".join([*lines, "", movetext, ""])

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Read a record of one game; a malformed one raises RecordError naming the line."""
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        if len(text) > MAX_RECORD:
            raise RecordError(f"a record is at most {MAX_RECORD} characters long, not {len(text)}")
        reader = RecordReader(io.StringIO(text))
        game = reader.read_game()
        if game is None:
            raise RecordError('line 1: a record starts with a [Game "..."] tag')
        if reader.next_game_line is not None:
            raise RecordError(
                f"line {reader.next_game_line}: a second game starts here; read_games() reads several"
            )
        return game

    @classmethod
    def read(cls, path: str | Path) -> Game:
        """Read the record of one game from a UTF-8 file (RecordError if it cannot)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a UTF-8 text file") from None
        return cls.from_record(text)

    def write(self, path: str | Path) -> None:
        """Write the record; the old file stays whole until the new one is complete."""
        write_games(path, [self])


# -- reading -----------------------------------------------------------------------------------
class RecordReader:
    """Reads the games of a text file object one at a time, holding one game in memory.

    After a RecordError the reader skips to the next game, so reading can go on.
    """

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle
        self._ahead: tuple[int, str] | None = None
        self._lines = 0
        self._broken = False

    def __iter__(self) -> Iterator[Game]:
        while (game := self.read_game()) is not None:
            yield game

    @property
    def next_game_line(self) -> int | None:
        """The line where the next game starts, once the game before it has been read."""
        return None if self._ahead is None else self._ahead[0]

    def read_game(self) -> Game | None:
        """The next game, or None at the end of the file; a malformed game raises RecordError."""
        parser = _GameParser()
        try:
            while (entry := self._next_line(parser.budget)) is not None:
                if parser.starts_next_game(entry[1]):
                    self._ahead = entry
                    break
                parser.feed(*entry)
            return parser.finish()
        except RecordError:
            self._skip_game(parser.in_movetext)
            raise

    def _next_line(self, budget: int) -> tuple[int, str] | None:
        if self._ahead is not None:
            entry, self._ahead = self._ahead, None
            return entry
        if self._broken:
            return None
        try:
            line = self._handle.readline(budget + 1)
        except UnicodeDecodeError:
            self._broken = True
            raise RecordError(f"line {self._lines + 1}: the text is not UTF-8") from None
        if not line:
            return None
        self._lines += 1
        if len(line) > budget:
            raise RecordError(f"line {self._lines}: a game's record is at most {MAX_RECORD} characters long")
        return self._lines, line

    def _skip_game(self, in_movetext: bool) -> None:
        """Skip the rest of a malformed game: up to the first tag line after its moves."""
        try:
            while (entry := self._next_line(MAX_RECORD)) is not None:
                is_tag = entry[1].lstrip().startswith("[")
                if is_tag and in_movetext:
                    self._ahead = entry
                    return
                in_movetext = in_movetext or not is_tag
        except RecordError:
            self._broken = True


class _GameParser:
    """Builds one game from its lines: the tags, then the move tree token by token."""

    def __init__(self) -> None:
        self.budget = MAX_RECORD
        self.first_line: int | None = None
        self.tags: dict[str, str] = {}
        self.game: Game | None = None
        self.node: GameNode | None = None
        self.branches: list[GameNode] = []
        self.variation_starts = False
        self.starting_comment: list[str] = []
        self.comments: dict[GameNode, list[str]] = {}
        """The comments read for each node, joined when the game is complete (in linear time)."""
        self.comment: list[str] | None = None
        self.comment_line = 0
        self.result: str | None = None

    @property
    def in_movetext(self) -> bool:
        return self.game is not None

    def starts_next_game(self, line: str) -> bool:
        return self.in_movetext and self.comment is None and line.lstrip().startswith("[")

    def feed(self, number: int, line: str) -> None:
        self.budget -= len(line)
        stripped = line.strip()
        if self.first_line is None and stripped:
            self.first_line = number
        if not self.in_movetext:
            if not stripped:
                return
            if stripped.startswith("["):
                self._tag(number, stripped)
                return
            self._start()
        self._tokens(number, line)

    def finish(self) -> Game | None:
        if self.first_line is None:
            return None
        if self.comment is not None:
            raise RecordError(f"line {self.comment_line}: a comment opened with {{ is never closed with }}")
        if self.branches:
            raise RecordError("a variation opened with ( is never closed with )")
        game = self.game or self._start()
        for node, parts in self.comments.items():
            node.comment = " ".join(parts)
        _check_result(game, self.tags.get("Result", self.result))
        return game

    def _tag(self, number: int, line: str) -> None:
        match = _TAG.match(line)
        if not match:
            raise RecordError(f'line {number}: a tag is written [Name "value"], not {_shown(line)}')
        self.tags[match[1]] = _unescape(match[2])

    def _start(self) -> Game:
        if "Game" not in self.tags:
            raise RecordError(f'line {self.first_line}: a record starts with a [Game "..."] tag')
        try:
            cls = game_class(self.tags["Game"])
            start = cls.from_str(self.tags["Start"]) if "Start" in self.tags else cls.initial()
        except BordspelError as error:
            raise RecordError(f"tags: {error}") from None
        kept = {k: v for k, v in self.tags.items() if k not in ("Game", "Start", "Result")}
        self.game = Game(start, kept)
        self.node = self.game.root
        return self.game

    def _tokens(self, number: int, line: str) -> None:
        position = 0
        while True:
            if self.comment is not None:
                end = line.find("}", position)
                self.comment.append(line[position:] if end < 0 else line[position:end])
                if end < 0:
                    return
                self._comment_closed()
                position = end + 1
                continue
            match = _TOKEN.search(line, position)
            if match is None:
                return
            position = match.end()
            if match[0] == ";" and self.result is None:
                self._comment_read(line[position:])
                return
            self._token(number, match[0])

    def _token(self, number: int, token: str) -> None:
        if self.result is not None:
            raise RecordError(f"line {number}: {_shown(token)} comes after the result {self.result}")
        if token == "{":
            self.comment, self.comment_line = [], number
        elif token == "(":
            self._open(number)
        elif token == ")":
            self._close(number)
        elif token == "}":
            raise RecordError(f"line {number}: a }} closes no comment")
        elif _NAG.match(token):
            self._nag(number, int(token[1:]))
        elif _RESULT.match(token):
            if self.branches:
                raise RecordError(f"line {number}: the result {token} stands inside a variation")
            self.result = token
        elif not _NUMBER.match(token):
            self._move(number, token)

    def _current(self, number: int, what: str) -> GameNode:
        """The node of the last move read (RecordError naming ``what`` if none is there)."""
        node = self.node
        if node is None or node.parent is None or self.variation_starts:
            raise RecordError(f"line {number}: {what} must follow a move")
        return node

    def _open(self, number: int) -> None:
        node = self._current(number, "a variation (")
        if len(self.branches) >= MAX_VARIATION_DEPTH:
            raise RecordError(f"line {number}: variations nest at most {MAX_VARIATION_DEPTH} deep")
        self.branches.append(node)
        self.node = node.parent
        self.variation_starts = True

    def _close(self, number: int) -> None:
        if not self.branches:
            raise RecordError(f"line {number}: a ) closes no variation")
        if self.variation_starts:
            raise RecordError(f"line {number}: a variation () holds at least one move")
        self.node = self.branches.pop()

    def _nag(self, number: int, value: int) -> None:
        if value > MAX_NAG:
            raise RecordError(f"line {number}: an annotation $n goes up to ${MAX_NAG}")
        self._current(number, "an annotation $n").nags.add(value)

    def _move(self, number: int, token: str) -> None:
        assert self.node is not None
        try:
            node = self.node.add_variation(token, starting_comment=" ".join(self.starting_comment))
        except BordspelError as error:
            raise RecordError(f"line {number}: {error}") from None
        self.node, self.variation_starts, self.starting_comment = node, False, []

    def _comment_closed(self) -> None:
        assert self.comment is not None
        text, self.comment = "".join(self.comment), None
        self._comment_read(text)

    def _comment_read(self, text: str) -> None:
        """Keep a comment (``{}`` or ``;``) for the move before it, or the next move of a variation."""
        assert self.node is not None
        text = text.strip()
        if text:
            parts = (
                self.starting_comment if self.variation_starts else self.comments.setdefault(self.node, [])
            )
            parts.append(text)


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut short when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _check_result(game: Game, result: str | None) -> None:
    """The result must be the moves' own, unless they leave the game going on and a
    ``Termination`` tag says why it ended anyway: then it is the game's ``ending``."""
    outcome = game.outcome()
    actual = outcome.result_str() if outcome else "*"
    if result is None or result == actual:
        return
    if outcome is None and "Termination" in game.tags:
        game.ending = _declared(result, game.tags.pop("Termination"), game.start.num_players)
        return
    raise RecordError(
        f"the record says the result is {result}, but its moves give {actual} "
        "(a game that ended otherwise, such as by resignation, says so in a Termination tag)"
    )


def _declared(result: str, termination: str, num_players: int) -> Outcome:
    """The outcome a record's result gives to a game its moves leave going on."""
    scores = result.split("-")
    if len(scores) != num_players:
        raise RecordError(f"the result {result} gives {len(scores)} scores for {num_players} players")
    if all(score == "1/2" for score in scores):
        return Outcome(frozenset(), termination, num_players)
    if "1/2" in scores or "1" not in scores:
        raise RecordError(f"the result {result} is neither a draw nor names a winner")
    winners = frozenset(seat for seat, score in enumerate(scores) if score == "1")
    return Outcome(winners, termination, num_players)


def read_games(source: str | Path | TextIO) -> Iterator[Game]:
    """The games of a record file (a path or a text file object), read one at a time.

    A malformed game raises RecordError naming its line; a new iteration of the same open
    file object goes on with the next game.
    """
    if not isinstance(source, (str, Path)):
        yield from RecordReader(source)
        return
    try:
        with open(source, encoding="utf-8") as handle:
            yield from RecordReader(handle)
    except OSError as error:
        raise RecordError(f"cannot read {source}: {error.strerror}") from None


# -- writing -----------------------------------------------------------------------------------
def write_games(target: str | Path | TextIO, games: Iterable[Game]) -> None:
    """Write the records of ``games``, a blank line apart, to a path or a text file object.

    A path is replaced only once the new file is complete.
    """
    if not isinstance(target, (str, Path)):
        _write_records(target, games)
        return
    path = Path(target)
    handle, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            _write_records(file, games)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _write_records(handle: TextIO, games: Iterable[Game]) -> None:
    for index, game in enumerate(games):
        handle.write(("\n" if index else "") + game.to_record())


_Step = Callable[[GameNode], "list[tuple[_Step, GameNode]] | None"]


class _MovetextWriter:
    """Writes a move tree as numbered moves with comments, annotations and ``(variations)``."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.words: list[str] = []
        self.opening = False
        self.fresh = True

    def write(self, root: GameNode, result: str) -> str:
        if root.comment:
            self._word(_braced(root.comment))
        work: list[tuple[_Step, GameNode]] = [(self._line, root)]
        while work:
            step, node = work.pop()
            work.extend(reversed(step(node) or []))
        self._word(result)
        return _wrapped(self.words)

    def _line(self, node: GameNode) -> list[tuple[_Step, GameNode]] | None:
        """The steps that write the moves after ``node``: main move, alternatives, the rest."""
        if not node.variations:
            return None
        main, *alternatives = node.variations
        steps: list[tuple[_Step, GameNode]] = [(self._move, main)]
        for other in alternatives:
            steps += [(self._open, other), (self._move, other), (self._line, other), (self._close, other)]
        return [*steps, (self._line, main)]

    def _move(self, node: GameNode) -> None:
        if self.opening and node.starting_comment:
            self._word(_braced(node.starting_comment))
        index = node.ply - 1
        if index % self.players == 0:
            self._word(f"{index // self.players + 1}.")
        elif self.fresh:
            self._word(f"{index // self.players + 1}...")
        self._word(node.move.to_str())
        for nag in sorted(node.nags):
            self._word(f"${nag}")
        if node.comment:
            self._word(_braced(node.comment))
        self.fresh = bool(node.comment)

    def _open(self, node: GameNode) -> None:
        self.opening = self.fresh = True

    def _close(self, node: GameNode) -> None:
        if _ends_line(self.words[-1]):
            self.words.append(")")
        else:
            self.words[-1] += ")"
        self.fresh = True

    def _word(self, word: str) -> None:
        if self.opening:
            word, self.opening = "(" + word, False
        self.words.append(word)


def _braced(comment: str) -> str:
    """A comment in braces; one holding a ``}`` as a ``;`` comment to the end of its line (as PGN
    has it), and RecordError when it also holds a line break."""
    if "}" not in comment:
        return "{" + comment + "}"
    if "\n" in comment or "\r" in comment:
        raise RecordError(
            f"the comment {_shown(comment)} holds a }} and a line break, so it can be written neither "
            "in {} nor after ;: take out the } or the line break"
        )
    return "; " + comment


def _wrapped(words: list[str]) -> str:
    """The words on lines of at most 79 characters (longer words stand alone); a ``;`` comment
    ends its line."""
    lines, current, closed = [], "", False
    for word in words:
        if current and (closed or len(current) + 1 + len(word) > 79):
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
        closed = _ends_line(word)
    return "\n".join([*lines, current])


def _ends_line(word: str) -> bool:
    """Whether ``word`` is a ``;`` comment (after the ``(`` of a variation), which runs to the line's end."""
    return word.lstrip("(").startswith(";")


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"n": "\n", "r": "\r"}


def _escape(value: str) -> str:
    """A tag value on one line: backslash, quote and line breaks escaped."""
    return re.sub(r'[\\"\n\r]', lambda m: _ESCAPES[m[0]], value)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m[1], m[1]), value)
