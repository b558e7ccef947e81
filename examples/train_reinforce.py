"""An agent that learns by policy gradients (REINFORCE, NumPy only) to beat an opponent it
loses to at the start, with its learning curve.

The policy scores each legal move by a linear function of the position the move leads to and
picks by softmax; with its weights at zero it plays uniformly at random. Its features are
generic for grid games: from the observation planes of ``bordspel.rl.codecs`` (seen by the
mover), how often planes ``i`` and ``j`` are set on the same square and on neighbouring squares
(so it can see "my worker stands on level 2" or "next to a level 3" without being told about
Santorini). It plays the Gymnasium environment from both seats against the opponent and learns
from the final reward, with a running baseline. The default opponent, Santorini's MCTS with 20
random playouts a move (``mcts:playouts=20,puct=0``), wins two games in three or more against
uniformly random play.

Every ``--every`` episodes the policy, playing as it learns (sampling its moves), meets the
opponent in the arena for ``--eval-games`` games, seats rotating, and prints a point of the
learning curve: the episodes so far, the win rate and its 95% interval. ``--plot curve.png``
draws the curve (with the ``rl`` extra's Pillow).

Run:  python examples/train_reinforce.py [--opponent SPEC] [--episodes 600] [--every 100]
          [--eval-games 100] [--seed 0] [--plot curve.png]
      python examples/train_reinforce.py --smoke
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import bordspel.rl.gymnasium  # noqa: F401 (registers the environments)
from bordspel.ai.arena import SerialBackend, run_arena
from bordspel.ai.registry import register_player
from bordspel.core import State, new_game
from bordspel.rl.codecs import codec_for


class AfterstatePolicy:
    """Softmax over legal moves of ``w . features(position after the move)``."""

    def __init__(self, start: State, rng: np.random.Generator) -> None:
        self.codec = codec_for(start.name, start)
        self.weights = np.zeros(len(self._features(self.codec.observe(start, 0))))
        self.rng = rng

    @staticmethod
    def _features(planes: np.ndarray) -> np.ndarray:
        p = planes.astype(np.float64)
        padded = np.pad(p, ((1, 1), (1, 1), (0, 0)))
        rows, cols = p.shape[:2]
        near = sum(padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))  # fmt: skip
        same = np.einsum("rci,rcj->ij", p, p).reshape(-1)
        beside = np.einsum("rci,rcj->ij", p, near).reshape(-1)
        return np.concatenate([same, beside, [1.0]]) / (rows * cols)

    def features(self, state: State) -> np.ndarray:
        seat = state.to_move
        afterstates = (state.apply_unchecked(m) for m in state.legal_moves())
        return np.array([self._features(self.codec.observe(after, seat)) for after in afterstates])

    def act(self, state: State) -> tuple[Any, np.ndarray]:
        """A move sampled from the policy, and the gradient of its log-probability."""
        x = self.features(state)
        logits = x @ self.weights
        p = np.exp(logits - logits.max())
        p /= p.sum()
        index = int(self.rng.choice(len(p), p=p))
        return state.legal_moves()[index], x[index] - p @ x


class PolicyPlayer:
    """The policy as a bordspel player (sampling its moves, as it learns)."""

    def __init__(self, policy: AfterstatePolicy) -> None:
        self.name, self.policy = "reinforce", policy

    def step(self, state: State) -> Any:
        """A move of the policy."""
        return self.policy.act(state)[0]


@dataclass
class Point:
    """One evaluation: the episodes trained so far, the win rate and its 95% interval."""

    episodes: int
    rate: float
    low: float
    high: float


class Trainer:
    """REINFORCE with a running baseline against one opponent, from both seats."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.policy = AfterstatePolicy(new_game(args.game), np.random.default_rng(args.seed))
        env_id = f"bordspel/{args.game.capitalize()}-v0"
        self.envs = [gymnasium.make(env_id, opponent=args.opponent, seat=seat) for seat in (0, 1)]
        self.started = time.perf_counter()
        self.baseline = 0.0
        register_player("reinforce", args.game, lambda seed: PolicyPlayer(self.policy))

    def episode(self, number: int) -> None:
        env = self.envs[number % 2]
        env.reset(seed=number)
        inner = env.unwrapped
        grads, done, reward = [], False, 0.0
        while not done:
            move, grad = self.policy.act(inner.state)
            grads.append(grad)
            _, reward, done, _, _ = env.step(inner.codec.encode(inner.state, move))
        advantage = float(reward) - self.baseline
        self.baseline += 0.02 * advantage
        self.policy.weights += self.args.rate * advantage * np.sum(grads, axis=0)

    def evaluate(self, episodes: int) -> Point:
        players, games = ["reinforce", self.args.opponent], self.args.eval_games
        standings = run_arena(self.args.game, players, games, seed=self.args.seed + episodes,
                              backend=SerialBackend(), progress=None)  # fmt: skip
        stats = standings.stats["reinforce"]
        return Point(episodes, stats.score, *stats.interval())

    def run(self) -> list[Point]:
        """Train, evaluating at the start and every ``--every`` episodes: the learning curve."""
        curve = [self.point(0)]
        for number in range(self.args.episodes):
            self.episode(number)
            if (number + 1) % self.args.every == 0:
                curve.append(self.point(number + 1))
        return curve

    def point(self, episodes: int) -> Point:
        point = self.evaluate(episodes)
        print(f"episodes {episodes:5d}: win rate {point.rate:6.1%} [{point.low:5.1%}, {point.high:5.1%}] "
              f"over {self.args.eval_games} games against {self.args.opponent} "
              f"({time.perf_counter() - self.started:.0f} s)", flush=True)  # fmt: skip
        return point


