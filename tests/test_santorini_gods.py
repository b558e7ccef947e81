"""Santorini's gods: each card's example as a position with its exact set of legal turns."""

from __future__ import annotations

import random

import pytest

from bordspel.core import IllegalMoveError, NotationError, canonical, new_game
from bordspel.games.santorini import generator
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.generator import power_ending
from bordspel.games.santorini.gods import GOD_TEXT, GODS, God
from bordspel.games.santorini.guide import GUIDE

CORRIDOR = "04444/44444/{row}/44444/04440"
"""Row 3 open; a1, a5 and e5 boxed in by domes: the seat to move plays its worker in row 3."""
BASE = {"c3b3a3", "c3b3c3", "c3d3c3", "c3d3e3"}
"""The four turns without a power from c3 in the flat corridor."""


def position(board: str, workers: str, gods: str, more: str = "", turn: int = 1) -> SantoriniState:
    return SantoriniState.from_str(f"{board} workers={workers} turn={turn} players=2 gods={gods}{more}")


def corridor(gods: str, row: str = "00000", workers: str = "c3a1,a5e5", more: str = "") -> SantoriniState:
    return position(CORRIDOR.format(row=row), workers, gods, more)


def turns(state: SantoriniState) -> set[str]:
    return {move.to_str() for move in state.legal_moves()}


