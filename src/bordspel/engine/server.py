"""``bordspel engine``: the engine protocol's engine side on stdin and stdout (see
docs/engine-protocol.md). Every search runs in a child process, so ``stop``, ``isready`` and
``quit`` are read while it thinks; a bad command gets an ``info string error`` line."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TextIO

from bordspel import __version__
from bordspel.ai.players import Analyser, Player
from bordspel.ai.registry import make_player
from bordspel.ai.search import Limit, SearchResult
from bordspel.core import BordspelError, State, available_games, game_class, new_game
from bordspel.engine.protocol import CLOCK_WORDS, INCREMENT_WORDS, PROTOCOL_VERSION, info_line
from bordspel.game_options import option_defaults, parse_options

__all__ = ["EngineServer", "Go", "clock_budget", "parse_go", "serve"]

MAX_MULTIPV = 256
INFINITE_PLAYOUTS = 500
"""An infinite MCTS analysis searches rounds of doubling playouts, starting with this many."""
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent ends."""
PARENT_CHECK = 0.5
"""Seconds between a search process's checks that the engine still runs (where Linux's
parent-death signal is not to be had)."""
BUDGET_WORDS = ("depth", "nodes", "movetime", "movestogo", *CLOCK_WORDS, *INCREMENT_WORDS)
FLAG_WORDS = ("infinite", "ponder", "searchmoves")
MOVES_TO_GO = 30
"""The moves a clock is shared among when ``go`` does not say (``movestogo``)."""
CLOCK_SHARE = 0.5
"""The most of the time left that one move may take."""
CLOCK_OVERHEAD = 0.05
"""Seconds of a move's share kept for answering and the pipes."""
SHORTEST_MOVE = 0.01
"""The least time a move on the clock is given (seconds)."""


