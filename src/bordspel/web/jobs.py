"""Computer moves as durable jobs: claimed by workers under a lease, landed with the version check.

A move owed by a computer seat is a row of the store's ``jobs`` table (one a game: the move owed
at its version), written in the same transaction as the change that made it owed (creation, a
move, an undo; see ``GameStore.change``), so it is computed whether or not anyone is watching
and survives a restart. A worker (``JobRunner``: in ``bordspel serve`` by default, or in
``bordspel worker`` processes) claims the oldest job whose lease has run out (a new job's lease
is 0), holds it for ``lease`` seconds and renews the lease while its search runs. A worker
killed mid-search stops renewing; once the lease runs out another worker claims the job.

Exactly one result lands: the move is stored through ``GameStore.change`` at the job's version,
so when two workers computed the same job (a lease that ran out under a stalled worker), the
second gets ``Conflict`` and stores nothing. The search has today's budget and deadline
(``budgeted_spec``, ``AIPool``): past the deadline any legal move keeps the game going, and so
does a job that was claimed ``MAX_ATTEMPTS`` times (a position that kills its workers).

On SQLite the claim is one ``BEGIN IMMEDIATE`` transaction (writers take turns); on PostgreSQL
the same statements take the row with ``SELECT ... FOR UPDATE SKIP LOCKED``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import signal
import socket
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from bordspel.core import game_class
from bordspel.web import actions
from bordspel.web.ai_pool import AIPool, AITimeout, choose_move, deadline_for
from bordspel.web.metrics import JOB_SECONDS
from bordspel.web.seats import budgeted_spec
from bordspel.web.store import Busy, Conflict, GameStore, NotFound
from bordspel.web.supervise import Supervisor

__all__ = ["GRACE", "HEARTBEAT", "MAX_ATTEMPTS", "Job", "JobQueue", "JobRunner", "run_worker", "worker_name"]

LOG = logging.getLogger("bordspel.jobs")
MAX_ATTEMPTS = 3
"""Claims of one job after which its worker plays any legal move instead of searching."""
HEARTBEAT = 2.0
"""Seconds between a worker's notes that it is alive (``job_workers``; ``/readyz`` reads them)."""
ALIVE = 5 * HEARTBEAT
"""A worker not heard of for this long counts as gone."""
GRACE = 2.0
"""Seconds the running moves get to land when a worker stops, before they are handed back."""


@dataclass(frozen=True)
class Job:
    """The computer's move owed in game ``game_id`` at ``version``, by the seat's ``level``."""

    game_id: str
    version: int
    level: str
    attempts: int
    """How often the job has been claimed, this claim included."""


