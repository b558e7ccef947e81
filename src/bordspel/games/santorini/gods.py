# cython: boundscheck=True, wraparound=True, annotation_typing=False
"""Santorini god powers: the turn generator and the thirty gods of the base game.

A :class:`Walk` plays out every turn of the player to move on one mutable board: each choice
of the turn (a worker, a step, a build, a power's extra action) is made on the board, the rest
of the turn is played from there, and the choice is taken back. What comes after a choice is a
stack of stages (the move, the builds, the end of the turn), so that a power can add its own
stage between two others. A finished turn is written out as a :class:`Line` (its actions and
the board after them).

:class:`God` is the turn's shape through hooks: ``before_move``, ``moves``, ``step_targets``,
``wins_by_move``, ``builds`` and ``end_of_turn`` for the player's own power, and
``forbids_climb``, ``frozen``, ``charm``, ``unbuildable``, ``forces_climb`` and ``blocked_wins``
for the powers of its opponents. The base class is the game without a power; each god
overrides what its card changes. Powers that outlive a turn keep a short text, the *memo*
(Morpheus's pieces, Chaos's deck, whom Circe took a power from).

The module is plain Python, the reference; ``pip install .`` also compiles it with Cython
(``gods.pxd`` gives the C types), so the same statement of each power runs as C.

Where a card's text is ambiguous the official FAQ's reading is taken; the comments say so.
"""

from __future__ import annotations

import functools
import random
from typing import ClassVar, NamedTuple

from bordspel.games.santorini.board import CELLS, MAX_CLIMB, NEIGHBOURS, SIZE, STEPS, Levels
from bordspel.games.santorini.turns import REMOVED, Action, Board

__all__ = [
    "GODS",
    "GOD_TEXT",
    "GOD_TEXTS",
    "GOD_TEXT_NL",
    "MORTAL",
    "SIMPLE_GODS",
    "God",
    "Line",
    "Record",
    "TurnFound",
    "Walk",
    "complete_towers",
]

PERIMETER = 0b11111_10001_10001_10001_11111
"""The squares on the edge of the board, as a mask of cells (bit ``row * 5 + col``)."""
FULL = (1 << CELLS) - 1
KINDS = ("move", "build", "dome", "remove")
MOVE, BUILD, DOME, REMOVE = 0, 1, 2, 3
"""Action kinds as numbers: an action is ``kind << 12 | (source + 1) << 6 | target``."""
SLOT = 5
"""Bits of a worker's cell in the packed workers (the cell plus 2: removed -2, unplaced -1)."""
# The stages of a turn, run from the top of the walk's stack (gods number theirs from 10).
MOVES, AFTER_MOVE, BUILDS, END, EMIT = 1, 2, 3, 4, 5


def complete_towers(board: Board) -> int:
    """The number of towers of three blocks and a dome."""
    return (board.levels[2] & board.levels[3]).bit_count()


ACTIONS = {
    kind << 12 | (source + 1) << 6 | target: Action(KINDS[kind], source, target)
    for kind in range(4)
    for source in range(-1, CELLS)
    for target in range(CELLS)
}
"""Each action number's :class:`Action`."""


@functools.lru_cache(maxsize=4096)
def cells_of(workers: int, count: int) -> tuple[int, ...]:
    """The cells of ``count`` packed workers."""
    return tuple((workers >> SLOT * i & 31) - 2 for i in range(count))


def board_of(levels: Levels, workers: int, supply: int, count: int, limited: bool) -> Board:
    """The :class:`Board` of packed levels, ``count`` packed workers and the supply (None unless
    ``limited``)."""
    pieces = (supply & 255, supply >> 8 & 255, supply >> 16 & 255, supply >> 24 & 255)
    return Board(levels, cells_of(workers, count), pieces if limited else None)


BIT_INDEX = tuple({(1 << i) % 37: i for i in range(CELLS)}.get(r, -1) for r in range(37))
"""``BIT_INDEX[(1 << i) % 37]`` is ``i`` (powers of two differ modulo 37 up to ``2**35``)."""


def lowest(mask: int) -> int:
    """The lowest set bit's index (``mask`` a mask of cells, not 0)."""
    return BIT_INDEX[(mask & -mask) % 37]


class Line(NamedTuple):
    """A turn: its actions and the board after them."""

    actions: tuple[Action, ...]
    board: Board
    moved_up: bool = False
    won: bool = False


class TurnFound(Exception):
    """A turn was found where one is enough (:meth:`Walk.any`)."""


Start = tuple[tuple[int, ...], int, int, bool]
"""Where Triton's next step starts: the actions so far, the packed workers, the occupied cells
and whether the worker moved up."""
Record = tuple[tuple[int, ...], int, int, int, int, int, int, bool, bool]
"""A turn as the walk writes it: its action numbers, the board after it (the four levels, the
packed workers and supply), whether the worker moved up and whether the turn won."""


