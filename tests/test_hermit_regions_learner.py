"""benchmarks/hermit_regions_learner.py: a network that learns regions' Grundy values, and the
player that combines them by nim-sum."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import numpy as np
import pytest

from bordspel.core import new_game
from bordspel.games.hermit.grundy import GrundySolver


@pytest.mark.slow  # a few seconds; the README's loop stays under 3 minutes
def test_learns_regions_and_keeps_an_easy_win(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "benchmarks"))
    learner = importlib.import_module("hermit_regions_learner")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    core, grundy, rng = learner.solver_core(), GrundySolver(5), random.Random(3)
    state = new_game("hermit", size=5)
    while sum(m.bit_count() for m in learner.accepts(state)) > 20 or not grundy.value(state):
        state = state.apply(state.random_move(rng))
    data: dict[tuple[int, int, int], int] = {}
    learner.label(core, [state.apply_unchecked(m) for m in state.legal_moves()], 25, data)
    net = learner.RegionNet(max(data.values()) + 1, 64)
    learner.train(net, data, 0.05)
    forms = list(data)
    assert (learner.predict(net, forms)[0] == np.array([data[f] for f in forms])).all()
    assert learner.choose(state, core, net) in grundy.winning_moves(state)
