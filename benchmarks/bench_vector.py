"""Speed of the batched environments (``bordspel.rl.vector``) against Gymnasium's ``sync``
vector of the single environments, in the same run, on one core.

A step is every game's agent move (a uniformly random legal action, chosen in NumPy from the
mask) and the random opponent's reply, observations and masks included; the rates count the
games' steps (N per call) per second of this process's processor time (the machine is shared:
its wall clock counts other jobs' time too, shown in the last column). "env only" leaves the
NumPy choice out.

Run:  python benchmarks/bench_vector.py          (the figures in docs/results.md; about 2 minutes)
      python benchmarks/bench_vector.py --smoke  (a few seconds: checks that it runs)
      python benchmarks/bench_vector.py --profile "Santorini 2p with random gods" --envs 64 --seconds 10
                                                 (where one case's vector env spends its time)
      python benchmarks/bench_vector.py --case "Santorini 2p with random gods"   (one case only)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

import bordspel.rl.gymnasium  # noqa: F401 (registers the ids)
from bordspel._native import backend


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    options: dict[str, Any]
    target: int
    """The issue's target in steps/s (0: none of its own)."""


CASES = [
    Case("Quarto", "quarto", {}, 1_000_000),
    Case("Quarto advanced", "quarto", {"advanced": True}, 0),
    Case("Hermit 6x6", "hermit", {"size": 6}, 1_000_000),
    Case("Hermit 5x5", "hermit", {"size": 5}, 0),
    Case("Santorini 2p", "santorini", {}, 700_000),
    Case("Santorini 3p", "santorini", {"players": 3}, 0),
    Case("Santorini 2p with random gods", "santorini", {"gods": "random"}, 50_000),
    Case("Santorini gods, click actions", "santorini", {"gods": "random", "actions": "clicks"}, 0),
]
RATIO = 100
"""The issue's target for every game: this many times the sync vector's rate."""


def random_legal(masks: np.ndarray, rng: np.random.Generator, tries: int = 4) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``: ``tries`` rounds of drawing any
    action and keeping it when legal, then a draw among the legal ones of the rows left (a row
    without any, a game that is over, gets 0: the next step starts it anew)."""
    rows = np.arange(len(masks))
    actions = np.zeros(len(masks), np.int64)
    left = rows
    for _ in range(tries):
        drawn = rng.integers(0, masks.shape[1], len(left))
        legal = masks[left, drawn] != 0
        actions[left[legal]] = drawn[legal]
        left = left[~legal]
        if not len(left):
            return actions
    legal = masks[left].view(np.bool_)
    counts = np.count_nonzero(legal, axis=1)
    flat = np.flatnonzero(legal)
    picks = np.cumsum(counts) - counts + (rng.random(len(left)) * counts).astype(np.int64)
    chosen = (
        flat[np.minimum(picks, max(len(flat) - 1, 0))] - np.arange(len(left)) * masks.shape[1]
        if len(flat)
        else 0
    )
    actions[left] = np.where(counts > 0, chosen, 0)
    return actions


def measure(env: Any, seconds: float) -> tuple[float, float, float]:
    """(steps per processor second, the same for ``step`` alone, steps per wall-clock second)
    over at least ``seconds`` of processor time after two warm-up steps."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(2):
        _, _, _, _, info = env.step(random_legal(info["action_mask"], rng))
    calls, in_env, started, wall = 0, 0.0, time.process_time(), time.perf_counter()
    while calls == 0 or time.process_time() - started < seconds:
        actions = random_legal(info["action_mask"], rng)
        before = time.process_time()
        _, _, _, _, info = env.step(actions)
        in_env += time.process_time() - before
        calls += 1
    steps = calls * env.num_envs
    return steps / (time.process_time() - started), steps / in_env, steps / (time.perf_counter() - wall)


def make_vector(case: Case, envs: int) -> Any:
    """The batched environment of ``case`` with ``envs`` games."""
    env_id = f"bordspel/{case.game.capitalize()}-v0"
    return gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode="vector_entry_point", **case.options)


def find_case(name: str) -> Case:
    """The case called ``name``; SystemExit naming the cases when there is none."""
    case = next((case for case in CASES if case.name == name), None)
    if case is None:
        raise SystemExit(f"no case {name!r}; the cases are: {', '.join(c.name for c in CASES)}")
    return case


def profile(name: str, envs: int, seconds: float) -> None:
    """Measure the vector env of the case called ``name`` under cProfile and print the functions
    that took the most time."""
    case = find_case(name)
    vector = make_vector(case, envs)
    profiler = cProfile.Profile()
    rate, _, _ = profiler.runcall(measure, vector, seconds)
    print(f"{case.name}, N = {envs}: {rate:,.0f} steps per processor second under the profiler")
    for order in ("cumulative", "tottime"):
        pstats.Stats(profiler).sort_stats(order).print_stats(12)


def run(case: Case, envs: int, sync_envs: int, seconds: float) -> tuple[float, float]:
    """The vector env's and the sync vector's rates for ``case``, printed as they come."""
    env_id = f"bordspel/{case.game.capitalize()}-v0"
    vector = make_vector(case, envs)
    kind = type(vector.batch).__module__.rsplit(".", 1)[-1]
    rate, env_rate, wall_rate = measure(vector, seconds)
    sync = gymnasium.make_vec(env_id, num_envs=sync_envs, vectorization_mode="sync", **case.options)
    sync_rate, _, _ = measure(sync, seconds)
    rates = (
        f"{rate:>11,.0f} {env_rate:>11,.0f} {sync_rate:>9,.0f} {rate / sync_rate:>7,.0f}x {wall_rate:>11,.0f}"
    )
    print(f"{case.name:27} {rates}  ({kind})", flush=True)
    return rate, sync_rate


def one_core() -> str:
    """Pin this process to one core (where the system allows); which one."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--smoke", action="store_true", help="16 games, short runs: only checks that it works"
    )
    parser.add_argument("--envs", type=int, default=1024, help="games in the vector env (default 1024)")
    parser.add_argument(
        "--sync-envs", type=int, default=64, help="single envs in the sync vector (default 64)"
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="processor seconds per measurement (default 5)"
    )
    parser.add_argument(
        "--profile", metavar="CASE", help="profile one case's vector env (a name in the table)"
    )
    parser.add_argument("--case", metavar="CASE", help="measure only this case (a name in the table)")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.envs, args.seconds)
        return
    envs, sync_envs, seconds = (16, 4, 0.05) if args.smoke else (args.envs, args.sync_envs, args.seconds)
    load = os.getloadavg()[0]
    print(f"Python {platform.python_version()}, {backend()}, {one_core()}, load average {load:.1f}")
    print(f"N = {envs} (sync: {sync_envs}), {seconds} processor seconds a measurement; steps per second:")
    print(f"{'game':27} {'vector':>11} {'env only':>11} {'sync':>9} {'ratio':>8} {'wall clock':>11}")
    missed = []
    for case in [find_case(args.case)] if args.case else CASES:
        rate, sync_rate = run(case, envs, sync_envs, seconds)
        if rate < case.target or rate < RATIO * sync_rate:
            missed.append(case.name)
    if args.smoke:
        print("smoke run: too short to judge the targets")
    else:
        print("targets met" if not missed else f"targets missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