class Walk:
    """The turn generator: the board along the turn being built, the powers at play, and the
    stages still to run. ``owner`` is the power the player to move plays, ``rivals`` the
    opponents' powers with the colour of their workers, ``seats`` their seats."""

    def __init__(
        self,
        board: Board,
        colour: int,
        players: int,
        owner: God,
        rivals: tuple[tuple[God, int], ...],
        seats: tuple[int, ...],
        memo: str,
        up: int,
    ) -> None:
        self.g1, self.g2, self.g3, self.dome = board.levels
        self.count = len(board.workers)
        self.workers = 0
        for index, cell in enumerate(board.workers):
            self.workers |= (cell + 2) << SLOT * index
        self.occupied = 0
        for cell in board.workers:
            if cell >= 0:
                self.occupied |= 1 << cell
        self.limited = board.supply is not None
        self.supply = 0
        for level, pieces in enumerate(board.supply or ()):
            self.supply |= pieces << 8 * level
        self.colour, self.players, self.owner, self.memo = colour, players, owner, memo
        self.rivals = rivals
        self.start_workers = self.workers
        self.no_climb = any(god.forbids_climb(up >> seat & 1) for (god, _), seat in zip(rivals, seats))
        self.no_win = 0
        for god, _ in rivals:
            self.no_win |= god.blocked_wins()
        # the powers that override these hooks (looked up by name: compiled, a method is no object)
        self.restricting = [(g, c) for g, c in rivals if "unbuildable" in type(g).__dict__]
        self.charming = [(g, c) for g, c in rivals if "charm" in type(g).__dict__]
        self.actions: list[int] = []
        self.stage_gods: list[God] = []
        self.stages: list[int] = []
        self.worker = self.start = -1
        self.moved_up = self.won = self.no_up = self.extra = self.first_only = False
        self.charmed: list[int] = []
        self.returns: list[tuple[int, int, bool]] = []
        """Dionysus: the player's own worker, its start and climb, during an extra turn."""
        self.tritons: list[tuple[set[tuple[int, int, bool, bool]], list[Start], int]] = []
        """Triton: the outcomes seen, the next steps' starts and the first step's index."""
        self.lines: list[Record] = []

    # -- running the turn -----------------------------------------------------------------------
    def all(self) -> list[Line]:
        """Every turn of the player to move, in the generator's order."""
        self.owner.turn(self)
        return [self.line(found) for found in self.lines]

    def any(self) -> bool:
        """Whether the player to move has a turn (stops at the first one)."""
        self.first_only = True
        try:
            self.owner.turn(self)
        except TurnFound:
            return True
        return False

    def push(self, god: God, stage: int) -> None:
        """Run ``god``'s ``stage`` after what is about to be chosen (before what was pushed earlier)."""
        self.stage_gods.append(god)
        self.stages.append(stage)

    def pop(self) -> None:
        """Take back the stage pushed last."""
        self.stage_gods.pop()
        self.stages.pop()

    def proceed(self) -> None:
        """Play the rest of the turn from here: the stage on top of the stack, which runs the others."""
        god, stage = self.stage_gods.pop(), self.stages.pop()
        god.resume(self, stage)
        self.stage_gods.append(god)
        self.stages.append(stage)

    def emit(self) -> None:
        """The turn is finished: write it out."""
        if self.first_only:
            raise TurnFound
        g1, g2, g3, dome = self.g1, self.g2, self.g3, self.dome
        found = (tuple(self.actions), g1, g2, g3, dome, self.workers, self.supply, self.moved_up, self.won)
        self.lines.append(found)

    def line(self, found: Record) -> Line:
        """The :class:`Line` of a turn the walk wrote."""
        codes, g1, g2, g3, dome, workers, supply, moved_up, won = found
        board = self.board(g1, g2, g3, dome, workers, supply)
        return Line(tuple([ACTIONS[code] for code in codes]), board, moved_up, won)

    def board(self, g1: int, g2: int, g3: int, dome: int, workers: int, supply: int) -> Board:
        """The :class:`Board` of packed levels, workers and supply."""
        return board_of((g1, g2, g3, dome), workers, supply, self.count, self.limited)

    def run_worker(self, worker: int) -> None:
        """Every turn that moves ``worker``: the owner's turn shape from its first stage."""
        owner = self.owner
        self.worker, self.start = worker, self.cell(worker)
        self.push(self.owner, EMIT)
        self.push(owner, END)
        self.push(owner, BUILDS)
        self.push(owner, AFTER_MOVE)
        self.push(owner, MOVES)
        owner.before_move(self)
        for _ in range(5):
            self.pop()

    def after_move(self) -> None:
        """A move is made: kept if it honours Aphrodite's charm; a winning move ends the turn."""
        if self.charmed and not self.charm_kept():
            return
        if self.won:
            self.emit()
        else:
            self.proceed()

    # -- the board ------------------------------------------------------------------------------
    def cell(self, worker: int) -> int:
        """The cell of worker ``worker`` (-1 unplaced, -2 removed)."""
        return (self.workers >> SLOT * worker & 31) - 2

    def start_cell(self, worker: int) -> int:
        """The cell of worker ``worker`` at the start of the turn."""
        return (self.start_workers >> SLOT * worker & 31) - 2

    def put(self, worker: int, cell: int) -> None:
        """Worker ``worker`` goes to ``cell`` (its old cell is left empty)."""
        old = self.cell(worker)
        if old >= 0:
            self.occupied &= ~(1 << old)
        if cell >= 0:
            self.occupied |= 1 << cell
        shift = SLOT * worker
        self.workers = self.workers & ~(31 << shift) | (cell + 2) << shift

    def worker_on(self, cell: int) -> int:
        """The worker on ``cell``, -1 when there is none."""
        if cell < 0 or not self.occupied >> cell & 1:
            return -1
        for worker in range(self.count):
            if self.cell(worker) == cell:
                return worker
        return -1

    def mine(self) -> list[int]:
        """The mover's workers on the board."""
        first = 2 * self.colour
        return [i for i in (first, first + 1) if self.cell(i) >= 0]

    def is_rival(self, worker: int) -> bool:
        """Whether ``worker`` is an opponent's (False for -1, no worker)."""
        return worker >= 0 and worker // 2 != self.colour

    def height(self, cell: int) -> int:
        """The tower on ``cell``: 0-3 blocks, 4 for a dome."""
        if self.dome >> cell & 1:
            return 4
        return (self.g1 >> cell & 1) + (self.g2 >> cell & 1) + (self.g3 >> cell & 1)

    def free(self) -> int:
        """Cells without a worker or a dome."""
        return FULL & ~self.occupied & ~self.dome

    def exact(self, level: int) -> int:
        """Cells whose tower has exactly ``level`` blocks (0-3, no dome)."""
        if level == 0:
            return FULL & ~self.g1 & ~self.dome
        if level == 1:
            return self.g1 & ~self.g2 & ~self.dome
        if level == 2:
            return self.g2 & ~self.g3 & ~self.dome
        return self.g3 & ~self.dome

    def too_high(self, limit: int) -> int:
        """Cells above level ``limit`` (domes included)."""
        if limit <= 0:
            return self.g1 | self.dome
        if limit == 1:
            return self.g2 | self.dome
        if limit == 2:
            return self.g3 | self.dome
        return self.dome

    def targets(self, cell: int, no_up: bool) -> int:
        """Empty neighbours of ``cell`` a worker there may step onto (none up when ``no_up``)."""
        return NEIGHBOURS[cell] & self.free() & ~self.too_high(self.height(cell) + self.climb(no_up))

    def climb(self, no_up: bool) -> int:
        """How many levels a worker may step up: none when a power forbids it."""
        return 0 if no_up or self.no_climb else MAX_CLIMB

    def has_piece(self, cell: int, dome: bool) -> bool:
        """Whether the supply has the piece a build (or a dome) on ``cell`` takes."""
        if not self.limited:
            return True
        return self.supply >> 8 * (3 if dome else self.height(cell)) & 255 > 0

    def place(self, cell: int, dome: bool) -> None:
        """The next piece (or a dome) goes on ``cell``."""
        bit = 1 << cell
        level = 3 if dome else self.height(cell)
        if self.limited:
            self.supply -= 1 << 8 * level
        if level == 0:
            self.g1 |= bit
        elif level == 1:
            self.g2 |= bit
        elif level == 2:
            self.g3 |= bit
        else:
            self.dome |= bit

    def lift(self, cell: int) -> None:
        """The top block of ``cell`` (not a dome) goes back to the supply."""
        level = self.height(cell) - 1
        bit = ~(1 << cell)
        if self.limited:
            self.supply += 1 << 8 * level
        if level == 0:
            self.g1 &= bit
        elif level == 1:
            self.g2 &= bit
        else:
            self.g3 &= bit

    # -- the choices of a turn: each made, the rest played, then taken back --------------------------
    def act(self, kind: int, source: int, target: int) -> None:
        """Write down an action, play the rest of the turn, and take the action back."""
        self.actions.append(kind << 12 | (source + 1) << 6 | target)
        self.proceed()
        self.actions.pop()

    def build(self, cell: int, dome: bool) -> None:
        """Build on ``cell`` (a dome with ``dome``), then the rest of the turn."""
        g1, g2, g3, top, supply = self.g1, self.g2, self.g3, self.dome, self.supply
        self.place(cell, dome)
        self.act(DOME if dome else BUILD, -1, cell)
        self.g1, self.g2, self.g3, self.dome, self.supply = g1, g2, g3, top, supply

    def builds_on(self, cells: int, domes: bool = False, only_domes: bool = False) -> None:
        """Each build on ``cells`` (not on workers or domes; with ``domes`` also a dome below level
        3; with ``only_domes`` no block but the one that domes a level-3 tower), lowest square
        first, then the rest of the turn."""
        cells &= self.free()
        while cells:
            cell = lowest(cells)
            cells &= cells - 1
            level = self.height(cell)
            if not self.may_build(cell, level):
                continue
            if self.has_piece(cell, False) and (not only_domes or level == 3):
                self.build(cell, False)
            if domes and level < 3 and self.has_piece(cell, True):
                self.build(cell, True)

    def may_build(self, cell: int, level: int) -> bool:
        """Whether the opponents' powers allow a piece on ``cell`` at ``level`` (Limus; a dome on
        level 3 is allowed)."""
        if level == 3:
            return True
        for god, colour in self.restricting:  # noqa: SIM110 (a loop: compiled code takes no closures)
            if god.unbuildable(self, colour) >> cell & 1:
                return False
        return True

    def ascending(self, cells: int, count: int, above: int) -> None:
        """The rest of the turn after 0 to ``count`` builds on ``cells`` (squares from ``above``
        up, in rising order: such builds commute)."""
        self.proceed()
        if count == 0:
            return
        options = cells & self.free() & ~((1 << above) - 1)
        while options:
            cell = lowest(options)
            options &= options - 1
            if self.may_build(cell, self.height(cell)) and self.has_piece(cell, False):
                g1, g2, g3, top, supply = self.g1, self.g2, self.g3, self.dome, self.supply
                self.place(cell, False)
                self.actions.append(BUILD << 12 | cell)
                self.ascending(cells, count - 1, cell)
                self.actions.pop()
                self.g1, self.g2, self.g3, self.dome, self.supply = g1, g2, g3, top, supply

    def stepped(self, source: int, target: int, before: int) -> None:
        """The worker has stepped from ``source`` (at height ``before``) to ``target``, and the
        board shows the step: note the climb and the win, then the rest of the turn."""
        moved_up, won = self.moved_up, self.won
        after = self.height(target)
        self.moved_up = moved_up or after > before
        self.won = self.wins(source, target, before, after)
        self.act(MOVE, source, target)
        self.moved_up, self.won = moved_up, won

    def wins(self, source: int, target: int, before: int, after: int) -> bool:
        """Whether the mover's own move from ``source`` to ``target`` wins."""
        if self.extra or self.no_win >> target & 1:
            return False
        return before < 3 == after or self.owner.wins_by_move(self, source, target, before, after)

    def steps(self, god: God) -> None:
        """Each step of the moving worker by ``god``'s rules, then the rest of the turn."""
        god.step_targets(self, self.worker, self.no_up)

    # -- the opponents' powers --------------------------------------------------------------------
    def frozen(self) -> int:
        """The mover's workers that cannot move this turn, as worker bits (Hypnus)."""
        mask = 0
        for god, _ in self.rivals:
            mask |= god.frozen(self, self.colour)
        return mask

    def charmers(self) -> int:
        """Cells of the workers whose neighbours' last move must end next to them (Aphrodite)."""
        mask = 0
        for god, colour in self.charming:
            mask |= god.charm(self, colour)
        return mask

    def note_charmed(self) -> None:
        """The mover's workers that start next to a charming worker (Aphrodite)."""
        charmers = self.charmers()
        self.charmed = [i for i in self.mine() if NEIGHBOURS[self.cell(i)] & charmers] if charmers else []

    def charm_kept(self) -> bool:
        """Aphrodite: each charmed worker that moved ends next to one of her workers."""
        charmers = self.charmers()
        for worker in self.charmed:
            cell = self.cell(worker)
            if cell != self.start_cell(worker) and cell >= 0 and not NEIGHBOURS[cell] & charmers:
                return False
        return True

    def same_level_reach(self, source: int) -> int:
        """Cells reachable from ``source`` by steps onto empty cells of the same height, as a mask
        (``source`` included)."""
        same = self.exact(self.height(source)) & ~self.occupied
        reach = frontier = 1 << source
        while frontier:
            grown = 0
            while frontier:
                grown |= NEIGHBOURS[lowest(frontier)]
                frontier &= frontier - 1
            frontier = grown & same & ~reach
            reach |= frontier
        return reach


