"""The browser app: a Starlette application over the game store, the engines and the players.

Pages (HTML from ``bordspel.web.pages``; CSS and JavaScript modules from ``static/``) and a
JSON API; see the README's "The JSON API" for the routes. A game's seats each have a secret
token, sent as ``Authorization: Bearer <token>``; the page of a seat is
``/games/<id>#seat=<token>`` (a URL fragment, which browsers never send to the server, so tokens
stay out of logs), and ``/games/<id>`` alone is the read-only spectator's page.

A seat bound to an account (``bordspel.web.accounts``) is also authorised by the account's
session cookie.

Errors are JSON ``{"error": reason}``: 400 for a malformed request, an illegal move or a refused
username or password, 403 for a missing or wrong seat token, a wrong log-in (or a refused
Host/Origin), 404 for an unknown game, player or route, 405 for a wrong method, 409 when the game
changed since the caller looked (or it is not that seat's turn), 413 for a body over the limit,
415 for a body that is not JSON, 429 (with Retry-After) past the limit on new games, new accounts
or failed log-ins from one address (or for one account), 503 (with Retry-After) when the store or the
computer is busy, or when the computer has as many moves waiting as ``--max-queued-jobs``
allows and the request would owe it one more; nothing is stored then.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bordspel.core import BordspelError
from bordspel.web.account_api import AccountApi
from bordspel.web.ai_pool import AITimeout
from bordspel.web.api import Api, ApiSettings, game_id
from bordspel.web.chat_api import ChatApi
from bordspel.web.fanout import listen
from bordspel.web.metrics import STORE_WAIT, JobsCollector, Observed, exposition, forget_process
from bordspel.web.pages import render
from bordspel.web.puzzles_api import PuzzlesApi
from bordspel.web.security import Guard, GuardSettings
from bordspel.web.store import Busy, Conflict, Forbidden, GameStore, NotFound, TooMany
from bordspel.web.views import meta

__all__ = ["ApiSettings", "GuardSettings", "create_app"]

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("bordspel.web")
Handler = Callable[[Request], Awaitable[Response]]
STATUS = ((NotFound, 404), (Forbidden, 403), (Conflict, 409), (TooMany, 429), (Busy, 503), (AITimeout, 503))
RETRY_AFTER = {429: "60", 503: "1"}


def error_response(error: BordspelError) -> JSONResponse:
    status = next((code for kind, code in STATUS if isinstance(error, kind)), 400)
    retry = str(getattr(error, "retry_after", RETRY_AFTER.get(status, "")))
    headers = {"Retry-After": retry} if retry else None
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


def _delete(path: str, handler: Handler) -> Route:
    return Route(path, _api(handler), methods=["DELETE"])


def _page(name: str, status: int = 200) -> Response:
    """The site's page ``name`` (``bordspel.web.pages``)."""
    return HTMLResponse(render(name), status_code=status)


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a script or picture)."""
    accept = request.headers.get("accept", "")
    return not request.url.path.startswith(("/api/", "/static/")) and "text/html" in accept


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404 and _wants_page(request):
        return _page("missing", 404)
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)


def _drain_on_signals(drain: Callable[[], None]) -> None:
    """SIGTERM and Ctrl-C call ``drain`` (in the event loop) before the server's own handling:
    in the server's main thread, whether uvicorn runs one process or several."""
    if threading.current_thread() is not threading.main_thread():
        return  # a server in a thread (tests): it has no signals
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        server = signal.getsignal(number)
        if callable(server):
            signal.signal(number, functools.partial(_draining, loop, drain, server))


def _draining(
    loop: asyncio.AbstractEventLoop, drain: Callable[[], None], server: Callable[..., Any], *args: Any
) -> None:
    loop.call_soon_threadsafe(drain)
    server(*args)


async def _server_error(request: Request, error: Exception) -> Response:
    LOG.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    return JSONResponse({"error": "the server failed on this request"}, status_code=500)


