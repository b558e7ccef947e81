"""The computer's moves, computed in worker processes with a hard deadline.

``AIPool`` has a bounded number of slots, each a one-process ``ProcessPoolExecutor``; a
computation waits for a free slot, and when it overruns its deadline the slot's process is
killed and the slot gets a fresh executor, so that one stuck search never holds the server.
``SharedTasks`` runs one task per key (one computation per game and version): a second request
for the same key joins the first, and when every caller has gone (closed its connection) the
task is cancelled, which kills its worker process. Too many computations waiting at once answer
``Busy``. A worker ends by itself when the server process is gone (``kill -9`` included), so no
search outlives the server.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bordspel.ai import SearchResult, analyse, analyser, make_player
from bordspel.core import BordspelError, GameSpec, available_games, game_class, game_spec, register_game
from bordspel.web.store import Busy

__all__ = [
    "BOARD",
    "HINT",
    "AIPool",
    "AITimeout",
    "CallerGone",
    "SharedTasks",
    "analyse_lines",
    "analyse_position",
    "choose_move",
    "deadline_for",
]

T = TypeVar("T")
PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether the server still runs."""


def deadline_for(ai_time: float) -> float:
    """The hard deadline of a search with ``ai_time`` seconds of budget: the budget and a margin."""
    return ai_time + max(2.0, ai_time / 2)


class AITimeout(BordspelError):
    """The computer did not answer within the server's deadline."""


class CallerGone(BordspelError):
    """The client closed its connection before the answer was ready."""


Gone = Callable[[], Awaitable[bool]]
"""Whether the caller has gone (e.g. ``request.is_disconnected``)."""


def choose_move(game: str, position: str, spec: str, seed: int) -> str:
    """The move of player ``spec`` in ``position`` (runs in a worker process; strings in and out)."""
    state = game_class(game).from_str(position)
    return str(make_player(spec, game, seed=seed).step(state).to_str())


def analyse_position(game: str, position: str, spec: str, seed: int) -> dict[str, Any]:
    """Player ``spec``'s analysis of ``position`` as JSON (runs in a worker process)."""
    state = game_class(game).from_str(position)
    return _found(analyse(spec, state, seed=seed))


def analyse_lines(game: str, position: str, spec: str, lines: int) -> list[dict[str, Any]]:
    """Player ``spec``'s best ``lines`` moves in ``position``, best first, as JSON (in a worker)."""
    state = game_class(game).from_str(position)
    return [_found(found) for found in analyser(spec, game, seed=0).analyse_lines(state, multipv=lines)]


def _found(found: SearchResult) -> dict[str, Any]:
    """A search's answer in JSON: the move, its score and words, an exact result when proven,
    the depth, the positions searched and the line."""
    return {
        "move": str(found.move.to_str()),
        "score": found.score,
        "describe": found.describe(),
        "result": found.result,
        "plies_to_end": found.plies_to_end,
        "proven": found.proven,
        "depth": found.depth,
        "nodes": found.nodes,
        "line": [str(move.to_str()) for move in found.principal_variation],
        "seconds": round(found.seconds, 3),
    }


class _Slot:
    """One worker process, replaced when it has to be killed."""

    def __init__(self) -> None:
        self.executor = _executor()

    def stop(self) -> None:
        """Kill the worker process (the executor's own thread reaps it)."""
        for process in list((self.executor._processes or {}).values()):
            process.kill()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def replace(self) -> None:
        self.stop()
        self.executor = _executor()


def _executor() -> ProcessPoolExecutor:
    specs = [game_spec(name) for name in available_games()]
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=1, mp_context=context, initializer=_start_worker, initargs=(specs, os.getpid())
    )


def _start_worker(specs: list[GameSpec], server: int) -> None:
    """Register in the worker every game this process knows (also those added by a call), and
    end the worker when the server process has gone, even by ``kill -9``."""
    for spec in specs:
        register_game(spec)
    threading.Thread(target=_die_with, args=(server,), daemon=True, name="die-with-server").start()


def _die_with(server: int) -> None:
    """Exit once this process's parent is no longer ``server`` (it was re-parented: the server died)."""
    while os.getppid() == server:
        time.sleep(PARENT_CHECK)
    os._exit(0)