# -- the base game ------------------------------------------------------------------------------
class God:
    """No power: the base game's turn. Subclasses override what their card changes."""

    name: ClassVar[str] = "mortal"
    text: ClassVar[str] = "No god power: move one worker, then build next to it."
    simple: ClassVar[bool] = True

    def turn(self, walk: Walk) -> None:
        """Every turn of the player to move: each worker that may move, through the stages."""
        frozen = walk.frozen()
        walk.note_charmed()
        for worker in walk.mine():
            if not frozen >> worker & 1:
                walk.run_worker(worker)

    def resume(self, walk: Walk, stage: int) -> None:
        """Run ``stage`` of the turn (gods with stages of their own number them from 10)."""
        if stage == MOVES:
            self.moves(walk)
        elif stage == AFTER_MOVE:
            walk.after_move()
        elif stage == BUILDS:
            self.builds(walk)
        elif stage == END:
            self.end_of_turn(walk)
        else:
            walk.emit()

    def before_move(self, walk: Walk) -> None:
        """The ways the turn can begin before the move (Prometheus's build, Charon's force)."""
        walk.proceed()

    def moves(self, walk: Walk) -> None:
        """The ways the move part of the turn can end."""
        walk.steps(self)

    def step_targets(self, walk: Walk, worker: int, no_up: bool) -> None:
        """Each step the worker may take (none up when ``no_up``), shown on the board."""
        source = walk.cell(worker)
        before = walk.height(source)
        targets = walk.targets(source, no_up)
        workers, occupied = walk.workers, walk.occupied
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            walk.put(worker, target)
            self.landed(walk, source, target)
            walk.stepped(source, target, before)
            walk.workers, walk.occupied = workers, occupied

    def landed(self, walk: Walk, source: int, target: int) -> None:
        """What the power does when its worker steps from ``source`` onto ``target`` (Bia)."""

    def wins_by_move(self, walk: Walk, source: int, target: int, before: int, after: int) -> bool:
        """A win besides climbing onto level 3 (Pan, Eros)."""
        return False

    def builds(self, walk: Walk) -> None:
        """The ways the build part of the turn can end after the move."""
        walk.builds_on(NEIGHBOURS[walk.cell(walk.worker)])

    def end_of_turn(self, walk: Walk) -> None:
        """The ways the turn can end after the build (Ares's removal, Medusa's builds)."""
        walk.proceed()

    # -- the power over opponents -------------------------------------------------------------
    def forbids_climb(self, moved_up: int) -> bool:
        """Whether opponents may not move up (Athena after she moved up)."""
        return False

    def frozen(self, walk: Walk, colour: int) -> int:
        """The opponent (``colour``) workers that cannot move this turn, as worker bits (Hypnus)."""
        return 0

    def charm(self, walk: Walk, own: int) -> int:
        """Cells of own workers that charm opponents' neighbouring workers (Aphrodite)."""
        return 0

    def unbuildable(self, walk: Walk, own: int) -> int:
        """Cells opponents cannot build on (Limus)."""
        return 0

    forces_climb: ClassVar[bool] = False
    """Opponents must move up if they can (Persephone)."""

    def blocked_wins(self) -> int:
        """Cells onto which an opponent cannot win by moving (Hera)."""
        return 0

    def wins_at_end(self, board: Board) -> bool:
        """A win checked after every turn (Chronus)."""
        return False

    # -- setup and memos ----------------------------------------------------------------------
    places_first: ClassVar[bool] = False
    tells_workers_apart: ClassVar[bool] = False
    """Whether the power tells a colour's two workers apart (Selene's female worker): then the
    order the workers are listed in is part of the position."""
    memo_pattern: ClassVar[str] = ""
    """The memos this god can hold, as a regular expression."""

    def placeable(self, first: int, second: int) -> bool:
        """Whether workers may be placed on these cells (Eros: on opposite edges)."""
        return True

    def initial_memo(self, taken: frozenset[str], rng: random.Random) -> str:
        """The memo at the start of the game (``taken``: the gods in play)."""
        return ""

    def memo_at_start(self, memo: str, board: Board, seat: int, players: int) -> str:
        """The memo when the seat's own turn begins."""
        return memo

    def memo_after(self, memo: str, line: Line, own: bool, domes_built: bool, others: frozenset[str]) -> str:
        """The memo after a turn (``own``: this seat's)."""
        return memo


