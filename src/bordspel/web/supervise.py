"""Background loops that outlive their errors: the computer's workers and their heartbeat, the
flags that fall, the live updates' fan-out.

``Supervisor.forever`` runs one step of a loop after another. A step that raises is logged
(rate-limited, as every warning: ``bordspel.web.logs``), counted in ``/metrics``
(``bordspel_background_errors_total`` by loop) and tried again after a back-off that doubles
from ``FIRST_BACKOFF`` to ``LAST_BACKOFF`` seconds; the loop never ends by an error. While a loop
fails, ``problems()`` says which and why (``/readyz`` answers 503 with it); it counts as well
again once a step returns, or has run ``RECOVERED_AFTER`` seconds without an error (a listener's
one long step).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bordspel.web.metrics import BACKGROUND_ERRORS

__all__ = ["FIRST_BACKOFF", "LAST_BACKOFF", "RECOVERED_AFTER", "Supervisor"]

LOG = logging.getLogger("bordspel.web")
FIRST_BACKOFF = 0.5
"""Seconds before a failed step is tried again the first time; each failure in a row doubles it."""
LAST_BACKOFF = 30.0
RECOVERED_AFTER = 5.0
"""Seconds a step runs without an error before its loop counts as well again."""


class Supervisor:
    """Runs a process's background loops and knows which of them are failing."""

    def __init__(self) -> None:
        self.failing: dict[str, tuple[str, float]] = {}
        """Each failing loop's last error and when it began to fail."""

    async def forever(
        self, name: str, step: Callable[[], Awaitable[object]], until: Callable[[], bool] = lambda: False
    ) -> None:
        """Run ``step`` again and again until ``until()``, whatever it raises (see the module)."""
        backoff = FIRST_BACKOFF
        while not until():
            well = asyncio.get_running_loop().call_later(RECOVERED_AFTER, self.recovered, name)
            try:
                await step()
            except Exception as error:  # whatever failed, the loop goes on: log, count, back off
                well.cancel()
                self.failed(name, error)
                await asyncio.sleep(backoff)
                backoff = min(2 * backoff, LAST_BACKOFF)
                continue
            finally:
                well.cancel()
            self.recovered(name)
            backoff = FIRST_BACKOFF

    def failed(self, name: str, error: Exception) -> None:
        """Loop ``name``'s step raised ``error``: log it, count it, remember it."""
        BACKGROUND_ERRORS.labels(name).inc()
        LOG.error(
            "the background loop %r failed; trying again: %s",
            name,
            error,
            exc_info=error,
            extra={"loop": name},
        )
        since = self.failing.get(name, ("", time.time()))[1]
        self.failing[name] = (str(error) or type(error).__name__, since)

    def recovered(self, name: str) -> None:
        """Loop ``name`` works again."""
        self.failing.pop(name, None)

    def problems(self) -> list[str]:
        """What is wrong, a line per failing loop (empty: every loop works)."""
        now = time.time()
        return [
            f"the background loop {name!r} has failed for {now - since:.0f} s ({error}); it keeps trying"
            for name, (error, since) in sorted(self.failing.items())
        ]
