"""Fit the Santorini evaluation's weights to game outcomes (Texel's method), by self-play.

1. Play ``--games`` two-player games between alpha-beta players (``--depth`` plies, the
   baseline's evaluation ``evaluate_v1``), with a share of random moves so the positions
   vary; the setup is random.
2. Label every position after the setup with the game's result for the player to move
   (1 win, 0 loss).
3. Fit the weights of ``bordspel.games.santorini.evaluation`` by logistic regression: the probability
   of a win is ``1 / (1 + exp(-evaluation / 100))``, minimising the log loss by gradient descent.
4. Write the weights to ``src/bordspel/games/santorini/weights.json`` with ``--write``.

Run:  python benchmarks/texel_santorini.py [--games 400] [--seed 1] [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

from bordspel.ai.players import AlphaBetaPlayer
from bordspel.core import State, new_game
from bordspel.games.santorini.ai import evaluate_v1, order
from bordspel.games.santorini.evaluation import FEATURES, features, load_weights

WEIGHTS_FILE = (
    Path(__file__).resolve().parent.parent / "src" / "bordspel" / "games" / "santorini" / "weights.json"
)
SCALE = 100.0
"""Evaluation units per logit: a lead of 100 means e:1 odds."""


def self_play(games: int, seed: int, randomness: float, depth: int) -> list[tuple[list[float], float]]:
    """(features for the player to move, its result) of every position of every game."""
    rng = random.Random(seed)
    player = AlphaBetaPlayer(evaluate_v1, time_limit=None, max_depth=depth, order=order)
    samples = []
    for _ in range(games):
        state: State = new_game("santorini")
        seen = []
        while not state.is_over():
            if not state.in_setup:  # type: ignore[attr-defined]
                seen.append((features(state, state.to_move), state.to_move))
            chosen = rng.random() < randomness or state.in_setup  # type: ignore[attr-defined]
            state = state.apply(state.random_move(rng) if chosen else player.step(state))
        outcome = state.outcome()
        assert outcome is not None
        samples += [(vector, 1.0 if seat in outcome.winners else 0.0) for vector, seat in seen]
    return samples


def fit(samples: list[tuple[list[float], float]], steps: int, rate: float) -> list[float]:
    """Logistic regression by gradient descent on standardised features, in evaluation units."""
    count = len(FEATURES)
    means = [sum(x[i] for x, _ in samples) / len(samples) for i in range(count)]
    spreads = [
        math.sqrt(sum((x[i] - means[i]) ** 2 for x, _ in samples) / len(samples)) or 1.0 for i in range(count)
    ]
    scaled = [([(x[i] - means[i]) / spreads[i] for i in range(count)], y) for x, y in samples]
    weights, bias = [0.0] * count, 0.0
    for _ in range(steps):
        gradient, shift = [0.0] * count, 0.0
        for x, y in scaled:
            error = 1 / (1 + math.exp(-(bias + sum(w * v for w, v in zip(weights, x))))) - y
            shift += error
            for i in range(count):
                gradient[i] += error * x[i]
        weights = [w - rate * g / len(scaled) for w, g in zip(weights, gradient)]
        bias -= rate * shift / len(scaled)
    return [SCALE * w / s for w, s in zip(weights, spreads)]  # features are differences: no bias kept


def log_loss(samples: list[tuple[list[float], float]], weights: list[float]) -> float:
    total = 0.0
    for x, y in samples:
        p = 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(w * v for w, v in zip(weights, x)) / SCALE))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--randomness", type=float, default=0.15, help="share of random moves")
    parser.add_argument("--depth", type=int, default=2, help="the self-play search depth")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--write", action="store_true", help="write the weights file")
    args = parser.parse_args()
    samples = self_play(args.games, args.seed, args.randomness, args.depth)
    train, test = samples[: len(samples) * 4 // 5], samples[len(samples) * 4 // 5 :]
    weights = fit(train, args.steps, rate=0.5)
    before = list(load_weights())
    print(f"{len(samples)} positions from {args.games} games")
    losses = f"current weights {log_loss(test, before):.4f}, fitted {log_loss(test, weights):.4f}"
    print(f"held-out log loss: {losses}")
    for name, old, new in zip(FEATURES, before, weights):
        print(f"  {name:15} {old:8.1f} -> {new:8.1f}")
    if args.write:
        rounded = {name: round(w, 1) for name, w in zip(FEATURES, weights)}
        WEIGHTS_FILE.write_text(json.dumps({"weights": rounded}, indent=1) + "\n", encoding="utf-8")
        print(f"written to {WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
