"""Batched PUCT search guided by a network, as in AlphaZero, for two-seat games.

Many positions are searched at once: each round descends every tree to one leaf, and the
leaves of all trees are valued in one call of the network (``Evaluator``). A leaf's value is
the network's for the seat to move there (the other seat gets its negation); a finished game's
is its ``Outcome.returns()``. The root's priors may be mixed with Dirichlet noise (self-play),
or the root's moves chosen by Gumbel sequential halving (:class:`SequentialHalving`, for few
simulations).
The network sees the codec's planes from the side to move (``bordspel.rl.codecs``), channels
first, and scores every action of the codec; illegal ones are masked out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence, Sized
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from bordspel.core import BordspelError, State
from bordspel.rl.codecs import Codec

__all__ = [
    "Encoder",
    "Evaluator",
    "Node",
    "RootStats",
    "SearchSettings",
    "SequentialHalving",
    "batched_search",
    "evaluate_nodes",
    "improved_policy",
    "masked_softmax",
    "part_count",
    "part_table",
    "policy_priors",
]

Floats = npt.NDArray[np.float32]
Evaluator = Callable[[Floats, npt.NDArray[np.bool_]], tuple[Floats, Floats]]
"""``evaluate(planes, masks)``: for a batch of planes ``(B, C, H, W)`` and legal-action masks
``(B, A)``, the priors ``(B, A)`` (summing to 1 over the legal actions) and the values ``(B,)``
for the seat to move, from -1 to 1."""


def masked_softmax(logits: Floats, masks: npt.NDArray[np.bool_]) -> Floats:
    """The softmax of the rows of ``logits`` over the legal actions (0 elsewhere)."""
    shifted = np.where(masks, logits, -np.inf)
    weights: Floats = np.exp(shifted - shifted.max(axis=1, keepdims=True)).astype(np.float32)
    shares: Floats = weights / weights.sum(axis=1, keepdims=True)
    return shares


Table = npt.NDArray[np.int64]


def part_count(parts: Table | None) -> int:
    """The number of parts a codec's ``action_parts`` names (0 for None: no parts)."""
    return 0 if parts is None else int(parts.max()) + 1


def part_table(parts: Table | None) -> Table | None:
    """A codec's ``action_parts`` with each -1 made the number after the last part (a part
    that scores 0), as :func:`policy_priors` reads them; None stays None."""
    return None if parts is None else np.where(parts < 0, part_count(parts), parts)


def policy_priors(scores: Floats, masks: npt.NDArray[np.bool_], table: Table | None) -> Floats:
    """The priors ``(B, A)`` over the legal actions from a network's policy scores: the actions'
    logits, or with a :func:`part_table` the parts' scores, an action's logit the sum of its
    parts' (summed for the legal actions only)."""
    if table is None:
        return masked_softmax(scores, masks)
    padded = np.concatenate([scores, np.zeros((len(scores), 1), scores.dtype)], axis=1)
    priors = np.zeros(masks.shape, dtype=np.float32)
    for row, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        logits = padded[row, table[legal]].sum(axis=1)
        weights = np.exp(logits - logits.max())
        priors[row, legal] = weights / weights.sum()
    return priors