class EngineServer:
    """The engine's state between commands: game, options, player, position, running search."""

    def __init__(self, out: TextIO, game: str = "santorini", player: str = "hard") -> None:
        self.out, self.lock = out, threading.Lock()
        self.game, self.game_options = game, dict[str, str]()
        self.player_spec, self.multipv = player, 1
        self.seed: int | None = None
        make_player(player, game)  # refuse an unknown player at once
        self.player: Player | None = None
        self.state: State = new_game(game)
        self.search: Search | None = None
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "bordspel": self.identify,
            "isready": lambda words: self.say("readyok"),
            "setoption": self.set_option,
            "newgame": self.new_game,
            "position": self.position,
            "go": self.go,
            "stop": lambda words: self.stop(),
            "ponderhit": self.ponderhit,
        }

    def say(self, line: str) -> None:
        """Write one line to the program on the other side."""
        with self.lock:
            print(line, file=self.out, flush=True)

    def run(self, lines: Iterable[str]) -> None:
        """Answer ``lines`` until ``quit`` or their end; a running search is stopped first."""
        for line in lines:
            words = line.split()
            if words and words[0] == "quit":
                break
            if words:
                self.handle(words)
        self.stop()

    def handle(self, words: list[str]) -> None:
        """Answer one command; an error is an ``info string error`` line, never the end."""
        command = self.commands.get(words[0])
        try:
            if command is None:
                raise BordspelError(f"unknown command {words[0]!r}: try {', '.join(self.commands)} or quit")
            if self.searching() and words[0] not in ("isready", "stop", "bordspel", "ponderhit"):
                raise BordspelError(f"{words[0]} during a search: send stop first")
            command(words[1:])
        except (BordspelError, ValueError, TypeError) as error:
            self.say(f"info string error {error}")

    def searching(self) -> bool:
        """Whether a search runs (its ``bestmove`` is not yet written)."""
        return self.search is not None and not self.search.finished

    def identify(self, words: list[str]) -> None:
        """``bordspel``: who this is, what it plays and its options, then ``bordspelok``."""
        self.say(f"id name bordspel {__version__}")
        self.say("id author the bordspel authors")
        self.say(f"id protocol {PROTOCOL_VERSION}")
        self.say(f"id games {' '.join(available_games())}")
        games = " ".join(f"var {name}" for name in available_games())
        self.say(f"option name game type combo default {self.game} {games}")
        self.say(f"option name player type string default {self.player_spec}")
        self.say(f"option name multipv type spin default {self.multipv} min 1 max {MAX_MULTIPV}")
        self.say(f"option name seed type string default {_shown(self.seed)}")
        for name, default in option_defaults(self.game).items():
            value = self.game_options.get(name, default)
            self.say(f"option name game.{name} type {_option_type(default)} default {_shown(value)}")
        self.say("bordspelok")

    def set_option(self, words: list[str]) -> None:
        """``setoption name NAME [value VALUE]``."""
        if not words or words[0] != "name" or len(words) < 2:
            raise BordspelError("write setoption name NAME value VALUE")
        name, _, value = " ".join(words[1:]).partition(" value ")
        name, value = name.strip(), value.strip()
        if name.startswith("game."):
            self._set_game_option(name.removeprefix("game."), value)
        elif name == "game":
            self._set_game(value)
        elif name == "player":
            make_player(value, self.game)
            self.player_spec, self.player = value, None
        elif name == "multipv":
            self.multipv = _whole(value, "multipv", 1, MAX_MULTIPV)
        elif name == "seed":
            self.seed, self.player = (
                None if value in ("", "<empty>") else _whole(value, "seed", 0, 2**63),
                None,
            )
        else:
            raise BordspelError(f"unknown option {name!r}: send bordspel to list the options")

    def _set_game(self, game: str) -> None:
        if game not in available_games():
            raise BordspelError(f"unknown game {game!r}: choose one of {', '.join(available_games())}")
        make_player(self.player_spec, game)
        self.game, self.game_options, self.player = game, {}, None
        self.state = new_game(game)

    def _set_game_option(self, name: str, value: str) -> None:
        options = dict(self.game_options)
        if value in ("", "<empty>"):
            options.pop(name, None)
        else:
            options[name] = value
        self.state = self._start(options)
        self.game_options = options

    def _start(self, options: dict[str, str]) -> State:
        """The starting position of the game with ``options`` (text), checked."""
        pairs = [f"{name}={value}" for name, value in options.items()]
        return new_game(self.game, **parse_options(self.game, pairs))

    def new_game(self, words: list[str]) -> None:
        """``newgame``: the starting position, and a fresh player (no memory of earlier games)."""
        self.state, self.player = self._start(self.game_options), None

    def position(self, words: list[str]) -> None:
        """``position startpos|string TEXT [moves MOVE ...]``."""
        texts = words[words.index("moves") + 1 :] if "moves" in words else []
        head = words[: words.index("moves")] if "moves" in words else words
        if head[:1] == ["startpos"] and len(head) == 1:
            state = self._start(self.game_options)
        elif head[:1] == ["string"] and len(head) > 1:
            state = game_class(self.game).from_str(" ".join(head[1:]))
        else:
            raise BordspelError("write position startpos or position string TEXT, then moves MOVE ...")
        for text in texts:
            state = state.play(text)
        self.state = state

    def go(self, words: list[str]) -> None:
        """``go`` with a budget (``depth``, ``nodes``, ``movetime``, clocks), ``searchmoves``,
        ``ponder`` or ``infinite``: search in a child process. A ``go`` refused (a bad limit, a
        finished game) is answered at once with the error and ``bestmove (none)``, so that the
        other side never waits for a search that never began."""
        try:
            if self.state.is_over():
                raise BordspelError("the game is over: there is no move to search")
            command = parse_go(words, self.state)
            if self.player is None:
                self.player = make_player(self.player_spec, self.game, self.seed)
            if command.root_moves is not None and not isinstance(self.player, Analyser):
                raise BordspelError(f"searchmoves needs a player that searches, not {self.player_spec}")
        except (BordspelError, ValueError, TypeError) as error:
            self.say(f"info string error {error}")
            self.say("bestmove (none)")
            return
        self.search = Search(self, self.player, self.state, command, self.multipv)

    def ponderhit(self, words: list[str]) -> None:
        """``ponderhit``: the move pondered on was played; the search goes on within its ``go``'s
        budget, counted from now."""
        if self.search is None or not self.searching() or not self.search.command.ponder:
            raise BordspelError("ponderhit without a go ponder running")
        self.search.hit()

    def stop(self) -> None:
        """``stop``: end the running search at once; it answers ``bestmove`` from what it found."""
        if self.search is not None:
            self.search.stop()
            self.search = None


@dataclass(frozen=True)
class Go:
    """What one ``go`` asks for: its budget (None: the player's own), and whether it searches
    until stopped, ponders, or searches only some root moves."""

    limit: Limit | None
    infinite: bool = False
    ponder: bool = False
    root_moves: list[Any] | None = None


