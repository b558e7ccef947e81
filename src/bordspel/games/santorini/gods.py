"""Santorini god powers: the turn generator and the thirty gods of the base game.

:class:`God` is the generator: ``lines`` plays out every turn of the player to move as a
:class:`Line` (its actions and the board after them) through hooks: ``before_move``, ``moves``,
``step_targets``, ``wins_by_move``, ``builds`` and ``end_of_turn`` for the player's own power,
and ``forbids_climb``, ``frozen``, ``charm``, ``unbuildable``, ``forces_climb`` and
``blocks_win`` for the powers of its opponents. The base class is the game without a power;
each god overrides what its card changes. Powers that outlive a turn keep a short text, the
*memo* (Morpheus's pieces, Chaos's deck, whom Circe took a power from).

Where a card's text is ambiguous the official FAQ's reading is taken; the comments say so.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from bordspel.core import iter_bits
from bordspel.games.santorini.board import (
    MAX_CLIMB,
    NEIGHBOURS,
    SIZE,
    STEPS,
    exact_level,
    free_cells,
    height,
    is_winning_move,
    move_targets,
)
from bordspel.games.santorini.turns import Action, Board

__all__ = [
    "GODS",
    "GOD_TEXT",
    "GOD_TEXTS",
    "GOD_TEXT_NL",
    "SIMPLE_GODS",
    "Context",
    "God",
    "Line",
    "complete_towers",
]

PERIMETER = 0b11111_10001_10001_10001_11111
"""The squares on the edge of the board, as a mask of cells (bit ``row * 5 + col``)."""


def complete_towers(board: Board) -> int:
    """The number of towers of three blocks and a dome."""
    return (board.levels[2] & board.levels[3]).bit_count()


class Line(NamedTuple):
    """A turn, or the start of one: its actions and the board after them."""

    actions: tuple[Action, ...]
    board: Board
    worker: int
    """The index of the worker that moves (chosen at the start of the turn)."""
    start: int
    """That worker's cell at the start of the turn."""
    moved_up: bool = False
    won: bool = False
    no_up: bool = False
    """Prometheus built before moving, so the worker may not move up."""

    def then(self, action: Action, board: Board) -> Line:
        """The line with ``action`` played, leaving ``board``."""
        return Line(
            self.actions + (action,), board, self.worker, self.start, self.moved_up, self.won, self.no_up
        )


@dataclass(frozen=True)
class Context:
    """What a turn's rules depend on besides the board: whose turn it is and the powers at play."""

    colour: int
    players: int
    god: God
    rivals: tuple[tuple[God, int], ...]
    """The opponents' powers with the colour of their workers."""
    memo: str
    up: int
    """The seats whose last turn moved a worker up (only kept for Athena)."""
    rival_seats: tuple[int, ...]
    extra: bool = False
    """An extra turn (Dionysus): nobody can win."""

    def mine(self, board: Board) -> list[int]:
        """The indices of the mover's workers on the board."""
        first = 2 * self.colour
        return [i for i in (first, first + 1) if board.workers[i] >= 0]

    def is_rival_worker(self, index: int) -> bool:
        """Whether worker ``index`` is an opponent's (False for -1, no worker)."""
        return index >= 0 and index // 2 != self.colour

    def no_up(self) -> bool:
        """Whether an opponent's power forbids moving up this turn (Athena)."""
        return any(
            god.forbids_climb(self.up >> seat & 1) for (god, _), seat in zip(self.rivals, self.rival_seats)
        )

    def frozen(self, board: Board) -> int:
        """The mover's workers that cannot move this turn, as index bits (Hypnus)."""
        mask = 0
        for god, _ in self.rivals:
            mask |= god.frozen(board, self.colour)
        return mask

    def charmers(self, board: Board) -> int:
        """Cells of the workers whose neighbours' last move must end next to them (Aphrodite)."""
        mask = 0
        for god, colour in self.rivals:
            mask |= god.charm(board, colour)
        return mask

    def may_build(self, board: Board, cell: int) -> bool:
        """Whether the opponents' powers allow a build on ``cell`` (Limus; a dome on level 3 is allowed)."""
        return self.may_build_at(board, cell, height(board.levels, cell))

    def may_build_at(self, board: Board, cell: int, level: int) -> bool:
        """:meth:`may_build` for a tower of ``level`` on ``cell``."""
        if level == 3 or not self.restricting:
            return True
        return not any(god.unbuildable(board, colour) >> cell & 1 for god, colour in self.restricting)

    @functools.cached_property
    def restricting(self) -> tuple[tuple[God, int], ...]:
        """The opponents whose powers forbid builds somewhere (Limus), with their colour."""
        return tuple(
            (god, colour) for god, colour in self.rivals if type(god).unbuildable is not God.unbuildable
        )

    def wins(self, board: Board, source: int, target: int, before: int, after: int) -> bool:
        """Whether the mover's own move from ``source`` to ``target`` wins."""
        if self.extra or any(god.blocks_win(target) for god, _ in self.rivals):
            return False
        return is_winning_move(before, after) or self.god.wins_by_move(
            self, board, source, target, before, after
        )


