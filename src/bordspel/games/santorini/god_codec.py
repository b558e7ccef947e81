"""The RL encoding of god turns and god identities (no NumPy here: the codec adds the planes).

A god turn that is not one step and one build next to it (any :class:`GodTurn`, and a Turn of
Hermes's long move or Zeus's build under himself) is action ``GOD_ACTIONS + rank``: ``rank`` is
its place among the position's such turns sorted by their text, below ``GOD_TURNS``. Gods are
numbered 1-30 in the order of ``GODS`` (0: none).
"""

from __future__ import annotations

import functools
from typing import Any

from bordspel.games.santorini import generator
from bordspel.games.santorini.board import NEIGHBOURS
from bordspel.games.santorini.engine import SantoriniState, Turn
from bordspel.games.santorini.gods import GODS

__all__ = ["GOD_NUMBER", "GOD_TURNS", "god_planes", "god_turn_at", "god_turn_rank", "is_step_turn"]

GOD_TURNS = 16384
"""Room for the god turns of one position (the most seen in random games is under 10,000)."""
GOD_NUMBER = {name: number for number, name in enumerate(GODS, 1)}


def is_step_turn(move: Any) -> bool:
    """Whether ``move`` is one step and a build next to the target (the base actions' shape)."""
    if not isinstance(move, Turn) or not NEIGHBOURS[move.source] >> move.target & 1:
        return False
    return move.build is None or bool(NEIGHBOURS[move.target] >> move.build & 1)


@functools.lru_cache(maxsize=256)
def _ranked(state: SantoriniState) -> tuple[list[Any], dict[Any, int]]:
    turns = sorted((m for m in state.legal_moves() if not is_step_turn(m)), key=lambda m: m.to_str())
    return turns, {move: rank for rank, move in enumerate(turns)}


def god_turn_rank(state: SantoriniState, move: Any) -> int:
    """The rank of a legal god turn (KeyError for another move)."""
    rank = _ranked(state)[1][move]
    if rank >= GOD_TURNS:
        raise KeyError(move)
    return rank


def god_turn_at(state: SantoriniState, rank: int) -> Any | None:
    """The legal god turn of that rank, None when there is none (the inverse of ``god_turn_rank``)."""
    turns = _ranked(state)[0]
    return turns[rank] if 0 <= rank < len(turns) else None


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
