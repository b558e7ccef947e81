"""The evaluation graph of a finished game, computed by a server job after the game.

When a game of two seats ends (not aborted), the transaction that ends it queues its graph: a row
of the store's ``game_graphs`` table (``queue_graph``, a ``GameStore.on_end`` hook). A
``GraphRunner`` (in ``bordspel serve``, ``ApiSettings.graph_workers``) claims the oldest waiting
row under a lease, as the computer's moves are claimed (``bordspel.web.jobs``), and judges every
position of the game in a worker process of its own, so that graphs never delay a move:

- the position's value for the seat to move: the ``hard`` level's analysis in ``graph_time``
  seconds (``ApiSettings.graph_time``, by default ``GRAPH_TIME``; the solver has half of it),
  exact where a solver knows the result (Hermit's small boards, Quarto's late positions) or
  the search proved a win distance (Santorini), else the search's evaluation;
- the played move, when it is not the best one: it and the best move, each searched alone from
  the same position (``root_moves``) in another ``graph_time`` seconds, at most to the depth the
  analysis reached, compared at the deepest depth both reached, so that both scores come from
  one root, one depth and one search (not after an opening table's or a solver's move, which
  have no depth).

Each move is then judged (``graph_points``):

- a **blunder with proof** when the result before the move was exact and the exact result after
  it is worse for the mover (a won position thrown away: win to draw or loss; draw to loss);
- else, from the evaluation drop (the best move's score minus the played move's, searched side
  by side; a proven result counting as twice the scale): a **mistake** from ``MISTAKE`` and a **blunder** from
  ``BLUNDER`` of the game's scale, the largest evaluation (absolute) the game's positions had.
  Evaluations mean different things in each game; the scale makes the thresholds the same share
  of what the game's own evaluation reached.

The same job then looks for puzzles in the game (``find_puzzle`` of ``bordspel.puzzles``): each
position where the player to move had a forced win that the game's proof shows, with at most
half the moves keeping it, becomes a puzzle of the site (``site_puzzles``, its game kept as
``source``; the first ``PUZZLES_PER_GAME`` of a game), stored with the graph in one transaction
and offered beside the shipped ones.

The graph's value of each position is for the first seat, from -1 (lost) to 1 (won): an exact
result at -1, 0 or 1, an evaluation at ``0.9 * score / scale``. The first ``MAX_PLIES`` positions
of a longer game are judged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import suppress
from typing import Any

from bordspel.ai import analyse, analyser
from bordspel.ai.search import DECISIVE, WIN, Limit
from bordspel.core import State, game_class
from bordspel.puzzles import Puzzle, find_puzzle
from bordspel.web.ai_pool import AIPool, AITimeout, deadline_for
from bordspel.web.db import Connection
from bordspel.web.jobs import worker_name
from bordspel.web.seats import budgeted_spec
from bordspel.web.store import Busy, GameStore, NotFound, StoredGame
from bordspel.web.supervise import Supervisor

__all__ = [
    "BLUNDER",
    "GRAPH_TIME",
    "MAX_PLIES",
    "MISTAKE",
    "PUZZLES_PER_GAME",
    "GraphQueue",
    "GraphRunner",
    "graph_points",
    "graph_priority",
    "judge_position",
    "played_by_an_account",
    "queue_graph",
]

LOG = logging.getLogger("bordspel.graphs")
GRAPH_LEVEL = "hard"
"""The level whose analysis judges each position."""
GRAPH_TIME = 1.0
"""Seconds of analysis per position, by default."""
MISTAKE = 0.25
"""An evaluation drop from this share of the game's scale marks a mistake."""
BLUNDER = 0.5
"""An evaluation drop from this share of the game's scale marks a blunder."""
MAX_PLIES = 300
"""Positions of one game judged at most."""
PUZZLES_PER_GAME = 3
"""The most puzzles one game gives: a game thrown away move after move gives no more."""
MAX_ATTEMPTS = 3
"""Claims of one graph after which it is given up (``failed``)."""
RANK = {"loss": 0, "draw": 1, "win": 2}


def queue_graph(db: Connection, stored: StoredGame) -> None:
    """Queue the graph of the game that just ended (``GameStore.on_end``): two seats, not aborted;
    ahead of others when an account played it (``graph_priority``)."""
    if len(stored.seats) != 2 or stored.aborted():
        return
    db.execute(
        """INSERT INTO game_graphs (game_id, status, created, priority) VALUES (?, 'waiting', ?, ?)
        ON CONFLICT (game_id) DO UPDATE SET status = 'waiting', graph = NULL, created = excluded.created,
        lease_until = 0, worker = '', attempts = 0, priority = excluded.priority""",
        (stored.id, time.time(), graph_priority(stored)),
    )