HINT = 0
"""The priority of a seated player's hint (and of the computer's own moves): first in the queue."""
BOARD = 1
"""The priority of an analysis on the analysis board (anyone's): after every hint waiting."""


class AIPool:
    """``workers`` processes; every call has ``deadline`` seconds once it has a process.

    Calls wait for a free process in order of priority (``HINT`` before ``BOARD``), then of
    arrival; at most ``max_waiting`` of each priority wait (then ``Busy``), so a flood of board
    analyses can neither refuse a hint nor delay it past the analysis that is running."""

    def __init__(self, workers: int, deadline: float, max_waiting: int = 32) -> None:
        self.deadline = deadline
        self.max_waiting = max_waiting
        self._slots = [_Slot() for _ in range(workers)]
        self._idle = list(self._slots)
        self._queue: list[tuple[int, int, asyncio.Future[_Slot]]] = []
        self._arrivals = itertools.count()
        self._waiting: Counter[int] = Counter()

    async def run(self, function: Callable[..., T], *args: Any, priority: int = HINT) -> T:
        """``function(*args)`` in a worker process (both picklable); AITimeout past the deadline."""
        if self._waiting[priority] >= self.max_waiting:
            raise Busy("the computer is busy with other games; try again in a moment")
        self._waiting[priority] += 1
        try:
            slot = await self._take(priority)
        finally:
            self._waiting[priority] -= 1
        try:
            future = asyncio.wrap_future(slot.executor.submit(function, *args))
            return await asyncio.wait_for(future, self.deadline)
        except TimeoutError:
            slot.replace()
            raise AITimeout(f"the computer did not answer within {self.deadline:g} s") from None
        except BrokenProcessPool:
            slot.replace()
            raise AITimeout("the computer's worker process died") from None
        except asyncio.CancelledError:  # nobody waits for the answer any more
            slot.replace()
            raise
        finally:
            self._give_back(slot)

    async def _take(self, priority: int) -> _Slot:
        """A free process: at once when one is idle and nobody waits, else in the queue's order."""
        if self._idle and not self._queue:
            return self._idle.pop()
        turn: asyncio.Future[_Slot] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._arrivals), turn))
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed a process, but gone meanwhile
                self._give_back(turn.result())
            raise

    def _give_back(self, slot: _Slot) -> None:
        """Hand ``slot`` to the first caller waiting (skipping those gone), else keep it idle."""
        while self._queue:
            _, _, turn = heapq.heappop(self._queue)
            if not turn.done():
                turn.set_result(slot)
                return
        self._idle.append(slot)

    def close(self) -> None:
        """Let idle workers exit cleanly; kill those still searching after a second."""
        for slot in self._slots:
            processes = list((slot.executor._processes or {}).values())
            slot.executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.join(timeout=1)
            slot.stop()


class SharedTasks:
    """At most one running task per key; callers with the same key await the same result.

    A task is cancelled once no caller waits for it any more.
    """

    def __init__(self, poll: float = 0.25) -> None:
        self.poll = poll
        self._running: dict[Hashable, asyncio.Task[Any]] = {}
        self._callers: dict[Hashable, int] = {}

    async def run(self, key: Hashable, start: Callable[[], Awaitable[T]], gone: Gone | None = None) -> T:
        """The result of the task for ``key`` (started if needed); ``CallerGone`` once ``gone()``."""
        task = self._running.get(key)
        if task is None:
            task = asyncio.ensure_future(start())
            self._running[key] = task
            task.add_done_callback(lambda _: self._running.pop(key, None))
        self._callers[key] = self._callers.get(key, 0) + 1
        try:
            return await self._wait(task, gone)
        finally:
            self._callers[key] -= 1
            if not self._callers[key]:
                del self._callers[key]
                task.cancel()  # nobody waits any more (no effect on a finished task)

    async def _wait(self, task: asyncio.Task[T], gone: Gone | None) -> T:
        if gone is None:
            return await asyncio.shield(task)
        watcher = asyncio.ensure_future(self._until(gone))
        try:
            await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watcher.cancel()
        if not task.done():
            raise CallerGone("the client left before the computer answered")
        return task.result()

    async def _until(self, gone: Gone) -> None:
        while not await gone():
            await asyncio.sleep(self.poll)

    def __len__(self) -> int:
        return len(self._running)
