"""Types as a user sees them: ``mypy --strict`` on a script that uses bordspel.

The script marks what mypy must say about its next line with a comment, ``# E: message`` for an
error and ``# N: message`` for a note (as mypy's own test data does); every other line must
type-check cleanly.
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
from bordspel.hermit import HermitMove
from bordspel.quarto import QuartoMove


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
    """mypy's output lines that the ``# E:`` and ``# N:`` comments ask for."""
    lines = script.splitlines()
    return [
        f"{filename}:{number + 1}: {MARKS[line[:5]]}: {line[5:]}"
        for number, line in enumerate(lines[:-1], start=1)
        if line[:5] in MARKS
    ]


def test_the_script_expects_each_kind_of_mistake() -> None:
    expected = expected_messages(USER_SCRIPT, "user.py")
    assert len(expected) == 8
    assert sum(": error: " in line for line in expected) == 5


@pytest.mark.parametrize("script", [USER_SCRIPT, RL_SCRIPT], ids=["engine", "pettingzoo"])
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