class Encoder:
    """A game's positions as the network's input: planes (channels first) and legal actions."""

    def __init__(self, codec: Codec, start: State) -> None:
        if start.num_players != 2:
            raise BordspelError(f"zero plays two-seat games; this {start.name} has {start.num_players} seats")
        self.codec = codec
        self.actions = codec.num_actions(start)
        self.shape = tuple(int(x) for x in np.moveaxis(codec.observe(start, 0), -1, 0).shape)

    def planes(self, state: State) -> Floats:
        """The position from the side to move, ``(C, H, W)``."""
        return np.moveaxis(self.codec.observe(state, state.to_move), -1, 0).astype(np.float32)

    def legal(self, state: State) -> tuple[list[Any], npt.NDArray[np.int64]]:
        """The legal moves and their actions."""
        moves = state.legal_moves()
        return moves, np.array(self.codec.encode_legal(state, moves), dtype=np.int64)

    def mask(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """The legal-action mask of these actions."""
        mask = np.zeros(self.actions, dtype=np.bool_)
        mask[actions] = True
        return mask


class Node:
    """A position in a search tree, its moves and their statistics (from its mover's side)."""

    __slots__ = ("actions", "children", "halving", "moves", "outcome", "priors", "state", "totals", "visits")

    def __init__(self, state: State, encoder: Encoder) -> None:
        self.state = state
        outcome = state.outcome()
        self.moves, self.actions = ([], np.zeros(0, dtype=np.int64)) if outcome else encoder.legal(state)
        self.outcome: tuple[float, ...] | None = outcome.returns() if outcome else None
        count = len(self.moves)
        self.priors = np.zeros(count, dtype=np.float64)
        self.visits = np.zeros(count, dtype=np.float64)
        self.totals = np.zeros(count, dtype=np.float64)
        self.children: list[Node | None] = [None] * count
        self.halving: SequentialHalving | None = None
        """A root's Gumbel selection, when the search uses one."""

    def keep_only(self, moves: Sequence[Any]) -> None:
        """Search only ``moves`` here (legal moves, at least one; before the node is expanded)."""
        kept = [index for index, move in enumerate(self.moves) if move in moves]
        if not kept or len(kept) != len(set(moves)):
            raise BordspelError(f"the moves to search are legal moves, at least one, not {list(moves)!r}")
        self.moves = [self.moves[index] for index in kept]
        self.actions = self.actions[kept]
        self.priors, self.visits, self.totals = (np.zeros(len(kept)) for _ in range(3))
        self.children = [None] * len(kept)

    @property
    def expanded(self) -> bool:
        """Whether the node is valued: a finished game, or priors from the network."""
        return self.outcome is not None or bool(self.priors.any())

    def select(self, exploration: float) -> int:
        """The index of the move with the best PUCT score."""
        scale = exploration * math.sqrt(max(1.0, self.visits.sum()))
        values = np.divide(self.totals, self.visits, out=np.zeros_like(self.totals), where=self.visits > 0)
        return int(np.argmax(values + scale * self.priors / (1.0 + self.visits)))

    def child(self, index: int, encoder: Encoder) -> Node:
        """The node after move ``index`` (made on first use)."""
        found = self.children[index]
        if found is None:
            found = self.children[index] = Node(self.state.apply_unchecked(self.moves[index]), encoder)
        return found

    def best(self) -> int:
        """The index of the move to play: the Gumbel selection's, else the most visited."""
        return self.halving.best(self) if self.halving is not None else int(np.argmax(self.visits))

    def value(self) -> float:
        """The search's value of this position for its seat to move (its moves' mean result)."""
        visits = self.visits.sum()
        return float(self.totals.sum() / visits) if visits else 0.0

    def policy(self) -> Floats:
        """The visit shares of the moves."""
        total = self.visits.sum()
        shares = self.visits / total if total else np.full(len(self.moves), 1.0 / max(1, len(self.moves)))
        return shares.astype(np.float32)


@dataclass(frozen=True)
class SearchSettings:
    """How a search runs: ``simulations`` leaves a tree, PUCT's ``exploration`` constant,
    Dirichlet noise at the root (``noise`` its weight, 0 for none; ``alpha`` its concentration),
    and ``gumbel``: the root's moves sampled with Gumbel noise (times ``gumbel_scale``: 1 to
    explore in self-play, 0 to play one's best, as mctx advises for evaluation) and visited by
    sequential halving (:class:`SequentialHalving`; 0 for PUCT at the root)."""

    simulations: int = 32
    exploration: float = 1.5
    noise: float = 0.0
    alpha: float = 0.3
    gumbel: int = 0
    gumbel_scale: float = 1.0


GUMBEL_VISIT_SCALE = 50.0
"""``c_visit`` of the Gumbel value transform (the paper's and mctx's default)."""


class RootStats(Protocol):
    """What Gumbel selection reads of a root: its moves' priors, visits and total values."""

    @property
    def moves(self) -> Sized:
        """The root's moves (only their number is read)."""

    @property
    def priors(self) -> npt.NDArray[np.float64]:
        """The moves' priors."""

    @property
    def visits(self) -> npt.NDArray[np.float64]:
        """The moves' visits."""

    @property
    def totals(self) -> npt.NDArray[np.float64]:
        """The moves' total values for the root's mover."""


class SequentialHalving:
    """Gumbel root selection (Danihelka et al., "Policy improvement by planning with Gumbel",
    ICLR 2022; mctx's ``gumbel_muzero_policy``): the ``considered`` moves with the best prior
    logit plus Gumbel noise are visited in turn, in ``ceil(log2(considered))`` phases that each
    share the simulations evenly and keep the better half by noisy logit plus
    ``(c_visit + most visits) * value`` (the value from 0 to 1); the move to play is the best
    survivor by the same score. The paper finds it improves on the prior even with a handful of
    simulations, where PUCT at the root barely leaves it."""

    def __init__(
        self, root: RootStats, considered: int, simulations: int, rng: np.random.Generator, scale: float = 1.0
    ) -> None:
        logits = np.log(np.maximum(root.priors, np.finfo(np.float64).tiny))
        self.scores = scale * rng.gumbel(size=len(root.moves)) + logits
        count = max(1, min(considered, len(root.moves)))
        self.survivors = [int(i) for i in np.argsort(-self.scores, kind="stable")[:count]]
        self.phases = max(1, math.ceil(math.log2(count)))
        self.simulations = simulations
        self.queue: list[int] = []
        self.started = False

    def next(self, root: RootStats) -> int:
        """The root move the next simulation goes through."""
        if not self.queue:
            if self.started and len(self.survivors) > 1:
                self._halve(root)
            self.started = True
            each = max(1, self.simulations // (self.phases * len(self.survivors)))
            self.queue = [index for _ in range(each) for index in self.survivors]
        return self.queue.pop(0)

    def _halve(self, root: RootStats) -> None:
        ranked = sorted(self.survivors, key=lambda index: -self._score(root, index))
        self.survivors = ranked[: math.ceil(len(ranked) / 2)]

    def _score(self, root: RootStats, index: int) -> float:
        visits = root.visits[index]
        value = (root.totals[index] / visits + 1) / 2 if visits else 0.5
        return float(self.scores[index] + (GUMBEL_VISIT_SCALE + root.visits.max()) * value)

    def best(self, root: RootStats) -> int:
        """The move to play: the survivor with the best score."""
        return max(self.survivors, key=lambda index: self._score(root, index))


GUMBEL_VALUE_SCALE = 0.1
"""``c_scale`` of the policy target's value transform (mctx's ``value_scale``)."""


def improved_policy(
    priors: npt.NDArray[np.floating[Any]],
    visits: npt.NDArray[np.floating[Any]],
    totals: npt.NDArray[np.floating[Any]],
) -> Floats:
    """Gumbel MuZero's policy target for a root searched by sequential halving, over its moves:
    the softmax of the log priors plus ``(c_visit + most visits) * c_scale * q``, where ``q`` is
    each move's completed value rescaled to 0-1 over the moves (its mean value; a move not
    visited gets the prior-weighted mean of the visited ones), as mctx's
    ``qtransform_completed_by_mix_value`` (without the network's own value of the root). Visit
    shares are no target here: sequential halving sets the visits by its schedule."""
    visited = visits > 0
    means = np.where(visited, totals / np.maximum(visits, 1), 0.0)
    weights = np.where(visited, priors, 0.0)
    mixed = float((weights * means).sum() / weights.sum()) if weights.sum() > 0 else 0.0
    completed = np.where(visited, means, mixed)
    spread = completed.max() - completed.min()
    rescaled = (completed - completed.min()) / spread if spread > 0 else np.zeros_like(completed)
    sigma = (GUMBEL_VISIT_SCALE + visits.max()) * GUMBEL_VALUE_SCALE * rescaled
    logits = np.log(np.maximum(priors, np.finfo(np.float64).tiny)) + sigma
    shares = np.exp(logits - logits.max())
    policy: Floats = (shares / shares.sum()).astype(np.float32)
    return policy


def evaluate_nodes(nodes: list[Node], encoder: Encoder, evaluate: Evaluator) -> tuple[list[Floats], Floats]:
    """The priors of each unfinished node's moves (summing to 1) and the nodes' values, in one
    call of the network."""
    planes = np.stack([encoder.planes(node.state) for node in nodes])
    masks = np.stack([encoder.mask(node.actions) for node in nodes])
    priors, values = evaluate(planes, masks)
    chosen = [prior[node.actions] for node, prior in zip(nodes, priors)]
    return [shares / shares.sum() for shares in chosen], values


def batched_search(
    roots: list[Node],
    encoder: Encoder,
    evaluate: Evaluator,
    settings: SearchSettings,
    rng: np.random.Generator,
    deadline: float | None = None,
) -> None:
    """Run ``settings.simulations`` rounds on every tree in ``roots`` (unfinished positions), or
    fewer when ``deadline`` (``time.monotonic()``) passes."""
    _expand([root for root in roots if not root.expanded], encoder, evaluate, [])
    if settings.noise:
        for root in roots:
            noise = rng.dirichlet([settings.alpha] * len(root.moves))
            root.priors = (1 - settings.noise) * root.priors + settings.noise * noise
    if settings.gumbel:
        for root in roots:
            root.halving = SequentialHalving(
                root, settings.gumbel, settings.simulations, rng, settings.gumbel_scale
            )
    for _ in range(settings.simulations):
        if deadline is not None and time.monotonic() > deadline:
            return
        paths = [_descend(root, encoder, settings.exploration) for root in roots]
        waiting = [path for path in paths if path[-1][0].outcome is None]
        finished = [path for path in paths if path[-1][0].outcome is not None]
        for path in finished:
            outcome = path[-1][0].outcome
            assert outcome is not None
            _backup(path, outcome)
        _expand([path[-1][0] for path in waiting], encoder, evaluate, waiting)


Path = list[tuple[Node, int]]


def _descend(root: Node, encoder: Encoder, exploration: float) -> Path:
    """The path from ``root`` to a leaf (a node not yet valued, or a finished game): each step a
    node and the index of the move taken there (-1 at the leaf)."""
    path: Path = []
    node = root
    while node.expanded and node.outcome is None:
        index = node.halving.next(node) if node.halving is not None else node.select(exploration)
        path.append((node, index))
        node = node.child(index, encoder)
    path.append((node, -1))
    return path


def _expand(leaves: list[Node], encoder: Encoder, evaluate: Evaluator, paths: list[Path]) -> None:
    """Value ``leaves`` in one network call, set their priors and back the values up ``paths``."""
    if not leaves:
        return
    priors, values = evaluate_nodes(leaves, encoder, evaluate)
    for leaf, prior in zip(leaves, priors):
        leaf.priors = prior.astype(np.float64)
    for path, value in zip(paths, values):
        mover = path[-1][0].state.to_move
        _backup(path, tuple(float(value) if seat == mover else -float(value) for seat in range(2)))


def _backup(path: Path, returns: tuple[float, ...]) -> None:
    for node, index in path[:-1]:
        node.visits[index] += 1
        node.totals[index] += returns[node.state.to_move]
