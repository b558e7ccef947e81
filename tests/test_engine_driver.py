"""The driver's parts beside play and analyse (issue 41): clocks, ``searchmoves`` and pondering
across the protocol, the engine's time management, and the asyncio driver; against
``bordspel engine`` and the test engine of tests/bad_engine.py."""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bordspel.ai import make_player
from bordspel.ai.search import Limit as Budget
from bordspel.core import BordspelError, game_class, new_game
from bordspel.engine import AsyncEngine, EngineTimeout, Info, Limit, SimpleEngine, popen_engine
from bordspel.engine.server import MOVES_TO_GO, EngineServer, clock_budget, parse_go

ENGINE = [sys.executable, "-m", "bordspel", "engine"]
BAD = [sys.executable, str(Path(__file__).with_name("bad_engine.py"))]
POSITION = "00100/01210/00100/00000/00000 workers=b2d4,c4d2 turn=1 players=2"


@pytest.fixture(scope="module")
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen(ENGINE, timeout=60) as started:
        yield started


# -- the words of go ----------------------------------------------------------------------------
def test_clocks_searchmoves_and_ponder_cross_the_protocol_as_go_words() -> None:
    state = new_game("quarto")
    limit = Limit(depth=3, clocks=(5.0, 4.0), increments=(0.1, 0.0), moves_to_go=10)
    with SimpleEngine.popen([*BAD, "echo"]) as echo:
        said = [info.string for info in echo.analysis(state, limit, root_moves=state.legal_moves()[:2])]
    assert said[0] == "go depth 3 wtime 5000 btime 4000 winc 100 binc 0 movestogo 10 searchmoves A B"


@pytest.mark.parametrize(
    "limit, error",
    [
        (dict(clocks=(1.0, -2.0)), "clocks=...) is a tuple of seconds of at least 0, one a seat"),
        (dict(clocks=[1.0, 2.0]), "clocks=...) is a tuple of seconds"),
        (dict(increments=(0.0,) * 5), "at most 4"),
        (dict(moves_to_go=0), "moves_to_go=...) is a whole number of at least 1, not 0"),
    ],
)
def test_a_clock_that_is_no_clock_is_refused_where_it_is_made(limit: dict[str, Any], error: str) -> None:
    with pytest.raises(BordspelError, match=re.escape(error)):
        Limit(**limit)


def test_the_clock_of_the_seat_to_move_gives_the_time_budget() -> None:
    first = new_game("quarto")
    second = first.play("A")
    words = ["wtime", "60000", "btime", "3000", "winc", "1000", "binc", "0"]
    assert parse_go(words, first).limit == Budget(clock_budget(60, 1.0))
    assert parse_go(words, second).limit == Budget(clock_budget(3, 0.0))
    assert parse_go([*words, "movetime", "20"], first).limit == Budget(0.02)  # the shorter
    assert parse_go(["btime", "3000", "depth", "4"], first).limit == Budget(None, 4)  # not its clock
    assert clock_budget(60, 1.0) == pytest.approx(60 / MOVES_TO_GO + 1.0 - 0.05)
    assert clock_budget(10, 0.0, moves_to_go=1) == pytest.approx(5 - 0.05)  # half the clock at most
    assert clock_budget(0.02) == 0.01  # the least a move gets


def test_searchmoves_takes_the_moves_up_to_the_next_word_of_go() -> None:
    state = game_class("santorini").from_str(POSITION)
    command = parse_go(["searchmoves", "d4c3c2", "b2c2b1", "depth", "2", "ponder"], state)
    assert command.root_moves == [state.parse_move("d4c3c2"), state.parse_move("b2c2b1")]
    assert command.limit == Budget(None, 2) and command.ponder and not command.infinite
    with pytest.raises(BordspelError, match="at least one"):
        parse_go(["searchmoves", "depth", "2"], state)
    with pytest.raises(BordspelError, match="no worker of the player to move stands on a1"):
        parse_go(["searchmoves", "a1a2a3"], state)


# -- searchmoves ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "mcts:playouts=60", "zero:playouts=8"])
def test_every_searching_player_searches_only_the_root_moves_given(spec: str) -> None:
    state = game_class("santorini").from_str(POSITION)
    player = make_player(spec, "santorini", 1)
    root = [state.parse_move("b2c2b1"), state.parse_move("d4e5e4")]
    lines = player.analyse_lines(state, None, 3, root)
    assert lines and {line.move for line in lines} <= set(root)  # PUCT may leave a move unvisited
    only = list(player.analysis(state, None, 1, root[1:]))
    assert {result.move for result in only} == {root[1]}


def test_the_engine_searches_only_the_moves_given(engine: SimpleEngine) -> None:
    state = game_class("santorini").from_str(POSITION)
    root = [state.parse_move("b2c2b1"), state.parse_move("d4e5e4")]
    lines = engine.analyse(state, Limit(depth=2), multipv=3, root_moves=root)
    assert [line.pv[0] for line in lines] in (root, root[::-1])
    assert engine.play(state, Limit(depth=2), root_moves=root[1:]).move == root[1]