def worker_name() -> str:
    """A name for a worker that no other has: host, process and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class JobQueue:
    """The ``jobs`` table of a store: claims, leases, and the workers' heartbeats."""

    def __init__(self, store: GameStore, lease: float) -> None:
        self.store = store
        self.lease = lease

    def claim(self, worker: str) -> Job | None:
        """The oldest job whose lease has run out, now leased to ``worker`` (None: no job)."""
        now = time.time()
        with self.store.db.transaction(write=False) as db:  # an idle worker takes no write lock
            if db.execute("SELECT 1 FROM jobs WHERE lease_until < ? LIMIT 1", (now,)).fetchone() is None:
                return None
        with self.store.db.transaction() as db:
            row = db.execute(
                "SELECT game_id, version, level, attempts FROM jobs WHERE lease_until < ? "
                "ORDER BY created LIMIT 1 {skip_locked}",
                (now,),
            ).fetchone()
            if row is None:
                return None
            game_id, version, level, attempts = row
            taken = db.execute(
                "UPDATE jobs SET lease_until = ?, worker = ?, attempts = attempts + 1 "
                "WHERE game_id = ? AND version = ? AND lease_until < ?",
                (now + self.lease, worker, game_id, version, now),
            )
            if taken.rowcount != 1:
                return None  # another worker took it first (PostgreSQL runs claims side by side)
        return Job(game_id, version, level, attempts + 1)

    def renew(self, job: Job, worker: str) -> bool:
        """Extend ``worker``'s lease of ``job``; False when it lost the job (to another worker, or
        because the game moved on)."""
        with self.store.db.transaction() as db:
            renewed = db.execute(
                "UPDATE jobs SET lease_until = ? WHERE game_id = ? AND version = ? AND worker = ?",
                (time.time() + self.lease, job.game_id, job.version, worker),
            )
            return bool(renewed.rowcount)

    def hand_back(self, worker: str) -> int:
        """Free the jobs ``worker`` holds for any worker to claim now; how many."""
        with self.store.db.transaction() as db:
            freed = db.execute(
                "UPDATE jobs SET lease_until = 0, worker = '' WHERE worker = ? AND lease_until > 0", (worker,)
            )
            return int(freed.rowcount)

    def drop(self, job: Job) -> None:
        """Remove ``job``: its game has moved on or is gone (the store removes it when a move lands)."""
        with self.store.db.transaction() as db:
            db.execute("DELETE FROM jobs WHERE game_id = ? AND version = ?", (job.game_id, job.version))

    def counts(self) -> tuple[int, int]:
        """Jobs waiting for a worker and jobs a worker holds."""
        with self.store.db.transaction(write=False) as db:
            now = time.time()
            query = (
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN lease_until >= ? THEN 1 ELSE 0 END), 0) FROM jobs"
            )
            total, running = db.execute(query, (now,)).fetchone()
        return int(total) - int(running), int(running)

    def beat(self, worker: str, running: int) -> None:
        """``worker`` is alive and runs ``running`` jobs."""
        with self.store.db.transaction() as db:
            db.execute(
                "INSERT INTO job_workers (id, seen, running) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET seen = excluded.seen, running = excluded.running",
                (worker, time.time(), running),
            )
            db.execute("DELETE FROM job_workers WHERE seen < ?", (time.time() - 10 * ALIVE,))

    def leave(self, worker: str) -> None:
        """``worker`` stops: it is no longer counted as alive."""
        with self.store.db.transaction() as db:
            db.execute("DELETE FROM job_workers WHERE id = ?", (worker,))

    def workers_alive(self) -> int:
        """Workers heard of within ``ALIVE`` seconds."""
        with self.store.db.transaction(write=False) as db:
            query = "SELECT COUNT(*) FROM job_workers WHERE seen > ?"
            (alive,) = db.execute(query, (time.time() - ALIVE,)).fetchone()
        return int(alive)


def _any_move(game: str, position: str, seed: int) -> str:
    state = game_class(game).from_str(position)
    return str(state.random_move(random.Random(seed)).to_str())


