"""The turn generator over a Santorini position: every legal turn and the position after it.

Legal moves, counting, legality with reasons, random moves and "has a turn" all come from
:func:`table` (or :func:`has_turn`, which stops at the first turn). It runs for any position,
also one without gods (every seat then plays :data:`~bordspel.games.santorini.gods.MORTAL`):
the engine keeps its own fast path for that game, and the tests pin the two together.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from bordspel._native import twin
from bordspel.games.santorini import gods as reference
from bordspel.games.santorini.board import WIN_LEVEL, Levels, height
from bordspel.games.santorini.gods import God, Record, Walk
from bordspel.games.santorini.turns import Action, Board, Supply, actions_of, turn_of

__all__ = [
    "Position",
    "Powers",
    "Result",
    "canonical",
    "has_turn",
    "orders",
    "outcome_lines",
    "outcomes_of",
    "result",
    "table",
    "turn_of_codes",
    "turn_to",
    "walked",
]

gods: Any = twin("santorini_gods", reference)
"""The gods' module that plays: ``gods.py`` compiled by ``pip install .``, else ``gods.py`` itself."""


class Powers(NamedTuple):
    """The god of each seat ("" for none), each seat's memo, and Athena's "moved up" seats."""

    gods: tuple[str, ...]
    memos: tuple[str, ...]
    up: int = 0


class Position(Protocol):
    """What the generator reads of a position (the engine's ``SantoriniState`` has it; a hashable value)."""

    players: int
    levels: Levels
    workers: tuple[int, ...]
    supply: Supply | None
    turn: int
    out: int
    powers: Powers | None

    @property
    def colours(self) -> int:
        """The number of worker colours."""
        ...

    def team(self, seat: int) -> frozenset[int]:
        """The seats that move ``seat``'s workers."""
        ...

    def __hash__(self) -> int: ...


class Result(NamedTuple):
    """What a turn leads to, before the next player is found."""

    board: Board
    memos: tuple[str, ...]
    up: int
    winners: frozenset[int] | None


def base_god(state: Position, seat: int) -> God:
    powers = state.powers
    god: God = gods.MORTAL if powers is None else gods.GODS.get(powers.gods[seat], gods.MORTAL)
    return god


def effective_gods(state: Position, memos: tuple[str, ...]) -> list[God]:
    """The power each seat plays with: Chaos's face-up card; Circe's taken power."""
    bases = [base_god(state, seat) for seat in range(state.players)]
    played = [_face_up(god, memo) for god, memo in zip(bases, memos)]
    for seat, god in enumerate(bases):
        if isinstance(god, gods.Circe) and memos[seat]:
            taken = [int(s) - 1 for s in memos[seat].split(".")]
            played[seat] = played[taken[0]]
            for other in taken:
                played[other] = gods.MORTAL
    return played


def _face_up(god: God, memo: str) -> God:
    """The power ``god`` plays with: Chaos's face-up card, else its own."""
    played: God = gods.GODS[gods.chaos_card(memo)] if isinstance(god, gods.Chaos) else god
    return played


def start(state: Position) -> tuple[Walk, tuple[str, ...], list[God]]:
    """The walk of the turn to play, with the memos as the turn begins and the powers played."""
    seat = state.turn
    memos = state.powers.memos if state.powers is not None else ("",) * state.players
    board = _board(state)
    base = base_god(state, seat)
    if effective_gods(state, memos)[seat] is not gods.MORTAL:  # a power taken by Circe does nothing
        changed = base.memo_at_start(memos[seat], board, seat, state.players)
        memos = memos[:seat] + (changed,) + memos[seat + 1 :]
    played = effective_gods(state, memos)
    god = played[seat]
    colours = state.colours
    rivals = [s for s in range(state.players) if s % colours != seat % colours and not state.out >> s & 1]
    walk = gods.Walk(
        board,
        colour=seat % colours,
        players=state.players,
        owner=god,
        rivals=tuple((played[s], s % colours) for s in rivals),
        seats=tuple(rivals),
        memo=memos[seat] if god is base else "",
        up=state.powers.up if state.powers is not None else 0,
    )
    return walk, memos, played


def _board(state: Position) -> Board:
    return Board(state.levels, state.workers, state.supply)


def walked(state: Position) -> tuple[Walk, tuple[str, ...], list[God], list[Record]]:
    """The turns of the player to move as the walk writes them (Persephone's rule applied),
    with the walk, the memos as the turn begins and the powers played."""
    walk, memos, played = start(state)
    walk.owner.turn(walk)
    found = walk.lines
    if any(god.forces_climb for god, _ in walk.rivals) and any(line[7] for line in found):
        found = [line for line in found if line[7]]  # Persephone: move up when possible
    return walk, memos, played, found


