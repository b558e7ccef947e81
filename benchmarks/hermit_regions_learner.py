"""A Hermit learner that sees parity through regions: a small network learns the Grundy value of
ONE region, and a player combines its guesses for the regions after each move by an exact
nim-sum (exclusive or).

A Hermit position splits into independent regions (``bordspel.games.hermit.grundy``) and its
value is the exclusive or of theirs; a move keeps a win when it leaves value zero. The network
reads a region in its canonical form (the compiled solver's: the same for regions equal up to
place, the 8 symmetries and the colour names), the top-left 5x5 squares of its three masks (which
squares accept red, yellow, blue), and predicts its Grundy value as one of G classes (G: one more
than the largest value in the data). Its data: the distinct regions of random 5x5 positions
(drawn as ``bordspel.zero.judge`` draws them, none of the judged set's) with at most
``--max-squares`` live squares, labelled by the compiled solver's exact Grundy value, for
``--label-minutes``; one in ten is held out. It trains for ``--minutes``; then the player,
for each legal move, predicts each region after it and plays a move whose predicted nim-sum is
zero (ties, or no such move: the most confident, the product of its regions' top probabilities)
and is judged on the shipped judged set as ``zero_upper_bound.py`` judges the network.

Run:  python benchmarks/hermit_regions_learner.py --label-minutes 8 --minutes 2   (needs the train extra)
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from bordspel.core import State, canonical, new_game
from bordspel.games.hermit.engine import HermitMove, HermitState
from bordspel.games.hermit.grundy import Region
from bordspel.games.hermit.proof import ProofSolver
from bordspel.progress import ProgressLine
from bordspel.zero import DATA, data_name
from bordspel.zero.judge import Judged, _random_position, read_judged
from zero_upper_bound import parts

SIDE = 5
"""The canonical form's squares read: its top-left SIDE x SIDE of the compiled grid's 8 x 8."""
SHIFTS = np.array([r * 8 + c for r in range(SIDE) for c in range(SIDE)], dtype=np.uint64)

Labelled = dict[tuple[int, int, int], int]
"""Grundy values of regions by canonical form."""


def solver_core() -> Any:
    """The compiled 5x5 solver: its regions, canonical forms and exact Grundy values."""
    core = ProofSolver(5).core
    if core is None:
        raise SystemExit("needs the compiled module bordspel._native.hermit_core")
    return core


def accepts(state: State) -> Region:
    """The squares that accept red, yellow and blue."""
    assert isinstance(state, HermitState)
    free = state.free_mask
    return free(0), free(1), free(2)


def encode(forms: Sequence[tuple[int, int, int]]) -> torch.Tensor:
    """Canonical forms as rows of 3 x SIDE x SIDE zeros and ones."""
    masks = np.array(forms, dtype=np.uint64).reshape(-1, 3, 1)
    bits = (masks >> SHIFTS) & np.uint64(1)
    return torch.from_numpy(bits.reshape(len(forms), -1).astype(np.float32))


def label(core: Any, states: Sequence[State], max_squares: int, found: Labelled) -> int:
    """Add the regions of ``states`` with at most ``max_squares`` live squares to ``found``;
    the number of larger regions left out."""
    larger = 0
    for state in states:
        for region in core.regions(*accepts(state)):
            if (region[0] | region[1] | region[2]).bit_count() > max_squares:
                larger += 1
                continue
            form = core.canonical(*region)
            if form not in found:
                found[form] = core.region_value(*region)
    return larger


def draw(core: Any, seconds: float, max_squares: int, seed: int, held: set[State]) -> Labelled:
    """The regions of random 5x5 positions not in ``held``, labelled for ``seconds``."""
    start, rng, found, larger, drawn = new_game("hermit", size=5), random.Random(seed), {}, 0, 0
    line, began = ProgressLine(), time.monotonic()
    while time.monotonic() - began < seconds:
        state = _random_position(start, rng)
        if canonical(state) in held:
            continue
        drawn += 1
        larger += label(core, [state], max_squares, found)
        line.update(f"{drawn} positions, {len(found)} regions labelled, {larger} larger left out")
    line.close()
    return found


class RegionNet(torch.nn.Module):
    """Region in, Grundy value out (logits over ``classes`` values)."""

    def __init__(self, classes: int, width: int) -> None:
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(3 * SIDE * SIDE, width),
            torch.nn.ReLU(),
            torch.nn.Linear(width, width),
            torch.nn.ReLU(),
            torch.nn.Linear(width, width),
            torch.nn.ReLU(),
            torch.nn.Linear(width, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.layers(x)
        return logits


def train(net: RegionNet, data: Labelled, minutes: float) -> int:
    """Train on ``data`` in batches of 256 for ``minutes``; the number of steps."""
    forms = list(data)
    inputs, targets = encode(forms), torch.tensor([data[f] for f in forms])
    optimiser = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    rng, line, began, step = np.random.default_rng(0), ProgressLine(), time.monotonic(), 0
    net.train()
    while time.monotonic() - began < minutes * 60:
        index = torch.from_numpy(rng.integers(0, len(forms), min(256, len(forms))))
        loss = torch.nn.functional.cross_entropy(net(inputs[index]), targets[index])
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
        line.update(f"{(time.monotonic() - began) / 60:.1f} min · step {step} · loss {loss.item():.3f}")
    line.close()
    net.eval()
    return step


def predict(net: RegionNet, forms: Sequence[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Each form's likeliest Grundy value and that value's probability."""
    if not forms:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    with torch.no_grad():
        probs = torch.softmax(net(encode(forms)), dim=1)
    top, value = probs.max(dim=1)
    return value.numpy(), top.numpy()


