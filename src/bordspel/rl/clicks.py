"""Click-by-click actions: a move made the way the browser makes it, one click at a time.

A game's whole-move action space can be wide (Santorini with gods: 103,709 ids, and a mask as
wide for every step). Here a move is a short sequence of clicks, each from a small alphabet fixed
for the game and its options (:func:`alphabet`): ``end``, the board's squares (``square:c3``),
the toolbar's choices (Hermit's ``colour:R`` and ``placement:U``) and the game's other buttons
(its GameSpec's ``buttons`` part: Santorini's ``button:dome``, Quarto's ``piece:A``). Santorini
with any gods has 27 actions: ``end``, 25 squares and the dome.

No rule is written here: the clicks of each legal move are the browser's (the game's
``move_parts`` and its guide's other orders, the toolbar choices after the path). A click is
legal when some legal move's clicks go on with it; the click that completes a move plays it,
unless the clicks of another move go on from there, when ``end`` plays it (Hermes's build
without a move, Demeter's single build). :class:`ClickTurn` keeps the clicks made so far.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bordspel.core import BordspelError, Part, State, game_part, game_spec, square_name
from bordspel.guide import guide_of, move_parts
from bordspel.rl.codecs import Planes, codec_for

__all__ = ["BUTTONS_PART", "END", "Buttons", "ClickActions", "ClickTurn", "alphabet", "click_actions"]

END = "end"
"""The click that plays the move the clicks so far make, when other moves go on from there."""

Buttons = Callable[[Any], tuple[str, ...]]
"""``buttons(start)``: a game's click tokens besides squares and toolbar choices."""
BUTTONS_PART: Part[Buttons] = Part("buttons", "a function buttons(start) -> tuple[str, ...]", callable)
"""The ``buttons`` part of a GameSpec (by convention ``<package>.web:buttons``)."""

Path = tuple[int, ...]


def alphabet(start: State) -> tuple[str, ...]:
    """The clicks of games from ``start``: ``end``, the squares row by row, the toolbar's choices
    (``key:value``) and the game's buttons."""
    rows, cols = codec_for(start.name, start).observe(start, 0).shape[:2]
    squares = [f"square:{square_name(row, col)}" for row in range(rows) for col in range(cols)]
    choices = [f"{key}:{value}" for key, values in game_spec(start.name).choices for value, _, _ in values]
    buttons = game_part(start.name, BUTTONS_PART)
    return (END, *squares, *choices, *(() if buttons is None else buttons(start)))


class ClickTurn:
    """The legal moves of one position as click paths, and the clicks made so far."""

    def __init__(self, paths: dict[Path, Any]) -> None:
        self.paths = paths
        self.clicks: Path = ()
        self._open = list(self.paths)
        """The paths that start with the clicks made."""

    def _following(self) -> set[int]:
        made = len(self.clicks)
        return {path[made] for path in self._open if len(path) > made}

    def legal(self) -> list[int]:
        """The clicks that may come next (``end``, 0, when the clicks so far make a move that
        other moves go on from)."""
        following = self._following()
        if following and self.clicks in self.paths:
            following.add(0)
        return sorted(following)

    def click(self, action: int) -> Any | None:
        """Make a click: the move it completes, or None while the move goes on; BordspelError
        for a click that no legal move continues with (nothing changes then)."""
        if action == 0 and self.clicks in self.paths and self._following():
            return self.paths[self.clicks]
        made = len(self.clicks)
        still = [path for path in self._open if len(path) > made and path[made] == action]
        if action == 0 or not still:
            raise BordspelError(f"click {action} is not legal here: the legal clicks are {self.legal()}")
        self.clicks, self._open = self.clicks + (action,), still
        if self.clicks in self.paths and not self._following():
            return self.paths[self.clicks]
        return None


