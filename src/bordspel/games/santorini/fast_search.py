"""Santorini's alpha-beta search in C (``bordspel._native.santorini_core.Search``), and with gods
on the generator's packed positions (:mod:`bordspel.games.santorini.gods_search`).

The faster twins of :class:`bordspel.ai.search.Searcher` for two players after the setup, with
the fitted evaluation: the same scores, principal-variation search, threat extensions and
table. Without gods, some hundred times as many positions a second; with gods, the children are
outcomes of the walk and the leaves packed boards. :func:`fast_search` hands them to the
alpha-beta player for the positions they cover.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from bordspel._native import load, twin
from bordspel.ai.search import DECISIVE, Searcher, SearchResult
from bordspel.core import State
from bordspel.games.santorini import gods_search as reference
from bordspel.games.santorini.engine import SantoriniState, Turn

__all__ = ["CompiledSearch", "fast_search"]

_CORE = load("santorini_core")
gods_search: Any = twin("santorini_gods_search", reference)
"""The search with gods: ``gods_search.py`` compiled by ``pip install .``, else itself."""


class CompiledSearch:
    """Iterative deepening over the compiled search, with the limits of a pure ``Searcher``."""

    def __init__(self, root: SantoriniState, weights: tuple[float, ...], searcher: Searcher) -> None:
        self.settings = searcher
        pvs, extend = searcher.pvs, searcher.extend is not None
        if root.powers is None:
            assert _CORE is not None
            self.search = _CORE.Search(root, weights, pvs=pvs, extend=extend)
        else:
            reduce = searcher.reduce is not None
            self.search = gods_search.GodsSearch(root, weights, pvs=pvs, extend=extend, reduce=reduce)

    def iterate(self, root: State) -> Iterator[SearchResult]:
        """The result of every finished depth (depth 0, the first legal move, when a limit stops
        even the first), as ``Searcher.iterate``."""
        started = time.perf_counter()
        settings, moves = self.settings, root.legal_moves()
        finished = 0
        for depth in range(1, settings.max_depth + 1):
            found = self.search.depth(depth, self._seconds_left(), self._nodes_left())
            if found is None:
                yield from self._interrupted(finished, started)
                break
            finished = depth
            score, move = found
            forced = abs(score) >= DECISIVE
            move = _turn(move)
            line = [_turn(m) for m in self.search.principal_variation(2 * depth)]
            if not line or line[0] != move:
                line = [move]
            yield SearchResult(
                move, score, depth, self.search.nodes, time.perf_counter() - started, line, forced
            )
            if forced or len(moves) == 1:
                break
        if not finished:
            yield SearchResult(moves[0], 0.0, 0, self.search.nodes, time.perf_counter() - started, [moves[0]])

    def _interrupted(self, finished: int, started: float) -> Iterator[SearchResult]:
        """With gods, the better root turn that a depth stopped by a limit found (as the last
        finished depth's result, with that turn), if any."""
        improved = self.search.interrupted() if isinstance(self.search, gods_search.GodsSearch) else None
        if finished and improved is not None:
            score, move = improved
            elapsed = time.perf_counter() - started
            forced = abs(score) >= DECISIVE
            yield SearchResult(move, score, finished, self.search.nodes, elapsed, [move], forced)

    def _seconds_left(self) -> float:
        deadline = self.settings.fixed_deadline
        return -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())

    def _nodes_left(self) -> int:
        limit = self.settings.max_nodes
        return -1 if limit is None else limit


def _turn(move: Any) -> Any:
    """A move as the searches give it: the base game's as a tuple, a god turn as itself."""
    return Turn(*move) if type(move) is tuple else move


def fast_search(root: State, searcher: Searcher, evaluation: Any) -> CompiledSearch | None:
    """The faster search for ``searcher`` at ``root`` when one covers the position (two players,
    setup over, the searcher evaluating with ``evaluation``, the game's fitted one whose linear
    part is ``evaluation.base``; without gods, when the extension is built), else None."""
    weights: tuple[float, ...] = evaluation.base.weights
    if not isinstance(root, SantoriniState) or searcher.evaluate is not evaluation:
        return None
    covered = (
        root.players == 2
        and (_CORE is not None or root.powers is not None)
        and not root.in_setup
        and not root.is_over()
    )
    return CompiledSearch(root, weights, searcher) if covered else None
