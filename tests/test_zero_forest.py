"""Self-play on batches of games: copying games out of and into a batch (the compiled Quarto
kernel against the Python reference), the array search of ``bordspel.zero.forest`` against the
engine's search, and the records of ``bordspel.zero.selfplay`` that the trainer reads."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from bordspel._native import load
from bordspel.core import State, new_game
from bordspel.rl.codecs import codec_for
from bordspel.zero.replay import symmetric_samples
from bordspel.zero.search import Encoder, Floats, Node, SearchSettings, batched_search, improved_policy

pytest.importorskip("gymnasium")

from bordspel.rl.vector import PythonBatch
from bordspel.zero.forest import BatchMaker, Forest, Positions, observation_shape, start_positions
from bordspel.zero.selfplay import (
    PlayedGame,
    PlaySettings,
    _drawn,
    batch_maker,
    engine_self_play,
    resigned,
    vector_self_play,
)

compiled = pytest.mark.skipif(load("quarto_playout") is None, reason="needs the compiled Quarto kernel")
MATES = ["XX./OO./...", "X.X/.O./O..", "OO./XX./..."]
"""Tic-tac-toe positions where X, to move, wins at once."""


class Network:
    """Every legal move as likely, every position worth ``value`` to its mover."""

    def __init__(self, value: float = 0.0) -> None:
        self.value = value

    def __call__(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        priors = masks / masks.sum(axis=1, keepdims=True)
        return priors.astype(np.float32), np.full(len(planes), self.value, np.float32)


def encoder_of(start: State) -> Encoder:
    return Encoder(codec_for(start.name, start), start)


def python_maker(start: State) -> BatchMaker:
    def make(count: int) -> Any:
        batch = PythonBatch(start, count, -1, None, start.options())
        batch.seed(list(range(count)))
        return batch

    return make


def makers(start: State) -> list[BatchMaker]:
    """The Python batch, and the compiled one where the game has one that copies its games."""
    compiled = batch_maker(start, compiled_only=True)
    return [python_maker(start)] + ([compiled] if compiled is not None else [])


def played_at_random(make: BatchMaker, count: int, start: State, plies: int, seed: int) -> Positions:
    positions = start_positions(make, count, encoder_of(start), start.num_players)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        positions.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in positions.masks]))
    return positions


def copied_and_stepped(make: BatchMaker, start: State) -> list[np.ndarray]:
    """Games copied out of a batch in another order, into another batch, then played on."""
    source = played_at_random(make, 5, start, 6, seed=2)
    target = played_at_random(make, 3, start, 1, seed=3)
    target.batch.copy_games(source.batch, np.array([4, 0, 2]), np.array([0, 1, 2]))
    target.masks[:] = source.masks[[4, 0, 2]]
    seen = []
    rng = np.random.default_rng(4)
    for _ in range(12):
        target.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in target.masks]))
        seen += [
            a.copy() for a in (target.obs, target.masks, target.rewards, target.terminated, target.to_move)
        ]
    return seen


@compiled
@pytest.mark.parametrize("game", ["quarto", "santorini"])
def test_the_compiled_batch_copies_its_games_as_the_python_batch_does(game: str) -> None:
    start = new_game(game)
    python, kernel = makers(start)
    for ours, reference in zip(copied_and_stepped(kernel, start), copied_and_stepped(python, start)):
        assert np.array_equal(ours, reference)


@compiled
def test_a_copied_game_is_the_same_position_and_refuses_rows_it_lacks() -> None:
    start = new_game("quarto")
    kernel = makers(start)[1]
    source = played_at_random(kernel, 4, start, 5, seed=1)
    store = start_positions(kernel, 8, encoder_of(start), 2)
    store.batch.copy_games(source.batch, np.array([3, 1]), np.array([6, 7]))
    store.batch.copy_games(store.batch, np.array([6, 7]), np.array([0, 2]))
    actions = np.zeros(8, np.int64)
    actions[[0, 2]] = [np.flatnonzero(source.masks[i])[0] for i in (3, 1)]
    store.step(actions)
    source.step(np.array([np.flatnonzero(m)[0] for m in source.masks]))
    assert np.array_equal(store.obs[[0, 2]], source.obs[[3, 1]])
    with pytest.raises(IndexError):
        store.batch.copy_games(source.batch, np.array([4]), np.array([0]))


def won_in_one(game: str, seed: int) -> State:
    """A position of random play where exactly one move wins at once."""
    rng = random.Random(seed)
    while True:
        state = new_game(game)
        while not state.is_over():
            if sum(wins(state, move) for move in state.legal_moves()) == 1:
                return state
            state = state.apply(state.random_move(rng))


def wins(state: State, move: Any) -> bool:
    """Whether ``move`` wins the game at once for the seat that plays it."""
    outcome = state.apply(move).outcome()
    return outcome is not None and outcome.winner == state.to_move


def forest_best(state: State, make: BatchMaker, settings: SearchSettings, seed: int) -> Any:
    """The move the array search plays from ``state``: Gumbel's choice, or the most visited."""
    encoder = encoder_of(state)
    positions = start_positions(make, 2, encoder, 2)
    forest = Forest(make, 2, settings.simulations, observation_shape(encoder), encoder.actions, 2)
    roots = forest.search(positions, np.ones(2, np.bool_), Network(), settings, np.random.default_rng(seed))
    assert roots.visits.sum(axis=1).tolist() == [settings.simulations] * 2
    action = roots.chosen[0] if settings.gumbel else int(np.argmax(roots.visits[0]))
    return encoder.codec.decode(state, int(action))


