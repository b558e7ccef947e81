"""The browser app: a Starlette application over the game store, the engines and the players.

Pages (plain HTML, CSS and JavaScript from ``static/``) and a JSON API; see the README's
"The JSON API" for the routes. A game's seats each have a secret token, sent as
``Authorization: Bearer <token>``; the page of a seat is ``/games/<id>#seat=<token>`` (a URL
fragment, which browsers never send to the server, so tokens stay out of logs), and
``/games/<id>`` alone is the read-only spectator's page.

Errors are JSON ``{"error": reason}``: 400 for a malformed request or an illegal move, 403 for a
missing or wrong seat token (or a refused Host/Origin), 404 for an unknown game or route, 405 for
a wrong method, 409 when the game changed since the caller looked (or it is not that seat's
turn), 413 for a body over the limit, 415 for a body that is not JSON, 429 (with Retry-After)
past the limit on new games from one address, 503 (with Retry-After) when the store or the
computer is busy; nothing is stored then.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bordspel.core import BordspelError
from bordspel.web.api import Api, ApiSettings, game_id
from bordspel.web.security import Guard, GuardSettings
from bordspel.web.store import Busy, Conflict, Forbidden, GameStore, NotFound, TooMany
from bordspel.web.views import meta

__all__ = ["ApiSettings", "GuardSettings", "create_app"]

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("bordspel.web")
Handler = Callable[[Request], Awaitable[Response]]
STATUS = ((NotFound, 404), (Forbidden, 403), (Conflict, 409), (TooMany, 429), (Busy, 503))
RETRY_AFTER = {429: "60", 503: "1"}


def error_response(error: BordspelError) -> JSONResponse:
    status = next((code for kind, code in STATUS if isinstance(error, kind)), 400)
    headers = {"Retry-After": RETRY_AFTER[status]} if status in RETRY_AFTER else None
    return JSONResponse({"error": str(error)}, status_code=status, headers=headers)


def _api(handler: Handler) -> Handler:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except BordspelError as error:
            return error_response(error)

    return endpoint


def _get(path: str, handler: Handler) -> Route:
    return Route(path, _api(handler), methods=["GET"])


def _post(path: str, handler: Handler) -> Route:
    return Route(path, _api(handler), methods=["POST"])


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a script or picture)."""
    accept = request.headers.get("accept", "")
    return not request.url.path.startswith(("/api/", "/static/")) and "text/html" in accept


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404 and _wants_page(request):
        return FileResponse(STATIC / "404.html", status_code=404)
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)


async def _server_error(request: Request, error: Exception) -> Response:
    LOG.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    return JSONResponse({"error": "the server failed on this request"}, status_code=500)


def create_app(
    db_path: str | Path,
    settings: ApiSettings | None = None,
    *,
    allowed_hosts: Iterable[str] = (),
    allowed_origins: Iterable[str] = (),
) -> Starlette:
    """The app, storing its games in the SQLite file ``db_path``."""
    store = GameStore(db_path)
    api = Api(store, settings or ApiSettings())
    info = meta()

    async def show_meta(request: Request) -> Response:
        return JSONResponse(info)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def page(request: Request) -> Response:
        try:
            await run_in_threadpool(store.version, game_id(request))
        except NotFound:
            return FileResponse(STATIC / "404.html", status_code=404)
        return FileResponse(STATIC / "game.html")

    async def rules_page(request: Request) -> Response:
        if not info["games"].get(request.path_params["game"], {}).get("rules"):
            return FileResponse(STATIC / "404.html", status_code=404)
        return FileResponse(STATIC / "rules.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        api.pool.close()
        api.hints.close()

    routes = [
        Route("/", index),
        Route("/games/{id}", page),
        Route("/rules/{game}", rules_page),
        Route("/favicon.ico", favicon),
        _get("/api/rules/{game}", api.rules),
        _get("/api/games/{id}/positions/{ply}", api.position),
        _get("/api/meta", show_meta),
        _post("/api/games", api.create),
        _get("/api/games/{id}", api.show),
        _post("/api/games/{id}/moves", api.move),
        _post("/api/games/{id}/ai", api.ai),
        _post("/api/games/{id}/undo", api.undo),
        _post("/api/games/{id}/takeback", api.takeback),
        _post("/api/games/{id}/resign", api.resign),
        _get("/api/games/{id}/record", api.record),
        _get("/api/games/{id}/events", api.events),
        _get("/api/games/{id}/analysis", api.analysis),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = GuardSettings.of(allowed_hosts, allowed_origins)
    return Starlette(
        routes=routes,
        middleware=[Middleware(Guard, settings=guard)],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
