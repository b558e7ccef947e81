"""Train a small agent with policy gradients (REINFORCE) on NumPy, then rank it in the arena.

The policy scores each legal move by a linear function of the position the move leads to and
picks by softmax. Its features are generic for grid games: from the observation planes of
``bordspel.rl.codecs`` (seen by the mover), how often planes ``i`` and ``j`` are set on the same
square, and on neighbouring squares (so it can see "my worker stands on level 2" or "next to a
level 3" without being told about Santorini). It plays
the Gymnasium environment (``bordspel/Santorini-v0`` by default) against random play from both
seats and learns from the final reward, with a running baseline. The trained policy is then
registered as a player and meets random play in the arena.

Run:  python examples/train_reinforce.py [--game santorini] [--episodes 1000] [--games 200]
      python examples/train_reinforce.py --smoke
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium
import numpy as np

import bordspel.rl.gymnasium  # noqa: F401 (registers the environments)
from bordspel.ai.arena import SerialBackend, run_arena
from bordspel.ai.registry import register_player
from bordspel.core import State, new_game
from bordspel.rl.codecs import codec_for


class AfterstatePolicy:
    """Softmax over legal moves of ``w . planes(position after the move)``."""

    def __init__(self, game: str, rng: np.random.Generator) -> None:
        self.codec = codec_for(game)
        start = new_game(game)
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
        return np.concatenate([same, beside, [1.0]])

    def features(self, state: State) -> np.ndarray:
        seat = state.to_move
        afterstates = (state.apply_unchecked(m) for m in state.legal_moves())
        return np.array([self._features(self.codec.observe(after, seat)) for after in afterstates])

    def act(self, state: State, greedy: bool = False) -> tuple[Any, np.ndarray]:
        x = self.features(state)
        logits = x @ self.weights
        p = np.exp(logits - logits.max())
        p /= p.sum()
        index = int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))
        return state.legal_moves()[index], x[index] - p @ x


def train(policy: AfterstatePolicy, game: str, episodes: int, rate: float) -> None:
    envs = [gymnasium.make(f"bordspel/{game.capitalize()}-v0", opponent="random", seat=s) for s in (0, 1)]
    baseline, rewards = 0.0, []
    for episode in range(episodes):
        env = envs[episode % 2]
        env.reset(seed=episode)
        inner = env.unwrapped
        grads, done, reward = [], False, 0.0
        while not done:
            move, grad = policy.act(inner.state)
            grads.append(grad)
            _, reward, done, _, _ = env.step(inner.codec.encode(inner.state, move))
        advantage, baseline = reward - baseline, baseline + 0.02 * (reward - baseline)
        policy.weights += rate * advantage * np.sum(grads, axis=0)
        rewards.append(reward)
        if (episode + 1) % 250 == 0:
            print(
                f"episode {episode + 1}: mean reward of the last 250 {np.mean(rewards[-250:]):+.2f}",
                flush=True,
            )


class PolicyPlayer:
    """The trained policy as a bordspel player (always its most likely move)."""

    def __init__(self, policy: AfterstatePolicy) -> None:
        self.name, self.policy = "reinforce", policy

    def step(self, state: State) -> Any:
        return self.policy.act(state, greedy=True)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="santorini", choices=["hermit", "santorini", "quarto"])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=0.005)
    parser.add_argument("--smoke", action="store_true", help="a few episodes, to check that it runs")
    args = parser.parse_args()
    if args.smoke:
        args.episodes, args.games = 20, 10
    policy = AfterstatePolicy(args.game, np.random.default_rng(0))
    train(policy, args.game, args.episodes, args.rate)
    register_player("reinforce", args.game, lambda seed: PolicyPlayer(policy))
    standings = run_arena(args.game, ["reinforce", "random"], args.games, seed=1, backend=SerialBackend(),
                          progress=None)  # fmt: skip
    print(standings.table())


if __name__ == "__main__":
    main()