def parse_go(words: list[str], state: State) -> Go:
    """``go``'s words for ``state``: the clock of the seat to move gives a time budget
    (:func:`clock_budget`; with ``movetime`` too, the shorter), ``searchmoves`` takes the moves
    up to the next word of ``go``."""
    budget: dict[str, int] = {}
    flags: set[str] = set()
    root_moves: list[Any] | None = None
    index = 0
    while index < len(words):
        word = words[index]
        if word == "searchmoves":
            end = next(
                (i for i in range(index + 1, len(words)) if words[i] in (*BUDGET_WORDS, *FLAG_WORDS)),
                len(words),
            )
            root_moves = [state.parse_move(text) for text in words[index + 1 : end]]
            index = end
        elif word in FLAG_WORDS:
            flags.add(word)
            index += 1
        elif word in BUDGET_WORDS and index + 1 < len(words):
            low = 0 if word in (*CLOCK_WORDS, *INCREMENT_WORDS) else 1
            budget[word] = _whole(words[index + 1], word, low, 2**63)
            index += 2
        else:
            raise BordspelError(
                f"go takes {', '.join(f'{w} N' for w in BUDGET_WORDS)}, searchmoves MOVE ..., ponder"
                f" or infinite, not {word!r}"
            )
    if root_moves == []:
        raise BordspelError("searchmoves names the moves to search: at least one")
    return Go(_budget(budget, state.to_move), "infinite" in flags, "ponder" in flags, root_moves)


def _budget(budget: dict[str, int], seat: int) -> Limit | None:
    """The limit of ``go``'s numbers for ``seat`` to move (None when it gives none)."""
    seconds = budget["movetime"] / 1000 if "movetime" in budget else None
    if seat < len(CLOCK_WORDS) and CLOCK_WORDS[seat] in budget:
        clock = budget[CLOCK_WORDS[seat]] / 1000
        increment = budget.get(INCREMENT_WORDS[seat], 0) / 1000
        share = clock_budget(clock, increment, budget.get("movestogo"))
        seconds = share if seconds is None else min(seconds, share)
    if seconds is None and "depth" not in budget and "nodes" not in budget:
        return None
    return Limit(seconds, budget.get("depth"), budget.get("nodes"))


def clock_budget(remaining: float, increment: float = 0.0, moves_to_go: int | None = None) -> float:
    """Seconds for one move with ``remaining`` seconds on the clock: an even share of it over
    the moves to go (``MOVES_TO_GO`` when not given) plus the increment, at most half the time
    left, less a margin for answering; never below ``SHORTEST_MOVE``."""
    share = remaining / (moves_to_go or MOVES_TO_GO) + increment
    return max(SHORTEST_MOVE, min(share, CLOCK_SHARE * remaining) - CLOCK_OVERHEAD)