# -- shared steps ------------------------------------------------------------------------------
def build_options(
    ctx: Context, board: Board, cells: int, domes: bool = False
) -> Iterator[tuple[Action, Board]]:
    """Builds on ``cells`` (minus workers and domes): the next piece, or with ``domes`` a dome."""
    levels = board.levels
    for cell in iter_bits(cells & free_cells(levels, board.occupied())):
        level = height(levels, cell)
        if not ctx.may_build_at(board, cell, level):
            continue
        if board.has_piece(cell):
            yield Action("build", -1, cell), board.built(cell)
        if domes and level < 3 and board.has_piece(cell, True):
            yield Action("dome", -1, cell), board.built(cell, True)


def climb(no_up: bool) -> int:
    """How many levels a worker may step up: none when a power forbids moving up."""
    return 0 if no_up else MAX_CLIMB


def normal_targets(ctx: Context, board: Board, cell: int, no_up: bool) -> int:
    """The cells a worker on ``cell`` may step onto (none up when ``no_up``)."""
    return move_targets(board.levels, board.occupied(), cell, climb(no_up))


def rival_steps(ctx: Context, board: Board, worker: int, no_up: bool) -> Iterator[tuple[int, int]]:
    """Neighbouring cells with an opponent worker that the worker could climb onto, and that worker."""
    source = board.workers[worker]
    reachable = move_targets(board.levels, 0, source, climb(no_up))  # as if no worker stood there
    for target in iter_bits(reachable & board.occupied()):
        other = board.worker_on(target)
        if ctx.is_rival_worker(other):
            yield target, other


def direction(source: int, target: int) -> int:
    """The index of the direction from ``source`` to its neighbour ``target``."""
    return STEPS[source].index(target)


def unmoved(ctx: Context, line: Line) -> list[int]:
    return [i for i in ctx.mine(line.board) if i != line.worker]


def ascending_builds(ctx: Context, line: Line, cells: int, count: int, lowest: int = 0) -> Iterator[Line]:
    """``line`` then 0 to ``count`` builds on ``cells``, in rising square order (they commute)."""
    yield line
    if count == 0:
        return
    for action, board in build_options(ctx, line.board, cells & ~((1 << lowest) - 1)):
        yield from ascending_builds(ctx, line.then(action, board), cells, count - 1, action.target)


