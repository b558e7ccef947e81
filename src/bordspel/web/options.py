"""The start position a client asks for, its options checked against the limits the game
declares (``State.option_limits``, see ``bordspel.core``); any other option is refused."""

from __future__ import annotations

from bordspel.core import BadOption, State, available_games, game_class

__all__ = ["start_state"]


def start_state(game: str, options: object) -> State:
    """The start position of ``game`` with the client's ``options``, checked against the limits."""
    if game not in available_games():
        raise BadOption(f"unknown game {game[:40]!r}: choose one of {', '.join(available_games())}")
    if not isinstance(options, dict):
        raise BadOption("give 'options' as an object")
    cls = game_class(game)
    limits = cls.option_limits
    unknown = [name for name in options if name not in limits]
    if unknown:
        raise BadOption(f"{game} has no option {unknown[0][:40]!r}; it takes {', '.join(limits)}")
    checked = {name: limits[name].check(name, value) for name, value in options.items()}
    return cls.initial(**checked)
