"""Santorini: the single-action board of the spec and the turn-based game for 2, 3 and 4 players.

The board rules are :mod:`bordspel.games.santorini.board`'s and the moves are
:mod:`bordspel.games.santorini.turns`'s. Workers are cells (``-1`` when not on the board). Seat
``s`` plays colour ``s % colours`` (with four players two teams share a colour: seats 0 and 2,
seats 1 and 3); colour ``k`` owns workers ``2k`` and ``2k + 1``.

:class:`SantoriniBoard` is the spec facades' board of single checked actions;
:class:`SantoriniState` the game, with a fast path for the game without gods and the turn
generator (:mod:`bordspel.games.santorini.generator`) for the game with them.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, TypeGuard

from bordspel._native import load, twin
from bordspel.core import (
    MAX_MOVE_TEXT,
    BadOption,
    BordspelError,
    Choice,
    Flag,
    IllegalMoveError,
    NotationError,
    Outcome,
    check_int,
    check_text,
    iter_bits,
    option_bool,
    option_int,
    option_seed,
    permute_mask,
    split_fields,
    square_symmetries,
)
from bordspel.games.santorini import generator
from bordspel.games.santorini import gods_play as _gods_play
from bordspel.games.santorini.board import (
    CELLS,
    DIRECTIONS,
    DOME,
    FULL,
    NEIGHBOURS,
    SIZE,
    STEPS,
    WIN_LEVEL,
    Levels,
    build_targets,
    can_step,
    exact_level,
    free_cells,
    height,
    is_winning_move,
    move_targets,
    occupied_mask,
    raise_tower,
    step,
    winning_steps,
)
from bordspel.games.santorini.generator import Powers, Result
from bordspel.games.santorini.gods import GOD_TEXT, GODS, SIMPLE_GODS
from bordspel.games.santorini.turns import (
    REMOVED,
    GodTurn,
    Placement,
    SantoriniMove,
    Turn,
    cell_named,
    parse_actions,
    square_text,
    squares_in,
    turn_of,
)
from bordspel.jupyter import PicturedState

__all__ = [
    "BOX_SUPPLY",
    "DIRECTIONS",
    "Placement",
    "SantoriniBoard",
    "SantoriniState",
    "Turn",
]

BOX_SUPPLY = (22, 18, 14, 18)
"""Pieces in the boxed game: blocks of level 1, 2 and 3, and domes."""
_CORE = load("santorini_core")
_PLAY: Any = twin("santorini_gods_play", _gods_play)
_SET = object.__setattr__
_TRIALS = 24


def board_rows(levels: Levels, workers: Sequence[int]) -> list[str]:
    """The spec's text rows: heights 0-4, a worker shown by its letter A, B, ..."""
    chars = [str(height(levels, cell)) for cell in range(CELLS)]
    for index, cell in enumerate(workers):
        if cell >= 0:
            chars[cell] = chr(65 + index)
    return ["".join(chars[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]


def cell_of(square: object) -> int | None:
    """The cell index of an on-board ``(row, col)`` tuple of ints, else None."""
    if not (isinstance(square, (tuple, list)) and len(square) == 2):
        return None
    row, col = square
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
        return None
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else None


def _is_cell(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < CELLS


def _is_turn(move: Turn) -> bool:
    """Whether the fields of ``move`` are cells (the build may be None)."""
    return _is_cell(move.source) and _is_cell(move.target) and (move.build is None or _is_cell(move.build))


# -- the board simulator behind the spec facades ---------------------------------------------
class SantoriniBoard:
    """Towers and lettered workers with single checked actions and no turn order (the spec)."""

    __slots__ = ("levels", "workers")
    levels: Levels
    workers: tuple[int, ...]

    def __init__(self, levels: Levels, workers: tuple[int, ...]) -> None:
        _SET(self, "levels", levels)
        _SET(self, "workers", workers)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("SantoriniBoard is immutable")

    @classmethod
    def from_positions(cls, positions: object) -> SantoriniBoard:
        """A flat board with workers A, B, ... on ``positions`` (4, 6 or 8 distinct squares)."""
        if not isinstance(positions, (list, tuple)):
            raise BordspelError(
                f"give the workers' positions as a list or tuple, not {type(positions).__name__}"
            )
        if len(positions) not in (4, 6, 8):
            raise BordspelError(f"there must be 4, 6 or 8 workers (2 per player), not {len(positions)}")
        cells = []
        for index, square in enumerate(positions):
            cell = cell_of(square)
            if cell is None:
                raise BordspelError(f"worker {chr(65 + index)} at {square!r} is not on the 5x5 board")
            if cell in cells:
                raise BordspelError(f"two workers stand on {square!r}")
            cells.append(cell)
        return cls((0, 0, 0, 0), tuple(cells))

    def worker_index(self, letter: object) -> int:
        """The index of the worker with ``letter`` (IllegalMoveError if there is none)."""
        if isinstance(letter, str) and len(letter) == 1 and 0 <= ord(letter) - 65 < len(self.workers):
            return ord(letter) - 65
        raise IllegalMoveError(f"there is no worker {letter!r}")

    def _target(self, letter: object, direction: object) -> tuple[int, int]:
        index = self.worker_index(letter)
        if direction not in DIRECTIONS:
            raise IllegalMoveError(f"unknown direction {direction!r}: use {' '.join(DIRECTIONS)}")
        target = step(self.workers[index], str(direction))
        if target is None:
            raise IllegalMoveError(f"worker {letter} cannot leave the board")
        return index, target

    def moved(self, letter: object, direction: object) -> SantoriniBoard:
        """The board after moving a worker one square; refuses what the board forbids."""
        index, target = self._target(letter, direction)
        source = self.workers[index]
        if not can_step(self.levels, occupied_mask(self.workers), source, target):
            raise IllegalMoveError(f"worker {letter} cannot move to {square_text(target)}")
        workers = list(self.workers)
        workers[index] = target
        return SantoriniBoard(self.levels, tuple(workers))

    def built(self, letter: object, direction: object) -> SantoriniBoard:
        """The board after a worker builds one level next to it."""
        index, target = self._target(letter, direction)
        source = self.workers[index]
        if not build_targets(self.levels, occupied_mask(self.workers), source) >> target & 1:
            raise IllegalMoveError(f"worker {letter} cannot build on {square_text(target)}")
        return SantoriniBoard(raise_tower(self.levels, target), self.workers)

    def level(self, letter: object) -> int:
        """The height the worker with ``letter`` stands on."""
        return height(self.levels, self.workers[self.worker_index(letter)])

    def positions(self) -> dict[str, tuple[int, int]]:
        """The square of each worker, by letter."""
        return {chr(65 + i): divmod(cell, SIZE) for i, cell in enumerate(self.workers)}

    def winning_worker(self) -> str | None:
        """The first worker (alphabetically) standing on level 3, else None."""
        for index, cell in enumerate(self.workers):
            if height(self.levels, cell) == WIN_LEVEL:
                return chr(65 + index)
        return None

    def __str__(self) -> str:
        return "\n".join(board_rows(self.levels, self.workers))


def god_names(text: str) -> list[str]:
    """The names in a ``gods`` option, joined by commas or slashes (``apollo,pan``, ``apollo/pan``)."""
    return [name.strip().lower() for name in re.split("[,/]", text)]


class GodChoice:
    """The ``gods`` option: one name per seat joined by commas or slashes ('-' for none, ``random``
    to draw that seat's god), or random or simple for every seat."""

    TEXT_LIMIT = 64

    def check(self, name: str, value: object) -> str:
        if not isinstance(value, str) or len(value) > self.TEXT_LIMIT:
            raise BadOption(f"option {name!r} is god names joined by commas, random or simple")
        if value.strip().lower() not in ("", "random", "simple"):
            unknown = [g for g in god_names(value) if g not in GODS and g not in ("-", "random")]
            if unknown:
                raise BadOption(f"option {name!r}: unknown god {unknown[0][:20]!r}")
        return value

    def describe(self) -> dict[str, Any]:
        """The choices for every seat at once, and those of one seat (``seat_choices``)."""
        return {
            "choices": ["", "random", "simple", *GODS],
            "seat_choices": ["-", "random", *GODS],
            "text": self.TEXT_LIMIT,
            "per_seat": True,
        }


# -- the game -----------------------------------------------------------------------------------
class SantoriniState(PicturedState[SantoriniMove]):
    """A Santorini position: towers, workers, the seat to move, the supply and who is out."""

    __slots__ = ("players", "levels", "workers", "turn", "supply", "out", "winners", "powers")
    name = "santorini"
    option_limits = MappingProxyType(
        {"players": Choice((2, 3, 4)), "finite_supply": Flag(), "gods": GodChoice()}
    )
    players: int
    levels: Levels
    workers: tuple[int, ...]
    turn: int
    supply: tuple[int, int, int, int] | None
    out: int
    winners: frozenset[int] | None
    powers: Powers | None
    """The gods of the seats and what their powers remember; None for the game without gods."""

    @classmethod
    def _make(
        cls,
        players: int,
        levels: Levels,
        workers: tuple[int, ...],
        turn: int,
        supply: tuple[int, int, int, int] | None,
        out: int,
        winners: frozenset[int] | None,
        powers: Powers | None = None,
    ) -> SantoriniState:
        state = object.__new__(cls)
        _SET(state, "players", players)
        _SET(state, "levels", levels)
        _SET(state, "workers", workers)
        _SET(state, "turn", turn)
        _SET(state, "supply", supply)
        _SET(state, "out", out)
        _SET(state, "winners", winners)
        _SET(state, "powers", powers)
        return state

    @classmethod
    def initial(
        cls,
        players: int = 2,
        finite_supply: bool = False,
        workers: Sequence[tuple[int, int]] | None = None,
        gods: str | Sequence[str] = "",
        seed: int | None = None,
        **options: Any,
    ) -> SantoriniState:
        """A new game; ``workers`` (two squares per colour, in order) skips the setup phase.

        ``gods`` names each seat's god (``"apollo,pan"``; ``-`` for none; ``random`` for one drawn
        from the gods not named), or is ``random`` (any god) or ``simple`` (the simple gods) for
        every seat, drawn with ``seed``; ``seed`` also shuffles Chaos's deck.
        """
        if options:
            raise BordspelError(
                f"Santorini has no option {', '.join(options)}; "
                "it takes players, finite_supply, workers, gods, seed"
            )
        players = option_int("players", players, 2, 4)
        colours = 2 if players == 4 else players
        cells = [-1] * (2 * colours)
        if workers is not None:
            if isinstance(workers, (str, int)) or not isinstance(workers, Sequence):
                raise BordspelError(
                    f"workers is a list of squares (row, column), two per colour, not {workers!r}"
                )
            cells = list(SantoriniBoard.from_positions(list(workers)).workers)
            if len(cells) != 2 * colours:
                raise BordspelError(f"{players} players need {2 * colours} workers, not {len(cells)}")
        supply = BOX_SUPPLY if option_bool("finite_supply", finite_supply) else None
        powers = deal_gods(gods, players, option_seed("seed", seed))
        start = cls._make(players, (0, 0, 0, 0), tuple(cells), 0, supply, 0, None, powers)
        if start.in_setup:
            start = start._with_turn(start._setup_order()[0])
        return start._settle(True)

    def _key(self) -> tuple[Any, ...]:
        return (
            self.players,
            self.levels,
            _alike_in_order(self.workers, self.powers),
            self.turn,
            self.supply,
            self.out,
            self.winners,
            self.powers,
        )

    def normalized(self) -> SantoriniState:
        """This position with each colour's two workers listed in square order, as a placement
        lists them (itself when Selene is in play: her second worker is the female one)."""
        workers = _alike_in_order(self.workers, self.powers)
        if workers == self.workers:
            return self
        return self._make(
            self.players, self.levels, workers, self.turn, self.supply, self.out, self.winners, self.powers
        )

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"players": self.players, "finite_supply": self.supply is not None}
        if self.powers is not None:
            options["gods"] = ",".join(name or "-" for name in self.powers.gods)
        return options

    # -- symmetries ----------------------------------------------------------------------
    def symmetries(self) -> int:
        """8: the symmetries of the square board (``bordspel.core.square_symmetries``). Every
        god's power keeps them; gods and memos stay as they are. Workers keep the order they are
        listed in (the RL codec numbers a turn by its worker's place in that list), yet a colour's
        two workers are alike (``==`` and ``hash`` do not depend on their order, unless Selene is
        in play), so that a placement's image is the image's placement and mirror-image games
        share their canonical form."""
        return 8

    def transform(self, symmetry: int) -> SantoriniState:
        perm = square_symmetries(SIZE)[self._check_symmetry(symmetry)]
        g1, g2, g3, domes = (permute_mask(mask, perm) for mask in self.levels)
        workers = tuple(perm[cell] if cell >= 0 else cell for cell in self.workers)
        return self._make(
            self.players,
            (g1, g2, g3, domes),
            workers,
            self.turn,
            self.supply,
            self.out,
            self.winners,
            self.powers,
        )

    def transform_move(self, move: SantoriniMove, symmetry: int) -> SantoriniMove:
        """The image of a legal move; a placement's squares in order."""
        perm = square_symmetries(SIZE)[self._check_symmetry(symmetry)]
        if isinstance(move, Placement):
            first, second = sorted((perm[move.first], perm[move.second]))
            return Placement(first, second)
        if isinstance(move, Turn) and self.powers is None:
            build = None if move.build is None else perm[move.build]
            return Turn(perm[move.source], perm[move.target], build)
        # A god turn may be written many ways (Hermes's walks in either order): the image is the
        # way listed there, found by the position it leads to.
        return _turn_to(self.transform(symmetry))[self.apply_unchecked(move).transform(symmetry)]

    def god_of(self, seat: int) -> str | None:
        """The name of ``seat``'s god, None without one."""
        return self.powers.gods[seat] or None if self.powers is not None else None

    def notes(self) -> str:
        """The god cards in play, one seat a line ("" without gods)."""
        return "\n".join(self.god_cards())

    def god_cards(self) -> list[str]:
        """Each seat's god with its card text (Chaos's face-up power too): for front ends."""
        if self.powers is None:
            return []
        lines = []
        for seat, (name, memo) in enumerate(zip(self.powers.gods, self.powers.memos)):
            if not name:
                lines.append(f"player {seat + 1}: no god")
                continue
            lines.append(f"player {seat + 1}: {name.capitalize()}: {GOD_TEXT[name]}")
            if name == "chaos":
                card = memo.split("/")[0]
                lines.append(f"  face-up: {card.capitalize()}: {GOD_TEXT[card]}")
        return lines

    # -- seats and colours ------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def colours(self) -> int:
        """The number of worker colours (two teams share two colours with four players)."""
        return 2 if self.players == 4 else self.players

    def colour_of(self, seat: int) -> int:
        """The colour of the workers ``seat`` moves."""
        return seat % self.colours

    def team(self, seat: int) -> frozenset[int]:
        """The seats that share ``seat``'s workers (itself, and its partner with four players)."""
        colour = self.colour_of(seat)
        return frozenset(s for s in range(self.players) if s % self.colours == colour)

    @property
    def in_setup(self) -> bool:
        """Whether the player to move still has to place their workers."""
        return self.winners is None and self.workers[2 * self.colour_of(self.turn)] == -1

    def my_workers(self) -> tuple[int, int]:
        """The cells of the two workers of the player to move."""
        colour = self.colour_of(self.turn)
        return self.workers[2 * colour], self.workers[2 * colour + 1]

    # -- moves ---------------------------------------------------------------------------------
    def _buildable(self) -> int:
        """Cells whose next piece is still in the supply (all cells without a supply)."""
        if self.supply is None:
            return FULL
        mask = FULL
        for level, left in enumerate(self.supply):
            if not left:
                mask &= ~exact_level(self.levels, level)
        return mask

    def _turns(self) -> list[tuple[int, int, int]]:
        """(source, target, build mask) per move of the player to move; mask -1 for a win."""
        levels = self.levels
        occupied = occupied_mask(self.workers)
        buildable = self._buildable()
        turns = []
        for source in self.my_workers():
            if source < 0:
                continue
            targets = move_targets(levels, occupied, source)
            wins = winning_steps(levels, source, targets)
            free = free_cells(levels, occupied ^ (1 << source)) & buildable  # the worker has left
            for target in iter_bits(targets):
                if wins >> target & 1:
                    turns.append((source, target, -1))
                else:
                    turns.append((source, target, NEIGHBOURS[target] & free))
        return turns

    def _placeable(self) -> list[int]:
        """Cells a worker may be placed on in the setup: no worker, no dome, no level-3 tower."""
        taken = occupied_mask(self.workers) | self.levels[2]
        return [c for c in range(CELLS) if not taken >> c & 1]

    def _placements(self) -> list[Placement]:
        free = self._placeable()
        god = generator.base_god(self, self.turn)
        return [Placement(a, b) for i, a in enumerate(free) for b in free[i + 1 :] if god.placeable(a, b)]

    def _setup_order(self) -> list[int]:
        """The seats that place workers, in order: Bia's first, then by seat."""
        seats = range(self.colours)
        first = [s for s in range(self.players) if generator.base_god(self, s).places_first]
        leading = [s % self.colours for s in first]
        return leading + [s for s in seats if s not in leading]

    def legal_moves(self) -> list[SantoriniMove]:
        if self.winners is not None:
            return []
        if self.in_setup:
            return list(self._placements())
        if self.powers is not None:
            return list(generator.table(self))
        moves: list[SantoriniMove] = []
        for source, target, builds in self._turns():
            if builds < 0:
                moves.append(Turn(source, target, None))
            else:
                moves.extend(Turn(source, target, b) for b in iter_bits(builds))
        return moves

    def count_moves(self) -> int:
        if self.winners is not None or self.in_setup or self.powers is not None:
            return len(self.legal_moves())
        return sum(1 if builds < 0 else builds.bit_count() for _, _, builds in self._turns())

    def perft(self, depth: int) -> int:
        if self.powers is not None and depth >= 1 and not self.in_setup and self.winners is None:
            return int(_PLAY.perft(_PLAY.spot_of(self), depth))  # on the walk's packed outcomes
        if _CORE is None or depth < 1 or self.powers is not None:
            return super().perft(depth)
        return int(_CORE.perft(self, depth))  # the compiled module when it is built

    def random_move(self, rng: random.Random) -> SantoriniMove:
        """A uniformly random legal move.

        Draws worker, move direction and build direction at random and keeps the first legal
        draw (a winning move owns one build direction of eight), which is uniform over the legal
        turns; after a few misses it counts the turns and picks one, which is uniform too.
        """
        if self.winners is not None or self.powers is not None:
            return super().random_move(rng)
        if self.workers[2 * (self.turn % self.colours)] == -1:  # setup
            first, second = rng.sample(self._placeable(), 2)
            return Placement(min(first, second), max(first, second))
        move = self._draw(rng)
        return move if move is not None else self._pick_counted(rng)

    def _draw(self, rng: random.Random) -> Turn | None:
        """Up to ``_TRIALS`` draws of 7 random bits (worker, move and build direction)."""
        colour = self.turn % (2 if self.players == 4 else self.players)
        levels = self.levels
        occupied = occupied_mask(self.workers)
        buildable = self._buildable() & ~levels[3]
        sources = self.workers[2 * colour : 2 * colour + 2]
        rising, reachable, free = [], [], []
        for source in sources:
            targets = move_targets(levels, occupied, source) if source >= 0 else 0
            reachable.append(targets)
            rising.append(winning_steps(levels, source, targets) if targets else 0)
            free.append(buildable & ~(occupied & ~(1 << source)) if source >= 0 else 0)
        for _ in range(_TRIALS):
            bits = rng.getrandbits(7)
            worker = bits & 1
            source = sources[worker]
            target = STEPS[source][bits >> 1 & 7] if source >= 0 else -1
            if target < 0 or not reachable[worker] >> target & 1:
                continue
            if rising[worker] >> target & 1:
                if bits >> 4 == 0:
                    return Turn(source, target, None)
                continue
            build = STEPS[target][bits >> 4]
            if build >= 0 and free[worker] >> build & 1:
                return Turn(source, target, build)
        return None

    def _pick_counted(self, rng: random.Random) -> Turn:
        turns = self._turns()
        weights = [1 if builds < 0 else builds.bit_count() for _, _, builds in turns]
        pick = rng.randrange(sum(weights))
        for (source, target, builds), weight in zip(turns, weights):
            if pick < weight:
                if builds < 0:
                    return Turn(source, target, None)
                for _ in range(pick):
                    builds &= builds - 1
                return Turn(source, target, (builds & -builds).bit_length() - 1)
            pick -= weight
        raise AssertionError("unreachable: the pick lies within the total weight")

    def _has_turn(self) -> bool:
        if self.in_setup:
            return bool(self._placements())
        if self.powers is not None:
            return generator.has_turn(self)
        if self.supply is None:  # after any move the worker can build where it stood
            occupied = occupied_mask(self.workers)
            for source in self.my_workers():
                if source >= 0 and move_targets(self.levels, occupied, source):
                    return True
            return False
        return any(builds for _, _, builds in self._turns())

    def is_legal(self, move: Any) -> bool:
        if self.winners is not None:
            return False
        if self.in_setup:
            return isinstance(move, Placement) and move in self.legal_moves()
        if self.powers is not None:
            return isinstance(move, (Turn, GodTurn)) and _hashable(move) and move in generator.table(self)
        if not (isinstance(move, Turn) and _is_turn(move)):
            return False
        source, target, build = move
        if source not in self.my_workers():
            return False
        occupied = occupied_mask(self.workers)
        if not can_step(self.levels, occupied, source, target):
            return False
        if is_winning_move(height(self.levels, source), height(self.levels, target)):
            return build is None
        if not _is_cell(build):
            return False
        after = occupied ^ (1 << source) | 1 << target
        builds = build_targets(self.levels, after, target) & self._buildable()
        return bool(builds >> build & 1)

    def why_illegal(self, move: Any) -> str:
        if self.winners is not None:
            return "the game is over"
        if self.in_setup:
            if not (isinstance(move, Placement) and all(_is_cell(c) for c in move)):
                return "the workers are being placed: give two empty squares, like c3d4"
            if any(height(self.levels, c) >= 3 for c in move):
                return "workers cannot be placed on a dome or a level-3 tower"
            if not generator.base_god(self, self.turn).placeable(*move):
                return "Eros places the workers on opposite edges of the board"
            return "both squares must be empty and different, the first one first"
        if self.powers is not None:
            if not (isinstance(move, (Turn, GodTurn)) and _hashable(move)):
                return "give a turn as its actions, like c3d4+e4 (see the notation)"
            return generator.why_illegal(self, move)
        if not (isinstance(move, Turn) and _is_turn(move)):
            return "give a turn as worker square, move square, build square, like c3d4e4"
        if move.source not in self.my_workers():
            return f"no worker of the player to move stands on {square_text(move.source)}"
        if not can_step(self.levels, occupied_mask(self.workers), move.source, move.target):
            return f"the worker on {square_text(move.source)} cannot move to {square_text(move.target)}"
        if move.build is None:
            return "after a move that does not win, the worker must build"
        build, target = square_text(move.build), square_text(move.target)
        return f"the worker cannot build on {build} after moving to {target}"

    def apply_unchecked(self, move: Any) -> SantoriniState:
        players, turn = self.players, self.turn
        if isinstance(move, Placement):
            workers = list(self.workers)
            colour = turn % self.colours
            workers[2 * colour], workers[2 * colour + 1] = move.first, move.second
            unplaced = [s for s in self._setup_order() if workers[2 * s] == -1]
            following = unplaced[0] if unplaced else 0
            state = self._make(
                players, self.levels, tuple(workers), following, self.supply, self.out, None, self.powers
            )
            return state._settle(False)
        if self.powers is not None:
            return self._after(generator.result(self, move))
        source, target, build = move
        index = self.workers.index(source)
        moved = self.workers[:index] + (target,) + self.workers[index + 1 :]
        if build is None:
            return self._make(players, self.levels, moved, turn, self.supply, self.out, self.team(turn))
        supply = self.supply
        if supply is not None:
            level = height(self.levels, build)
            supply = supply[:level] + (supply[level] - 1,) + supply[level + 1 :]  # type: ignore[assignment]
        following = (turn + 1) % players
        if self.out:
            following = self._next_seat(turn)
        levels = raise_tower(self.levels, build)
        state = self._make(players, levels, moved, following, supply, self.out, None)
        return state if state._has_turn() else state._settle(False)

    def _after(self, result: Result) -> SantoriniState:
        """The position after a god turn that led to ``result``."""
        powers = Powers(self.powers.gods, result.memos, result.up) if self.powers is not None else None
        board = result.board
        if result.winners is not None:
            return self._make(
                self.players,
                board.levels,
                board.workers,
                self.turn,
                board.supply,
                self.out,
                result.winners,
                powers,
            )
        state = self._make(
            self.players, board.levels, board.workers, self.turn, board.supply, self.out, None, powers
        )
        return state._with_turn(state._next_seat(self.turn))._settle(False)

    def _settle(self, check_climbed: bool) -> SantoriniState:
        """End the game, or remove players who cannot move (three players), as the rules say."""
        state = self
        if check_climbed and self.powers is None:  # a loaded position: a worker on level 3 has won
            for index, cell in enumerate(state.workers):
                if cell >= 0 and height(state.levels, cell) == WIN_LEVEL:
                    return state._with_winners(state.team(index // 2))
        while not state._has_turn():
            if state.players != 3:
                loser = state.team(state.turn)
                return state._with_winners(frozenset(range(state.players)) - loser)
            state = state._eliminate(state.turn)
            remaining = [s for s in range(3) if not state.out >> s & 1]
            if len(remaining) == 1:
                return state._with_winners(frozenset(remaining))
            state = state._with_turn(state._next_seat(state.turn))
        return state

    def _next_seat(self, seat: int) -> int:
        for offset in range(1, self.players + 1):
            following = (seat + offset) % self.players
            if not self.out >> following & 1:
                return following
        return seat

    def _with_turn(self, turn: int) -> SantoriniState:
        return self._make(
            self.players, self.levels, self.workers, turn, self.supply, self.out, None, self.powers
        )

    def _with_winners(self, winners: frozenset[int]) -> SantoriniState:
        return self._make(
            self.players, self.levels, self.workers, self.turn, self.supply, self.out, winners, self.powers
        )

    def _eliminate(self, seat: int) -> SantoriniState:
        workers = list(self.workers)
        colour = self.colour_of(seat)
        workers[2 * colour] = workers[2 * colour + 1] = -1
        return self._make(
            self.players,
            self.levels,
            tuple(workers),
            self.turn,
            self.supply,
            self.out | 1 << seat,
            None,
            self.powers,
        )

    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        if self.powers is not None:
            return Outcome(self.winners, generator.end_reason(self, self.winners), self.players)
        climbed = any(c >= 0 and height(self.levels, c) == WIN_LEVEL for c in self.workers)
        return Outcome(self.winners, generator.CLIMBED if climbed else generator.NO_TURN, self.players)

    def is_over(self) -> bool:
        return self.winners is not None

    # -- text -----------------------------------------------------------------------------------
    def height_at(self, square: tuple[int, int]) -> int:
        """The tower height on ``square`` (row, column): 0-3, 4 for a dome."""
        return height(self.levels, square[0] * SIZE + square[1])

    def __str__(self) -> str:
        return "\n".join(board_rows(self.levels, self.workers))

    def to_str(self) -> str:
        """E.g. ``00000/01000/00200/00010/00000 workers=c3d4,b2e5 turn=1 players=2``."""
        rows = ["".join(_tower_char(self.levels, r * SIZE + c) for c in range(SIZE)) for r in range(SIZE)]
        groups = []
        for colour in range(self.colours):
            first, second = self.workers[2 * colour], self.workers[2 * colour + 1]
            groups.append("-" if first == -1 else _worker_text(first) + _worker_text(second))
        fields = ["/".join(rows), "workers=" + ",".join(groups), f"turn={self.turn + 1}"]
        fields.append(f"players={self.players}")
        if self.supply is not None:
            fields.append("supply=" + ",".join(map(str, self.supply)))
        if self.out:
            fields.append("out=" + ",".join(str(s + 1) for s in range(self.players) if self.out >> s & 1))
        if self.powers is not None:
            fields.extend(_powers_fields(self.powers, self.winners))
        return " ".join(fields)

    @classmethod
    def from_str(cls, text: str) -> SantoriniState:
        fields, named = split_fields(text, "Santorini")
        try:
            return _parse_position(fields, named)
        except (ValueError, IndexError, KeyError) as error:
            raise NotationError(f"{text!r} is not a Santorini position: {error}") from None

    def move_from_str(self, text: str) -> SantoriniMove:
        """The move ``text`` names; with gods, a turn written another way than ``legal_moves()``
        lists it (Triton's b2b1+b1b2+b1 for b2a1+a1b2+b1) reads as the listed turn."""
        text = check_text(text, MAX_MOVE_TEXT, "a move")
        if self.in_setup:
            return Placement.from_str(text)
        if any(mark in text for mark in "+*") or text.strip().startswith("-"):
            move: Turn | GodTurn = turn_of(parse_actions(text))
        elif self.powers is not None and len(squares_in(text)) == 1:
            move = turn_of(parse_actions(text))
        else:
            move = Turn.from_str(text)
        return move if self.powers is None or self.winners is not None else generator.canonical(self, move)


def _parse_position(fields: list[str], named: dict[str, str]) -> SantoriniState:
    rows = fields[0].split("/")
    if len(fields) != 1 or len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("the board must be 5 rows of 5 digits joined by '/'")
    levels: Levels = (0, 0, 0, 0)
    for cell, char in enumerate("".join(rows)):
        if char not in "01234567":
            raise ValueError(f"tower heights are 0-4 (5-7: a dome on 0-2 blocks), not {char!r}")
        for _ in range(int(char) - 5 if char > "4" else int(char)):
            levels = raise_tower(levels, cell)
        if char > "4":
            levels = (*levels[:3], levels[3] | 1 << cell)
    players = check_int(int(named.pop("players", "2")), "players", 2, 4)
    colours = 2 if players == 4 else players
    groups = named.pop("workers").split(",")
    if len(groups) != colours:
        raise ValueError(f"{players} players need {colours} groups of workers")
    workers: list[int] = []
    for group in groups:
        squares = [] if group == "-" else _worker_cells(group)
        if len(squares) not in (0, 2):
            raise ValueError(f"a group of workers is two squares or '-', not {group!r}")
        workers.extend(squares or [-1, -1])
    placed = [c for c in workers if c >= 0]
    if len(set(placed)) != len(placed) or any(height(levels, c) == DOME for c in placed):
        raise ValueError("workers must stand on different squares without a dome")
    turn = check_int(int(named.pop("turn", "1")), "turn", 1, players) - 1
    supply = None
    if "supply" in named:
        numbers = tuple(int(v) for v in named.pop("supply").split(","))
        if len(numbers) != 4 or min(numbers) < 0:
            raise ValueError("supply is four counts: level 1, level 2, level 3, domes")
        supply = (numbers[0], numbers[1], numbers[2], numbers[3])
    out = _parse_out(named.pop("out"), players, workers) if "out" in named else 0
    powers, won = _parse_powers(named, players)
    if named:
        raise ValueError(f"unknown field {next(iter(named))}")
    if powers is None and REMOVED in workers:
        raise ValueError("workers are removed from the game (x) by god powers only")
    if powers is None and levels[3] & ~levels[2]:
        raise ValueError("a dome below level 3 (5-7) is built by god powers only")
    state = SantoriniState._make(players, levels, tuple(workers), turn, supply, out, None, powers)
    if won:
        return state._with_winners(won)
    remaining = frozenset(s for s in range(players) if not out >> s & 1)
    if len(remaining) == 1:  # the others were knocked out: the last one standing has won
        return state._with_winners(remaining)
    if out >> turn & 1:
        raise ValueError(f"seat {turn + 1} is out and cannot be the one to move")
    return state._settle(True)


def _parse_out(text: str, players: int, workers: list[int]) -> int:
    """The mask of the seats knocked out (three players only; their workers are off the board)."""
    if players != 3:
        raise ValueError("only a three-player game knocks seats out")
    out = 0
    for field in text.split(","):
        seat = check_int(int(field), "an out seat", 1, players) - 1
        if workers[2 * seat] >= 0:
            raise ValueError(f"seat {seat + 1} is out, so its workers are off the board ('-')")
        out |= 1 << seat
    if out == 0b111:
        raise ValueError("at most two of three seats can be out")
    return out


def _tower_char(levels: Levels, cell: int) -> str:
    """0-4 for a tower's height; 5, 6, 7 for a dome on 0, 1, 2 blocks (Atlas, Selene)."""
    g1, g2, g3, dome = levels
    if dome >> cell & 1 and not g3 >> cell & 1:
        return str(5 + (g1 >> cell & 1) + (g2 >> cell & 1))
    return str(height(levels, cell))


def _worker_text(cell: int) -> str:
    return "x" if cell == REMOVED else square_text(cell)


def _worker_cells(group: str) -> list[int]:
    """``c3d4`` or ``c3x``: the cells of a colour's workers, ``x`` for one removed from the game."""
    cells: list[int] = []
    rest = group
    while rest:
        if rest[0] == "x":
            cells.append(REMOVED)
            rest = rest[1:]
            continue
        letters = len(rest) - len(rest.lstrip("abcdefghijklmnopqrstuvwyz"))
        digits = len(rest[letters:]) - len(rest[letters:].lstrip("0123456789"))
        if not letters or not digits:
            raise ValueError(f"{group!r} is not a group of workers")
        cells.append(cell_named(rest[: letters + digits]))
        rest = rest[letters + digits :]
    return cells


def _powers_fields(powers: Powers, winners: frozenset[int] | None) -> list[str]:
    """``gods=morpheus:2,pan``, then ``up=`` (Athena) and ``won=`` (a finished game)."""
    gods = [(name or "-") + (":" + memo if memo else "") for name, memo in zip(powers.gods, powers.memos)]
    fields = ["gods=" + ",".join(gods)]
    if powers.up:
        fields.append("up=" + _seat_list(powers.up))
    if winners is not None:
        fields.append("won=" + _seat_list(sum(1 << s for s in winners)))
    return fields


def _seat_list(mask: int) -> str:
    return ",".join(str(seat + 1) for seat in range(4) if mask >> seat & 1)


def _parse_powers(named: dict[str, str], players: int) -> tuple[Powers | None, frozenset[int] | None]:
    if "gods" not in named:
        return None, None
    entries = named.pop("gods").split(",")
    if len(entries) != players:
        raise ValueError(f"{players} players need {players} gods ('-' for none)")
    names, memos = [], []
    for entry in entries:
        name, _, memo = entry.partition(":")
        if name != "-" and name not in GODS:
            raise ValueError(f"unknown god {name!r}")
        names.append("" if name == "-" else name)
        memos.append(memo)
    up = _parse_seats(named.pop("up", ""), players)
    won = _parse_seats(named.pop("won"), players) if "won" in named else None
    powers = Powers(tuple(names), tuple(memos), up)
    check_memos(powers)
    return powers, None if won is None else frozenset(s for s in range(players) if won >> s & 1)


def _parse_seats(text: str, players: int) -> int:
    mask = 0
    for field in filter(None, text.split(",")):
        mask |= 1 << (check_int(int(field), "a seat", 1, players) - 1)
    return mask


def deal_gods(gods: str | Sequence[str], players: int, seed: int | None) -> Powers | None:
    """The powers of a new game: ``gods`` names one god per seat (or ``random``: one not named), or
    is ``random`` or ``simple``."""
    names = god_names(gods) if isinstance(gods, str) else [name.strip().lower() for name in gods]
    if names in ([], [""]):
        return None
    rng = random.Random(seed)
    if names in (["random"], ["simple"]):
        pool = sorted(SIMPLE_GODS if names == ["simple"] else GODS)
        names = rng.sample(pool, players)
    if len(names) != players:
        raise BordspelError(f"give one god per seat ({players}), '-' for none, or random or simple")
    names = _drawn(names, rng)
    for name in names:
        if name != "-" and name not in GODS:
            raise BordspelError(f"unknown god {name!r}: choose from {', '.join(GODS)}")
    chosen = tuple("" if name == "-" else name for name in names)
    if len({n for n in chosen if n}) != len([n for n in chosen if n]):
        raise BordspelError("each god can be played by one seat only")
    taken = frozenset(chosen)
    memos = tuple(GODS[name].initial_memo(taken, rng) if name else "" for name in chosen)
    return Powers(chosen, memos, 0)


def _drawn(names: list[str], rng: random.Random) -> list[str]:
    """``names`` with each ``random`` seat's god drawn from the gods nobody named."""
    free = sorted(set(GODS) - set(names))
    return [free.pop(rng.randrange(len(free))) if name == "random" else name for name in names]


def check_memos(powers: Powers) -> None:
    """ValueError unless each memo is one its god can hold."""
    for name, memo in zip(powers.gods, powers.memos):
        pattern = GODS[name].memo_pattern if name else ""
        if not re.fullmatch(pattern, memo):
            raise ValueError(f"{memo!r} is not what {name or 'a seat without a god'} keeps")
        if name == "chaos" and not all(card in SIMPLE_GODS for card in memo.split("/")[:-1]):
            raise ValueError(f"Chaos's deck holds simple gods only, not {memo!r}")


def _hashable(move: Any) -> bool:
    """Whether ``move`` can be looked up (no lists or other unhashable parts)."""
    try:
        hash(move)
    except TypeError:
        return False
    return True


def _alike_in_order(workers: tuple[int, ...], powers: Powers | None) -> tuple[int, ...]:
    """``workers`` with each colour's two in square order, or as they are when a power in play
    tells a colour's workers apart (Selene's female worker)."""
    if powers is not None and _tell_apart(powers.gods):
        return workers
    cells = None
    for i in range(0, len(workers), 2):
        if workers[i] > workers[i + 1]:
            cells = cells or list(workers)
            cells[i], cells[i + 1] = workers[i + 1], workers[i]
    return workers if cells is None else tuple(cells)


@functools.cache
def _tell_apart(gods: tuple[str, ...]) -> bool:
    """Whether a power among ``gods`` tells a colour's workers apart."""
    return any(GODS[name].tells_workers_apart for name in gods if name)


@functools.lru_cache(maxsize=64)
def _turn_to(state: SantoriniState) -> dict[SantoriniState, SantoriniMove]:
    """The legal turns of a position with gods by the position each leads to."""
    return {state.apply_unchecked(move): move for move in state.legal_moves()}
