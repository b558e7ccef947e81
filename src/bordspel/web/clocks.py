"""Game clocks kept by the server: Fischer (minutes + increment) and correspondence (days per move).

The server is the only authority. A :class:`Clock` holds each seat's remaining seconds as they
stood when the running seat's turn began (``since``, server time) and which seat's clock runs;
the seconds left at any moment are computed from those, so nothing has to tick. After a move the
mover's elapsed time is charged and the increment added (correspondence: the mover's time is set
back to the days per move), and the next seat's clock starts. A flag falls when the running
seat's remaining seconds are used up (``Clock.flag_at``), whether or not a request arrives: each
serve process settles due flags through the store (see ``bordspel.web.api``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

from bordspel.core import BordspelError

__all__ = ["BadClock", "Clock", "TimeControl"]

DAY = 86400.0
MIN_SECONDS = 15
"""The shortest Fischer control: a quarter of a minute."""
MAX_MINUTES = 180
MAX_INCREMENT = 60
"""Seconds a Fischer control adds per move at most."""
MAX_DAYS = 14


class BadClock(BordspelError):
    """A time control the server does not offer."""


@dataclass(frozen=True)
class TimeControl:
    """Fischer (``initial`` and ``increment`` seconds) or correspondence (``days`` per move).

    ``scale`` is the real seconds per second of the control: 1 but in tests and demonstrations,
    where a 3+2 game may run in seconds (``ApiSettings.clock_scale``).
    """

    initial: float = 0.0
    increment: float = 0.0
    days: int = 0
    scale: float = 1.0

    @classmethod
    def parse(cls, data: object, scale: float = 1.0) -> TimeControl:
        """``{"initial": s, "increment": s}`` (15 s to 180 minutes, 0 to 60 s) or ``{"days": n}``
        (1 to 14), checked; BadClock otherwise."""
        if not isinstance(data, dict):
            raise BadClock('give the clock as {"initial": seconds, "increment": seconds} or {"days": n}')
        if set(data) == {"days"}:
            return cls(days=int(_number(data, "days", 1, MAX_DAYS, whole=True)), scale=scale)
        if set(data) == {"initial", "increment"}:
            initial = _number(data, "initial", MIN_SECONDS, MAX_MINUTES * 60)
            return cls(initial, _number(data, "increment", 0, MAX_INCREMENT), scale=scale)
        raise BadClock('a clock is {"initial": seconds, "increment": seconds} or {"days": n}, nothing else')

    def to_json(self) -> dict[str, Any]:
        """The control as a client gives it (without the scale)."""
        return {"days": self.days} if self.days else {"initial": self.initial, "increment": self.increment}

    def label(self) -> str:
        """``3+2`` (minutes + seconds) or ``2 days``."""
        if self.days:
            return f"{self.days} day{'s' if self.days > 1 else ''}"
        return f"{self.initial / 60:g}+{self.increment:g}"

    def dumps(self) -> list[float]:
        """The control as stored (in JSON)."""
        return [self.initial, self.increment, self.days, self.scale]

    @classmethod
    def loads(cls, stored: list[float]) -> TimeControl:
        """A stored control."""
        initial, increment, days, scale = stored
        return cls(initial, increment, int(days), scale)

    @property
    def start_seconds(self) -> float:
        """Real seconds each seat starts with (and, by correspondence, gets back after each move)."""
        return (self.days * DAY if self.days else self.initial) * self.scale


def _number(data: dict[str, Any], key: str, low: float, high: float, whole: bool = False) -> float:
    value = data[key]
    kind = int if whole else (int, float)
    if (
        isinstance(value, bool)
        or not isinstance(value, kind)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise BadClock(f"'{key}' is a {'whole ' if whole else ''}number from {low:g} to {high:g}")
    return value


@dataclass(frozen=True)
class Clock:
    """Each seat's remaining seconds as of ``since``, and the seat whose clock runs (None: stopped)."""

    control: TimeControl
    remaining: tuple[float, ...]
    since: float
    running: int | None

    @classmethod
    def start(cls, control: TimeControl, seats: int, to_move: int | None, now: float) -> Clock:
        """Every seat with its whole time; ``to_move``'s clock runs from ``now`` (None: the clock
        waits for the players, see ``started``)."""
        return cls(control, (control.start_seconds,) * seats, now, to_move)

    def waiting(self) -> bool:
        """Whether the clock waits for its players: no seat has used any time and none runs."""
        return self.running is None and all(left == self.control.start_seconds for left in self.remaining)

    def started(self, to_move: int, now: float) -> Clock:
        """A waiting clock started: ``to_move``'s runs from ``now``."""
        return replace(self, since=now, running=to_move)

    def without_increments(self, movers: list[int]) -> Clock:
        """The clock with the increment of each move taken back (one per mover) taken away again,
        so that undoing and replaying moves earns no time."""
        remaining = list(self.remaining)
        for seat in movers:
            remaining[seat] = max(0.0, remaining[seat] - self.control.increment * self.control.scale)
        return replace(self, remaining=tuple(remaining))

    def left(self, now: float) -> list[float]:
        """Each seat's seconds left at ``now`` (never below 0)."""
        return [self._left(seat, now) for seat in range(len(self.remaining))]

    def _left(self, seat: int, now: float) -> float:
        elapsed = max(0.0, now - self.since) if seat == self.running else 0.0
        return max(0.0, self.remaining[seat] - elapsed)

    def flag_at(self) -> float | None:
        """When the running seat's flag falls (None when no clock runs)."""
        return None if self.running is None else self.since + self.remaining[self.running]

    def fallen(self, now: float) -> bool:
        """Whether the running seat has no time left at ``now``."""
        due = self.flag_at()
        return due is not None and now >= due

    def switch(self, moved: bool, to_move: int | None, now: float) -> Clock:
        """The running seat is charged its time (with the increment when it ``moved``) and
        ``to_move``'s clock starts (None: the game is over, every clock stops)."""
        remaining = list(self.remaining)
        if self.running is not None:
            left = self._left(self.running, now)
            if moved and left > 0:
                per_move = self.control.days
                left = (
                    self.control.start_seconds
                    if per_move
                    else left + self.control.increment * self.control.scale
                )
            remaining[self.running] = left
        return replace(self, remaining=tuple(remaining), since=now, running=to_move)

    def budget(self, seat: int, now: float, cap: float) -> float:
        """Seconds the computer in ``seat`` may think: a twentieth of its time left and half its
        increment, at most ``cap`` (the server's budget) and at least a twentieth of a second."""
        own = self._left(seat, now) / 20 + self.control.increment * self.control.scale / 2
        return max(0.05, min(cap, own))

    def view(self, now: float) -> dict[str, Any]:
        """The game's ``clock`` in JSON: the control, each seat's seconds left now, the running
        seat and the server's time (a page corrects its own ticking by it)."""
        return {
            **self.control.to_json(),
            "label": self.control.label(),
            "remaining": [round(left, 2) for left in self.left(now)],
            "running": self.running,
            "server_time": round(now, 3),
        }

    def dumps(self) -> str:
        """The clock as stored (JSON text)."""
        stored = {"control": self.control.dumps(), "remaining": self.remaining, "since": self.since}
        return json.dumps({**stored, "running": self.running})

    @classmethod
    def loads(cls, text: str) -> Clock:
        """A stored clock."""
        data = json.loads(text)
        return cls(
            TimeControl.loads(data["control"]), tuple(data["remaining"]), data["since"], data["running"]
        )
