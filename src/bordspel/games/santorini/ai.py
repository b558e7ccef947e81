"""Santorini knowledge: a position evaluation and a move order for search.

The evaluation (``evaluation``) counts, per colour, what makes a worker strong: its height,
the heights it can step onto, how many squares it can move to, whether it threatens to climb
onto level 3, and whether the player to move has such a threat; its weights are fitted to
game outcomes. ``evaluate_v1`` is the baseline's hand-set evaluation (weights chosen by arena
matches, see the README).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Any

from bordspel._native import load
from bordspel.ai.registry import Knowledge
from bordspel.ai.search import WIN
from bordspel.core import State, iter_bits
from bordspel.games.santorini.batch import compiled, random_games
from bordspel.games.santorini.board import (
    CELLS,
    NEIGHBOURS,
    SIZE,
    STEPS,
    Levels,
    height,
    move_targets,
    occupied_mask,
    winning_steps,
)
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.evaluation import FEATURES, LinearEvaluation, load_weights
from bordspel.games.santorini.fast_search import fast_search
from bordspel.games.santorini.turns import REMOVED

__all__ = [
    "Weights",
    "evaluate",
    "evaluate_v1",
    "make_evaluation",
    "order",
    "placement",
    "playout",
    "prior",
    "threatens",
    "value",
    "zobrist",
]


@dataclass(frozen=True)
class Weights:
    """The weights of the Santorini evaluation's terms."""

    height: tuple[float, float, float, float] = (0.0, 30.0, 90.0, 0.0)
    reach: float = 12.0
    mobility: float = 0.0
    threat: float = 200.0
    centre: float = 4.0


def _centrality(cell: int) -> int:
    row, col = divmod(cell, SIZE)
    return 4 - abs(row - 2) - abs(col - 2)


CENTRALITY = tuple(_centrality(c) for c in range(CELLS))


def worker_value(levels: tuple[int, int, int, int], occupied: int, cell: int, weights: Weights) -> float:
    level = height(levels, cell)
    targets = move_targets(levels, occupied, cell)
    reach = sum(height(levels, t) for t in range(CELLS) if targets >> t & 1)
    value = weights.height[level] + weights.reach * reach + weights.mobility * targets.bit_count()
    if winning_steps(levels, cell, targets):
        value += weights.threat
    return value + weights.centre * CENTRALITY[cell]


