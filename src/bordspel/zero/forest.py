"""Batched PUCT on a batch of games (``bordspel.rl.vector``): the trees of many games as NumPy
arrays of ``[games, nodes]`` and ``[games, nodes, actions]``, as DeepMind's mctx holds them.

:class:`Forest` searches every game at once: each simulation descends all trees together (one
array step a depth), plays the leaves' moves in one call of the batch, values them in one call
of the network and backs the values up, again one array step a depth. The positions of the
nodes live in a second batch of ``games * nodes`` rows: a leaf is its parent's row copied out
(``copy_games``), stepped by its move, and copied back into its own row. Any batch that copies
its games searches: a game's compiled kernel (Quarto's) or :class:`~bordspel.rl.vector.PythonBatch`,
the reference, which searches exactly as the compiled one does.

The statistics are those of :class:`bordspel.zero.search.Node`: each node's moves with their
visits and total values from its mover's side, PUCT scores over the legal moves with unvisited
moves worth 0, Dirichlet noise at the root, or Gumbel sequential halving at the root
(:class:`~bordspel.zero.search.SequentialHalving`, the same class on a view of the root's row).
After a move, :meth:`Forest.advance` keeps the subtree of the move played for the next search,
as the engine's self-play keeps the child node, when it fits in the tree's room (:data:`ROOM`):
the search then visits as the engine's does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from bordspel.rl.vector import Batch
from bordspel.zero.search import Encoder, Evaluator, Floats, SearchSettings, SequentialHalving

__all__ = [
    "ROOM",
    "CopyingBatch",
    "Forest",
    "Positions",
    "SearchedRoots",
    "observation_shape",
    "start_positions",
]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class CopyingBatch(Batch, Protocol):
    """A batch whose games can be copied into another batch of the same game."""

    def copy_games(self, source: Any, rows: Ints, into: Ints) -> None:
        """Copy game ``rows[k]`` of ``source`` into game ``into[k]``, for every ``k``."""


ROOM = 3
"""A tree has room for this many times a search's simulations (and its root)."""

BatchMaker = Callable[[int], CopyingBatch]
"""``make(n)``: a batch of ``n`` games, in self-play (no opponent)."""


class Positions:
    """A batch of games with the arrays its calls write: the games of self-play, or the leaves a
    search plays its moves in."""

    def __init__(
        self, make: BatchMaker, count: int, obs_shape: tuple[int, ...], actions: int, seats: int
    ) -> None:
        self.batch = make(count)
        self.obs = np.zeros((count, *obs_shape), np.int8)
        self.masks = np.zeros((count, actions), np.int8)
        self.rewards = np.zeros(count, np.float64)
        self.terminated = np.zeros(count, np.uint8)
        self.illegal = np.zeros(count, np.uint8)
        self.replies = np.zeros((count, 0), np.int32)
        self.to_move = np.zeros(count, np.int32)
        self.returns = np.zeros((count, seats), np.float64)

    def step(self, actions: Ints) -> None:
        """Play one action in every game and read who moves next and the results."""
        self.batch.step(
            np.ascontiguousarray(actions, np.int64), self.obs, self.masks, self.rewards,
            self.terminated, self.illegal, self.replies,
        )  # fmt: skip
        self.batch.seats(self.to_move, self.returns)

    def planes(self, rows: Ints) -> Floats:
        """The network's input for these games: planes, channels first."""
        return np.moveaxis(self.obs[rows], -1, 1).astype(np.float32)


def start_positions(make: BatchMaker, count: int, encoder: Encoder, seats: int) -> Positions:
    """``count`` games at the batch's start, with their planes, masks and seats to move."""
    positions = Positions(make, count, observation_shape(encoder), encoder.actions, seats)
    positions.batch.reset(np.ones(count, np.uint8), positions.obs, positions.masks, positions.replies)
    positions.batch.seats(positions.to_move, positions.returns)
    return positions


def observation_shape(encoder: Encoder) -> tuple[int, ...]:
    """The shape of a batch's observation of one game (channels last)."""
    channels, *board = encoder.shape
    return (*board, channels)


class SearchedRoots:
    """What a search leaves at each root: its actions' priors (noise included), visits and total
    values, the value of the position for its mover, and the action Gumbel selection chose (-1
    without it)."""

    def __init__(self, priors: Floats, visits: Floats, totals: Floats, values: Floats, chosen: Ints) -> None:
        self.priors, self.visits, self.totals = priors, visits, totals
        self.values, self.chosen = values, chosen


