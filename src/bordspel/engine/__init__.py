"""A driver for any program that speaks the engine protocol (docs/engine-protocol.md), in the
manner of python-chess's ``chess.engine``::

    with SimpleEngine.popen(["bordspel", "engine"]) as engine:
        move = engine.play(state, Limit(time=0.5)).move
        lines = engine.analyse(state, Limit(depth=4), multipv=3)

and for asyncio ``engine = await popen_engine(["bordspel", "engine"])``, whose methods are
coroutines (:class:`AsyncEngine`).

Every wait is bounded: an engine silent for ``timeout`` seconds beyond its search's own time
raises :class:`EngineTimeout`, one that dies :class:`EngineTerminated` (with its exit code and
last stderr lines), one that writes what the protocol has not :class:`EngineProtocolError`;
the engine is killed then, and on ``close``, with every process it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, NoReturn, TypeVar, overload

from bordspel.ai import search
from bordspel.core import BordspelError, State, check_int
from bordspel.engine.protocol import CLOCK_WORDS, INCREMENT_WORDS, Info, Score, parse_info

__all__ = [
    "AnalysisResult",
    "AsyncAnalysis",
    "AsyncEngine",
    "EngineError",
    "EnginePlayer",
    "EngineProtocolError",
    "EngineTerminated",
    "EngineTimeout",
    "Info",
    "Limit",
    "Option",
    "PlayResult",
    "Score",
    "SimpleEngine",
    "popen_engine",
]

LINE_WORDS = ("id", "option", "bordspelok", "readyok", "info", "bestmove")
"""The first words of the lines an engine writes."""

BANNER_LINES = 20
"""Lines of other text an engine may write before it answers ``bordspel`` (a banner, say)."""

QUIT_WAIT = 1.0
"""Seconds an engine gets to end after ``quit`` before it is killed."""

LIVENESS_CHECK = 0.25
"""Seconds between the driver's checks, while it waits for a line, that the engine still runs."""

T = TypeVar("T")


@dataclass(frozen=True)
class Limit(search.Limit):
    """How long the engine may think: ``time``, ``depth``, ``nodes`` (``bordspel.ai.Limit``'s),
    and the clocks: ``clocks`` the seconds left on each seat's clock and ``increments`` the
    seconds each gains a move (both in seat order), ``moves_to_go`` the moves until the clocks
    are next topped up. The engine shares the clock of the seat to move out among its moves."""

    clocks: tuple[float, ...] | None = None
    increments: tuple[float, ...] | None = None
    moves_to_go: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("clocks", "increments"):
            values = getattr(self, name)
            if values is not None and not _seconds_per_seat(values):
                raise BordspelError(
                    f"Limit({name}=...) is a tuple of seconds of at least 0, one a seat (at most"
                    f" {len(CLOCK_WORDS)}), not {values!r}"
                )
        moves = self.moves_to_go
        if moves is not None and (type(moves) is not int or moves < 1):
            raise BordspelError(f"Limit(moves_to_go=...) is a whole number of at least 1, not {moves!r}")

    def is_deterministic(self) -> bool:
        return super().is_deterministic() and self.clocks is None


class EngineError(BordspelError):
    """The engine refused a command, or could not be started."""


class EngineTimeout(EngineError):
    """The engine said nothing for longer than the timeout; it has been killed."""


class EngineTerminated(EngineError):
    """The engine's process ended (or was closed) while it was being waited for."""


class EngineProtocolError(EngineError):
    """The engine wrote a line the protocol does not have, or an illegal move; it has been killed."""


@dataclass(frozen=True)
class Option:
    """One option an engine offers (``option name NAME type TYPE default VALUE ...``)."""

    name: str
    type: str
    default: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayResult:
    """The engine's move, the last analysis it gave of it (None if it gave none), and the reply
    it expects (``bestmove MOVE ponder REPLY``; None if it named none)."""

    move: Any
    info: Info | None
    ponder: Any = None


@dataclass(frozen=True)
class Pondering:
    """A ``go ponder`` running: the position it thinks on and its lines."""

    state: State
    lines: SearchLines


