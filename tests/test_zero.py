"""Self-play training and the ``zero`` player: the batched search, the replay buffer's symmetric
copies, the network and its ONNX export, checkpoints, and the player in the arena.

Tests that need PyTorch (the ``train`` extra) or onnxruntime (``zero``) skip without them;
those that need PyTorch are slow (importing it takes seconds), run by CI.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from bordspel.ai import Analyser, Limit, make_player
from bordspel.ai.arena import SerialBackend, run_arena
from bordspel.ai.registry import offered_levels
from bordspel.core import BordspelError, State, new_game
from bordspel.rl.codecs import codec_for
from bordspel.zero import DATA, data_name, network_options, plays_options, zero_available
from bordspel.zero.replay import Record, symmetric_samples
from bordspel.zero.search import Encoder, Floats, Node, SearchSettings, batched_search

MATES = ["XX./OO./...", "X.X/.O./O..", "OO./XX./..."]
"""Tic-tac-toe positions where X, to move, wins at once (c1, b1, c2; in the last O threatens too)."""


def encoder_of(start: State) -> Encoder:
    return Encoder(codec_for(start.name, start), start)


class UniformNetwork:
    """Every legal move as likely, every position even; counts its calls and their batch sizes."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def __call__(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        self.batches.append(len(planes))
        priors = masks / masks.sum(axis=1, keepdims=True)
        return priors.astype(np.float32), np.zeros(len(planes), dtype=np.float32)


def test_the_batched_search_finds_a_win_in_one_and_values_all_leaves_in_one_call() -> None:
    tictactoe = type(new_game("tictactoe"))
    states = [tictactoe.from_str(text) for text in MATES]
    encoder, network = encoder_of(new_game("tictactoe")), UniformNetwork()
    roots = [Node(state, encoder) for state in states]
    batched_search(roots, encoder, network, SearchSettings(simulations=60), np.random.default_rng(0))
    for state, root in zip(states, roots):
        best = root.moves[int(np.argmax(root.visits))]
        assert state.apply(best).outcome().winner == state.to_move, state.to_str()
    assert len(network.batches) <= 61 and max(network.batches) == len(states)


def test_gumbel_sequential_halving_finds_a_win_in_one_with_a_few_simulations() -> None:
    tictactoe = type(new_game("tictactoe"))
    encoder, network = encoder_of(new_game("tictactoe")), UniformNetwork()
    for seed, text in enumerate(MATES):
        state = tictactoe.from_str(text)
        root = Node(state, encoder)
        settings = SearchSettings(simulations=8, gumbel=16)
        batched_search([root], encoder, network, settings, np.random.default_rng(seed))
        assert root.halving is not None and root.visits.sum() == 8
        assert state.apply(root.moves[root.best()]).outcome().winner == state.to_move, text


def test_gumbel_visits_only_the_considered_moves_and_halves_them() -> None:
    state = new_game("tictactoe")
    encoder = encoder_of(state)
    root = Node(state, encoder)
    batched_search([root], encoder, UniformNetwork(), SearchSettings(16, gumbel=4), np.random.default_rng(1))
    halving = root.halving
    assert halving is not None and len(halving.survivors) == 2 and root.best() in halving.survivors
    considered = set(np.argsort(-halving.scores, kind="stable")[:4].tolist())
    assert set(np.flatnonzero(root.visits).tolist()) == considered and root.visits.sum() == 16
    # two phases of 8 simulations: 2 visits each of the 4, then 4 more each of the better 2
    assert sorted(root.visits[list(considered)].tolist()) == [2.0, 2.0, 6.0, 6.0]


