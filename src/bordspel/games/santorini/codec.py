"""The RL action codec and observation planes of Santorini.

(5 x 5, 444 actions: 0-299 the setup pairs of squares in ``itertools.combinations``
order; 300-427 ``300 + (worker * 8 + move) * 8 + build`` for a turn of the first or second of
the mover's workers, with the directions N NE E SE S SW W NW; 428-443 ``428 + worker * 8 + move``
for a winning move, which builds nothing; with gods, 444 + 103,265 actions: any other turn (a
GodTurn, Hermes's long move, Zeus's build under himself) is ``444 + id``, its stable god-turn id,
which depends on the turn alone (see ``god_codec`` and the Santorini page))
    planes 0-4: tower height 0, 1, 2, 3, dome; then one plane per colour of workers, the
    observer's colour first and the others in seat order; then all ones during the setup. With
    gods, then per seat from the observer on: a plane filled with its god's number (1-30 in the
    order of ``GODS``) and one with the power it plays now (Chaos's card, Circe's), and a plane
    of ones while an opponent's Athena forbids the observer to move up.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from bordspel.core import State
from bordspel.games.santorini.board import CELLS, STEPS, height
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.god_codec import (
    FAMILIES,
    GOD_NUMBER,
    GOD_TURNS,
    god_planes,
    god_turn_at,
    god_turn_id,
    is_step_turn,
    legal_god_turn_id,
)
from bordspel.rl.codecs import Codec, Planes, mask_planes

__all__ = ["CODEC", "SantoriniCodec"]


PAIRS = list(combinations(range(CELLS), 2))
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
TURNS, WINS, GODS_AT = 300, 428, 444


class SantoriniCodec(Codec):
    """Santorini's actions (setup pairs, worker-move-build turns, winning moves, and with gods
    the other turns by their stable ids) and its planes of towers, workers and gods (see the
    module docstring)."""

    def num_actions(self, start: State) -> int:
        assert isinstance(start, SantoriniState)
        return GODS_AT if start.powers is None else GODS_AT + GOD_TURNS

    def encode(self, state: State, move: Any) -> int:
        return self._action(state, move, god_turn_id)

    def encode_legal(self, state: State, moves: Sequence[Any]) -> list[int]:
        return [self._action(state, move, legal_god_turn_id) for move in moves]

    @staticmethod
    def _action(state: State, move: Any, god_id: Callable[[SantoriniState, Any], int]) -> int:
        """The action of ``move``, a god turn's by ``god_id``."""
        assert isinstance(state, SantoriniState)
        if isinstance(move, Placement):
            return int(PAIR_INDEX[(move.first, move.second)])
        if not is_step_turn(move):
            return GODS_AT + god_id(state, move)
        worker: int = state.my_workers().index(move.source)
        step: int = STEPS[move.source].index(move.target)
        if move.build is None:
            return WINS + worker * 8 + step
        build: int = STEPS[move.target].index(move.build)
        return TURNS + (worker * 8 + step) * 8 + build

    def decode(self, state: State, action: int) -> Any:
        assert isinstance(state, SantoriniState)
        action = self.checked(state, action)
        if action < TURNS:
            return Placement(*PAIRS[action])
        if action >= GODS_AT:
            return god_turn_at(state, action - GODS_AT)
        if action >= WINS:
            worker, step = divmod(action - WINS, 8)
            build = None
        else:
            rest, build = divmod(action - TURNS, 8)
            worker, step = divmod(rest, 8)
        source = state.my_workers()[worker]
        target = STEPS[source][step] if source >= 0 else -1
        if target < 0:
            return None
        if build is None:
            return Turn(source, target, None)
        built = STEPS[target][build]
        return None if built < 0 else Turn(source, target, built)

    def action_parts(self, start: State) -> npt.NDArray[np.int64] | None:
        assert isinstance(start, SantoriniState)
        return None if start.powers is None else god_action_parts()

    def highest(self, start: State) -> int:
        assert isinstance(start, SantoriniState)
        return max(GOD_NUMBER.values()) if start.powers is not None else 1

    def observe(self, state: State, seat: int) -> Planes:
        assert isinstance(state, SantoriniState)
        heights = [height(state.levels, c) for c in range(CELLS)]
        planes = [sum(1 << c for c in range(CELLS) if heights[c] == level) for level in range(5)]
        mine = state.colour_of(seat)
        for colour in [mine, *(c for c in range(state.colours) if c != mine)]:
            planes.append(sum(1 << c for c in state.workers[2 * colour : 2 * colour + 2] if c >= 0))
        planes.append((1 << CELLS) - 1 if state.in_setup else 0)
        stacked = [mask_planes(m, 5, 5) for m in planes]
        stacked += [np.full((5, 5), value, dtype=np.int8) for value in god_planes(state, seat)]
        return np.stack(stacked, axis=-1)


@functools.cache
def god_action_parts() -> npt.NDArray[np.int64]:
    """The parts a network scores of the actions with gods (``Codec.action_parts``): each of the
    444 actions without gods is a part; a god turn's parts are read from its id's fields (see
    ``god_codec.FAMILIES``): its family's first two fields together (the worker and where it
    goes, mostly), then each other field alone, a field of more than ``PART_LIMIT`` values
    (Dionysus's ranks) one part for all its values."""
    columns = max(len(family.fields) for family in FAMILIES.values()) - 1
    parts = np.full((GODS_AT + GOD_TURNS, columns), -1, dtype=np.int64)
    parts[:GODS_AT, 0] = np.arange(GODS_AT)
    base = GODS_AT
    for family in FAMILIES.values():
        sizes = [size for _, size in family.fields]
        digits = np.unravel_index(np.arange(family.size), sizes)
        groups = [(digits[0], sizes[0])]
        if len(sizes) > 1:
            groups = [(digits[0] * sizes[1] + digits[1], sizes[0] * sizes[1])]
            groups += [(digits[i], sizes[i]) for i in range(2, len(sizes))]
        rows = GODS_AT + family.offset + np.arange(family.size)
        for column, (values, size) in enumerate(groups):
            parts[rows, column] = base + (values if size <= PART_LIMIT else 0)
            base += size if size <= PART_LIMIT else 1
    parts.setflags(write=False)  # made once and shared
    return parts


PART_LIMIT = 1024
"""The most values a field of a god-turn id scores one by one (:func:`god_action_parts`)."""

CODEC = SantoriniCodec()