@pytest.mark.parametrize("game, seed", [("quarto", 1), ("quarto", 7), ("tictactoe", 0)])
def test_the_array_search_finds_the_win_in_one_the_engines_search_finds(game: str, seed: int) -> None:
    state = won_in_one(game, seed)
    root = Node(state, encoder_of(state))
    settings = SearchSettings(simulations=300)
    batched_search([root], encoder_of(state), Network(), settings, np.random.default_rng(0))
    best = root.moves[int(np.argmax(root.visits))]
    assert wins(state, best)
    for make in makers(state):
        assert forest_best(state, make, settings, seed) == best


@pytest.mark.parametrize("text", MATES)
def test_gumbel_root_selection_in_the_array_search_finds_a_win_in_one(text: str) -> None:
    state = type(new_game("tictactoe")).from_str(text)
    move = forest_best(state, python_maker(state), SearchSettings(simulations=8, gumbel=16), 3)
    assert wins(state, move)


def self_play(start: State, make: BatchMaker, settings: PlaySettings, seed: int = 5) -> list[PlayedGame]:
    openings = [0, 1, 2, 3, 0, 2]
    return vector_self_play(
        start, make, openings, encoder_of(start), Network(), settings, np.random.default_rng(seed)
    )


def summary(games: list[PlayedGame]) -> list[Any]:
    return [
        (game.returns, [(r.state, r.moves, r.shares.tolist(), r.value) for r in game.records])
        for game in games
    ]


@pytest.mark.parametrize("game", ["quarto", "tictactoe"])
def test_self_play_records_legal_moves_the_trainer_reads(game: str) -> None:
    start = new_game(game)
    encoder = encoder_of(start)
    games = self_play(start, makers(start)[-1], PlaySettings(simulations=8))
    assert len(games) == 6
    for played in games:
        assert sorted(played.returns) in ([-1.0, 1.0], [0.0, 0.0])
        for record in played.records:
            assert sorted(map(str, record.moves)) == sorted(map(str, record.state.legal_moves()))
            assert record.shares.sum() == pytest.approx(1.0) and -1 <= record.value <= 1
        planes, actions, policy = symmetric_samples(played.records[-1], encoder, 2, random.Random(0))[0]
        assert np.array_equal(planes, encoder.planes(played.records[-1].state))
        assert len(set(actions.tolist())) == len(actions) and policy.sum() == pytest.approx(1)


@pytest.mark.parametrize("game", ["quarto", pytest.param("santorini", marks=pytest.mark.slow)])
def test_self_play_repeats_with_its_seed_and_the_compiled_batch_plays_as_the_reference(game: str) -> None:
    start = new_game(game)
    settings = PlaySettings(simulations=6, gumbel=4)
    python, *kernel = makers(start)
    reference = summary(self_play(start, python, settings))
    fastest = (kernel or [python])[0]
    for make in [*kernel, fastest]:
        assert summary(self_play(start, make, settings)) == reference
    assert summary(self_play(start, fastest, settings, seed=6)) != reference


