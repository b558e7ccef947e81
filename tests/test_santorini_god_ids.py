"""Stable god-turn ids: a function of the turn (and its position's workers), distinct within a
position, decoded back, pinned by examples, and documented where researchers read them."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from bordspel.core import BordspelError
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.god_codec import (
    FAMILIES,
    GOD_TURNS,
    god_turn_at,
    god_turn_id,
    id_fields,
    is_step_turn,
)
from bordspel.games.santorini.gods import GODS
from bordspel.games.santorini.turns import Placement
from bordspel.rl.codecs import codec_for

NAMES = sorted(GODS)
PAGE = Path(__file__).resolve().parent.parent / "docs" / "games" / "santorini.md"


def god_positions(god: str, seed: int, plies: int = 40) -> list[SantoriniState]:
    """Positions along a random game where ``god`` plays with 2, 3 or 4 players (by the seed)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    others = rng.sample([name for name in NAMES if name != god], players - 1)
    gods = [god, *others]
    rng.shuffle(gods)
    state = SantoriniState.initial(players=players, gods=",".join(gods), seed=seed)
    found = []
    for _ in range(plies):
        if state.is_over():
            break
        if not state.in_setup:
            found.append(state)
        state = state.apply(rng.choice(state.legal_moves()))
    return found


def god_turns(state: SantoriniState) -> list[object]:
    return [m for m in state.legal_moves() if not (isinstance(m, Placement) or is_step_turn(m))]


def check_position(state: SantoriniState) -> int:
    """Every god turn's id is in range, distinct, decodes back and reads as its family's fields,
    and the codec gives the legal moves together the actions it gives them one by one."""
    codec = codec_for("santorini", state)
    moves = state.legal_moves()
    assert codec.encode_legal(state, moves) == [codec.encode(state, move) for move in moves]
    ids = {}
    for move in god_turns(state):
        number = god_turn_id(state, move)
        assert 0 <= number < GOD_TURNS and number not in ids, (state.to_str(), move.to_str())
        ids[number] = move
        name, values = id_fields(number)
        assert FAMILIES[name].id_of(tuple(values.values())) == number
        assert god_turn_at(state, number) == move
    return len(ids)


@pytest.mark.parametrize("god", NAMES)
def test_every_god_turn_has_its_own_id_that_decodes_back(god: str) -> None:
    positions = god_positions(god, seed=NAMES.index(god), plies=24)[::3]
    assert positions
    for state in positions:
        check_position(state)


@pytest.mark.slow
@pytest.mark.parametrize("god", NAMES)
def test_every_god_turn_has_its_own_id_in_many_games(god: str) -> None:
    for seed in range(6):
        for state in god_positions(god, seed=100 + seed, plies=60):
            check_position(state)


PINS = [
    ("00001/00001/01000/10210/00021 workers=b5c3,a1c4 turn=1 players=2 gods=hermes,hera", "d4", 36),
    (
        "00110/10300/10001/00100/00000 workers=b4e3,b2d1 turn=1 players=2 gods=morpheus:1,hera",
        "e3d4+e5+e5",
        9483,
    ),
    (
        "00000/00000/01001/01112/02010 workers=e5b4,a1e3 turn=1 players=2 gods=triton,hera",
        "b4a3+a3b2+b3",
        13222,
    ),
    (
        "00100/00200/00211/10001/30200 workers=b4e4,b2d3 turn=1 players=2 gods=prometheus,hera",
        "a4+b4b5+b4",
        14636,
    ),
    (
        "00010/01010/01010/00001/10012 workers=a4d4,e2c3 turn=1 players=2 gods=charon,hermes",
        "c3e5+d4d3+d4",
        16404,
    ),
    (
        "00000/00000/01000/02010/01002 workers=b5d5,e3d2 turn=1 players=2 gods=ares,hermes",
        "b5c4+b3+-d4",
        16592,
    ),
    (
        "00110/10200/00222/01040/03111 workers=c4d5,b2d1 turn=1 players=2 gods=poseidon,hera",
        "d5e5+e4+b3+b5+d5",
        30756,
    ),
    (
        "01100/11300/20020/00000/00100 workers=b4b3,c1d2 turn=1 players=2 gods=dionysus,hera",
        "b3b2+c2+d2d1+e2",
        55451,
    ),
    (
        "00001/00001/01000/10210/00021 workers=b5c3,a1c4 turn=1 players=2 gods=hermes,hera",
        "b5e3+c3a2+d4",
        80149,
    ),
    (
        "00000/00000/00000/00000/00000 workers=b2d4,c3c4 turn=1 players=2 gods=atlas,pan",
        "b2b3+c2*",
        50 + 4 * 723 + 715 + 1,
    ),
    (
        "00000/00000/00000/00000/00000 workers=b2d4,c3c4 turn=1 players=2 gods=zeus,pan",
        "d4d5+d5",
        50 + 12 * 723 + 9,
    ),
]
"""(position, god turn, id): a change of numbering fails here. The last two are worked out from
the page's formula: Atlas's worker 0 steps S (4) and domes spot 1 (NE); Zeus's worker 1 steps S
and builds under itself, bag ``(8,)`` = 9."""


