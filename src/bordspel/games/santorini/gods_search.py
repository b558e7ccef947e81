# cython: boundscheck=True, wraparound=True, annotation_typing=False
"""Santorini's alpha-beta search with gods: ``hard`` and ``perfect`` for two players with gods.

The search of :class:`bordspel.ai.search.Searcher` (iterative deepening, principal-variation
search, threat extensions, a transposition table, the fitted evaluation with the gods' threats)
on what the turn generator writes: a node's children are the outcomes of its turns (the board
packed as the walk leaves it, the memos, Athena's seats, the winners), no turn or move objects
are built below the root, the leaves are evaluated on the packed board, and the children are
tried best first by that evaluation. The scores are those of the pure search's evaluation
(``tests/test_santorini_gods_search.py`` holds the two together).

The module is plain Python, the reference; ``pip install .`` also compiles it with Cython
(``gods_search.pxd`` gives the C types), as it does the gods' generator.
"""

from __future__ import annotations

import time
from typing import Any

from bordspel._native import twin
from bordspel.ai.search import EXACT, LOWER, REDUCE_FROM, UPPER, WIN, OutOfTime, from_table, to_table
from bordspel.games.santorini import generator as reference_generator
from bordspel.games.santorini.board import NEIGHBOURS, STEPS
from bordspel.games.santorini.engine import SantoriniState
from bordspel.games.santorini.generator import Powers

__all__ = ["GodsSearch", "Node", "packed_value", "threat_powers"]

generator: Any = twin("santorini_generator", reference_generator)
"""The turn generator: ``generator.py`` compiled by ``pip install .``, else itself."""

CHECK_EVERY = 256
"""Nodes between two looks at the clock."""
KEPT_EXPANSIONS = 8192
"""Positions whose children the search keeps (about 30 kB each); past it, it forgets all but the
root's and expands them again when it comes back (a long search stays within some 250 MB)."""
FULL = (1 << 25) - 1
PAN, ARTEMIS, APOLLO, MINOTAUR = 1, 2, 4, 8
THREATS = {"pan": PAN, "artemis": ARTEMIS, "apollo": APOLLO, "minotaur": MINOTAUR}
"""The simple gods whose win threats the evaluation counts (``ai.god_threats``)."""
RESTRICTING = frozenset({"aphrodite", "chaos", "hypnus", "limus"})
"""Opponents' powers that can leave a player without a turn while their workers have steps: the
leaves ask the generator whether the player to move has a turn whenever one of these plays.
Athena's is counted instead: while she holds it, only the steps that do not go up count."""


def threat_powers(state: SantoriniState) -> tuple[int, int, int]:
    """Each colour's threatening powers (flags) and the seats that play Athena (a mask)."""
    names = state.powers.gods if state.powers is not None else ("", "")
    athena = 0
    for seat, name in enumerate(names):
        if name == "athena":
            athena |= 1 << seat
    return THREATS.get(names[0], 0), THREATS.get(names[1], 0), athena


def _cell(workers: int, index: int) -> int:
    return (workers >> 5 * index & 31) - 2


def _occupied(workers: int) -> int:
    """The cells the four packed workers stand on."""
    occupied = 0
    for index in range(4):
        cell = _cell(workers, index)
        if cell >= 0:
            occupied |= 1 << cell
    return occupied


def _height(g1: int, g2: int, g3: int, dome: int, cell: int) -> int:
    if dome >> cell & 1:
        return 4
    return (g1 >> cell & 1) + (g2 >> cell & 1) + (g3 >> cell & 1)


def _too_high(g1: int, g2: int, g3: int, dome: int, limit: int) -> int:
    """Cells with more than ``limit`` blocks (domes included)."""
    if limit <= 0:
        return g1 | dome
    if limit == 1:
        return g2 | dome
    if limit == 2:
        return g3 | dome
    return dome


def _targets(g1: int, g2: int, g3: int, dome: int, occupied: int, cell: int) -> int:
    """Where a worker on ``cell`` may step: free and at most one level up."""
    level = _height(g1, g2, g3, dome, cell)
    return NEIGHBOURS[cell] & FULL & ~occupied & ~dome & ~_too_high(g1, g2, g3, dome, level + 1)


def _bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


