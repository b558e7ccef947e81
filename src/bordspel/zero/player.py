"""The ``zero`` player: a network trained by ``bordspel train``, run by onnxruntime (no PyTorch),
with batched PUCT search (``bordspel.zero.search``) or without (``playouts=0``: the network's
likeliest move).

``make_player("zero", game)`` uses the network shipped for the game and its options
(``bordspel/zero/data/NAME.onnx``, :func:`bordspel.zero.data_name`); ``zero:model=PATH`` any
other (a run's ``network.onnx``). Options: ``playouts`` (searched leaves a move, default 200),
``time`` (seconds a move at most), ``gumbel`` (the root moves sequential halving considers,
``SequentialHalving``, without the Gumbel noise that self-play explores with; 0, the default:
PUCT at the root, the most visited move).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bordspel.ai.players import SearchesInRounds
from bordspel.ai.search import Limit, SearchResult
from bordspel.core import BordspelError, State
from bordspel.rl.codecs import codec_for
from bordspel.zero import data_name, option_plays, shipped_for
from bordspel.zero.search import (
    Encoder,
    Floats,
    Node,
    SearchSettings,
    Table,
    batched_search,
    evaluate_nodes,
    part_count,
    part_table,
    policy_priors,
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
        self.path = path
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        metadata = self.session.get_modelmeta().custom_metadata_map
        self.game: str = json.loads(metadata["game"])
        self.options: dict[str, Any] = json.loads(metadata["options"])
        self.scored: int = json.loads(metadata.get("shape", "{}")).get("parts", 0)
        self.table: Table | None = None

    def score_parts(self, parts: Table | None) -> None:
        """Read the policy as scores of the codec's ``parts`` (None: of its actions); refused when
        the network scores another number of parts."""
        wanted = part_count(parts)
        if self.scored != wanted:
            raise BordspelError(
                f"{self.path} scores {self.scored or 'no'} parts of actions where this game's codec has "
                f"{wanted or 'none'}: it was made for another version of the codec; train it anew"
            )
        self.table = part_table(parts)

    def evaluate(self, planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        """The search's evaluator: priors over the legal actions and values."""
        scores, values = self.session.run(None, {"planes": planes})
        return policy_priors(scores, masks, self.table), np.asarray(values, dtype=np.float32)


class ZeroPlayer(SearchesInRounds):
    """Plays the most visited move of a search guided by the network, or with ``gumbel`` the
    move Gumbel sequential halving chooses (see the module docstring)."""

    def __init__(
        self,
        model: Path | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        time_limit: float | None = None,
        seed: int | None = None,
        gumbel: int = 0,
    ) -> None:
        self.name = "zero"
        self.model, self.playouts, self.time_limit, self.gumbel = model, playouts, time_limit, gumbel
        self.rng = np.random.default_rng(seed)
        self.networks: dict[str, tuple[OnnxNetwork, Encoder]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**vars(self), "networks": {}}  # a session does not pickle: opened again where used

    def step(self, state: State) -> Any:
        """The most visited move after the search (the network's likeliest with ``playouts=0``)."""
        return self.analyse(state).move

    def analyse_lines(
        self,
        state: State,
        limit: Limit | None = None,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
    ) -> list[SearchResult]:
        """The ``multipv`` most visited root moves (among ``root_moves`` when given), best first,
        each with its mean value x 100 as the score, the root's visits as nodes and its most
        visited line as principal variation (``playouts=0``: the network's likeliest, its value
        as every line's score). ``limit``'s nodes are the playouts, its time a bound; a depth is
        not a budget of this search."""
        started = time.perf_counter()
        root = self._searched(state, limit, root_moves)
        seconds = time.perf_counter() - started
        ranks = np.argsort(-(root.visits if root.visits.any() else root.priors), kind="stable")
        if root.halving is not None:  # its choice first, the other moves by visits
            ranks = np.array([root.best(), *(int(i) for i in ranks if i != root.best())])
        visits = int(root.visits.sum())
        lines = []
        for rank, index in enumerate(ranks[: max(1, multipv)], 1):
            line = _principal_line(root, int(index))
            score = 100 * (root.totals[index] / root.visits[index] if root.visits[index] else root.totals[0])
            lines.append(SearchResult(line[0], float(score), len(line), visits, seconds, line, multipv=rank))
        return lines

    def _searched(self, state: State, limit: Limit | None, root_moves: Sequence[Any] | None) -> Node:
        """The root of the search of ``state`` within ``limit`` (the player's own budget by
        default), among ``root_moves`` when given."""
        network, encoder = self._network(state)
        root = Node(state, encoder)
        if root.outcome is not None:
            raise BordspelError("the game is over: there is no move to make")
        if root_moves is not None:
            root.keep_only(root_moves)
        playouts = self.playouts if limit is None or limit.nodes is None else limit.nodes
        seconds = self.time_limit if limit is None or limit.time is None else limit.time
        if playouts <= 0:
            priors, values = evaluate_nodes([root], encoder, network.evaluate)
            root.priors = priors[0].astype(np.float64)
            root.totals[:] = float(values[0])  # the network's value, for the score
            return root
        deadline = None if seconds is None else time.monotonic() + seconds
        settings = SearchSettings(simulations=playouts, gumbel=self.gumbel, gumbel_scale=0.0)  # its best
        batched_search([root], encoder, network.evaluate, settings, self.rng, deadline)
        return root

    def _network(self, state: State) -> tuple[OnnxNetwork, Encoder]:
        """The network for ``state``'s game and options (each file opened once)."""
        key = data_name(state)
        if key not in self.networks:
            path = self._path(state, key)
            opened = [network for network, _ in self.networks.values() if network.path == path]
            network = opened[0] if opened else OnnxNetwork(path)
            mismatch = _mismatch(network, state)
            if mismatch:
                raise BordspelError(f"{path} was trained on {mismatch}")
            codec = codec_for(state.name, state)
            network.score_parts(codec.action_parts(state))
            self.networks[key] = network, Encoder(codec, state)
        return self.networks[key]

    def _path(self, state: State, key: str) -> Path:
        """The network file for ``state``: ``model``, else the one shipped for its options."""
        if self.model is not None and not self.model.exists():
            raise BordspelError(f"zero:model={self.model}: there is no such file")
        path = self.model or shipped_for(state)
        if path is None:
            raise BordspelError(
                f"no zero network for {key}: train one with bordspel train (docs/training.md) "
                "and give it as zero:model=PATH"
            )
        return path


def _principal_line(root: Node, index: int) -> list[Any]:
    """Root move ``index``, then the most visited move of each position searched after it."""
    line, node = [root.moves[index]], root.children[index]
    while node is not None and node.visits.any():
        best = int(np.argmax(node.visits))
        line.append(node.moves[best])
        node = node.children[best]
    return line


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
        key
        for key in network.options.keys() | here.keys()
        if not option_plays(network.options.get(key), here.get(key))
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
