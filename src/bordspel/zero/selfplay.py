"""Self-play games for training (``bordspel.zero.train``), two ways that write the same records:

- :func:`engine_self_play`, the reference: the games on the Python engine, every move a search
  of :func:`bordspel.zero.search.batched_search` (a tree of ``Node`` objects a game);
- :func:`vector_self_play`: the games in a batch of ``bordspel.rl.vector`` (a game's compiled
  kernel where it copies its games, as Quarto's does), every move a search of
  :class:`bordspel.zero.forest.Forest` (NumPy arrays over all games).

In both, a move is drawn by the root's visit shares for the first ``temperature_plies`` searched
plies and is the most visited after, and the policy target is the visit shares. With ``gumbel``
the root has Gumbel noise instead of Dirichlet noise, the move is the one Gumbel sequential
halving chooses, and the policy target is :func:`~bordspel.zero.search.improved_policy`'s. A
seat whose search values its position below ``-resign`` resigns (0: never).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import BordspelError, State, game_part, new_game
from bordspel.rl import draws_start
from bordspel.rl.vector import VECTOR_PART, PythonBatch
from bordspel.zero import DRAWN
from bordspel.zero.forest import (
    BatchMaker,
    CopyingBatch,
    Forest,
    Positions,
    observation_shape,
    start_positions,
)
from bordspel.zero.replay import Record
from bordspel.zero.search import Encoder, Evaluator, Node, SearchSettings, batched_search, improved_policy

__all__ = [
    "PlaySettings",
    "PlayedGame",
    "Starts",
    "batch_maker",
    "engine_self_play",
    "opened",
    "vector_self_play",
]


@dataclass(frozen=True)
class PlaySettings:
    """How self-play searches and chooses its moves (see the module docstring)."""

    simulations: int = 32
    noise: float = 0.25
    alpha: float = 0.3
    temperature_plies: int = 4
    gumbel: int = 0
    resign: float = 0.0

    def search(self) -> SearchSettings:
        """The search's settings: Dirichlet noise, or with ``gumbel`` Gumbel noise instead."""
        noise = 0.0 if self.gumbel else self.noise
        return SearchSettings(self.simulations, noise=noise, alpha=self.alpha, gumbel=self.gumbel)


@dataclass
class PlayedGame:
    """A finished self-play game: its searched positions and every seat's result."""

    records: list[Record]
    returns: tuple[float, ...]


def choose(
    shares: npt.NDArray[np.float32], ply: int, settings: PlaySettings, rng: np.random.Generator
) -> int:
    """The index of the move to play: drawn by ``shares`` early on, else the most visited."""
    if ply < settings.temperature_plies:
        return int(rng.choice(len(shares), p=shares / shares.sum()))
    return int(np.argmax(shares))


def resigned(value: float, mover: int, settings: PlaySettings) -> tuple[float, ...] | None:
    """The result when the seat ``mover`` resigns at a search value of ``value``, else None."""
    if settings.resign and value < -settings.resign:
        return tuple(-1.0 if seat == mover else 1.0 for seat in range(2))
    return None


@dataclass(frozen=True)
class Starts:
    """Where a run's games start: from ``first``, or, where the run's ``given`` options draw the
    start from a seed (Santorini's ``gods=random``, see ``bordspel.rl.draws_start``), from a
    start drawn anew for each game. A run draws an option only as ``random`` (``DRAWN``): its
    network then plays any value of it."""

    first: State
    given: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key in self.drawn_keys:
            if str(self.given.get(key, "")).strip().lower() != DRAWN:
                raise BordspelError(
                    f"a training run draws {key} for every game only with {key}={DRAWN}, "
                    f"not {key}={self.given.get(key)}: give {DRAWN}, or name the values"
                )

    @functools.cached_property
    def drawn_keys(self) -> frozenset[str]:
        """The options each game draws: those that differ between starts drawn from a few seeds."""
        if not draws_start(self.first.name, self.given):
            return frozenset()
        seen = [new_game(self.first.name, **self.given, seed=seed).options() for seed in range(8)]
        return frozenset(key for key in seen[0] if any(other.get(key) != seen[0][key] for other in seen))

    @property
    def options(self) -> dict[str, Any]:
        """The run's options: the first start's, with ``random`` for the drawn ones."""
        return {**self.first.options(), **dict.fromkeys(self.drawn_keys, DRAWN)}

    @property
    def drawn(self) -> bool:
        """Whether each game draws its start."""
        return bool(self.drawn_keys)

    def draw(self, rng: random.Random) -> State:
        """A game's start: drawn from a seed of ``rng``, or the first."""
        if not self.drawn:
            return self.first
        return new_game(self.first.name, **self.given, seed=rng.getrandbits(32))