Packed = tuple[int, int, int, int, int, int]
"""A board as the walk packs it: the four level masks, the workers (5 bits each) and the supply."""


def packed_value(
    board: Packed, mover: int, seat: int, weights: tuple[float, ...], powers: tuple[int, int, int], up: int
) -> float:
    """The fitted evaluation with the gods' threats (``ai.evaluate``) of a two-player position
    given as the walk packs it (four level masks and the workers), for ``seat``; ``mover`` is
    the seat to move, ``powers`` as :func:`threat_powers` gives them, ``up`` Athena's seats."""
    g1, g2, g3, dome, workers, _supply = board
    occupied = _occupied(workers)
    _w0, _w1, _w2, _w3, _w4, threat, _w6, climb = weights
    value = _colour_value(g1, g2, g3, dome, workers, occupied, seat, weights)
    value -= _colour_value(g1, g2, g3, dome, workers, occupied, 1 - seat, weights)
    if _climbs(g1, g2, g3, dome, workers, occupied, mover):
        value += climb if mover == seat else -climb
    athena = powers[2]
    held_own = athena >> (1 - seat) & up >> (1 - seat) & 1
    held_other = athena >> seat & up >> seat & 1
    mine = _god_threats(g1, g2, g3, dome, workers, occupied, seat, powers[seat], held_own)
    theirs = _god_threats(g1, g2, g3, dome, workers, occupied, 1 - seat, powers[1 - seat], held_other)
    return value + threat * (mine - theirs)


