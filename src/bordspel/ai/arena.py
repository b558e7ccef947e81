"""The arena: many seeded games between players, run by a backend, summed up in a table.

Each game is an independent task (``GameTask`` -> ``GameResult``, both plain data), so any
backend that maps a function over tasks can run them: in this process, in local worker
processes (the default), or elsewhere (a later backend can add a cluster without touching the
rest). Seats rotate from game to game, so every player starts equally often.

Deterministic players (alpha-beta with a depth limit) would replay the same game in every
round of a rotation, so the arena can open each round with a few random plies: every game of a
round starts from the same random opening, with the seats rotated (as engine testers pair games
on an opening book). The standings count distinct games, so a table built on repeats shows it.
"""

from __future__ import annotations

import math
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TextIO, TypeVar, cast

from bordspel.ai.players import close_player
from bordspel.ai.registry import make_player
from bordspel.ai.search import Limit
from bordspel.core import BordspelError, new_game
from bordspel.progress import ProgressLine
from bordspel.record import Game

__all__ = [
    "BACKENDS",
    "GameResult",
    "GameTask",
    "PlayerStats",
    "Standings",
    "play_game",
    "run_arena",
    "schedule",
]


@dataclass(frozen=True)
class GameTask:
    """One game for the arena to play: the game, its options, who sits where, and the seeds."""

    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    """The player specification in each seat."""
    seed: int
    opening: int = 0
    """Plies played at random before the players take over."""
    opening_seed: int = 0
    """The same for every game of a round, so each opening is played from every seat."""


@dataclass(frozen=True)
class GameResult:
    """One finished game of the arena: its task, the returns per seat, length, time and record."""

    task: GameTask
    returns: tuple[float, ...]
    plies: int
    seconds: float
    record: str
    moves: str
    """The moves in notation, separated by spaces."""
    move_seconds: tuple[tuple[float, ...], ...] = ()
    """The time each seat's player took for each of its moves (the random opening excluded)."""


def schedule(
    game: str, players: list[str], games: int, seed: int, options: dict[str, Any], opening: int = 0
) -> list[GameTask]:
    """The games to play: seat ``s`` of game ``i`` goes to player ``(s + i) mod len(players)``.

    A round is ``len(players)`` consecutive games; they share their random opening.
    """
    seats = new_game(game, **options).num_players
    frozen = tuple(sorted(options.items()))
    per_round = len(players)
    return [
        GameTask(
            i,
            game,
            frozen,
            tuple(players[(s + i) % per_round] for s in range(seats)),
            seed * 100_003 + i,
            opening,
            seed * 100_003 + i // per_round,
        )
        for i in range(games)
    ]


def play_game(task: GameTask) -> GameResult:
    """Play one game of the arena to its end (a top-level function, so workers can run it)."""
    started = time.perf_counter()
    state = new_game(task.game, **dict(task.options))
    players = [
        make_player(_spec(label), task.game, seed=task.seed * 7 + seat)
        for seat, label in enumerate(task.seats)
    ]
    tags = {f"Seat{seat + 1}": spec for seat, spec in enumerate(task.seats)}
    if task.opening:
        tags["Opening"] = f"{task.opening} random plies, seed {task.opening_seed}"
    record = Game(state, {**tags, "Round": str(task.index + 1), "Seed": str(task.seed)})
    play_opening(record, task.opening, random.Random(task.opening_seed))
    timings: list[list[float]] = [[] for _ in players]
    try:
        while not record.state.is_over():
            seat = record.state.to_move
            thinking = time.perf_counter()
            move = players[seat].step(record.state)
            timings[seat].append(time.perf_counter() - thinking)
            record.play(move)
    finally:
        for player in players:
            close_player(player)
    outcome = record.outcome()
    assert outcome is not None
    moves = " ".join(move.to_str() for move in record.moves)
    return GameResult(
        task,
        outcome.returns(),
        len(record.moves),
        time.perf_counter() - started,
        record.to_record(),
        moves,
        tuple(tuple(seat) for seat in timings),
    )