def rival_steps(walk: Walk, worker: int, no_up: bool) -> list[tuple[int, int]]:
    """Neighbouring cells with an opponent worker that the worker could climb onto, and that worker."""
    source = walk.cell(worker)
    reachable = NEIGHBOURS[source] & ~walk.too_high(walk.height(source) + walk.climb(no_up))
    found = []
    cells = reachable & walk.occupied
    while cells:
        target = lowest(cells)
        cells &= cells - 1
        other = walk.worker_on(target)
        if walk.is_rival(other):
            found.append((target, other))
    return found


def direction(source: int, target: int) -> int:
    """The index of the direction from ``source`` to its neighbour ``target``."""
    return STEPS[source].index(target)


def unmoved(walk: Walk) -> list[int]:
    """The mover's workers other than the one that moved."""
    return [i for i in walk.mine() if i != walk.worker]


# -- the simple gods ----------------------------------------------------------------------------
class Apollo(God):
    name = "apollo"
    text = (
        "Your Move: Your Worker may move into an opponent Worker's space by forcing their Worker "
        "to the space yours just vacated."
    )

    def step_targets(self, walk: Walk, worker: int, no_up: bool) -> None:
        God.step_targets(self, walk, worker, no_up)
        source = walk.cell(worker)
        before = walk.height(source)
        workers, occupied = walk.workers, walk.occupied
        for target, other in rival_steps(walk, worker, no_up):
            walk.put(worker, target)
            walk.put(other, source)
            walk.occupied |= 1 << target
            walk.stepped(source, target, before)
            walk.workers, walk.occupied = workers, occupied


class Artemis(God):
    name = "artemis"
    text = "Your Move: Your Worker may move one additional time, but not back to its initial space."
    FIRST, SECOND = 10, 11

    def moves(self, walk: Walk) -> None:
        walk.push(self, self.FIRST)
        walk.steps(self)
        walk.pop()

    def resume(self, walk: Walk, stage: int) -> None:
        if stage == self.FIRST:
            walk.proceed()
            if not walk.won:
                walk.push(self, self.SECOND)
                walk.steps(self)
                walk.pop()
        elif stage == self.SECOND:
            if walk.cell(walk.worker) != walk.start:
                walk.proceed()
        else:
            God.resume(self, walk, stage)


class Athena(God):
    name = "athena"
    text = (
        "Opponent's Turn: If one of your Workers moved up on your last turn, opponent Workers "
        "cannot move up this turn."
    )

    def forbids_climb(self, moved_up: int) -> bool:
        return bool(moved_up)


class Atlas(God):
    name = "atlas"
    text = "Your Build: Your Worker may build a dome at any level."

    def builds(self, walk: Walk) -> None:
        walk.builds_on(NEIGHBOURS[walk.cell(walk.worker)], domes=True)


class SecondBuild(God):
    """A god whose worker may build once more after its build (the base of Demeter, Hephaestus
    and Hestia): the turn as written after the first build, then :meth:`second_build`."""

    SECOND = 10

    def builds(self, walk: Walk) -> None:
        walk.push(self, self.SECOND)
        God.builds(self, walk)
        walk.pop()

    def resume(self, walk: Walk, stage: int) -> None:
        if stage == self.SECOND:
            walk.proceed()
            self.second_build(walk, walk.actions[-1] & 63)
        else:
            God.resume(self, walk, stage)

    def second_build(self, walk: Walk, first: int) -> None:
        """Each second build after the first on ``first``, then the rest of the turn."""