class SimpleEngine:
    """A program that speaks the engine protocol, driven through its stdin and stdout."""

    def __init__(self, process: subprocess.Popen[str], command: list[str], timeout: float | None) -> None:
        self.process, self.command, self.timeout = process, command, timeout
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=10)
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.games: list[str] = []
        self.protocol = 0
        self.game: str | None = None
        """The engine's game (its option ``game``), as this driver last set it."""
        self.busy = False
        self.pondering: Pondering | None = None
        """The ponder search running since the last ``play(..., ponder=True)``, if any."""
        self._finalizer = weakref.finalize(self, _kill_group, process)
        threading.Thread(target=_pump, args=(process.stdout, self.lines.put, True), daemon=True).start()
        self._stderr_reader = threading.Thread(target=_pump, args=(process.stderr, self.stderr.append, False))
        self._stderr_reader.daemon = True
        self._stderr_reader.start()

    @classmethod
    def popen(cls, command: str | Sequence[str], *, timeout: float | None = 30.0) -> SimpleEngine:
        """Start ``command`` (a list, or a string split as a shell would) and greet it.

        ``timeout``: the longest silence accepted beyond a search's own time (None: no bound).
        """
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise EngineError("give the engine's command, e.g. ['bordspel', 'engine']")
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineError(f"cannot start the engine {args[0]!r}: {error.strerror or error}") from None
        engine = cls(process, args, timeout)
        try:
            engine._greet()
        except BaseException:
            engine.close()
            raise
        return engine

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimpleEngine {shlex.join(self.command)} pid={self.process.pid}>"

    # -- lines ------------------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one command to the engine."""
        stdin = self.process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise self._terminated(f"while sending {line!r}") from None

    def _read(self, doing: str, extra: float = 0.0) -> list[str]:
        """The next line's words (waiting at most ``timeout`` + ``extra`` seconds); the engine's
        end is noticed at once, even when a process it started still holds its stdout."""
        wait = None if self.timeout is None else self.timeout + extra
        deadline = None if wait is None else time.monotonic() + wait
        line: str | None = ""
        while line == "":
            line = self._next_line(deadline)
            if line == "" and self.process.poll() is not None:
                line = self._last_line()
            if line == "" and deadline is not None and time.monotonic() >= deadline:
                self.kill()
                raise EngineTimeout(
                    f"the engine {self.command[0]!r} said nothing for {wait:g} s {doing}; it was killed"
                    " (give SimpleEngine.popen a longer timeout= if it needs more time)"
                )
        if line is None:
            raise self._terminated(doing)
        return line.split() or [""]

    def _next_line(self, deadline: float | None) -> str | None:
        """The next line, None at the engine's end, or "" after a short wait with none."""
        wait = LIVENESS_CHECK if deadline is None else min(LIVENESS_CHECK, deadline - time.monotonic())
        try:
            return _kept(self.lines.get(timeout=max(0.0, wait)))
        except queue.Empty:
            return ""

    def _last_line(self) -> str | None:
        """A line the ended engine wrote before it ended, else None (its end)."""
        try:
            return _kept(self.lines.get(timeout=QUIT_WAIT))
        except queue.Empty:
            return None

    def _expect(self, doing: str, extra: float = 0.0) -> list[str]:
        """The next line of the protocol; EngineProtocolError for any other."""
        words = self._read(doing, extra)
        if words[0] not in LINE_WORDS:
            starts = ", ".join(LINE_WORDS)
            self._protocol_error(
                words, f"{doing}, which is no line of the protocol (they start with {starts})"
            )
        return words

    def _terminated(self, doing: str) -> EngineTerminated:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(QUIT_WAIT)
        code = self.process.poll()
        self._stderr_reader.join(QUIT_WAIT)  # its last lines
        self.close()
        stderr = "; its last stderr lines: " + " | ".join(self.stderr) if self.stderr else " (no stderr)"
        return EngineTerminated(f"the engine {self.command[0]!r} ended (exit code {code}) {doing}{stderr}")

    # -- commands ---------------------------------------------------------------------------
    def _greet(self) -> None:
        self.send("bordspel")
        words = self._read("instead of answering bordspel")
        for _ in range(BANNER_LINES):
            if words[0] in LINE_WORDS:
                break
            words = self._read("instead of answering bordspel")
        while words[0] != "bordspelok":
            self._learn(words)
            words = self._expect("while answering bordspel")
        self.game = self.options["game"].default if "game" in self.options else None

    def _learn(self, words: list[str]) -> None:
        """One line of the answer to ``bordspel``."""
        if words[0] == "id" and len(words) > 1:
            self.id[words[1]] = " ".join(words[2:])
            if words[1] == "games":
                self.games = words[2:]
            if words[1] == "protocol" and len(words) > 2 and words[2].isdigit():
                self.protocol = int(words[2])
        elif words[0] == "option":
            option = _option(words)
            self.options[option.name] = option
        else:
            self._protocol_error(words, "while answering bordspel")

    def _protocol_error(self, words: list[str], doing: str) -> NoReturn:
        self.kill()
        raise EngineProtocolError(
            f"the engine {self.command[0]!r} wrote {' '.join(words)!r} {doing}; it was killed"
        )

    def ping(self) -> list[str]:
        """``isready``, waiting for ``readyok``; the errors the engine reported before it."""
        self.send("isready")
        errors = []
        while (words := self._expect("instead of readyok"))[0] != "readyok":
            if words[:3] == ["info", "string", "error"]:
                errors.append(" ".join(words[3:]))
            elif words[0] != "info":
                self._protocol_error(words, "before readyok")
        return errors

    def _checked(self, lines: Sequence[str], what: str) -> None:
        """Send ``lines``; EngineError with the engine's words when it refuses one."""
        self._idle()
        for line in lines:
            self.send(line)
        errors = self.ping()
        if errors:
            raise EngineError(f"the engine refused {what}: {'; '.join(errors)}")

    def _idle(self) -> None:
        if self.pondering is not None:
            self.stop_pondering()
        if self.busy:
            raise EngineError("the engine is analysing: stop the analysis first")

    def stop_pondering(self) -> None:
        """End the ponder search (its move is not wanted)."""
        pondering, self.pondering = self.pondering, None
        if pondering is not None and self.busy:
            self.send("stop")
            for _ in pondering.lines:
                pass

    def configure(self, options: Mapping[str, object]) -> None:
        """Set the engine's options (``{"player": "easy", "game.size": 4}``)."""
        lines = [f"setoption name {name} value {_option_value(value)}" for name, value in options.items()]
        self._checked(lines, "the options " + ", ".join(options))
        if "game" in options:
            self.game = str(options["game"])

    def _go(
        self,
        state: State,
        limit: search.Limit | None,
        multipv: int | None,
        root_moves: Sequence[Any] | None = None,
        ponder: bool = False,
    ) -> SearchLines:
        """Set up ``state`` (its game first) and the lines to find, then search (among
        ``root_moves`` when given; as a ponder search with ``ponder``)."""
        if multipv is not None:
            check_int(multipv, "multipv (the number of best lines to report)", 1)
        if self.games and state.name not in self.games:
            raise EngineError(f"the engine plays {', '.join(self.games)}, not {state.name}")
        lines = [] if state.name == self.game else [f"setoption name game value {state.name}"]
        lines.append(f"position string {state.to_str()}")
        if multipv is not None or "multipv" in self.options:
            lines.append(f"setoption name multipv value {multipv or 1}")
        self._checked(lines, f"the position {state.to_str()!r}")
        self.game = state.name
        self.send(_go_command(limit, root_moves, ponder))
        self.busy = True
        return SearchLines(self, state, _longest(limit, state))

    def play(
        self,
        state: State,
        limit: search.Limit,
        *,
        root_moves: Sequence[Any] | None = None,
        ponder: bool = False,
    ) -> PlayResult:
        """The engine's move in ``state`` within ``limit`` (among ``root_moves`` when given).

        With ``ponder`` the engine goes on thinking, after its move, on the position after the
        reply it expects (``go ponder`` with the same limit); if the next ``play`` is of that
        position it gets ``ponderhit`` and finishes that search, in its limit; any other
        command stops it first."""
        pondered = self.pondering
        if pondered is not None and pondered.state == state:
            self.pondering = None
            self.send("ponderhit")
            lines = pondered.lines
        else:
            lines = self._go(state, limit, None, root_moves)
        ranked = [info for info in lines if info.multipv == 1 and info.string is None]
        result = PlayResult(lines.best, ranked[-1] if ranked else None, lines.ponder)
        if ponder and result.ponder is not None:
            self._ponder(state.apply(result.move).apply(result.ponder), limit)
        return result

    def _ponder(self, state: State, limit: search.Limit) -> None:
        """Start a ponder search of ``state`` (when the game goes on there)."""
        if not state.is_over():
            self.pondering = Pondering(state, self._go(state, limit, None, ponder=True))

    @overload
    def analyse(
        self,
        state: State,
        limit: search.Limit,
        multipv: None = None,
        *,
        root_moves: Sequence[Any] | None = None,
    ) -> Info: ...

    @overload
    def analyse(
        self, state: State, limit: search.Limit, multipv: int, *, root_moves: Sequence[Any] | None = None
    ) -> list[Info]: ...

    def analyse(
        self,
        state: State,
        limit: search.Limit,
        multipv: int | None = None,
        *,
        root_moves: Sequence[Any] | None = None,
    ) -> Info | list[Info]:
        """The engine's last analysis within ``limit``: one :class:`Info`, or with ``multipv``
        the last of each of the best lines, best first (among ``root_moves`` when given)."""
        lines: dict[int, Info] = {}
        for info in self._go(state, limit, multipv, root_moves):
            if info.string is None:
                lines[info.multipv] = info
        ranked = [lines[rank] for rank in sorted(lines)]
        if multipv is None:
            return ranked[0] if ranked else Info()
        return ranked

    def analysis(
        self,
        state: State,
        limit: search.Limit | None = None,
        multipv: int | None = None,
        *,
        root_moves: Sequence[Any] | None = None,
    ) -> AnalysisResult:
        """The engine's ``info`` as it searches (until ``limit``, or until stopped when None)."""
        return AnalysisResult(self._go(state, limit, multipv, root_moves))

    def close(self) -> None:
        """Ask the engine to quit, then kill it and every process it started."""
        process = self.process
        if process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(QUIT_WAIT)
        self.kill()

    quit = close

    def kill(self) -> None:
        """Kill the engine and every process it started, at once."""
        self._finalizer()
        self.busy = False