@dataclass(frozen=True)
class Evaluation:
    """The evaluation with given weights: a module-level class so that players holding it pickle."""

    weights: Weights

    def __call__(self, state: State, seat: int) -> float:
        assert isinstance(state, SantoriniState)
        occupied = occupied_mask(state.workers)
        mine = state.colour_of(seat)
        totals = [0.0] * state.colours
        for index, cell in enumerate(state.workers):
            if cell >= 0:
                totals[index // 2] += worker_value(state.levels, occupied, cell, self.weights)
        if state.powers is not None:
            for colour in range(state.colours):
                totals[colour] += self.weights.threat * god_threats(state, colour)
        others = [t for colour, t in enumerate(totals) if colour != mine]
        return totals[mine] - sum(others) / max(1, len(others))


def god_threats(state: SantoriniState, colour: int) -> int:
    """How many workers of ``colour`` threaten a win through a simple god's power next turn.

    Pan's drop of two levels, Artemis's climb over two steps, Apollo's and Minotaur's climb onto
    an opponent's level-3 square; none while an opponent's Athena forbids moving up (Pan's drop
    still counts then).
    """
    levels, workers = state.levels, state.workers
    occupied = occupied_mask(workers)
    up = state.powers.up if state.powers is not None else 0
    held = any(
        state.god_of(seat) == "athena" and up >> seat & 1
        for seat in range(state.players)
        if state.colour_of(seat) != colour
    )
    threats = [
        _THREATS[name]
        for seat in range(state.players)
        if state.colour_of(seat) == colour and (name := state.god_of(seat) or "") in _THREATS
        if name == "pan" or not held
    ]
    return sum(
        any(threat(levels, occupied, cell, workers, colour) for threat in threats)
        for cell in workers[2 * colour : 2 * colour + 2]
        if cell >= 0
    )


def _pan(levels: Levels, occupied: int, cell: int, workers: tuple[int, ...], colour: int) -> bool:
    level = height(levels, cell)
    return level >= 2 and any(
        height(levels, t) <= level - 2 for t in iter_bits(move_targets(levels, occupied, cell))
    )


def _artemis(levels: Levels, occupied: int, cell: int, workers: tuple[int, ...], colour: int) -> bool:
    top = levels[2] & ~levels[3]
    return height(levels, cell) == 1 and any(
        height(levels, t) == 2 and move_targets(levels, occupied & ~(1 << cell), t) & top
        for t in iter_bits(move_targets(levels, occupied, cell))
    )


def _rival_tops(levels: Levels, cell: int, workers: tuple[int, ...], colour: int) -> list[int]:
    """The cells a worker on ``cell`` would win by stepping onto were they empty, where an
    opponent worker stands."""
    tops = winning_steps(levels, cell, move_targets(levels, 0, cell))
    return [
        other
        for index, other in enumerate(workers)
        if index // 2 != colour and other >= 0 and tops >> other & 1
    ]


def _apollo(levels: Levels, occupied: int, cell: int, workers: tuple[int, ...], colour: int) -> bool:
    return bool(_rival_tops(levels, cell, workers, colour))


def _minotaur(levels: Levels, occupied: int, cell: int, workers: tuple[int, ...], colour: int) -> bool:
    for other in _rival_tops(levels, cell, workers, colour):
        behind = STEPS[other][STEPS[cell].index(other)]
        if behind >= 0 and not (occupied | levels[3]) >> behind & 1:
            return True
    return False


_THREATS = {"pan": _pan, "artemis": _artemis, "apollo": _apollo, "minotaur": _minotaur}


def make_evaluation(weights: Weights) -> Any:
    """The evaluation of positions with ``weights``."""
    return Evaluation(weights)


evaluate_v1 = make_evaluation(Weights())
"""The evaluation of ``hard-v1`` (issue 14's baseline)."""


@dataclass(frozen=True)
class WithGods:
    """An evaluation plus the simple gods' win threats (see ``god_threats``), each weighted like
    a climbing threat: mine minus the others' mean."""

    base: LinearEvaluation

    def __call__(self, state: State, seat: int) -> float:
        value = self.base(state, seat)
        assert isinstance(state, SantoriniState)
        if state.powers is None:
            return value
        threats = [god_threats(state, colour) for colour in range(state.colours)]
        mine = threats.pop(state.colour_of(seat))
        weight = self.base.weights[FEATURES.index("threats")]
        return value + weight * (mine - sum(threats) / max(1, len(threats)))


evaluate = WithGods(LinearEvaluation(load_weights()))
"""The evaluation with weights fitted to game outcomes (``benchmarks/texel_santorini.py``),
knowing the simple gods' threats."""


def order(state: State, moves: list[Any]) -> list[Any]:
    """Winning climbs first, then moves up, then builds next to the moved worker's rivals."""
    assert isinstance(state, SantoriniState)
    levels = state.levels

    def key(move: Any) -> int:
        if not isinstance(move, Turn):
            return 0
        if move.build is None:
            return -100
        return -height(levels, move.target) * 10 - (NEIGHBOURS[move.target] >> move.build & 1)

    return sorted(moves, key=key)


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """One random game through the batch API: +1 for every winning seat, -1 for the others."""
    assert isinstance(state, SantoriniState)
    (winners,), _ = random_games(state, 1, rng.getrandbits(64))
    return tuple(1.0 if seat in winners else -1.0 for seat in range(state.players))


SCALE = 100.0
"""The evaluation's unit: the fit says a position scored ``x`` is won with probability
``1 / (1 + exp(-x / SCALE))`` (``benchmarks/texel_santorini.py``)."""

_CORE = load("santorini_core")


def value(state: State) -> tuple[float, ...]:
    """Every seat's expected return from the evaluation (MCTS's leaf value): ``tanh(x / 2 SCALE)``,
    which is twice the fitted probability of a win, less one."""
    return tuple(math.tanh(evaluate(state, seat) / (2 * SCALE)) for seat in range(state.num_players))


def prior(state: State, moves: list[Any]) -> list[float]:
    """MCTS's move priors: a softmax of the evaluation after each move, for the player making it
    (``moves`` are the legal moves in their order); compiled without gods after the setup."""
    assert isinstance(state, SantoriniState)
    if _CORE is not None and state.powers is None and state.colours == 2 and not state.in_setup:
        values: list[float] = _CORE.move_values(state, evaluate.base.weights)
    else:
        values = [_value_for(state.apply_unchecked(move), state.to_move) for move in moves]
    top = max(values)
    weights = [math.exp(max(-50.0, (v - top) / SCALE)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _value_for(child: SantoriniState, seat: int) -> float:
    outcome = child.outcome()
    if outcome is None:
        return evaluate(child, seat)
    return WIN if seat in outcome.winners else -WIN


def threatens(state: State) -> bool:
    """Whether a colour not to move threatens to win next turn: a worker on level 2 next to a
    free level 3, or a simple god's power (:func:`god_threats`). The player to move must answer
    it, so the search looks one ply deeper."""
    assert isinstance(state, SantoriniState)
    if state.is_over() or state.in_setup:
        return False
    mine, occupied = state.colour_of(state.to_move), occupied_mask(state.workers)
    rivals = [colour for colour in range(state.colours) if colour != mine]
    return any(_colour_threatens(state, colour, occupied) for colour in rivals)


def quiet(state: State) -> bool:
    """Whether the search may reduce late moves into ``state``: a position with gods where no
    colour, the one to move included, threatens to win next turn by a climb or by Pan's,
    Artemis's, Apollo's or Minotaur's power (:func:`god_threats`). Without gods none is: the
    base game's compiled search reaches its depth in full."""
    assert isinstance(state, SantoriniState)
    if state.powers is None or state.is_over() or state.in_setup:
        return False
    occupied = occupied_mask(state.workers)
    return not any(_colour_threatens(state, colour, occupied) for colour in range(state.colours))


def _colour_threatens(state: SantoriniState, colour: int, occupied: int) -> bool:
    """Whether a worker of ``colour`` could win next turn by a climb or a simple god's power
    (``occupied``: the cells of all workers)."""
    levels = state.levels
    cells = [cell for cell in state.workers[2 * colour : 2 * colour + 2] if cell >= 0]
    if any(winning_steps(levels, cell, move_targets(levels, occupied, cell)) for cell in cells):
        return True
    return state.powers is not None and god_threats(state, colour) > 0


def _zobrist_table(seed: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Random 64-bit numbers: per level bitboard and byte of it, per worker and cell."""
    rng = random.Random(seed)
    levels = tuple(tuple(tuple(rng.getrandbits(64) for _ in range(256)) for _ in range(4)) for _ in range(4))
    return levels


_ZOBRIST_LEVELS = _zobrist_table(0x5A7)
_ZOBRIST_RNG = random.Random(0x5A8)
UNPLACED = REMOVED  # the lowest worker value: -2 removed (by a god), -1 not yet placed
_ZOBRIST_WORKERS = tuple(
    tuple(_ZOBRIST_RNG.getrandbits(64) for _ in range(CELLS - UNPLACED)) for _ in range(8)
)


def zobrist(state: State) -> int:
    """A Zobrist hash of the position: the towers a byte at a time, the workers, the seat to move,
    the supply, who is out and the gods' state (the transposition table's key)."""
    assert isinstance(state, SantoriniState)
    key = hash((state.turn, state.supply, state.out, state.powers))
    for mask, table in zip(state.levels, _ZOBRIST_LEVELS):
        key ^= table[0][mask & 255] ^ table[1][mask >> 8 & 255]
        key ^= table[2][mask >> 16 & 255] ^ table[3][mask >> 24]
    for index, cell in enumerate(state.workers):
        key ^= _ZOBRIST_WORKERS[index][cell - UNPLACED]
    return key


def placement(state: State) -> Any:
    """The setup from a table instead of a search: both workers near the centre, not side by
    side, as close to the opponents' workers as that allows; None once the setup is over."""
    assert isinstance(state, SantoriniState)
    if not state.in_setup:
        return None
    rivals = 0
    for cell in state.workers:
        if cell >= 0:
            rivals |= NEIGHBOURS[cell]
    placements = [move for move in state.legal_moves() if isinstance(move, Placement)]
    return max(placements, key=lambda move: _placement_value(move, rivals))


def _placement_value(move: Placement, rivals: int) -> float:
    first, second = move
    apart = 0.0 if NEIGHBOURS[first] >> second & 1 else 1.0
    near = (rivals >> first & 1) + (rivals >> second & 1)
    return 2.0 * (CENTRALITY[first] + CENTRALITY[second]) + apart + near


KNOWLEDGE = Knowledge(
    evaluate=evaluate,
    order=order,
    levels={
        "easy": "random",
        "medium": "greedy",
        "hard": "alphabeta:time=1",
        "perfect": "alphabeta:time=5",
        "easy-v1": "random",
        "medium-v1": "greedy:eval=v1",
        "hard-v1": "alphabeta:time=1,pvs=0,ext=0,lmr=0,book=0,eval=v1",
        "perfect-v1": "alphabeta:time=5,pvs=0,ext=0,lmr=0,book=0,eval=v1",
    },
    playout=playout if compiled() else None,  # the pure batch is slower than the generic playout
    evaluations={"v1": evaluate_v1},
    extend=threatens,
    quiet=quiet,
    key=zobrist,
    opening=placement,
    fast_search=partial(fast_search, evaluation=evaluate),
    prior=prior,
    value=value,
)