class Demeter(SecondBuild):
    name = "demeter"
    text = "Your Build: Your Worker may build one additional time, but not on the same space."

    def second_build(self, walk: Walk, first: int) -> None:
        walk.builds_on(NEIGHBOURS[walk.cell(walk.worker)] & ~(1 << first))


class Hephaestus(SecondBuild):
    name = "hephaestus"
    text = "Your Build: Your Worker may build one additional block (not dome) on top of your first block."

    def second_build(self, walk: Walk, first: int) -> None:
        level = walk.height(first)
        if level < 3 and walk.has_piece(first, False) and walk.may_build(first, level):
            walk.build(first, False)


class Hermes(God):
    name = "hermes"
    text = (
        "Your Turn: If your Workers do not move up or down, they may each move any number of times "
        "(even zero), and then either builds."
    )

    def turn(self, walk: Walk) -> None:
        God.turn(self, walk)
        frozen = walk.frozen()
        mine = [i for i in walk.mine() if not frozen >> i & 1]
        workers, occupied, done = walk.workers, walk.occupied, len(walk.actions)
        for moves, placed, taken in self._journeys(walk, mine):
            walk.workers, walk.occupied = placed, taken
            walk.actions.extend(moves)
            if not walk.charmed or walk.charm_kept():
                for worker in walk.mine():
                    walk.worker, walk.start = worker, walk.start_cell(worker)
                    walk.push(self, EMIT)
                    God.builds(self, walk)
                    walk.pop()
            del walk.actions[done:]
        walk.workers, walk.occupied = workers, occupied

    def _journeys(self, walk: Walk, mine: list[int]) -> list[tuple[tuple[int, ...], int, int]]:
        """Every placement of the workers reachable by moves on their own levels, in any order.

        A breadth-first search over the placements, one worker's walk at a time: each placement
        comes with the fewest walks that reach it (each written as one move, source to end), and
        with the occupied cells.
        """
        seen = {walk.workers}
        frontier: list[tuple[tuple[int, ...], int, int]] = [((), walk.workers, walk.occupied)]
        found = []
        while frontier:
            found.extend(frontier)
            following = []
            for moves, workers, occupied in frontier:
                for worker in mine:
                    walk.workers, walk.occupied = workers, occupied
                    source = walk.cell(worker)
                    cells = walk.same_level_reach(source) & ~(1 << source)
                    while cells:
                        cell = lowest(cells)
                        cells &= cells - 1
                        walk.put(worker, cell)
                        if walk.workers not in seen:
                            seen.add(walk.workers)
                            move = MOVE << 12 | (source + 1) << 6 | cell
                            following.append((moves + (move,), walk.workers, walk.occupied))
                        walk.workers, walk.occupied = workers, occupied
            frontier = following
        return found


class Minotaur(God):
    name = "minotaur"
    text = (
        "Your Move: Your Worker may move into an opponent Worker's space, if their Worker can be forced "
        "one space straight backwards to an unoccupied space at any level."
    )

    def step_targets(self, walk: Walk, worker: int, no_up: bool) -> None:
        God.step_targets(self, walk, worker, no_up)
        source = walk.cell(worker)
        before = walk.height(source)
        workers, occupied = walk.workers, walk.occupied
        for target, other in rival_steps(walk, worker, no_up):
            behind = STEPS[target][direction(source, target)]
            if behind >= 0 and walk.free() >> behind & 1:
                walk.put(other, behind)
                walk.put(worker, target)
                walk.stepped(source, target, before)
                walk.workers, walk.occupied = workers, occupied


class Pan(God):
    name = "pan"
    text = "Win Condition: You also win if your Worker moves down two or more levels."

    def wins_by_move(self, walk: Walk, source: int, target: int, before: int, after: int) -> bool:
        return before - after >= 2


class Prometheus(God):
    name = "prometheus"
    text = "Your Turn: If your Worker does not move up, it may build both before and after moving."

    def before_move(self, walk: Walk) -> None:
        walk.proceed()
        walk.no_up = True
        walk.builds_on(NEIGHBOURS[walk.cell(walk.worker)])
        walk.no_up = False


# -- the advanced gods --------------------------------------------------------------------------
class Aphrodite(God):
    name = "aphrodite"
    simple = False
    text = (
        "Any Move: If an opponent Worker starts its turn neighboring one of your Workers, "
        "its last move must be to a space neighboring one of your Workers."
    )

    def charm(self, walk: Walk, own: int) -> int:
        mask = 0
        for worker in (2 * own, 2 * own + 1):
            if walk.cell(worker) >= 0:
                mask |= 1 << walk.cell(worker)
        return mask


class Ares(God):
    name = "ares"
    simple = False
    text = "End of Your Turn: You may remove an unoccupied block (not dome) neighboring your unmoved Worker."

    def end_of_turn(self, walk: Walk) -> None:
        walk.proceed()
        cells = 0
        for worker in unmoved(walk):
            cells |= NEIGHBOURS[walk.cell(worker)]
        cells &= walk.g1 & ~walk.dome & ~walk.occupied
        while cells:
            cell = lowest(cells)
            cells &= cells - 1
            g1, g2, g3, supply = walk.g1, walk.g2, walk.g3, walk.supply
            walk.lift(cell)
            walk.act(REMOVE, -1, cell)
            walk.g1, walk.g2, walk.g3, walk.supply = g1, g2, g3, supply


class Bia(God):
    name = "bia"
    simple = False
    places_first = True
    text = (
        "Setup: Place your Workers first. Your Move: If your Worker moves into a space and the next "
        "space in the same direction is occupied by an opponent Worker, the opponent's Worker is "
        "removed from the game."
    )

    def landed(self, walk: Walk, source: int, target: int) -> None:
        victim = walk.worker_on(STEPS[target][direction(source, target)])
        if walk.is_rival(victim):
            walk.put(victim, REMOVED)


class Chaos(God):
    name = "chaos"
    simple = False
    text = (
        "Setup: Shuffle all unused Simple God Powers into a face-down deck in your play area. Draw the top "
        "God Power, and place it face-up beside the deck. Any Time: You have the power of the face-up God "
        "Power. You must discard your current God Power and draw a new one after any turn in which at least "
        "one dome is built. If you run out of God Powers, shuffle them to create a new deck and draw "
        "the top one."
    )
    # The memo is the face-up power, the deck in order, and the seed of the next shuffle:
    # ``pan/atlas/hermes/17``.
    memo_pattern = r"([a-z]+/)+\d+"

    def initial_memo(self, taken: frozenset[str], rng: random.Random) -> str:
        return _deal(sorted(SIMPLE_GODS - taken), rng.getrandbits(32))

    def memo_after(self, memo: str, line: Line, own: bool, domes_built: bool, others: frozenset[str]) -> str:
        if not domes_built:
            return memo
        *cards, seed = memo.split("/")
        if len(cards) > 1:
            return "/".join([*cards[1:], seed])
        return _deal(sorted(SIMPLE_GODS - others), int(seed))  # the discarded powers, reshuffled