def test_a_player_that_does_not_search_refuses_searchmoves() -> None:
    out = io.StringIO()
    server = EngineServer(out, "quarto", "random")
    server.handle(["go", "searchmoves", "A"])
    assert out.getvalue().splitlines() == [
        "info string error searchmoves needs a player that searches, not random",
        "bestmove (none)",
    ]


# -- clocks -----------------------------------------------------------------------------------
def test_the_engine_plays_on_the_clock(engine: SimpleEngine) -> None:
    state = game_class("santorini").from_str(POSITION)
    result = engine.play(state, Limit(clocks=(2.0, 2.0), increments=(0.1, 0.1), moves_to_go=20))
    assert result.move in state.legal_moves() and result.info is not None


# -- pondering --------------------------------------------------------------------------------
def test_a_pondering_engine_gets_ponderhit_when_the_expected_reply_is_played() -> None:
    start = new_game("quarto")
    with SimpleEngine.popen([*BAD, "echo"]) as echo:
        first = echo.play(start, Limit(depth=1), ponder=True)
        assert (first.move, first.ponder) == (start.parse_move("A"), start.play("A").parse_move("a1:B"))
        pondered = start.play("A").play("a1:B")
        assert echo.pondering is not None and echo.pondering.state == pondered
        second = echo.play(pondered, Limit(depth=1))
        assert second.info is not None and second.info.depth == 7  # the ponder search's, after ponderhit
        assert second.move == pondered.parse_move("b1:C") and echo.pondering is None


def test_a_ponder_search_on_another_position_is_stopped_first() -> None:
    start = new_game("quarto")
    with SimpleEngine.popen([*BAD, "echo"]) as echo:
        echo.play(start, Limit(depth=1), ponder=True)
        again = echo.play(start, Limit(depth=1))
        assert again.info is not None and again.info.depth == 1 and again.move == start.parse_move("A")
        assert echo.pondering is None and echo.ping() == []


def test_our_engine_ponders_and_finishes_on_ponderhit(engine: SimpleEngine) -> None:
    state = game_class("santorini").from_str(POSITION)
    first = engine.play(state, Limit(depth=2), ponder=True)
    assert first.ponder is not None and engine.pondering is not None
    pondered = state.apply(first.move).apply(first.ponder)
    second = engine.play(pondered, Limit(depth=2))
    assert second.move in pondered.legal_moves() and engine.pondering is None
    assert engine.ping() == []


def test_ponderhit_without_a_ponder_search_is_an_error() -> None:
    out = io.StringIO()
    EngineServer(out, "quarto").handle(["ponderhit"])
    assert out.getvalue() == "info string error ponderhit without a go ponder running\n"


# -- asyncio ----------------------------------------------------------------------------------
async def _async_session() -> tuple[Any, list[Info], Info, Any]:
    state = game_class("santorini").from_str(POSITION)
    async with await popen_engine(ENGINE, timeout=60) as engine:
        assert isinstance(engine, AsyncEngine) and engine.engine.protocol == 1
        await engine.configure({"multipv": 1})
        played, lines = await asyncio.gather(
            engine.play(state, Limit(depth=2)), engine.analyse(state, Limit(depth=2), multipv=2)
        )
        analysis = await engine.analysis(new_game("quarto"))
        async for info in analysis:
            if info.depth == 2:
                await analysis.stop()
        assert await engine.ping() == []
        return played.move, lines, analysis.info, analysis.best


def test_the_asyncio_driver_plays_analyses_and_streams() -> None:
    state = game_class("santorini").from_str(POSITION)
    move, lines, last, best = asyncio.run(_async_session())
    assert move in state.legal_moves() and [line.multipv for line in lines] == [1, 2]
    assert last.depth >= 2 and best in new_game("quarto").legal_moves()  # depth 3 may come before the stop


def test_the_asyncio_driver_raises_the_simple_driver_s_errors() -> None:
    async def hang() -> None:
        engine = await popen_engine([*BAD, "hang"], timeout=0.3)
        await engine.play(new_game("quarto"), Limit(depth=1))

    with pytest.raises(EngineTimeout, match="during a search"):
        asyncio.run(hang())


def test_a_ponder_search_holds_its_move_until_ponderhit() -> None:
    out = io.StringIO()
    server = EngineServer(out, "quarto", "random")  # answers at once: only ponderhit lets it out
    server.handle(["go", "ponder", "depth", "1"])
    search = server.search
    assert search is not None
    search.process.join()
    assert "bestmove" not in out.getvalue() and server.searching()
    server.handle(["ponderhit"])
    search.thread.join()
    assert out.getvalue().splitlines()[-1].startswith("bestmove ") and not server.searching()
