"""Stable numbered ids of god turns, and the god identities of the RL observation (no NumPy here).

A god turn (a turn that is not one step and one build next to it: any :class:`GodTurn`, and a
Turn of Hermes's long move, Zeus's build under himself or Selene's far build) gets an id below
:data:`GOD_TURNS` that depends only on the turn and the workers of the position: not on the
other legal turns, so the same turn has the same id in every version of the engine.

The id is read from what the turn does: the moving worker (0 or 1, its place among the mover's
workers), where it ends, the spots of its builds around a square, forced and extra moves. The
first of the :data:`FAMILIES` that fits the turn gives the id: the family's offset plus its
fields read as digits. The Santorini page ("God-turn ids") has the table and an example, for
decoding ids without this code. Only CHAIN (Dionysus's turns of two or more extra turns) numbers
turns by their rank among the position's such turns. The bound is 103,265 ids. Gods are
numbered 1-30 in the order of ``GODS`` (0: none).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from bordspel.core import BordspelError
from bordspel.games.santorini import generator
from bordspel.games.santorini.board import NEIGHBOURS, STEPS
from bordspel.games.santorini.engine import Placement, SantoriniState, Turn
from bordspel.games.santorini.gods import GODS
from bordspel.games.santorini.turns import actions_of

__all__ = [
    "FAMILIES",
    "GOD_NUMBER",
    "GOD_TURNS",
    "Family",
    "god_planes",
    "god_turn_at",
    "god_turn_id",
    "id_fields",
    "is_step_turn",
    "legal_god_turn_id",
]

GOD_NUMBER = {name: number for number, name in enumerate(GODS, 1)}


def _bags(spots: int, sizes: range) -> dict[tuple[int, ...], int]:
    bags = [bag for m in sizes for bag in combinations_with_replacement(range(spots), m)]
    return {bag: index for index, bag in enumerate(bags)}


STEP_BAGS = _bags(9, range(5))
"""The sorted spots (0-8) of 0-4 blocks around a square, numbered (715 of them)."""
POSEIDON_BAGS = _bags(8, range(1, 4))
"""The sorted spots (0-7) of 1-3 blocks around a square, numbered (164 of them)."""


class Family(NamedTuple):
    """A block of god-turn ids: its name, its first id, and the size of each field (the id is
    the offset plus the fields read as digits of these sizes, the first field the highest)."""

    name: str
    offset: int
    fields: tuple[tuple[str, int], ...]

    @property
    def size(self) -> int:
        """The number of ids of the family."""
        return functools.reduce(lambda total, field: total * field[1], self.fields, 1)

    def id_of(self, values: tuple[int, ...]) -> int:
        """The id of these field values."""
        number = 0
        for (name, size), value in zip(self.fields, values, strict=True):
            if not 0 <= value < size:
                raise BordspelError(f"god-turn field {name} of {self.name} is 0-{size - 1}, not {value}")
            number = number * size + value
        return self.offset + number

    def values(self, number: int) -> dict[str, int]:
        """The field values of an id of this family."""
        rest = number - self.offset
        found = {}
        for name, size in reversed(self.fields):
            rest, found[name] = divmod(rest, size)
        return dict(reversed(found.items()))


_LAYOUT: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("ZERO", (("cell", 25), ("kind", 2))),
    ("STEP", (("k", 2), ("d", 8), ("bag", len(STEP_BAGS) + 8))),
    ("ONE", (("k", 2), ("cell", 25), ("build", 51))),
    ("PRE", (("k", 2), ("p", 8), ("d", 8), ("b", 9))),
    ("FORCE", (("k", 2), ("f", 8), ("d", 8), ("b", 9))),
    ("REMOVE", (("k", 2), ("d", 8), ("b", 8), ("r", 8))),
    ("POSEIDON", (("k", 2), ("d", 8), ("b", 8), ("bag", len(POSEIDON_BAGS)))),
    ("EXTRA", (("k", 2), ("d", 8), ("b", 8), ("r", 4), ("e", 8), ("c", 8))),
    ("HERMES2", (("cell0", 25), ("cell1", 25), ("build", 25))),
    ("CHAIN", (("rank", 16384),)),
)


def _families() -> dict[str, Family]:
    families, offset = {}, 0
    for name, fields in _LAYOUT:
        families[name] = Family(name, offset, fields)
        offset += families[name].size
    return families


FAMILIES = _families()
"""The families of god-turn ids by name, in the order of their offsets (see the module docstring)."""
GOD_TURNS = sum(family.size for family in FAMILIES.values())
"""The number of god-turn ids: 103,265."""


def is_step_turn(move: Any) -> bool:
    """Whether ``move`` is one step and a build next to the target (the base actions' shape)."""
    if not isinstance(move, Turn) or not NEIGHBOURS[move.source] >> move.target & 1:
        return False
    return move.build is None or bool(NEIGHBOURS[move.target] >> move.build & 1)


class _Summary(NamedTuple):
    """What a turn does: the net moves of the pieces (slot, start, end), its builds and removals,
    and the order of its actions' kinds (``m`` own move, ``r`` opponent move, ``b`` build, ``x``
    removal)."""

    own: list[tuple[int, int, int]]
    rivals: list[tuple[int, int, int]]
    builds: list[tuple[int, int]]
    removals: list[int]
    order: str


class _At(NamedTuple):
    """What a god turn's id reads of its position: the workers and the mover's colour."""

    workers: tuple[int, ...]
    colour: int


def _summary(at: _At, move: Any) -> _Summary:
    colour = at.colour
    where = {cell: slot for slot, cell in enumerate(at.workers) if cell >= 0}
    starts: dict[int, int] = {}
    builds: list[tuple[int, int]] = []
    removals: list[int] = []
    order = ""
    for action in actions_of(move):
        if action.kind == "move":
            slot = where.pop(action.source)
            starts.setdefault(slot, action.source)
            where[action.target] = slot
            order += "m" if slot // 2 == colour else "r"
        elif action.kind == "remove":
            removals.append(action.target)
            order += "x"
        else:
            builds.append((action.target, int(action.kind == "dome")))
            order += "b"
    ends = {slot: cell for cell, slot in where.items()}
    moved = sorted((slot, start, ends[slot]) for slot, start in starts.items() if ends[slot] != start)
    own = [entry for entry in moved if entry[0] // 2 == colour]
    rivals = [entry for entry in moved if entry[0] // 2 != colour]
    return _Summary(own, rivals, builds, removals, order)


def _spot(centre: int, cell: int, with_centre: bool = False) -> int:
    """The spot of ``cell`` around ``centre``: its direction 0-7, 8 for the centre itself (-1: none)."""
    if with_centre and cell == centre:
        return 8
    return STEPS[centre].index(cell) if cell in STEPS[centre] else -1


def _fits(values: tuple[int, ...]) -> tuple[int, ...] | None:
    return None if min(values, default=0) < 0 else values


def _zero(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if s.own or s.rivals or s.removals or len(s.builds) != 1:
        return None
    return s.builds[0]


def _one_step(at: _At, s: _Summary) -> tuple[int, int, int] | None:
    """The worker (0 or 1), step direction and new square of the one own step of a turn."""
    if len(s.own) != 1 or s.rivals or s.removals:
        return None
    slot, start, end = s.own[0]
    d = _spot(start, end)
    return None if d < 0 else (slot % 2, d, end)


def _step(at: _At, s: _Summary) -> tuple[int, ...] | None:
    stepped = _one_step(at, s)
    if stepped is None or "b" in s.order.split("m")[0]:
        return None
    k, d, end = stepped
    spots = tuple(sorted(_spot(end, cell, with_centre=True) for cell, _ in s.builds))
    kinds = [kind for _, kind in s.builds]
    if -1 in spots:
        return None
    if not any(kinds) and spots in STEP_BAGS:
        return k, d, STEP_BAGS[spots]
    if kinds == [1] and spots[0] < 8:
        return k, d, len(STEP_BAGS) + spots[0]
    return None


def _one(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if len(s.own) != 1 or s.rivals or s.removals or len(s.builds) > 1 or s.order.startswith("b"):
        return None
    build = 1 + s.builds[0][0] * 2 + s.builds[0][1] if s.builds else 0
    return s.own[0][0] % 2, s.own[0][2], build


def _won_or_built(end: int, s: _Summary, first: int) -> int:
    """The spot of the one block from ``s.builds[first]`` on around ``end``; 8 when there is none
    (the move won); -1 for anything else."""
    rest = s.builds[first:]
    if not rest:
        return 8
    return _spot(end, rest[0][0]) if len(rest) == 1 and not rest[0][1] else -1


def _pre(at: _At, s: _Summary) -> tuple[int, ...] | None:
    stepped = _one_step(at, s)
    if stepped is None or s.order not in ("bm", "bmb") or s.builds[0][1]:
        return None
    k, d, end = stepped
    start = s.own[0][1]
    return _fits((k, _spot(start, s.builds[0][0]), d, _won_or_built(end, s, 1)))


def _force(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if len(s.own) != 1 or len(s.rivals) != 1 or s.order not in ("rm", "rmb"):
        return None
    _, start, end = s.own[0]
    f = _spot(start, s.rivals[0][1])
    if f < 0 or STEPS[start][(f + 4) % 8] != s.rivals[0][2]:
        return None
    return _fits((s.own[0][0] % 2, f, _spot(start, end), _won_or_built(end, s, 0)))


def _other_worker(at: _At, k: int) -> int:
    """The cell of the mover's other worker (not ``k``)."""
    return at.workers[2 * at.colour + 1 - k]


def _remove(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if len(s.own) != 1 or s.rivals or s.order != "mbx" or s.builds[0][1]:
        return None
    _, start, end = s.own[0]
    k = s.own[0][0] % 2
    other = _other_worker(at, k)
    return _fits((k, _spot(start, end), _spot(end, s.builds[0][0]), _spot(other, s.removals[0])))


def _poseidon(at: _At, s: _Summary) -> tuple[int, ...] | None:
    stepped = _one_step(at, s)
    if stepped is None or not s.order.startswith("mbb") or any(kind for _, kind in s.builds):
        return None
    k, d, end = stepped
    other = _other_worker(at, k)
    spots = tuple(sorted(_spot(other, cell) for cell, _ in s.builds[1:]))
    if -1 in spots or spots not in POSEIDON_BAGS:
        return None
    return _fits((k, d, _spot(end, s.builds[0][0]), POSEIDON_BAGS[spots]))


def _extra(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if len(s.own) != 1 or len(s.rivals) != 1 or s.order != "mbrb" or any(kind for _, kind in s.builds):
        return None
    slot, start, end = s.own[0]
    other, rival_start, rival_end = s.rivals[0]
    r = [i for i in range(len(at.workers)) if i // 2 != at.colour].index(other)
    spots = (_spot(start, end), _spot(end, s.builds[0][0]))
    rival = (_spot(rival_start, rival_end), _spot(rival_end, s.builds[1][0]))
    return _fits((slot % 2, *spots, r, *rival))


def _hermes(at: _At, s: _Summary) -> tuple[int, ...] | None:
    if len(s.own) != 2 or s.rivals or s.removals or len(s.builds) != 1 or s.builds[0][1]:
        return None
    cell0, cell1 = (end for _, _, end in sorted(s.own))
    return cell0, cell1, s.builds[0][0]


Reader = Callable[[_At, _Summary], "tuple[int, ...] | None"]

_READERS: dict[int, tuple[tuple[str, Reader], ...]] = {
    0: (("ZERO", _zero),),
    1: (
        ("STEP", _step),
        ("ONE", _one),
        ("PRE", _pre),
        ("FORCE", _force),
        ("REMOVE", _remove),
        ("POSEIDON", _poseidon),
        ("EXTRA", _extra),
    ),
    2: (("HERMES2", _hermes),),
}
"""The families' readers in the order of the families, by the number of the mover's workers that
a turn of the family moves (each reader reads only turns that move that many)."""


def god_turn_id(state: SantoriniState, move: Any) -> int:
    """The stable id (below ``GOD_TURNS``) of a legal god turn in ``state`` (see the module
    docstring); BordspelError for a turn that is not legal there."""
    if not _is_god_turn(move) or not state.is_legal(move):
        raise BordspelError(f"{move.to_str()} is not a legal god turn here: it has no id")
    return legal_god_turn_id(state, move)


def legal_god_turn_id(state: SantoriniState, move: Any) -> int:
    """:func:`god_turn_id` of a god turn known to be legal in ``state`` (not checked again)."""
    number = _family_id(state, move)
    return _table(state)[0][move] if number is None else number  # CHAIN: by rank among the position's


def _is_god_turn(move: Any) -> bool:
    return not isinstance(move, Placement) and not is_step_turn(move)


def god_turn_at(state: SantoriniState, number: int) -> Any | None:
    """The legal god turn with that id in ``state``, None when there is none."""
    return _table(state)[1].get(number)


def id_fields(number: int) -> tuple[str, dict[str, int]]:
    """The family of a god-turn id and its field values (no position needed)."""
    for family in FAMILIES.values():
        if family.offset <= number < family.offset + family.size:
            return family.name, family.values(number)
    raise BordspelError(f"a god-turn id is 0-{GOD_TURNS - 1}, not {number}")


def _table(state: SantoriniState) -> tuple[dict[Any, int], dict[int, Any]]:
    """The ids of the position's god turns, and the turns by id. Turns that fit no family
    (CHAIN) are numbered by their rank in the order of their text."""
    return _table_listed(state, state.workers)


@functools.lru_cache(maxsize=256)
def _table_listed(state: SantoriniState, listed: tuple[int, ...]) -> tuple[dict[Any, int], dict[int, Any]]:
    """:func:`_table`, cached by the position and its workers as listed: positions equal but for
    the order a colour's workers are listed in have turns of their own (``generator.table``)."""
    ids: dict[Any, int] = {}
    unfit = []
    for move in state.legal_moves():
        if not _is_god_turn(move):
            continue
        number = _family_id(state, move)
        if number is None:
            unfit.append(move)
        else:
            ids[move] = number
    for rank, move in enumerate(sorted(unfit, key=lambda m: m.to_str())):
        ids[move] = FAMILIES["CHAIN"].id_of((rank,))
    return ids, {number: move for move, number in ids.items()}


def _family_id(state: SantoriniState, move: Any) -> int | None:
    """The id of the first family that ``move`` (a legal turn) fits, None when it fits none."""
    return _family_id_at(_At(state.workers, state.colour_of(state.turn)), move)


@functools.lru_cache(maxsize=1 << 16)
def _family_id_at(at: _At, move: Any) -> int | None:
    """:func:`_family_id`, by what it reads of the position (positions of a search share many)."""
    summary = _summary(at, move)
    for name, read in _READERS.get(len(summary.own), ()):
        values = read(at, summary)
        if values is not None:
            return FAMILIES[name].id_of(values)
    return None


def god_planes(state: SantoriniState, seat: int) -> list[int]:
    """Per seat from ``seat`` on in turn order: its god's number and the power it plays now
    (Chaos's face-up card, Circe's taken one, 0 when Circe took it); then 1 while an opponent's
    Athena forbids ``seat`` to move up."""
    if state.powers is None:
        return []
    played = generator.effective_gods(state, state.powers.memos)
    values = []
    for offset in range(state.players):
        other = (seat + offset) % state.players
        values.append(GOD_NUMBER.get(state.powers.gods[other], 0))
        values.append(GOD_NUMBER.get(played[other].name, 0))
    athena = any(
        state.powers.gods[s] == "athena" and state.powers.up >> s & 1
        for s in range(state.players)
        if state.colour_of(s) != state.colour_of(seat)
    )
    return [*values, int(athena)]
