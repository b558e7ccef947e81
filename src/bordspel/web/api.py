"""The JSON API's handlers: bodies read and checked here, the rules in ``actions``, the work in threads.

Nothing here runs engine, rendering or SQLite work on the event loop: the store, the views and
the start positions go to Starlette's thread pool, the computer's search to the ``AIPool``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from bordspel.core import BordspelError
from bordspel.web import actions
from bordspel.web.accounts import COOKIE, Account, Accounts, Limits, server_secret
from bordspel.web.ai_pool import BOARD, AIPool, SharedTasks, analyse_lines, analyse_position, deadline_for
from bordspel.web.clocks import TimeControl
from bordspel.web.deepening import deepening
from bordspel.web.events import Changes, StreamSlots, snapshot_stream, version_stream
from bordspel.web.graphs import GRAPH_TIME, GraphQueue, GraphRunner
from bordspel.web.jobs import GRACE, JobQueue, JobRunner
from bordspel.web.lobby import LOBBY, RANDOM, Lobby, Seated
from bordspel.web.notices import NoticeReader, notice_keys
from bordspel.web.options import start_state
from bordspel.web.profiles import keep_results
from bordspel.web.ratings import challenge_ratings, rating_view
from bordspel.web.seats import HUMAN, bearer_token, budgeted_spec, check_seats
from bordspel.web.store import Busy, Conflict, Forbidden, GameStore, NotFound, StoredGame, TooMany
from bordspel.web.supervise import Supervisor
from bordspel.web.views import board_view, game_view, position_view, record_text, rules_view, start_options

__all__ = ["QUEUED_PER_WORKER", "Api", "ApiSettings", "BadRequest", "WorkPool", "challenge_id", "game_id"]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_VERSION = 2**53
LOG = logging.getLogger("bordspel.web")
MAX_LINES = 5
"""Best lines the analysis board shows at most."""
ANALYST = "hard"
"""The level whose search answers ``GET /api/games/{id}/analysis`` (within the server's budget)."""
AI_POLL = 0.5
"""Seconds between looks at the stored version while ``POST /ai`` waits for a worker's move."""
WAITING = 16
"""Calls that may wait for a thread of a ``WorkPool``; past it 503, at once."""

T = TypeVar("T")


class BadRequest(BordspelError):
    """A request the API cannot read."""


QUEUED_PER_WORKER = 4
"""The default bound on the computer's waiting moves, per worker (``ApiSettings.queue_bound``)."""
DEFAULT_JOB_WORKERS = 2


@dataclass(frozen=True)
class ApiSettings:
    """The server's settings for the API: the computer's time and workers, live updates."""

    ai_time: float = 10.0
    """Seconds of search and solving for every level of the computer."""
    job_workers: int = DEFAULT_JOB_WORKERS
    """Workers in this process that make the computer's owed moves (``web/jobs.py``); 0: none
    here, separate ``bordspel worker`` processes make them."""
    job_lease: float = 10.0
    """Seconds a worker holds a job without renewing it; then another worker may take it."""
    shutdown_grace: float = GRACE
    """Seconds the running computer moves get to land at shutdown before they are handed back."""
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
    flag_poll: float = 0.5
    """Seconds between the looks of a serve process for flags that fell (``Api.keep_time``)."""
    clock_scale: float = 1.0
    """Real seconds per second of a time control: 1 but in tests and demonstrations."""
    challenge_lifetime: float = 3600.0
    """Seconds an open challenge waits in the lobby for its players."""
    challenges_per_address: int = 5
    """Open challenges one address may have at once."""
    board_analyses_per_address: int = 2
    """Analysis-board analyses one address may have running or waiting at once (in one process)."""
    signups_per_hour: int | None = None
    """New accounts one address may make in an hour (None: no limit; ``bordspel serve``: 5)."""
    secret: str | None = None
    """The key that signs session cookies (None: one made once and kept in the store)."""
    password_cost: str = "RFC_9106_LOW_MEMORY"
    """The ``argon2.profiles`` parameters of new password hashes (the tests use ``CHEAPEST``)."""
    graph_workers: int = 0
    """Evaluation graphs of finished games made in this process at once (``web/graphs.py``): 0
    or 1 (``bordspel serve``: 1); with 0 the graphs wait for a process that makes them."""
    graph_time: float = GRAPH_TIME
    """Seconds of analysis per position of a graph."""
    max_queued_jobs: int | None = None
    """The computer's moves that may wait for a worker, in the whole store; a new game or a move
    that would owe one more is refused with 503 (None: ``QUEUED_PER_WORKER`` for each of this
    process's workers, or of ``job_workers``' default with none here)."""

    def queue_bound(self) -> int:
        """``max_queued_jobs``, or its default from the workers."""
        workers = self.job_workers or DEFAULT_JOB_WORKERS
        return self.max_queued_jobs if self.max_queued_jobs is not None else QUEUED_PER_WORKER * workers


class PerAddress:
    """Requests of one kind in progress, counted per address: past ``limit`` at once, TooMany (429)."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what
        self._running: Counter[str] = Counter()

    @contextmanager
    def held(self, address: str) -> Iterator[None]:
        """Count one more of ``address``'s requests while the block runs, or refuse it."""
        self.take(address)
        try:
            yield
        finally:
            self.give_back(address)

    def take(self, address: str) -> None:
        """Count one more of ``address``'s requests (``give_back`` when it ends), or refuse it."""
        if self._running[address] >= self.limit:
            raise TooMany(
                f"your address has {self.limit} {self.what} in progress: wait for them before asking more",
                retry_after=10,
            )
        self._running[address] += 1

    def give_back(self, address: str) -> None:
        """One of ``address``'s requests has ended."""
        self._running[address] -= 1
        if self._running[address] <= 0:
            del self._running[address]


class WorkPool:
    """Costly work of one kind (password hashes, puzzle proofs) in ``threads`` threads of its own,
    with at most ``waiting`` more calls queued (then Busy: 503, at once), so that a flood of one
    kind of request neither starves another nor holds the threads of Starlette's pool."""

    def __init__(self, threads: int, what: str, waiting: int = WAITING) -> None:
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix=what)
        self.bound, self.what, self.taken = threads + waiting, what, 0

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in one of the pool's threads."""
        if self.taken >= self.bound:
            raise Busy(f"the server is checking many {self.what} at once: try again in a few seconds")
        self.taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, functools.partial(function, *args)
            )
        finally:
            self.taken -= 1


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