def play_opening(record: Game, plies: int, rng: random.Random) -> None:
    """Play up to ``plies`` random legal moves (fewer if the game ends first)."""
    for _ in range(plies):
        if record.state.is_over():
            return
        record.play(rng.choice(list(record.state.legal_moves())))


def _spec(label: str) -> str:
    """A seat's player specification (labels of repeated players end in ``#2``, ``#3``...)."""
    return label.partition("#")[0]


def labels(players: list[str]) -> list[str]:
    """Names that tell players apart, numbering a specification given more than once."""
    return [f"{p}#{players[:i].count(p) + 1}" if players.count(p) > 1 else p for i, p in enumerate(players)]


T = TypeVar("T")
R = TypeVar("R")


V_co = TypeVar("V_co", covariant=True)


class Shared(Protocol[V_co]):
    def get(self) -> V_co:
        """The value shared with the tasks."""


@dataclass(frozen=True)
class Inline(Generic[R]):
    """A value shared with tasks by going with each of them (pickled with the task)."""

    value: R

    def get(self) -> R:
        """The value."""
        return self.value


@dataclass(frozen=True)
class InObjectStore(Generic[R]):
    """A value put once in Ray's object store; a task that carries it reads it from there."""

    ref: Any

    def get(self) -> R:
        """The value (copied to the task's node once)."""
        import ray

        return cast(R, ray.get(self.ref))


class Backend(Protocol):
    def run(self, work: Callable[[T], R], tasks: list[T]) -> Generator[R, None, None]:
        """Results as the tasks (games) finish, in any order; closing it drops the tasks not done."""

    def share(self, value: R) -> Shared[R]:
        """``value`` made ready to go with many tasks (large data sent once where the backend can)."""


class SerialBackend:
    """Every game in this process, one after the other."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = 1

    def run(self, work: Callable[[T], R], tasks: list[T]) -> Generator[R, None, None]:
        for task in tasks:
            yield work(task)

    def share(self, value: R) -> Shared[R]:
        """The value itself."""
        return Inline(value)


class ProcessBackend:
    """Games in parallel worker processes on this machine (one per core by default)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def run(self, work: Callable[[T], R], tasks: list[T]) -> Generator[R, None, None]:
        pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_leave_interrupts_to_the_parent)
        try:
            futures = [pool.submit(work, task) for task in tasks]
            for future in as_completed(futures):
                yield future.result()
        finally:  # also on Ctrl-C: drop the games not started, wait for the running ones
            pool.shutdown(cancel_futures=True)

    def share(self, value: R) -> Shared[R]:
        """The value, pickled with each task."""
        return Inline(value)


