"""Quarto knowledge: an exact solver (negamax, alpha-beta, a transposition table on canonical
positions), random playouts for MCTS, and a cheap evaluation for search.

``PureQuartoSolver`` is the readable reference; ``CompiledQuartoSolver`` runs the same search
in C (``bordspel._native.quarto_solver``) and returns the same values. ``QuartoSolver`` is the
compiled one when it is built (and ``BORDSPEL_PURE`` is not set), else the pure one.

The solver works on a plain board (16 piece codes, -1 for empty) and the set of pieces still
to give. A *choice* is the moment a player, having placed, picks the piece for the opponent;
a *placement* is the moment a player puts the piece in hand on a square. Scores are from the
view of the player to act: ``WIN - d`` for a win at the ``d``-th placement from the root,
``0`` for a draw, ``-(WIN - d)`` for a loss.

Canonical positions: a Quarto position keeps its value under the 32 permutations of the
squares that map the ten lines onto themselves (8 in the 2x2-squares variant, whose squares
only the 8 symmetries of the square keep), the 24 orders of the characteristics and the 16
complements of their values. The key takes the pieces in the order the square permutation
lists them, XORs every piece with the first one (which forgets the complements) and sorts the
four characteristic columns (which forgets their order); the smallest over the square
permutations is the canonical key.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bordspel._native import load
from bordspel.ai.players import Endgame, Proven, SolverEndgame
from bordspel.ai.registry import Knowledge
from bordspel.ai.search import OutOfTime
from bordspel.core import State
from bordspel.games.quarto.engine import QuartoMove, QuartoState
from bordspel.games.quarto.rules import WINNERS, board_symmetries, line_masks, shares

__all__ = [
    "CompiledQuartoSolver",
    "PureQuartoSolver",
    "QuartoSolver",
    "Solution",
    "canonical_key",
    "evaluate",
    "playout",
    "random_choice_position",
]

WIN = 1000
EXACT, LOWER, UPPER = 0, 1, 2


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(16) if mask >> c & 1)


def canonical_key(
    board: list[int], symmetries: tuple[tuple[int, ...], ...], hand: int = -1
) -> tuple[int, ...]:
    """The same key for positions that are images of each other (see the module's docstring);
    ``hand`` is the piece to place next (-1 at a choice), which the key counts as placed last."""
    best: tuple[int, ...] | None = None
    for perm in symmetries:
        pieces = [board[c] for c in perm]
        filled = sum(1 << i for i, p in enumerate(pieces) if p >= 0)
        placed = [p for p in pieces if p >= 0] + ([hand] if hand >= 0 else [])
        first = placed[0] if placed else 0
        columns = sorted(sum(((p ^ first) >> j & 1) << i for i, p in enumerate(placed)) for j in range(4))
        candidate = (filled, *columns)
        if best is None or candidate < best:
            best = candidate
    assert best is not None
    return (hand >= 0, *best)


@dataclass
class Solution:
    """The exact value of a position for the player to act, and a best action."""

    result: str
    """``win``, ``draw`` or ``loss`` for the player to act."""
    distance: int
    """Placements until the game ends with best play (the fastest win, the slowest loss)."""
    score: int
    best: int | None
    """The best piece to give (at a choice) or square to place on (at a placement)."""
    nodes: int
    seconds: float


class PureQuartoSolver:
    """Solves Quarto positions exactly; keeps its tables between calls.

    The search keeps the board in place (put and take back) with, per line, the number of
    pieces and the characteristics all of them have (``ones``) and all of them lack
    (``zeros``), so the pieces that would win somewhere are a few table look-ups away.
    """

    def __init__(self, advanced: bool = False, canonical_empties: int = 9) -> None:
        self.advanced = advanced
        masks = line_masks(advanced)
        self.line_cells = [_cells(m) for m in masks]
        self.cell_lines = [tuple(i for i, m in enumerate(masks) if m >> c & 1) for c in range(16)]
        self.other_lines = [tuple(i for i, m in enumerate(masks) if not m >> c & 1) for c in range(16)]
        self.symmetries = board_symmetries(advanced)
        self.canonical_empties = canonical_empties
        self.tables: dict[bool, dict[object, tuple[int, int, int]]] = {True: {}, False: {}}
        self.nodes = 0
        self.wdl = True
        self.deadline: float | None = None
        """``time.perf_counter()`` past which a search raises ``OutOfTime``."""
        self.progress: Callable[[int], None] | None = None
        """Called now and then during a search with the nodes searched so far."""
        self._load([-1] * 16)

    # -- the board ------------------------------------------------------------------------------
    def _load(self, board: list[int]) -> None:
        lines = len(self.line_cells)
        self.board = [-1] * 16
        self.ones, self.zeros, self.count = [15] * lines, [15] * lines, [0] * lines
        self.line_threats = [0] * lines
        for cell, piece in enumerate(board):
            if piece >= 0:
                self._put(cell, piece)

    def _put(self, cell: int, piece: int) -> tuple[int, ...]:
        """Put ``piece`` on ``cell``; returns what ``_take`` needs to undo it."""
        self.board[cell] = piece
        ones, zeros, count, line_threats = self.ones, self.zeros, self.count, self.line_threats
        saved = []
        for line in self.cell_lines[cell]:
            saved.append(ones[line])
            saved.append(zeros[line])
            ones[line] &= piece
            zeros[line] &= ~piece
            count[line] += 1
            line_threats[line] = WINNERS[ones[line] << 4 | zeros[line] & 15] if count[line] == 3 else 0
        return tuple(saved)

    def _take(self, cell: int, saved: tuple[int, ...]) -> None:
        self.board[cell] = -1
        ones, zeros, count, line_threats = self.ones, self.zeros, self.count, self.line_threats
        for i, line in enumerate(self.cell_lines[cell]):
            ones[line], zeros[line] = saved[2 * i], saved[2 * i + 1]
            count[line] -= 1
            line_threats[line] = WINNERS[ones[line] << 4 | zeros[line] & 15] if count[line] == 3 else 0

    def threats(self) -> int:
        """The pieces that would complete a line somewhere on the current board."""
        found = 0
        for threat in self.line_threats:
            found |= threat
        return found

    def wins_at(self, board: list[int], cell: int, piece: int) -> bool:
        """Whether ``piece`` on the empty ``cell`` of ``board`` completes a line."""
        for line in self.cell_lines[cell]:
            ones, zeros = piece, ~piece & 15
            for other in self.line_cells[line]:
                if other != cell:
                    code = board[other]
                    if code < 0:
                        break
                    ones &= code
                    zeros &= ~code
            else:
                if shares(ones, zeros):
                    return True
        return False

    def key(self, empties: int) -> object:
        """Canonical key of the board when enough squares are empty, else the raw board."""
        if empties < self.canonical_empties:
            return tuple(self.board)
        return canonical_key(self.board, self.symmetries)

    # -- search ---------------------------------------------------------------------------------
    def _win(self, placements: int) -> int:
        return 1 if self.wdl else WIN - placements

    def choose(self, available: int, threats: int, alpha: int, beta: int, done: int) -> int:
        """Score of the player who must hand over one of ``available`` (``done`` placements made);
        ``threats`` are the pieces that would win on the board now."""
        self.nodes += 1
        if self.nodes & 4095 == 0:
            self._poll()
        if not available:
            return 0
        safe = available & ~threats
        if not safe:
            return -self._win(done + 1)
        table = self.tables[self.wdl]
        key = self.key(available.bit_count())
        entry = table.get(key)
        first = -1
        if entry is not None:
            stored, flag, first = entry
            value = stored - done if stored > 1 else stored + done if stored < -1 else stored
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
        original, best, best_piece = alpha, -WIN - 1, -1
        pieces = _bits(safe)
        if first in pieces:
            pieces.remove(first)
            pieces.insert(0, first)
        for piece in pieces:
            value = -self.place(piece, available & ~(1 << piece), threats, -beta, -alpha, done)
            if value > best:
                best, best_piece = value, piece
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        flag = EXACT if original < best < beta else (LOWER if best >= beta else UPPER)
        stored = best + done if best > 1 else best - done if best < -1 else best
        table[key] = (stored, flag, best_piece)
        return best

    def _poll(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.progress is not None and self.nodes & 0xFFFF == 0:
            self.progress(self.nodes)

    def place(self, piece: int, available: int, threats: int, alpha: int, beta: int, done: int) -> int:
        """Score of the player who must place ``piece`` (then choose from ``available``)."""
        self.nodes += 1
        if threats >> piece & 1:
            return self._win(done + 1)
        if not available:
            return 0
        best = -WIN - 1
        for cell, after in self._placements(piece, available):
            if not available & ~after:  # every piece left would lose, and so would the rest
                return max(best, -self._win(done + 2))
            saved = self._put(cell, piece)
            value = self.choose(available, after, alpha, beta, done + 1)
            self._take(cell, saved)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best

    def _placements(self, piece: int, available: int) -> list[tuple[int, int]]:
        """(square, threats after placing there), leaving fewest safe pieces first, none last
        (placements that leave no safe piece all lose alike)."""
        board, ones, zeros, count = self.board, self.ones, self.zeros, self.count
        line_threats, now = self.line_threats, self.threats()
        scored = []
        for cell in range(16):
            if board[cell] >= 0:
                continue
            new, closes = 0, False
            for line in self.cell_lines[cell]:
                filled = count[line]
                if filled == 2:
                    new |= WINNERS[(ones[line] & piece) << 4 | zeros[line] & ~piece & 15]
                elif filled == 3:
                    closes = True
            after = now
            if closes:  # a threatened line gets full: only the other lines' threats remain
                after = 0
                for line in self.other_lines[cell]:
                    after |= line_threats[line]
            after |= new
            safe = (available & ~after).bit_count()
            scored.append((safe if safe else 99, cell, after))
        scored.sort()
        return [(cell, after) for _, cell, after in scored]

    # -- entry points --------------------------------------------------------------------------
    def _exact(self, search: Callable[[int, int], int]) -> int:
        """Win, draw or loss first (a narrow window), then the distance of a decisive result."""
        self.wdl = True
        result = search(-1, 1)
        if result == 0:
            return 0
        self.wdl = False
        if result > 0:
            return search(WIN - 17, WIN + 1)
        return search(-WIN - 1, -(WIN - 17))

    def search(self, board: list[int], piece: int, available: int, alpha: int, beta: int) -> int:
        """A win/draw/loss search (scores 1, 0, -1) in the window (``alpha``, ``beta``): a score
        <= ``alpha`` is an upper bound, >= ``beta`` a lower bound. ``piece`` is -1 for the player
        who must give one of ``available``, else the piece the player to act must place."""
        self._load(board)
        self.wdl = True
        if piece < 0:
            return self.choose(available, self.threats(), alpha, beta, 0)
        return self.place(piece, available, self.threats(), alpha, beta, 0)

    def solve_choice(self, board: list[int], available: int) -> Solution:
        """Solve the moment after a placement, when the player must pick the piece to give."""
        started, nodes = time.perf_counter(), self.nodes
        self._load(board)
        threats = self.threats()
        score = self._exact(lambda alpha, beta: self.choose(available, threats, alpha, beta, 0))
        best = None
        for piece in _bits(available):
            self._load(board)
            if (
                -self.place(piece, available & ~(1 << piece), self.threats(), -score - 1, -score + 1, 0)
                == score
            ):
                best = piece
                break
        return _solution(
            score, available.bit_count(), best, self.nodes - nodes, time.perf_counter() - started
        )

    def solve_placement(self, board: list[int], piece: int, available: int) -> Solution:
        """Solve the moment a player must place ``piece`` (and then give one of ``available``)."""
        started, nodes = time.perf_counter(), self.nodes
        self._load(board)
        threats = self.threats()
        score = self._exact(lambda alpha, beta: self.place(piece, available, threats, alpha, beta, 0))
        best = None
        for cell in (c for c in range(16) if board[c] < 0):
            if self.wins_at(board, cell, piece) or not available:
                best = cell
                break
            self._load(board)
            self._put(cell, piece)
            if self.choose(available, self.threats(), score - 1, score + 1, 1) == score:
                best = cell
                break
        return _solution(
            score, available.bit_count() + 1, best, self.nodes - nodes, time.perf_counter() - started
        )

    def best_move(self, state: QuartoState) -> QuartoMove:
        """A move of best play in an engine position."""
        board = [-1 if (p := state.piece_at(c)) is None else p for c in range(16)]
        available = sum(1 << p for p in state.available())
        chars = state.pieces.chars
        if state.hand < 0:
            piece = self.solve_choice(board, available).best
            return QuartoMove(None, chars[piece if piece is not None else state.available()[0]])
        cell = self.solve_placement(board, state.hand, available).best
        assert cell is not None
        if self.wins_at(board, cell, state.hand) or not available:
            return QuartoMove(cell, None)
        board[cell] = state.hand
        piece = self.solve_choice(board, available).best
        return QuartoMove(cell, chars[piece if piece is not None else state.available()[0]])


class CompiledQuartoSolver(PureQuartoSolver):
    """The same solver with the search in C (the same scores and best moves; other node
    counts, as its table is a fixed array that forgets).

    Its tables grow with the first position of each size it solves: the one for canonical keys
    to at most ``2**max_table_bits`` entries of 16 bytes, the one for raw keys (fewer than
    ``canonical_empties`` empty squares) to at most 2**20, so that it stays in the cache;
    ``progress`` is called about every ``report_seconds``.
    """

    def __init__(
        self,
        advanced: bool = False,
        canonical_empties: int = 9,
        max_table_bits: int = 24,
        report_seconds: float = 1.0,
    ) -> None:
        super().__init__(advanced, canonical_empties)
        self.core = _compiled().Solver(
            line_masks(advanced),
            board_symmetries(advanced),
            canonical_empties,
            max_table_bits,
            report_seconds,
        )

    def solve_choice(self, board: list[int], available: int) -> Solution:
        return self._solve(board, -1, available)

    def solve_placement(self, board: list[int], piece: int, available: int) -> Solution:
        return self._solve(board, piece, available)

    def search(self, board: list[int], piece: int, available: int, alpha: int, beta: int) -> int:
        score, nodes = self._core(self.core.search, board, piece, available, alpha, beta)
        self.nodes += nodes
        return int(score)

    def _solve(self, board: list[int], piece: int, available: int) -> Solution:
        started = time.perf_counter()
        if piece < 0:
            score, best, nodes = self._core(self.core.solve_choice, board, available)
        else:
            score, best, nodes = self._core(self.core.solve_placement, board, piece, available)
        self.nodes += nodes
        empties = available.bit_count() + (piece >= 0)
        return _solution(score, empties, None if best < 0 else best, nodes, time.perf_counter() - started)

    def _core(self, call: Callable[..., tuple[int, ...]], *args: int | list[int]) -> tuple[int, ...]:
        """``call(*args, deadline)`` on the compiled solver, reporting progress here."""
        self.core.progress = None if self.progress is None else self._report
        try:
            return call(*args, self.deadline or 0.0)
        except TimeoutError:
            raise OutOfTime from None

    def _report(self, nodes: int) -> None:
        if self.progress is not None:
            self.progress(self.nodes + nodes)


def _compiled() -> ModuleType:
    """The compiled solver module (ImportError when it is not built)."""
    return importlib.import_module("bordspel._native.quarto_solver")


QuartoSolver: type[PureQuartoSolver] = (
    CompiledQuartoSolver if load("quarto_solver") is not None else PureQuartoSolver
)
"""The solver the players, ``bordspel solve quarto`` and the benchmarks use."""


def _bits(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


def _solution(score: int, empties: int, best: int | None, nodes: int, seconds: float) -> Solution:
    if score > 0:
        return Solution("win", WIN - score, score, best, nodes, seconds)
    if score < 0:
        return Solution("loss", WIN + score, score, best, nodes, seconds)
    return Solution("draw", empties, 0, best, nodes, seconds)


def random_choice_position(placed: int, rng: random.Random, advanced: bool = False) -> tuple[list[int], int]:
    """A choice position from random play in which nobody hands over an immediately winning piece.

    Returns the board and the available pieces after ``placed`` placements, the player who
    made the last one still to choose; retries until such a game gets that far.
    """
    solver = PureQuartoSolver(advanced)
    while True:
        board, available = [-1] * 16, 0xFFFF
        piece = rng.randrange(16)
        available &= ~(1 << piece)
        for _ in range(placed):
            cell = rng.choice([c for c in range(16) if board[c] < 0])
            if solver.wins_at(board, cell, piece):
                break
            board[cell] = piece
            solver._load(board)
            safe = available & ~solver.threats()
            if not safe:
                break
            piece = rng.choice(_bits(safe))
            available &= ~(1 << piece)
        else:
            return board, available | (1 << piece)


def evaluate(state: State, seat: int) -> float:
    """For search: positive when the pieces still safe to give favour ``seat``.

    An odd number of safe pieces tends to leave the last safe choice to the player to move.
    """
    assert isinstance(state, QuartoState)
    if state.hand < 0:
        return 0.0
    solver = _evaluation_solver(state.advanced)
    solver._load([-1 if (p := state.piece_at(c)) is None else p for c in range(16)])
    safe = sum(1 << p for p in state.available()) & ~solver.threats()
    guess = 1.0 if safe.bit_count() % 2 else -1.0
    return guess if state.to_move == seat else -guess


_SOLVERS: dict[bool, PureQuartoSolver] = {}


def _evaluation_solver(advanced: bool) -> PureQuartoSolver:
    if advanced not in _SOLVERS:
        _SOLVERS[advanced] = PureQuartoSolver(advanced)
    return _SOLVERS[advanced]


class QuartoEndgame(SolverEndgame):
    """The best move once at most ``max_empty`` squares are empty and the solver finishes
    before the deadline; None otherwise.

    A module-level class (not a closure) so that players holding it pickle; the solvers'
    tables are not pickled.
    """

    def __init__(self, time_limit: float | None, max_empty: int = 11) -> None:
        self.time_limit, self.max_empty = time_limit, max_empty
        self.solvers: dict[bool, PureQuartoSolver] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"time_limit": self.time_limit, "max_empty": self.max_empty, "solvers": {}}

    def solve(self, state: State, deadline: float | None) -> Proven | None:
        assert isinstance(state, QuartoState)
        empty = 16 - state.filled.bit_count()
        if empty > self.max_empty:
            return None
        if state.advanced not in self.solvers:  # one solver a variant, keeping its table between moves
            self.solvers[state.advanced] = QuartoSolver(state.advanced)
        exact = self.solvers[state.advanced]
        exact.deadline = deadline
        try:
            value = _value(exact, state)
            return Proven(exact.best_move(state), value.result, value.distance)
        except OutOfTime:
            return None
        finally:
            exact.deadline = None


def _value(exact: PureQuartoSolver, state: QuartoState) -> Solution:
    """The solver's value of an engine position for the player to move."""
    board = [-1 if (p := state.piece_at(c)) is None else p for c in range(16)]
    available = sum(1 << p for p in state.available())
    if state.hand < 0:
        return exact.solve_choice(board, available)
    return exact.solve_placement(board, state.hand, available)


CLOCKLESS_EMPTY = 10
"""The most empty squares a solver without a clock solves from: it runs to the end (at most
about 0.02 s compiled, 1 s in pure Python), so its answers repeat exactly."""


def solver(time_limit: float | None, max_empty: int | None = None) -> Endgame:
    """The endgame solver with ``time_limit`` seconds per move from ``max_empty`` empty squares
    (by default 11); without a time, from :data:`CLOCKLESS_EMPTY` (see :class:`QuartoEndgame`)."""
    if max_empty is None:
        max_empty = 11 if time_limit is not None else CLOCKLESS_EMPTY
    return QuartoEndgame(time_limit, max_empty)


_PLAYOUTS = load("quarto_playout")
_RETURNS = ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
"""The returns of each seat by result: seat 0 won, seat 1 won, a draw."""


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """For MCTS: the returns of a random game from ``state``, played in C (the same moves'
    distribution as ``random_move``); needs the compiled ``quarto_playout``."""
    assert isinstance(state, QuartoState) and _PLAYOUTS is not None
    outcome = state.outcome()
    if outcome is not None:
        return outcome.returns()
    seed = rng.getrandbits(64)
    result: int = _PLAYOUTS.random_result(
        state.filled, state.ones, state.hand, state.turn, state.advanced, seed
    )
    return _RETURNS[result]


KNOWLEDGE = Knowledge(
    evaluate=evaluate,
    levels={
        "easy": "random",
        "medium": "alphabeta:depth=2,solver=0",
        "hard": "alphabeta:time=1,solver_share=0.9",
        "perfect": "alphabeta:time=600,solver_time=600,search_time=1",
        "easy-v1": "random",
        "medium-v1": "alphabeta:depth=2,solver=0,pvs=0",
        "hard-v1": "alphabeta:time=1,pvs=0",
        "perfect-v1": "alphabeta:time=600,solver_time=600,search_time=1,pvs=0",
    },
    solver=solver,
    playout=None if _PLAYOUTS is None else playout,
)
