"""The server's Prometheus metrics (``GET /metrics``, through ``prometheus-client``), and the
middleware that counts, times and logs every request under its request id.

Metrics: ``bordspel_http_requests_total`` (by method, route and status; a method outside
``METHODS`` counts as ``other`` and a path no route matches as ``unmatched``, so no client can
add label values),
``bordspel_http_request_duration_seconds`` (by route), ``bordspel_open_streams`` (live-update
streams), ``bordspel_jobs`` (the computer's owed moves, ``queued`` or ``running``, read from the
store at each scrape), ``bordspel_job_workers`` (workers heard of lately) and
``bordspel_job_seconds`` (a move's time from claim to landing, by level) and
``bordspel_background_errors_total`` (unexpected errors of background loops, by loop:
``bordspel.web.supervise``). When the store does
not answer within ``STORE_WAIT`` seconds, ``/metrics`` leaves its two gauges out and answers the
rest.

With several processes on a host, set ``PROMETHEUS_MULTIPROC_DIR`` to one empty directory for
all of them (web processes and workers): each process writes its metrics there, and ``/metrics``
of any web process answers for all (prometheus-client's multi-process mode).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bordspel.web.logs import new_request_id, request_id

__all__ = [
    "BACKGROUND_ERRORS",
    "JOB_SECONDS",
    "METHODS",
    "OPEN_STREAMS",
    "REQUESTS",
    "REQUEST_SECONDS",
    "STORE_WAIT",
    "JobsCollector",
    "Observed",
    "exposition",
    "forget_process",
]

ACCESS = logging.getLogger("bordspel.access")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"})
"""The HTTP methods counted by name (RFC 9110's and PATCH); any other is ``other``."""
STORE_WAIT = 0.5
"""Seconds ``/metrics`` waits for the store's gauges before it answers without them."""
REQUESTS = Counter(
    "bordspel_http_requests_total",
    "HTTP requests answered, by method, route and status",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "bordspel_http_request_duration_seconds",
    "Seconds from a request's arrival to its answer's start, by route",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
OPEN_STREAMS = Gauge("bordspel_open_streams", "Live-update streams open", multiprocess_mode="livesum")
BACKGROUND_ERRORS = Counter(
    "bordspel_background_errors_total",
    "Unexpected errors in background loops (each retried with a back-off), by loop",
    ["loop"],
)
JOB_SECONDS = Histogram(
    "bordspel_job_seconds",
    "Seconds from a worker's claim of the computer's move to its landing, by level",
    ["level"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120),
)


class JobsCollector(Collector):
    """The jobs waiting and running, and the workers alive, as read from the store for one scrape."""

    def __init__(self, queued: int, running: int, workers: int) -> None:
        self.queued, self.running, self.workers = queued, running, workers

    @classmethod
    def read(cls, counts: Callable[[], tuple[int, int]], workers: Callable[[], int]) -> JobsCollector:
        """The gauges as the store's ``counts`` and ``workers`` give them now."""
        return cls(*counts(), workers())

    def collect(self) -> Iterator[Metric]:
        """``bordspel_jobs`` by state and ``bordspel_job_workers``."""
        jobs = GaugeMetricFamily("bordspel_jobs", "The computer's owed moves, by state", labels=["state"])
        jobs.add_metric(["queued"], self.queued)
        jobs.add_metric(["running"], self.running)
        yield jobs
        yield GaugeMetricFamily("bordspel_job_workers", "Workers heard of lately", value=self.workers)


def exposition(jobs: JobsCollector | None) -> bytes:
    """The metrics text: this process's (or, in multi-process mode, every process's) and the
    jobs' (None: the store did not answer, so they are left out)."""
    own = CollectorRegistry()
    if jobs is not None:
        own.register(jobs)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        shared = CollectorRegistry()
        multiprocess.MultiProcessCollector(shared)  # type: ignore[no-untyped-call]
        return generate_latest(shared) + generate_latest(own)
    return generate_latest(REGISTRY) + generate_latest(own)


def forget_process() -> None:
    """In multi-process mode, drop this process's share of the live gauges (open streams) as it
    stops (a process killed without warning keeps its share until the directory is emptied)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


class Observed:
    """ASGI middleware: a request id for every request (sent back as ``X-Request-ID``), its
    metrics, and one access log line when its answer starts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, ident = time.perf_counter(), new_request_id(Headers(scope=scope).get("x-request-id"))
        token = request_id.set(ident)

        async def sender(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"x-request-id", ident.encode())],
                }
                _record(scope, message["status"], time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, sender)
        finally:
            request_id.reset(token)


def _record(scope: Scope, status: int, seconds: float) -> None:
    route = getattr(scope.get("route"), "path", "unmatched")
    method = str(scope["method"])
    REQUESTS.labels(method if method in METHODS else "other", route, str(status)).inc()
    REQUEST_SECONDS.labels(route).observe(seconds)
    client = scope.get("client") or ("", 0)
    fields = {"method": method, "path": scope["path"], "route": route, "status": status, "client": client[0]}
    ACCESS.info("%s %s %d", method, scope["path"], status, extra={**fields, "seconds": round(seconds, 4)})
