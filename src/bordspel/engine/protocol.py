"""The words of the engine protocol that both sides share: its version, and ``info`` lines
written from a search's result and read back into :class:`Info` (see docs/engine-protocol.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bordspel.ai.search import SearchResult
from bordspel.core import BordspelError, State

__all__ = ["CLOCK_WORDS", "INCREMENT_WORDS", "PROTOCOL_VERSION", "Info", "Score", "info_line", "parse_info"]

PROTOCOL_VERSION = 1
"""The version this library speaks (``id protocol 1``)."""

RESULTS = ("win", "loss", "draw")

CLOCK_WORDS = ("wtime", "btime", "time3", "time4")
"""``go``'s words for the milliseconds left on each seat's clock, in seat order (UCI's two,
then the protocol's own for Santorini's third and fourth seat)."""
INCREMENT_WORDS = ("winc", "binc", "inc3", "inc4")
"""``go``'s words for what each seat's clock gains a move, in seat order."""


@dataclass(frozen=True)
class Score:
    """An ``info`` line's score for the player to move: an evaluation (``cp``, in hundredths of
    the engine's unit) or a proven ``result`` (``win``, ``loss``, ``draw``), with the plies to
    the end when known. Scores compare from the side of the player to move (see :meth:`rank`):
    ``Score(result="win", plies=3) > Score(cp=500) > Score(result="draw") > Score(result="loss")``."""

    cp: int | None = None
    result: str | None = None
    plies: int | None = None

    def rank(self) -> tuple[int, float]:
        """What the comparisons order by: a loss below every evaluation (a later loss above a
        sooner one), a draw as ``cp 0``, a win above every evaluation (a sooner win above a
        later one; one of unknown length below them)."""
        if self.result == "win":
            return (2, -math.inf if self.plies is None else -self.plies)
        if self.result == "loss":
            return (0, math.inf if self.plies is None else self.plies)
        return (1, 0 if self.cp is None else self.cp)

    def __lt__(self, other: Score) -> bool:
        return self.rank() < other.rank()

    def __le__(self, other: Score) -> bool:
        return self.rank() <= other.rank()

    def __gt__(self, other: Score) -> bool:
        return self.rank() > other.rank()

    def __ge__(self, other: Score) -> bool:
        return self.rank() >= other.rank()

    def is_proven(self) -> bool:
        """Whether the score is a proven result, not an evaluation."""
        return self.result is not None

    def to_protocol(self) -> str:
        """The score's words after ``score``: ``cp 25``, ``win 3``, ``loss``, ``draw``."""
        if self.result is None:
            return f"cp {self.cp}"
        return self.result if self.plies is None else f"{self.result} {self.plies}"

    def __str__(self) -> str:
        if self.result is None:
            return f"cp {self.cp:+d}" if self.cp is not None else "cp ?"
        plies = "" if self.plies is None else f" in {self.plies} pl{'y' if self.plies == 1 else 'ies'}"
        return self.result + plies


@dataclass
class Info:
    """What an engine said about its search in one ``info`` line (python-chess's ``InfoDict``)."""

    depth: int | None = None
    seldepth: int | None = None
    """The deepest ply the search reached (beyond ``depth`` in extensions)."""
    score: Score | None = None
    nodes: int | None = None
    time: float | None = None
    """Seconds since the search started."""
    nps: int | None = None
    multipv: int = 1
    pv: list[Any] = field(default_factory=list)
    """The principal variation as move objects of the game."""
    hashfull: int | None = None
    """How full the engine's table is, in thousandths."""
    currmove: Any = None
    """The move being searched (a move object of the game)."""
    currmovenumber: int | None = None
    """Its number among the moves searched, from 1."""
    string: str | None = None
    """Free text (``info string ...``)."""


def score_of(result: SearchResult) -> Score:
    """The protocol's score of a search result."""
    if result.result is None:
        return Score(cp=round(result.score))
    return Score(result=result.result, plies=result.plies_to_end if result.result != "draw" else None)


def info_line(result: SearchResult) -> str:
    """The ``info`` line of a search result."""
    milliseconds = max(0, round(1000 * result.seconds))
    nps = round(result.nodes / result.seconds) if result.seconds > 0 else 0
    pv = " ".join(move.to_str() for move in result.principal_variation)
    return (
        f"info multipv {result.multipv} depth {result.depth} score {score_of(result).to_protocol()}"
        f" nodes {result.nodes} time {milliseconds} nps {nps} pv {pv}".rstrip()
    )


def _score(words: list[str]) -> tuple[Score, int]:
    """The score at the start of ``words`` and how many words it took."""
    if words[0] == "cp":
        return Score(cp=int(words[1])), 2
    if words[0] not in RESULTS:
        raise ValueError(f"unknown score kind {words[0]!r}")
    if len(words) > 1 and words[1].isdigit():
        return Score(result=words[0], plies=int(words[1])), 2
    return Score(result=words[0]), 1


INTEGERS = ("depth", "seldepth", "nodes", "nps", "multipv", "hashfull", "currmovenumber")


def parse_info(line: str, state: State) -> Info:
    """An ``info`` line read back, its principal variation as moves played from ``state``.

    A word the protocol does not have is skipped (as python-chess does: another engine may
    say more); ValueError when a known field's value is malformed, BordspelError when a move
    is illegal."""
    words = line.split()[1:]
    info = Info()
    index = 0
    while index < len(words):
        key, rest = words[index], words[index + 1 :]
        if key == "string":
            info.string = " ".join(rest)
            break
        if key == "pv":
            info.pv = _line(state, rest)
            break
        index += 1 + _field(info, key, rest, state)
    return info


def _field(info: Info, key: str, rest: list[str], state: State) -> int:
    """Set field ``key`` of ``info`` from the words after it; how many words it took (none for
    a word that is not a field, which is skipped)."""
    if key == "score":
        info.score, taken = _score(rest)
        return taken
    if key not in (*INTEGERS, "time", "currmove"):
        return 0
    if not rest:
        raise ValueError(f"info field {key!r} has no value")
    if key == "time":
        info.time = int(rest[0]) / 1000
    elif key == "currmove":
        info.currmove = _line(state, rest[:1])[0]
    else:
        setattr(info, key, int(rest[0]))
    return 1


def _line(state: State, texts: list[str]) -> list[Any]:
    """The moves of ``texts`` played one by one from ``state``."""
    moves = []
    for text in texts:
        try:
            move = state.parse_move(text)
        except BordspelError as error:
            raise BordspelError(f"the engine's line has an illegal move: {error}") from None
        moves.append(move)
        state = state.apply_unchecked(move)
    return moves