class JobRunner:
    """``slots`` workers on one queue, each search in a process of its own (an ``AIPool``).

    ``landed(game_id)`` is called after each move it stores (the app wakes its live updates).
    """

    def __init__(
        self,
        store: GameStore,
        ai_time: float,
        slots: int,
        *,
        lease: float = 10.0,
        poll: float = 0.5,
        landed: Callable[[str], None] = lambda game_id: None,
        supervisor: Supervisor | None = None,
    ) -> None:
        self.queue = JobQueue(store, lease)
        self.supervisor = supervisor or Supervisor()
        self.store, self.ai_time, self.slots, self.poll, self.landed = store, ai_time, slots, poll, landed
        self.name = worker_name()
        self.pool = AIPool(slots, deadline_for(ai_time))
        self.running = 0
        self._work = asyncio.Event()
        self._stopping = False
        self._serving: asyncio.Future[None] | None = None

    def wake(self) -> None:
        """A job may be waiting: idle workers look now rather than at their next poll."""
        self._work.set()

    def start(self) -> None:
        """Run jobs in the background of the running event loop until ``close``."""
        self._serving = asyncio.ensure_future(self.serve())

    async def close(self, grace: float) -> None:
        """Take no more jobs; give the running ones ``grace`` seconds to land, then hand them back."""
        self.stop()
        if self._serving is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._serving), grace)
        except TimeoutError:
            self._serving.cancel()
            with suppress(asyncio.CancelledError):
                await self._serving

    async def serve(self) -> None:
        """Run jobs until ``stop``; then hand back the jobs still held and close the pool."""
        loops = [asyncio.ensure_future(self._worker()) for _ in range(self.slots)]
        loops.append(asyncio.ensure_future(self._heartbeat()))
        try:
            await asyncio.gather(*loops)
        finally:
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            try:
                await asyncio.to_thread(self.queue.hand_back, self.name)
                await asyncio.to_thread(self.queue.leave, self.name)
            except Exception:  # their leases run out instead
                LOG.exception("worker %s could not hand back its jobs", self.name)
            self.pool.close()

    def stop(self) -> None:
        """Take no more jobs; ``serve`` returns once the running ones have landed."""
        self._stopping = True
        self._work.set()

    async def _heartbeat(self) -> None:
        await self.supervisor.forever("heartbeat", self._beat, until=lambda: self._stopping)

    async def _beat(self) -> None:
        with suppress(Busy):  # the store is busy: the next beat says it
            await asyncio.to_thread(self.queue.beat, self.name, self.running)
        await self._sleep(HEARTBEAT)

    async def _sleep(self, seconds: float) -> None:
        with suppress(TimeoutError):
            await asyncio.wait_for(self._work.wait(), seconds)

    async def _worker(self) -> None:
        await self.supervisor.forever("jobs", self._next_job, until=lambda: self._stopping)

    async def _next_job(self) -> None:
        """Claim a job and run it, or wait for one (a failed claim raises: the supervisor waits)."""
        try:
            job = await asyncio.to_thread(self.queue.claim, self.name)
        except Busy:
            job = None
        if job is None:
            self._work.clear()
            await self._sleep(self.poll)
        else:
            await self._run_logged(job)

    async def _run_logged(self, job: Job) -> None:
        """Run ``job``; an error is logged and the job comes back once its lease has run out."""
        self.running += 1
        try:
            await self.run_job(job)
        except Exception:
            LOG.exception("the computer's move in game %s at version %d failed", job.game_id, job.version)
        finally:
            self.running -= 1

    async def run_job(self, job: Job) -> bool:
        """Compute claimed ``job``'s move while holding its lease, and store it at the job's
        version; whether it landed."""
        started = time.monotonic()
        try:
            stored = await asyncio.to_thread(self.store.load, job.game_id)
        except NotFound:
            return False
        if stored.version != job.version or stored.owed_level() is None:
            await asyncio.to_thread(self.queue.drop, job)
            return False
        budget = (
            self.ai_time
            if stored.clock is None
            else stored.clock.budget(stored.state.to_move, time.time(), self.ai_time)
        )
        text = await self._leased(job, self._choose(job, stored.state.name, stored.state.to_str(), budget))
        if text is None:
            return False  # the lease was lost: another worker has the job
        try:
            await asyncio.to_thread(self.store.change, job.game_id, job.version, None, actions.ai_move(text))
        except (Conflict, NotFound):
            return False  # the game moved on (or another worker's move landed first): nothing is stored
        JOB_SECONDS.labels(job.level).observe(time.monotonic() - started)
        LOG.info(
            "the computer's move landed",
            extra={"game": job.game_id, "version": job.version, "computer": job.level},
        )
        self.landed(job.game_id)
        return True

    async def _choose(self, job: Job, game: str, position: str, budget: float) -> str:
        """The move: the level's search within ``budget`` seconds (a timed game's computer thinks
        within its clock: ``Clock.budget``)."""
        if job.attempts > MAX_ATTEMPTS:
            LOG.warning("job %s was claimed %d times: any legal move", job.game_id, job.attempts)
            return await asyncio.to_thread(_any_move, game, position, job.version)
        spec = budgeted_spec(game, job.level, budget)
        try:
            return await self.pool.run(choose_move, game, position, spec, job.version)
        except AITimeout:  # a search past its deadline was killed: any legal move keeps the game going
            return await asyncio.to_thread(_any_move, game, position, job.version)

    async def _leased(self, job: Job, search: Coroutine[Any, Any, str]) -> str | None:
        """The result of ``search``, renewing the lease meanwhile; None once the lease is lost."""
        task = asyncio.ensure_future(search)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self.queue.lease / 3)
                if done:
                    return task.result()
                if not await asyncio.to_thread(self.queue.renew, job, self.name):
                    return None
        finally:
            task.cancel()


def run_worker(store: GameStore, ai_time: float, slots: int, lease: float, where: str) -> None:
    """``bordspel worker``: run ``store``'s jobs until SIGTERM or Ctrl-C; then the running ones get
    ``GRACE`` seconds to land and are handed back."""

    async def main() -> None:
        runner = JobRunner(store, ai_time, slots, lease=lease)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(stop, stopped.set)
        print(f"bordspel worker {runner.name}: {slots} moves at once from {where} (Ctrl-C stops)", flush=True)
        runner.start()
        await stopped.wait()
        print(f"bordspel worker {runner.name}: stopping (running moves land or are handed back)", flush=True)
        await runner.close(GRACE)

    asyncio.run(main())
