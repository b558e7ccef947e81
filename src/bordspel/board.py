"""A mutable board with a move history, in the manner of python-chess's ``chess.Board``.

The states of bordspel are immutable: ``state.play('c3d4')`` returns a new state. A
:class:`Board` holds the current state and the moves that led to it, for code that plays and
takes back moves in place (``board.push_str('A')``, ``board.pop()``; see "A board with
history" in the engine guide).

One class serves every registered game: it only uses the game protocol of ``bordspel.core``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from bordspel.core import BordspelError, MoveT, Outcome, State, new_game

if TYPE_CHECKING:
    from bordspel.record import Game

__all__ = ["Board"]


class Board(Generic[MoveT]):
    """A game in progress: its starting state, the moves played since, and the current state.

    A refused move raises the game's error (IllegalMoveError, NotationError) and changes
    nothing. Two boards are equal when they started from the same state and played the same moves.
    """

    __slots__ = ("_states", "move_stack")

    def __init__(self, start: State[MoveT]) -> None:
        if not isinstance(start, State):
            raise BordspelError(f"a Board starts from a game state, not {type(start).__name__}")
        self._states: list[State[MoveT]] = [start]
        self.move_stack: list[MoveT] = []
        """The moves played from the starting state, oldest first (read it; change it by push and pop)."""

    @classmethod
    def new(cls, game: str, **options: Any) -> Board[Any]:
        """A board at the starting position of the registered ``game`` with its options."""
        return cls(new_game(game, **options))

    @property
    def state(self) -> State[MoveT]:
        """The current (immutable) state."""
        return self._states[-1]

    @property
    def start(self) -> State[MoveT]:
        """The state the board started from."""
        return self._states[0]

    def options(self) -> dict[str, Any]:
        """The game options of the starting state (as ``initial`` takes them)."""
        return self.start.options()

    @property
    def to_move(self) -> int:
        """The seat to move in the current state."""
        return self.state.to_move

    @property
    def ply(self) -> int:
        """The number of moves played from the start."""
        return len(self.move_stack)

    @property
    def legal_moves(self) -> list[MoveT]:
        """The legal moves of the current state (empty when the game is over)."""
        return self.state.legal_moves()

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` is legal in the current state."""
        return self.state.is_legal(move)

    def push(self, move: MoveT) -> None:
        """Play ``move`` (a move object); a refused move raises IllegalMoveError and changes nothing."""
        self._push(move, self.state.apply(move))

    def push_str(self, text: str) -> MoveT:
        """Play the move written as ``text`` and return it; a refused move raises and changes nothing."""
        move = self.state.parse_move(text)
        self._push(move, self.state.apply_unchecked(move))
        return move

    def _push(self, move: MoveT, following: State[MoveT]) -> None:
        self._states.append(following)
        self.move_stack.append(move)

    def pop(self) -> MoveT:
        """Take back the last move and return it (BordspelError when no move was played)."""
        if not self.move_stack:
            raise BordspelError("pop() on a board with no moves played: there is nothing to take back")
        self._states.pop()
        return self.move_stack.pop()

    def peek(self) -> MoveT:
        """The last move played (BordspelError when no move was played)."""
        if not self.move_stack:
            raise BordspelError("peek() on a board with no moves played: there is no last move")
        return self.move_stack[-1]

    def is_game_over(self) -> bool:
        """Whether the game has ended in the current state."""
        return self.state.is_over()

    def outcome(self) -> Outcome | None:
        """The outcome of the current state, ``None`` while the game goes on."""
        return self.state.outcome()

    def copy(self, *, stack: bool = True) -> Board[MoveT]:
        """An independent board in the same state; with ``stack=False`` it starts at the current
        state with no moves to take back."""
        if not stack:
            return Board(self.state)
        other = Board(self.start)
        other._states, other.move_stack = list(self._states), list(self.move_stack)
        return other

    def root(self) -> Board[MoveT]:
        """A new board at the starting state, with no moves played."""
        return Board(self.start)

    @classmethod
    def from_game(cls, game: Game) -> Board[Any]:
        """A board at the end of the main line of a game record (``bordspel.record.Game``)."""
        board: Board[Any] = cls(game.start)
        for node in game.root.mainline():
            board._push(node.move, node.state)
        return board

    def to_game(self, tags: dict[str, str] | None = None) -> Game:
        """A game record of the moves played (``bordspel.record.Game``; write it with ``to_record()``)."""
        from bordspel.record import Game  # records are read and written only when asked for

        game = Game(self.start, tags)
        node = game.root
        for move in self.move_stack:
            node = node.add_variation(move)
        return game

    def states(self) -> list[State[MoveT]]:
        """The states from the start to the current one (one more than the moves)."""
        return list(self._states)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.start == other.start and self.move_stack == other.move_stack

    __hash__ = None  # type: ignore[assignment]  # a board changes in place

    def __repr__(self) -> str:
        return f"<Board {self.state.name} ply={self.ply} {self.state.to_str()!r}>"

    def __str__(self) -> str:
        return str(self.state)
