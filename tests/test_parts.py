"""A game's parts are typed: each module that uses a part declares a :class:`bordspel.core.Part`
(what it must be), ``game_part`` checks what it loads, and ``mypy --strict`` checks every built-in
game's parts against the types their users expect. Compiled modules and solver flags come from
the game packages, and ``import bordspel`` stays light."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from mypy import api

from bordspel import ansi, core, guide, svg
from bordspel.ai import registry
from bordspel.cli import SOLVER_PART, build_parser
from bordspel.core import BordspelError, GameSpec, Part, available_games, game_part, game_spec, part_path
from bordspel.puzzles import PROOF_PART
from bordspel.rl import clicks, codecs

SRC = Path(__file__).resolve().parent.parent / "src"

PART_TYPES: dict[Part[object], str] = {
    svg.SVG_PART: "bordspel.svg:Draw",
    ansi.ANSI_PART: "bordspel.ansi:TerminalPicture",
    guide.MOVE_PARTS_PART: "bordspel.guide:MoveParts",
    codecs.CODEC_PART: "bordspel.rl.codecs:Codec",
    clicks.BUTTONS_PART: "bordspel.rl.clicks:Buttons",
    guide.GUIDE_PART: "bordspel.guide:Guide",
    registry.KNOWLEDGE_PART: "bordspel.ai.registry:Knowledge",
    SOLVER_PART: "bordspel.cli:Solver",
    PROOF_PART: "bordspel.puzzles:ProofFactory",
}
"""Every kind of part, and the type a part of that kind must have."""


def built_in_parts() -> list[tuple[str, Part[object], str]]:
    """(game, kind of part, where the part is) for every part of the built-in games."""
    found = []
    for game in available_games():
        for part in PART_TYPES:
            path = part_path(game, part.field)
            if path is not None and path.startswith("bordspel."):
                found.append((game, part, path))
    return found


def test_every_kind_of_part_is_a_field_of_the_game_spec() -> None:
    fields = set(GameSpec.__dataclass_fields__)
    assert {part.field for part in PART_TYPES} <= fields
    assert len(built_in_parts()) >= 15  # three games with most of the seven kinds


@pytest.mark.parametrize("game", ["hermit", "quarto", "santorini"])
def test_every_part_of_a_game_loads_and_fits(game: str) -> None:
    for part in PART_TYPES:
        found = game_part(game, part)
        assert found is None or part.fits(found)


def test_a_part_that_does_not_fit_is_refused_with_what_it_should_be(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GameSpec("misfit", "bordspel.games.hermit.engine:HermitState", svg="bordspel.core:MAX_MOVE_TEXT")
    monkeypatch.setitem(core._registry(), "misfit", spec)
    refusal = r"the svg part of misfit \(bordspel.core:MAX_MOVE_TEXT\) is not a function draw"
    with pytest.raises(BordspelError, match=refusal):
        game_part("misfit", svg.SVG_PART)


def typing_script(parts: list[tuple[str, Part[object], str]]) -> str:
    """A script that assigns each part to the type its kind must have, for mypy to check."""
    lines = []
    for number, (_, part, path) in enumerate(parts):
        module, _, name = path.partition(":")
        kind_module, _, kind = PART_TYPES[part].partition(":")
        lines += [
            f"from {kind_module} import {kind} as Kind{number}",
            f"from {module} import {name} as part{number}",
            f"checked{number}: Kind{number} = part{number}",
        ]
    return "\n".join(lines) + "\n"


def mypy_strict(tmp_path: Path, script: str) -> tuple[str, int]:
    (tmp_path / "parts.py").write_text(script)
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    report, errors, status = api.run(
        [
            "--strict",
            f"--config-file={tmp_path / 'mypy.ini'}",
            "--follow-imports=silent",
            f"--cache-dir={tmp_path / 'cache'}",
            "--no-error-summary",
            str(tmp_path / "parts.py"),
        ]
    )
    assert errors == ""
    return report, status


@pytest.mark.slow
def test_mypy_strict_checks_every_built_in_part_against_its_type(tmp_path: Path) -> None:
    parts = built_in_parts()
    wrong = [(game, svg.SVG_PART, path) for game, part, path in parts if part is ansi.ANSI_PART][:1]
    report, status = mypy_strict(tmp_path, typing_script(parts + wrong))
    complaints = [line for line in report.splitlines() if ": error: " in line]
    assert status == 1 and len(complaints) == 1, report  # only the terminal picture put as a drawing
    assert f"parts.py:{3 * len(parts) + 3}: error" in complaints[0] and '"Draw"' in complaints[0]


def test_the_compiled_modules_are_those_the_games_name() -> None:
    named = sorted(name for game in available_games() for name in game_spec(game).native)
    sources = [path.stem for path in (SRC / "bordspel" / "_native").glob("*.pyx")]
    assert named == sorted(sources + list(compiled_twins()))


def compiled_twins() -> dict[str, str]:
    """setup.py's ``COMPILED_TWINS``: the modules compiled from a pure-Python module, and its path."""
    tree = ast.parse((SRC.parent / "setup.py").read_text())
    (value,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED_TWINS"
    ]
    twins: dict[str, str] = ast.literal_eval(value)
    return twins


def test_each_solver_brings_its_own_arguments() -> None:
    parser = build_parser()
    hermit = parser.parse_args(["solve", "hermit", "6", "--first", "--memory", "64", "--workers", "2"])
    assert (hermit.target, hermit.first, hermit.memory, hermit.workers) == ("6", True, 64.0, 2)
    with pytest.raises(SystemExit):
        parser.parse_args(["solve", "quarto", "..../..../..../....", "--first"])  # a Hermit flag


def modules_loaded(code: str) -> list[str]:
    run = [sys.executable, "-c", f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"]
    output = subprocess.run(run, capture_output=True, text=True, check=True, env={"PYTHONPATH": str(SRC)})
    return [name for name in json.loads(output.stdout) if name.split(".")[0] == "bordspel"]


def test_a_hermit_board_loads_only_what_it_needs() -> None:
    loaded = modules_loaded("import bordspel\nbordspel.Hermit(4).move('R', (0, 0), 'H')")
    assert len(loaded) <= 8, loaded
    assert not [name for name in loaded if "santorini" in name or "quarto" in name or "ai" in name.split(".")]


def test_importing_the_package_loads_no_engine() -> None:
    loaded = modules_loaded("import bordspel")
    assert not [name for name in loaded if name.startswith("bordspel.games.")], loaded