def _deal(cards: list[str], seed: int) -> str:
    """A deck of ``cards`` shuffled by ``seed``, with the next shuffle's seed at the end."""
    rng = random.Random(seed)
    rng.shuffle(cards)
    return "/".join([*cards, str(rng.getrandbits(32))])


def chaos_card(memo: str) -> str:
    return memo.split("/")[0]


class Charon(God):
    name = "charon"
    simple = False
    text = (
        "Your Move: Before your Worker moves, you may force a neighboring opponent Worker to the space "
        "directly on the other side of your Worker, if that space is unoccupied."
    )

    # FAQ: the forced Worker may land at any level, but not on a dome.
    def before_move(self, walk: Walk) -> None:
        walk.proceed()
        cell = walk.cell(walk.worker)
        workers, occupied = walk.workers, walk.occupied
        neighbours = NEIGHBOURS[cell] & walk.occupied
        while neighbours:
            neighbour = lowest(neighbours)
            neighbours &= neighbours - 1
            other = walk.worker_on(neighbour)
            opposite = STEPS[cell][direction(neighbour, cell)]
            if walk.is_rival(other) and opposite >= 0 and walk.free() >> opposite & 1:
                walk.put(other, opposite)
                walk.act(MOVE, neighbour, opposite)
                walk.workers, walk.occupied = workers, occupied


class Chronus(God):
    name = "chronus"
    simple = False
    text = "Win Condition: You also win when there are at least five Complete Towers on the board."

    def wins_at_end(self, board: Board) -> bool:
        return complete_towers(board) >= 5


class Circe(God):
    name = "circe"
    simple = False
    text = (
        "Start of Your Turn: If an opponent's Workers do not neighbor each other, you alone have use of "
        "their power until your next turn."
    )
    # The memo lists the seats whose power Circe holds. With several such opponents (three players)
    # she plays the power of the first one after her in turn order; all of them lose theirs.
    memo_pattern = r"([1-4](\.[1-4])*)?"

    def memo_at_start(self, memo: str, board: Board, seat: int, players: int) -> str:
        colours = 2 if players == 4 else players
        taken = []
        for offset in range(1, players):
            other = (seat + offset) % players
            colour = other % colours
            first, second = board.workers[2 * colour], board.workers[2 * colour + 1]
            if (
                colour != seat % colours
                and first >= 0
                and second >= 0
                and not NEIGHBOURS[first] >> second & 1
            ):
                taken.append(str(other + 1))
        return ".".join(taken)


class Dionysus(God):
    name = "dionysus"
    simple = False
    text = (
        "Your Build: Each time a Worker you control creates a Complete Tower, you may take an additional "
        "turn using an opponent Worker instead of your own. No player can win during these additional turns."
    )
    # The additional turn is a turn without a power: one move and one build of the opponent Worker.
    CHAIN = 10

    def end_of_turn(self, walk: Walk) -> None:
        walk.proceed()
        built = [code & 63 for code in walk.actions if code >> 12 in (BUILD, DOME)]
        if not built or not (walk.g3 & walk.dome) >> built[-1] & 1:
            return
        worker, start, moved_up = walk.worker, walk.start, walk.moved_up
        walk.returns.append((worker, start, moved_up))
        walk.extra = True
        walk.push(self, self.CHAIN)
        walk.push(MORTAL, BUILDS)
        for other in range(walk.count):
            cell = walk.cell(other)
            if walk.is_rival(other) and cell >= 0:
                walk.worker, walk.start = other, cell
                walk.steps(MORTAL)
        walk.pop()
        walk.pop()
        walk.returns.pop()
        walk.worker, walk.start, walk.moved_up, walk.extra = worker, start, moved_up, False

    def resume(self, walk: Walk, stage: int) -> None:
        if stage == self.CHAIN:  # the extra turn is played: the turn goes on as the player's own
            other, start, moved_up = walk.worker, walk.start, walk.moved_up
            walk.worker, walk.start, walk.moved_up = walk.returns[-1]
            walk.extra = False
            self.end_of_turn(walk)
            walk.worker, walk.start, walk.moved_up, walk.extra = other, start, moved_up, True
        else:
            God.resume(self, walk, stage)


class Eros(God):
    name = "eros"
    simple = False
    text = (
        "Setup: Place your Workers anywhere along opposite edges of the board. Win Condition: You also win "
        "if one of your Workers moves to a space neighboring your other Worker and both are on the first "
        "level (or the same level in a 3-player game)."
    )

    def placeable(self, first: int, second: int) -> bool:
        (r1, c1), (r2, c2) = divmod(first, SIZE), divmod(second, SIZE)
        edge = SIZE - 1
        return {r1, r2} == {0, edge} or {c1, c2} == {0, edge}

    def wins_by_move(self, walk: Walk, source: int, target: int, before: int, after: int) -> bool:
        partner = walk.cell(walk.worker_on(target) ^ 1)
        if partner < 0 or not NEIGHBOURS[target] >> partner & 1:
            return False
        other = walk.height(partner)
        return after == other if walk.players == 3 else after == other == 1


class Hera(God):
    name = "hera"
    simple = False
    text = "Opponent's Turn: An opponent cannot win by moving into a perimeter space."

    def blocked_wins(self) -> int:
        return PERIMETER


class Hestia(SecondBuild):
    name = "hestia"
    simple = False
    text = "Your Build: Your Worker may build one additional time, but this cannot be on a perimeter space."

    def second_build(self, walk: Walk, first: int) -> None:
        walk.builds_on(NEIGHBOURS[walk.cell(walk.worker)] & ~PERIMETER)


class Hypnus(God):
    name = "hypnus"
    simple = False
    text = (
        "Start of Opponent's Turn: If one of your opponent's Workers is higher than all of their "
        "others, it cannot move."
    )

    def frozen(self, walk: Walk, colour: int) -> int:
        workers = [(walk.height(walk.cell(i)), i) for i in (2 * colour, 2 * colour + 1) if walk.cell(i) >= 0]
        if len(workers) < 2:
            return 0
        workers.sort()
        (low, _), (high, index) = workers[0], workers[-1]
        return 1 << index if high > low else 0