def _whole(text: str, name: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise BordspelError(f"{name} is a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _option_type(default: object) -> str:
    if isinstance(default, bool):
        return "check"
    return "spin" if isinstance(default, int) else "string"


def _shown(value: object) -> str:
    if value is None or value == "":
        return "<empty>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Search:
    """One ``go``: the search in a child process, and a thread that relays its lines and ends
    with ``bestmove``."""

    def __init__(self, server: EngineServer, player: Player, state: State, command: Go, multipv: int) -> None:
        self.server, self.state, self.command, self.player = server, state, command, player
        self.finished = False
        """Set just before ``bestmove``: from then on the engine takes any command."""
        self.released = threading.Event()
        """Set when ``bestmove`` may be written: at once, or for a ponder search at ``ponderhit``
        or ``stop``."""
        self.bound: Limit | None = None
        """The budget the relay ends the search at (a ponder search's, from ``ponderhit`` on)."""
        self.reached = (0, 0)
        """The deepest depth and the most nodes reported so far."""
        if not command.ponder:
            self.released.set()
        reader, writer = multiprocessing.Pipe(duplex=False)
        args = (player, state, command, multipv, writer, os.getpid())
        self.process = _SEARCH_CONTEXT.Process(target=_search, args=args, daemon=True)
        self.process.start()
        writer.close()
        self.thread = threading.Thread(target=self._relay, args=(reader,), daemon=True)
        self.thread.start()

    def _relay(self, reader: Connection) -> None:
        best, failed, line = None, False, []
        while True:
            try:
                message = reader.recv()
            except (EOFError, OSError):
                break
            if isinstance(message, SearchResult):
                self.server.say(info_line(message))
                if message.multipv == 1:
                    best, line = message.move, message.principal_variation
                self._note(message)
            elif isinstance(message, str):
                self.server.say(f"info string error {message}")
                failed = True
            elif message is not None:
                best = message  # a move of a player that does not search
        self.process.join()
        if best is None and not failed:
            best = self.state.legal_moves()[0]
            self.server.say("info string stopped before the search found a move: the first legal move")
        self.released.wait()
        self.finished = True
        self.server.say(f"bestmove {_best_words(best, line)}")

    def _note(self, result: SearchResult) -> None:
        """Keep what the search reached; end it once it has reached its bound."""
        self.reached = (max(self.reached[0], result.depth), max(self.reached[1], result.nodes))
        if self.bound is not None and _reached(self.bound, *self.reached):
            self._end_child()

    def hit(self) -> None:
        """``ponderhit``: end the search at its ``go``'s budget (the player's own without one),
        counted from now, and let ``bestmove`` out."""
        bound = self.command.limit or getattr(self.player, "limit", None)
        if not isinstance(bound, Limit) or _reached(bound, *self.reached):
            self._end_child()
        else:
            self.bound = bound
            if bound.time is not None:
                timer = threading.Timer(bound.time, self._end_child)
                timer.daemon = True
                timer.start()
        self.released.set()

    def _end_child(self) -> None:
        if self.process.is_alive():
            self.process.terminate()

    def stop(self) -> None:
        """End the child process (when still searching) and wait for ``bestmove``."""
        self._end_child()
        self.released.set()
        self.thread.join()


def _reached(bound: Limit, depth: int, nodes: int) -> bool:
    """Whether a search that reached ``depth`` and ``nodes`` has used up ``bound``'s depth or nodes."""
    return (bound.depth is not None and depth >= bound.depth) or (
        bound.nodes is not None and nodes >= bound.nodes
    )


def _best_words(best: Any, line: Sequence[Any]) -> str:
    """``bestmove``'s words: the move, and the reply it expects to ponder on (``ponder MOVE``)."""
    if best is None:
        return "(none)"
    if len(line) > 1 and line[0] == best:
        return f"{best.to_str()} ponder {line[1].to_str()}"
    return str(best.to_str())


def _search(player: Player, state: State, command: Go, multipv: int, writer: Connection, parent: int) -> None:
    """The child process: every result of the search, then None."""
    _die_with_parent(parent)
    try:
        for message in _results(player, state, command, multipv):
            writer.send(message)
    except (BordspelError, ValueError) as error:
        writer.send(str(error))
    except Exception as error:  # a bug in a player: the engine says so and lives on
        writer.send(f"the search failed: {type(error).__name__}: {error}")
    writer.send(None)


_SEARCH_CONTEXT = (
    multiprocessing.get_context("fork")
    if "fork" in multiprocessing.get_all_start_methods()
    else multiprocessing.get_context("spawn")
)
"""How the search process starts: as the engine's own child (not a fork server's, Python 3.14's
default on Linux), so that it can watch the engine as its parent."""


def _die_with_parent(parent: int) -> None:
    """Tie the search process to the engine's: give up the engine's stdout (so that the other
    side sees the engine's end at once), and end when the engine ends, killed or not (the
    kernel's parent-death signal on Linux, a thread watching the parent elsewhere)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    if not _parent_death_signal():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the engine ended before the signal was asked for
        os._exit(1)


def _parent_death_signal() -> bool:
    """Ask Linux to kill this process when its parent ends; whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """End this process once its parent has ended (it is then another process's child)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)


def _results(player: Player, state: State, command: Go, multipv: int) -> Iterator[Any]:
    """What the search says as it goes: analyses, or the move of a player that does not search
    (a ponder search goes on until stopped, as an infinite one)."""
    if not isinstance(player, Analyser):
        yield player.step(state)
        return
    root_moves = command.root_moves
    if not (command.infinite or command.ponder):
        yield from player.analysis(state, command.limit, multipv, root_moves)
        return
    if not getattr(player, "searches_in_rounds", False):
        yield from player.analysis(state, Limit(), multipv, root_moves)  # deepens until stopped
        return
    playouts = INFINITE_PLAYOUTS
    while True:  # MCTS and zero report once a search: ever longer ones until stopped
        yield from player.analysis(state, Limit(nodes=playouts), multipv, root_moves)
        playouts *= 2


def serve(
    game: str = "santorini", player: str = "hard", stdin: TextIO | None = None, stdout: TextIO | None = None
) -> None:
    """Speak the protocol on ``stdin`` and ``stdout`` (the process's own by default) until ``quit``."""

    source = sys.stdin if stdin is None else stdin
    server = EngineServer(sys.stdout if stdout is None else stdout, game, player)
    server.run(iter(source.readline, ""))
