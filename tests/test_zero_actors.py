"""Self-play actors apart from the learner (``bordspel.zero.actors``), the learning-rate schedule
and evaluation gating of ``bordspel.zero.train``. All need PyTorch, so all are slow; the Ray case
needs the ``ray`` extra and starts a local cluster of two nodes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bordspel.core import new_game

pytestmark = pytest.mark.slow


def tiny_trainer(out: Path, **given: Any) -> Any:
    from bordspel.zero.train import Settings, Trainer, pick_device

    settings = Settings(
        games=3, simulations=4, width=8, blocks=1, batch=16, opponents=(), buffer=500, **given
    )
    return Trainer(new_game("hermit", size=3), out, settings, pick_device("cpu"))


def test_the_learning_rate_follows_its_schedule() -> None:
    pytest.importorskip("torch")
    from bordspel.zero.train import Settings, scheduled_rate

    def rates(schedule: str) -> list[float]:
        settings = Settings(learning_rate=1.0, schedule=schedule, schedule_rounds=10)
        return [round(scheduled_rate(settings, r), 6) for r in (0, 5, 10, 20, 25)]

    assert rates("constant") == [1.0] * 5
    assert rates("cosine") == [1.0, 0.55, 0.1, 0.1, 0.1]
    assert rates("step") == [1.0, 1.0, 0.1, 0.01, 0.01]


def test_a_round_trains_at_the_scheduled_rate(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bordspel.progress import ProgressLine

    trainer = tiny_trainer(tmp_path, learning_rate=0.01, schedule="step", schedule_rounds=1)
    trainer.run(None, 2, ProgressLine())
    assert [point["learning_rate"] for point in trainer.progress.history] == [0.01, pytest.approx(0.001)]


def same_weights(first: Any, second: Any) -> bool:
    import torch

    one, two = first.state_dict(), second.state_dict()
    return all(torch.equal(one[key], two[key]) for key in one)


@pytest.mark.parametrize(("margin", "published"), [(0.0, True), (1.01, False)])
def test_gating_publishes_the_trained_network_only_when_it_wins_the_duel(
    tmp_path: Path, margin: float, published: bool
) -> None:
    pytest.importorskip("torch")
    from bordspel.progress import ProgressLine
    from bordspel.zero.network import ZeroNet

    trainer = tiny_trainer(tmp_path, gate_games=4, gate_margin=margin, match_simulations=4)
    first = ZeroNet(trainer.net.shape)
    first.load_state_dict(trainer.published.state_dict())
    trainer.run(None, 1, ProgressLine())
    point = trainer.progress.history[-1]
    assert 0 <= point["gate"] <= 1 and point["published"] is published
    assert same_weights(trainer.published, trainer.net) is published
    assert same_weights(trainer.published, first) is not published
    resumed = tiny_trainer(tmp_path, gate_games=4, gate_margin=margin, match_simulations=4)
    assert same_weights(resumed.published, trainer.published) and same_weights(resumed.net, trainer.net)


def test_without_gating_every_round_publishes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bordspel.progress import ProgressLine

    trainer = tiny_trainer(tmp_path)
    trainer.run(None, 1, ProgressLine())
    assert same_weights(trainer.published, trainer.net) and "gate" not in trainer.progress.history[-1]


def test_a_job_carries_the_published_weights_and_an_actor_plays_its_games(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bordspel.zero.actors import play_job

    trainer = tiny_trainer(tmp_path)
    job = trainer.job()
    assert len(job.openings) == 3 and trainer.progress.jobs == 1 and trainer.job().seed != job.seed
    published = trainer.published.state_dict()
    assert all((job.weights[key] == published[key]).all() for key in published)
    played = play_job(job)
    assert len(played) == 3 and all(game.records for game in played)


def test_bordspel_train_with_actor_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bordspel.cli import main

    arguments = ["train", "hermit", "-o", "size=3", "--out", str(tmp_path), "--rounds", "3", "--games", "2"]
    tiny = ["--simulations", "4", "--width", "8", "--blocks", "1", "--match-games", "2"]
    gating = ["--gate-games", "2", "--schedule", "cosine", "--actors", "2"]
    assert main([*arguments, *tiny, *gating]) == 0
    out = capsys.readouterr().out
    assert "self-play by 2 actor processes" in out and "round 3 · " in out and "gate " in out
    assert (tmp_path / "network.onnx").exists()


# The learner runs in a process of its own, as `bordspel train --ray` does: a process that ran a
# local Ray before (another test) keeps that runtime's authentication in its gRPC servers, and the
# cluster's GCS, refused by them, takes the actors for unreferenced and cancels them.
LEARNER = """
import json, sys
from pathlib import Path
import ray
from bordspel.progress import ProgressLine
from bordspel.zero.actors import RayActors
from test_zero_actors import tiny_trainer

trainer = tiny_trainer(Path(sys.argv[2]))
actors = RayActors(2, sys.argv[1])
try:
    nodes = sum(node["Alive"] for node in ray.nodes())
    trainer.run(None, 3, ProgressLine(), actors)
finally:
    actors.close()
progress = trainer.progress
print(json.dumps({"nodes": nodes, "rounds": progress.rounds, "games": progress.games, "jobs": progress.jobs}))
"""


def test_ray_actors_on_two_nodes_feed_the_learner(
    tmp_path: Path, two_node_cluster: tuple[str, dict[str, str]]
) -> None:
    pytest.importorskip("torch")
    address, env = two_node_cluster
    env = {**env, "PYTHONPATH": os.pathsep.join([env["PYTHONPATH"], str(Path(__file__).parent)])}
    learner = [sys.executable, "-c", LEARNER, address, str(tmp_path)]
    done = subprocess.run(learner, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["nodes"] == 2 and result["rounds"] == 3
    assert result["games"] >= 9 and result["jobs"] >= 4


def test_ray_actors_give_the_next_job_to_the_actor_that_finished() -> None:
    """Found in review (2026-11-29): jobs went round in turn, so one could queue behind a busy
    actor while the actor that had just finished sat idle."""
    pytest.importorskip("torch")
    from concurrent.futures import Future
    from types import SimpleNamespace

    from bordspel.zero.actors import RayActors

    given: list[tuple[int, Future[Any]]] = []

    def actor(index: int) -> Any:
        def remote(job: Any) -> Any:
            future: Future[Any] = Future()
            given.append((index, future))
            return SimpleNamespace(future=lambda: future)

        return SimpleNamespace(play=SimpleNamespace(remote=remote))

    actors = object.__new__(RayActors)
    actors.count, actors.actors, actors.running = 2, [actor(0), actor(1)], []
    actors.submit(None)  # type: ignore[arg-type]
    actors.submit(None)  # type: ignore[arg-type]
    given[1][1].set_result([])  # the second actor finishes first
    actors.submit(None)  # type: ignore[arg-type]
    assert [index for index, _ in given] == [0, 1, 1]