def test_a_seat_that_values_its_position_lost_resigns() -> None:
    start = new_game("tictactoe")
    settings = PlaySettings(simulations=4, resign=0.5)
    encoder = encoder_of(start)
    # every position worth 0.9 to its mover: each move's value, seen from the seat that moves, is -0.9
    games = vector_self_play(
        start, python_maker(start), [0, 1], encoder, Network(0.9), settings, np.random.default_rng(0)
    )
    engine = engine_self_play([start], encoder, Network(0.9), settings, np.random.default_rng(0))
    for played in [*games, *engine]:
        (record,) = played.records
        assert played.returns[record.state.to_move] == -1.0 and record.value < -0.5
    assert resigned(-0.4, 0, settings) is None and resigned(-0.4, 1, PlaySettings()) is None


@pytest.mark.parametrize("game", ["quarto", "tictactoe"])
def test_a_codecs_decode_many_is_decode_one_by_one(game: str) -> None:
    rng = random.Random(2)
    state = new_game(game)
    codec = codec_for(game, state)
    while not state.is_over():
        actions = sorted(codec.encode(state, move) for move in state.legal_moves())
        assert codec.decode_many(state, actions) == [codec.decode(state, action) for action in actions]
        state = state.apply(state.random_move(rng))


@pytest.mark.slow
@pytest.mark.parametrize("vector", [True, False], ids=["vector", "engine"])
def test_a_training_round_on_quarto_stores_every_searched_position(tmp_path: Any, vector: bool) -> None:
    pytest.importorskip("torch")
    import io

    from bordspel.progress import ProgressLine
    from bordspel.zero.train import Settings, Trainer, pick_device

    settings = Settings(
        games=3, simulations=4, width=8, blocks=1, batch=16, opponents=(), buffer=500, augment=2, gumbel=4,
        resign=0.99, vector=vector,
    )  # fmt: skip
    trainer = Trainer(new_game("quarto"), tmp_path, settings, pick_device("cpu"))
    records = trainer.value_targets(trainer.self_play(ProgressLine(io.StringIO())))
    trainer.learn(records, ProgressLine(io.StringIO()))
    assert trainer.progress.games == 3 and trainer.buffer.size == 2 * len(records) > 0
    assert all(-1 <= target <= 1 for _, target in records)


def test_the_improved_policy_moves_the_priors_towards_the_better_searched_moves() -> None:
    priors = np.array([0.5, 0.3, 0.2])
    visits = np.array([4.0, 4.0, 0.0])
    totals = np.array([-2.0, 3.0, 0.0])  # mean values -0.5 and 0.75; the third completed at their mix
    policy = improved_policy(priors, visits, totals)
    assert policy.sum() == pytest.approx(1.0) and policy[1] > priors[1] and policy[0] < priors[0]
    assert policy[0] < policy[2] < policy[1]  # the mix, (0.5 * -0.5 + 0.3 * 0.75) / 0.8, lies between
    assert np.allclose(improved_policy(priors, np.zeros(3), np.zeros(3)), priors)


def test_gumbel_self_play_learns_the_improved_policy_not_the_visit_shares() -> None:
    start = new_game("tictactoe")
    games = self_play(start, python_maker(start), PlaySettings(simulations=8, gumbel=4))
    shares = [record.shares for game in games for record in game.records]
    assert all(share.sum() == pytest.approx(1.0) for share in shares)
    # every legal move keeps a share (from its prior), though only 4 were considered
    assert any(len(share) > 4 and np.count_nonzero(share) == len(share) for share in shares)


class UnevenNetwork:
    """A different prior for every action and a value that depends on the planes: no ties."""

    def __call__(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        weights = masks * np.linspace(1.0, 2.0, masks.shape[1])
        priors = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)
        flat = planes.reshape(len(planes), -1)
        values = np.tanh(flat @ np.sin(np.arange(flat.shape[1], dtype=np.float64)) / 3).astype(np.float32)
        return priors, values