def choose(state: State, core: Any, net: RegionNet) -> HermitMove:
    """The move whose predicted nim-sum is zero, the most confident of them (else of all)."""
    moves = state.legal_moves()
    per_move = [[core.canonical(*r) for r in core.regions(*accepts(state.apply_unchecked(m)))] for m in moves]
    values, tops = predict(net, [form for forms in per_move for form in forms])
    best, best_key, at = moves[0], (False, -1.0), 0
    for move, forms in zip(moves, per_move):
        nim_sum = int(np.bitwise_xor.reduce(values[at : at + len(forms)], initial=0))
        key = (nim_sum == 0, float(np.prod(tops[at : at + len(forms)])))
        at += len(forms)
        if key > best_key:
            best, best_key = move, key
    assert isinstance(best, HermitMove)
    return best


def keeps(judged: Sequence[Judged], core: Any, net: RegionNet) -> dict[int, bool]:
    """Whether the player's move is a winning one, by ``id`` of each judged position."""
    return {id(j): choose(j.state, core, net).to_str() in j.wins for j in judged}


def region_accuracy(net: RegionNet, data: Labelled) -> dict[str, str]:
    """The share of ``data``'s regions whose value the network predicts, by live squares."""
    bands = {"1-8": range(1, 9), "9-12": range(9, 13), "13+": range(13, 26)}
    out = {}
    for name, band in bands.items():
        forms = [f for f in data if (f[0] | f[1] | f[2]).bit_count() in band]
        if forms:
            right = (predict(net, forms)[0] == np.array([data[f] for f in forms])).mean()
            out[name] = f"{right:.1%} of {len(forms)}"
    return out


def seen_share(judged: Sequence[Judged], core: Any, trained: Labelled) -> float:
    """The share of the regions after the judged positions' moves whose form is in ``trained``."""
    forms = [
        core.canonical(*r)
        for j in judged
        for m in j.state.legal_moves()
        for r in core.regions(*accepts(j.state.apply_unchecked(m)))
    ]
    return sum(f in trained for f in forms) / len(forms)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--label-minutes", type=float, default=3.0)
    parser.add_argument("--max-squares", type=int, default=16, help="the largest regions labelled")
    parser.add_argument("--minutes", type=float, default=4.0, help="training")
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    core, start = solver_core(), new_game("hermit", size=5)
    judged = read_judged(DATA / f"{data_name(start)}-won.jsonl")[1]
    began = time.monotonic()
    held_positions = {canonical(j.state) for j in judged}
    data = draw(core, args.label_minutes * 60, args.max_squares, args.seed, held_positions)
    held = {f: v for f, v in data.items() if hash((f, args.seed)) % 10 == 0}
    trained = {f: v for f, v in data.items() if f not in held}
    counts = np.bincount(list(data.values()))
    print(f"{len(data)} regions labelled in {time.monotonic() - began:.0f} s ({len(held)} held out); "
          f"Grundy values 0-{len(counts) - 1}, how many of each: {counts.tolist()}")  # fmt: skip
    net = RegionNet(len(counts), args.width)
    began = time.monotonic()
    steps = train(net, trained, args.minutes)
    print(f"trained {steps} steps in {(time.monotonic() - began) / 60:.1f} min")
    for name, part in (("training regions", trained), ("held-out regions", held)):
        scores = " · ".join(f"{k} squares {v}" for k, v in region_accuracy(net, part).items())
        print(f"Grundy value right on {name}: {scores}")
    seen = seen_share(judged, core, trained)
    print(f"regions after the judged positions' moves seen in training: {seen:.1%}")
    began = time.monotonic()
    kept = keeps(judged, core, net)
    for name, part in parts(judged).items():
        share = sum(kept[id(j)] for j in part) / len(part)
        chance = sum(j.random_share() for j in part) / len(part)
        print(f"judged set, {name}: the player keeps the win in {share:.1%} (a random move {chance:.1%})")
    print(f"judged in {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
