"""The browser app: a Starlette application over the game store, the engines and the players.

Pages (plain HTML, CSS and JavaScript from ``static/``) and a JSON API:

========================================  =======================================================
``GET  /api/meta``                        the games, their options, the AI levels
``POST /api/games``                       ``{"game", "options", "seats"}`` -> a new game (201)
``GET  /api/games/{id}``                  the game: position, picture, legal moves, outcome
``POST /api/games/{id}/moves``            ``{"ply", "move"}``: play a move (``ply``: moves seen)
``POST /api/games/{id}/ai``               ``{"ply"}``: the AI in the seat to move plays
``POST /api/games/{id}/undo``             ``{"ply"}``: back to the previous human turn
``GET  /api/games/{id}/record``           the game record, as a download
========================================  =======================================================

Errors are JSON ``{"error": reason}``: 400 for a malformed request or an illegal move, 404 for
an unknown game, 409 when the game moved on since the caller looked (or it is not that seat's
turn); nothing is stored then.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bordspel.ai import make_player
from bordspel.core import BordspelError
from bordspel.web.store import Conflict, GameStore, NotFound, StoredGame
from bordspel.web.views import game_view, meta

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
HUMAN = "human"


class BadRequest(BordspelError):
    """A request the API cannot read."""


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BadRequest(f"give {name!r} as a {kind.__name__}")
    return value


def _error(error: Exception) -> JSONResponse:
    status = 404 if isinstance(error, NotFound) else 409 if isinstance(error, Conflict) else 400
    return JSONResponse({"error": str(error)}, status_code=status)


def create_app(db_path: str | Path) -> Starlette:
    """The app, storing its games in the SQLite file ``db_path``."""
    store = GameStore(db_path)

    Handler = Callable[[Request], Awaitable[Response]]

    async def api(request: Request, handler: Handler) -> Response:
        try:
            return await handler(request)
        except BordspelError as error:
            return _error(error)

    async def create(request: Request) -> Response:
        data = await _body(request)
        game, options, seats = _field(data, "game", str), data.get("options", {}), _field(data, "seats", list)
        if not isinstance(options, dict) or not all(isinstance(v, (bool, int)) for v in options.values()):
            raise BadRequest("give 'options' as an object of numbers and true/false values")
        for spec in seats:
            if not isinstance(spec, str):
                raise BadRequest("every seat is 'human' or an AI level")
            if spec != HUMAN:
                make_player(spec, game)  # refuses unknown players
        stored = store.create(game, options, seats)
        return JSONResponse(game_view(stored), status_code=201)

    async def show(request: Request) -> Response:
        return JSONResponse(game_view(store.load(request.path_params["id"])))

    async def move(request: Request) -> Response:
        data = await _body(request)
        game_id, ply, text = request.path_params["id"], _field(data, "ply", int), _field(data, "move", str)
        stored = store.load(game_id)
        if stored.seats[stored.game.state.to_move] != HUMAN and not stored.game.state.is_over():
            raise Conflict(f"it is the AI's turn (seat {stored.game.state.to_move + 1})")
        return JSONResponse(game_view(store.play(game_id, ply, text)))

    async def ai(request: Request) -> Response:
        data = await _body(request)
        game_id, ply = request.path_params["id"], _field(data, "ply", int)
        stored = store.load(game_id)
        state = stored.game.state
        if state.is_over():
            raise Conflict("the game is over")
        spec = stored.seats[state.to_move]
        if spec == HUMAN or stored.ply != ply:
            raise Conflict("it is not an AI's turn in the position you saw")
        player = make_player(spec, state.name, seed=ply)
        chosen = await run_in_threadpool(player.step, state)
        return JSONResponse(game_view(store.play(game_id, ply, chosen.to_str())))

    async def undo(request: Request) -> Response:
        data = await _body(request)
        game_id, ply = request.path_params["id"], _field(data, "ply", int)
        stored = store.load(game_id)
        return JSONResponse(game_view(store.undo(game_id, ply, _previous_human_turn(stored))))

    async def record(request: Request) -> Response:
        stored = store.load(request.path_params["id"])
        stored.game.tags.update({f"Seat{i + 1}": spec for i, spec in enumerate(stored.seats)})
        headers = {"Content-Disposition": f'attachment; filename="{stored.game.start.name}-{stored.id}.txt"'}
        return PlainTextResponse(stored.game.to_record(), headers=headers)

    async def info(request: Request) -> Response:
        return JSONResponse(meta())

    def route(path: str, handler: Handler, methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            return await api(request, handler)

        return Route(path, endpoint, methods=methods)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def page(request: Request) -> Response:
        store.load(request.path_params["id"])
        return FileResponse(STATIC / "game.html")

    async def page_or_404(request: Request) -> Response:
        try:
            return await page(request)
        except NotFound as error:
            return PlainTextResponse(str(error), status_code=404)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/games/{id}", page_or_404),
            route("/api/meta", info, ["GET"]),
            route("/api/games", create, ["POST"]),
            route("/api/games/{id}", show, ["GET"]),
            route("/api/games/{id}/moves", move, ["POST"]),
            route("/api/games/{id}/ai", ai, ["POST"]),
            route("/api/games/{id}/undo", undo, ["POST"]),
            route("/api/games/{id}/record", record, ["GET"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )


def _previous_human_turn(stored: StoredGame) -> int:
    """The ply to go back to: the last time a human was to move, before the last move."""
    seats, states = stored.seats, stored.game.states
    for ply in range(stored.ply - 1, -1, -1):
        if seats[states[ply].to_move] == HUMAN:
            return ply
    raise BordspelError("there is no human move to take back")