def has_turn(state: Position) -> bool:
    """Whether the player to move has a turn (stops at the first one found)."""
    return start(state)[0].any()


class Turns(NamedTuple):
    """The legal turns of a position with the outcome each leads to (a key of
    :func:`outcome_lines`), and what the other ways of playing them are made of: every line's
    actions (as numbers) with the outcome it leads to."""

    table: dict[Any, Any]
    lines: list[tuple[tuple[int, ...], Any]]
    kept: dict[Any, tuple[Any, tuple[int, ...]]]
    """Each outcome's turn, with the actions of the line kept for it."""


def outcome_lines(state: Position) -> tuple[Walk, list[tuple[tuple[int, ...], Any]]]:
    """The walk of the turn, with each line it wrote: the line's actions (as numbers) and the
    outcome it leads to, as a key: the board (packed), the memos, Athena's seats and the winners."""
    walk, memos, played, found = walked(state)
    outcome = outcomes_of(state, walk, memos, played)
    return walk, [(line[0], outcome(line)) for line in found]


def _turns(state: Position) -> Turns:
    """The legal turns with what they lead to: of the lines with one outcome, the one of fewest
    actions (the first generated of those)."""
    return _turns_listed(state, state.workers)


@functools.lru_cache(maxsize=2048)
def _turns_listed(state: Position, listed: tuple[int, ...]) -> Turns:
    """:func:`_turns`, cached by the position and its workers as listed: positions equal but for
    the order a colour's two workers are listed in walk them in their own order, so each has
    its turns in its own order and its own listing in the positions they lead to, whichever was
    asked first (seeded games repeat from process to process)."""
    lines = outcome_lines(state)[1]
    shortest: dict[Any, tuple[int, ...]] = {}
    for actions, key in lines:
        kept = shortest.get(key)
        if kept is None or len(actions) < len(kept):
            shortest[key] = actions
    table: dict[Any, Any] = {}
    turns: dict[Any, tuple[Any, tuple[int, ...]]] = {}
    for key, actions in shortest.items():
        turn = turn_of_codes(actions)
        table[turn] = key
        turns[key] = (turn, actions)
    return Turns(table, lines, turns)


def turn_to(state: Position, outcome: Any) -> Any:
    """The legal turn that leads to ``outcome`` (a key of :func:`outcome_lines`): as in
    :func:`table`, the line of fewest actions (the first generated of those)."""
    kept: tuple[int, ...] | None = None
    for actions, key in outcome_lines(state)[1]:
        if key == outcome and (kept is None or len(actions) < len(kept)):
            kept = actions
    if kept is None:
        raise ValueError("no turn of the position leads to that outcome")
    return turn_of_codes(kept)


def turn_of_codes(codes: tuple[int, ...]) -> Any:
    """The turn of a line's actions (as numbers), kept for the lines met (a turn is a value)."""
    turn = _TURN_OF_CODES.get(codes)
    if turn is None:
        if len(_TURN_OF_CODES) >= KEPT_TURNS:
            _TURN_OF_CODES.clear()
        turn = _TURN_OF_CODES[codes] = turn_of(tuple([gods.ACTIONS[code] for code in codes]))
    return turn


KEPT_TURNS = 1 << 17
"""Turns :func:`turn_of_codes` keeps before it starts again (some 100 bytes each)."""
_TURN_OF_CODES: dict[tuple[int, ...], Any] = {}


@functools.lru_cache(maxsize=64)
def _ways(state: Position) -> dict[Any, Any]:
    """Every way of playing each legal turn (its actions in the order of any line of the
    generator) with the turn it is."""
    turns = _turns(state)
    ways: dict[Any, Any] = {}
    for actions, key in turns.lines:
        turn, kept = turns.kept[key]
        way = turn if actions is kept else turn_of_codes(actions)
        ways.setdefault(way, turn)
    return ways


def table(state: Position) -> dict[Any, Any]:
    """Every legal turn of the player to move (in its shortest form) and the outcome it leads to
    (a key of :func:`outcome_lines`; :func:`result` reads it).

    Turns that lead to the same position are one turn: the one of fewest actions is kept (the
    first generated of those), so Artemis's single move is not written as two moves.
    """
    return _turns(state).table


def result(state: Position, move: Any) -> Result:
    """What the legal turn ``move`` leads to (KeyError for a turn that is not legal)."""
    (g1, g2, g3, dome, workers, supply), after, up, winners = table(state)[move]
    board = gods.board_of((g1, g2, g3, dome), workers, supply, len(state.workers), state.supply is not None)
    return Result(board, after, up, winners)