def create_app(
    db: str | Path,
    settings: ApiSettings | None = None,
    *,
    allowed_hosts: Iterable[str] = (),
    allowed_origins: Iterable[str] = (),
    pubsub: str | None = None,
) -> Starlette:
    """The app, storing its games in ``db``: an SQLite file or a ``postgresql://`` URL. Live
    updates reach every process serving the same database, through it or through ``pubsub``
    (a ``redis://`` URL; see ``bordspel.web.fanout``)."""
    settings = settings or ApiSettings()
    store = GameStore(db, pubsub=pubsub, max_queued=settings.queue_bound())
    api = Api(store, settings)
    accounts = AccountApi(api)
    chat = ChatApi(api)
    puzzles = PuzzlesApi(api)
    info = meta()
    draining = False

    def drain() -> None:
        """The server shuts down: not ready any more, streams end with a retry hint, no new jobs."""
        nonlocal draining
        draining = True
        api.changes.close()
        if api.runner:
            api.runner.stop()

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "alive"})

    async def readyz(request: Request) -> Response:
        problems = ["the server is shutting down"] if draining else []
        problems += api.supervisor.problems()
        try:
            workers = await run_in_threadpool(api.jobs.workers_alive)
        except Exception as error:  # whatever the store raises: not ready, and the log says why
            LOG.warning("readiness: the store is unreachable: %s", error)
            problems.append("the game store is unreachable")
        else:
            if not workers:
                problems.append("no worker is alive: start 'bordspel worker' (or serve without --no-workers)")
        if problems:
            return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready", "workers": workers})

    async def metrics(request: Request) -> Response:
        read = run_in_threadpool(JobsCollector.read, api.jobs.counts, api.jobs.workers_alive)
        try:
            jobs: JobsCollector | None = await asyncio.wait_for(read, STORE_WAIT)
        except Exception as error:  # whatever the store raises, or no answer in time: the rest still counts
            LOG.warning("metrics: the store's gauges are left out: %s", error)
            jobs = None
        return Response(await run_in_threadpool(exposition, jobs), media_type=CONTENT_TYPE_LATEST)

    async def show_meta(request: Request) -> Response:
        return JSONResponse(info)

    async def index(request: Request) -> Response:
        return _page("start")

    async def page(request: Request) -> Response:
        try:
            await run_in_threadpool(store.version, game_id(request))
        except NotFound:
            return _page("missing", 404)
        return _page("game")

    async def rules_page(request: Request) -> Response:
        if not info["games"].get(request.path_params["game"], {}).get("rules"):
            return _page("missing", 404)
        return _page("rules")

    async def lobby_page(request: Request) -> Response:
        return _page("lobby")

    async def analysis_page(request: Request) -> Response:
        return _page("analysis")

    async def player_page(request: Request) -> Response:
        found = await run_in_threadpool(api.accounts.find, str(request.path_params["username"]))
        return _page("player", 200 if found else 404)

    async def puzzles_page(request: Request) -> Response:
        return _page("puzzles")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _drain_on_signals(drain)
        fan_out = functools.partial(listen, store.db, pubsub, api.changes)
        listener = asyncio.create_task(api.supervisor.forever("fan-out", fan_out))
        keeping_time = asyncio.create_task(api.keep_time())
        if api.runner:
            api.runner.start()
        if api.grapher:
            api.grapher.start()
        yield
        if api.grapher:
            await api.grapher.close()
        if api.runner:
            await api.runner.close(api.settings.shutdown_grace)
        for task in (listener, keeping_time):
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        api.hints.close()
        store.close()
        forget_process()

    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        Route("/", index),
        Route("/games/{id}", page),
        Route("/rules/{game}", rules_page),
        Route("/lobby", lobby_page),
        Route("/analysis", analysis_page),
        Route("/players/{username}", player_page),
        Route("/puzzles", puzzles_page),
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
        _post("/api/games/{id}/abort", api.abort),
        _post("/api/games/{id}/rematch", api.rematch),
        _post("/api/games/{id}/rematch/decline", api.decline_rematch),
        _get("/api/games/{id}/record", chat.record),
        _get("/api/games/{id}/chat", chat.show),
        _post("/api/games/{id}/chat", chat.write),
        _post("/api/games/{id}/chat/settings", chat.choose),
        _get("/api/games/{id}/events", api.events),
        _get("/api/games/{id}/analysis", api.analysis),
        _get("/api/games/{id}/graph", api.graph),
        _get("/api/board", api.board),
        _get("/api/board/analysis", api.board_analysis),
        _get("/api/puzzles/next", puzzles.next),
        _get("/api/puzzles/{id}", puzzles.show),
        _post("/api/puzzles/{id}/moves", puzzles.move),
        _get("/api/board/analysis/stream", api.board_analysis_stream),
        _get("/api/lobby", api.show_lobby),
        _get("/api/lobby/events", api.lobby_events),
        _get("/api/notices", api.notices),
        _post("/api/challenges", api.post_challenge),
        _get("/api/challenges/{id}", api.challenge),
        _delete("/api/challenges/{id}", api.cancel),
        _post("/api/challenges/{id}/accept", api.accept),
        _post("/api/account", accounts.sign_up),
        _post("/api/account/games", accounts.claim),
        _get("/api/session", accounts.who),
        _post("/api/session", accounts.log_in),
        _delete("/api/session", accounts.log_out),
        _get("/api/players/{username}", accounts.player),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = GuardSettings.of(allowed_hosts, allowed_origins)
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Observed), Middleware(Guard, settings=guard)],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    return app
