"""The JSON API of the puzzles (``bordspel.web.puzzles``).

- ``GET /api/puzzles/next``: a puzzle near the caller's puzzle rating (``puzzle``: ``id``,
  ``game``, ``start``, ``rating``, ``distance``, ``source``: the site's game it was met in when
  that game was a lobby challenge's, else null) and that rating (``rating``; null when not
  logged in).
- ``GET /api/puzzles/{id}``: that puzzle, the same way.
- ``POST /api/puzzles/{id}/moves`` ``{"line": [...], "move": "..."}``: the move checked after the
  line so far (see ``Attempt``); a logged-in account's first attempt at the puzzle is rated;
  at most ``MOVES_PER_ADDRESS`` in progress from one address (429 past it). The moves are read
  (legal, within the puzzle) before they wait for a proof; each game's proofs run in ``SOLVERS``
  threads of its own with at most ``WAITING`` moves queued (503 past it), so that a flood of
  one game's puzzle moves holds up neither another game's puzzles, nor the games, nor the rest
  of the site.
"""

from __future__ import annotations

import random
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bordspel.puzzles import Puzzle, puzzle_games
from bordspel.web.api import Api, BadRequest, PerAddress, WorkPool, read_json
from bordspel.web.puzzles import PuzzleRoom

__all__ = ["PuzzlesApi"]

ID_CHARS = 32
MOVES_PER_ADDRESS = 2
"""Puzzle moves one address may have checked at once (each is up to a few hundred solves)."""
SOLVERS = 1
"""Threads that check one game's puzzle moves (its proof is used by one at a time)."""
WAITING = 8
"""One game's puzzle moves that may wait for its solver thread; past it 503, at once."""


class PuzzlesApi:
    """The puzzles' handlers, beside the game's (``Api``)."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.room = PuzzleRoom(api.store)
        self.rng = random.Random()
        self.moving = PerAddress(MOVES_PER_ADDRESS, "puzzle moves")
        self.solvers = {game: WorkPool(SOLVERS, f"{game} puzzle moves", WAITING) for game in puzzle_games()}

    async def next(self, request: Request) -> Response:
        """``GET /api/puzzles/next``."""
        account = await self.api.account_id(request)
        puzzle = await run_in_threadpool(self.room.next, account, self.rng)
        return JSONResponse(await self._shown(puzzle, account))

    async def show(self, request: Request) -> Response:
        """``GET /api/puzzles/{id}``."""
        account = await self.api.account_id(request)
        puzzle = await run_in_threadpool(self.room.find, _puzzle_id(request))
        return JSONResponse(await self._shown(puzzle, account))

    async def move(self, request: Request) -> Response:
        """``POST /api/puzzles/{id}/moves``."""
        puzzle = await run_in_threadpool(self.room.find, _puzzle_id(request))
        data = await read_json(request)
        line, move = data.get("line", []), data.get("move")
        if not isinstance(line, list) or not isinstance(move, str):
            raise BadRequest("give 'line' as a list of moves and 'move' as a string")
        account = await self.api.account_id(request)
        with self.moving.held(request.client.host if request.client else ""):
            await run_in_threadpool(self.room.read, puzzle, line, move, account)
            attempt = await self.solvers[puzzle.game].run(self.room.judge, puzzle, line, move, account)
        return JSONResponse(attempt.view())

    async def _shown(self, puzzle: Puzzle, account: str | None) -> dict[str, Any]:
        rating = None if account is None else (await run_in_threadpool(self.room.rating, account)).view()
        source = await run_in_threadpool(self.room.shown_source, puzzle)
        shown = {"id": puzzle.id, "game": puzzle.game, "start": puzzle.start, "source": source}
        return {"puzzle": {**shown, "rating": puzzle.rating, "distance": puzzle.distance}, "rating": rating}


def _puzzle_id(request: Request) -> str:
    found = str(request.path_params["id"])
    if not 0 < len(found) <= ID_CHARS:
        raise BadRequest("that is not a puzzle id")
    return found