def _creators_seat(seats: list[str], you: int, account: str | None) -> list[str | None] | None:
    """The seats' accounts of a new game: the creator's account in their seat, if they have one."""
    if account is None or seats[you] != HUMAN:
        return None
    return [account if seat == you else None for seat in range(len(seats))]


class Api:
    """The JSON API's handlers over the game store, the players' pool and the live updates."""

    def __init__(self, store: GameStore, settings: ApiSettings) -> None:
        self.store = store
        self.settings = settings
        limits = Limits(signups_per_hour=settings.signups_per_hour)
        self.accounts = Accounts(
            store, settings.secret or server_secret(store), limits, settings.password_cost
        )
        keep_results(store)
        self.hints = AIPool(1, deadline_for(settings.ai_time), max_waiting=8)
        """Hints have a worker of their own: an owed move never waits behind them."""
        self.analyses = SharedTasks()
        self.board_analyses = PerAddress(
            settings.board_analyses_per_address, "analyses on the analysis board"
        )
        self.changes = Changes()
        self.supervisor = Supervisor()
        """Runs the background loops (flags, fan-out, workers) and knows which are failing."""
        self.jobs = JobQueue(store, settings.job_lease)
        self.runner = self._runner() if settings.job_workers else None
        """The workers of this process, if it has any (the app starts and stops them)."""
        self.graphs = GraphQueue(store, settings.job_lease)
        self.grapher = (
            GraphRunner(store, settings.graph_time, lease=settings.job_lease, supervisor=self.supervisor)
            if settings.graph_workers
            else None
        )
        """The graph worker of this process, if it has one (the app starts and stops it)."""
        self.streams = StreamSlots(settings.streams_per_client, settings.streams_total)
        self.game_parts: dict[str, tuple[Callable[[str], str], Callable[[str], int]]] = {}
        """The game stream's other numbered parts: per name, the key of a game's part and its number."""
        self.lobby = Lobby(
            store, settings.challenge_lifetime, settings.challenges_per_address, settings.games_per_minute
        )

    async def account(self, request: Request) -> Account | None:
        """The account of the request's session cookie, if it is signed by this server and open."""
        session = self.accounts.session_of(request.cookies.get(COOKIE))
        return None if session is None else await run_in_threadpool(self.accounts.account_of, session)

    async def account_id(self, request: Request) -> str | None:
        """The id of the request's account, if it is logged in."""
        account = await self.account(request)
        return None if account is None else account.id

    async def seat_of(self, request: Request, key: str) -> int | None:
        """The request's seat in game ``key``: by its token, else by its account."""
        account = await self.account_id(request)
        return await run_in_threadpool(self.store.seat_of, key, bearer_token(request), account)

    def _runner(self) -> JobRunner:
        settings = self.settings
        workers, lease = settings.job_workers, settings.job_lease
        return JobRunner(
            self.store,
            settings.ai_time,
            workers,
            lease=lease,
            landed=self.changes.notify,
            supervisor=self.supervisor,
        )

    async def _view(self, stored: StoredGame, status_code: int = 200, **extra: Any) -> JSONResponse:
        view = await run_in_threadpool(game_view, stored)
        if stored.rated:
            view.update(await run_in_threadpool(rating_view, self.store, stored))
        return JSONResponse({**view, "ai_time": self.settings.ai_time, **extra}, status_code=status_code)

    async def _change(
        self, request: Request, data: dict[str, Any], edit: Callable[[StoredGame, int | None], None]
    ) -> Response:
        """Apply ``edit`` as the request's seat (by token or account), at the version it saw; wake
        the live updates."""
        account = await self.account_id(request)
        stored = await run_in_threadpool(
            self.store.change, game_id(request), _version(data), bearer_token(request), edit, account
        )
        self._changed(stored)
        return await self._view(stored)

    def _changed(self, stored: StoredGame) -> None:
        """Wake the live updates, and this process's workers when a computer move is owed."""
        self.changes.notify(stored.id)
        if self.runner is not None and stored.owed_level() is not None:
            self.runner.wake()

    async def create(self, request: Request) -> Response:
        """``POST /api/games``: a new game with its seats and their tokens; the creator's seat is
        bound to their account when they are logged in."""
        data = await read_json(request)
        game = _field(data, "game", str)
        start = await run_in_threadpool(start_state, game, data.get("options", {}))
        seats = check_seats(start, data.get("seats"))
        clock = self.time_control(data)
        creator, limit = request.client.host if request.client else "", self.settings.games_per_minute
        you = seats.index(HUMAN) if HUMAN in seats else 0
        accounts = _creators_seat(seats, you, await self.account_id(request))
        create = functools.partial(self.store.create, accounts=accounts)
        stored, tokens = await run_in_threadpool(create, start, seats, creator, limit, clock)
        self._changed(stored)
        page = f"/games/{stored.id}"
        links = {"seats": [f"{page}#seat={token}" for token in tokens], "spectator": page}
        view = await run_in_threadpool(game_view, stored)
        extra = {"ai_time": self.settings.ai_time, "you": you, "tokens": tokens, "links": links}
        return JSONResponse({**view, **extra}, status_code=201)

    def time_control(self, data: dict[str, Any]) -> TimeControl | None:
        """The request's ``clock`` (None or absent: an untimed game)."""
        given = data.get("clock")
        return None if given is None else TimeControl.parse(given, self.settings.clock_scale)

    async def keep_time(self) -> None:
        """Settle the flags that fall, every ``flag_poll`` seconds, for as long as the server runs.

        Every serve process runs this; the store's version check lets one settlement land. Any
        other error is the supervisor's: logged, counted, tried again after a back-off."""
        await self.supervisor.forever("clocks", self._settle_and_wait)

    async def _settle_and_wait(self) -> None:
        try:
            await self.settle_flags()
        except Busy as error:  # the store is busy: look again next time
            LOG.warning("settling flags: %s", error)
        await asyncio.sleep(self.settings.flag_poll)

    async def settle_flags(self) -> int:
        """Record every flag that has fallen by now; the number settled here."""
        settled = 0
        for key, version in await run_in_threadpool(self.store.due_flags, time.time()):
            try:
                await run_in_threadpool(self.store.change, key, version, None, actions.settle_flag)
            except (Conflict, NotFound):
                continue  # another process settled it, or a move landed in time
            except BordspelError as error:  # this game cannot be read (its game's plugin is gone)
                LOG.warning("settling the flag of game %s: %s", key, error)
                continue
            self.changes.notify(key)
            settled += 1
        return settled

    async def show(self, request: Request) -> Response:
        """``GET /api/games/{id}``: the game as the token's seat (or a spectator) sees it."""
        key = game_id(request)
        seat = await self.seat_of(request, key)
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

    async def abort(self, request: Request) -> Response:
        """``POST /api/games/{id}/abort``: the caller's seat calls the game off before every seat
        has moved (409 afterwards): unrated, nobody wins."""
        return await self._change(request, await read_json(request), actions.abort)

    async def takeback(self, request: Request) -> Response:
        """``POST /api/games/{id}/takeback``: accept, decline or withdraw a takeback request."""
        data = await read_json(request)
        return await self._change(request, data, actions.answer_takeback(_field(data, "accept", bool)))

    async def ai(self, request: Request) -> Response:
        """``POST /api/games/{id}/ai``: the game once the computer's move owed at ``version`` is made.

        A worker makes the move whether or not anyone asks (``web/jobs.py``); this waits for it
        (503 past the deadline and a lease). A game that has moved on since ``version`` answers
        as it is now.
        """
        data = await read_json(request)
        key, version = game_id(request), _version(data)
        seat = await self.seat_of(request, key)
        if seat is None:
            raise Forbidden("only a player of this game may ask the computer to move")
        stored = await run_in_threadpool(self.store.load, key)
        if stored.version > version:
            return await self._view(stored)
        if stored.version != version or stored.owed_level() is None:
            raise Conflict("it is not the computer's turn in the position you saw")
        await run_in_threadpool(self.store.owe, stored)  # a game stored before moves were jobs
        self._changed(stored)
        return await self._view(await self._moved_on(stored, request))

    async def _moved_on(self, stored: StoredGame, request: Request) -> StoredGame:
        """The game once its version is past ``stored``'s: woken by this process's workers, and
        looking at the store for the others'."""
        end = time.monotonic() + deadline_for(self.settings.ai_time) + self.settings.job_lease
        while time.monotonic() < end and not await request.is_disconnected():
            changed = self.changes.event(stored.id)
            if await run_in_threadpool(self.store.version, stored.id) != stored.version:
                return await run_in_threadpool(self.store.load, stored.id)
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), AI_POLL)
        raise Busy("no worker has made the computer's move yet: try again in a moment")

    async def analysis(self, request: Request) -> Response:
        """``GET /api/games/{id}/analysis``: the best move in the current position, its score and line.

        A hint for a person playing the computer (see ``actions.check_hint``); the server's own
        level and budget bound the work, and one analysis runs per game and version however many ask.
        """
        key = game_id(request)
        seat = await self.seat_of(request, key)
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

    async def rematch(self, request: Request) -> Response:
        """``POST /api/games/{id}/rematch``: the caller's seat in the rematch (one seat on, the
        same options and clock, each seat's own options, e.g. gods, moved with their player)."""
        key = game_id(request)
        stored = await run_in_threadpool(self.store.load, key)
        options = _turned(start_options(stored.game.states[0]))
        start = await run_in_threadpool(start_state, stored.state.name, options)
        address, limit = request.client.host if request.client else "", self.settings.games_per_minute
        rematch = functools.partial(self.store.rematch, key, bearer_token(request), start, address, limit)
        new, seat, token = await run_in_threadpool(rematch)
        self.changes.notify(key)
        self._changed(new)
        link = f"/games/{new.id}#seat={token}"
        return await self._view(new, you=seat, token=token, link=link, status_code=201)

    async def decline_rematch(self, request: Request) -> Response:
        """``POST /api/games/{id}/rematch/decline``: the caller's seat turns down the rematch another
        player started (before taking a seat in it): it is aborted; this game, as it is now."""
        key = game_id(request)
        rematch = await run_in_threadpool(self.store.decline_rematch, key, bearer_token(request))
        self.changes.notify(rematch.id)
        self.changes.notify(key)
        return await self._view(await run_in_threadpool(self.store.load, key))

    async def record(self, request: Request) -> Response:
        """``GET /api/games/{id}/record``: the game record as a download."""
        stored = await run_in_threadpool(self.store.load, game_id(request))
        text = await run_in_threadpool(record_text, stored)
        filename = f"{stored.state.name}-{stored.id}.txt"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def events(self, request: Request) -> Response:
        """``GET /api/games/{id}/events``: a stream of the game's versions (Server-Sent Events),
        and of the numbers of the game's other live parts (``game_parts``: the chat's)."""
        key = game_id(request)
        await run_in_threadpool(self.store.version, key)  # NotFound before the stream starts
        parts: dict[str, tuple[str, Callable[[], int]]] = {
            "version": (key, functools.partial(self.store.version, key))
        }
        for name, (key_of, read) in self.game_parts.items():
            parts[name] = (key_of(key), functools.partial(read, key))
        return self.stream(request, parts)

    async def notices(self, request: Request) -> Response:
        """``GET /api/notices``: a stream of the logged-in account's games (Server-Sent Events,
        ``bordspel.web.notices``): 403 without a session."""
        account = await self.account_id(request)
        if account is None:
            raise Forbidden("notices are for accounts: sign up or log in")
        reader = NoticeReader(self.store, account)

        async def read() -> dict[str, Any]:
            return await run_in_threadpool(reader.snapshot)

        settings = self.settings
        stream = snapshot_stream(
            read, notice_keys, self.changes, settings.events_lifetime, settings.events_poll
        )
        return self._streaming(request, stream)

    async def lobby_events(self, request: Request) -> Response:
        """``GET /api/lobby/events``: a stream of the lobby's versions (Server-Sent Events)."""
        return self.stream(request, {"version": (LOBBY, self.lobby.version)})

    def stream(self, request: Request, parts: dict[str, tuple[str, Callable[[], int]]]) -> Response:
        """A stream (Server-Sent Events) of each part's number, read again whenever its key changes."""
        numbered = {name: (key, _in_thread(read)) for name, (key, read) in parts.items()}
        settings = self.settings
        stream = version_stream(numbered, self.changes, settings.events_lifetime, settings.events_poll)
        return self._streaming(request, stream)

    def _streaming(self, request: Request, stream: AsyncIterator[str]) -> Response:
        """``stream`` as Server-Sent Events, counted against the open streams' limits."""
        client = request.client.host if request.client else ""
        self.streams.take(client)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(
            self.streams.held(client, stream), media_type="text/event-stream", headers=headers
        )

    async def graph(self, request: Request) -> Response:
        """``GET /api/games/{id}/graph``: the finished game's evaluation graph (``web/graphs.py``),
        or its ``status`` while it waits (``none``: the game goes on, or it has no graph)."""
        key = game_id(request)
        await run_in_threadpool(self.store.version, key)  # NotFound for a game that is not there
        return JSONResponse(await run_in_threadpool(self.graphs.view, key))

    # -- the analysis board ----------------------------------------------------------------------
    async def board(self, request: Request) -> Response:
        """``GET /api/board?game=G[&position=P][&move=M]``: a position (the start without one), after
        ``move`` if given, to look at and play on, with its legal moves; nothing is stored."""
        game, position = _query(request, "game"), request.query_params.get("position")
        move = request.query_params.get("move")
        return JSONResponse(await run_in_threadpool(board_view, game, position, move))

    async def board_analysis(self, request: Request) -> Response:
        """``GET /api/board/analysis?game=G&position=P&lines=N``: the best ``N`` (1 to 5) moves of
        the position, each with its score, line and, where a solver knows it, the exact result.
        The hint worker does it within the server's budget, after the seated players' hints that
        wait; one analysis per position and count, and ``board_analyses_per_address`` at once
        from one address (429 past it)."""
        game, position, lines = await _board_question(request)
        spec = budgeted_spec(game, ANALYST, self.settings.ai_time)
        with self.board_analyses.held(request.client.host if request.client else ""):
            found = await self.analyses.run(
                (game, position, lines),
                lambda: self.hints.run(analyse_lines, game, position, spec, lines, priority=BOARD),
                gone=request.is_disconnected,
            )
        return JSONResponse({"game": game, "position": position, "lines": found})

    async def board_analysis_stream(self, request: Request) -> Response:
        """``GET /api/board/analysis/stream?game=G&position=P&lines=N``: the best ``N`` lines of
        the position again and again, deeper each time, as server-sent events
        (``web/deepening.py``); it counts as one of the address's ``board_analyses_per_address``
        for as long as it runs."""
        game, position, lines = await _board_question(request)
        address = request.client.host if request.client else ""

        async def step(seconds: float) -> list[dict[str, Any]]:
            spec = budgeted_spec(game, ANALYST, seconds, deeper=True)
            return await self.hints.run(analyse_lines, game, position, spec, lines, priority=BOARD)

        async def stream() -> AsyncIterator[str]:
            try:
                async for text in deepening(step, self.settings.ai_time):
                    yield text
            finally:
                self.board_analyses.give_back(address)

        self.board_analyses.take(address)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    # -- the lobby -------------------------------------------------------------------------------
    async def post_challenge(self, request: Request) -> Response:
        """``POST /api/challenges``: an open challenge; 201 with its ``id`` and the creator's seat token."""
        data = await read_json(request)
        game = _field(data, "game", str)
        options = data.get("options", {})
        start = await run_in_threadpool(start_state, game, options)
        control, rated = self.time_control(data), _rated(data)
        seat = _seat_choice(data.get("seat", RANDOM), start.num_players)
        address, account = request.client.host if request.client else "", await self.account_id(request)
        post = functools.partial(self.lobby.post, account=account)
        seated = await run_in_threadpool(post, start, options, control, rated, seat, address)
        self.changes.notify(LOBBY)
        return JSONResponse({"id": seated.challenge.id, **self._seated(seated)}, status_code=201)

    async def challenge(self, request: Request) -> Response:
        """``GET /api/challenges/{id}``: the challenge, its seats taken and, once full, its game's id."""
        found = await run_in_threadpool(self.lobby.load, challenge_id(request))
        return JSONResponse(found.view(time.time()))

    async def accept(self, request: Request) -> Response:
        """``POST /api/challenges/{id}/accept``: take a seat (``seat``, or the first free one);
        201 with its token and, when it was the last seat, the game."""
        data = await read_json(request)
        key = challenge_id(request)
        found = await run_in_threadpool(self.lobby.load, key)
        wanted = None if data.get("seat") is None else int(_seat_choice(data["seat"], found.seats, False))
        start = await run_in_threadpool(start_state, found.game, found.options)
        address, account = request.client.host if request.client else "", await self.account_id(request)
        take = functools.partial(self.lobby.take, account=account)
        seated = await run_in_threadpool(take, key, start, wanted, bearer_token(request), address)
        self.changes.notify(LOBBY)
        return JSONResponse(self._seated(seated), status_code=201)

    async def cancel(self, request: Request) -> Response:
        """``DELETE /api/challenges/{id}``: its creator withdraws it."""
        found = await run_in_threadpool(self.lobby.cancel, challenge_id(request), bearer_token(request))
        self.changes.notify(LOBBY)
        return JSONResponse(found.view(time.time()))

    async def show_lobby(self, request: Request) -> Response:
        """``GET /api/lobby``: the open ``challenges`` and the ``games`` in progress to watch."""
        challenges, games = await run_in_threadpool(self.lobby.listing)
        ratings = await run_in_threadpool(challenge_ratings, self.store, challenges)
        now = time.time()
        listed = [{**found.view(now), "ratings": ratings.get(found.id)} for found in challenges]
        return JSONResponse({"challenges": listed, "games": games})

    def _seated(self, seated: Seated) -> dict[str, Any]:
        game = seated.game
        link = None if game is None else f"/games/{game.id}#seat={seated.token}"
        extra = {"ai_time": self.settings.ai_time, "you": seated.seat}
        view = None if game is None else {**game_view(game), **extra}
        return {
            "challenge": seated.challenge.view(time.time()),
            "you": seated.seat,
            "token": seated.token,
            "link": link,
            "game": view,
        }


