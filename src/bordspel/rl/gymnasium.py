"""Gymnasium environments: one agent against a bordspel player, for every game.

Importing this module registers ``bordspel/<Game>-v0`` for every registered game (e.g.
``bordspel/Hermit-v0``; ``register(game)`` adds one registered later);
``gymnasium.make("bordspel/Santorini-v0", opponent="hard", players=3)`` passes the options
on. The agent plays ``seat`` (0-based) and the opponent every other seat. Observations are the
planes of ``bordspel.rl.codecs``; ``info["action_mask"]`` marks the legal actions. The reward is
+1/-1/0 when the game ends; an illegal action ends the episode with -1
(``info["illegal_action"]``). ``step`` after the episode has ended raises ``ResetNeeded``. A
seat that never gets a move (Hermit ``size=1``, ``seat=1``) is refused.

``actions="clicks"`` makes a move a few steps of clicks from a small fixed alphabet
(``bordspel.rl.clicks``: Santorini with any gods has 27 actions) instead of one whole-move id; a
click that does not finish a move gives reward 0 and leaves the turn to the agent.

Seeding follows Gymnasium: ``reset(seed=s)`` seeds ``np_random``, and every reset draws the
opponent's seed from it, so ``reset(seed=7)`` then ``reset()`` repeats the same games, and two
environments (or vector environments) given the same seed play the same episodes (games that
draw their start, as Santorini's ``gods="random"``, draw it at every reset too), with an
opponent that stops on no clock (``random``, ``greedy``, ``easy``, ``medium``, and ``depth=``,
``nodes=`` or ``playouts=`` players without ``time=``, ``solver_time=`` or ``search_time=``;
see ``bordspel.ai.arena.clock_bound``). Render modes:
``rgb_array``, ``ansi``, ``svg`` and ``human`` (see ``bordspel.rl.render``).
"""

from __future__ import annotations

from typing import Any

from bordspel.rl import missing_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
except ImportError as error:
    raise missing_extra(error) from error

from bordspel.ai import make_player
from bordspel.core import BordspelError, State, available_games, new_game
from bordspel.rl import draws_start, seat_moves
from bordspel.rl.clicks import ClickTurn, click_actions
from bordspel.rl.codecs import Planes, codec_for
from bordspel.rl.render import RENDER_MODES, check_mode, frame

__all__ = ["BordspelEnv", "register"]


class BordspelEnv(gymnasium.Env):  # type: ignore[type-arg,unused-ignore]
    """One seat of a bordspel game against a bordspel player on every other seat."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game: str = "hermit",
        opponent: str = "random",
        seat: int = 0,
        render_mode: str | None = None,
        actions: str = "moves",
        **options: Any,
    ) -> None:
        if not isinstance(opponent, str):
            raise ValueError(
                "the single environment plays against an opponent ('random', 'medium', ...); for "
                "self-play (opponent=None) use the vector env: gymnasium.make_vec(ID, num_envs=N, "
                "vectorization_mode='vector_entry_point', opponent=None)"
            )
        self.start, self.options = new_game(game, **options), options
        self.codec = codec_for(self.start.name, self.start)
        self.clicks = click_actions(self.start, actions)
        self.turn: ClickTurn | None = None
        if not 0 <= seat < self.start.num_players:
            raise ValueError(f"seat is from 0 to {self.start.num_players - 1}")
        if not seat_moves(self.start, seat):
            raise BordspelError(f"seat {seat} never gets a move: the game ends before its turn")
        check_mode(render_mode)
        self.opponent_spec, self.seat, self.render_mode = opponent, seat, render_mode
        self.action_space = spaces.Discrete(self._num_actions())
        self.state: State = self.start
        shape = self._observe().shape
        highest = (self.clicks or self.codec).highest(self.start)
        self.observation_space = spaces.Box(0, highest, shape=shape, dtype=np.int8)
        self.opponent = make_player(opponent, self.start.name, seed=0)
        self.over = False

    def _num_actions(self) -> int:
        return self.codec.num_actions(self.start) if self.clicks is None else self.clicks.num_actions

    def _mine(self) -> bool:
        return not self.state.is_over() and self.state.to_move == self.seat

    def _info(self, **extra: Any) -> dict[str, Any]:
        if self.clicks is not None:
            mask = self.clicks.mask(self.turn if self._mine() else None)
        else:
            mask = self.codec.mask(self.state) if self._mine() else np.zeros(self._num_actions(), np.int8)
        return {"action_mask": mask, **extra}

    def _observe(self) -> Planes:
        if self.clicks is None:
            return self.codec.observe(self.state, self.seat)
        return self.clicks.observe(self.state, self.seat, self.turn)

    def _new_turn(self) -> None:
        """The agent's clicks start anew (click actions only)."""
        if self.clicks is not None:
            self.turn = self.clicks.turn(self.state) if self._mine() else None

    def _move(self, action: int) -> Any | None:
        """The move ``action`` makes (None: a click that does not finish one); BordspelError if illegal."""
        if self.clicks is None:
            return self.codec.move(self.state, action)
        if self.turn is None:
            raise BordspelError("no move of the agent's is under way")
        return self.turn.click(action)

    def _opponents_move(self) -> None:
        while not self.state.is_over() and self.state.to_move != self.seat:
            self.state = self.state.apply(self.opponent.step(self.state))

    def _reward(self) -> float:
        outcome = self.state.outcome()
        return 0.0 if outcome is None else outcome.returns()[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(2**31))
        self.opponent = make_player(self.opponent_spec, self.start.name, seed=opponent_seed)
        if draws_start(self.start.name, self.options):
            self.start = new_game(self.start.name, **self.options, seed=int(self.np_random.integers(2**31)))
        self.state, self.over = self.start, False
        self._opponents_move()
        self._new_turn()
        self._show()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Planes, float, bool, bool, dict[str, Any]]:
        """Play ``action`` and the opponents' replies; ResetNeeded once the episode has ended."""
        if self.over:
            raise ResetNeeded("the episode is over: call reset() before step()")
        try:
            move = self._move(int(action))
        except BordspelError:
            self.over = True
            return self._observe(), -1.0, True, False, self._info(illegal_action=True)
        if move is None:  # a click that leaves the move unfinished
            return self._observe(), 0.0, False, False, self._info()
        self.state = self.state.apply(move)
        self._opponents_move()
        self._new_turn()
        self._show()
        self.over = self.state.is_over()
        return self._observe(), self._reward(), self.over, False, self._info()

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The frame of ``render_mode``: pixels, text or SVG; ``human`` prints and returns None."""
        return frame(self.state, self.render_mode)


def register(game: str) -> None:
    """Register ``bordspel/<Game>-v0`` (done at import for every game then known), with
    ``bordspel.rl.vector``'s batched environment as its vector entry point."""
    gymnasium.register(
        id=f"bordspel/{game.capitalize()}-v0",
        entry_point="bordspel.rl.gymnasium:BordspelEnv",
        vector_entry_point="bordspel.rl.vector:BordspelVectorEnv",
        kwargs={"game": game},
    )


for _game in available_games():
    register(_game)
