"""Game options are read by one typed parser (``bordspel.core.option_bool``/``option_int``) at
every entry point: a flag given as text never turns on the wrong variant, a number may be its
digits, and anything else is refused naming the option and the values it takes."""

from __future__ import annotations

import io
from typing import Any

import pytest

from bordspel.cli import main
from bordspel.core import BadOption, BordspelError, new_game
from bordspel.engine.server import EngineServer
from bordspel.game_options import parse_options
from bordspel.web.options import start_state

FALSE_WORDS = ["false", "no", "0", "off", "False", "NO", "Off", False, 0]
TRUE_WORDS = ["true", "yes", "1", "on", "TRUE", "Yes", "ON", True, 1]


@pytest.mark.parametrize("value", FALSE_WORDS)
def test_a_flag_given_as_a_false_word_is_false(value: object) -> None:
    assert new_game("quarto", advanced=value).advanced is False
    assert new_game("santorini", finite_supply=value).supply is None


@pytest.mark.parametrize("value", TRUE_WORDS)
def test_a_flag_given_as_a_true_word_is_true(value: object) -> None:
    assert new_game("quarto", advanced=value).advanced is True
    assert new_game("santorini", finite_supply=value).supply is not None


@pytest.mark.parametrize("value", ["maybe", "", 2, -1, 0.0, None, "yes please"])
def test_anything_else_is_refused_naming_the_option_and_its_words(value: object) -> None:
    with pytest.raises(BadOption, match=r"option 'advanced' is true or false \(or yes/no, 1/0, on/off\)"):
        new_game("quarto", advanced=value)


def test_a_number_may_be_its_digits() -> None:
    assert new_game("hermit", size="5").n == 5
    assert new_game("hermit", size=" 7 ").n == 7
    assert new_game("santorini", players="3").players == 3
    assert new_game("santorini", gods="random", seed="4") == new_game("santorini", gods="random", seed=4)


@pytest.mark.parametrize("value", ["5x", "five", "", "5.0", 5.0, True, "٣", 0, 65, "65"])
def test_anything_else_is_refused_naming_the_option_and_its_range(value: object) -> None:
    with pytest.raises(BadOption, match="option 'size' is a whole number from 1 to 64"):
        new_game("hermit", size=value)


def test_gymnasium_reads_options_with_the_same_parser() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import bordspel.rl.gymnasium  # noqa: F401  (registers the environments)

    assert gymnasium.make("bordspel/Quarto-v0", advanced="no").unwrapped.start.advanced is False
    assert gymnasium.make("bordspel/Hermit-v0", size="4").unwrapped.start.n == 4
    with pytest.raises(BadOption, match="option 'advanced'"):
        gymnasium.make("bordspel/Quarto-v0", advanced="nope")


def test_pettingzoo_reads_options_with_the_same_parser() -> None:
    pytest.importorskip("pettingzoo")
    from bordspel.rl.pettingzoo import raw_env

    assert raw_env("santorini", finite_supply="off").start.supply is None
    with pytest.raises(BadOption, match="option 'finite_supply'"):
        raw_env("santorini", finite_supply="nope")


def test_openspiel_reads_options_with_the_same_parser() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import bordspel.rl.openspiel  # noqa: F401  (registers the games)

    game: Any = pyspiel.load_game("python_bordspel_quarto(advanced=false)")
    assert game.start.advanced is False
    assert pyspiel.load_game("python_bordspel_hermit(size=4)").start.n == 4


@pytest.mark.parametrize("pair, advanced", [("advanced=no", False), ("advanced=On", True)])
def test_the_command_line_and_engine_options_read_text_with_the_same_parser(
    pair: str, advanced: bool
) -> None:
    assert parse_options("quarto", [pair]) == {"advanced": advanced}


def test_the_command_line_refuses_a_bad_flag_naming_its_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "quarto", "1", "-o", "advanced=maybe"]) == 2
    assert "option 'advanced' is true or false (or yes/no, 1/0, on/off)" in capsys.readouterr().err


def test_the_engine_protocol_reads_options_with_the_same_parser() -> None:
    out = io.StringIO()
    server = EngineServer(out, "quarto", "random")
    server.handle(["setoption", "name", "game.advanced", "value", "false"])
    assert server.state.advanced is False  # type: ignore[attr-defined]
    server.handle(["setoption", "name", "game.advanced", "value", "maybe"])
    assert "option 'advanced' is true or false" in out.getvalue()


def test_the_web_app_reads_options_with_the_same_parser() -> None:
    assert start_state("quarto", {"advanced": "false"}).advanced is False  # type: ignore[attr-defined]
    assert start_state("hermit", {"size": "6"}).n == 6  # type: ignore[attr-defined]
    with pytest.raises(BadOption, match="option 'size' is a whole number from 1 to 16"):
        start_state("hermit", {"size": "17"})
    with pytest.raises(BordspelError, match="option 'players' is one of 2, 3, 4"):
        start_state("santorini", {"players": 5})


def test_numpy_numbers_and_flags_are_read_as_python_s() -> None:
    np = pytest.importorskip("numpy")
    assert new_game("hermit", size=np.int64(4)).n == 4  # type: ignore[attr-defined]
    assert new_game("quarto", advanced=np.bool_(True)).advanced is True  # type: ignore[attr-defined]
    assert new_game("quarto", advanced=np.int8(0)).advanced is False  # type: ignore[attr-defined]
    with pytest.raises(BadOption, match="option 'advanced' is true or false"):
        new_game("quarto", advanced=np.float64(1.0))