def opened(starts: Starts, plies: int, rng: random.Random) -> State:
    """The position after up to ``plies`` random moves from a start of ``starts``."""
    state = starts.draw(rng)
    for _ in range(plies):
        if state.is_over():
            break
        state = state.apply(state.random_move(rng))
    return state


# -- the engine's self-play (the reference) ---------------------------------------------------
def engine_self_play(
    starts: list[State],
    encoder: Encoder,
    evaluate: Evaluator,
    settings: PlaySettings,
    rng: np.random.Generator,
) -> list[PlayedGame]:
    """Play a game from each of ``starts`` (unfinished positions) to its end, all at once."""
    search = settings.search()
    roots = [Node(start, encoder) for start in starts]
    records: list[list[Record]] = [[] for _ in roots]
    results: list[tuple[float, ...] | None] = [root.outcome for root in roots]
    while playing := [i for i, result in enumerate(results) if result is None]:
        batched_search([roots[i] for i in playing], encoder, evaluate, search, rng)
        for i in playing:
            root = roots[i]
            shares = (
                improved_policy(root.priors, root.visits, root.totals) if settings.gumbel else root.policy()
            )
            records[i].append(Record(root.state, root.moves, shares, root.value()))
            results[i] = resigned(root.value(), root.state.to_move, settings)
            index = root.best() if settings.gumbel else choose(shares, len(records[i]) - 1, settings, rng)
            roots[i] = root.child(index, encoder)
            results[i] = results[i] or roots[i].outcome
    return [PlayedGame(game, result) for game, result in zip(records, results) if result is not None]


# -- self-play on a batch of games ------------------------------------------------------------------
def batch_maker(start: State, compiled_only: bool = False) -> BatchMaker | None:
    """Batches of self-play games from ``start``: the game's compiled batch where it copies its
    games, else :class:`PythonBatch` (None with ``compiled_only``)."""
    factory = game_part(start.name, VECTOR_PART)
    probe = None if factory is None else factory(start, 1, -1, None)
    if factory is not None and hasattr(probe, "copy_games"):
        return lambda n: _seeded(factory(start, n, -1, None), n)
    if compiled_only:
        return None
    return lambda n: _seeded(PythonBatch(start, n, -1, None, start.options()), n)


def _seeded(batch: Any, count: int) -> CopyingBatch:
    """``batch`` with its games' random streams seeded (a game that ends starts anew from them)."""
    batch.seed(list(range(count)))
    return batch  # type: ignore[no-any-return]


class _Games:
    """The games under way: their actions so far, searched plies and results."""

    def __init__(self, count: int, openings: list[int]) -> None:
        self.actions: list[list[int]] = [[] for _ in range(count)]
        self.searched: list[list[tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float32], float]]] = [
            [] for _ in range(count)
        ]
        self.openings = np.array(openings, np.int64)
        self.plies = np.zeros(count, np.int64)
        """Each game's moves so far."""
        self.searches = np.zeros(count, np.int64)
        """Each game's searched moves so far."""
        self.results: list[tuple[float, ...] | None] = [None] * count

    def playing(self) -> npt.NDArray[np.bool_]:
        return np.array([result is None for result in self.results], np.bool_)


