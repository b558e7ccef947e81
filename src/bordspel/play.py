"""``bordspel play``: a game in the terminal against the computer or another person.

Type a move in the game's notation, or a command: ``moves``, ``hint``, ``undo``, ``save FILE``,
``load FILE``, ``position``, ``cards``, ``help``, ``quit``. The prompt says what to type, in the
words of the game's guide ("Your turn (worker, move, build, like c3d4e4): ", "Place piece K, then
hand your opponent a piece (like a1:B): "). A mistyped or illegal move gets a one-line reason and
a new prompt. Boards are drawn in colour (through rich when it is installed).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from bordspel import ansi
from bordspel.ai import make_player
from bordspel.ai.players import Player, close_player
from bordspel.core import BordspelError, Move, State
from bordspel.guide import guide_of
from bordspel.record import Game

__all__ = ["Session", "picture", "seats_for", "turn_prompt"]

HUMAN = "human"
ORDINALS = ("first", "second", "third", "fourth")
OVER_PROMPT = "Game over: save FILE keeps the record, undo takes back, Enter leaves: "
HELP = """{first_line}
  moves        list the legal moves
  hint         what the computer ({hint}) would play
  undo         take back your last move (and the computer's replies)
  save FILE    write the game record to FILE
  load FILE    continue the game recorded in FILE
  position     the position string
  cards        the god cards (Santorini) or other notes on the game
  quit         stop"""


class Session:
    """One terminal game: seats (``human`` or a player specification), I/O and commands."""

    def __init__(
        self,
        game: Game,
        seats: list[str],
        *,
        colour: bool = True,
        hint: str = "hard",
        seed: int | None = None,
        out: TextIO = sys.stdout,
        read: Callable[[str], str] = input,
    ) -> None:
        if len(seats) != game.state.num_players:
            raise BordspelError(f"this game has {game.state.num_players} seats, not {len(seats)}")
        self.game, self.seats, self.colour, self.hint_spec, self.seed = game, seats, colour, hint, seed
        self.out, self.read = out, read
        self.players: dict[int, Player] = {}
        self.commands: dict[str, Callable[[str], None]] = {
            "moves": self._moves,
            "hint": self._hint,
            "undo": self._undo,
            "save": self._save,
            "load": self._load,
            "position": lambda _: self._say(self.game.state.to_str()),
            "cards": lambda _: self._say(ansi.notes(self.game.state) or "nothing to add to the board"),
            "help": lambda _: self._help(),
        }

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _show(self) -> None:
        state = self.game.state
        self._say("")
        last = self.game.moves[-1] if self.game.moves else None
        self._say(picture(state, self.colour, last))
        outcome = state.outcome()
        if outcome is None:
            if not self._alone(state.to_move):  # the prompt addresses the only person
                self._say(f"{self._seat_name(state.to_move)} to move")
        else:
            winners = " and ".join(self._seat_name(s) for s in sorted(outcome.winners)) or "nobody"
            self._say(f"result {outcome.result_str()}: {winners} won ({outcome.termination})")

    def _line_up(self) -> str:
        """Who plays which seat, said before the first move (type help for the commands)."""
        name = self.game.state.name.capitalize()
        if self.seats.count(HUMAN) == 1:
            seat = self.seats.index(HUMAN)
            others = " and ".join(spec for spec in self.seats if spec != HUMAN)
            place = ORDINALS[seat] if seat < len(ORDINALS) else f"in seat {seat + 1}"
            return f"{name}: you play {place}, against {others} (the computer). Type help for the commands."
        seats = ", ".join(
            f"player {seat + 1}: " + ("a person" if spec == HUMAN else f"{spec} (computer)")
            for seat, spec in enumerate(self.seats)
        )
        return f"{name}, {seats}. Type help for the commands."

    def _alone(self, seat: int) -> bool:
        """Whether ``seat`` is the only person's (against the computer)."""
        return self.seats[seat] == HUMAN and self.seats.count(HUMAN) == 1

    def _seat_name(self, seat: int) -> str:
        if self._alone(seat):
            return "you"
        spec = self.seats[seat]
        return f"player {seat + 1}" + ("" if spec == HUMAN else f" ({spec})")

    def run(self) -> int:
        """Play until the game ends with no person left to undo, or the person leaves; then
        end the players' programs (engines), if any."""
        try:
            return self._run()
        finally:
            for player in self.players.values():
                close_player(player)

    def _run(self) -> int:
        self._say(self._line_up())
        if ansi.notes(self.game.state):
            self._say(ansi.notes(self.game.state))
        self._show()
        while True:
            state = self.game.state
            if not state.is_over() and self.seats[state.to_move] != HUMAN:
                self._computer_moves()
                continue
            if state.is_over() and HUMAN not in self.seats:
                return 0
            try:
                line = self.read(turn_prompt(state) if not state.is_over() else OVER_PROMPT)
            except EOFError:
                self._say("")
                return 0
            if (not line.strip() and state.is_over()) or not self._handle(line.strip()):
                return 0

    def _handle(self, line: str) -> bool:
        word, _, rest = line.partition(" ")
        if word in ("quit", "exit"):
            return False
        if not line:
            return True
        try:
            if word in self.commands:
                self.commands[word](rest.strip())
            elif self.game.state.is_over():
                self._say("the game is over: undo, save FILE or quit")
            else:
                self.game.play(line)
                self._show()
        except (BordspelError, OSError) as error:
            self._say(f"{error} (type help for commands)")
        return True

    def _computer_moves(self) -> None:
        state = self.game.state
        seat = state.to_move
        player = self.players.get(seat)
        if player is None:
            seed = None if self.seed is None else self.seed + seat
            player = self.players[seat] = make_player(self.seats[seat], state.name, seed)
        move = player.step(state)
        self.game.play(move)
        self._say(f"{self._seat_name(seat)} plays {move.to_str()}")
        self._show()

    def _moves(self, _: str) -> None:
        moves = [m.to_str() for m in self.game.state.legal_moves()]
        self._say(" ".join(moves) if moves else "no legal moves")

    def _hint(self, _: str) -> None:
        state = self.game.state
        if state.is_over():
            raise BordspelError("the game is over")
        player = make_player(self.hint_spec, state.name, self.seed)
        try:
            move = player.step(state)
        finally:
            close_player(player)
        self._say(f"hint: {move.to_str()}")

    def _undo(self, _: str) -> None:
        game = self.game
        if not game.moves:
            raise BordspelError("there is no move to undo")
        game.undo()
        while game.moves and self.seats[game.state.to_move] != HUMAN:
            game.undo()
        self._show()

    def _save(self, path: str) -> None:
        if not path:
            raise BordspelError("save needs a file name: save FILE")
        self.game.tags.update({f"Seat{i + 1}": spec for i, spec in enumerate(self.seats)})
        self.game.write(path)
        self._say(f"saved to {path}")

    def _load(self, path: str) -> None:
        if not path:
            raise BordspelError("load needs a file name: load FILE")
        loaded = Game.read(path)
        if loaded.state.num_players != len(self.seats):
            raise BordspelError(
                f"{path} is a game for {loaded.state.num_players} seats, this one has {len(self.seats)}"
            )
        self.game, self.players = loaded, {}
        self._show()

    def _help(self) -> None:
        state = self.game.state
        if state.is_over():
            first_line = "The game is over; press Enter to leave, or type one of:"
        else:
            first_line = f"Type a move ({_what_to_type(state)[1]}), or one of:"
        self._say(HELP.format(first_line=first_line, hint=self.hint_spec))


def turn_prompt(state: State) -> str:
    """What the person to move is asked, in the words of the game's guide: the parts of a typed
    move ("Your turn (colour R/Y/B, square, ..., like Ra1U): "), or else its clicks' prompts
    joined ("Place piece K, then hand your opponent a piece (like a1:B): "), with a legal move
    as the example."""
    head, inside = _what_to_type(state)
    return f"{head} ({inside}): " if inside else f"{head}: "


def _what_to_type(state: State) -> tuple[str, str]:
    """The prompt's head ("Your turn", or the clicks' prompts) and the words in its brackets."""
    moves = state.legal_moves()
    example = f"like {moves[len(moves) // 2].to_str()}" if moves else ""
    words = guide_of(state.name).prompts(state).get("en", {})
    typed = words.get("typed", "")
    said = "" if typed else ", then ".join(words[step] for step in _steps(state, moves) if step in words)
    head = f"{said[:1].upper()}{said[1:]}" if said else "Your turn"
    return head, ", ".join(part for part in (typed, example) if part)


def _steps(state: State, moves: list[Move]) -> list[str]:
    """The prompt keys of the legal moves' clicks, each once, in their order."""
    clicks = guide_of(state.name).clicks
    steps: dict[str, None] = {}
    for move in moves:
        steps.update(dict.fromkeys(clicks(state, move).get("steps", [])))
    return list(steps)


def picture(state: State, colour: bool, last: Move | None = None) -> str:
    """The position for a terminal, the squares of ``last`` (the move that led here) marked."""
    text = ansi.render(state, last, colour=colour)
    if not colour:
        return text
    try:
        from rich.console import Console
        from rich.text import Text
    except ImportError:
        return text
    console = Console(force_terminal=True)
    with console.capture() as captured:
        console.print(Text.from_ansi(text))
    return captured.get().rstrip("\n")


def seats_for(players: int, human_seat: int, opponent: str, hotseat: bool, overrides: list[str]) -> list[str]:
    """Who plays each seat: the person in ``human_seat``, ``opponent`` elsewhere, then overrides."""
    if not 1 <= human_seat <= players:
        raise BordspelError(f"--seat is from 1 to {players}")
    seats = [HUMAN if hotseat or s == human_seat - 1 else opponent for s in range(players)]
    for override in overrides:
        seat, eq, spec = override.partition("=")
        if not eq or not seat.isdigit() or not 1 <= int(seat) <= players:
            raise BordspelError(f"--player takes SEAT=PLAYER with SEAT from 1 to {players}, not {override!r}")
        seats[int(seat) - 1] = spec
    return seats
