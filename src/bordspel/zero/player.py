"""The ``zero`` player: a network trained by ``bordspel train``, run by onnxruntime (no PyTorch),
with batched PUCT search (``bordspel.zero.search``) or without (``playouts=0``: the network's
likeliest move).

``make_player("zero", game)`` uses the network shipped for the game and its options
(``bordspel/zero/data/NAME.onnx``, :func:`bordspel.zero.data_name`); ``zero:model=PATH`` any
other (a run's ``network.onnx``). Options: ``playouts`` (searched leaves a move, default 200),
``time`` (seconds a move at most).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bordspel.core import BordspelError, State
from bordspel.rl.codecs import codec_for
from bordspel.zero import DATA, data_name
from bordspel.zero.search import (
    Encoder,
    Floats,
    Node,
    SearchSettings,
    batched_search,
    evaluate_states,
    masked_softmax,
)

__all__ = ["DEFAULT_PLAYOUTS", "OnnxNetwork", "ZeroPlayer"]

DEFAULT_PLAYOUTS = 200


class OnnxNetwork:
    """An exported network in an onnxruntime session, with the game and options it was trained on."""

    def __init__(self, path: Path) -> None:
        try:
            import onnxruntime
        except ImportError:
            raise BordspelError("the zero player needs onnxruntime: pip install 'bordspel[zero]'") from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        metadata = self.session.get_modelmeta().custom_metadata_map
        self.game: str = json.loads(metadata["game"])
        self.options: dict[str, Any] = json.loads(metadata["options"])

    def evaluate(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        """The search's evaluator: priors over the legal actions and values."""
        logits, values = self.session.run(None, {"planes": planes})
        return masked_softmax(logits, masks), np.asarray(values, dtype=np.float32)


class ZeroPlayer:
    """Plays the most visited move of a search guided by the network (see the module docstring)."""

    def __init__(
        self,
        model: Path | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        time_limit: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.name = "zero"
        self.model, self.playouts, self.time_limit = model, playouts, time_limit
        self.rng = np.random.default_rng(seed)
        self.networks: dict[str, tuple[OnnxNetwork, Encoder]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**vars(self), "networks": {}}  # a session does not pickle: opened again where used

    def step(self, state: State) -> Any:
        """The most visited move after the search (the network's likeliest with ``playouts=0``)."""
        network, encoder = self._network(state)
        root = Node(state, encoder)
        if root.outcome is not None:
            raise BordspelError("the game is over: there is no move to make")
        if self.playouts <= 0:
            _, _, priors, _ = evaluate_states([state], encoder, network.evaluate)
            return root.moves[int(np.argmax(priors[0][root.actions]))]
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        settings = SearchSettings(simulations=self.playouts)
        batched_search([root], encoder, network.evaluate, settings, self.rng, deadline)
        return root.moves[int(np.argmax(root.visits))]

    def _network(self, state: State) -> tuple[OnnxNetwork, Encoder]:
        """The network for ``state``'s game and options (opened once)."""
        key = data_name(state)
        if key not in self.networks:
            path = self.model or DATA / f"{key}.onnx"
            if self.model and not path.exists():
                raise BordspelError(f"zero:model={path}: there is no such file")
            if not path.exists():
                raise BordspelError(
                    f"no zero network for {key}: train one with bordspel train (docs/training.md) "
                    "and give it as zero:model=PATH"
                )
            network = OnnxNetwork(path)
            mismatch = _mismatch(network, state)
            if mismatch:
                raise BordspelError(f"{path} was trained on {mismatch}")
            self.networks[key] = network, Encoder(codec_for(state.name, state), state)
        return self.networks[key]


def _plain(options: dict[str, Any]) -> dict[str, Any]:
    """Options as they read back from the network's metadata (JSON)."""
    return dict(json.loads(json.dumps(options, default=str)))


def _mismatch(network: OnnxNetwork, state: State) -> str | None:
    """How the game and options ``network`` was trained on differ from ``state``'s (None: they
    do not), e.g. ``quarto with advanced=false, not advanced=true``."""
    if network.game != state.name:
        return f"{network.game}, not {state.name}"
    here = _plain(state.options())
    differ = sorted(
        key for key in network.options.keys() | here.keys() if network.options.get(key) != here.get(key)
    )
    if not differ:
        return None
    theirs, ours = (
        ", ".join(f"{key}={_shown(options.get(key))}" for key in differ)
        for options in (network.options, here)
    )
    return f"{state.name} with {theirs}, not {ours}"


def _shown(value: Any) -> str:
    """An option's value as JSON (``none`` when it is not set), cut short past 24 characters."""
    text = "none" if value is None else json.dumps(value)
    return text if len(text) <= 24 else text[:23] + "…"