def _in_thread(read: Callable[[], int]) -> Callable[[], Awaitable[int]]:
    """``read`` run in the thread pool (it reads the database)."""

    async def number() -> int:
        return await run_in_threadpool(read)

    return number


async def _board_question(request: Request) -> tuple[str, str, int]:
    """The game, the position (as the board writes it) and the number of lines an analysis of
    the analysis board asks for; refused for a position where the game is over."""
    game, position = _query(request, "game"), _query(request, "position")
    text = _query(request, "lines", "3")
    if not (text.isascii() and text.isdigit() and len(text) < 3 and 1 <= int(text) <= MAX_LINES):
        raise BadRequest(f"'lines' is a number of lines from 1 to {MAX_LINES}")
    view = await run_in_threadpool(board_view, game, position)  # checks the game and position
    if view["outcome"] is not None:
        raise Conflict("the game is over in this position: there is nothing to analyse")
    return game, view["position"], int(text)


def _query(request: Request, name: str, default: str | None = None) -> str:
    value = request.query_params.get(name, default)
    if value is None:
        raise BadRequest(f"give '{name}' in the address (?{name}=...)")
    return value


def _turned(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a rematch: a value chosen seat by seat (``a,b``) moves one seat on with its player."""

    def turn(value: Any) -> Any:
        if not isinstance(value, str) or "," not in value:
            return value
        parts = value.split(",")
        return ",".join(parts[-1:] + parts[:-1])

    return {key: turn(value) for key, value in options.items()}


def challenge_id(request: Request) -> str:
    """The challenge id of the path; NotFound for anything that cannot be one."""
    value = str(request.path_params["id"])
    if not GAME_ID.fullmatch(value):
        raise NotFound("there is no such challenge")
    return value


def _rated(data: dict[str, Any]) -> bool:
    """Whether the challenge is rated (between accounts: ``Lobby`` checks)."""
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise BadRequest("give 'rated' as true or false")
    return rated


def _seat_choice(value: object, seats: int, random_too: bool = True) -> int | str:
    """A seat number from 0 (or ``random``) within the game's seats."""
    if random_too and value == RANDOM:
        return RANDOM
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        choices = f"a seat from 0 to {seats - 1}" + (" or 'random'" if random_too else "")
        raise BadRequest(f"give 'seat' as {choices}")
    return value
