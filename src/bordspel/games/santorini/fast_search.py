"""Santorini's alpha-beta search in C (``bordspel._native.santorini_core.Search``).

The compiled twin of :class:`bordspel.ai.search.Searcher` for two players without gods after
the setup, with the fitted evaluation: the same scores, principal-variation search, threat
extensions, table, killer and history moves, some hundred times as many positions a second.
:func:`fast_search` hands it to the alpha-beta player for the positions it covers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from bordspel._native import load
from bordspel.ai.search import DECISIVE, Searcher, SearchResult
from bordspel.core import State
from bordspel.games.santorini.engine import SantoriniState, Turn

__all__ = ["CompiledSearch", "fast_search"]

_CORE = load("santorini_core")


class CompiledSearch:
    """Iterative deepening over the compiled search, with the limits of a pure ``Searcher``."""

    def __init__(self, root: State, weights: tuple[float, ...], searcher: Searcher) -> None:
        assert _CORE is not None
        self.settings = searcher
        self.search = _CORE.Search(root, weights, pvs=searcher.pvs, extend=searcher.extend is not None)

    def iterate(self, root: State) -> Iterator[SearchResult]:
        """The result of every finished depth (depth 0, the first legal move, when a limit stops
        even the first), as ``Searcher.iterate``."""
        started = time.perf_counter()
        settings, moves = self.settings, root.legal_moves()
        finished = 0
        for depth in range(1, settings.max_depth + 1):
            found = self.search.depth(depth, self._seconds_left(), self._nodes_left())
            if found is None:
                break
            finished = depth
            score, move = found
            forced = abs(score) >= DECISIVE
            line = [Turn(*m) for m in self.search.principal_variation(2 * depth)]
            if not line or line[0] != Turn(*move):
                line = [Turn(*move)]
            yield SearchResult(
                Turn(*move), score, depth, self.search.nodes, time.perf_counter() - started, line, forced
            )
            if forced or len(moves) == 1:
                break
        if not finished:
            yield SearchResult(moves[0], 0.0, 0, self.search.nodes, time.perf_counter() - started, [moves[0]])

    def _seconds_left(self) -> float:
        deadline = self.settings.fixed_deadline
        return -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())

    def _nodes_left(self) -> int:
        limit = self.settings.max_nodes
        return -1 if limit is None else limit


def fast_search(root: State, searcher: Searcher, evaluation: Any) -> CompiledSearch | None:
    """The compiled search for ``searcher`` at ``root`` when it covers the position (two players,
    no gods, setup over, the searcher evaluating with ``evaluation``, the game's fitted one whose
    linear part is ``evaluation.base``) and the extension is built, else None."""
    covered: Any = (
        _CORE is not None
        and isinstance(root, SantoriniState)
        and root.players == 2
        and root.powers is None
        and not root.in_setup
        and not root.is_over()
        and searcher.evaluate is evaluation
    )
    if not covered:
        return None
    return CompiledSearch(root, evaluation.base.weights, searcher)
