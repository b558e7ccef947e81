"""A conformance check that every game engine must pass (run on every game in the tests).

``check(start)`` plays seeded random games from ``start`` and checks, after every move, what
the protocol promises: legal moves are legal and complete, states are immutable and hashable,
moves and positions round-trip through text and pickle (outcome included), refused moves raise
and change nothing, and a finished game behaves as finished; and that the generic players made
for the game (``PLAYER_SPECS``) pickle and, loaded, still play a legal move.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import dataclass

from bordspel.ai.registry import make_player
from bordspel.core import BordspelError, IllegalMoveError, State

__all__ = ["PLAYER_SPECS", "ConformanceReport", "check"]

PLAYER_SPECS = ("random", "alphabeta:depth=2", "mcts:playouts=10")
"""The players every game must support, pickled and played from the start position."""


@dataclass
class ConformanceReport:
    """What a conformance check covered: games, positions and moves."""

    games: int = 0
    positions: int = 0
    moves_checked: int = 0


def check(start: State, games: int = 10, seed: int = 0, max_plies: int = 400) -> ConformanceReport:
    """Play ``games`` random games from ``start``; raise AssertionError at the first breach."""
    rng = random.Random(seed)
    report = ConformanceReport()
    _check_players(start, seed)
    foreign: list[object] = []
    for _ in range(games):
        state = start
        for _ in range(max_plies):
            _check_position(state, report, foreign)
            if state.is_over():
                _check_finished(state)
                break
            move = state.random_move(rng)
            foreign.extend(state.legal_moves()[:3])
            state = state.apply(move)
        report.games += 1
    return report


def _check_position(state: State, report: ConformanceReport, foreign: list[object]) -> None:
    text, key = state.to_str(), hash(state)
    again = type(state).from_str(text)
    assert again == state and hash(again) == key, f"position string does not round-trip: {text}"
    assert again.to_str() == text, f"position string is not stable: {text}"
    assert again.outcome() == state.outcome(), f"the outcome does not round-trip: {text}"
    assert copy.copy(state) == state and copy.deepcopy(state) == state
    _check_immutable(state)
    moves = state.legal_moves()
    assert state.count_moves() == len(moves) == state.perft(1), f"move count differs at {text}"
    assert len(set(moves)) == len(moves), f"a legal move is listed twice at {text}"
    for move in moves:
        assert state.is_legal(move), f"{move} is listed but not legal at {text}"
        assert state.parse_move(move.to_str()) == move, f"{move.to_str()} does not round-trip at {text}"
        following = state.apply(move)
        assert type(following) is type(state) and following != state
        report.moves_checked += 1
    assert state.to_str() == text and hash(state) == key, "applying moves changed the state"
    legal = set(moves)
    for move in foreign[-30:]:
        if move not in legal:
            _check_refused(state, move)
    _check_pickles(state, moves)
    report.positions += 1


def _check_pickles(state: State, moves: list[object]) -> None:
    for protocol in (0, pickle.HIGHEST_PROTOCOL):
        try:
            loaded = pickle.loads(pickle.dumps((state, moves), protocol))
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise AssertionError(f"{type(state).__name__} or its moves do not pickle: {error}") from error
        assert loaded == (state, moves), f"state or moves do not pickle (protocol {protocol})"
        assert hash(loaded[0]) == hash(state) and loaded[0].outcome() == state.outcome()
        assert loaded[0].to_str() == state.to_str() and loaded[0].to_move == state.to_move


def _check_players(start: State, seed: int) -> None:
    if start.is_over():
        return
    for spec in PLAYER_SPECS:
        try:
            player = pickle.loads(pickle.dumps(make_player(spec, start.name, seed=seed)))
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            raise AssertionError(f"player {spec!r} for {start.name} does not pickle: {error}") from error
        assert start.is_legal(player.step(start)), f"player {spec!r}, unpickled, plays an illegal move"


def _check_immutable(state: State) -> None:
    slots = getattr(type(state), "__slots__", ())
    for slot in slots or ("anything",):
        try:
            setattr(state, slot, None)
        except AttributeError:
            continue
        raise AssertionError(f"{type(state).__name__}.{slot} can be assigned")


def _check_refused(state: State, move: object) -> None:
    before = state.to_str()
    try:
        state.apply(move)
    except IllegalMoveError as error:
        assert str(error), "a refused move must say why"
    else:
        raise AssertionError(f"{move} was applied although it is not legal at {before}")
    assert state.to_str() == before, "a refused move changed the state"


def _check_finished(state: State) -> None:
    outcome = state.outcome()
    assert outcome is not None and state.legal_moves() == [] and state.count_moves() == 0
    assert len(outcome.returns()) == state.num_players
    try:
        state.random_move(random.Random(0))
    except BordspelError:
        pass
    else:
        raise AssertionError("a finished game still offers a random move")
