"""How far the zero network gets when it learns Hermit's exact answers instead of self-play:
an upper bound for what self-play of the same network can reach in move accuracy.

It draws random positions as ``bordspel.zero.judge`` does (a random position of a random game,
distinct up to symmetry, none of the judged set's), each with at least ``--min-blocks`` covered
squares (the solver labels those in milliseconds; earlier ones take seconds), and labels them
with the exact solver: a won position's policy target is spread evenly over its winning moves,
its value target +1; a lost position's value target -1 (no policy target). Then the network of
``bordspel train`` (``--width`` channels, ``--blocks`` residual blocks, ``--policy-channels``
per square in its policy head) trains on them in 8 symmetric images each for ``--minutes``, and
every minute its move accuracy (its own likeliest move, no search) is measured on the shipped
judged set, all of it and split by covered squares, and on 1,000 of the won positions it trains
on (how well it fits what it learns).

Run:  python benchmarks/zero_upper_bound.py --positions 24000 --minutes 12   (needs the train extra)
      python benchmarks/zero_upper_bound.py --smoke
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import torch

from bordspel.core import State, canonical, new_game
from bordspel.games.hermit.engine import HermitState
from bordspel.progress import ProgressLine
from bordspel.rl.codecs import codec_for
from bordspel.zero import DATA, data_name
from bordspel.zero.judge import Judged, _random_position, judge, read_judged, verdict_of
from bordspel.zero.network import NetworkShape, ZeroNet, torch_evaluator
from bordspel.zero.replay import Record, symmetric_samples
from bordspel.zero.search import Encoder
from bordspel.zero.train import move_accuracy

EARLY = 5
"""Judged positions with fewer covered squares than this are reported apart ("early")."""


def covered(state: State) -> int:
    """The covered squares of a Hermit position."""
    assert isinstance(state, HermitState)
    return sum(mask.bit_count() for mask in state.masks)


def label(start: State, count: int, min_blocks: int, seed: int, held: set[State]) -> list[Judged]:
    """``count`` random positions with at least ``min_blocks`` covered squares, not in ``held``,
    with their winning moves (empty: lost for the seat to move)."""
    wins, rng, seen, found = verdict_of(start.name), random.Random(seed), set(held), []
    line = ProgressLine()
    while len(found) < count:
        state = _random_position(start, rng)
        key = canonical(state)
        if covered(state) < min_blocks or key in seen:
            continue
        seen.add(key)
        winning = judge(state, wins)
        if winning is not None:
            found.append(Judged(state, winning))
            if len(found) % 500 == 0:
                line.update(f"labelled {len(found)}/{count}")
    line.close()
    return found


def samples(labelled: list[Judged], encoder: Encoder) -> tuple[torch.Tensor, ...]:
    """Planes, masks, policy targets, value targets and policy weights, 8 images a position."""
    rng, rows = random.Random(0), []
    for judged in labelled:
        moves = judged.state.legal_moves()
        keeps = np.array([move.to_str() in judged.wins for move in moves], np.float32)
        shares = keeps / keeps.sum() if judged.wins else np.full(len(moves), 1 / len(moves), np.float32)
        value = 1.0 if judged.wins else -1.0
        record = Record(judged.state, moves, shares, value)
        for planes, actions, policy in symmetric_samples(record, encoder, 8, rng):
            dense = np.zeros(encoder.actions, np.float32)
            dense[actions] = policy
            rows.append((planes, encoder.mask(actions), dense, value))
    planes, masks, policies, values = (np.stack(column) for column in zip(*rows))
    weights = (values > 0).astype(np.float32)
    return tuple(torch.from_numpy(np.asarray(a)) for a in (planes, masks, policies, values, weights))


def parts(judged: list[Judged]) -> dict[str, list[Judged]]:
    """The judged positions: all, the early ones and the rest."""
    early = [j for j in judged if covered(j.state) < EARLY]
    late = [j for j in judged if covered(j.state) >= EARLY]
    return {
        "all": judged,
        f"under {EARLY} covered ({len(early)})": early,
        f"{EARLY}+ covered ({len(late)})": late,
    }


def accuracies(judged: list[Judged], seen: list[Judged], encoder: Encoder, net: ZeroNet) -> dict[str, float]:
    """Move accuracy on each part of the judged positions and on ``seen``, positions it trains on."""
    evaluate = torch_evaluator(net, torch.device("cpu"))
    named = {**parts(judged), f"{len(seen)} of its training positions": seen}
    return {name: move_accuracy(part, encoder, evaluate) for name, part in named.items()}


def train(data: tuple[torch.Tensor, ...], net: ZeroNet, minutes: float, report: Any) -> None:
    """Train ``net`` on ``data`` in batches of 256 for ``minutes``, calling ``report(step)`` each minute."""
    planes, masks, policies, values, weights = data
    optimiser = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    rng, began, step, due = np.random.default_rng(0), time.monotonic(), 0, 0.0
    while (elapsed := time.monotonic() - began) < minutes * 60:
        if elapsed >= due:
            report(step)
            due += 60
        net.train()
        index = torch.from_numpy(rng.integers(0, len(planes), 256))
        logits, predicted = net(planes[index])
        log_priors = torch.log_softmax(logits.masked_fill(~masks[index], -1e9), dim=1)
        weight = weights[index]
        policy_loss = (-(policies[index] * log_priors).sum(dim=1) * weight).sum() / weight.sum().clamp(min=1)
        loss = policy_loss + torch.nn.functional.mse_loss(predicted, values[index])
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
    report(step)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--positions", type=int, default=24_000)
    parser.add_argument("--min-blocks", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=12.0)
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument(
        "--policy-channels", type=int, default=4, help="the policy head's channels per square"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="40 positions, 3 seconds: checks that it runs")
    args = parser.parse_args()
    if args.smoke:
        args.positions, args.minutes = 40, 0.05
    torch.set_num_threads(1)
    torch.manual_seed(0)
    start = new_game("hermit", size=args.size)
    encoder = Encoder(codec_for(start.name, start), start)
    judged = read_judged(DATA / f"{data_name(start)}-won.jsonl")[1]
    began = time.monotonic()
    labelled = label(start, args.positions, args.min_blocks, args.seed, {canonical(j.state) for j in judged})
    won = [j for j in labelled if j.wins]
    share = sum(j.random_share() for j in won) / max(1, len(won))
    print(f"{len(labelled)} positions labelled in {time.monotonic() - began:.0f} s: {len(won)} won, "
          f"a random move keeps the win in {share:.1%} of those")  # fmt: skip
    chance = " · ".join(
        f"{name} {sum(j.random_share() for j in part) / len(part):.1%}"
        for name, part in parts(judged).items()
    )
    print(f"judged set: a random move keeps the win in {chance}")
    data = samples(labelled, encoder)
    shape = NetworkShape(*encoder.shape, encoder.actions, args.width, args.blocks, args.policy_channels)
    net = ZeroNet(shape)
    trained = time.monotonic()

    seen = won[:1000]  # trained on: how well the network fits what it learns

    def report(step: int) -> None:
        scores = " · ".join(f"{k} {v:.1%}" for k, v in accuracies(judged, seen, encoder, net).items())
        print(
            f"{(time.monotonic() - trained) / 60:4.1f} min · step {step} · move accuracy: {scores}",
            flush=True,
        )

    train(data, net, args.minutes, report)


if __name__ == "__main__":
    main()
