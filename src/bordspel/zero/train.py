"""Self-play training (``bordspel train GAME``): AlphaZero with batched search, a replay buffer
with symmetric copies, checkpoints that resume, evaluation and a learning curve.

Each round plays ``games`` games at once against itself (``bordspel.zero.selfplay``), every move
a batched PUCT search: on the game's compiled batch with the array search of
``bordspel.zero.forest`` where the kernel copies its games (Quarto), else on the engine with
``bordspel.zero.search``; Dirichlet noise at the root or Gumbel root selection (``gumbel``), moves
drawn by visit counts for the first ``temperature_plies`` plies, the most visited after, and
resignation below ``-resign``. A game may open with a few random moves
so that the network sees positions it would not reach itself. Every searched position goes into
the buffer with its visit shares and the game's result for the seat to move, in ``augment``
images under the game's symmetries (``State.transform``, ``transform_move``). Then the network
trains on batches drawn from the buffer. After every round the run is measured (move accuracy
on the judged positions, when the game has a judged set; every ``match_minutes`` the score with
search against fixed opponents), written to ``curve.png`` and ``history.json``, checkpointed
(``checkpoint.pt``: network, optimiser, buffer, random states, history; ``weights.pt`` the same
without the buffer) and exported
(``network.onnx``). Run again with the same ``--out`` to resume.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bordspel.ai.players import close_player
from bordspel.ai.registry import knowledge, make_player
from bordspel.core import BordspelError, State, new_game
from bordspel.progress import ProgressLine
from bordspel.rl.codecs import codec_for
from bordspel.stopping import Stopped, stop_on_signals
from bordspel.zero import DATA, data_name
from bordspel.zero.actors import Actors, Job, self_play_games, start_actors
from bordspel.zero.judge import Judged, read_judged
from bordspel.zero.network import ZeroNet, export_onnx, shape_of, torch_evaluator
from bordspel.zero.replay import Buffer, Record, symmetric_samples
from bordspel.zero.search import Encoder, Evaluator, Node, SearchSettings, batched_search
from bordspel.zero.selfplay import PlayedGame, PlaySettings, Starts, opened

__all__ = [
    "Settings",
    "Trainer",
    "move_accuracy",
    "pick_device",
    "play_duel",
    "play_matches",
    "scheduled_rate",
    "train_from_arguments",
]


@dataclass(frozen=True)
class Settings:
    """Everything a run is made with (stored in its checkpoint)."""

    games: int = 64
    """Self-play games a round, played at once (their leaves share network calls)."""
    simulations: int = 32
    opening_plies: int = 4
    """A self-play game opens with 0 to this many random moves."""
    temperature_plies: int = 4
    """Searched moves drawn by visit counts before the most visited is played."""
    noise: float = 0.25
    alpha: float = 0.3
    width: int = 32
    blocks: int = 3
    batch: int = 256
    search_value: float = 0.5
    """The share of the search's value in the value target (the rest: the game's result)."""
    replay: float = 4.0
    """Training samples drawn a round, as a multiple of the samples the round added."""
    buffer: int = 40_000
    augment: int = 4
    """Symmetric images stored of every position (the identity first)."""
    learning_rate: float = 2e-3
    weight_decay: float = 1e-4
    match_games: int = 20
    match_simulations: int = 64
    match_minutes: float = 5.0
    """Minutes of training between two rounds of matches against ``opponents``."""
    match_opening: int = 2
    """Random plies that open each pair of match games (played from both seats), so they differ."""
    opponents: tuple[str, ...] = ("random", "easy", "medium")
    seed: int = 0
    gumbel: int = 0
    """Root moves Gumbel sequential halving considers in self-play (0: PUCT with Dirichlet noise)."""
    resign: float = 0.0
    """A seat resigns when its search values its position below ``-resign`` (0: never)."""
    vector: bool = True
    """Self-play on the game's compiled batch when it copies its games (Quarto), with the
    batched search of ``bordspel.zero.forest``; else on the engine (``bordspel.zero.selfplay``)."""
    schedule: str = "constant"
    """The learning rate by round (:func:`scheduled_rate`): ``constant``, ``cosine`` or ``step``."""
    schedule_rounds: int = 100
    """The schedule's length: ``cosine`` falls to a tenth over it, ``step`` a tenth at every end."""
    gate_games: int = 0
    """Games (seats alternating) between the trained network and the published one after every
    round; 0: no gating, every round's network is published."""
    gate_margin: float = 0.55
    """The score (1 a win, 1/2 a draw) the trained network needs over ``gate_games`` to be published."""


