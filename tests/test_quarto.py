"""Quarto: the spec functions, piece files, and the engine's turns, wins and variants."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest

from bordspel import lees_stukken, maak_rooster, quarto, stuk_eigenschappen
from bordspel.core import BordspelError, IllegalMoveError, NotationError
from bordspel.games.quarto import rules
from bordspel.games.quarto.engine import DEFAULT_PIECES, DUTCH_PIECES, PieceSet, QuartoMove, QuartoState

from .conftest import PIECE_FILE


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "pieces.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_blank_lines_and_spaces_are_ignored(tmp_path: Path) -> None:
    messy = (
        "\n\n"
        + "\n\n".join(" " + line.replace(",", " , ") + "  " for line in PIECE_FILE.splitlines())
        + "\n\n"
    )
    assert lees_stukken(write(tmp_path, messy)) == lees_stukken(write(tmp_path, PIECE_FILE))


@pytest.mark.parametrize(
    "change, line, reason",
    [
        (("B,klein,rood,vierkant,hol", "B,klein,rood,vierkant"), 3, "5 fields"),
        (("C,groot,blauw,vierkant,hol", "B,groot,blauw,vierkant,hol"), 4, "described twice"),
        (("D,klein,blauw,vierkant,hol", "D,klein,blauw,vierkant,rood"), 5, "'rood' is a value of both"),
        (("stuk,grootte,kleur,vorm,vulling", "stuk,grootte,kleur,vorm"), 1, "header needs 5 fields"),
        (("E,groot,rood,rond,hol", "EE,groot,rood,rond,hol"), 6, "one character"),
    ],
)
def test_malformed_piece_files_name_the_line(
    tmp_path: Path, change: tuple[str, str], line: int, reason: str
) -> None:
    with pytest.raises(ValueError, match=rf"line {line}: .*{reason}"):
        lees_stukken(write(tmp_path, PIECE_FILE.replace(*change)))


def test_empty_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="empty"):
        lees_stukken(write(tmp_path, "\n \n"))


@pytest.mark.parametrize("config", ["", "ABC", "A" * 17, None])
def test_configuration_must_be_16_characters(piece_file: Path, config: object) -> None:
    properties = stuk_eigenschappen(lees_stukken(str(piece_file)))
    for function in (maak_rooster, quarto):
        with pytest.raises(ValueError, match="16 characters"):
            function(config, properties)  # type: ignore[arg-type]


def test_several_properties_and_lines_at_once(piece_file: Path) -> None:
    properties = stuk_eigenschappen(lees_stukken(str(piece_file)))
    # Row 1: A B I J all red and square; column 1: A E ... are all large? A, C, E, G are large hollow
    config = "ABIJC...E...G..."
    assert quarto(config, properties) == {
        ("H1", "rood"),
        ("H1", "vierkant"),
        ("V1", "groot"),
        ("V1", "hol"),
    }
    assert quarto("ABI." + "." * 12, properties) == set()


def test_grid_has_empty_sets_for_unknown_characters(piece_file: Path) -> None:
    properties = stuk_eigenschappen(lees_stukken(str(piece_file)))
    grid = maak_rooster("A##############P", properties)
    assert grid[0][0] == {"groot", "rood", "vierkant", "hol"} and grid[3][3] == {
        "klein",
        "blauw",
        "rond",
        "vol",
    }
    assert all(grid[r][c] == set() for r in range(4) for c in range(4) if (r, c) not in ((0, 0), (3, 3)))


def test_piece_set_from_the_spec_file(piece_file: Path) -> None:
    assert PieceSet.from_file(piece_file) == DUTCH_PIECES
    assert PieceSet.from_str(DUTCH_PIECES.to_str()) == DUTCH_PIECES
    odd = PieceSet(("heel groot", "k:l", "v|m", "v;l"), (("a b", "c"),) * 4, tuple("0123456789abcdef"))
    assert PieceSet.from_str(odd.to_str()) == odd


def test_piece_set_refuses_incomplete_files(tmp_path: Path) -> None:
    with pytest.raises(BordspelError, match="16 pieces"):
        PieceSet.from_file(write(tmp_path, "\n".join(PIECE_FILE.splitlines()[:-1])))
    twins = PIECE_FILE.replace("P,klein,blauw,rond,vol", "P,klein,blauw,rond,hol")
    with pytest.raises(BordspelError, match="alike"):
        PieceSet.from_file(write(tmp_path, twins))


# -- the engine ---------------------------------------------------------------------------------
def test_first_turn_only_hands_over() -> None:
    state = QuartoState.initial()
    moves = state.legal_moves()
    assert len(moves) == 16 and all(m.square is None for m in moves)
    state = state.play("B")
    assert state.to_move == 1 and state.hand == 1 and state.count_moves() == 16 * 15
    with pytest.raises(IllegalMoveError, match="hand a piece over"):
        state.apply(QuartoMove(0, None))
    with pytest.raises(IllegalMoveError, match="not available"):
        state.play("a1:B")


def test_shared_absence_wins() -> None:
    # A, C, E, G are all large and hollow: no bit 0 and no bit 3 (shared absence of 'short', 'solid')
    state = QuartoState.from_str("ACE./..../..../.... hand=G")
    assert state.to_move == 0
    win = QuartoMove(3, None)
    assert win in state.legal_moves() and QuartoMove(3, "B") not in state.legal_moves()
    after = state.apply(win)
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == "quarto"
    assert [name for name, _ in after.winning_lines()] == ["H1"]


@pytest.mark.parametrize(
    "text, result",
    [("MPHI/BKDG/AFEO/CJN. hand=L", "1/2-1/2"), ("JIHP/OEKD/NBAG/FCM. hand=L", "1-0")],
)
def test_the_sixteenth_piece_draws_or_wins(text: str, result: str) -> None:
    state = QuartoState.from_str(text)
    assert state.legal_moves() == [QuartoMove(15, None)] and state.to_move == 0
    final = state.apply(QuartoMove(15, None))
    outcome = final.outcome()
    assert outcome is not None and outcome.result_str() == result
    assert final.legal_moves() == [] and QuartoState.from_str(final.to_str()) == final


def test_advanced_variant_wins_with_a_square() -> None:
    text = "AC../E.../..../.... hand=G"
    standard, advanced = QuartoState.from_str(text), QuartoState.from_str(text + " advanced")
    move = QuartoMove(5, None)
    assert move in advanced.legal_moves() and move not in standard.legal_moves()
    assert [name for name, _ in advanced.apply(move).winning_lines()] == ["S1"]


def test_position_strings() -> None:
    state = QuartoState.initial(pieces=DUTCH_PIECES).play("B").play("c3:A")
    text = state.to_str()
    assert text.startswith("..../..../..B./.... hand=A pieces=grootte:groot|klein")
    assert QuartoState.from_str(text) == state
    for bad in (
        "",
        "..../..../..../... hand=A",
        "A.../..../..../.... hand=A",
        "..../..../..../.... hand=Z",
        "..../..../..../.... hand=A colour=red",
        "A.../..../..../.... hand=-",
    ):
        with pytest.raises(NotationError):
            QuartoState.from_str(bad)


def test_notation() -> None:
    state = QuartoState.initial().play("B")
    assert state.move_from_str("c3:A") == QuartoMove(10, "A")
    assert QuartoMove(10, "A").to_str() == "c3:A" and QuartoMove(None, "P").to_str() == "P"
    for bad in ("", "e1:A", "c3:Z", "c3:"):
        with pytest.raises(NotationError):
            state.move_from_str(bad)


def test_pieces_option_accepts_a_file(piece_file: Path) -> None:
    assert QuartoState.initial(pieces=piece_file).pieces == DUTCH_PIECES
    assert QuartoState.initial().pieces == DEFAULT_PIECES
    with pytest.raises(BordspelError):
        QuartoState.initial(variant="x")


# -- the rules' primitives ------------------------------------------------------------------------
def agree(codes: list[int]) -> bool:
    """The rule stated piece by piece: some characteristic has one value on every piece."""
    return any(len({code >> j & 1 for code in codes}) == 1 for j in range(4))


def squares(mask: int) -> list[tuple[int, int]]:
    return [(cell // 4, cell % 4) for cell in range(16) if mask >> cell & 1]


def test_the_lines_are_the_rows_columns_diagonals_and_2x2_squares() -> None:
    assert [squares(rules.LINES[f"H{r + 1}"]) for r in range(4)] == [
        [(r, c) for c in range(4)] for r in range(4)
    ]
    assert [squares(rules.LINES[f"V{c + 1}"]) for c in range(4)] == [
        [(r, c) for r in range(4)] for c in range(4)
    ]
    assert squares(rules.LINES["D1"]) == [(i, i) for i in range(4)]
    assert squares(rules.LINES["D2"]) == [(i, 3 - i) for i in range(4)]
    assert [squares(m) for m in rules.SQUARES_2X2.values()] == [
        [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] for r in range(3) for c in range(3)
    ]
    assert rules.line_masks(False) == tuple(rules.LINES.values())
    assert rules.line_masks(True) == (*rules.LINES.values(), *rules.SQUARES_2X2.values())


def test_a_full_line_wins_when_its_pieces_share_a_characteristic() -> None:
    rng = random.Random(5)
    for codes in [
        [0b0101, 0b1010, 0b0110, 0b1001],
        [0, 1, 2, 3],
        *([rng.randrange(16) for _ in range(4)] for _ in range(200)),
    ]:
        line, filled, characteristics = rules.LINES["H1"], 0b1111, [0, 0, 0, 0]
        for cell, code in enumerate(codes):
            for j in range(4):
                characteristics[j] |= (code >> j & 1) << cell
        assert rules.line_wins(line, filled, characteristics) == agree(codes), codes
        ones, zeros = rules.shared_on(line, characteristics)
        assert rules.SHARES[ones << 4 | zeros] == agree(codes)  # the table the compiled modules use
        assert not rules.line_wins(line, 0b0111, characteristics)  # not full


def test_winners_are_the_pieces_that_complete_a_line_of_three() -> None:
    for three in product(range(16), repeat=3):
        ones, zeros = three[0] & three[1] & three[2], ~(three[0] | three[1] | three[2]) & 15
        winners = rules.WINNERS[ones << 4 | zeros]
        assert [winners >> piece & 1 == 1 for piece in range(16)] == [agree([*three, p]) for p in range(16)]