def _leave_interrupts_to_the_parent() -> None:
    """Workers ignore Ctrl-C, so that only the parent stops the arena (with no tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RayBackend:
    """Games as Ray tasks: on a local Ray runtime, or on the cluster at ``address``.

    Needs the ``[ray]`` extra. Every game is still played by ``play_game`` with its own seed, so
    the results are those of the other backends.
    """

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BordspelError("the ray backend needs the ray extra: pip install 'bordspel[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False
                )
        self.workers = workers

    def run(self, work: Callable[[T], R], tasks: list[T]) -> Generator[R, None, None]:
        remote = self.ray.remote(work)
        pending = [remote.remote(task) for task in tasks]
        try:
            while pending:
                done, pending = self._wait(pending)
                yield self.ray.get(done[0])
        finally:  # a caller that stops early leaves no task running
            for ref in pending:
                self.ray.cancel(ref, force=True)

    def _wait(self, pending: list[Any]) -> tuple[list[Any], list[Any]]:
        """``ray.wait`` for one task, a second at a time. An exception that a signal handler raises
        inside it (Ray converts only KeyboardInterrupt and SystemExit, and waits on) comes out
        as a SystemError it caused: it is raised as it is, at once."""
        while True:
            try:
                done, pending = self.ray.wait(pending, num_returns=1, timeout=1.0)
            except SystemError as error:
                if error.__cause__ is None:
                    raise
                raise error.__cause__ from None
            if done:
                return done, pending

    def share(self, value: R) -> Shared[R]:
        """The value in the object store: each node fetches it once, whatever the tasks."""
        return InObjectStore(self.ray.put(value))


BACKENDS: dict[str, Callable[..., Backend]] = {
    "local": ProcessBackend,
    "serial": SerialBackend,
    "ray": RayBackend,
}


@dataclass
class PlayerStats:
    """One player's results in the arena."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: list[float] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)
    """The time of every move this player made."""
    clock_bound: bool = False
    """Whether the player stops on a clock (its moves then depend on the machine and its load)."""

    @property
    def games(self) -> int:
        """The number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def mean_seconds(self) -> float:
        """The mean time this player took a move."""
        return sum(self.move_seconds) / len(self.move_seconds) if self.move_seconds else 0.0

    @property
    def max_seconds(self) -> float:
        """The longest time this player took for one move."""
        return max(self.move_seconds, default=0.0)

    @property
    def score(self) -> float:
        """Points per game: 1 a win, 1/2 a draw."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """A 95% confidence interval of the score (Wilson's, with the games' own variance)."""
        n, p = self.games, self.score
        if not n:
            return 0.0, 1.0
        variance = sum((s - p) ** 2 for s in self.scores) / n
        z = 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        spread = z * math.sqrt(variance / n + z * z / (4 * n * n)) / (1 + z * z / n)
        low = 0.0 if p <= 0.0 else max(0.0, centre - spread)  # exact ends: no rounding into an Elo
        high = 1.0 if p >= 1.0 else min(1.0, centre + spread)
        return low, high


def elo(score: float) -> float:
    """The Elo difference that predicts ``score``: minus or plus infinity for 0 % and 100 %."""
    if score <= 0.0 or score >= 1.0:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def _signed(value: float) -> str:
    return f"{round(value):+d}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def elo_estimate(score: float, low: float, high: float) -> str:
    """The Elo difference for a score; for 100 % (0 %) only a bound, from the interval's end."""
    if score >= 1.0:
        return ">=" + _signed(elo(low))
    if score <= 0.0:
        return "<=" + _signed(elo(high))
    return _signed(elo(score))