class SearchLines:
    """The lines of one ``go`` as :class:`Info`, until ``bestmove`` (then ``best`` is the move)."""

    def __init__(self, engine: SimpleEngine, state: State, seconds: float) -> None:
        self.engine, self.state, self.seconds = engine, state, seconds
        self.best: Any = None
        self.ponder: Any = None
        """The reply the engine expects (``bestmove MOVE ponder REPLY``), if it named one."""
        self.errors: list[str] = []

    def __iter__(self) -> Iterator[Info]:
        engine = self.engine
        while engine.busy:
            words = engine._expect("during a search", self.seconds)
            if words[0] == "bestmove":
                engine.busy = False
                self.best = self._move(words)
                self.ponder = self._reply(words)
            elif words[:3] == ["info", "string", "error"]:
                self.errors.append(" ".join(words[3:]))
            elif words[0] == "info":
                yield self._info(words)
            else:
                engine._protocol_error(words, "during a search")

    def _info(self, words: list[str]) -> Info:
        try:
            return parse_info(" ".join(words), self.state)
        except (ValueError, IndexError, BordspelError) as error:
            self.engine._protocol_error(words, f"during a search ({error})")

    def _reply(self, words: list[str]) -> Any:
        """The move after ``ponder`` in a ``bestmove`` line (None without one)."""
        if len(words) < 4 or words[2] != "ponder":
            return None
        after = self.state.apply(self.best)
        try:
            return after.parse_move(words[3]) if not after.is_over() else None
        except BordspelError as error:
            self.engine._protocol_error(words, f"(an illegal move to ponder on: {error})")

    def _move(self, words: list[str]) -> Any:
        if len(words) < 2 or words[1] == "(none)":
            raise EngineError(f"the engine gave no move: {'; '.join(self.errors) or 'it did not say why'}")
        try:
            return self.state.parse_move(words[1])
        except BordspelError as error:
            self.engine._protocol_error(words, f"(an illegal move: {error})")