def graph_priority(stored: StoredGame) -> int:
    """Which graphs are made first: a rated game's (2), then one an account played (1), then the
    rest (0), oldest first within each; games anyone can start at once cannot push them back."""
    return 2 if stored.rated else 1 if played_by_an_account(stored) else 0


def played_by_an_account(stored: StoredGame) -> bool:
    """Whether a seat of the game is an account's (else nobody's: a script may make such games
    at will, so they come last for graphs and give no puzzles)."""
    return any(stored.players)


def judge_position(game: str, position: str, played: str | None, spec: str, seconds: float) -> dict[str, Any]:
    """The analysis of ``position`` for the seat to move by player ``spec`` and, when ``played``
    is not the best move, the scores of both searched side by side within ``seconds`` (runs in a
    worker process)."""
    state = game_class(game).from_str(position)
    ended = state.outcome()
    if ended is not None:
        score = 0.0 if not ended.winners else WIN if state.to_move in ended.winners else -WIN
        return {"to_move": state.to_move, "score": score, "result": _result(score, True), "proven": True}
    found = analyse(spec, state, seed=0)
    best = str(found.move.to_str())
    judged: dict[str, Any] = {
        "to_move": state.to_move,
        "score": found.score,
        "result": found.result,
        "proven": found.result is not None,
        "depth": found.depth,
        "plies_to_end": found.plies_to_end,
        "best": best,
    }
    if played is not None and played != best and found.depth > 0:  # depth 0: a table's or solver's move
        both = _side_by_side(spec, state, best, played, Limit(time=seconds, depth=found.depth))
        if both is not None:
            judged["best_score"], judged["played_score"] = both
    return judged


def _side_by_side(
    spec: str, state: State, best: str, played: str, limit: Limit
) -> tuple[float, float] | None:
    """The scores of the best and the played move at the deepest depth both reached, each searched
    alone from ``state`` in one multi-PV search within ``limit`` (one root, one depth, one
    search); None when they share no depth."""
    moves = [state.parse_move(best), state.parse_move(played)]
    scores: dict[str, dict[int, float]] = {best: {}, played: {}}
    for line in analyser(spec, state.name, seed=0).analysis(state, limit, 2, moves):
        scores[str(line.move.to_str())][line.depth] = line.score
    depth = max(set(scores[best]) & set(scores[played]), default=None)
    return None if depth is None else (scores[best][depth], scores[played][depth])


def _result(score: float, proven: bool) -> str | None:
    if score >= DECISIVE:
        return "win"
    if score <= -DECISIVE:
        return "loss"
    return "draw" if proven and score == 0 else None


def graph_points(judged: list[dict[str, Any]], moves: list[str]) -> dict[str, Any]:
    """The graph from each position's judgement (``judge_position``) and the moves played: its
    ``points`` (one a position), ``marks`` (one a mistake or blunder) and ``scale``."""
    unproven = [abs(point["score"]) for point in judged if not point["proven"]]
    scale = max([1.0, *unproven])
    points = [_point(ply, point, scale) for ply, point in enumerate(judged)]
    marks = [
        mark
        for ply in range(min(len(moves), len(judged) - 1))
        if (mark := _mark(ply + 1, judged[ply], judged[ply + 1], scale)) is not None
    ]
    for mark in marks:
        mark["move"] = moves[mark["ply"] - 1]
    return {"points": points, "marks": marks, "scale": scale}


def _point(ply: int, point: dict[str, Any], scale: float) -> dict[str, Any]:
    """One position of the graph: its value for the first seat and what the analysis said."""
    sign = 1 if point["to_move"] == 0 else -1
    result = point["result"]
    mine = RANK[result] - 1 if result is not None else 0.9 * max(-1.0, min(1.0, point["score"] / scale))
    keep = ("to_move", "result", "plies_to_end", "depth", "best")
    return {"ply": ply, "value": round(sign * mine, 4), "score": round(point["score"], 2)} | {
        key: point[key] for key in keep if key in point
    }


def _mark(ply: int, before: dict[str, Any], after: dict[str, Any], scale: float) -> dict[str, Any] | None:
    """Move ``ply`` (from ``before`` to ``after``) as a mistake or blunder of its mover, if it was one."""
    mover = before["to_move"]
    then, now = before["result"], after["result"]
    if now is not None and after["to_move"] != mover:
        now = {"win": "loss", "loss": "win", "draw": "draw"}[now]
    if then is not None and now is not None and RANK[now] < RANK[then]:
        return {"ply": ply, "seat": mover, "kind": "blunder", "proof": True, "was": then, "now": now}
    if "played_score" not in before:
        return None
    drop = _clamped(before["best_score"], scale) - _clamped(before["played_score"], scale)
    kind = "blunder" if drop >= BLUNDER * scale else "mistake" if drop >= MISTAKE * scale else None
    if kind is None:
        return None
    return {"ply": ply, "seat": mover, "kind": kind, "proof": False, "drop": round(drop, 2)}