def _colour_value(
    g1: int, g2: int, g3: int, dome: int, workers: int, occupied: int, colour: int, weights: tuple[float, ...]
) -> float:
    """The weighted features of one colour's workers, but "threat to move"."""
    level_1, level_2, heights, steps, ups, tops, centre = 0, 0, 0, 0, 0, 0, 0
    free_tops = g3 & ~dome
    for index in range(2 * colour, 2 * colour + 2):
        cell = _cell(workers, index)
        if cell < 0:
            continue
        level = _height(g1, g2, g3, dome, cell)
        targets = _targets(g1, g2, g3, dome, occupied, cell)
        level_1 += level == 1
        level_2 += level == 2
        heights += _bits(targets & g1) + _bits(targets & g2) + _bits(targets & g3)
        steps += _bits(targets)
        if level < 3 and targets & _too_high(g1, g2, g3, dome, level):  # a step up
            ups += 1
        if level < 3 and targets & free_tops:
            tops += 1
        centre += 4 - abs(cell // 5 - 2) - abs(cell % 5 - 2)
    w0, w1, w2, w3, w4, w5, w6, _climb = weights
    return w0 * level_1 + w1 * level_2 + w2 * heights + w3 * steps + w4 * ups + w5 * tops + w6 * centre


def _climbs(g1: int, g2: int, g3: int, dome: int, workers: int, occupied: int, colour: int) -> bool:
    """Whether a worker of ``colour`` stands next to a free level 3 it may climb onto."""
    for index in range(2 * colour, 2 * colour + 2):
        cell = _cell(workers, index)
        if cell < 0 or _height(g1, g2, g3, dome, cell) == 3:
            continue
        if _targets(g1, g2, g3, dome, occupied, cell) & g3 & ~dome:
            return True
    return False


def _god_threats(
    g1: int, g2: int, g3: int, dome: int, workers: int, occupied: int, colour: int, flags: int, held: int
) -> int:
    """How many of ``colour``'s workers threaten a win by its power (``ai.god_threats``): none
    but Pan's while an opponent's Athena forbids moving up."""
    if held:
        flags &= PAN
    if not flags:
        return 0
    count = 0
    for index in range(2 * colour, 2 * colour + 2):
        cell = _cell(workers, index)
        if cell >= 0 and _threatens_by_power(g1, g2, g3, dome, workers, occupied, colour, flags, cell):
            count += 1
    return count


def _threatens_by_power(
    g1: int, g2: int, g3: int, dome: int, workers: int, occupied: int, colour: int, flags: int, cell: int
) -> bool:
    level = _height(g1, g2, g3, dome, cell)
    targets = _targets(g1, g2, g3, dome, occupied, cell)
    if flags & PAN and level >= 2:
        for target in range(25):
            if targets >> target & 1 and _height(g1, g2, g3, dome, target) <= level - 2:
                return True
    if flags & ARTEMIS and level == 1:
        for target in range(25):
            if not targets >> target & 1 or _height(g1, g2, g3, dome, target) != 2:
                continue
            if _targets(g1, g2, g3, dome, occupied & ~(1 << cell), target) & g3 & ~dome:
                return True
    if flags & (APOLLO | MINOTAUR) and level < 3:
        tops = _targets(g1, g2, g3, dome, 0, cell) & g3 & ~dome
        for index in range(4):
            other = _cell(workers, index)
            if index // 2 == colour or other < 0 or not tops >> other & 1:
                continue
            if flags & APOLLO:
                return True
            behind = STEPS[other][STEPS[cell].index(other)]
            if behind >= 0 and not (occupied | dome) >> behind & 1:
                return True
    return False


def _climb_threat(board: Packed, colour: int) -> bool:
    """Whether a worker of ``colour`` threatens to climb onto level 3 (``ai.threatens``)."""
    g1, g2, g3, dome, workers, _supply = board
    occupied = _occupied(workers)
    return _climbs(g1, g2, g3, dome, workers, occupied, colour)


def _power_threat(board: Packed, colour: int, powers: tuple[int, int, int], up: int) -> bool:
    """Whether a worker of ``colour`` threatens a win by its god's power (``ai.god_threats``)."""
    g1, g2, g3, dome, workers, _supply = board
    held = powers[2] >> (1 - colour) & up >> (1 - colour) & 1
    occupied = _occupied(workers)
    return _god_threats(g1, g2, g3, dome, workers, occupied, colour, powers[colour], held) > 0


class Node:
    """A position as the search keeps it: its table key (the board packed as the walk packs it, the
    memos, Athena's seats, the seat to move), the generator's outcome that led to it (None at the
    root), the winners when the turn won, the first guess of its value for the player who moved
    into it, and the engine's position, made when it is needed."""

    def __init__(
        self, key: tuple[Any, ...], outcome: Any, winners: Any, state: SantoriniState | None
    ) -> None:
        self.key = key
        self.outcome = outcome
        self.winners = winners
        self.state = state
        self.guess = 0.0


class GodsSearch:
    """One search from a two-player position with gods after the setup (a fresh table);
    ``pvs``, ``extend`` and ``reduce`` as ``Searcher``'s (``reduce`` with ``ai.quiet``)."""

    def __init__(
        self,
        root: SantoriniState,
        weights: tuple[float, ...],
        *,
        pvs: bool = True,
        extend: bool = True,
        reduce: bool = False,
    ) -> None:
        self.root = Node(_key_of(root), None, None, root)
        self.weights = weights
        self.pvs = pvs
        self.extend = extend
        self.reduce = reduce
        self.powers = threat_powers(root)
        self.names = root.powers.gods if root.powers is not None else ("", "")
        self.limited = root.supply is not None
        self.checked = tuple(self.limited or self.names[1 - seat] in RESTRICTING for seat in (0, 1))
        self.held = tuple(self.names[1 - seat] == "athena" for seat in (0, 1))
        self.table: dict[tuple[Any, ...], tuple[int, float, int, tuple[Any, ...] | None]] = {}
        self.children: dict[tuple[Any, ...], list[Node]] = {}
        self.nodes = 0
        self.root_depth = 0
        self.deadline = -1.0
        self.node_limit = -1
        self.improved: tuple[float, Node] | None = None

    def depth(self, depth: int, seconds: float, nodes: int) -> tuple[float, Any] | None:
        """Search ``depth`` plies within ``seconds`` (-1: no limit) and a node budget (-1: none):
        the score for the player to move and the best turn, or None when a limit stopped it."""
        self.deadline = -1.0 if seconds < 0 else time.perf_counter() + seconds
        self.node_limit = nodes
        self.root_depth = depth
        self.improved = None
        try:
            score = self.negamax(self.root, depth, -WIN - 1.0, WIN + 1.0, 0)
        except OutOfTime:
            return None
        self.improved = None
        line = self.principal_variation(1)
        return score, line[0]

    def interrupted(self) -> tuple[float, Any] | None:
        """After a depth that a limit stopped: the root's turn that its finished part found
        better than the turn searched first (the previous depth's best), with its score; else
        None."""
        if self.improved is None:
            return None
        score, child = self.improved
        return score, generator.turn_to(self.position(self.root), child.outcome)

    def principal_variation(self, plies: int) -> list[Any]:
        """The best turns from the root on, as the table has them."""
        line = []
        node = self.root
        for _ in range(plies):
            entry = self.table.get(node.key)
            known = self.children.get(node.key)
            if entry is None or known is None or node.winners is not None:
                break
            follow = [child for child in known if child.key == entry[3]]
            if not follow:
                break
            line.append(generator.turn_to(self.position(node), follow[0].outcome))
            node = follow[0]
        return line

    def negamax(self, node: Node, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``node`` for the player to move, in the window (alpha, beta)."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check_limits()
        if node.winners is not None:
            return WIN - ply if node.key[3] in node.winners else -(WIN - ply)
        if depth <= 0:
            return self._leaf(node, ply)
        entry = self.table.get(node.key)
        table_move = None
        if entry is not None:
            stored_depth, stored, flag, table_move = entry
            if stored_depth >= depth:
                value = from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        children = self._ordered(node, table_move)
        if not children:
            return -(WIN - ply)  # no legal turn: the player to move loses
        original_alpha, best_value, best_key = alpha, -WIN - 1.0, children[0].key
        for index, child in enumerate(children):
            value = self._child_value(node, child, index, depth, alpha, beta, ply)
            if value > best_value:
                best_value, best_key = value, child.key
                if ply == 0 and index > 0:
                    self.improved = (value, child)
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        flag = EXACT if original_alpha < best_value < beta else (LOWER if best_value >= beta else UPPER)
        self.table[node.key] = (depth, to_table(best_value, ply), flag, best_key)
        return best_value

    def _child_value(
        self, node: Node, child: Node, index: int, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """The value of ``child`` (the ``index``-th in order) for the player to move at ``node``,
        in the window (alpha, beta). With ``reduce``, a late turn into a position where no colour
        threatens to win is first searched a ply shallower with a null window, and in full
        only when it seems to raise alpha (as ``Searcher`` with ``ai.quiet``)."""
        if child.winners is not None:  # the turn ended the game: the same seat is to move
            self.nodes += 1
            return WIN - ply - 1 if node.key[3] in child.winners else -(WIN - ply - 1)
        child_depth = depth - 1 + self._extension(child, depth, ply)
        late = self.reduce and ply > 0 and index >= REDUCE_FROM and child_depth >= 1
        if late and not self._threatened(child):
            value = self._searched(child, child_depth - 1, alpha, alpha + 1.0, ply)
            if value <= alpha:
                return value
        if child_depth <= 0 or not (self.pvs and index > 0):
            return self._searched(child, child_depth, alpha, beta, ply)
        value = self._searched(child, child_depth, alpha, alpha + 1.0, ply)
        if alpha < value < beta:
            value = self._searched(child, child_depth, value, beta, ply)
        return value

    def _searched(self, child: Node, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``child`` searched ``depth`` plies for the player who moved into it, in
        that player's window (alpha, beta): its guess at depth 0, unless the player to move
        there may have no turn."""
        if depth <= 0 and not self._may_be_stuck(child):
            self.nodes += 1
            return child.guess  # the leaf's evaluation, made when the children were ordered
        return -self.negamax(child, depth, -beta, -alpha, ply + 1)

    def _threatened(self, child: Node) -> bool:
        """Whether a colour at ``child``, the one to move included, threatens to win next turn
        by a climb or its god's power (``ai.quiet`` is the contrary)."""
        board, up = child.key[0], child.key[2]
        for colour in (0, 1):
            if _climb_threat(board, colour) or _power_threat(board, colour, self.powers, up):
                return True
        return False

    def _leaf(self, node: Node, ply: int) -> float:
        """The evaluation, or a loss when the player to move has no turn."""
        if self._may_be_stuck(node) and not generator.has_turn(self.position(node)):
            return -(WIN - ply)
        key = node.key
        return packed_value(key[0], key[3], key[3], self.weights, self.powers, key[2])

    def _may_be_stuck(self, node: Node) -> bool:
        """Whether the player to move might have no turn: an opponent's power or a finite supply
        may take them all, or their workers have at most two plain steps (steps that do not go
        up while an opponent's Athena forbids it)."""
        mover = node.key[3]
        if self.checked[mover]:
            return True
        g1, g2, g3, dome, workers, _supply = node.key[0]
        occupied = _occupied(workers)
        no_climb = self.held[mover] and node.key[2] >> (1 - mover) & 1
        steps = 0
        for index in range(2 * mover, 2 * mover + 2):
            cell = _cell(workers, index)
            if cell >= 0:
                targets = _targets(g1, g2, g3, dome, occupied, cell)
                if no_climb:
                    targets &= ~_too_high(g1, g2, g3, dome, _height(g1, g2, g3, dome, cell))
                steps += _bits(targets)
        return steps <= 2

    def _extension(self, child: Node, depth: int, ply: int) -> int:
        """One more ply when the mover threatens to win (a climb or its god's power), within twice
        the iteration's depth."""
        if not self.extend or child.winners is not None or ply + depth >= 2 * self.root_depth:
            return 0
        mover = 1 - child.key[3]
        if _climb_threat(child.key[0], mover):
            return 1
        return 1 if _power_threat(child.key[0], mover, self.powers, child.key[2]) else 0

    def _ordered(self, node: Node, table_move: Any) -> list[Node]:
        """The children, the table's best first, then by the mover's evaluation (wins first)."""
        children = self.children.get(node.key)
        if children is None:
            self._check_limits()  # an expansion is the costly step
            children = self._expand(node)
            if len(self.children) >= KEPT_EXPANSIONS:
                self._forget_children()
            self.children[node.key] = children
        first = [child for child in children if child.key == table_move]
        rest = [child for child in children if child.key != table_move]
        return first + rest

    def _expand(self, node: Node) -> list[Node]:
        """The distinct outcomes of the turns of the player to move, best guess first."""
        _walk, lines = generator.outcome_lines(self.position(node))
        seat = node.key[3]
        seen: set[Any] = set()
        children = []
        for _actions, outcome in lines:
            if outcome in seen:
                continue
            seen.add(outcome)
            packed, memos, up, winners = outcome
            turn = seat if winners is not None else 1 - seat
            child = Node((packed, memos, up, turn), outcome, winners, None)
            if winners is not None:
                child.guess = WIN if seat in winners else -WIN
            else:
                child.guess = -packed_value(packed, turn, turn, self.weights, self.powers, up)
            children.append(child)
        children.sort(key=_guess, reverse=True)
        return children

    def position(self, node: Node) -> SantoriniState:
        """The engine's position of ``node``."""
        if node.state is None:
            packed, memos, up, turn = node.key
            g1, g2, g3, dome, workers, supply = packed
            cells = (_cell(workers, 0), _cell(workers, 1), _cell(workers, 2), _cell(workers, 3))
            pieces = None
            if self.limited:
                pieces = (supply & 255, supply >> 8 & 255, supply >> 16 & 255, supply >> 24 & 255)
            powers = Powers(self.names, memos, up)
            node.state = SantoriniState._make(
                2, (g1, g2, g3, dome), cells, turn, pieces, 0, node.winners, powers
            )
        return node.state

    def _forget_children(self) -> None:
        """Forget the children of every position but the root."""
        root = self.children.get(self.root.key)
        self.children.clear()
        if root is not None:
            self.children[self.root.key] = root

    def _check_limits(self) -> None:
        if self.deadline >= 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.node_limit >= 0 and self.nodes >= self.node_limit:
            raise OutOfTime


def _guess(child: Node) -> float:
    return child.guess


def _key_of(state: SantoriniState) -> tuple[Any, ...]:
    """The table key of a position: the board packed as the walk packs it, the memos, Athena's
    seats and the seat to move."""
    g1, g2, g3, dome = state.levels
    workers = 0
    for index, cell in enumerate(state.workers):
        workers |= (cell + 2) << 5 * index
    supply = 0
    for level, pieces in enumerate(state.supply or ()):
        supply |= pieces << 8 * level
    powers = state.powers
    memos = powers.memos if powers is not None else ("", "")
    up = powers.up if powers is not None else 0
    return ((g1, g2, g3, dome, workers, supply), memos, up, state.turn)