class AnalysisResult:
    """An analysis in progress: iterate over its :class:`Info` (it ends with the search), or
    ``stop()`` it; as a context manager it is stopped on leaving."""

    def __init__(self, lines: SearchLines) -> None:
        self.lines = lines
        self.info = Info()
        """The latest analysis of the best line."""
        self._infos = iter(lines)

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        info = next(self._infos)
        if info.multipv == 1 and info.string is None:
            self.info = info
        return info

    @property
    def best(self) -> Any:
        """The engine's move once the search has ended, else None."""
        return self.lines.best

    def stop(self) -> None:
        """Stop the search and read its remaining lines up to ``bestmove``."""
        if self.lines.engine.busy:
            self.lines.engine.send("stop")
        for _ in self:
            pass

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.lines.engine.process.poll() is None:
            self.stop()


class AsyncEngine:
    """The driver for asyncio (python-chess's ``popen_uci`` protocol): :class:`SimpleEngine`'s
    calls as coroutines. Each runs in a worker thread, one at a time, so that the event loop
    never waits on the engine's pipes, and every wait stays bounded as in ``SimpleEngine``."""

    def __init__(self, engine: SimpleEngine) -> None:
        self.engine = engine
        """The blocking driver underneath (its ``id``, ``options`` and ``games`` are the engine's)."""
        self._turn = asyncio.Lock()

    async def _call(self, call: Callable[..., T], *args: Any, **keywords: Any) -> T:
        async with self._turn:
            return await asyncio.to_thread(call, *args, **keywords)

    async def play(self, state: State, limit: search.Limit, **keywords: Any) -> PlayResult:
        """:meth:`SimpleEngine.play` (``root_moves=``, ``ponder=``)."""
        return await self._call(self.engine.play, state, limit, **keywords)

    async def analyse(
        self, state: State, limit: search.Limit, multipv: int | None = None, **keywords: Any
    ) -> Any:
        """:meth:`SimpleEngine.analyse`: an :class:`Info`, or with ``multipv`` a list of them."""
        return await self._call(self.engine.analyse, state, limit, multipv, **keywords)

    async def analysis(
        self, state: State, limit: search.Limit | None = None, multipv: int | None = None, **keywords: Any
    ) -> AsyncAnalysis:
        """:meth:`SimpleEngine.analysis` as an async iterator of :class:`Info`."""
        result = await self._call(self.engine.analysis, state, limit, multipv, **keywords)
        return AsyncAnalysis(result, self._call)

    async def configure(self, options: Mapping[str, object]) -> None:
        """:meth:`SimpleEngine.configure`."""
        await self._call(self.engine.configure, options)

    async def ping(self) -> list[str]:
        """:meth:`SimpleEngine.ping`."""
        return await self._call(self.engine.ping)

    async def quit(self) -> None:
        """Ask the engine to quit, then kill it and every process it started."""
        await asyncio.to_thread(self.engine.close)

    close = quit

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.quit()


