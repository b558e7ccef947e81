"""The engine protocol: ``bordspel engine`` driven as an outside program by the driver
``bordspel.engine``, and the driver against a tiny engine that speaks the protocol badly
(tests/bad_engine.py: it dies, hangs, or writes garbage)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bordspel._native import backend
from bordspel.ai import make_player
from bordspel.ai.arena import SerialBackend, run_arena
from bordspel.ai.registry import register_player
from bordspel.core import BordspelError, game_class, new_game
from bordspel.engine import (
    EngineError,
    EnginePlayer,
    EngineProtocolError,
    EngineTerminated,
    EngineTimeout,
    Limit,
    Score,
    SimpleEngine,
)
from bordspel.engine.protocol import parse_info
from bordspel.engine.server import EngineServer
from bordspel.play import Session
from bordspel.record import Game

ENGINE = [sys.executable, "-m", "bordspel", "engine"]
BAD = [sys.executable, str(Path(__file__).with_name("bad_engine.py"))]
POSITION = "00100/01210/00100/00000/00000 workers=b2d4,c4d2 turn=1 players=2"
QUARTO_WIN = "OM../.B.H/LFNI/..A. hand=D"


@pytest.fixture(scope="module")
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen(ENGINE, timeout=60) as started:
        yield started


def test_the_engine_says_who_it_is_and_what_it_offers(engine: SimpleEngine) -> None:
    assert engine.id["name"].startswith("bordspel ") and engine.protocol == 1
    assert engine.games == ["hermit", "quarto", "santorini"]  # the installed games (not the tests')
    assert {"game", "player", "multipv", "seed", "game.players", "game.gods"} <= set(engine.options)
    assert engine.options["game"].choices == tuple(engine.games)


VARIANTS = [
    new_game("hermit", size=4),
    new_game("hermit", size=5).play("Rc3H"),
    new_game("quarto").play("A"),
    game_class("santorini").from_str(POSITION),
    new_game("santorini", gods="apollo,pan", workers=[(2, 1), (2, 3), (1, 2), (3, 2)]),
    new_game("santorini", players=3, gods="atlas/minotaur/prometheus"),
]


@pytest.mark.parametrize("state", VARIANTS, ids=lambda state: state.to_str())
def test_the_engine_plays_every_game_and_variant(engine: SimpleEngine, state: object) -> None:
    assert hasattr(state, "legal_moves")
    engine.configure({"player": "alphabeta:solver=0"})  # the search alone: quick on any board
    result = engine.play(state, Limit(depth=1))  # type: ignore[arg-type]
    engine.configure({"player": "hard"})
    assert result.move in state.legal_moves()
    assert result.info is not None and result.info.pv[:1] in ([], [result.move])


def test_multipv_lines_cross_the_protocol_best_first(engine: SimpleEngine) -> None:
    state = game_class("santorini").from_str(POSITION)
    lines = engine.analyse(state, Limit(depth=2), multipv=3)
    assert [info.multipv for info in lines] == [1, 2, 3]
    assert len({info.pv[0] for info in lines}) == 3 and all(info.depth == 2 for info in lines)
    scores = [info.score.cp for info in lines if info.score is not None]
    assert scores == sorted(scores, reverse=True) and len(scores) == 3
    assert engine.analyse(state, Limit(depth=2)).pv[0] == lines[0].pv[0]


def test_a_proven_score_crosses_the_protocol(engine: SimpleEngine) -> None:
    info = engine.analyse(game_class("quarto").from_str(QUARTO_WIN), Limit(depth=3))
    assert info.score is not None and info.score.is_proven() and info.score.result == "win"


def test_an_infinite_analysis_streams_until_stopped(engine: SimpleEngine) -> None:
    state = new_game("quarto")
    with engine.analysis(state) as analysis:
        depths = []
        for info in analysis:
            depths.append(info.depth)
            if len(depths) == 2:
                analysis.stop()
    assert depths[:2] == [1, 2] and analysis.best in state.legal_moves()
    assert analysis.info.depth is not None and analysis.info.depth >= 2
    assert engine.play(state, Limit(depth=1)).move in state.legal_moves()  # ready again


def test_bad_input_gets_an_error_line_and_the_engine_lives_on(engine: SimpleEngine) -> None:
    with pytest.raises(EngineError, match="unknown player 'nope'"):
        engine.configure({"player": "nope"})
    with pytest.raises(EngineError, match="multipv is a whole number"):
        engine.configure({"multipv": 0})
    for line, error in [
        ("fly away", "unknown command 'fly'"),
        ("position string not a board", "position"),
        ("position startpos moves zz", "zz"),
        ("setoption name colour value red", "unknown option 'colour'"),
        ("setoption name game.size value -3", "size"),
    ]:
        engine.configure({"game": "hermit"})
        engine.send(line)
        errors = engine.ping()
        assert len(errors) == 1 and error in errors[0], (line, errors)
    state = new_game("hermit", size=3)
    assert engine.play(state, Limit(depth=1)).move in state.legal_moves()


@pytest.mark.parametrize(
    "line, error",
    [
        ("go depth x", "depth is a whole number"),
        ("go depth 0", "depth is a whole number from 1"),
        ("go sideways", "go takes depth N"),
    ],
)
def test_a_refused_go_is_answered_at_once_with_no_move(engine: SimpleEngine, line: str, error: str) -> None:
    engine.send(line)
    refusal, answer = engine._expect("refusing go"), engine._expect("refusing go")
    assert refusal[:3] == ["info", "string", "error"] and error in " ".join(refusal)
    assert answer == ["bestmove", "(none)"]
    assert engine.ping() == []


def test_a_limit_the_engine_refuses_comes_back_at_once_as_an_error() -> None:
    """The engine takes at most 2**63 nodes: it refuses more, and the driver says so at once
    rather than waiting out its timeout (EngineTimeout) for a search that never began."""
    with SimpleEngine.popen(ENGINE, timeout=10) as engine:
        with pytest.raises(EngineError, match="nodes is a whole number") as raised:
            engine.play(new_game("hermit", size=3), Limit(nodes=2**64))
        assert not isinstance(raised.value, EngineTimeout)
        state = new_game("hermit", size=3)
        assert engine.play(state, Limit(depth=1)).move in state.legal_moves()


@pytest.mark.parametrize(
    "limit, error",
    [
        (dict(depth=0), "depth=...) is a whole number of at least 1, not 0"),
        (dict(depth=1.5), "depth=...) is a whole number of at least 1, not 1.5"),
        (dict(nodes=0), "nodes=...) is a whole number of at least 1, not 0"),
        (dict(time="1"), "time=...) is a number of seconds of at least 0, not '1'"),
        (dict(time=-1.0), "time=...) is a number of seconds"),
    ],
)
def test_a_limit_that_is_no_budget_is_refused_where_it_is_made(limit: dict[str, Any], error: str) -> None:
    with pytest.raises(BordspelError, match=re.escape(error)):
        Limit(**limit)


def test_a_finished_position_gets_no_move(engine: SimpleEngine) -> None:
    finished = game_class("hermit").from_str("RBB/Y.Y/RBR")
    assert finished.is_over()
    with pytest.raises(EngineError, match="the game is over"):
        engine.play(finished, Limit(depth=1))


def _bad(mode: str, timeout: float = 5) -> SimpleEngine:
    return SimpleEngine.popen([*BAD, mode], timeout=timeout)


def test_an_engine_that_dies_raises_with_its_exit_code_and_stderr() -> None:
    with _bad("die") as bad, pytest.raises(EngineTerminated, match=r"exit code 3.*out of luck"):
        bad.play(new_game("quarto"), Limit(depth=1))


def test_an_engine_that_hangs_raises_a_timeout_and_is_killed() -> None:
    bad = _bad("hang", timeout=0.3)
    with pytest.raises(EngineTimeout, match=r"said nothing for 0\.3 s during a search; it was killed"):
        bad.play(new_game("quarto"), Limit(depth=1))
    assert bad.process.poll() is not None
    with pytest.raises(EngineTimeout, match="instead of answering bordspel"):
        _bad("mute", timeout=0.3)


@pytest.mark.parametrize(("mode", "said"), [("garbage", "the weather is fine"), ("illegal", "z9:Q")])
def test_an_engine_that_writes_nonsense_raises_a_protocol_error(mode: str, said: str) -> None:
    bad = _bad(mode)
    with pytest.raises(EngineProtocolError, match=said):
        bad.play(new_game("quarto"), Limit(depth=1))
    assert bad.process.poll() is not None


def test_info_words_the_protocol_lacks_are_skipped_and_the_rest_kept() -> None:
    with _bad("chatty") as chatty:
        state = new_game("quarto")
        lines = chatty.analysis(state, Limit(depth=2))
        first, second = list(lines)
    assert lines.best == state.parse_move("A")
    assert (first.depth, first.seldepth, first.score, first.nodes) == (2, 5, Score(cp=7), 20)
    assert (first.hashfull, first.pv) == (12, [state.parse_move("A")])
    assert (second.currmove, second.currmovenumber) == (state.parse_move("B"), 2)


def test_a_malformed_value_of_a_known_info_field_is_still_refused() -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        parse_info("info depth x", new_game("quarto"))
    with pytest.raises(BordspelError, match="illegal move"):
        parse_info("info currmove z9", new_game("quarto"))


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_closing_kills_the_engine_and_its_search_processes() -> None:
    engine = SimpleEngine.popen(ENGINE)
    group = engine.process.pid
    analysis = engine.analysis(new_game("quarto"))
    next(analysis)  # the search's own process is running now
    engine.close()
    for _ in range(100):  # the search process is reaped by init once killed
        if not _group_alive(group):
            break
        time.sleep(0.05)
    assert not _group_alive(group)


def test_an_engine_player_starts_its_program_at_the_first_move_and_closes_it() -> None:
    player = make_player("engine:depth=1 " + " ".join(ENGINE) + " --player easy", "quarto")
    assert isinstance(player, EnginePlayer) and player.engine is None
    assert player.limit == Limit(None, 1, None)
    state = new_game("quarto")
    assert player.step(state) in state.legal_moves()
    assert player.engine is not None
    process = player.engine.process
    player.close()
    assert process.poll() is not None and player.engine is None
    with pytest.raises(EngineError, match="cannot start the engine 'no-such-program-here'"):
        SimpleEngine.popen("no-such-program-here --fast")
    for spec in ("engine:", "engine:time=1", "engine:no-such-program-here --fast"):
        with pytest.raises(BordspelError, match="give a program to run"):
            make_player(spec, "quarto")


def test_an_external_engine_plays_an_arena_match() -> None:
    spec = "engine:depth=1 " + " ".join(ENGINE) + " --game quarto"
    standings = run_arena("quarto", [spec, "random"], 2, backend=SerialBackend(), progress=None)
    assert standings.games == 2
    assert [stats.games for stats in standings.stats.values()] == [2, 2]


SESSION = re.compile(r"<!-- session -->\n```text\n(.*?)```", re.S)
FIGURES = re.compile(r"time \d+ nps \d+")
"""The figures that depend on the machine."""


def _exchanges(page: Path) -> list[tuple[str, list[str]]]:
    """The example session of a page: every command with the answers that follow it."""
    found = SESSION.search(page.read_text(encoding="utf-8"))
    assert found is not None, "the page has no <!-- session --> block"
    exchanges: list[tuple[str, list[str]]] = []
    for line in found.group(1).splitlines():
        if line.startswith("> "):
            exchanges.append((line[2:], []))
        else:
            assert line.startswith("< ") and exchanges, line
            exchanges[-1][1].append(FIGURES.sub("time T nps N", line[2:]))
    return exchanges


@pytest.mark.skipif(
    backend() != "compiled",
    reason="the session was run with the compiled modules (the pure ones count other nodes)",
)
def test_the_documented_session_is_what_the_engine_says() -> None:
    exchanges = _exchanges(Path(__file__).parent.parent / "docs" / "engine-protocol.md")
    assert len(exchanges) > 15 and exchanges[-1] == ("quit", [])
    with SimpleEngine.popen(ENGINE, timeout=60) as engine:
        for command, answers in exchanges:
            engine.send(command)
            said = [" ".join(engine._read(f"after {command}")) for _ in answers]
            assert [FIGURES.sub("time T nps N", line) for line in said] == answers, command
        assert engine.process.wait(10) == 0


def test_a_terminal_game_against_an_engine_closes_it_at_the_end() -> None:
    spec = "engine:depth=1 " + " ".join(ENGINE) + " --game hermit"
    out = io.StringIO()
    session = Session(Game(new_game("hermit", size=3)), [spec, "random"], colour=False, seed=1, out=out)
    assert session.run() == 0
    engine_player = session.players[0]
    assert isinstance(engine_player, EnginePlayer) and engine_player.engine is None
    assert f"player 1 ({spec}) plays" in out.getvalue() and "result" in out.getvalue()


def test_newgame_goes_back_to_the_start_with_the_game_options(engine: SimpleEngine) -> None:
    engine.configure({"game": "hermit", "game.size": 3})
    engine.send("position string RBB/Y.Y/RBR")  # a finished game
    engine.send("newgame")
    engine.send("go depth 1")
    lines = []
    while not lines or lines[-1][0] != "bestmove":
        lines.append(engine._read("after go"))
    start = new_game("hermit", size=3)
    assert start.parse_move(lines[-1][1]) in start.legal_moves()


@pytest.mark.slow
def test_an_engine_plays_whole_games_of_santorini_with_gods() -> None:
    spec = "engine:time=0.05 " + " ".join(ENGINE)
    options = {"gods": "apollo/pan"}
    standings = run_arena(
        "santorini", [spec, "random"], 2, options=options, backend=SerialBackend(), progress=None
    )
    assert standings.stats[spec].wins == 2


class _Broken:
    """A player with a bug."""

    name = "broken"

    def step(self, state: object) -> object:
        raise IndexError("no such square")


def test_a_failed_search_is_reported_and_no_move_made_up() -> None:
    register_player("broken", "quarto", lambda seed: _Broken())
    out = io.StringIO()
    server = EngineServer(out, "quarto", "broken")
    server.handle(["go", "depth", "1"])
    assert server.search is not None
    server.search.thread.join(30)  # the search ends by itself
    assert out.getvalue().splitlines() == [
        "info string error the search failed: IndexError: no such square",
        "bestmove (none)",
    ]


def test_a_bare_limit_is_the_engines_own_budget(engine: SimpleEngine) -> None:
    """``Limit()`` sends a plain ``go`` (the player's own budget), never ``go infinite``."""
    state = game_class("santorini").from_str(POSITION)  # an infinite search never ends by itself
    result = engine.play(state, Limit())
    assert result.move in state.legal_moves()


def _proc_stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (state, parent, ...); [] when gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _children(pid: int) -> list[int]:
    found = [path.name for path in Path("/proc").iterdir() if path.name.isdigit()]
    return [int(child) for child in found if _proc_stat(child)[1:2] == [str(pid)]]


def _running(pid: int) -> bool:
    return _proc_stat(pid)[:1] not in ([], ["Z"], ["X"])  # a zombie waits for init to reap it


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
def test_a_killed_engine_takes_its_search_process_with_it() -> None:
    engine = subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write(f"position string {POSITION}\ngo infinite\n")
        engine.stdin.flush()
        assert engine.stdout.readline().startswith("info ")  # the search process is running
        searches = _children(engine.pid)
        assert searches
        os.kill(engine.pid, signal.SIGKILL)
        engine.wait()
        for _ in range(200):  # bounded: the kernel ends the search process as the engine dies
            if not any(map(_running, searches)):
                break
            time.sleep(0.05)
        assert not any(map(_running, searches))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(engine.pid, signal.SIGKILL)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_the_driver_says_a_killed_engine_ended_while_it_searched() -> None:
    engine = SimpleEngine.popen(ENGINE, timeout=30)
    analysis = engine.analysis(game_class("santorini").from_str(POSITION))
    next(analysis)
    os.kill(engine.process.pid, signal.SIGKILL)
    with pytest.raises(EngineTerminated, match="exit code -9"):
        for _ in analysis:
            pass


def test_the_driver_sees_the_end_of_an_engine_whose_child_keeps_its_stdout() -> None:
    bad = _bad("forks", timeout=30)
    analysis = bad.analysis(new_game("quarto"), Limit(depth=1))
    next(analysis)
    os.kill(bad.process.pid, signal.SIGKILL)
    with pytest.raises(EngineTerminated, match="exit code -9"):
        for _ in analysis:
            pass


def test_multipv_below_one_is_refused(engine: SimpleEngine) -> None:
    with pytest.raises(
        BordspelError, match=r"multipv \(the number of best lines to report\) must be at least 1"
    ):
        engine.analyse(new_game("quarto"), Limit(depth=1), multipv=0)
    assert engine.analyse(new_game("quarto"), Limit(depth=1), multipv=1)


def test_scores_compare_from_the_side_of_the_player_to_move() -> None:
    ordered = [
        Score(result="loss", plies=2),
        Score(result="loss", plies=6),
        Score(result="loss"),
        Score(cp=-40),
        Score(result="draw"),
        Score(cp=25),
        Score(result="win"),
        Score(result="win", plies=7),
        Score(result="win", plies=3),
    ]
    assert sorted(reversed(ordered)) == ordered
    assert Score(cp=25) < Score(cp=30) <= Score(cp=30) and max(ordered) == Score(result="win", plies=3)
    assert Score(result="draw") <= Score(cp=0) and Score(result="draw") >= Score(cp=0)