SCHEDULES = ("constant", "cosine", "step")


def scheduled_rate(settings: Settings, rounds: int) -> float:
    """The learning rate of the round after ``rounds``: ``learning_rate`` throughout
    (``constant``), falling along a half cosine to a tenth of it at ``schedule_rounds`` and
    staying there (``cosine``), or a tenth of it after every ``schedule_rounds`` (``step``)."""
    rate, length = settings.learning_rate, settings.schedule_rounds
    if settings.schedule == "cosine":
        done = min(rounds / length, 1.0)
        return rate * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * done)))
    if settings.schedule == "step":
        return rate * 0.1 ** (rounds // length)
    return rate


CHECKPOINT_MINUTES = 3.0
"""The run's clock between two checkpoints (a run also writes one when it stops)."""
CHECKPOINT, WEIGHTS = "checkpoint.pt", "weights.pt"
"""The checkpoint, and the same without the replay buffer (a few megabytes: a run kept in a
repository resumes from it, its buffer filled anew by the next rounds)."""


def pick_device(name: str) -> torch.device:
    """``cpu``, ``cuda``, or ``auto``: the GPU when there is one."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


def move_accuracy(judged: list[Judged], encoder: Encoder, evaluate: Evaluator) -> float:
    """The share of ``judged`` positions where the network's likeliest move (no search) wins."""
    kept = 0
    for chunk in range(0, len(judged), 500):
        part = judged[chunk : chunk + 500]
        legal = [encoder.legal(j.state) for j in part]
        planes = np.stack([encoder.planes(j.state) for j in part])
        priors, _ = evaluate(planes, np.stack([encoder.mask(actions) for _, actions in legal]))
        for j, (moves, actions), prior in zip(part, legal, priors):
            kept += moves[int(np.argmax(prior[actions]))].to_str() in j.wins
    return kept / len(judged)


def play_matches(
    starts: Starts,
    encoder: Encoder,
    evaluate: Evaluator,
    opponent: str,
    games: int,
    simulations: int,
    seed: int,
    opening: int = 0,
) -> float:
    """The network's score with search (1 a win, 1/2 a draw) against ``opponent`` over ``games``
    games played at once, seats alternating; its moves are the most visited. Each pair of games
    starts from the same ``opening`` random plies, the network on either seat."""
    settings = SearchSettings(simulations=simulations)
    rng = np.random.default_rng(seed)
    players = [make_player(opponent, starts.first.name, seed=seed + i) for i in range(games)]
    states = [opened(starts, opening, random.Random(f"{seed}/{i // 2}")) for i in range(games)]
    try:
        while True:
            ours = [i for i, s in enumerate(states) if not s.is_over() and s.to_move == i % 2]
            theirs = [i for i, s in enumerate(states) if not s.is_over() and s.to_move != i % 2]
            if not ours and not theirs:
                break
            roots = [Node(states[i], encoder) for i in ours]
            batched_search(roots, encoder, evaluate, settings, rng)
            for i, root in zip(ours, roots):
                states[i] = states[i].apply(root.moves[int(np.argmax(root.visits))])
            for i in theirs:
                states[i] = states[i].apply(players[i].step(states[i]))
    finally:
        for player in players:
            close_player(player)
    return sum(_points(state, i % 2) for i, state in enumerate(states)) / games


def play_duel(
    starts: Starts, encoder: Encoder, first: Evaluator, second: Evaluator, settings: Settings, seed: int
) -> float:
    """The score of ``first`` against ``second`` (1 a win, 1/2 a draw), both with searches of
    ``match_simulations`` playing the most visited move, over ``gate_games`` games played at once:
    ``first`` on seat 0 in the even games, on seat 1 in the odd; each pair of games opens with
    the same ``match_opening`` random plies."""
    search = SearchSettings(simulations=settings.match_simulations)
    rng = np.random.default_rng(seed)
    games, opening = settings.gate_games, settings.match_opening
    states = [opened(starts, opening, random.Random(f"{seed}/{i // 2}")) for i in range(games)]
    while any(not s.is_over() for s in states):
        for is_first, evaluate in ((True, first), (False, second)):
            movers = [i for i, s in enumerate(states) if not s.is_over() and (s.to_move == i % 2) == is_first]
            if not movers:
                continue
            roots = [Node(states[i], encoder) for i in movers]
            batched_search(roots, encoder, evaluate, search, rng)
            for i, root in zip(movers, roots):
                states[i] = states[i].apply(root.moves[int(np.argmax(root.visits))])
    return sum(_points(state, i % 2) for i, state in enumerate(states)) / games


def _points(state: State, seat: int) -> float:
    outcome = state.outcome()
    assert outcome is not None
    return 0.5 if outcome.is_draw else float(seat in outcome.winners)


@dataclass
class Progress:
    """What a run has done so far (stored in its checkpoint)."""

    rounds: int = 0
    games: int = 0
    positions: int = 0
    steps: int = 0
    seconds: float = 0.0
    last_match: float = -math.inf
    jobs: int = 0
    """Self-play jobs handed to actors (their seeds)."""
    history: list[dict[str, Any]] = field(default_factory=list)


class Trainer:
    """A training run of one game (with its options) in the folder ``out``: the learner, and
    self-play in its own process or in actors' (``bordspel.zero.actors``). Self-play uses the
    published network (``published``): the trained one after every round, or with gating only
    when it beats the published one."""

    def __init__(
        self,
        start: State,
        out: Path,
        settings: Settings,
        device: torch.device,
        given: Mapping[str, Any] | None = None,
    ) -> None:
        """A run from ``start`` (drawn anew for each game where the ``given`` options draw it:
        :class:`~bordspel.zero.selfplay.Starts`)."""
        self.start, self.out, self.device = start, out, device
        self.starts = Starts(start, given or {})
        self.options = self.starts.options
        self.encoder = Encoder(codec_for(start.name, start), start)
        self.judged = self._judged()
        checkpoint = self._load_checkpoint()
        if checkpoint is not None:
            settings = Settings(
                **{**checkpoint["settings"], "opponents": tuple(checkpoint["settings"]["opponents"])}
            )
        self.settings = settings
        torch.manual_seed(settings.seed)
        parts = self.encoder.codec.action_parts(start)
        shape = shape_of(self.encoder, parts, settings.width, settings.blocks)
        self.net = ZeroNet(shape, parts).to(device)
        self.published = ZeroNet(shape, parts).to(device)
        self.published.load_state_dict(self.net.state_dict())
        self.optimiser = torch.optim.AdamW(
            self.net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
        )
        self.buffer = Buffer(settings.buffer, self.encoder.shape)
        self.progress = Progress()
        self.saved_rounds = 0
        """The rounds of the last checkpoint written or read."""
        self.playing = False
        """Whether the run is in self-play (a stop there loses nothing of the rounds before)."""
        self.ticked = time.monotonic()
        self.rng = np.random.default_rng(settings.seed)
        self.random = random.Random(settings.seed)
        if checkpoint is not None:
            self._restore(checkpoint)

    # -- the loop ----------------------------------------------------------------------------------
    def run(
        self, minutes: float | None, rounds: int | None, line: ProgressLine, actors: Actors | None = None
    ) -> None:
        """Train until the run's clock (resumed runs included; self-play, training, measuring and
        saving) passes ``minutes``, or ``rounds`` more rounds have passed, whichever comes first.
        With ``actors`` a round learns from the games of the actors that have finished."""
        stop_round = None if rounds is None else self.progress.rounds + rounds

        def done() -> bool:
            over_time = minutes is not None and self.progress.seconds >= minutes * 60
            return over_time or (stop_round is not None and self.progress.rounds >= stop_round)

        self.ticked = time.monotonic()
        with stop_on_signals():
            try:
                self._rounds(done, line, actors)
            except Stopped:
                if self.playing and self.progress.rounds:  # nothing changed since the last round
                    self.tick()
                    self.save_checkpoint()
                raise

    def _rounds(self, done: Callable[[], bool], line: ProgressLine, actors: Actors | None) -> None:
        """Play, train, measure and save rounds until ``done``."""
        last_checkpoint = self.progress.seconds
        pending: set[Future[list[PlayedGame]]] = set()
        while not done():
            self.playing = True
            played = self.self_play(line) if actors is None else self.gather(actors, pending, line)
            self.playing = False
            loss = self.learn(self.value_targets(played), line)
            self.progress.rounds += 1
            point = self.measure(loss, line, self.gate(line))
            self.tick()
            if done() or self.progress.seconds - last_checkpoint >= CHECKPOINT_MINUTES * 60:
                self.save_checkpoint()
                last_checkpoint = self.progress.seconds
            self.save_network()
            self.tick()
            line.close()
            print(self.describe(point), flush=True)

    def tick(self) -> None:
        """Add the time since the last tick to the run's clock."""
        now = time.monotonic()
        self.progress.seconds += now - self.ticked
        self.ticked = now

    def self_play(self, line: ProgressLine) -> list[PlayedGame]:
        """One round of self-play games in this process, with the published network."""
        settings = self.settings
        line.update(f"round {self.progress.rounds + 1} · self-play: {settings.games} games · {self._clock()}")
        evaluate = torch_evaluator(self.published, self.device)
        openings = [self.random.randint(0, settings.opening_plies) for _ in range(settings.games)]
        rngs = (self.rng, self.random)
        return self_play_games(
            self.starts, self.encoder, evaluate, self._play_settings(), openings, settings.vector, rngs
        )

    def gather(
        self, actors: Actors, pending: set[Future[list[PlayedGame]]], line: ProgressLine
    ) -> list[PlayedGame]:
        """Give every idle actor a job with the published network, and wait for the games of the
        first to finish (of all that have finished)."""
        while len(pending) < actors.count:
            pending.add(actors.submit(self.job()))
        line.update(f"round {self.progress.rounds + 1} · waiting for {actors.count} actors · {self._clock()}")
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        pending.difference_update(finished)
        return [game for future in finished for game in future.result()]

    def job(self) -> Job:
        """The next self-play job for an actor: ``games`` games with the published network."""
        settings = self.settings
        self.progress.jobs += 1
        openings = tuple(self.random.randint(0, settings.opening_plies) for _ in range(settings.games))
        weights = {key: value.cpu() for key, value in self.published.state_dict().items()}
        seed = settings.seed * 1_000_003 + self.progress.jobs
        return Job(
            self.start.name, self.options, self.net.shape, self._play_settings(), openings, seed,
            settings.vector, str(self.device), weights,
        )  # fmt: skip

    def _play_settings(self) -> PlaySettings:
        settings = self.settings
        return PlaySettings(
            settings.simulations, settings.noise, settings.alpha, settings.temperature_plies,
            settings.gumbel, settings.resign,
        )  # fmt: skip

    def value_targets(self, played: list[PlayedGame]) -> list[tuple[Record, float]]:
        """Every searched position of ``played`` with its value target: the game's result for
        its seat to move, mixed with the search's value (``search_value``)."""
        self.progress.games += len(played)
        mix = self.settings.search_value
        return [
            (r, (1 - mix) * game.returns[r.state.to_move] + mix * r.value)
            for game in played
            for r in game.records
        ]

    def learn(self, records: list[tuple[Record, float]], line: ProgressLine) -> tuple[float, float]:
        """Store the round's positions and train on the buffer; the mean policy and value loss."""
        for record, result in records:
            for planes, actions, shares in symmetric_samples(
                record, self.encoder, self.settings.augment, self.random
            ):
                self.buffer.add(planes, actions, shares, result)
        self.progress.positions += len(records)
        added = len(records) * min(self.settings.augment, self.start.symmetries())
        steps = max(1, math.ceil(self.settings.replay * added / self.settings.batch))
        losses = np.zeros(2)
        for group in self.optimiser.param_groups:
            group["lr"] = scheduled_rate(self.settings, self.progress.rounds)
        self.net.train()
        for step in range(steps):
            losses += self._step()
            if step % 10 == 0:
                line.update(
                    f"round {self.progress.rounds + 1} · training: step {step + 1}/{steps} · {self._clock()}"
                )
        self.progress.steps += steps
        return float(losses[0] / steps), float(losses[1] / steps)

    def _step(self) -> np.ndarray:
        planes, actions, shares, legal, results = (
            torch.from_numpy(a).to(self.device) for a in self.buffer.sample(self.settings.batch, self.rng)
        )
        scores, values = self.net(planes)
        log_priors = torch.log_softmax(self.net.logits_at(scores, actions).masked_fill(~legal, -1e9), dim=1)
        policy_loss = -(shares * log_priors).sum(dim=1).mean()
        value_loss = torch.nn.functional.mse_loss(values, results)
        self.optimiser.zero_grad()
        (policy_loss + value_loss).backward()  # type: ignore[no-untyped-call]
        self.optimiser.step()
        return np.array([policy_loss.item(), value_loss.item()])

    def gate(self, line: ProgressLine) -> dict[str, Any]:
        """Publish the trained network: always without gating; with it, only when it scores
        ``gate_margin`` or more over ``gate_games`` against the published one. The duel's score
        and whether the network was published, for the curve's point."""
        settings = self.settings
        if settings.gate_games <= 0:
            self.published.load_state_dict(self.net.state_dict())
            return {}
        line.update(f"round {self.progress.rounds} · gating: {settings.gate_games} games · {self._clock()}")
        trained = torch_evaluator(self.net, self.device)
        published = torch_evaluator(self.published, self.device)
        score = play_duel(
            self.starts, self.encoder, trained, published, settings, settings.seed + self.progress.rounds
        )
        if score >= settings.gate_margin:
            self.published.load_state_dict(self.net.state_dict())
        return {"gate": round(score, 4), "published": score >= settings.gate_margin}

    # -- measuring ------------------------------------------------------------------------------
    def measure(self, loss: tuple[float, float], line: ProgressLine, gate: dict[str, Any]) -> dict[str, Any]:
        """A point of the learning curve: losses, the learning rate, the gate's duel, move accuracy
        and, when due, match scores."""
        self.tick()
        evaluate = torch_evaluator(self.net, self.device)
        point: dict[str, Any] = {
            "round": self.progress.rounds,
            "minutes": round(self.progress.seconds / 60, 2),
            "games": self.progress.games,
            "policy_loss": round(loss[0], 4),
            "value_loss": round(loss[1], 4),
            "learning_rate": self.optimiser.param_groups[0]["lr"],
            **gate,
        }
        self.judged = self._judged()  # read again: a judged set may be written while a run goes on
        if self.judged:
            point["accuracy"] = move_accuracy(self.judged, self.encoder, evaluate)
            point["random_accuracy"] = sum(j.random_share() for j in self.judged) / len(self.judged)
        if self.progress.seconds - self.progress.last_match >= self.settings.match_minutes * 60:
            self.progress.last_match = self.progress.seconds
            for opponent in distinct_players(self.start.name, self.settings.opponents):
                line.update(f"round {self.progress.rounds} · matches against {opponent} · {self._clock()}")
                point[f"vs {opponent}"] = play_matches(
                    self.starts, self.encoder, evaluate, opponent, self.settings.match_games,
                    self.settings.match_simulations, self.settings.seed + self.progress.rounds,
                    self.settings.match_opening,
                )  # fmt: skip
        self.progress.history.append(point)
        return point

    def describe(self, point: dict[str, Any]) -> str:
        """A point of the curve as the line a round ends with."""
        parts = [f"round {point['round']}", f"{point['minutes']:.1f} min", f"{point['games']} games",
                 f"loss {point['policy_loss']:.3f} + {point['value_loss']:.3f}"]  # fmt: skip
        if "accuracy" in point:
            parts.append(
                f"move accuracy {point['accuracy']:.1%} (random move {point['random_accuracy']:.1%})"
            )
        if "gate" in point:
            kept = "published" if point["published"] else "kept the published network"
            parts.append(f"gate {point['gate']:.0%}: {kept}")
        parts += [f"{key} {value:.0%}" for key, value in point.items() if key.startswith("vs ")]
        return " · ".join(parts)

    def describe_network(self) -> str:
        """The network's size in words."""
        parameters = sum(p.numel() for p in self.net.parameters())
        shape = self.net.shape
        return f"{shape.blocks} blocks of {shape.width} channels, {parameters:,} parameters"

    def _clock(self) -> str:
        return f"{self.progress.games} games, {self.progress.positions} positions so far"

    # -- files -------------------------------------------------------------------------------------
    def save_checkpoint(self) -> None:
        """Write the checkpoint (everything the run needs to go on where it stopped) and the
        small one without the replay buffer (:data:`WEIGHTS`), which a repository can keep."""
        self.out.mkdir(parents=True, exist_ok=True)
        small = {
            "game": self.start.name,
            "options": self.options,
            "settings": asdict(self.settings),
            "net": self.net.state_dict(),
            "optimiser": self.optimiser.state_dict(),
            "progress": asdict(self.progress),
            "rng": self.rng.bit_generator.state,
            "random": self.random.getstate(),
            "torch": torch.get_rng_state(),
        }
        if self.settings.gate_games > 0:  # else the published network is the trained one
            small["published"] = self.published.state_dict()
        for name, checkpoint in ((CHECKPOINT, {**small, "buffer": self.buffer.arrays()}), (WEIGHTS, small)):
            partial = self.out / f"{name}.part"
            torch.save(checkpoint, partial)
            partial.replace(self.out / name)
        self.saved_rounds = self.progress.rounds

    def save_network(self) -> None:
        """Write the published network as ONNX, the history and the curve."""
        self.out.mkdir(parents=True, exist_ok=True)
        metadata = {"game": self.start.name, "options": self.options, "rounds": self.progress.rounds}
        export_onnx(self.published, self.out / "network.onnx", metadata)
        self.published.to(self.device)
        history = self.progress.history
        (self.out / "history.json").write_text(json.dumps(history, indent=1) + "\n", encoding="utf-8")
        plot_curve(history, self.out / "curve.png", f"{data_name(self.start, self.options)}: self-play")

    def _load_checkpoint(self) -> dict[str, Any] | None:
        """The checkpoint to resume from: the whole one, else the small one (the buffer then
        starts empty), else None."""
        found = [self.out / name for name in (CHECKPOINT, WEIGHTS) if (self.out / name).exists()]
        if not found:
            return None
        path = found[0]
        if path.name == WEIGHTS:
            print(f"resuming from {path}: the replay buffer starts empty", flush=True)
        checkpoint: dict[str, Any] = torch.load(path, map_location="cpu", weights_only=False)
        if checkpoint["game"] != self.start.name or checkpoint["options"] != self.options:
            raise SystemExit(
                f"{path} is a run of {checkpoint['game']} {checkpoint['options']}: "
                "give another --out, or the same game and options to resume it"
            )
        return checkpoint

    def _restore(self, checkpoint: dict[str, Any]) -> None:
        self.net.load_state_dict(checkpoint["net"])
        self.published.load_state_dict(checkpoint.get("published", checkpoint["net"]))
        self.optimiser.load_state_dict(checkpoint["optimiser"])
        if "buffer" in checkpoint:
            self.buffer.restore(checkpoint["buffer"])
        self.progress = Progress(**checkpoint["progress"])
        self.saved_rounds = self.progress.rounds
        self.rng.bit_generator.state = checkpoint["rng"]
        self.random.setstate(checkpoint["random"])
        torch.set_rng_state(checkpoint["torch"])

    def _judged(self) -> list[Judged]:
        path = DATA / f"{data_name(self.start, self.options)}-won.jsonl"
        return read_judged(path)[1] if path.exists() else []


def distinct_players(game: str, specs: tuple[str, ...]) -> list[str]:
    """``specs`` without those that are another's level under a second name (Hermit's ``easy``
    is ``random``)."""
    levels = knowledge(game).levels
    kept: dict[str, str] = {}
    for spec in specs:
        kept.setdefault(levels.get(spec, spec), spec)
    return list(kept.values())


def plot_curve(history: list[dict[str, Any]], path: Path, title: str) -> None:
    """The learning curve: move accuracy (with a random move's) and match scores, in percent,
    against minutes of training."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 4.2), dpi=100)
    keys = ["accuracy", "random_accuracy", *sorted({k for p in history for k in p if k.startswith("vs ")})]
    labels = {"accuracy": "move accuracy (no search)", "random_accuracy": "a random move's accuracy"}
    for key in keys:
        points = [(p["minutes"], 100 * p[key]) for p in history if key in p]
        if points:
            style = "--" if key == "random_accuracy" else "-o" if key.startswith("vs ") else "-"
            axes.plot(*zip(*points), style, label=labels.get(key, f"score {key} (with search)"), markersize=3)
    axes.set(xlabel="minutes of training", ylabel="%", ylim=(0, 101), title=title)
    axes.grid(alpha=0.3)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def given_settings(values: dict[str, Any]) -> dict[str, Any]:
    """The settings among ``values`` that were given (not None)."""
    known = {f.name for f in fields(Settings)}
    return {k: v for k, v in values.items() if k in known and v is not None}


def settings_from(values: dict[str, Any]) -> Settings:
    """Settings with the given values (None: the default)."""
    settings = replace(Settings(), **given_settings(values))
    if settings.schedule not in SCHEDULES:
        raise BordspelError(f"--schedule {settings.schedule}: give one of {', '.join(SCHEDULES)}")
    return settings


def check_resumable(trainer: Trainer, given: dict[str, Any]) -> None:
    """Refuse settings given on the command line that differ from the resumed run's own."""
    clashes = [
        f"--{name.replace('_', '-')} {value} (the run has {getattr(trainer.settings, name)})"
        for name, value in given.items()
        if getattr(trainer.settings, name) != value
    ]
    if clashes:
        raise BordspelError(
            f"{trainer.out} holds a run made with other settings: {', '.join(clashes)}; "
            "leave those out to resume it, or give another --out for a new run"
        )


def train_from_arguments(args: Any) -> int:
    """``bordspel train``: the run that the command line's arguments describe."""
    from bordspel.game_options import parse_options

    given = parse_options(args.game, args.option)
    start = new_game(args.game, **given)
    torch.set_num_threads(args.threads)
    name = data_name(start, Starts(start, given).options)
    out = Path(args.out) if args.out else Path("runs") / name
    trainer = Trainer(start, out, settings_from(vars(args)), pick_device(args.device), given)
    check_resumable(trainer, given_settings(vars(args)))
    print(f"training {name} in {out} on {trainer.device} ({trainer.describe_network()})", flush=True)
    if trainer.progress.rounds:
        done = trainer.progress.seconds / 60
        more = " (give a larger --minutes to go on)" if done >= args.minutes else ""
        rounds = trainer.progress.rounds
        print(f"resuming at round {rounds + 1}: {done:.1f} of {args.minutes:g} minutes done{more}")
    actors = start_actors(args.actors, args.ray)
    if actors is not None:
        print(f"self-play by {actors.count} {'Ray actors' if args.ray else 'actor processes'}", flush=True)
    try:
        trainer.run(args.minutes, args.rounds, ProgressLine(), actors)
    except Stopped as stop:
        saved = (
            f"after round {trainer.saved_rounds}" if trainer.saved_rounds else "not saved: no round had ended"
        )
        print(f"{stop}: the run in {out} is {saved}; run the same command to go on")
        raise SystemExit(128 + stop.signum) from None
    finally:
        if actors is not None:
            actors.close()
    print(f"network: {out / 'network.onnx'} · curve: {out / 'curve.png'}")
    return 0