class AsyncAnalysis:
    """An analysis in progress for asyncio: ``async for info in analysis``, ``await
    analysis.stop()``; ``info`` and ``best`` as :class:`AnalysisResult`'s."""

    def __init__(self, result: AnalysisResult, call: Callable[..., Any]) -> None:
        self.result, self._call = result, call

    def __aiter__(self) -> AsyncAnalysis:
        return self

    async def __anext__(self) -> Info:
        info: Info | None = await self._call(next, self.result, None)
        if info is None:
            raise StopAsyncIteration
        return info

    @property
    def info(self) -> Info:
        """The latest analysis of the best line."""
        return self.result.info

    @property
    def best(self) -> Any:
        """The engine's move once the search has ended, else None."""
        return self.result.best

    async def stop(self) -> None:
        """Stop the search and read its remaining lines up to ``bestmove``."""
        await self._call(self.result.stop)


async def popen_engine(command: str | Sequence[str], *, timeout: float | None = 30.0) -> AsyncEngine:
    """Start and greet ``command`` (as :meth:`SimpleEngine.popen`) for asyncio."""
    return AsyncEngine(await asyncio.to_thread(SimpleEngine.popen, command, timeout=timeout))


class EnginePlayer:
    """A player that asks an engine program for its moves (``engine:PROGRAM ARGS`` in
    ``make_player``); words ``time=S``, ``depth=N``, ``nodes=N`` before the program set its
    budget a move (by default a second). The program starts at the first move; ``close()``
    ends it."""

    def __init__(self, command: str, seed: int | None = None) -> None:
        words = shlex.split(command)
        budget: dict[str, float] = {}
        while words and words[0].partition("=")[0] in ("time", "depth", "nodes") and "=" in words[0]:
            key, _, value = words.pop(0).partition("=")
            budget[key] = _number(value, key)
        if not words or shutil.which(words[0]) is None:
            raise BordspelError(
                f"engine:{command}: give a program to run, e.g. engine:time=0.5 bordspel engine"
                + (f" ({words[0]!r} is not found)" if words else "")
            )
        depth, nodes = budget.get("depth"), budget.get("nodes")
        self.limit = Limit(
            budget.get("time", None if depth or nodes else 1.0),
            None if depth is None else int(depth),
            None if nodes is None else int(nodes),
        )
        self.name, self.command, self.seed = f"engine:{command}", words, seed
        self.engine: SimpleEngine | None = None

    def step(self, state: State) -> Any:
        """The engine's move in ``state``."""
        if self.engine is None:
            self.engine = SimpleEngine.popen(self.command)
            if self.seed is not None and "seed" in self.engine.options:
                self.engine.configure({"seed": self.seed})
        return self.engine.play(state, self.limit).move

    def close(self) -> None:
        """End the engine's program (a new one starts at the next move)."""
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def _pump(stream: IO[str] | None, sink: Callable[[Any], None], end: bool) -> None:
    """Hand every line of ``stream`` to ``sink``, then None when ``end`` (stdout's end)."""
    assert stream is not None
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            sink(line.rstrip("\r\n"))
    if end:
        sink(None)