@pytest.mark.parametrize(("position", "turn", "number"), PINS, ids=[pin[1] for pin in PINS])
def test_the_ids_of_fixed_examples_stay(position: str, turn: str, number: int) -> None:
    state = SantoriniState.from_str(position)
    move = state.parse_move(turn)
    assert god_turn_id(state, move) == number and god_turn_at(state, number) == move
    codec = codec_for("santorini")
    assert codec.encode(state, move) == 444 + number and codec.decode(state, 444 + number) == move


def test_an_id_does_not_depend_on_the_other_legal_turns() -> None:
    """A far block takes turns away (and the old rank-by-text numbering shifted), not this id."""
    position, turn, number = PINS[1]
    state = SantoriniState.from_str(position)
    crowded = SantoriniState.from_str(position.replace("00110/10300", "44114/10300"))
    assert len(god_turns(crowded)) < len(god_turns(state))
    assert god_turn_id(crowded, crowded.parse_move(turn)) == number


def test_the_families_fill_the_id_space_and_the_page_gives_their_offsets() -> None:
    families = list(FAMILIES.values())
    assert families[0].offset == 0 and GOD_TURNS == families[-1].offset + families[-1].size == 103_265
    assert all(a.offset + a.size == b.offset for a, b in itertools.pairwise(families))
    rows = re.findall(r"^\| ([A-Z0-9]+) \| ([\d,]+) \| ([\d,]+) \|", PAGE.read_text(encoding="utf-8"), re.M)
    assert [
        (name, int(offset.replace(",", "")), int(size.replace(",", ""))) for name, offset, size in rows
    ] == [(f.name, f.offset, f.size) for f in families]
    assert codec_for("santorini").num_actions(SantoriniState.initial(gods="apollo,pan")) == 444 + GOD_TURNS


def test_ids_out_of_range_and_turns_that_are_not_legal_are_refused() -> None:
    state = SantoriniState.from_str(PINS[0][0])
    with pytest.raises(BordspelError, match="0-103264, not 103265"):
        id_fields(GOD_TURNS)
    with pytest.raises(BordspelError, match="field k of STEP is 0-1, not 2"):
        FAMILIES["STEP"].id_of((2, 0, 0))
    assert god_turn_at(state, 9483) is None
    chain = SantoriniState.from_str(
        "10040/12011/03131/14022/03111 workers=b1a4,c4e2 turn=2 players=2 gods=triton,dionysus"
    )
    with pytest.raises(BordspelError, match="c4c3\\+b3\\+b1c2 is not a legal god turn here"):
        god_turn_id(chain, chain.move_from_str("c4c3+b3+b1c2"))


def test_dionysus_chains_of_extra_turns_are_numbered_by_rank_in_their_family() -> None:
    state = SantoriniState.from_str(
        "10040/12011/03131/14022/03111 workers=b1a4,c4e2 turn=2 players=2 gods=triton,dionysus"
    )
    move = state.parse_move("c4c3+b3+b1c2+d3+c2b1+a1")
    assert id_fields(god_turn_id(state, move))[0] == "CHAIN"
    assert check_position(state) > 500


def test_a_position_with_its_workers_listed_the_other_way_numbers_its_own_chains() -> None:
    """Found by a training run with random gods: the ranks of Dionysus's chains were cached by
    the position alone, and an equal position whose workers are listed the other way (whose
    chains are other turns) found no rank for its own."""
    board = "02122/11301/13044/11401/10141 turn=1 players=2 gods=dionysus,hermes"
    first, second = (SantoriniState.from_str(f"{board} workers=b2e5,{pair}") for pair in ("d4d2", "d2d4"))
    assert first == second
    codec = codec_for("santorini", first)
    for state in (first, second):
        moves = state.legal_moves()
        actions = codec.encode_legal(state, moves)
        assert [codec.decode(state, action) for action in actions] == moves
        assert any(id_fields(action - 444)[0] == "CHAIN" for action in actions if action >= 444)