CASES = {
    "mortal": (corridor("-,-"), BASE),
    "apollo": (corridor("apollo,-", workers="c3a1,d3e5"), {"c3b3a3", "c3b3c3", "c3d3e3"}),
    "artemis": (corridor("artemis,-"), BASE | {"c3b3+b3a3+b3", "c3d3+d3e3+d3"}),
    "athena": (corridor("-,athena", row="01000", more=" up=2"), {"c3d3c3", "c3d3e3"}),
    "athena-idle": (corridor("-,athena", row="01000"), BASE),
    "atlas": (corridor("atlas,-"), BASE | {"c3b3+a3*", "c3b3+c3*", "c3d3+c3*", "c3d3+e3*"}),
    "demeter": (corridor("demeter,-"), BASE | {"c3b3+a3+c3", "c3d3+c3+e3"}),
    "hephaestus": (
        corridor("hephaestus,-"),
        BASE | {"c3b3+a3+a3", "c3b3+c3+c3", "c3d3+c3+c3", "c3d3+e3+e3"},
    ),
    "hephaestus-no-dome": (  # a3 reaches level 3: no second piece (a dome) on it
        corridor("hephaestus,-", row="20000"),
        BASE | {"c3b3+c3+c3", "c3d3+c3+c3", "c3d3+e3+e3"},
    ),
    "hermes": (corridor("hermes,-"), BASE | {"c3a3b3", "b3", "d3", "c3e3d3"}),
    "minotaur": (corridor("minotaur,-", workers="c3a1,d3e5"), {"c3b3a3", "c3b3c3", "c3d3c3"}),
    "minotaur-up-a-level": (  # pushed onto level 2 (any level)
        corridor("minotaur,-", row="00002", workers="c3a1,d3e5"),
        {"c3b3a3", "c3b3c3", "c3d3c3"},
    ),
    "minotaur-dome": (corridor("minotaur,-", row="00005", workers="c3a1,d3e5"), {"c3b3a3", "c3b3c3"}),
    "minotaur-worker": (corridor("minotaur,-", workers="c3a1,d3e3"), {"c3b3a3", "c3b3c3"}),
    "minotaur-edge": (corridor("minotaur,-", workers="d3a1,e3e5"), {"d3c3b3", "d3c3d3"}),
    "minotaur-own": (corridor("minotaur,-", workers="c3d3,a5e5"), {"c3b3a3", "c3b3c3", "d3e3d3"}),
    "pan": (corridor("pan,-", row="00210"), {"c3b3", "c3d3c3", "c3d3e3"}),
    "prometheus": (corridor("prometheus,-"), BASE | {"b3+c3d3+c3", "b3+c3d3+e3", "d3+c3b3+a3", "d3+c3b3+c3"}),
    "prometheus-no-up": (  # after building first, neither b3 nor a built-up d3 can be climbed
        corridor("prometheus,-", row="01000"),
        BASE | {"b3+c3d3+c3", "b3+c3d3+e3"},
    ),
    "aphrodite": (
        position("04444/40444/00000/44444/04440", "c3a1,b2e5", "-,aphrodite"),
        {"c3b3a3", "c3b3c3"},
    ),
    "ares": (
        position("02444/44444/00000/44444/04440", "c3a1,a5e5", "ares,-"),
        BASE | {turn[:4] + "+" + turn[4:] + "+-b1" for turn in BASE},
    ),
    "bia": (corridor("bia,-", workers="c3a1,e3e5"), BASE),
    "charon": (
        corridor("charon,-", workers="c3a1,d3e5"),
        {"c3b3a3", "c3b3c3", "d3b3+c3d3+c3", "d3b3+c3d3+e3"},
    ),
    "chronus": (corridor("chronus,-"), BASE),
    "circe": (corridor("circe,artemis"), BASE | {"c3b3+b3a3+b3", "c3d3+d3e3+d3"}),
    "circe-victim": (
        position(CORRIDOR.format(row="00000"), "a5e5,c3a1", "circe:2,artemis", turn=2),
        BASE,
    ),
    "dionysus": (
        corridor("dionysus,-", row="30000", workers="c3a1,e3e5"),
        {"c3b3a3", "c3b3c3", "c3d3c3", "c3b3+a3+e3d3+c3", "c3b3+a3+e3d3+e3"},
    ),
    "eros": (
        corridor("eros,-", row="11010", workers="c3a3,a5e5"),
        {"c3b3", "c3d3c3", "c3d3e3", "a3b3a3"},
    ),
    "hera": (
        corridor("-,hera", row="32300", workers="b3a1,a5e5"),
        {"b3a3b3", "b3c3"},
    ),
    "hestia": (corridor("hestia,-"), BASE | {"c3b3+a3+c3", "c3b3+c3+c3", "c3d3+c3+c3", "c3d3+e3+c3"}),
    "hypnus": (
        position("00444/44444/00100/44444/04440", "c3a3,a5e5", "-,hypnus"),
        {"a3b3a3"},
    ),
    "hypnus-idle": (
        position("00444/44444/00100/44444/04440", "c3a3,a5e5", "-,-"),
        {"a3b3a3", "c3b3c3", "c3d3c3", "c3d3e3"},
    ),
    "limus": (
        position("04444/04444/00000/44444/04440", "c3a1,a2e5", "-,limus"),
        {"c3b3c3", "c3d3c3", "c3d3e3"},
    ),
    "limus-dome": (
        position("04444/04444/30000/44444/04440", "c3a1,a2e5", "-,limus"),
        {"c3b3a3", "c3b3c3", "c3d3c3", "c3d3e3"},
    ),
    "medusa": (corridor("medusa,-", row="01000", workers="c3a1,a3e5"), {"c3b3c3", "c3d3c3", "c3d3e3"}),
    "morpheus": (
        corridor("morpheus:1,-"),
        BASE
        | {"c3b3", "c3d3"}  # no build: the pieces stay on the card
        | {"c3b3+a3+a3", "c3b3+a3+c3", "c3b3+c3+c3", "c3d3+c3+c3", "c3d3+c3+e3", "c3d3+e3+e3"},
    ),
    "persephone": (corridor("-,persephone", row="01000"), {"c3b3a3", "c3b3c3"}),
    "poseidon": (
        position("02444/44444/00000/44444/04440", "c3a1,a5e5", "poseidon,-"),
        BASE
        | {turn[:4] + "+" + turn[4:] + "+b1" for turn in BASE}
        | {turn[:4] + "+" + turn[4:] + "+b1+b1" for turn in BASE},
    ),
    "selene": (
        position("02444/44444/00000/44444/04440", "c3a1,a5e5", "selene,-"),
        BASE | {"c3b3+b1*", "c3d3+b1*"},
    ),
    "triton-win-later": (  # b1 is reached first from level 3 (no win), then from a2 on level 2;
        # a1a2+a2a1 climbs back onto its own level-3 start: a win
        position("33444/24444/44444/44400/44440", "a1e5,d4e4", "triton,-"),
        {"a1b1a1", "a1b1a2", "a1a2a1", "a1a2b1", "a1a2+a2b1", "a1a2+a2a1", "a1b1+b1a1+a2", "a1b1+b1a1+b1"},
    ),
    "triton-persephone": (  # a2 also by way of a1, moving up as Persephone demands
        position("10444/04444/44444/44400/44440", "b1e5,d4e4", "triton,persephone"),
        {"b1a1a2", "b1a1b1", "b1a1+a1a2+a1", "b1a1+a1a2+b1", "b1a1+a1b1+a1", "b1a1+a1b1+a2"},
    ),
    "triton": (
        position("00000/44444/44444/44444/04040", "b1a5,c5e5", "triton,-"),
        {"b1a1b1", "b1c1b1", "b1c1d1", "b1c1+c1d1+c1", "b1c1+c1d1+e1", "b1c1+c1d1+d1e1+d1"}
        | {"b1a1+a1b1+a1", "b1a1+a1b1+c1"},  # back on its starting square by way of the perimeter
    ),
    "zeus": (corridor("zeus,-"), BASE | {"c3b3b3", "c3d3d3"}),
    "chaos": (corridor("chaos:artemis/pan/7,-"), BASE | {"c3b3+b3a3+b3", "c3d3+d3e3+d3"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_card_examples_have_exactly_these_turns(case: str) -> None:
    state, expected = CASES[case]
    assert turns(state) == expected
    assert state.count_moves() == len(expected)
    for move in state.legal_moves():
        assert state.is_legal(move) and state.move_from_str(move.to_str()) == move


def test_every_god_has_an_example_and_card_text() -> None:
    assert set(GODS) <= set(CASES)
    assert set(GOD_TEXT) == set(GODS) and all(GOD_TEXT.values())
    assert len(GODS) == 30 and sum(god.simple for god in GODS.values()) == 10


def test_apollo_swaps_and_minotaur_pushes() -> None:
    apollo = CASES["apollo"][0].play("c3d3e3")
    assert apollo.to_str().split()[1] == "workers=d3a1,c3e5"
    minotaur = CASES["minotaur"][0].play("c3d3c3")
    assert minotaur.to_str().split()[1] == "workers=d3a1,e3e5"


def test_a_worker_minotaur_pushes_onto_level_3_does_not_win() -> None:
    """Ours: only a worker's own move up wins (an outside engine ends the game at the push)."""
    pushed = corridor("minotaur,-", row="00003", workers="c3a1,d3b3").play("c3d3c3")
    assert pushed.to_str().split()[1] == "workers=d3a1,e3b3"
    assert not pushed.is_over() and pushed.to_move == 1


def test_athena_remembers_moving_up() -> None:
    state = corridor("athena,-", row="01000")
    assert "up=1" in state.play("c3b3c3").to_str()
    assert "up=" not in state.play("c3d3c3").to_str()


def test_bia_removes_the_worker_behind() -> None:
    after = CASES["bia"][0].play("c3d3e3")
    assert after.to_str().split()[1] == "workers=d3a1,xe5"


def test_medusa_petrifies_lower_neighbours() -> None:
    after = CASES["medusa"][0].play("c3b3c3")
    assert after.to_str().startswith("04444/44444/11100/")
    assert after.to_str().split()[1] == "workers=b3a1,xe5"


def test_triton_may_end_where_it_started() -> None:
    state = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b2d4,e5e4 turn=1 players=2 gods=triton,-"
    )
    after = state.play("b2b1+b1b2+b1")  # the example of Board Game Arena's Triton page
    assert after.to_str().startswith("01000/00000/") and "workers=b2d4," in after.to_str()
    with pytest.raises(IllegalMoveError):
        state.play("b2c3+c3b2+b1")  # c3 is no perimeter square: no second move from there
    start = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b3d3,c2c4 turn=1 players=2 gods=triton,-"
    )
    in_place = [m for m in start.legal_moves() if start.apply(m).workers == start.workers]
    assert len(in_place) == 11  # 6 builds around b3 and 6 around d3, c3 shared


def test_a_turn_is_written_in_its_fewest_actions() -> None:
    state = SantoriniState.from_str(
        "00000/00000/00000/00000/00000 workers=b2c3,c2c4 turn=1 players=2 gods=artemis,atlas"
    )
    moves = {move.to_str() for move in state.legal_moves()}
    assert "c3d3e3" in moves  # Artemis's one move, not c3d2+d2d3+e3 that ends the same way
    assert "c3d2+d2d3+e3" not in moves
    assert "c3d4+d4d3+e3" not in moves
    assert state.play("c3d3e3").to_str().startswith("00000/00000/00001/")


def test_medusa_does_not_petrify_next_to_limus() -> None:
    state = SantoriniState.from_str(
        "00000/00000/02000/00000/00000 workers=a5b3,c3c4 turn=1 players=2 gods=medusa,limus"
    )
    after = state.play("a5a4a3")
    assert after.to_str().split()[1] == "workers=a4b3,c3c4"  # c3 is next to Limus's worker on c4
    alone = SantoriniState.from_str(
        "00000/00000/02000/00000/00000 workers=a5b3,c3e1 turn=1 players=2 gods=medusa,limus"
    )
    assert alone.play("a5a4a3").to_str().split()[1] == "workers=a4b3,xe1"


def test_morpheus_counts_the_pieces_on_the_card() -> None:
    state = CASES["morpheus"][0]
    assert "gods=morpheus:1," in state.play("c3b3+a3").to_str()
    assert "gods=morpheus:0," in state.play("c3b3+a3+c3").to_str()


def test_circe_takes_a_power_from_apart_workers() -> None:
    after = CASES["circe"][0].play("c3b3+b3a3+b3")
    assert "gods=circe:2,artemis" in after.to_str()


def test_chaos_draws_after_a_dome() -> None:
    state = corridor("chaos:atlas/pan/7,-")
    assert "gods=chaos:pan/7," in state.play("c3b3+a3*").to_str()
    assert "gods=chaos:atlas/pan/7," in state.play("c3b3a3").to_str()
    last = corridor("chaos:atlas/7,-").play("c3b3+a3*")
    deck = last.to_str().split("gods=chaos:")[1].split(",")[0].split("/")
    assert sorted(deck[:-1]) == sorted(name for name, god in GODS.items() if god.simple)


def test_chronus_wins_with_the_fifth_complete_tower() -> None:
    state = position("44440/00000/00300/00000/00000", "d2a5,e5e4", "chronus,-")
    assert state.play("d2d3c3").winners == frozenset({0})
    assert state.play("d2d3d2").winners is None


def test_eros_places_workers_on_opposite_edges() -> None:
    state = SantoriniState.initial(gods="eros,pan")
    assert state.count_moves() == 48
    assert (
        state.apply(state.legal_moves()[0]).to_str().startswith("00000/00000/00000/00000/00000 workers=a1e1")
    )


def test_bia_places_first() -> None:
    state = SantoriniState.initial(gods="pan,bia")
    assert state.to_move == 1
    assert state.play("a1a2").to_move == 0
    assert state.play("a1a2").play("e5e4").to_move == 0


def test_hera_stops_perimeter_wins_only() -> None:
    assert CASES["hera"][0].play("b3c3").winners == frozenset({0})
    assert "b3a3" in turns(corridor("-,-", row="32300", workers="b3a1,a5e5"))


def test_athena_holds_until_her_next_turn() -> None:
    state = position("01000/44444/01000/44444/44444", "a1e1,a3e3", "athena,-")
    held = state.play("a1b1a1")
    assert turns(held) == {"e3d3c3", "e3d3e3"}  # a3 may not climb to b3
    free = held.play("e3d3e3").play("e1d1e1")
    assert "up=" not in free.to_str() and "a3b3a3" in turns(free)


def test_hermes_moves_his_workers_in_turn_past_each_other() -> None:
    state = position("04444/44440/00000/44444/04440", "c3d3,a5e5", "hermes,-")
    cells = [10, 11, 12, 13, 14, 9]  # a3-e3 and the pocket e2
    ends = {state.apply(move).workers[:2] for move in state.legal_moves()}
    assert ends == {(a, b) for a in cells for b in cells if a != b}
    assert "d3e2+c3e3+e2c3+d3" in turns(state)  # d3 steps aside, c3 passes, then d3's worker returns


def test_morpheus_keeps_at_most_four_pieces() -> None:
    state = corridor("morpheus:4,-")
    assert "gods=morpheus:3," in state.play("c3b3a3").to_str()
    assert "gods=morpheus:4," in state.play("c3b3").to_str()
    assert max(len(move.to_str().split("+")) for move in state.legal_moves()) == 1 + 4
    with pytest.raises(NotationError):
        corridor("morpheus:5,-")


FOUR_TOWERS = "44440/00000/00300/00000/00000"
"""Four complete towers, and a level 3 on c3 for the fifth."""


@pytest.mark.parametrize(
    "state, turn, reason",
    [
        (corridor("pan,-", row="00210"), "c3b3", "Pan's power"),
        (corridor("apollo,-", row="00230"), "c3d3", "a worker climbed to level 3"),
        (position("44440/00000/00300/00000/00000", "b2e5,a5e1", "chronus,-"), "b2b3c3", "Chronus's power"),
        (
            position("44440/00000/00300/00000/00000", "b2e5,a5e1", "apollo,chronus"),
            "b2b3c3",
            "Chronus's power",
        ),
    ],
)
def test_the_end_says_what_happened_and_which_gods_power(
    state: SantoriniState, turn: str, reason: str
) -> None:
    assert state.play(turn).outcome().termination == reason  # type: ignore[union-attr]


def test_every_power_that_wins_has_words_for_the_end_of_the_game() -> None:
    winning = {name for name, god in GODS.items() if type(god).wins_by_move is not God.wins_by_move}
    winning |= {name for name, god in GODS.items() if type(god).wins_at_end is not God.wins_at_end}
    assert winning == {"pan", "chronus", "eros"}
    prompts = GUIDE.prompts(corridor("pan,chronus"))
    for name in winning:
        for language in ("en", "nl"):
            assert f"over:{power_ending(GODS[name])}" in prompts[language]


def test_random_games_with_gods_end_for_a_named_reason() -> None:
    reasons, rng = set(), random.Random(3)
    for seed in range(20):
        state = new_game("santorini", gods="random", seed=seed)
        while not state.is_over():
            state = state.apply(state.random_move(rng))
        outcome = state.outcome()
        assert outcome is not None
        reasons.add(outcome.termination)
    assert {"a worker climbed to level 3", "no legal turn"} <= reasons
    powers = {"Pan's power", "Chronus's power", "Eros's power"}
    assert reasons <= {"a worker climbed to level 3", "no legal turn", *powers}


def test_selene_s_two_workers_are_not_alike() -> None:
    """Her second worker is the female one: listing the pair the other way round is another
    position (a colour's workers are alike otherwise), and an image keeps her female second."""
    board = "00000/00000/00000/00000/00000"
    female_on_a4 = SantoriniState.from_str(f"{board} workers=c2a4,e5d1 turn=1 players=2 gods=selene,pan")
    female_on_c2 = SantoriniState.from_str(f"{board} workers=a4c2,e5d1 turn=1 players=2 gods=selene,pan")
    assert female_on_a4 != female_on_c2 and female_on_a4.normalized() is female_on_a4
    assert female_on_a4.legal_moves() != female_on_c2.legal_moves()
    image = female_on_a4.transform(4)
    assert image.to_str().split()[1] == "workers=c2e4,a5b1"
    images = [female_on_a4.transform_move(turn, 4) for turn in female_on_a4.legal_moves()]
    assert sorted(map(str, images)) == sorted(map(str, image.legal_moves()))
    plain = SantoriniState.from_str(f"{board} workers=c2a4,e5d1 turn=1 players=2 gods=apollo,pan")
    assert plain == SantoriniState.from_str(f"{board} workers=a4c2,e5d1 turn=1 players=2 gods=apollo,pan")


def test_morpheus_s_placements_commute_with_the_symmetries_and_keep_his_pieces() -> None:
    state = new_game("santorini", gods="morpheus,pan")
    for move in state.legal_moves()[::7]:
        for symmetry in range(8):
            image = state.transform(symmetry).apply(state.transform_move(move, symmetry))
            assert image == state.apply(move).transform(symmetry), (move, symmetry)
    left, right = state.play("a3d3"), state.play("b3e3")
    assert canonical(left).to_str() == canonical(right).to_str()
    assert canonical(left).to_str().endswith(" gods=morpheus,pan")


def test_a_position_with_its_workers_listed_the_other_way_has_its_own_turns() -> None:
    """Equal positions whose workers are listed in another order are equal but not alike for the
    generator's caches: each gets its own turn order and the positions its turns lead to, as a
    fresh process computes them, whichever of the two was asked first (seeded games repeat)."""
    board = "01200/00100/00000/00030/00000"
    texts = [f"{board} workers={pair},e5d1 turn=1 players=2 gods=apollo,artemis" for pair in ("c2a4", "a4c2")]
    first, second = (SantoriniState.from_str(text) for text in texts)
    assert first == second
    generator._turns_listed.cache_clear()
    alone = [(str(turn), second.apply(turn).to_str()) for turn in second.legal_moves()]
    generator._turns_listed.cache_clear()
    first.legal_moves()
    assert [(str(turn), second.apply(turn).to_str()) for turn in second.legal_moves()] == alone
