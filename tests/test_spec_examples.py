"""Every example session of the spec texts (tests/spec, copied from the exercise), verbatim.

A bare expression's output is compared by value (sets and dicts by content, not print order),
printed output by text, and a traceback by exception type and message.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

import bordspel
from bordspel import en, nl

from .conftest import PIECE_FILE, SPEC_DIR

SPEC_NAMES = [
    "Kluizenaar",
    "Hermit",
    "Santorini",
    "lees_stukken",
    "stuk_eigenschappen",
    "maak_rooster",
    "quarto",
]


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """(statement, expected output lines) for each ``>>>`` line of a spec text.

    Expected output runs until the next statement, a blank line, or the prose after a session.
    """
    steps: list[tuple[str, list[str]]] = []
    collecting = False
    for line in text.splitlines():
        if line.startswith(">>> "):
            steps.append((line[4:], []))
            collecting = True
        elif not line.strip() or line.startswith(("In de voorbeeldsessie", "Dit zijn")):
            collecting = False
        elif collecting:
            steps[-1][1].append(line)
    return steps


def run_session(text: str, namespace: dict[str, object]) -> list[str]:
    failures = []
    for src, expected in sessions(text):
        src = src.replace("'stukken.txt2'", "'stukken.txt'")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                try:
                    value = eval(src, namespace)
                    if value is not None:
                        print(repr(value))
                except SyntaxError:
                    exec(src, namespace)
        except Exception as error:
            got = f"{type(error).__name__}: {error}"
            if not (expected and expected[0].startswith("Traceback") and expected[-1] == got):
                failures.append(f"{src}: raised {got}")
            continue
        want, got = "\n".join(expected), out.getvalue().rstrip("\n")
        if expected and expected[0].startswith("Traceback"):
            failures.append(f"{src}: expected {expected[-1]}")
        elif got != want and not _same_value(got, want):
            failures.append(f"{src}: expected {want!r}, got {got!r}")
    return failures


def _same_value(got: str, want: str) -> bool:
    try:
        return bool(eval(got) == eval(want))
    except Exception:
        return False


@pytest.mark.parametrize("spec", sorted(p.name for p in SPEC_DIR.glob("*.txt")))
def test_spec_session(spec: str, tmp_path: Path) -> None:
    (tmp_path / "stukken.txt").write_text(PIECE_FILE, encoding="utf-8")
    namespace = {name: getattr(bordspel, name) for name in SPEC_NAMES}
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        failures = run_session((SPEC_DIR / spec).read_text(encoding="utf-8"), namespace)
    finally:
        os.chdir(old)
    assert not failures
    assert len(sessions((SPEC_DIR / spec).read_text(encoding="utf-8"))) >= 11


def test_english_santorini_session() -> None:
    """The Santorini spec session translated: English names, directions and message."""
    board = en.Santorini([(3, 0), (4, 1), (1, 1), (2, 2)])
    assert str(board) == "00000\n0C000\n00D00\nA0000\n0B000"
    assert board.workers == {"A": (3, 0), "B": (4, 1), "C": (1, 1), "D": (2, 2)}
    assert board.winning_worker() is None and board.level("B") == 0
    assert str(board.move_worker("B", "E")) == "00000\n0C000\n00D00\nA0000\n00B00"
    assert str(board.build_tower("B", "W")) == "00000\n0C000\n00D00\nA0000\n01B00"
    assert str(board.move_worker("C", "SW").build_tower("C", "E")) == "00000\n00000\nC1D00\nA0000\n01B00"
    with pytest.raises(AssertionError, match=r"^invalid move$"):
        board.move_worker("A", "W")


def test_english_quarto_functions(piece_file: Path) -> None:
    pieces = en.read_pieces(str(piece_file))
    assert pieces == nl.lees_stukken(str(piece_file))
    properties = en.piece_properties(pieces)
    assert properties["E"] == {"groot", "hol", "rond", "rood"}
    assert en.make_grid("N?BI??JO?FDLMEAG", properties) == nl.maak_rooster("N?BI??JO?FDLMEAG", properties)
    assert en.quarto("KHEF#DCMXABJPGOL", properties) == {("H4", "blauw"), ("V2", "hol"), ("D1", "vierkant")}


def test_seed_names_importable() -> None:
    from bordspel import Hermit, Kluizenaar, Santorini, lees_stukken, maak_rooster, quarto, stuk_eigenschappen

    assert Santorini is nl.Santorini and Hermit is en.Hermit and Kluizenaar is nl.Kluizenaar
    assert callable(quarto) and lees_stukken is nl.lees_stukken
    assert maak_rooster is nl.maak_rooster and stuk_eigenschappen is nl.stuk_eigenschappen
