"""Types as a user sees them: ``mypy --strict`` on a script that uses bordspel.

A script marks what mypy must say about its next line with a comment, ``# E: message`` for an
error and ``# N: message`` for a note (as mypy's own test data does; several in a row for one
line); every other line must type-check cleanly. Hermit, Santorini (whose moves are a union)
and Quarto each have one, and the analysis API (``Analyser``, ``analyse``) is checked there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

USER_SCRIPT = """\
import random

from bordspel import new_game
from bordspel.ai import Player, RandomPlayer
from bordspel.core import State
from bordspel.games.hermit.engine import HermitMove
from bordspel.games.quarto.engine import QuartoMove


def seats(state: State, player: Player) -> int:
    '''A bare State or Player is any game's: --strict asks for no type argument.'''
    return state.num_players


state = new_game("hermit", size=3)
# N: Revealed type is "bordspel.games.hermit.engine.HermitState"
reveal_type(state)
# N: Revealed type is "bordspel.games.quarto.engine.QuartoState"
reveal_type(new_game("quarto"))
# N: Revealed type is "bordspel.games.santorini.engine.SantoriniState"
reveal_type(new_game("santorini"))
move = state.legal_moves()[0]
# E: "HermitMove" has no attribute "placment"  [attr-defined]
print(move.colour, move.placment)
state = state.apply(move)
# E: "HermitState" has no attribute "to_mvoe"; maybe "to_move"?  [attr-defined]
print(state.to_mvoe)
# E: Argument 1 to "apply" of "State" has incompatible type "QuartoMove"; expected "HermitMove"  [arg-type]
state.apply(QuartoMove(None, "A"))
# E: Argument 1 to "apply" of "State" has incompatible type "str"; expected "HermitMove"  [arg-type]
state = state.apply("a1U")
player: Player[HermitMove] = RandomPlayer(7)
# E: "HermitMove" has no attribute "placment"  [attr-defined]
print(player.step(state).placment, state.random_move(random.Random(1)).colour)
print(seats(state, player))
"""


SANTORINI_SCRIPT = """\
import random

from bordspel import new_game
from bordspel.ai import Analyser, Limit, analyse, analyser, make_player
from bordspel.games.hermit.engine import HermitMove
from bordspel.games.santorini.engine import Turn

state = new_game("santorini", players=3)
move = state.legal_moves()[0]
# E: Item "Placement" of "Placement | Turn | GodTurn" has no attribute "targt"  [union-attr]
# E: Item "Turn" of "Placement | Turn | GodTurn" has no attribute "targt"  [union-attr]
# E: Item "GodTurn" of "Placement | Turn | GodTurn" has no attribute "targt"  [union-attr]
print(move.targt)
if isinstance(move, Turn):
    # E: "Turn" has no attribute "biuld"  [attr-defined]
    print(move.target, move.biuld)
state = state.apply(move)
# N: Revealed type is "bordspel.games.santorini.engine.SantoriniState"
reveal_type(state.apply(state.random_move(random.Random(1))))
# E: Argument 1 to "apply" of "State" has incompatible type "HermitMove"; expected "Placement | Turn | GodTurn"  [arg-type]
state.apply(HermitMove("R", 0, 0, "U"))
player = make_player("hard", "santorini")
# E: "Player[Any]" has no attribute "analyse"  [attr-defined]
player.analyse(state)
if isinstance(player, Analyser):
    # N: Revealed type is "bordspel.ai.players.Analyser[Any]"
    reveal_type(player)
    print(player.analyse(state, Limit(depth=2)).principal_variation)
print(analyser("hard", "santorini").analysis(state), analyse(player, state).move)
# E: Argument 3 to "analyse" has incompatible type "int"; expected "Limit | None"  [arg-type]
analyse("hard", state, 2)
"""  # noqa: E501 (mypy's messages as it writes them)


QUARTO_SCRIPT = """\
from bordspel import new_game
from bordspel.ai import Player, RandomPlayer
from bordspel.games.quarto.engine import QuartoMove
from bordspel.games.santorini.engine import Placement

state = new_game("quarto", advanced=True)
# N: Revealed type is "bordspel.games.quarto.engine.QuartoState"
reveal_type(state)
move = state.legal_moves()[0]
# E: "QuartoMove" has no attribute "squre"  [attr-defined]
print(move.squre, move.give)
# E: Argument 1 to "apply" of "State" has incompatible type "Placement"; expected "QuartoMove"  [arg-type]
state.apply(Placement(1, 2))
player: Player[QuartoMove] = RandomPlayer(3)
state = state.apply(player.step(state))
# E: "QuartoState" has no attribute "hnad"  [attr-defined]
print(state.hnad)
"""


RL_SCRIPT = """\
from bordspel.rl.pettingzoo import env

game = env("hermit", size=3)
# N: Revealed type is "bordspel.rl.pettingzoo.AECEnvironment"
reveal_type(game)
game.reset(seed=1)
for agent in game.agent_iter():
    observation, reward, terminated, truncated, info = game.last()
    game.step(None if terminated or truncated else 0)
# E: "AECEnvironment" has no attribute "agent_selected"; maybe "agent_selection"?  [attr-defined]
print(game.agent_selected, game.unwrapped.state_.to_move)
"""


MARKS = {"# E: ": "error", "# N: ": "note"}


def expected_messages(script: str, filename: str) -> list[str]:
    """mypy's output lines that the ``# E:`` and ``# N:`` comments ask for, each about the next
    line that is not such a comment (indented like it)."""
    messages, waiting = [], []
    for number, line in enumerate(script.splitlines(), start=1):
        mark = line.strip()[:5]
        if mark in MARKS:
            waiting.append(f"{MARKS[mark]}: {line.strip()[5:]}")
        else:
            messages += [f"{filename}:{number}: {message}" for message in waiting]
            waiting = []
    return messages


def test_the_script_expects_each_kind_of_mistake() -> None:
    expected = expected_messages(USER_SCRIPT, "user.py")
    assert len(expected) == 8
    assert sum(": error: " in line for line in expected) == 5
    santorini = expected_messages(SANTORINI_SCRIPT, "user.py")
    assert len(santorini) == 9 and len({line.split(": ")[0] for line in santorini}) == 7
    assert any("Turn" in line and '"biuld"' in line for line in santorini)  # an indented mark


@pytest.mark.parametrize(
    "script",
    [
        USER_SCRIPT,
        *(
            pytest.param(script, marks=pytest.mark.slow)
            for script in (SANTORINI_SCRIPT, QUARTO_SCRIPT, RL_SCRIPT)
        ),
    ],
    ids=["engine", "santorini", "quarto", "pettingzoo"],
)
def test_mypy_strict_checks_moves_states_and_players_in_a_users_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    (tmp_path / "user.py").write_text(script)
    (tmp_path / "mypy.ini").write_text("[mypy]\n")  # not the project's own configuration
    monkeypatch.chdir(tmp_path)
    report, errors, status = api.run(
        [
            "--strict",
            "--config-file=mypy.ini",
            "--follow-imports=silent",
            f"--cache-dir={tmp_path / 'cache'}",
            "--no-error-summary",
            "user.py",
        ]
    )
    assert errors == ""
    assert report.splitlines() == expected_messages(script, "user.py")
    assert status == 1