class _RootView:
    """One game's root as :class:`SequentialHalving` reads a node: its legal actions' priors,
    visits and totals."""

    def __init__(self, forest: Forest, game: int) -> None:
        self.forest, self.game = forest, game
        self.actions = np.flatnonzero(forest.legal[game, 0])
        self.moves = self.actions
        self.priors = forest.priors[game, 0, self.actions].astype(np.float64)

    @property
    def visits(self) -> npt.NDArray[np.float64]:
        """The visits of the root's legal actions."""
        found: npt.NDArray[np.float64] = self.forest.child_visits[self.game, 0, self.actions].astype(
            np.float64
        )
        return found

    @property
    def totals(self) -> npt.NDArray[np.float64]:
        """The total values of the root's legal actions."""
        found: npt.NDArray[np.float64] = self.forest.child_totals[self.game, 0, self.actions].astype(
            np.float64
        )
        return found


class Forest:
    """The search trees of ``games`` games of ``simulations`` simulations each (see the module
    docstring)."""

    def __init__(
        self,
        make: BatchMaker,
        games: int,
        simulations: int,
        obs_shape: tuple[int, ...],
        actions: int,
        seats: int,
    ) -> None:
        self.games, self.nodes, self.actions = games, ROOM * simulations + 1, actions
        """Room for a kept subtree and a search's new nodes (a larger subtree is not kept)."""
        self.simulations = simulations
        self.count = np.ones(games, np.int64)
        """Each tree's nodes in use."""
        self.kept = np.zeros(games, np.bool_)
        """The games whose tree goes on from the move played (:meth:`advance`)."""
        self.store = make(games * self.nodes)
        self.leaves = Positions(make, games, obs_shape, actions, seats)
        shape = (games, self.nodes)
        self.priors = np.zeros((*shape, actions), np.float32)
        self.legal = np.zeros((*shape, actions), np.bool_)
        self.child_visits = np.zeros((*shape, actions), np.float32)
        self.child_totals = np.zeros((*shape, actions), np.float32)
        self.children = np.full((*shape, actions), -1, np.int32)
        self.parent = np.zeros(shape, np.int64)
        self.action = np.zeros(shape, np.int64)
        self.to_move = np.zeros(shape, np.int64)
        self.terminal = np.zeros(shape, np.bool_)
        self.outcome = np.zeros(shape, np.float64)
        """A finished game's result for seat 0."""
        self.halvings: list[SequentialHalving | None] = [None] * games
        self.views: list[_RootView | None] = [None] * games

    def search(
        self,
        positions: Positions,
        playing: Bools,
        evaluate: Evaluator,
        settings: SearchSettings,
        rng: np.random.Generator,
    ) -> SearchedRoots:
        """Search the positions of ``positions``'s games where ``playing`` is set (unfinished),
        ``settings.simulations`` simulations each."""
        self._plant(positions, playing, evaluate, settings, rng)
        games = np.flatnonzero(playing)
        for _ in range(self.simulations):
            self._simulate(games, evaluate, settings.exploration)
        return self._roots(games)

    def advance(self, games: Ints, actions: Ints) -> None:
        """Keep, for the next search of each of ``games``, the subtree of the move ``actions``
        played at its root (as the engine's self-play keeps the child ``Node``); every other
        game's tree starts anew."""
        self.kept[:] = False
        children = self.children[games, 0, actions]
        going = children > 0
        games, children = games[going], children[going]
        going = ~self.terminal[games, children]
        games, children = games[going], children[going]
        keep = np.zeros((len(games), self.nodes), np.bool_)
        keep[np.arange(len(games)), children] = True
        for node in range(2, self.nodes):  # a parent always comes before its children
            used = node < self.count[games]
            keep[:, node] |= keep[np.arange(len(games)), self.parent[games, node]] & used
        fits = keep.sum(axis=1) + self.simulations <= self.nodes  # else the tree starts anew
        games, keep = games[fits], keep[fits]
        if not len(games):
            return
        self._compact(games, keep)
        self.kept[games] = True

    def _compact(self, games: Ints, keep: Bools) -> None:
        """Move each game's kept nodes to the front of its rows, in order (the first its root)."""
        renamed = np.where(keep, np.cumsum(keep, axis=1) - 1, -1)
        rows, old = np.nonzero(keep)
        game, new = games[rows], renamed[rows, old]
        self.store.copy_games(self.store, game * self.nodes + old, game * self.nodes + new)
        for array in (self.priors, self.legal, self.child_visits, self.child_totals, self.to_move,
                      self.terminal, self.outcome, self.action):  # fmt: skip
            array[game, new] = array[game, old]
        children = self.children[game, old]
        lookup = renamed[rows]
        self.children[game, new] = np.where(
            children >= 0, np.take_along_axis(lookup, np.maximum(children, 0), 1), -1
        )
        self.parent[game, new] = renamed[rows, self.parent[game, old]]
        self.count[games] = keep.sum(axis=1)

    # -- the roots ----------------------------------------------------------------------------
    def _plant(
        self,
        positions: Positions,
        playing: Bools,
        evaluate: Evaluator,
        settings: SearchSettings,
        rng: np.random.Generator,
    ) -> None:
        """Make each playing game's position its root; empty the trees not kept from the last
        move and value their roots by the network."""
        games = np.flatnonzero(playing)
        fresh = games[~self.kept[games]]
        # only the root's rows are emptied: _expand sets the rows of each node it makes
        self.child_visits[fresh, 0], self.child_totals[fresh, 0] = 0, 0
        self.children[fresh, 0], self.terminal[fresh, 0], self.count[fresh] = -1, False, 1
        self.store.copy_games(positions.batch, games, games * self.nodes)
        self.legal[games, 0] = positions.masks[games].astype(np.bool_)
        self.to_move[games, 0] = positions.to_move[games]
        if len(fresh):  # a kept root has its priors from when it was a leaf
            priors, _ = evaluate(positions.planes(fresh), self.legal[fresh, 0])
            self.priors[fresh, 0] = priors
        self.halvings = [None] * self.games
        self.kept[:] = False
        if settings.noise:
            self._add_noise(games, settings, rng)
        for game in games.tolist() if settings.gumbel else ():
            view = self.views[game] = _RootView(self, game)
            halving = SequentialHalving(
                view, settings.gumbel, settings.simulations, rng, settings.gumbel_scale
            )
            self.halvings[game] = halving

    def _add_noise(self, games: Ints, settings: SearchSettings, rng: np.random.Generator) -> None:
        """Mix Dirichlet noise over each root's legal actions into its priors (the noise drawn
        as numpy's ``dirichlet`` draws it: Gamma draws, each root's scaled to sum to 1)."""
        legal = self.legal[games, 0]
        draws = np.where(legal, rng.standard_gamma(settings.alpha, legal.shape), 0.0)
        noise = draws / draws.sum(axis=1, keepdims=True)
        mixed = (1 - settings.noise) * self.priors[games, 0] + settings.noise * noise
        self.priors[games, 0] = np.where(legal, mixed, self.priors[games, 0])

    def _roots(self, games: Ints) -> SearchedRoots:
        visits, totals = self.child_visits[:, 0].copy(), self.child_totals[:, 0].copy()
        counted = visits.sum(axis=1)
        values = np.divide(totals.sum(axis=1), counted, out=np.zeros(self.games), where=counted > 0)
        chosen = np.full(self.games, -1, np.int64)
        for game in games.tolist():
            halving, view = self.halvings[game], self.views[game]
            if halving is not None and view is not None:
                chosen[game] = view.actions[halving.best(view)]
        return SearchedRoots(self.priors[:, 0].copy(), visits, totals, values.astype(np.float32), chosen)

    # -- a simulation -----------------------------------------------------------------------------
    def _simulate(self, games: Ints, evaluate: Evaluator, exploration: float) -> None:
        """Descend every tree to a leaf, expand the new leaves in one step and one network call,
        and back the values up."""
        nodes, actions = self._descend(games, exploration)
        new = self.children[games, nodes, actions] < 0
        expanding, revisited = games[new], games[~new]
        leaf_values = np.zeros(self.games)
        leaf_seats = np.zeros(self.games, np.int64)
        leaf_nodes = np.zeros(self.games, np.int64)
        leaf_nodes[revisited] = self.children[revisited, nodes[~new], actions[~new]]
        leaf_values[revisited] = self.outcome[revisited, leaf_nodes[revisited]]
        if len(expanding):
            leaf_nodes[expanding] = self.count[expanding]
            self._expand(expanding, nodes[new], actions[new], evaluate, leaf_values, leaf_seats)
        self._backup(games, leaf_nodes[games], leaf_values[games], leaf_seats[games])

    def _descend(self, games: Ints, exploration: float) -> tuple[Ints, Ints]:
        """Each game's last node on its way down and the action taken there: the action leads to
        a node not yet made, or to a finished game."""
        nodes = np.zeros(len(games), np.int64)
        actions = self._root_actions(games, exploration)
        going = np.arange(len(games))
        while len(going):
            child = self.children[games[going], nodes[going], actions[going]]
            going = going[(child >= 0) & ~self.terminal[games[going], np.maximum(child, 0)]]
            if not len(going):
                break
            nodes[going] = self.children[games[going], nodes[going], actions[going]]
            actions[going] = self._puct(games[going], nodes[going], exploration)
        return nodes, actions

    def _root_actions(self, games: Ints, exploration: float) -> Ints:
        actions = self._puct(games, np.zeros(len(games), np.int64), exploration)
        for k, game in enumerate(games.tolist()):
            halving, view = self.halvings[game], self.views[game]
            if halving is not None and view is not None:
                actions[k] = view.actions[halving.next(view)]
        return actions

    def _puct(self, games: Ints, nodes: Ints, exploration: float) -> Ints:
        """The legal action with the best PUCT score at each node (as ``Node.select``)."""
        rows = games * self.nodes + nodes  # the nodes' rows of the arrays by node and action
        visits = self.child_visits.reshape(-1, self.actions).take(rows, axis=0)
        means = self.child_totals.reshape(-1, self.actions).take(rows, axis=0)
        scores = self.priors.reshape(-1, self.actions).take(rows, axis=0)
        scores *= exploration * np.sqrt(np.maximum(1.0, visits.sum(axis=1, keepdims=True)))
        visits += 1.0
        scores /= visits
        means /= np.maximum(visits - 1.0, 1.0)  # 0 where unvisited: their totals are 0
        scores += means
        scores[~self.legal.reshape(-1, self.actions).take(rows, axis=0)] = -np.inf
        best: Ints = np.argmax(scores, axis=1).astype(np.int64)
        return best

    def _expand(
        self,
        games: Ints,
        parents: Ints,
        actions: Ints,
        evaluate: Evaluator,
        leaf_values: npt.NDArray[np.float64],
        leaf_seats: Ints,
    ) -> None:
        """Play ``actions`` from the ``parents`` of ``games`` into a new node of each, value the
        unfinished ones in one network call, and give each its value and seat."""
        leaves, nodes = self.leaves, self.count[games]
        self.count[games] += 1
        leaves.batch.copy_games(self.store, games * self.nodes + parents, games)
        played = np.zeros(self.games, np.int64)
        played[games] = actions
        leaves.step(played)
        self.store.copy_games(leaves.batch, games, games * self.nodes + nodes)
        self.children[games, parents, actions] = nodes
        self.parent[games, nodes], self.action[games, nodes] = parents, actions
        self.children[games, nodes], self.child_visits[games, nodes], self.child_totals[games, nodes] = (
            -1,
            0,
            0,
        )
        over = leaves.terminated[games].astype(np.bool_)
        self.terminal[games, nodes] = over
        self.outcome[games, nodes] = leaves.returns[games, 0]
        self.to_move[games, nodes] = leaves.to_move[games]
        self.legal[games, nodes] = leaves.masks[games].astype(np.bool_)
        leaf_values[games[over]] = leaves.returns[games[over], 0]
        going, going_nodes = games[~over], nodes[~over]
        if len(going):
            priors, values = evaluate(leaves.planes(going), self.legal[going, going_nodes])
            self.priors[going, going_nodes] = priors
            leaf_values[going], leaf_seats[going] = values, leaves.to_move[going]

    def _backup(self, games: Ints, nodes: Ints, values: npt.NDArray[np.float64], seats: Ints) -> None:
        """Add each game's leaf value (for ``seats``) to the moves on its way up from ``nodes``."""
        going = np.arange(len(games))
        while len(going):
            game, node = games[going], nodes[going]
            parent, action = self.parent[game, node], self.action[game, node]
            sign = np.where(self.to_move[game, parent] == seats[going], 1.0, -1.0)
            self.child_visits[game, parent, action] += 1
            self.child_totals[game, parent, action] += sign * values[going]
            nodes[going] = parent
            going = going[parent > 0]