def plot(curve: list[Point], path: Path, title: str) -> None:
    """Draw the curve (win rate with its interval against episodes) as a PNG."""
    from PIL import Image, ImageDraw

    width, height, margin = 640, 400, 50
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    last = max(point.episodes for point in curve) or 1

    def at(episodes: float, rate: float) -> tuple[float, float]:
        x = margin + episodes / last * (width - 2 * margin)
        return x, height - margin - rate * (height - 2 * margin)

    for rate in (0.0, 0.25, 0.5, 0.75, 1.0):
        draw.line([at(0, rate), at(last, rate)], fill="#ccc" if rate != 0.5 else "#888")
        draw.text((8, at(0, rate)[1] - 6), f"{rate:.0%}", fill="black")
    for point in curve:
        draw.line([at(point.episodes, point.low), at(point.episodes, point.high)], fill="#69c", width=3)
        x, y = at(point.episodes, point.rate)
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill="#036")
        draw.text((x - 10, height - margin + 6), str(point.episodes), fill="black")
    draw.line([at(p.episodes, p.rate) for p in curve], fill="#036", width=2)
    draw.text((margin, 12), title, fill="black")
    draw.text((width // 2 - 40, height - 22), "episodes trained", fill="black")
    image.save(path)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command's arguments (``--smoke``: a few episodes and games, to check that it runs)."""
    text = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=text)
    parser.add_argument("--game", default="santorini", choices=["hermit", "santorini", "quarto"])
    parser.add_argument("--opponent", default="mcts:playouts=20,puct=0", help="a player specification")
    parser.add_argument("--episodes", type=int, default=600)
    parser.add_argument("--every", type=int, default=100, help="episodes between evaluations")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, help="write the learning curve to this PNG")
    parser.add_argument("--smoke", action="store_true", help="a few episodes, to check that it runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.episodes, args.every, args.eval_games = 2, 2, 2
    return args


def main() -> None:
    args = parse()
    curve = Trainer(args).run()
    if args.plot:
        plot(curve, args.plot, f"REINFORCE against {args.opponent} in {args.game}: win rate, 95% interval")
        print(f"learning curve written to {args.plot}")


if __name__ == "__main__":
    main()