def canonical(state: Position, move: Any) -> Any:
    """The legal turn that ``move`` plays when it is another way to the same position (Triton
    back on its square by way of b1 or of a1), else ``move`` itself."""
    return _ways(state).get(move, move)


@functools.lru_cache(maxsize=64)
def orders(state: Position) -> dict[Any, tuple[tuple[Action, ...], ...]]:
    """Each legal turn's other orders: the lines of the generator that reach the same position
    with the same kinds of action (Demeter's two builds either way round, Triton by way of
    another perimeter square)."""
    others: dict[Any, list[tuple[Action, ...]]] = {}
    for way, move in _ways(state).items():
        actions = actions_of(way)
        if _reordered(actions_of(move), actions):
            others.setdefault(move, []).append(actions)
    return {move: tuple(found) for move, found in others.items()}


def _reordered(kept: tuple[Action, ...], actions: tuple[Action, ...]) -> bool:
    """Whether ``actions`` are another way of playing ``kept``: the same kinds of action in turn."""
    return actions != kept and [a.kind for a in actions] == [a.kind for a in kept]


def outcomes_of(
    state: Position, walk: Walk, memos: tuple[str, ...], played: list[God]
) -> Callable[[Record], Any]:
    """What each line of the turn leads to, as a key: the board (packed), the memos, Athena's
    seats and the winners.

    What depends only on the position (the seats' gods, whose memos can change, the powers that
    win at the end of a turn) is worked out once for all the turn's lines.
    """
    seat = state.turn
    names = state.powers.gods if state.powers is not None else ("",) * state.players
    bases = [base_god(state, s) for s in range(state.players)]
    changing = [
        (s, god, frozenset(names) - {names[s]}, s == seat and played[seat] is god)
        for s, god in enumerate(bases)
        if type(god).memo_after is not gods.God.memo_after
    ]
    up = (state.powers.up if state.powers is not None else 0) & ~(1 << seat)
    climbed = up | 1 << seat if played[seat].forbids_climb(1) else up
    end_winners = [
        (other, god)
        for other, god in enumerate(played)
        if not state.out >> other & 1 and type(god).wins_at_end is not gods.God.wins_at_end
    ]
    team = state.team(seat)

    def outcome(found: Record) -> Any:
        after = memos
        if changing:
            line = walk.line(found)
            domes_built = line.board.levels[3] != state.levels[3]
            changed = list(memos)
            for s, god, others, own in changing:
                changed[s] = god.memo_after(memos[s], line, own, domes_built, others)
            after = tuple(changed)
        winners = team if found[8] else None
        if winners is None and end_winners:
            board = walk.line(found).board
            for other, god in end_winners:
                if winners is None and god.wins_at_end(board):
                    winners = state.team(other)
        return found[1:7], after, climbed if found[7] else up, winners

    return outcome


CLIMBED = "a worker climbed to level 3"
NO_TURN = "no legal turn"


def end_reason(state: Position, winners: frozenset[int]) -> str:
    """Why a game with gods ended: a climb, the power that won (``"Pan's power"``), or a seat
    left with no legal turn. The seat to move is the mover when it won by its own turn."""
    played = effective_gods(state, state.powers.memos if state.powers is not None else ("",) * state.players)
    if state.turn in winners:
        colour = state.turn % state.colours
        workers = state.workers[2 * colour : 2 * colour + 2]
        if any(cell >= 0 and height(state.levels, cell) == WIN_LEVEL for cell in workers):
            return CLIMBED
        if type(played[state.turn]).wins_by_move is not gods.God.wins_by_move:
            return power_ending(played[state.turn])
    for seat in sorted(winners):
        god = played[seat]
        if type(god).wins_at_end is not gods.God.wins_at_end and god.wins_at_end(_board(state)):
            return power_ending(god)
    return NO_TURN


def power_ending(god: God) -> str:
    """The end reason of a win by ``god``'s power."""
    return f"{god.name.capitalize()}'s power"


def why_illegal(state: Position, move: Any) -> str:
    """Which action of ``move`` no legal turn continues with, and what would be legal there."""
    wanted = actions_of(move)
    known = [actions_of(turn) for turn in _ways(state)]
    done = 0
    while done < len(wanted) and any(k[: done + 1] == wanted[: done + 1] for k in known):
        done += 1
    following = sorted({k[done].to_str() for k in known if len(k) > done and k[:done] == wanted[:done]})
    shown = ", ".join(following[:12]) + (", ..." if len(following) > 12 else "")
    if done == len(wanted):
        return f"the turn is not finished: continue with {shown}" if shown else "no turn matches"
    after = f"after {'+'.join(a.to_str() for a in wanted[:done])}, " if done else ""
    return f"{after}{wanted[done].to_str()} is not allowed" + (f": allowed are {shown}" if shown else "")
