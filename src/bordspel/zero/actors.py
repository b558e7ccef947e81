"""Self-play actors apart from the learner (``bordspel train GAME --actors N``, ``--ray ADDRESS``).

An actor plays a :class:`Job`: a round of self-play games with the weights the learner last
published. The learner (``bordspel.zero.train``) keeps every actor busy: when an actor's games
come back it stores them in its replay buffer, trains, and hands that actor its next job with
the weights it publishes then, so actors play while the learner trains.

Two kinds of actors, both behind :class:`Actors`: :class:`ProcessActors`, processes on this
machine (``concurrent.futures``), and :class:`RayActors`, Ray actors on a cluster (the ``ray``
extra; Ray places them on any node and ships jobs and games between machines, which the
standard library cannot). Both hand back :class:`concurrent.futures.Future` objects, so the
learner waits on either the same way.
"""

from __future__ import annotations

import random
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Protocol

import numpy as np
import torch

from bordspel.core import new_game
from bordspel.rl.codecs import codec_for
from bordspel.zero.network import NetworkShape, ZeroNet, torch_evaluator
from bordspel.zero.search import Encoder, Evaluator
from bordspel.zero.selfplay import (
    PlayedGame,
    PlaySettings,
    Starts,
    batch_maker,
    engine_self_play,
    opened,
    vector_self_play,
)

__all__ = ["Actors", "Job", "ProcessActors", "RayActors", "play_job", "self_play_games", "start_actors"]

Weights = dict[str, torch.Tensor]


@dataclass(frozen=True)
class Job:
    """A round of self-play games for an actor: the game, how to play, and the network's weights."""

    game: str
    options: dict[str, Any]
    shape: NetworkShape
    play: PlaySettings
    openings: tuple[int, ...]
    """Random plies each game opens with (one game an entry)."""
    seed: int
    vector: bool
    device: str
    weights: Weights


def self_play_games(
    starts: Starts,
    encoder: Encoder,
    evaluate: Evaluator,
    play: PlaySettings,
    openings: list[int],
    vector: bool,
    rngs: tuple[np.random.Generator, random.Random],
) -> list[PlayedGame]:
    """Games played at once, one an opening: on the game's compiled batch when ``vector`` and the
    game has one that copies its games, else on the engine."""
    make = batch_maker(starts.first, compiled_only=True) if vector and not starts.drawn else None
    if make is not None:
        return vector_self_play(starts.first, make, openings, encoder, evaluate, play, rngs[0])
    games = [opened(starts, plies, rngs[1]) for plies in openings]
    return engine_self_play(games, encoder, evaluate, play, rngs[0])


def play_job(job: Job) -> list[PlayedGame]:
    """Play ``job`` (in an actor's process): its games with its network."""
    torch.set_num_threads(1)
    start = new_game(job.game, **job.options)
    starts = Starts(start, job.options)
    device = torch.device(job.device)
    codec = codec_for(start.name, start)
    net = ZeroNet(job.shape, codec.action_parts(start))
    net.load_state_dict(job.weights)
    evaluate = torch_evaluator(net.to(device), device)
    rngs = (np.random.default_rng(job.seed), random.Random(job.seed))
    encoder = Encoder(codec, start)
    return self_play_games(starts, encoder, evaluate, job.play, list(job.openings), job.vector, rngs)


class Actors(Protocol):
    """Actors that play jobs: ``count`` of them, each job's games a future."""

    count: int

    def submit(self, job: Job) -> Future[list[PlayedGame]]:
        """Start ``job`` on a free actor (or queue it)."""
        ...

    def close(self) -> None:
        """Stop the actors."""
        ...


class ProcessActors:
    """``count`` actor processes on this machine (started afresh: no state forked from the learner)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool = ProcessPoolExecutor(count, mp_context=get_context("spawn"))

    def submit(self, job: Job) -> Future[list[PlayedGame]]:
        """Start ``job`` in a free process."""
        return self.pool.submit(play_job, job)

    def close(self) -> None:
        """Stop the processes: queued jobs are dropped, a job under way ends its games first."""
        self.pool.shutdown(wait=False, cancel_futures=True)


class _RayActor:
    """A Ray actor: a process of the cluster that plays jobs."""

    def play(self, job: Job) -> list[PlayedGame]:
        return play_job(job)


class RayActors:
    """``count`` Ray actors, one CPU each, on the cluster at ``address`` (``auto``: the one this
    machine belongs to; ``local``: a cluster started for this run alone)."""

    def __init__(self, count: int, address: str) -> None:
        import ray

        self.count = count
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True)
        remote: Any = ray.remote(num_cpus=1)(_RayActor)
        self.actors: list[Any] = [remote.remote() for _ in range(count)]
        self.running: list[tuple[Future[list[PlayedGame]], int]] = []
        """Each job's future and the index of the actor that plays it."""

    def submit(self, job: Job) -> Future[list[PlayedGame]]:
        """Give ``job`` to an actor with no job under way, else to the one with the fewest (an
        actor plays its jobs one after the other)."""
        self.running = [(future, actor) for future, actor in self.running if not future.done()]
        queued = [0] * self.count
        for _, actor in self.running:
            queued[actor] += 1
        chosen = queued.index(min(queued))
        future: Future[list[PlayedGame]] = self.actors[chosen].play.remote(job).future()
        self.running.append((future, chosen))
        return future

    def close(self) -> None:
        """Stop the actors and leave the cluster."""
        import ray

        for actor in self.actors:
            ray.kill(actor)
        ray.shutdown()


def start_actors(count: int, ray_address: str | None) -> Actors | None:
    """The run's actors: Ray actors with a cluster address, else ``count`` processes when
    ``count`` is 1 or more, else None (self-play in the learner's process)."""
    if ray_address is not None:
        return RayActors(max(1, count), ray_address)
    return ProcessActors(count) if count >= 1 else None
