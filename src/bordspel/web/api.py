"""The JSON API's handlers: bodies read and checked here, the rules in ``actions``, the work in threads.

Nothing here runs engine, rendering or SQLite work on the event loop: the store, the views and
the start positions go to Starlette's thread pool, the computer's search to the ``AIPool``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from bordspel.core import BordspelError, State
from bordspel.web import actions
from bordspel.web.ai_pool import AIPool, AITimeout, SharedTasks, analyse_position, choose_move
from bordspel.web.events import Changes, StreamSlots, version_stream
from bordspel.web.options import start_state
from bordspel.web.seats import HUMAN, bearer_token, budgeted_spec, check_seats
from bordspel.web.store import Conflict, Forbidden, GameStore, NotFound, StoredGame
from bordspel.web.views import game_view, position_view, record_text, rules_view

__all__ = ["Api", "ApiSettings", "BadRequest", "game_id"]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_VERSION = 2**53
ANALYST = "hard"
"""The level whose search answers ``GET /api/games/{id}/analysis`` (within the server's budget)."""


class BadRequest(BordspelError):
    """A request the API cannot read."""


@dataclass(frozen=True)
class ApiSettings:
    """The server's settings for the API: the computer's time and workers, live updates."""

    ai_time: float = 10.0
    """Seconds of search and solving for every level of the computer."""
    ai_workers: int = 2
    events_lifetime: float = 60.0
    """Seconds one live-update stream stays open before the browser reconnects."""
    events_poll: float = 3.0
    """Seconds between looks at the stored version (changes from other processes)."""
    streams_per_client: int = 32
    """Live-update streams open at once from one address (a page holds one)."""
    streams_total: int = 1000
    """Live-update streams open at once in all."""
    games_per_minute: int | None = None
    """New games one address may start in a minute (None: no limit; ``bordspel serve``: 30)."""


def game_id(request: Request) -> str:
    """The game id of the path; NotFound for anything that cannot be one."""
    value = str(request.path_params["id"])
    if not GAME_ID.fullmatch(value):
        raise NotFound("there is no such game")
    return value


def _ply(request: Request) -> int:
    text = str(request.path_params["ply"])
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise BadRequest("a position is named by its number of moves: 0, 1, 2, ...")
    return int(text)


async def read_json(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body())
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, huge numbers, deep nesting
        raise BadRequest("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BadRequest(f"give {name!r} as a {'number' if kind is int else kind.__name__}")
    return value


def _version(data: dict[str, Any]) -> int:
    value: int = _field(data, "version", int)
    if not 0 <= value < MAX_VERSION:
        raise BadRequest("'version' is the game's version as you saw it")
    return value


def _any_move(state: State, seed: int) -> str:
    return str(state.random_move(random.Random(seed)).to_str())


class Api:
    """The JSON API's handlers over the game store, the players' pool and the live updates."""

    def __init__(self, store: GameStore, settings: ApiSettings) -> None:
        self.store = store
        self.settings = settings
        deadline = settings.ai_time + max(2.0, settings.ai_time / 2)
        self.pool = AIPool(settings.ai_workers, deadline)
        self.hints = AIPool(1, deadline, max_waiting=8)
        """Hints have a worker of their own: an owed move never waits behind them."""
        self.turns = SharedTasks()
        self.analyses = SharedTasks()
        self.changes = Changes()
        self.streams = StreamSlots(settings.streams_per_client, settings.streams_total)

    async def _view(self, stored: StoredGame, **extra: Any) -> JSONResponse:
        view = await run_in_threadpool(game_view, stored)
        return JSONResponse({**view, "ai_time": self.settings.ai_time, **extra})

    async def _change(
        self, request: Request, data: dict[str, Any], edit: Callable[[StoredGame, int | None], None]
    ) -> Response:
        """Apply ``edit`` as the request's seat, at the version it saw; wake the live updates."""
        stored = await run_in_threadpool(
            self.store.change, game_id(request), _version(data), bearer_token(request), edit
        )
        self.changes.notify(stored.id)
        return await self._view(stored)

    async def create(self, request: Request) -> Response:
        """``POST /api/games``: a new game with its seats and their tokens."""
        data = await read_json(request)
        game = _field(data, "game", str)
        start = await run_in_threadpool(start_state, game, data.get("options", {}))
        seats = check_seats(game, data.get("seats"), start.num_players)
        creator, limit = request.client.host if request.client else "", self.settings.games_per_minute
        stored, tokens = await run_in_threadpool(self.store.create, start, seats, creator, limit)
        you = seats.index(HUMAN) if HUMAN in seats else 0
        page = f"/games/{stored.id}"
        links = {"seats": [f"{page}#seat={token}" for token in tokens], "spectator": page}
        view = await run_in_threadpool(game_view, stored)
        extra = {"ai_time": self.settings.ai_time, "you": you, "tokens": tokens, "links": links}
        return JSONResponse({**view, **extra}, status_code=201)

    async def show(self, request: Request) -> Response:
        """``GET /api/games/{id}``: the game as the token's seat (or a spectator) sees it."""
        key = game_id(request)
        seat = await run_in_threadpool(self.store.seat_of, key, bearer_token(request))
        stored = await run_in_threadpool(self.store.load, key)
        return await self._view(stored, you=seat)

    async def move(self, request: Request) -> Response:
        """``POST /api/games/{id}/moves``: play a person's move."""
        data = await read_json(request)
        return await self._change(request, data, actions.human_move(_field(data, "move", str)))

    async def undo(self, request: Request) -> Response:
        """``POST /api/games/{id}/undo``: undo against the computer, or ask for a takeback."""
        return await self._change(request, await read_json(request), actions.undo)

    async def resign(self, request: Request) -> Response:
        """``POST /api/games/{id}/resign``: the token's seat resigns."""
        return await self._change(request, await read_json(request), actions.resign)

    async def takeback(self, request: Request) -> Response:
        """``POST /api/games/{id}/takeback``: accept, decline or withdraw a takeback request."""
        data = await read_json(request)
        return await self._change(request, data, actions.answer_takeback(_field(data, "accept", bool)))

    async def ai(self, request: Request) -> Response:
        """``POST /api/games/{id}/ai``: the computer plays the seat to move."""
        data = await read_json(request)
        key, version = game_id(request), _version(data)
        seat = await run_in_threadpool(self.store.seat_of, key, bearer_token(request))
        if seat is None:
            raise Forbidden("only a player of this game may ask the computer to move")
        stored = await run_in_threadpool(self.store.load, key)
        if stored.version != version or stored.is_over() or stored.seats[stored.state.to_move] == HUMAN:
            raise Conflict("it is not the computer's turn in the position you saw")
        played = await self.turns.run(
            (key, version), lambda: self._computer_turn(stored), gone=request.is_disconnected
        )
        return await self._view(played)

    async def _computer_turn(self, stored: StoredGame) -> StoredGame:
        """The computer in the seat to move chooses (in a worker process) and its move is stored."""
        state, level = stored.state, stored.seats[stored.state.to_move]
        spec = budgeted_spec(state.name, level, self.settings.ai_time)
        try:
            text = await self.pool.run(choose_move, state.name, state.to_str(), spec, stored.version)
        except AITimeout:  # a search past its deadline was killed: any legal move keeps the game going
            text = await run_in_threadpool(_any_move, state, stored.version)
        played = await run_in_threadpool(
            self.store.change, stored.id, stored.version, None, actions.ai_move(text)
        )
        self.changes.notify(stored.id)
        return played

    async def analysis(self, request: Request) -> Response:
        """``GET /api/games/{id}/analysis``: the best move in the current position, its score and line.

        A hint for a person playing the computer (see ``actions.check_hint``); the server's own
        level and budget bound the work, and one analysis runs per game and version however many ask.
        """
        key = game_id(request)
        seat = await run_in_threadpool(self.store.seat_of, key, bearer_token(request))
        stored = await run_in_threadpool(self.store.load, key)
        actions.check_hint(stored, seat)
        state = stored.state
        spec = budgeted_spec(state.name, ANALYST, self.settings.ai_time)
        found = await self.analyses.run(
            (key, stored.version),
            lambda: self.hints.run(analyse_position, state.name, state.to_str(), spec, stored.version),
            gone=request.is_disconnected,
        )
        return JSONResponse({"version": stored.version, "ply": stored.ply, **found})

    async def position(self, request: Request) -> Response:
        """The picture of the position after ``ply`` moves (replay; the game is unchanged)."""
        key, ply = game_id(request), _ply(request)
        stored = await run_in_threadpool(self.store.load, key)
        return JSONResponse(await run_in_threadpool(position_view, stored, ply))

    async def rules(self, request: Request) -> Response:
        """A game's rules page (text per language and its pictures) as JSON."""
        game = str(request.path_params["game"])
        return JSONResponse(await run_in_threadpool(rules_view, game))

    async def record(self, request: Request) -> Response:
        """``GET /api/games/{id}/record``: the game record as a download."""
        stored = await run_in_threadpool(self.store.load, game_id(request))
        text = await run_in_threadpool(record_text, stored)
        filename = f"{stored.state.name}-{stored.id}.txt"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def events(self, request: Request) -> Response:
        """``GET /api/games/{id}/events``: a stream of the game's versions (Server-Sent Events)."""
        key = game_id(request)
        await run_in_threadpool(self.store.version, key)  # NotFound before the stream starts

        async def version() -> int:
            return await run_in_threadpool(self.store.version, key)

        settings, client = self.settings, request.client.host if request.client else ""
        self.streams.take(client)
        stream = version_stream(key, version, self.changes, settings.events_lifetime, settings.events_poll)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(
            self.streams.held(client, stream), media_type="text/event-stream", headers=headers
        )