# -- the base game ------------------------------------------------------------------------------
class God:
    """No power: the base game's turn. Subclasses override what their card changes."""

    name: ClassVar[str] = "mortal"
    text: ClassVar[str] = "No god power: move one worker, then build next to it."
    simple: ClassVar[bool] = True

    def lines(self, ctx: Context, board: Board) -> Iterator[Line]:
        """Every turn of the player to move."""
        frozen = ctx.frozen(board)
        charmers = ctx.charmers(board)
        charmed = [i for i in ctx.mine(board) if NEIGHBOURS[board.workers[i]] & charmers]
        for worker in ctx.mine(board):
            if frozen >> worker & 1:
                continue
            start = Line((), board, worker, board.workers[worker])
            for before in self.before_move(ctx, start):
                for moved in self.moves(ctx, before):
                    if not charm_kept(moved.board, board, charmed, ctx):
                        continue
                    if moved.won:
                        yield moved
                        continue
                    for built in self.builds(ctx, moved):
                        yield from self.end_of_turn(ctx, built)

    def before_move(self, ctx: Context, line: Line) -> Iterator[Line]:
        """The ways the turn can begin before the move (Prometheus's build, Charon's force)."""
        yield line

    def moves(self, ctx: Context, line: Line) -> Iterator[Line]:
        """The ways the move part of the turn can end."""
        yield from self.steps(ctx, line)

    def steps(self, ctx: Context, line: Line) -> Iterator[Line]:
        """One step of the moving worker, with the win it may bring."""
        board = line.board
        source = board.workers[line.worker]
        before = height(board.levels, source)
        for target, after in self.step_targets(ctx, board, line.worker, ctx.no_up() or line.no_up):
            level = height(board.levels, target)
            yield Line(
                line.actions + (Action("move", source, target),),
                after,
                line.worker,
                line.start,
                line.moved_up or level > before,
                ctx.wins(after, source, target, before, level),
                line.no_up,
            )

    def step_targets(
        self, ctx: Context, board: Board, worker: int, no_up: bool
    ) -> Iterator[tuple[int, Board]]:
        """The cells the worker may step onto, with the board after the step."""
        source = board.workers[worker]
        for target in iter_bits(normal_targets(ctx, board, source, no_up)):
            yield target, board.moved(worker, target)

    def wins_by_move(
        self, ctx: Context, board: Board, source: int, target: int, before: int, after: int
    ) -> bool:
        """A win besides climbing onto level 3 (Pan, Eros)."""
        return False

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        """The ways the build part of the turn can end after the move."""
        cell = line.board.workers[line.worker]
        for action, board in build_options(ctx, line.board, NEIGHBOURS[cell]):
            yield line.then(action, board)

    def end_of_turn(self, ctx: Context, line: Line) -> Iterator[Line]:
        """The ways the turn can end after the build (Ares's removal, Medusa's builds)."""
        yield line

    # -- the power over opponents -------------------------------------------------------------
    def forbids_climb(self, moved_up: int) -> bool:
        """Whether opponents may not move up (Athena after she moved up)."""
        return False

    def frozen(self, board: Board, colour: int) -> int:
        """The opponent (``colour``) workers that cannot move this turn, as index bits (Hypnus)."""
        return 0

    def charm(self, board: Board, own: int) -> int:
        """Cells of own workers that charm opponents' neighbouring workers (Aphrodite)."""
        return 0

    def unbuildable(self, board: Board, own: int) -> int:
        """Cells opponents cannot build on (Limus)."""
        return 0

    forces_climb: ClassVar[bool] = False
    """Opponents must move up if they can (Persephone)."""

    def blocks_win(self, cell: int) -> bool:
        """Whether an opponent cannot win by moving onto ``cell`` (Hera)."""
        return False

    def wins_at_end(self, board: Board) -> bool:
        """A win checked after every turn (Chronus)."""
        return False

    # -- setup and memos ----------------------------------------------------------------------
    places_first: ClassVar[bool] = False
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


def charm_kept(board: Board, start: Board, charmed: list[int], ctx: Context) -> bool:
    """Aphrodite: a charmed worker that moved ends next to one of her workers."""
    charmers = ctx.charmers(board)
    return all(
        board.workers[i] == start.workers[i]
        or board.workers[i] < 0
        or NEIGHBOURS[board.workers[i]] & charmers
        for i in charmed
    )


# -- the simple gods ----------------------------------------------------------------------------
class Apollo(God):
    name = "apollo"
    text = (
        "Your Move: Your Worker may move into an opponent Worker's space by forcing their Worker "
        "to the space yours just vacated."
    )

    def step_targets(
        self, ctx: Context, board: Board, worker: int, no_up: bool
    ) -> Iterator[tuple[int, Board]]:
        yield from super().step_targets(ctx, board, worker, no_up)
        source = board.workers[worker]
        for target, other in rival_steps(ctx, board, worker, no_up):
            yield target, board.moved(worker, target).moved(other, source)


class Artemis(God):
    name = "artemis"
    text = "Your Move: Your Worker may move one additional time, but not back to its initial space."

    def moves(self, ctx: Context, line: Line) -> Iterator[Line]:
        for first in self.steps(ctx, line):
            yield first
            if not first.won:
                yield from (s for s in self.steps(ctx, first) if s.board.workers[line.worker] != line.start)


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

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        cell = line.board.workers[line.worker]
        for action, board in build_options(ctx, line.board, NEIGHBOURS[cell], domes=True):
            yield line.then(action, board)