@dataclass
class Standings:
    """The arena's results so far: per player, and the games, plies and distinct games."""

    stats: dict[str, PlayerStats]
    games: int = 0
    plies: int = 0
    distinct: set[str] = field(default_factory=set)
    """The move sequences played (repeats count once)."""

    @classmethod
    def empty(cls, players: Iterable[str], game: str | None = None) -> Standings:
        """No games yet; with ``game``, each player is checked for a clock (see ``clock_bound``)."""
        return cls(
            {
                name: PlayerStats(name, clock_bound=game is not None and _clock_bound(name, game))
                for name in players
            }
        )

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        self.games += 1
        self.plies += result.plies
        self.distinct.add(result.moves)
        for seat, spec in enumerate(result.task.seats):
            if seat < len(result.move_seconds):
                self.stats[spec].move_seconds.extend(result.move_seconds[seat])
        counted = set()
        for seat, spec in enumerate(result.task.seats):
            if spec in counted:  # a player in several seats (a team) counts once per game
                continue
            counted.add(spec)
            value = result.returns[seat]
            stats = self.stats[spec]
            stats.wins += value > 0
            stats.draws += value == 0
            stats.losses += value < 0
            stats.scores.append({1.0: 1.0, 0.0: 0.5}.get(value, 0.0))

    def table(self) -> str:
        """The standings as a text table: games, wins, draws, losses, score, interval and Elo."""
        width = max([28, *(len(stats.name) for stats in self.stats.values())])
        lines = [
            f"{'player':{width}} {'games':>5} {'win':>5} {'draw':>5} {'loss':>5} {'score':>7}  "
            f"{'95% interval':>16} {'Elo':>21} {'s/move':>7} {'max s':>6}"
        ]
        for stats in self.stats.values():
            low, high = stats.interval()
            rating = elo_estimate(stats.score, low, high)
            spread = f"[{_signed(elo(low))},{_signed(elo(high))}]" if stats.games else ""
            lines.append(
                f"{stats.name:{width}} {stats.games:5} {stats.wins:5} {stats.draws:5} {stats.losses:5} "
                f"{stats.score:7.1%}  [{low:6.1%}, {high:6.1%}] {rating:>6} {spread:14} "
                f"{stats.mean_seconds:7.3f} {stats.max_seconds:6.2f}{' (clock)' if stats.clock_bound else ''}"
            )
        return "\n".join(lines)

    def summary(self) -> str:
        """Games, distinct games and their length; a hint when games repeat."""
        line = (
            f"{self.games} games ({len(self.distinct)} distinct), "
            f"{self.plies / max(self.games, 1):.1f} moves a game"
        )
        if len(self.distinct) < self.games:
            line += "\nsome games repeat, so the interval overstates the evidence (vary them: --opening N)"
        clocked = [s.name for s in self.stats.values() if s.clock_bound]
        if clocked:
            line += (
                f"\nclock-bound players: {', '.join(clocked)} (they stop on a clock, so their moves depend"
                " on the machine and its load, and a rerun can give other results (depth=, nodes= or"
                " playouts= without time=, solver_time= or search_time= are reproducible))"
            )
        return line


def _clock_bound(label: str, game: str) -> bool:
    return clock_bound(make_player(_spec(label), game))


def clock_bound(player: object) -> bool:
    """Whether a player stops on a clock: a time limit, a search time, or a solver with a time
    share (players with only depth, node or playout limits have none: their moves repeat)."""
    limit = getattr(player, "limit", None)
    if isinstance(limit, Limit) and limit.time is not None:
        return True
    if getattr(player, "search_time", None) is not None:
        return True
    return getattr(player, "endgame", None) is not None and getattr(player, "solver_time", None) is not None


def progress_line(standings: Standings, total: int, started: float) -> str:
    done = standings.games
    width = 24
    filled = width * done // max(total, 1)
    parts = " ".join(
        f"{s.name.split(':')[0]} {s.wins}-{s.draws}-{s.losses}" for s in standings.stats.values()
    )
    bar = "#" * filled + "." * (width - filled)
    return f"[{bar}] {done}/{total} games {time.perf_counter() - started:5.0f}s  {parts}"


def run_arena(
    game: str,
    players: list[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    backend: Backend | None = None,
    records: Path | None = None,
    opening: int = 0,
    progress: TextIO | None = sys.stderr,
) -> Standings:
    """Play the games and return the standings; records go to ``records`` when given.

    ``opening``: random plies that start each round (see the module docstring).
    """
    if len(players) < 2:
        raise BordspelError("the arena needs at least two players")
    if games < 1:
        raise BordspelError(f"the arena plays at least one game: give -n 1 or more, not {games}")
    options = options or {}
    for spec in players:
        make_player(spec, game)  # refuse unknown players before any game starts
    names = labels(players)
    if opening < 0:
        raise BordspelError(f"the opening is a number of plies, 0 or more, not {opening}")
    tasks = schedule(game, names, games, seed, options, opening)
    standings = Standings.empty(names, game)
    started = time.perf_counter()
    line = ProgressLine(progress) if progress is not None else None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for result in (backend or ProcessBackend()).run(play_game, tasks):
        standings.add(result)
        if records is not None:
            (records / f"game-{result.task.index + 1:04d}.txt").write_text(result.record, encoding="utf-8")
        if line is not None:
            line.update(progress_line(standings, len(tasks), started))
    if line is not None:
        line.close()
    return standings