@compiled
def test_the_array_search_keeps_the_played_moves_tree_and_visits_as_the_engines_search() -> None:
    rng, state = random.Random(3), new_game("quarto")
    for _ in range(9):
        state = state.apply(state.random_move(rng))
    encoder, network, settings = encoder_of(state), UnevenNetwork(), SearchSettings(simulations=160)
    root = Node(state, encoder)
    make = makers(state)[1]
    positions = start_positions(make, 1, encoder, 2)
    forest = Forest(make, 1, settings.simulations, observation_shape(encoder), encoder.actions, 2)
    reused = []
    for _ in range(3):
        batched_search([root], encoder, network, settings, np.random.default_rng(0))
        searched = forest.search(positions, np.ones(1, np.bool_), network, settings, np.random.default_rng(0))
        ours = {
            encoder.codec.decode(root.state, int(a)): searched.visits[0, a]
            for a in np.flatnonzero(searched.visits[0])
        }
        assert ours == {move: visits for move, visits in zip(root.moves, root.visits) if visits}
        reused.append(searched.visits.sum() > settings.simulations)
        index = int(np.argmax(root.visits))
        action = encoder.codec.encode(root.state, root.moves[index])
        root = root.child(index, encoder)
        positions.step(np.array([action]))
        forest.advance(np.array([0]), np.array([action]))
    assert reused[0] is np.False_ and any(reused)  # the tree of a move played is searched on


@compiled
def test_without_noise_both_self_plays_play_the_same_games_and_write_the_same_records() -> None:
    start = new_game("quarto")
    encoder, network = encoder_of(start), UnevenNetwork()
    settings = PlaySettings(simulations=12, noise=0.0, temperature_plies=0)
    rng = np.random.default_rng(0)
    engine = engine_self_play([start] * 2, encoder, network, settings, rng)
    vector = vector_self_play(start, makers(start)[1], [0, 0], encoder, network, settings, rng)

    def records(games: list[PlayedGame]) -> list[Any]:
        return [
            (
                game.returns,
                [(r.state, dict(zip(r.moves, r.shares.tolist())), round(r.value, 5)) for r in game.records],
            )
            for game in games
        ]

    assert records(vector) == records(engine) and len(engine[0].records) > 4


class CountedNetwork(UnevenNetwork):
    """:class:`UnevenNetwork`, counting the positions it values."""

    def __init__(self) -> None:
        self.valued = 0

    def __call__(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        self.valued += len(planes)
        return super().__call__(planes, masks)


@compiled
def test_the_array_search_values_a_kept_root_no_more_and_each_new_leaf_once() -> None:
    start = new_game("quarto")
    encoder, network, settings = encoder_of(start), CountedNetwork(), SearchSettings(simulations=24)
    make = makers(start)[1]
    positions = start_positions(make, 2, encoder, 2)
    forest = Forest(make, 2, settings.simulations, observation_shape(encoder), encoder.actions, 2)
    for move in range(3):
        before, made, kept = network.valued, forest.count.copy(), forest.kept.copy()
        searched = forest.search(positions, np.ones(2, np.bool_), network, settings, np.random.default_rng(0))
        leaves = sum(
            int((~forest.terminal[game, made[game] : forest.count[game]]).sum()) for game in range(2)
        )
        assert network.valued - before == leaves + 2 - kept.sum() and kept.all() == (move > 0)
        actions = searched.visits.argmax(axis=1)
        positions.step(actions)
        forest.advance(np.arange(2), actions)
        assert forest.kept.all()  # the next search goes on from the kept trees


def test_a_drawn_move_follows_its_weights() -> None:
    weights = np.tile(np.array([0.0, 1.0, 3.0, 0.0], np.float32), (20_000, 1))
    counts = np.bincount(_drawn(weights, np.random.default_rng(0)), minlength=4) / len(weights)
    assert counts[0] == counts[3] == 0 and counts[2] == pytest.approx(0.75, abs=0.01)


def test_root_noise_mixes_into_the_legal_priors_of_every_root_only() -> None:
    start = new_game("tictactoe")
    encoder, network = encoder_of(start), UnevenNetwork()
    positions = played_at_random(python_maker(start), 3, start, 2, seed=4)
    forest = Forest(python_maker(start), 3, 4, observation_shape(encoder), encoder.actions, 2)
    settings = SearchSettings(simulations=4, noise=0.25, alpha=0.3)
    roots = forest.search(positions, np.ones(3, np.bool_), network, settings, np.random.default_rng(1))
    legal = positions.masks.astype(np.bool_)
    clean, _ = network(positions.planes(np.arange(3)), legal)
    assert np.allclose(roots.priors.sum(axis=1), 1) and not roots.priors[~legal].any()
    moved = np.abs(roots.priors - clean).sum(axis=1)
    assert (moved > 0).all() and (moved <= 2 * settings.noise + 1e-6).all()
