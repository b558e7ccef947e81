"""What each seat may do to a stored game: moves, undo, takebacks and resignation.

Every function here is an edit for ``GameStore.change``: it gets the loaded game and the seat of
the caller's token, checks that this seat may act, and changes the game in memory (the store
writes it and increments the version). Against the computer, undo goes straight back to the
caller's previous turn; against a person it is a takeback request that another person in the
game accepts or declines, as on lichess. A move declines a pending request.
"""

from __future__ import annotations

from collections.abc import Callable

from bordspel.core import MAX_MOVE_TEXT, BordspelError, Outcome
from bordspel.web.seats import HUMAN
from bordspel.web.store import Conflict, Forbidden, StoredGame

ABORTED = "aborted"
"""The termination of a game that ended before every seat had moved (``StoredGame.aborted``)."""

__all__ = [
    "ABORTED",
    "abort",
    "ai_move",
    "answer_takeback",
    "check_hint",
    "human_move",
    "outcome",
    "resign",
    "settle_flag",
    "team",
    "undo",
]


def _person(stored: StoredGame, seat: int | None) -> int:
    """The caller's seat, when it is a person's."""
    if seat is None:
        raise Forbidden("only a player of this game may do that: use your seat's link")
    if stored.seats[seat] != HUMAN:
        raise Forbidden(f"seat {seat + 1} is the computer's")
    return seat


def _ongoing(stored: StoredGame) -> None:
    flagged = stored.flag_down()
    if flagged is not None:
        raise Conflict(f"seat {flagged + 1}'s time ran out: the game is over")
    if stored.is_over():
        raise Conflict("the game is over: its result is final (start a new game to play on)")


def _play(stored: StoredGame, text: str) -> None:
    if len(text) > MAX_MOVE_TEXT:
        raise BordspelError(f"a move is at most {MAX_MOVE_TEXT} characters")
    stored.game.play(text)
    stored.takeback = None


def human_move(text: str) -> Callable[[StoredGame, int | None], None]:
    """The caller, a person whose turn it is, plays ``text``."""

    def edit(stored: StoredGame, seat: int | None) -> None:
        _ongoing(stored)
        to_move = stored.state.to_move
        if stored.seats[to_move] != HUMAN:
            raise Conflict(f"it is the computer's turn (seat {to_move + 1})")
        if _person(stored, seat) != to_move:
            raise Conflict(f"it is seat {to_move + 1}'s turn, not yours")
        _play(stored, text)

    return edit


def ai_move(text: str) -> Callable[[StoredGame, int | None], None]:
    """The computer in the seat to move plays ``text`` (its own choice; no token needed)."""

    def edit(stored: StoredGame, seat: int | None) -> None:
        _ongoing(stored)
        if stored.seats[stored.state.to_move] == HUMAN:
            raise Conflict("it is a person's turn")
        _play(stored, text)

    return edit


def _previous_turn(stored: StoredGame, seat: int) -> int:
    """The ply of the caller's last move."""
    for ply in range(stored.ply - 1, -1, -1):
        if stored.game.states[ply].to_move == seat:
            return ply
    raise Conflict("you have no move to take back")


def _against_people(stored: StoredGame, seat: int) -> bool:
    return any(spec == HUMAN for other, spec in enumerate(stored.seats) if other != seat)


def _take_back(stored: StoredGame, seat: int) -> None:
    for _ in range(stored.ply - _previous_turn(stored, seat)):
        stored.game.undo()
    stored.takeback = None


def undo(stored: StoredGame, seat: int | None) -> None:
    """Against the computer: back to the caller's previous turn. Against a person: ask for it.
    A finished game stays finished: its result is final."""
    person = _person(stored, seat)
    _ongoing(stored)
    _previous_turn(stored, person)
    if not _against_people(stored, person):
        _take_back(stored, person)
    elif stored.takeback is not None:
        raise Conflict(f"seat {stored.takeback + 1} already asked for a takeback")
    else:
        stored.takeback = person


def check_hint(stored: StoredGame, seat: int | None) -> None:
    """Hints are for a person playing the computer: not for spectators, nor in a game between
    people (where a hint would help one side), nor once the game is over."""
    if seat is None or stored.seats[seat] != HUMAN:
        raise Forbidden("hints are for a person playing the computer: open the game with your seat's link")
    if _against_people(stored, seat):
        raise Forbidden("no hints in a game between people: a hint would help one side")
    if stored.is_over():
        raise Conflict("the game is over: there is nothing to analyse")


def answer_takeback(accept: bool) -> Callable[[StoredGame, int | None], None]:
    """Another person accepts or declines the pending takeback request (its asker may withdraw it)."""

    def edit(stored: StoredGame, seat: int | None) -> None:
        person = _person(stored, seat)
        asker = stored.takeback
        if asker is None:
            raise Conflict("nobody asked for a takeback")
        if person == asker and accept:
            raise Conflict("the other player answers your takeback request")
        if accept:
            _ongoing(stored)
            _take_back(stored, asker)
        stored.takeback = None

    return edit


def resign(stored: StoredGame, seat: int | None) -> None:
    """The caller gives up: the game ends, won by every seat outside the caller's team."""
    person = _person(stored, seat)
    _ongoing(stored)
    stored.resigned = person
    stored.takeback = None


def abort(stored: StoredGame, seat: int | None) -> None:
    """The caller calls the game off before every seat has moved: nobody wins, nothing is rated
    (a resignation then does the same; afterwards only a resignation ends the game)."""
    person = _person(stored, seat)
    _ongoing(stored)
    if stored.everyone_moved():
        raise Conflict("every side has moved: the game can no longer be aborted (resign instead)")
    stored.resigned = person
    stored.takeback = None


def settle_flag(stored: StoredGame, seat: int | None) -> None:
    """Record that the running seat's flag fell (by anyone: the server's own task settles flags)."""
    if stored.flagged is not None or stored.flag_down() is None:
        raise Conflict("no flag has fallen in this game")
    stored.flagged = stored.flag_down()
    stored.takeback = None


def outcome(stored: StoredGame) -> Outcome | None:
    """The end of the game: the engine's, a resignation's or a flag's. Whoever resigns or runs
    out of time loses, with their team; every other seat wins (with three players too). A game
    that ended so before every seat had moved is aborted: nobody wins."""
    if stored.aborted():
        return Outcome(frozenset(), ABORTED, len(stored.seats))
    if stored.resigned is not None:
        return _lost_by(stored, stored.resigned, "resignation")
    flagged = stored.flag_down()
    if flagged is not None:
        return _lost_by(stored, flagged, "time")
    return stored.state.outcome()


def _lost_by(stored: StoredGame, seat: int, reason: str) -> Outcome:
    seats = range(len(stored.seats))
    return Outcome(frozenset(seats) - team(stored, seat), reason, len(stored.seats))


def team(stored: StoredGame, seat: int) -> frozenset[int]:
    """The seats that win or lose with ``seat`` (itself, or its partners in a team game)."""
    partners = getattr(stored.state, "team", None)
    return frozenset(partners(seat)) if callable(partners) else frozenset({seat})