def test_the_zero_player_with_gumbel_plays_what_its_seed_repeats() -> None:
    pytest.importorskip("onnxruntime")
    state = new_game("quarto").play("A")
    moves = {make_player("zero:playouts=8,gumbel=8", "quarto", seed=5).step(state) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(state.legal_moves())
    with pytest.raises(BordspelError, match="gumbel=-1 needs a whole number of at least 0"):
        make_player("zero:gumbel=-1", "quarto")


def test_symmetric_copies_move_the_visit_shares_with_transform_move() -> None:
    rng = random.Random(3)
    state = new_game("hermit", size=5)
    for _ in range(4):
        state = state.apply(state.random_move(rng))
    moves = state.legal_moves()
    shares = np.random.default_rng(1).dirichlet([1.0] * len(moves)).astype(np.float32)
    encoder = encoder_of(state)
    samples = symmetric_samples(Record(state, moves, shares, 0.0), encoder, 6, rng)
    assert len(samples) == 6 and np.array_equal(samples[0][0], encoder.planes(state))
    for planes, actions, policy in samples:
        matches = [
            s for s in range(state.symmetries()) if np.array_equal(encoder.planes(state.transform(s)), planes)
        ]
        image, symmetry = state.transform(matches[0]), matches[0]
        assert sorted(actions) == sorted(encoder.codec.encode(image, m) for m in image.legal_moves())
        share_of = dict(zip(actions.tolist(), policy.tolist()))
        for move, share in zip(moves, shares):
            assert share_of[
                encoder.codec.encode(image, state.transform_move(move, symmetry))
            ] == pytest.approx(share)


@pytest.fixture(scope="module")
def torch_net():
    torch = pytest.importorskip("torch")
    from bordspel.zero.network import NetworkShape, ZeroNet

    torch.manual_seed(0)
    start = new_game("quarto")
    channels, rows, cols = encoder_of(start).shape
    actions = codec_for("quarto").num_actions(start)
    return ZeroNet(NetworkShape(channels, rows, cols, actions, width=8, blocks=1, policy_channels=6)).eval()


@pytest.mark.slow
def test_the_network_scores_every_action_and_values_between_minus_one_and_one(torch_net) -> None:
    import torch

    logits, values = torch_net(torch.randn(5, 11, 4, 4))
    assert logits.shape == (5, 288) and values.shape == (5,)
    assert bool(((values >= -1) & (values <= 1)).all())


@pytest.mark.slow
def test_the_onnx_export_computes_what_torch_does(torch_net, tmp_path: Path) -> None:
    import torch

    pytest.importorskip("onnxruntime")
    from bordspel.zero.network import export_onnx
    from bordspel.zero.player import OnnxNetwork

    path = tmp_path / "quarto.onnx"
    export_onnx(torch_net, path, {"game": "quarto", "options": {"advanced": False}})
    planes = torch.randn(7, 11, 4, 4)
    with torch.inference_mode():
        logits, values = torch_net(planes)
    network = OnnxNetwork(path)
    ours_logits, ours_values = network.session.run(None, {"planes": planes.numpy()})
    assert network.game == "quarto"
    np.testing.assert_allclose(ours_logits, logits.numpy(), atol=1e-4)
    np.testing.assert_allclose(ours_values, values.numpy(), atol=1e-4)


def tiny_trainer(out: Path):
    from bordspel.zero.train import Settings, Trainer, pick_device

    settings = Settings(games=3, simulations=4, width=8, blocks=1, batch=16, opponents=(), buffer=500)
    return Trainer(new_game("hermit", size=3), out, settings, pick_device("cpu"))


@pytest.mark.slow
class FirstPositions(UniformNetwork):
    """The uniform network that keeps the planes of its first call (the match games' roots)."""

    def __init__(self) -> None:
        super().__init__()
        self.first: Floats | None = None

    def __call__(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        if self.first is None:
            self.first = planes.copy()
        return super().__call__(planes, masks)


@pytest.mark.slow
def test_match_games_open_with_random_plies_that_a_seed_repeats() -> None:
    pytest.importorskip("torch")
    from bordspel.zero.selfplay import Starts
    from bordspel.zero.train import play_matches

    start = new_game("tictactoe")

    def first_roots(seed: int, opening: int) -> Floats:
        network = FirstPositions()
        score = play_matches(Starts(start), encoder_of(start), network, "random", 8, 4, seed, opening)
        assert 0 <= score <= 1
        assert network.first is not None
        return network.first

    opened = first_roots(3, 2)
    assert len(opened) == 4  # the network's seat is to move after two plies in games 0, 2, 4, 6
    assert all(plane.sum() == opened[0].sum() for plane in opened)  # two marks on each board
    assert len({plane.tobytes() for plane in opened}) > 1
    assert np.array_equal(opened, first_roots(3, 2))
    assert len({plane.tobytes() for plane in first_roots(3, 0)}) == 1


def test_a_resumed_run_goes_on_exactly_as_an_unbroken_one(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bordspel.progress import ProgressLine

    quiet = ProgressLine(io.StringIO())
    unbroken = tiny_trainer(tmp_path / "a")
    unbroken.run(None, 2, quiet)
    broken = tiny_trainer(tmp_path / "b")
    broken.run(None, 1, quiet)
    resumed = tiny_trainer(tmp_path / "b")
    assert resumed.progress.rounds == 1 and resumed.buffer.size == broken.buffer.size
    resumed.run(None, 1, quiet)
    for key, value in unbroken.net.state_dict().items():
        assert torch.equal(value, resumed.net.state_dict()[key]), key
    kept, again = unbroken.buffer.arrays(), resumed.buffer.arrays()
    assert all(np.array_equal(kept[key], again[key]) for key in kept)
    assert (tmp_path / "b" / "network.onnx").exists() and (tmp_path / "b" / "curve.png").exists()


needs_zero = pytest.mark.skipif(
    not zero_available("hermit"), reason="needs onnxruntime and a shipped network"
)


SHIPPED = [("hermit", {"size": 5}), ("quarto", {}), ("santorini", {})]
"""The games and options with a shipped network."""
OTHER_OPTIONS = {"hermit": {"size": 4}, "quarto": {"advanced": True}, "santorini": {"players": 3}}
"""Options of each game for which no network is shipped."""


@needs_zero
@pytest.mark.parametrize("game, options", SHIPPED, ids=[game for game, _ in SHIPPED])
def test_each_shipped_network_plays_its_game_in_the_arena_and_is_offered(
    game: str, options: dict[str, object]
) -> None:
    assert (DATA / f"{data_name(new_game(game, **options))}.onnx").exists()
    assert "zero" in offered_levels(game)
    standings = run_arena(
        game, ["zero:playouts=16", "random"], 2, seed=1, options=options, backend=SerialBackend()
    )
    assert standings.games == 2


@pytest.mark.parametrize("game, options", SHIPPED, ids=[game for game, _ in SHIPPED])
def test_a_networks_options_read_back_from_its_name_start_its_game(
    game: str, options: dict[str, object]
) -> None:
    start = new_game(game, **options)
    (read,) = network_options(game)
    assert new_game(game, **read) == start
    assert plays_options(start)
    assert not plays_options(new_game(game, **{**read, **OTHER_OPTIONS[game]}))


def test_options_with_dashes_and_flags_read_back_from_a_data_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = new_game("santorini", players=3, finite_supply=True, gods="apollo,-,pan")
    (tmp_path / f"{data_name(start)}.onnx").touch()
    monkeypatch.setattr("bordspel.zero.DATA", tmp_path)
    assert network_options("santorini") == [{"finite_supply": True, "gods": "apollo,-,pan", "players": 3}]
    assert plays_options(start)


@needs_zero
def test_the_zero_player_without_search_plays_a_legal_move() -> None:
    state = new_game("hermit", size=5).play("Ra1H")
    assert state.is_legal(make_player("zero:playouts=0", "hermit", seed=1).step(state))


@needs_zero
@pytest.mark.parametrize(
    "game, options, model, says",
    [
        (
            "quarto",
            {"advanced": True},
            "quarto-advanced0",
            "trained on quarto with advanced=false, not advanced=true",
        ),
        ("hermit", {"size": 4}, "hermit-size5", "trained on hermit with size=5, not size=4"),
        ("santorini", {}, "hermit-size5", "trained on hermit, not santorini"),
        (
            "santorini",
            {"gods": "atlas,athena"},
            "santorini-finite_supply0-players2",
            'trained on santorini with gods=none, not gods="atlas,athena"',
        ),
    ],
)
def test_a_network_for_other_options_is_refused_in_their_words(
    game: str, options: dict[str, object], model: str, says: str
) -> None:
    player = make_player(f"zero:model={DATA / model}.onnx", game)
    with pytest.raises(BordspelError, match=says):
        player.step(new_game(game, **options))


@pytest.mark.slow
def test_bordspel_train_runs_a_round_and_writes_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bordspel.cli import main

    arguments = ["train", "hermit", "-o", "size=3", "--out", str(tmp_path), "--rounds", "1", "--games", "4"]
    assert (
        main([*arguments, "--simulations", "4", "--width", "8", "--blocks", "1", "--match-games", "2"]) == 0
    )
    assert "round 1 · " in capsys.readouterr().out and "vs medium" in (tmp_path / "history.json").read_text()
    for name in ("checkpoint.pt", "network.onnx", "history.json", "curve.png"):
        assert (tmp_path / name).exists(), name
    start = new_game("hermit", size=3)
    assert start.is_legal(
        make_player(f"zero:model={tmp_path / 'network.onnx'},playouts=8", "hermit").step(start)
    )
    assert main([*arguments, "--width", "16"]) == 2  # a resumed run keeps its own network
    assert "--width 16 (the run has 8)" in capsys.readouterr().err
    assert main(arguments) == 0
    assert "resuming at round 2" in capsys.readouterr().out
    with pytest.raises(BordspelError, match="no such file"):
        make_player(f"zero:model={tmp_path / 'nope.onnx'}", "hermit").step(start)


def test_without_onnxruntime_zero_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a)
    )
    assert "zero" not in offered_levels("hermit") and "medium" in offered_levels("hermit")


def test_zero_says_its_value_line_and_visits_through_the_engine() -> None:
    pytest.importorskip("onnxruntime")
    from bordspel.engine import SimpleEngine

    state = new_game("quarto").play("A")
    command = [sys.executable, "-m", "bordspel", "engine", "--game", "quarto", "--player", "zero"]
    with SimpleEngine.popen(command, timeout=60) as engine:
        lines = engine.analyse(state, Limit(nodes=32), multipv=3)
        played = engine.play(state, Limit(nodes=32))
    assert [info.multipv for info in lines] == [1, 2, 3]
    assert len({info.pv[0].to_str() for info in lines}) == 3 and all(state.is_legal(i.pv[0]) for i in lines)
    assert all(info.nodes == 32 and info.score is not None and info.score.cp is not None for info in lines)
    assert lines[0].pv[1:] and state.apply(lines[0].pv[0]).is_legal(lines[0].pv[1])
    assert played.info is not None and played.info.pv[0] == played.move


def test_zero_without_search_ranks_the_networks_likeliest_moves() -> None:
    pytest.importorskip("onnxruntime")
    state = new_game("quarto").play("A")
    player = make_player("zero:playouts=0", "quarto", seed=1)
    assert isinstance(player, Analyser)
    lines = player.analyse_lines(state, None, multipv=2)
    assert [line.multipv for line in lines] == [1, 2] and lines[0].move == player.step(state)
    assert lines[0].move != lines[1].move and lines[0].nodes == 0


def test_a_checkpoint_keeps_the_buffers_filled_rows_only() -> None:
    """Found by a researcher (issue 41): a 3-minute checkpoint was 88 MB, the whole buffer as
    allocated. It now holds the rows filled so far (each sample's legal actions, not a mask of
    the whole action space), and a buffer restored from them draws the same samples."""
    from bordspel.zero.replay import Buffer

    rng = np.random.default_rng(5)
    buffer = Buffer(10_000, (2, 3, 3))
    for length in (3, 1, 5):
        buffer.add(
            rng.random((2, 3, 3)), rng.choice(103_709, length), rng.random(length), float(rng.random())
        )
    saved = buffer.arrays()
    assert len(saved["planes"]) == len(saved["results"]) == 3 and len(saved["actions"]) == 9
    restored = Buffer(10_000, (2, 3, 3))
    restored.restore(saved)
    draws = [b.sample(8, np.random.default_rng(1)) for b in (buffer, restored)]
    assert all(np.array_equal(a, b) for a, b in zip(*draws))
    _planes, actions, shares, legal, _results = draws[0]
    assert actions.shape == shares.shape == legal.shape == (8, 5) and not shares[~legal].any()
    restored.add(rng.random((2, 3, 3)), np.array([7]), np.array([1.0]), 1.0)
    assert restored.size == 4 and restored.next == 4
    empty = Buffer(10, (2, 3, 3))
    empty.restore(Buffer(10, (2, 3, 3)).arrays())
    assert empty.size == 0 and len(empty.actions) == len(empty.shares) == 10


def test_the_actions_with_gods_are_scored_by_a_few_thousand_parts_that_tell_them_apart() -> None:
    """Santorini with gods has 103,709 actions: a network scores 2,315 parts, an action's logit
    the sum of its parts' (``Codec.action_parts``), and no two actions but Dionysus's ranked
    chains have the same parts."""
    from bordspel.games.santorini.codec import god_action_parts
    from bordspel.games.santorini.god_codec import FAMILIES

    parts = god_action_parts()
    start = new_game("santorini", gods="apollo,pan")
    assert codec_for("santorini", start).action_parts(start) is not None
    assert codec_for("santorini").action_parts(new_game("santorini")) is None
    assert parts.shape[0] == codec_for("santorini", start).num_actions(start) and parts.max() + 1 < 2_500
    assert (parts[:, 0] >= 0).all() and (np.diff((parts >= 0).astype(int), axis=1) <= 0).all()  # -1 last
    chains = 444 + FAMILIES["CHAIN"].offset
    distinct = {tuple(row) for row in parts[:chains].tolist()}
    assert len(distinct) == chains


@pytest.mark.slow
def test_a_network_with_parts_sums_them_and_exports_to_onnx(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from bordspel.zero.network import ZeroNet, export_onnx, shape_of
    from bordspel.zero.player import OnnxNetwork
    from bordspel.zero.search import policy_priors

    start = new_game("santorini", gods="hermes,atlas")
    encoder = encoder_of(start)
    parts = encoder.codec.action_parts(start)
    shape = shape_of(encoder, parts, width=8, blocks=1)
    net = ZeroNet(shape, parts).eval()
    assert sum(p.numel() for p in net.parameters()) < 500_000
    planes = torch.randn(3, *encoder.shape)
    chosen = [0, 443, 444, 50_000, len(parts) - 1]
    with torch.inference_mode():
        scores, _ = net(planes)
        logits = net.logits_at(scores, torch.tensor([chosen] * 3))
    sums = np.array([[scores[b, parts[a][parts[a] >= 0]].sum().item() for a in chosen] for b in range(3)])
    np.testing.assert_allclose(logits.numpy(), sums, atol=1e-5)
    masks = np.zeros((3, len(parts)), np.bool_)
    masks[:, chosen] = True
    priors = policy_priors(scores.numpy(), masks, net.table)
    expected = np.exp(sums - sums.max(axis=1, keepdims=True))
    np.testing.assert_allclose(priors[:, chosen], expected / expected.sum(axis=1, keepdims=True), atol=1e-5)
    assert priors.sum(axis=1) == pytest.approx(1) and not priors[~masks].any()
    path = tmp_path / "gods.onnx"
    export_onnx(net, path, {"game": "santorini", "options": start.options()})
    assert path.stat().st_size < 1_500_000
    network = OnnxNetwork(path)
    network.score_parts(parts)
    ours, _ = network.session.run(None, {"planes": planes.numpy()})
    np.testing.assert_allclose(ours, scores.numpy(), atol=1e-4)
    with pytest.raises(BordspelError, match="scores 2315 parts of actions where this game's codec has none"):
        network.score_parts(None)


def test_a_run_with_random_gods_draws_a_pair_for_every_game() -> None:
    from bordspel.zero import option_plays
    from bordspel.zero.selfplay import Starts, opened

    start = new_game("santorini", gods="random", seed=1)
    starts = Starts(start, {"gods": "random"})
    assert starts.drawn and starts.options["gods"] == "random"
    assert Starts(start, {"gods": " RANDOM "}).options == starts.options
    named = Starts(new_game("santorini", gods="Apollo, Athena"), {"gods": "Apollo, Athena"})
    assert not named.drawn and named.options["gods"] == "apollo,athena"
    seeded = Starts(start, {"gods": "random", "seed": 1})
    assert not seeded.drawn and seeded.options == start.options()
    with pytest.raises(BordspelError, match="only with gods=random, not gods=simple"):
        Starts(new_game("santorini", gods="simple"), {"gods": "simple"})
    rng = random.Random(2)
    pairs = {opened(starts, 0, rng).powers.gods for _ in range(12)}
    assert len(pairs) > 6
    assert not Starts(new_game("santorini"), {}).drawn and not Starts(new_game("quarto"), {}).drawn
    assert option_plays("random", "apollo,pan") and not option_plays("random", None)
    assert not option_plays("apollo,pan", "athena,pan")


@pytest.mark.slow
def test_a_network_trained_on_random_gods_plays_every_pair_and_no_game_without_gods(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from bordspel.progress import ProgressLine
    from bordspel.zero.train import Settings, Trainer, pick_device

    settings = Settings(games=2, simulations=2, width=8, blocks=1, batch=16, opponents=(), buffer=500)
    start = new_game("santorini", gods="random", seed=3)
    trainer = Trainer(start, tmp_path, settings, pick_device("cpu"), {"gods": "random"})
    trainer.run(None, 1, ProgressLine(io.StringIO()))
    assert trainer.options["gods"] == "random" and data_name(start, trainer.options).count("godsrandom") == 1
    player = make_player(f"zero:model={tmp_path / 'network.onnx'},playouts=4", "santorini")
    for gods in ("hermes,atlas", "zeus,chaos"):
        state = new_game("santorini", gods=gods)
        while state.in_setup:
            state = state.apply(state.random_move(random.Random(1)))
        assert state.is_legal(player.step(state))
    with pytest.raises(BordspelError, match="trained on santorini with"):
        player.step(new_game("santorini"))


@pytest.mark.slow
def test_a_run_resumes_from_its_weights_alone_with_an_empty_buffer(tmp_path: Path) -> None:
    """A run kept in a repository keeps ``weights.pt`` (no replay buffer) and goes on from it."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from bordspel.progress import ProgressLine

    quiet = ProgressLine(io.StringIO())
    first = tiny_trainer(tmp_path)
    first.run(None, 1, quiet)
    assert (tmp_path / "weights.pt").stat().st_size < (tmp_path / "checkpoint.pt").stat().st_size
    (tmp_path / "checkpoint.pt").unlink()
    resumed = tiny_trainer(tmp_path)
    assert resumed.progress.rounds == 1 and resumed.buffer.size == 0 and first.buffer.size > 0
    for key, value in first.net.state_dict().items():
        assert torch.equal(value, resumed.net.state_dict()[key]), key
    resumed.run(None, 1, quiet)
    assert resumed.progress.rounds == 2 and resumed.buffer.size > 0


@pytest.mark.slow
def test_a_run_stopped_by_sigterm_saves_itself_in_self_play_and_keeps_its_last_checkpoint_in_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    import os
    import signal

    from bordspel.progress import ProgressLine
    from bordspel.stopping import Stopped

    quiet = ProgressLine(io.StringIO())
    trainer = tiny_trainer(tmp_path)
    trainer.run(None, 1, quiet)
    (tmp_path / "weights.pt").unlink()
    before = signal.getsignal(signal.SIGTERM)  # another library's (Ray's) in a long test session
    for phase in ("self_play", "learn"):
        monkeypatch.setattr(trainer, phase, lambda *_: os.kill(os.getpid(), signal.SIGTERM))
        with pytest.raises(Stopped):
            trainer.run(None, 1, quiet)
        monkeypatch.undo()
        assert signal.getsignal(signal.SIGTERM) == before
        assert (tmp_path / "weights.pt").exists() == (phase == "self_play")
        (tmp_path / "weights.pt").unlink(missing_ok=True)
    assert trainer.saved_rounds == 1 and tiny_trainer(tmp_path).progress.rounds == 1