class Demeter(God):
    name = "demeter"
    text = "Your Build: Your Worker may build one additional time, but not on the same space."

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        cell = line.board.workers[line.worker]
        for first in super().builds(ctx, line):
            yield first
            done = first.actions[-1].target
            for action, board in build_options(ctx, first.board, NEIGHBOURS[cell] & ~(1 << done)):
                yield first.then(action, board)


class Hephaestus(God):
    name = "hephaestus"
    text = "Your Build: Your Worker may build one additional block (not dome) on top of your first block."

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        for first in super().builds(ctx, line):
            yield first
            cell = first.actions[-1].target
            board = first.board
            if height(board.levels, cell) < 3 and board.has_piece(cell) and ctx.may_build(board, cell):
                yield first.then(Action("build", -1, cell), board.built(cell))


class Hermes(God):
    name = "hermes"
    text = (
        "Your Turn: If your Workers do not move up or down, they may each move any number of times "
        "(even zero), and then either builds."
    )

    def lines(self, ctx: Context, board: Board) -> Iterator[Line]:
        yield from super().lines(ctx, board)
        mine = [i for i in ctx.mine(board) if not ctx.frozen(board) >> i & 1]
        charmers = ctx.charmers(board)
        charmed = [i for i in ctx.mine(board) if NEIGHBOURS[board.workers[i]] & charmers]
        for moves, after in self._journeys(board, mine):
            if not charm_kept(after, board, charmed, ctx):
                continue
            for worker in ctx.mine(after):
                yield from super().builds(ctx, Line(moves, after, worker, board.workers[worker]))

    def _journeys(self, board: Board, mine: list[int]) -> Iterator[tuple[tuple[Action, ...], Board]]:
        """Every placement of the workers reachable by moves on their own levels, in any order.

        A breadth-first search over the placements, one worker's walk at a time: each placement
        comes with the fewest walks that reach it (each written as one move, source to end).
        """
        seen = {board.workers}
        frontier: list[tuple[tuple[Action, ...], Board]] = [((), board)]
        while frontier:
            yield from frontier
            following = []
            for moves, current in frontier:
                for worker in mine:
                    source = current.workers[worker]
                    for cell in iter_bits(_same_level_reach(current, source) & ~(1 << source)):
                        after = current.moved(worker, cell)
                        if after.workers not in seen:
                            seen.add(after.workers)
                            following.append((moves + (Action("move", source, cell),), after))
            frontier = following


def _same_level_reach(board: Board, source: int) -> int:
    """Cells reachable from ``source`` by steps onto empty cells of the same height, as a mask
    (``source`` included)."""
    same = exact_level(board.levels, height(board.levels, source)) & ~board.occupied()
    reach, frontier = 1 << source, 1 << source
    while frontier:
        grown = 0
        for cell in iter_bits(frontier):
            grown |= NEIGHBOURS[cell]
        frontier = grown & same & ~reach
        reach |= frontier
    return reach


class Minotaur(God):
    name = "minotaur"
    text = (
        "Your Move: Your Worker may move into an opponent Worker's space, if their Worker can be forced "
        "one space straight backwards to an unoccupied space at any level."
    )

    def step_targets(
        self, ctx: Context, board: Board, worker: int, no_up: bool
    ) -> Iterator[tuple[int, Board]]:
        yield from super().step_targets(ctx, board, worker, no_up)
        source = board.workers[worker]
        for target, other in rival_steps(ctx, board, worker, no_up):
            behind = STEPS[target][direction(source, target)]
            if behind >= 0 and free_cells(board.levels, board.occupied()) >> behind & 1:
                yield target, board.moved(other, behind).moved(worker, target)


class Pan(God):
    name = "pan"
    text = "Win Condition: You also win if your Worker moves down two or more levels."

    def wins_by_move(
        self, ctx: Context, board: Board, source: int, target: int, before: int, after: int
    ) -> bool:
        return before - after >= 2


