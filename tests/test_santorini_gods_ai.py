"""The players with gods: alpha-beta and MCTS play every god; the evaluation sees the simple gods' threats."""

from __future__ import annotations

import pytest

from bordspel import new_game
from bordspel.ai.registry import make_player
from bordspel.games.santorini.ai import god_threats
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.gods import GODS

MID = "44400/41200/03120/00214/00044 workers=b2d4,c3e1 turn=1 players=2 gods={}"


@pytest.mark.parametrize("god", sorted(GODS))
@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "mcts:playouts=3"])
def test_players_play_every_god(god: str, spec: str) -> None:
    other = "pan" if god != "pan" else "atlas"
    mine = "chaos:artemis/atlas/5" if god == "chaos" else god
    state = SantoriniState.from_str(MID.format(f"{mine},{other}"))
    assert not state.is_over()
    move = make_player(spec, "santorini", seed=1).step(state)
    assert state.is_legal(move)


def test_alpha_beta_takes_pans_drop() -> None:
    state = SantoriniState.from_str(
        "00000/00000/00300/00000/00000 workers=c3a5,e1e2 turn=1 players=2 gods=pan,atlas"
    )
    move = make_player("alphabeta:depth=2", "santorini", seed=1).step(state)
    assert state.apply(move).winners == frozenset({0})


@pytest.mark.parametrize(
    "position, threats",
    [
        ("00000/00000/00200/00000/00000 workers=c3a5,e1e2 turn=2 players=2 gods=pan,atlas", 1),
        ("00000/00000/00200/00000/00000 workers=c3a5,e1e2 turn=2 players=2 gods=atlas,pan", 0),
        ("00000/00000/01230/00000/00000 workers=b3a5,e1e2 turn=2 players=2 gods=artemis,pan", 1),
        ("00000/00000/01230/00000/00000 workers=b3a5,e1e2 turn=2 players=2 gods=pan,artemis", 0),
        ("00000/00000/02300/00000/00000 workers=b3a5,c3e1 turn=2 players=2 gods=apollo,pan", 1),
        ("00000/00000/02300/00000/00000 workers=b3a5,c3e1 turn=2 players=2 gods=minotaur,pan", 1),
        ("00000/00000/02340/00000/00000 workers=b3a5,c3e1 turn=2 players=2 gods=minotaur,pan", 0),
        ("00000/00000/02300/00000/00000 workers=b3a5,c3e1 turn=2 players=2 gods=apollo,athena up=2", 0),
    ],
)
def test_the_evaluation_counts_god_threats(position: str, threats: int) -> None:
    assert god_threats(SantoriniState.from_str(position), 0) == threats


def _god_tables(players: int) -> list[list[str]]:
    """Every god once, ``players`` to a game (the last game topped up from the first gods)."""
    names = sorted(GODS)
    return [(names[i : i + players] + names)[:players] for i in range(0, len(names), players)]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_players_play_every_god_with_more_players(players: int) -> None:
    for number, gods in enumerate(_god_tables(players)):
        state = new_game("santorini", players=players, gods="/".join(gods))
        bots = [
            make_player(spec, "santorini", seed=number) for spec in ("alphabeta:depth=1", "mcts:playouts=3")
        ]
        for ply in range(2 * players + 6):  # the setup, then six turns
            if state.is_over():
                break
            move = bots[ply % 2].step(state)
            assert state.is_legal(move), (gods, state.to_str())
            state = state.apply(move)
