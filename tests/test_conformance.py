"""The shared conformance check, run on every registered game under every option."""

from __future__ import annotations

import inspect

import pytest

from bordspel import conformance
from bordspel.ai import RandomPlayer
from bordspel.conformance import check
from bordspel.core import BadOption, BordspelError, State, available_games, game_class, new_game
from bordspel.games.hermit.engine import HermitMove

from .variants import IDS
from .variants import VARIANTS as STARTS


@pytest.mark.parametrize("game, options", STARTS, ids=IDS)
def test_conformance(game: str, options: dict[str, object]) -> None:
    report = check(new_game(game, **options), games=3, seed=7)
    assert report.games == 3 and report.positions > 3 and report.moves_checked >= 9


def test_every_registered_game_is_covered() -> None:
    assert {game for game, _ in STARTS} == set(available_games())
    for name in available_games():
        assert issubclass(game_class(name), State) and game_class(name).name == name


def test_unknown_game() -> None:
    with pytest.raises(BordspelError, match="unknown game 'chess'"):
        game_class("chess")


def test_checker_catches_a_broken_engine() -> None:
    """A game whose move list omits moves must fail the check: the checker can fail."""

    class Broken(game_class("hermit")):  # type: ignore[misc]
        __slots__ = ()

        def legal_moves(self) -> list[HermitMove]:
            return super().legal_moves()[1:]

    start = Broken.initial(size=3)
    with pytest.raises(AssertionError):
        check(start, games=1)


def test_checker_catches_a_player_that_does_not_pickle(monkeypatch: pytest.MonkeyPatch) -> None:
    class Local(RandomPlayer):  # a class inside a function cannot be pickled
        pass

    monkeypatch.setattr(conformance, "make_player", lambda spec, game, seed=None: Local(seed))
    with pytest.raises(AssertionError, match="'random' for quarto does not pickle"):
        check(new_game("quarto"), games=1)


@pytest.mark.parametrize("name", available_games())
def test_every_game_declares_the_options_untrusted_callers_may_set(name: str) -> None:
    cls = game_class(name)
    parameters = inspect.signature(cls.initial).parameters
    named = {key for key, p in parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    assert (cls.option_limits or not named) and set(cls.option_limits) <= named
    for option, limit in cls.option_limits.items():
        assert limit.describe()
        with pytest.raises(BadOption, match=option):
            limit.check(option, "/etc/passwd" if option != "pieces" else 6)