class Prometheus(God):
    name = "prometheus"
    text = "Your Turn: If your Worker does not move up, it may build both before and after moving."

    def before_move(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield line
        cell = line.board.workers[line.worker]
        for action, board in build_options(ctx, line.board, NEIGHBOURS[cell]):
            yield line.then(action, board)._replace(no_up=True)


# -- the advanced gods --------------------------------------------------------------------------
class Aphrodite(God):
    name = "aphrodite"
    simple = False
    text = (
        "Any Move: If an opponent Worker starts its turn neighboring one of your Workers, "
        "its last move must be to a space neighboring one of your Workers."
    )

    def charm(self, board: Board, own: int) -> int:
        return sum(1 << c for c in board.workers[2 * own : 2 * own + 2] if c >= 0)


class Ares(God):
    name = "ares"
    simple = False
    text = "End of Your Turn: You may remove an unoccupied block (not dome) neighboring your unmoved Worker."

    def end_of_turn(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield line
        board = line.board
        cells = 0
        for worker in unmoved(ctx, line):
            cells |= NEIGHBOURS[board.workers[worker]]
        for cell in iter_bits(cells & board.levels[0] & ~board.levels[3] & ~board.occupied()):
            yield line.then(Action("remove", -1, cell), board.lowered(cell))


class Bia(God):
    name = "bia"
    simple = False
    places_first = True
    text = (
        "Setup: Place your Workers first. Your Move: If your Worker moves into a space and the next "
        "space in the same direction is occupied by an opponent Worker, the opponent's Worker is "
        "removed from the game."
    )

    def step_targets(
        self, ctx: Context, board: Board, worker: int, no_up: bool
    ) -> Iterator[tuple[int, Board]]:
        source = board.workers[worker]
        for target, after in super().step_targets(ctx, board, worker, no_up):
            beyond = STEPS[target][direction(source, target)]
            victim = after.worker_on(beyond)
            yield target, after.removed(victim) if ctx.is_rival_worker(victim) else after


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
    def before_move(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield line
        board = line.board
        cell = board.workers[line.worker]
        for neighbour in iter_bits(NEIGHBOURS[cell] & board.occupied()):
            other = board.worker_on(neighbour)
            opposite = STEPS[cell][direction(neighbour, cell)]
            free = opposite >= 0 and free_cells(board.levels, board.occupied()) >> opposite & 1
            if ctx.is_rival_worker(other) and free:
                yield line.then(Action("move", neighbour, opposite), board.moved(other, opposite))


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
            first, second = board.workers[2 * colour : 2 * colour + 2]
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

    def end_of_turn(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield line
        built = [a for a in line.actions if a.kind in ("build", "dome")]
        if not built or not (line.board.levels[2] & line.board.levels[3]) >> built[-1].target & 1:
            return
        extra = Context(
            ctx.colour, ctx.players, MORTAL, ctx.rivals, ctx.memo, ctx.up, ctx.rival_seats, extra=True
        )
        for other, cell in enumerate(line.board.workers):
            if ctx.is_rival_worker(other) and cell >= 0:
                start = Line(line.actions, line.board, other, cell, line.moved_up)
                for moved in MORTAL.steps(extra, start):
                    for turn in MORTAL.builds(extra, moved):
                        mine = turn._replace(worker=line.worker, start=line.start, moved_up=line.moved_up)
                        yield from self.end_of_turn(ctx, mine)


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

    def wins_by_move(
        self, ctx: Context, board: Board, source: int, target: int, before: int, after: int
    ) -> bool:
        mover = board.worker_on(target)
        partner = board.workers[mover ^ 1]
        if partner < 0 or not NEIGHBOURS[target] >> partner & 1:
            return False
        other = height(board.levels, partner)
        return after == other if ctx.players == 3 else after == other == 1


class Hera(God):
    name = "hera"
    simple = False
    text = "Opponent's Turn: An opponent cannot win by moving into a perimeter space."

    def blocks_win(self, cell: int) -> bool:
        return bool(PERIMETER >> cell & 1)


class Hestia(God):
    name = "hestia"
    simple = False
    text = "Your Build: Your Worker may build one additional time, but this cannot be on a perimeter space."

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        cell = line.board.workers[line.worker]
        for first in super().builds(ctx, line):
            yield first
            for action, board in build_options(ctx, first.board, NEIGHBOURS[cell] & ~PERIMETER):
                yield first.then(action, board)


class Hypnus(God):
    name = "hypnus"
    simple = False
    text = (
        "Start of Opponent's Turn: If one of your opponent's Workers is higher than all of their "
        "others, it cannot move."
    )

    def frozen(self, board: Board, colour: int) -> int:
        workers = [
            (height(board.levels, c), i) for i, c in enumerate(board.workers) if c >= 0 and i // 2 == colour
        ]
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

    def unbuildable(self, board: Board, own: int) -> int:
        mask = 0
        for cell in board.workers[2 * own : 2 * own + 2]:
            if cell >= 0:
                mask |= NEIGHBOURS[cell]
        return mask


class Medusa(God):
    name = "medusa"
    simple = False
    text = (
        "End of Your Turn: If possible, your Workers build in lower neighboring spaces that are occupied "
        "by opponent Workers, removing the opponent Workers from the game."
    )

    def end_of_turn(self, ctx: Context, line: Line) -> Iterator[Line]:
        board = line.board
        for worker in ctx.mine(board):
            cell = board.workers[worker]
            for neighbour in iter_bits(NEIGHBOURS[cell] & board.occupied()):
                victim = board.worker_on(neighbour)
                lower = height(board.levels, neighbour) < height(board.levels, cell)
                if (
                    ctx.is_rival_worker(victim)
                    and lower
                    and board.has_piece(neighbour)
                    and ctx.may_build(board, neighbour)  # Limus: not next to his workers
                ):
                    board = board.removed(victim).built(neighbour)
        yield line._replace(board=board)


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

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        cells = NEIGHBOURS[line.board.workers[line.worker]]
        yield from ascending_builds(ctx, line, cells, int(ctx.memo or 1))


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

    def end_of_turn(self, ctx: Context, line: Line) -> Iterator[Line]:
        still = [w for w in unmoved(ctx, line) if height(line.board.levels, line.board.workers[w]) == 0]
        if not still:
            yield line
            return
        yield from ascending_builds(ctx, line, NEIGHBOURS[line.board.workers[still[0]]], 3)


class Selene(God):
    name = "selene"
    simple = False
    text = (
        "Setup: Place a male and female Worker of your color. Your Build: Instead of your normal build, "
        "your female Worker may build a dome at any level regardless of which Worker moved."
    )
    # The second Worker of a colour (B, D, ...) is the female one.

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield from super().builds(ctx, line)
        female = line.board.workers[2 * ctx.colour + 1]
        if female >= 0:
            for action, board in build_options(ctx, line.board, NEIGHBOURS[female], domes=True):
                if action.kind == "dome" or height(line.board.levels, action.target) == 3:
                    yield line.then(action, board)


class Triton(God):
    name = "triton"
    simple = False
    text = "Your Move: Each time your Worker moves into a perimeter space, it may immediately move again."

    # Each outcome of the move (end cell, whether the worker moved up, whether it won) is kept once,
    # by the first (shortest) way found: a later way to a cell may have moved up (Persephone) or win.
    # The worker may end on its starting square after a perimeter square (b2-b1-b2, then build).
    # Outcomes are kept per first step, so that a turn reads whichever square it went by first.
    def moves(self, ctx: Context, line: Line) -> Iterator[Line]:
        seen: set[tuple[int, int, bool, bool]] = set()
        frontier = [line]
        while frontier:
            following = []
            for current in frontier:
                for moved in self.steps(ctx, current):
                    target = moved.board.workers[line.worker]
                    outcome = (moved.actions[len(line.actions)].target, target, moved.moved_up, moved.won)
                    if outcome in seen:
                        continue
                    seen.add(outcome)
                    yield moved
                    if not moved.won and PERIMETER >> target & 1:
                        following.append(moved)
            frontier = following


class Zeus(God):
    name = "zeus"
    simple = False
    text = "Your Build: Your Worker may build a block under itself."
    # FAQ: not a dome, and rising to level 3 by this build does not win.

    def builds(self, ctx: Context, line: Line) -> Iterator[Line]:
        yield from super().builds(ctx, line)
        board = line.board
        cell = board.workers[line.worker]
        if height(board.levels, cell) < 3 and board.has_piece(cell) and ctx.may_build(board, cell):
            yield line.then(Action("build", -1, cell), board.built(cell))


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