def _kept(line: str | None) -> str | None:
    """A line as read, an empty one as a blank (so that "" means no line yet)."""
    return " " if line == "" else line


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the engine's process group (it and every process it started), and reap it."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    else:  # pragma: no cover - Windows
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            assert stream is not None
            stream.close()


def _option(words: list[str]) -> Option:
    """An ``option name NAME type TYPE default VALUE [var X ...] [min N max N]`` line."""
    fields: dict[str, list[str]] = {}
    key = ""
    for word in words[1:]:
        if word in ("name", "type", "default", "var", "min", "max"):
            key = word
            fields.setdefault(key, [])
            if key == "var":
                fields[key].append("")
            continue
        if key == "var":
            fields[key][-1] = (fields[key][-1] + " " + word).strip()
        elif key:
            fields[key].append(word)
    return Option(
        " ".join(fields.get("name", [])),
        " ".join(fields.get("type", [])),
        " ".join(fields.get("default", [])),
        tuple(fields.get("var", [])),
    )


def _option_value(value: object) -> str:
    if value is None:
        return "<empty>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _go_command(
    limit: search.Limit | None, root_moves: Sequence[Any] | None = None, ponder: bool = False
) -> str:
    """``go infinite`` for no limit (until stopped); a bare ``Limit()`` is a plain ``go``: the
    engine's own budget; clocks, ``searchmoves`` and ``ponder`` as given."""
    words = ["go"] + (["ponder"] if ponder else [])
    if limit is None:
        words.append("infinite")
    else:
        words += _budget_words(limit)
    if root_moves is not None:
        words += ["searchmoves", *(move.to_str() for move in root_moves)]
    return " ".join(words)


def _budget_words(limit: search.Limit) -> list[str]:
    """``go``'s words for ``limit``: movetime, depth, nodes, then the clocks (in milliseconds)."""
    words = []
    if limit.time is not None:
        words += ["movetime", _milliseconds(limit.time)]
    if limit.depth is not None:
        words += ["depth", str(limit.depth)]
    if limit.nodes is not None:
        words += ["nodes", str(limit.nodes)]
    if isinstance(limit, Limit):
        for names, values in ((CLOCK_WORDS, limit.clocks), (INCREMENT_WORDS, limit.increments)):
            for name, seconds in zip(names, values or ()):
                words += [name, str(round(1000 * seconds))]
        if limit.moves_to_go is not None:
            words += ["movestogo", str(limit.moves_to_go)]
    return words


def _milliseconds(seconds: float) -> str:
    return str(max(1, round(1000 * seconds)))


def _longest(limit: search.Limit | None, state: State) -> float:
    """The longest a search within ``limit`` may think beyond the driver's timeout: its time, or
    the clock of the seat to move."""
    if limit is None:
        return 0.0
    clocks = limit.clocks if isinstance(limit, Limit) and limit.clocks else ()
    clock = clocks[state.to_move] if state.to_move < len(clocks) else 0.0
    return max(limit.time or 0.0, clock)


def _seconds_per_seat(values: object) -> bool:
    """Whether ``values`` is a tuple of one number of seconds (at least 0) a seat."""
    return (
        isinstance(values, tuple)
        and 0 < len(values) <= len(CLOCK_WORDS)
        and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < float("inf") for v in values
        )
    )


def _number(text: str, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise BordspelError(f"engine option {name}={text} needs a number, like time=0.5") from None