def vector_self_play(
    start: State,
    make: BatchMaker,
    openings: list[int],
    encoder: Encoder,
    evaluate: Evaluator,
    settings: PlaySettings,
    rng: np.random.Generator,
) -> list[PlayedGame]:
    """Play ``len(openings)`` games from ``start`` to their ends, all at once in batches that
    ``make`` gives; game ``i`` opens with ``openings[i]`` random moves (not searched, not
    recorded)."""
    count = len(openings)
    positions = start_positions(make, count, encoder, start.num_players)
    forest = Forest(
        make, count, settings.simulations, observation_shape(encoder), encoder.actions, start.num_players
    )
    games = _Games(count, openings)
    while (playing := games.playing()).any():
        searching = playing & (games.plies >= games.openings)
        actions = np.zeros(count, np.int64)
        if searching.any():
            roots = forest.search(positions, searching, evaluate, settings.search(), rng)
            actions[searching] = _searched_moves(games, searching, roots, positions, settings, rng)
        opening = playing & ~searching
        actions[opening] = _drawn(positions.masks[opening].astype(np.float32), rng)
        positions.step(actions)
        forest.advance(np.flatnonzero(searching), actions[searching])
        _note_moves(games, playing, actions, positions)
    return [_played(start, encoder, games, game) for game in range(count)]


def _drawn(weights: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """An action of each row of ``weights`` drawn in proportion to its weight (the largest
    logarithm of a weight plus Gumbel noise)."""
    with np.errstate(divide="ignore"):
        noisy = np.log(weights) + rng.gumbel(size=weights.shape)
    drawn: npt.NDArray[np.int64] = np.argmax(noisy, axis=1)
    return drawn


def _searched_moves(
    games: _Games, searching: npt.NDArray[np.bool_], roots: Any, positions: Positions,
    settings: PlaySettings, rng: np.random.Generator,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """Record the searched position of each game in ``searching``, resign where its seat does,
    and choose their moves: drawn by the visits for a game's first ``temperature_plies``
    searches, else the most visited (with ``gumbel``, sequential halving's choice)."""
    visits = np.where(positions.masks.astype(np.bool_), roots.visits, np.float32(0))
    counted = visits.sum(axis=1, keepdims=True)
    shares = np.divide(visits, counted, out=np.zeros_like(visits), where=counted > 0)
    for game in np.flatnonzero(searching).tolist():
        legal = np.flatnonzero(positions.masks[game])
        played = shares[game, legal]
        if settings.gumbel:
            played = improved_policy(
                roots.priors[game, legal], visits[game, legal], roots.totals[game, legal]
            )
        value = float(roots.values[game])
        games.searched[game].append((int(games.plies[game]), legal, played, value))
        games.results[game] = resigned(value, int(positions.to_move[game]), settings)
    games.searches[searching] += 1
    if settings.gumbel:
        chosen: npt.NDArray[np.int64] = roots.chosen[searching]
        return chosen
    moves: npt.NDArray[np.int64] = np.argmax(visits[searching], axis=1)
    early = games.searches[searching] <= settings.temperature_plies
    moves[early] = _drawn(visits[searching][early], rng)
    return moves


def _note_moves(
    games: _Games, playing: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64], positions: Positions
) -> None:
    """Add each playing game's move and the result of those it ended."""
    games.plies[playing] += 1
    for game in np.flatnonzero(playing).tolist():
        games.actions[game].append(int(actions[game]))
        if games.results[game] is None and positions.terminated[game]:
            games.results[game] = tuple(float(x) for x in positions.returns[game])


def _played(start: State, encoder: Encoder, games: _Games, game: int) -> PlayedGame:
    """Game ``game``'s records, its positions rebuilt on the engine from its actions."""
    codec, state = encoder.codec, start
    searched = {ply: (legal, shares, value) for ply, legal, shares, value in games.searched[game]}
    records = []
    for ply, action in enumerate(games.actions[game]):
        if ply in searched:
            legal, shares, value = searched[ply]
            records.append(Record(state, codec.decode_many(state, legal.tolist()), shares, value))
        state = state.apply_unchecked(codec.decode(state, action))
    result = games.results[game]
    assert result is not None
    return PlayedGame(records, result)
