"""The analysis board's search that goes deeper while the page watches, as server-sent events.

``GET /api/board/analysis/stream`` analyses the position again and again, each step with twice
the time of the one before (``step_budgets``: from ``FIRST_STEP`` seconds up to the server's
``ai_time``), and sends the best lines of each step as one event with their depth. It ends after
the step of ``ai_time`` seconds, or once every line is an exact result, or when the page leaves
(the running step's worker process is killed). So one stream searches at most about twice
``ai_time`` seconds, and each step waits its turn in the hint worker (``ai_pool.BOARD``), after
the seated players' hints.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from bordspel.web.ai_pool import AITimeout
from bordspel.web.store import Busy

__all__ = ["FIRST_STEP", "deepening", "step_budgets"]

FIRST_STEP = 0.25
"""Seconds of the first step's search."""

Step = Callable[[float], Awaitable[list[dict[str, Any]]]]
"""The best lines of the position within a number of seconds (``ai_pool.analyse_lines``'s JSON)."""


def step_budgets(ai_time: float) -> list[float]:
    """Each step's seconds: doubling from ``FIRST_STEP``, the last one ``ai_time``."""
    budgets, budget = [], FIRST_STEP
    while budget < ai_time:
        budgets.append(budget)
        budget *= 2
    return [*budgets, ai_time]


async def deepening(step: Step, ai_time: float) -> AsyncIterator[str]:
    """SSE text: an event with each step's ``lines``, their ``depth`` (the deepest line's), the
    step's ``seconds`` and whether it is the ``last``; ``event: refused`` with the ``error`` when
    the computer is too busy or a step overran its deadline."""
    budgets = step_budgets(ai_time)
    for number, budget in enumerate(budgets, 1):
        try:
            lines = await step(budget)
        except (AITimeout, Busy) as error:
            yield f"event: refused\ndata: {json.dumps({'error': str(error)})}\n\n"
            return
        last = number == len(budgets) or all(line["result"] is not None for line in lines)
        depth = max(line["depth"] for line in lines)
        yield f"data: {json.dumps({'lines': lines, 'depth': depth, 'seconds': budget, 'last': last})}\n\n"
        if last:
            return