class Limus(God):
    name = "limus"
    simple = False
    text = (
        "Opponent's Turn: Opponent Workers cannot build on spaces neighboring your Workers, "
        "unless building a dome to create a Complete Tower."
    )

    def unbuildable(self, walk: Walk, own: int) -> int:
        mask = 0
        for worker in (2 * own, 2 * own + 1):
            if walk.cell(worker) >= 0:
                mask |= NEIGHBOURS[walk.cell(worker)]
        return mask


class Medusa(God):
    name = "medusa"
    simple = False
    text = (
        "End of Your Turn: If possible, your Workers build in lower neighboring spaces that are occupied "
        "by opponent Workers, removing the opponent Workers from the game."
    )

    def end_of_turn(self, walk: Walk) -> None:
        saved = walk.g1, walk.g2, walk.g3, walk.dome, walk.supply, walk.workers, walk.occupied
        for worker in walk.mine():
            cell = walk.cell(worker)
            neighbours = NEIGHBOURS[cell] & walk.occupied
            while neighbours:
                neighbour = lowest(neighbours)
                neighbours &= neighbours - 1
                victim = walk.worker_on(neighbour)
                level = walk.height(neighbour)
                if (
                    walk.is_rival(victim)
                    and level < walk.height(cell)
                    and walk.has_piece(neighbour, False)
                    and walk.may_build(neighbour, level)  # Limus: not next to his workers
                ):
                    walk.put(victim, REMOVED)
                    walk.place(neighbour, False)
        walk.proceed()
        walk.g1, walk.g2, walk.g3, walk.dome, walk.supply, walk.workers, walk.occupied = saved


class Morpheus(God):
    name = "morpheus"
    simple = False
    text = (
        "Start of Your Turn: Place a block or dome on your God Power card. Your Build: Your Worker cannot "
        "build as normal. Instead, spend any number of blocks/domes from your God Power card and build "
        "that many times."
    )
    # The memo counts the pieces on the card; each build takes one off, and a turn may build none.
    # The card holds at most CARD pieces (a reading: the boxed card sets no limit; four build a
    # complete tower from the ground, and the STEP family of the god-turn ids in god_codec holds
    # up to four blocks). Circe holding this power has one piece (his stay on his card).
    CARD: ClassVar[int] = 4
    memo_pattern = f"[0-{CARD}]?"

    def memo_at_start(self, memo: str, board: Board, seat: int, players: int) -> str:
        return str(min(self.CARD, int(memo or 0) + 1))

    def memo_after(self, memo: str, line: Line, own: bool, domes_built: bool, others: frozenset[str]) -> str:
        if not own:
            return memo
        return str(int(memo) - sum(a.kind in ("build", "dome") for a in line.actions))

    def builds(self, walk: Walk) -> None:
        walk.ascending(NEIGHBOURS[walk.cell(walk.worker)], int(walk.memo or 1), 0)


class Persephone(God):
    name = "persephone"
    simple = False
    forces_climb = True
    text = "Opponent's Turn: If possible, at least one Worker must move up this turn."


class Poseidon(God):
    name = "poseidon"
    simple = False
    text = (
        "End of Your Turn: If your unmoved Worker is on the ground level, it may build up to three "
        "times in neighboring spaces."
    )

    def end_of_turn(self, walk: Walk) -> None:
        still = [w for w in unmoved(walk) if walk.height(walk.cell(w)) == 0]
        if still:
            walk.ascending(NEIGHBOURS[walk.cell(still[0])], 3, 0)
        else:
            walk.proceed()


class Selene(God):
    name = "selene"
    simple = False
    text = (
        "Setup: Place a male and female Worker of your color. Your Build: Instead of your normal build, "
        "your female Worker may build a dome at any level regardless of which Worker moved."
    )
    # The second Worker of a colour (B, D, ...) is the female one.
    tells_workers_apart = True

    def builds(self, walk: Walk) -> None:
        God.builds(self, walk)
        female = walk.cell(2 * walk.colour + 1)
        if female >= 0:
            walk.builds_on(NEIGHBOURS[female], domes=True, only_domes=True)


class Triton(God):
    name = "triton"
    simple = False
    text = "Your Move: Each time your Worker moves into a perimeter space, it may immediately move again."
    # Each outcome of the move (end cell, whether the worker moved up, whether it won) is kept once,
    # by the first (shortest) way found: a later way to a cell may have moved up (Persephone) or win.
    # The worker may end on its starting square after a perimeter square (b2-b1-b2, then build).
    # Outcomes are kept per first step, so that a turn reads whichever square it went by first.
    STEPPED = 10

    def moves(self, walk: Walk) -> None:
        before = list(walk.actions)
        workers, occupied, moved_up = walk.workers, walk.occupied, walk.moved_up
        seen: set[tuple[int, int, bool, bool]] = set()
        frontier = [(tuple(before), workers, occupied, moved_up)]
        walk.push(self, self.STEPPED)
        while frontier:
            following: list[Start] = []
            walk.tritons.append((seen, following, len(before)))
            for actions, placed, taken, climbed in frontier:
                walk.actions[:] = actions
                walk.workers, walk.occupied, walk.moved_up = placed, taken, climbed
                walk.steps(self)
            walk.tritons.pop()
            frontier = following
        walk.pop()
        walk.actions[:] = before
        walk.workers, walk.occupied, walk.moved_up = workers, occupied, moved_up

    def resume(self, walk: Walk, stage: int) -> None:
        if stage == self.STEPPED:
            seen, following, first = walk.tritons[-1]
            target = walk.cell(walk.worker)
            outcome = (walk.actions[first] & 63, target, walk.moved_up, walk.won)
            if outcome in seen:
                return
            seen.add(outcome)
            walk.proceed()
            if not walk.won and PERIMETER >> target & 1:
                following.append((tuple(walk.actions), walk.workers, walk.occupied, walk.moved_up))
        else:
            God.resume(self, walk, stage)


class Zeus(God):
    name = "zeus"
    simple = False
    text = "Your Build: Your Worker may build a block under itself."
    # FAQ: not a dome, and rising to level 3 by this build does not win.

    def builds(self, walk: Walk) -> None:
        God.builds(self, walk)
        cell = walk.cell(walk.worker)
        level = walk.height(cell)
        if level < 3 and walk.has_piece(cell, False) and walk.may_build(cell, level):
            walk.build(cell, False)