def _clamped(score: float, scale: float) -> float:
    """A score on the scale of evaluations: a proven result counts as twice the scale."""
    return max(-2 * scale, min(2 * scale, score))


class GraphQueue:
    """The ``game_graphs`` table: graphs waiting, claimed under a lease, done or given up."""

    def __init__(self, store: GameStore, lease: float) -> None:
        self.store, self.lease = store, lease

    def claim(self, worker: str) -> tuple[str, int] | None:
        """The first waiting graph (by priority, then age) whose lease has run out, now leased to
        ``worker``: its game id and how often it was claimed (this claim included)."""
        now = time.time()
        waiting = "SELECT 1 FROM game_graphs WHERE status = 'waiting' AND lease_until < ? LIMIT 1"
        with self.store.db.transaction(write=False) as db:  # an idle worker takes no write lock
            if db.execute(waiting, (now,)).fetchone() is None:
                return None
        with self.store.db.transaction() as db:
            row = db.execute(
                "SELECT game_id, attempts FROM game_graphs WHERE status = 'waiting' AND lease_until < ? "
                "ORDER BY priority DESC, created LIMIT 1 {skip_locked}",
                (now,),
            ).fetchone()
            if row is None:
                return None
            taken = db.execute(
                "UPDATE game_graphs SET lease_until = ?, worker = ?, attempts = attempts + 1 "
                "WHERE game_id = ? AND status = 'waiting' AND lease_until < ?",
                (now + self.lease, worker, row[0], now),
            )
            return (str(row[0]), int(row[1]) + 1) if taken.rowcount == 1 else None

    def renew(self, game_id: str, worker: str) -> bool:
        """Extend ``worker``'s lease of the graph; False when it lost it."""
        return self._set(game_id, worker, "lease_until = ?", (time.time() + self.lease,))

    def outranked(self, game_id: str) -> bool:
        """Whether a graph of a higher priority than this one's waits for a worker."""
        query = (
            "SELECT 1 FROM game_graphs WHERE status = 'waiting' AND lease_until < ? AND priority > "
            "(SELECT priority FROM game_graphs WHERE game_id = ?) LIMIT 1"
        )
        with self.store.db.transaction(write=False) as db:
            return db.execute(query, (time.time(), game_id)).fetchone() is not None

    def hand_back(self, game_id: str, worker: str) -> bool:
        """Give the graph back to the queue as it was before ``worker`` claimed it (its claim does
        not count as an attempt); False when ``worker`` had lost it."""
        return self._set(game_id, worker, "lease_until = 0, worker = '', attempts = attempts - 1", ())

    def finish(
        self, game_id: str, worker: str, graph: dict[str, Any] | None, puzzles: tuple[Puzzle, ...] = ()
    ) -> bool:
        """Store the graph (None: given up, ``failed``) and the puzzles met in the game; False
        (and nothing stored) when ``worker`` lost the graph meanwhile."""
        status = "failed" if graph is None else "done"
        return self._set(game_id, worker, "status = ?, graph = ?", (status, json.dumps(graph)), puzzles)

    def _set(
        self,
        game_id: str,
        worker: str,
        assignments: str,
        values: tuple[Any, ...],
        puzzles: tuple[Puzzle, ...] = (),
    ) -> bool:
        with self.store.db.transaction() as db:
            changed = db.execute(
                f"UPDATE game_graphs SET {assignments} "
                "WHERE game_id = ? AND worker = ? AND status = 'waiting'",
                (*values, game_id, worker),
            )
            if changed.rowcount:
                _keep_puzzles(db, puzzles)
            return bool(changed.rowcount)

    def view(self, game_id: str) -> dict[str, Any]:
        """``status`` (``none``: the game has no graph, e.g. it goes on; ``waiting``, ``running``,
        ``done`` or ``failed``) and, once done, the graph's ``points``, ``marks`` and ``scale``."""
        with self.store.db.transaction(write=False) as db:
            row = db.execute(
                "SELECT status, graph, lease_until FROM game_graphs WHERE game_id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return {"status": "none"}
        status, graph, lease_until = row
        if status == "waiting":
            return {"status": "running" if lease_until >= time.time() else "waiting"}
        return {"status": status, **(json.loads(graph) if status == "done" else {})}


def _keep_puzzles(db: Connection, puzzles: tuple[Puzzle, ...]) -> None:
    """The puzzles met in a game, as puzzles of the site (a position met before stays as it was)."""
    for puzzle in puzzles:
        db.execute(
            "INSERT INTO site_puzzles (id, game, start, distance, winning, moves, rating, source, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (*_puzzle_row(puzzle), time.time()),
        )


def _puzzle_row(puzzle: Puzzle) -> tuple[Any, ...]:
    return (
        puzzle.id,
        puzzle.game,
        puzzle.start,
        puzzle.distance,
        puzzle.winning,
        puzzle.moves,
        puzzle.rating,
        puzzle.source,
    )


class GraphRunner:
    """One worker that makes the graphs of a store, its analyses in a process of its own."""

    def __init__(
        self,
        store: GameStore,
        seconds: float,
        *,
        lease: float = 10.0,
        poll: float = 1.0,
        supervisor: Supervisor,
    ) -> None:
        self.queue = GraphQueue(store, lease)
        self.store, self.poll, self.supervisor = store, poll, supervisor
        self.seconds = seconds
        """Seconds of analysis per position."""
        self.name = worker_name()
        self.pool = AIPool(1, deadline_for(2 * seconds))  # a position: the best move's and the played one's
        self._stopping = False
        self._serving: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Make graphs in the background of the running event loop until ``close``."""
        self._serving = asyncio.ensure_future(
            self.supervisor.forever("graphs", self._next, lambda: self._stopping)
        )

    async def close(self) -> None:
        """Stop: the graph being made is left to its lease (another worker takes it up)."""
        self._stopping = True
        if self._serving is not None:
            self._serving.cancel()
            with suppress(asyncio.CancelledError):
                await self._serving
        self.pool.close()

    async def _next(self) -> None:
        try:
            claimed = await asyncio.to_thread(self.queue.claim, self.name)
        except Busy:
            claimed = None
        if claimed is None:
            await asyncio.sleep(self.poll)
            return
        game_id, attempts = claimed
        try:
            graph = await self.make(game_id) if attempts <= MAX_ATTEMPTS else None
        except AITimeout:  # a position overran its deadline (a loaded machine): once the lease
            # runs out, the graph is claimed again (MAX_ATTEMPTS times in all); readiness is untouched
            LOG.warning("a position of game %s overran its deadline; its graph is tried again", game_id)
            return
        puzzles = await self.puzzles(game_id) if graph is not None else ()
        if await asyncio.to_thread(self.queue.finish, game_id, self.name, graph, puzzles):
            LOG.info("the evaluation graph is %s", "made" if graph else "given up", extra={"game": game_id})

    async def make(self, game_id: str) -> dict[str, Any] | None:
        """The graph of game ``game_id``, renewing the lease after each position (None: the game
        is gone, another worker took the graph over, or it was handed back for a graph of a higher
        priority: a long game nobody's account played holds no player's graph up for long)."""
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except NotFound:
            return None
        moves = [move.to_str() for move in stored.game.moves]
        states = stored.game.states[: MAX_PLIES + 1]
        spec = budgeted_spec(stored.state.name, GRAPH_LEVEL, self.seconds)
        judged = []
        for ply, state in enumerate(states):  # one run each: every run within the pool's deadline
            played = moves[ply] if ply < len(moves) else None
            point = await self.pool.run(
                judge_position, state.name, state.to_str(), played, spec, self.seconds
            )
            judged.append(point)
            if not await asyncio.to_thread(self.queue.renew, game_id, self.name):
                return None
            if await asyncio.to_thread(self.queue.outranked, game_id):
                await asyncio.to_thread(self.queue.hand_back, game_id, self.name)
                return None
        return graph_points(judged, moves)

    async def puzzles(self, game_id: str) -> tuple[Puzzle, ...]:
        """The first ``PUZZLES_PER_GAME`` puzzles met in game ``game_id`` (in its first
        ``MAX_PLIES`` positions) when an account played it, renewing the lease after each
        position."""
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except NotFound:
            return ()
        if not played_by_an_account(stored):  # a script's could fill everyone's puzzles
            return ()
        found: list[Puzzle] = []
        for state in stored.game.states[:MAX_PLIES]:
            if len(found) >= PUZZLES_PER_GAME:
                break
            found.extend(await self._puzzle(state, game_id))
            if not await asyncio.to_thread(self.queue.renew, game_id, self.name):
                return ()
        return tuple(found)

    async def _puzzle(self, state: State, game_id: str) -> list[Puzzle]:
        """The position as a puzzle, if it is one; none when its proof overran the deadline (the
        graph is kept: a puzzle is a bonus)."""
        try:
            puzzle = await self.pool.run(find_puzzle, state.name, state.to_str(), game_id)
        except AITimeout:
            LOG.warning("a position of game %s took too long to prove as a puzzle", game_id)
            return []
        return [] if puzzle is None else [puzzle]