class _MoveClicks:
    """Each move's own click paths as actions (the game's ``move_parts``, the toolbar's choices
    after them), kept for the moves met: they depend on the move alone, and a game's positions
    share most of their moves."""

    KEPT = 1 << 17
    """Moves kept before the memory starts again (a move's paths are a few tuples)."""

    def __init__(self, game: str, index: dict[str, int]) -> None:
        self.game, self.index, self.tokens = game, index, tuple(index)
        self.kept: dict[Any, tuple[tuple[Path, ...], tuple[str, ...]]] = {}

    def of(self, move: Any) -> tuple[tuple[Path, ...], tuple[str, ...]]:
        """The move's paths, and the toolbar choices that end each of them (for other orders)."""
        found = self.kept.get(move)
        if found is None:
            if len(self.kept) >= self.KEPT:
                self.kept.clear()
            parts = move_parts(self.game, move)
            chosen = tuple(f"{key}:{value}" for key, value in sorted(parts.get("choices", {}).items()))
            found = tuple(self.path([*tokens, *chosen]) for tokens in parts["paths"]), chosen
            self.kept[move] = found
        return found

    def path(self, tokens: list[str]) -> Path:
        """The actions of a path's tokens."""
        return tuple(self._action(token) for token in tokens)

    def _action(self, token: str) -> int:
        try:
            return self.index[token]
        except KeyError:
            raise BordspelError(
                f"{self.game} has a click {token!r} outside its alphabet: give its GameSpec a buttons part"
            ) from None


def _paths(state: State, moves: _MoveClicks) -> dict[Path, Any]:
    """Every click path of every legal move (the toolbar's choices after the clicks), with its move."""
    guide = guide_of(state.name)
    found: dict[Path, Any] = {}
    for move in state.legal_moves():
        own, chosen = moves.of(move)
        others = [moves.path([*tokens, *chosen]) for tokens in guide.orders(state, move)]
        for path in [*own, *others]:
            if found.setdefault(path, move) != move:
                tokens = [moves.tokens[action] for action in path]
                raise BordspelError(f"{state.name}: two moves have the clicks {tokens}")
    return found


class ClickActions:
    """The click-by-click action space of games from ``start``: the actions are the indices of
    :func:`alphabet`; the observation is the game's planes and one plane more, the order of the
    squares clicked so far in the move (1 for the first, 0 for a square not clicked)."""

    def __init__(self, start: State) -> None:
        self.codec = codec_for(start.name, start)
        self.tokens = alphabet(start)
        self.index = {token: i for i, token in enumerate(self.tokens)}
        self._moves = _MoveClicks(start.name, self.index)
        self.shape = self.codec.observe(start, 0).shape
        self.cols = self.shape[1]
        if not start.is_over():
            self.turn(start)  # a click outside the alphabet is refused now, not in an episode

    @property
    def num_actions(self) -> int:
        """The size of the alphabet."""
        return len(self.tokens)

    def turn(self, state: State) -> ClickTurn:
        """The legal moves of ``state`` as clicks, none made yet."""
        return ClickTurn(_paths(state, self._moves))

    def mask(self, turn: ClickTurn | None) -> Planes:
        """1 for each legal click (none without a turn: the game is over or not the agent's)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if turn is not None:
            mask[turn.legal()] = 1
        return mask

    def observe(self, state: State, seat: int, turn: ClickTurn | None) -> Planes:
        """The game's planes of ``state`` seen by ``seat``, and the plane of the clicks made."""
        made = np.zeros((*self.shape[:2], 1), dtype=np.int8)
        squares = 1 + self.shape[0] * self.cols
        for order, action in enumerate(() if turn is None else turn.clicks, start=1):
            if 1 <= action < squares:
                made[divmod(action - 1, self.cols)] = order
        return np.concatenate([self.codec.observe(state, seat), made], axis=2)

    def highest(self, start: State) -> int:
        """The largest value in the planes (the observation space's bound)."""
        return 127


def click_actions(start: State, actions: str) -> ClickActions | None:
    """The environments' ``actions`` option: ``"clicks"`` gives the click actions of games from
    ``start``, ``"moves"`` None (one id a move); ValueError for anything else."""
    if actions not in ("moves", "clicks"):
        raise ValueError(
            f"actions is 'moves' (one id a move) or 'clicks' (a move click by click), not {actions!r}"
        )
    return ClickActions(start) if actions == "clicks" else None
