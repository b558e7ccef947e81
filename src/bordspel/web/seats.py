"""Who sits in each seat: a person or a named level of the computer, and each level's time budget.

Clients choose only named levels (``easy``, ``medium``, ``hard``, ``perfect`` and any other
level the game's AI knowledge names), never a raw player specification; the server caps every
level's search and solver time at its own budget (``bordspel serve --ai-time``).
"""

from __future__ import annotations

from starlette.requests import Request

from bordspel.ai.registry import level_refusal, offered_levels
from bordspel.core import BordspelError, State
from bordspel.web.store import HUMAN

__all__ = ["HUMAN", "BadSeat", "bearer_token", "budgeted_spec", "check_seats", "seat_choices"]

TOKEN_LIMIT = 100
"""Characters of a seat token the server reads (its own are 24)."""


class BadSeat(BordspelError):
    """A seat that is neither a person nor a named level."""


def seat_choices(game: str) -> list[str]:
    """``human`` and the game's named levels (``zero`` where a trained network is shipped)."""
    return [HUMAN, *offered_levels(game)]


def check_seats(start: State, seats: object) -> list[str]:
    """The seats of a game from ``start``, when there is one for each of its players and each is
    a person or a named level that plays these options."""
    game, count = start.name, start.num_players
    if not isinstance(seats, list):
        raise BadSeat("give 'seats' as a list: 'human' or a level for each seat")
    if len(seats) != count:
        raise BadSeat(f"{game} with these options has {count} seats, not {len(seats)}")
    choices = seat_choices(game)
    for seat in seats:
        if not isinstance(seat, str) or seat not in choices:
            raise BadSeat(f"every seat is one of {', '.join(choices)}")
    for level in sorted(set(seats)):
        refusal = level_refusal(level, start)
        if refusal is not None:
            raise BadSeat(f"{refusal}: choose those options or another level for its seat")
    return seats


def budgeted_spec(game: str, level: str, budget: float, *, deeper: bool = False) -> str:
    """The level's player specification with its time (solver and search) within ``budget`` seconds;
    ``deeper``: the whole budget, also beyond the level's own time (the deepening analysis).

    The solver (when the level has one) gets at most half the budget.
    """
    name, _, rest = offered_levels(game)[level].partition(":")
    options = dict(part.split("=", 1) for part in rest.split(",") if part)
    time = budget if deeper else min(float(options.get("time", budget)), budget)
    solver = float(options.get("solver_time", time * float(options.get("solver_share", 0.5))))
    options["time"] = f"{time:g}"
    options["solver_time"] = f"{min(solver, budget / 2):g}"  # the level's share of its own time
    return f"{name}:{','.join(f'{key}={value}' for key, value in options.items())}"


def bearer_token(request: Request) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``, if the request has one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()[:TOKEN_LIMIT]