MORTAL = God()
GODS: dict[str, God] = {
    god.name: god
    for god in (
        cls()
        for cls in (
            Apollo,
            Artemis,
            Athena,
            Atlas,
            Demeter,
            Hephaestus,
            Hermes,
            Minotaur,
            Pan,
            Prometheus,
            Aphrodite,
            Ares,
            Bia,
            Chaos,
            Charon,
            Chronus,
            Circe,
            Dionysus,
            Eros,
            Hera,
            Hestia,
            Hypnus,
            Limus,
            Medusa,
            Morpheus,
            Persephone,
            Poseidon,
            Selene,
            Triton,
            Zeus,
        )
    )
}
"""The thirty gods of the base game by name: the ten simple gods, then the twenty advanced ones."""
SIMPLE_GODS = frozenset(name for name, god in GODS.items() if god.simple)
GOD_TEXT: dict[str, str] = {name: god.text for name, god in GODS.items()}
"""Each god's card text, for front ends to show."""
GOD_TEXT_NL: dict[str, str] = {
    "apollo": "Jouw verplaatsing: je bouwer mag naar het veld van een bouwer van een tegenstander gaan; "
    "die bouwer gaat dan naar het veld dat de jouwe net verliet.",
    "artemis": "Jouw verplaatsing: je bouwer mag nog één keer verplaatsen, maar niet terug naar zijn "
    "beginveld.",
    "athena": "Beurt van de tegenstander: als een van je bouwers in je vorige beurt omhoog ging, mogen "
    "bouwers van tegenstanders deze beurt niet omhoog.",
    "atlas": "Jouw bouw: je bouwer mag op elke verdieping een koepel bouwen.",
    "demeter": "Jouw bouw: je bouwer mag nog één keer bouwen, maar niet op hetzelfde veld.",
    "hephaestus": "Jouw bouw: je bouwer mag nog één blok (geen koepel) op je eerste blok bouwen.",
    "hermes": "Jouw beurt: als je bouwers niet omhoog of omlaag gaan, mogen ze elk zo vaak verplaatsen "
    "als je wilt (ook geen keer); daarna bouwt een van beide.",
    "minotaur": "Jouw verplaatsing: je bouwer mag naar het veld van een bouwer van een tegenstander "
    "gaan, als die bouwer één veld recht naar achteren kan worden geduwd, naar een vrij veld op elke "
    "verdieping.",
    "pan": "Winnen: je wint ook als je bouwer twee of meer verdiepingen omlaag gaat.",
    "prometheus": "Jouw beurt: als je bouwer niet omhoog gaat, mag hij zowel voor als na het "
    "verplaatsen bouwen.",
    "aphrodite": "Elke verplaatsing: als een bouwer van een tegenstander zijn beurt begint naast een "
    "van je bouwers, moet zijn laatste verplaatsing eindigen naast een van je bouwers.",
    "ares": "Einde van je beurt: je mag een blok (geen koepel) weghalen van een vrij veld naast je "
    "bouwer die niet verplaatste.",
    "bia": "Opzet: zet je bouwers als eerste neer. Jouw verplaatsing: als je bouwer naar een veld gaat "
    "en op het volgende veld in dezelfde richting een bouwer van een tegenstander staat, gaat die "
    "bouwer uit het spel.",
    "chaos": "Opzet: schud alle ongebruikte eenvoudige godenkrachten tot een gesloten stapel. Trek de "
    "bovenste en leg die open naast de stapel. Altijd: je hebt de kracht van de open kaart. Na elke "
    "beurt waarin minstens één koepel is gebouwd, leg je die kracht af en trek je een nieuwe. Is de "
    "stapel op, schud de krachten dan tot een nieuwe stapel en trek de bovenste.",
    "charon": "Jouw verplaatsing: voor je bouwer verplaatst, mag je een aangrenzende bouwer van een "
    "tegenstander naar het veld recht aan de andere kant van je bouwer zetten, als dat veld vrij is.",
    "chronus": "Winnen: je wint ook als er minstens vijf volledige torens op het bord staan.",
    "circe": "Begin van je beurt: als de bouwers van een tegenstander niet naast elkaar staan, heb "
    "alleen jij hun kracht tot je volgende beurt.",
    "dionysus": "Jouw bouw: elke keer dat een bouwer die jij bestuurt een toren volledig maakt, mag je "
    "een extra beurt spelen met een bouwer van een tegenstander in plaats van je eigen. In die extra "
    "beurten kan niemand winnen.",
    "eros": "Opzet: zet je bouwers ergens langs twee tegenover elkaar liggende randen van het bord. "
    "Winnen: je wint ook als een van je bouwers naar een veld naast je andere bouwer gaat en ze "
    "allebei op de eerste verdieping staan (met drie spelers: op dezelfde verdieping).",
    "hera": "Beurt van de tegenstander: een tegenstander kan niet winnen door naar een randveld te gaan.",
    "hestia": "Jouw bouw: je bouwer mag nog één keer bouwen, maar niet op een randveld.",
    "hypnus": "Begin van de beurt van de tegenstander: staat een bouwer van je tegenstander hoger dan "
    "al diens andere bouwers, dan kan hij niet verplaatsen.",
    "limus": "Beurt van de tegenstander: bouwers van tegenstanders kunnen niet bouwen op velden naast "
    "je bouwers, behalve een koepel die een toren volledig maakt.",
    "medusa": "Einde van je beurt: staan er bouwers van tegenstanders op lagere velden naast je "
    "bouwers, dan bouwen je bouwers daar als het kan, en gaan die bouwers uit het spel.",
    "morpheus": "Begin van je beurt: leg een blok of koepel op je godenkaart. Jouw bouw: je bouwer "
    "kan niet gewoon bouwen. Gebruik in plaats daarvan zoveel blokken en koepels van je kaart als je "
    "wilt en bouw zo vaak.",
    "persephone": "Beurt van de tegenstander: als het kan, moet minstens één bouwer deze beurt omhoog.",
    "poseidon": "Einde van je beurt: staat je bouwer die niet verplaatste op de grond, dan mag hij tot "
    "drie keer bouwen op aangrenzende velden.",
    "selene": "Opzet: zet een mannelijke en een vrouwelijke bouwer van je kleur neer. Jouw bouw: in "
    "plaats van je gewone bouw mag je vrouwelijke bouwer op elke verdieping een koepel bouwen, welke "
    "bouwer ook verplaatste.",
    "triton": "Jouw verplaatsing: elke keer dat je bouwer naar een randveld gaat, mag hij meteen nog "
    "eens verplaatsen.",
    "zeus": "Jouw bouw: je bouwer mag een blok onder zichzelf bouwen.",
}
"""Each god's card text in Dutch."""
GOD_TEXTS: dict[str, dict[str, str]] = {"en": GOD_TEXT, "nl": GOD_TEXT_NL}
"""The card texts per language."""
