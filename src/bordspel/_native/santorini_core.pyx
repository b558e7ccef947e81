# cython: language_level=3
"""Santorini in C: move generation, perft and random games on bitboards of the 25 squares.

The board rules (steps, builds, the win) are ``santorini_board.pxd``'s, the twin of
:mod:`bordspel.games.santorini.board`; :func:`board_rules` gives its constants and rules for the
test that holds them equal. The compiled twin of :mod:`bordspel.games.santorini.engine`: the same
legal moves in the same order (workers in order, targets and builds by rising square), the same
setup, climbing, win, elimination (three players), team (four players) and supply rules. Random
games draw from the SplitMix64 generator exactly as :mod:`bordspel.games.santorini.batch` does, so a
seed plays the same games compiled and pure.

Positions come in as :class:`~bordspel.games.santorini.engine.SantoriniState` objects (read by attribute).
Moves come out as tuples: ``(first, second)`` for a setup placement, ``(source, target, build)``
for a turn, ``build`` ``None`` for a winning climb.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from bordspel._native.santorini_board cimport (
    CELLS,
    DOME,
    FULL,
    MAX_CLIMB,
    NEIGHBOURS,
    SIZE,
    WIN_LEVEL,
    exact_level,
    free_cells,
    height,
    is_winning_move,
    move_targets,
    winning_steps,
)


cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int x) nogil
    int lowest "__builtin_ctz"(unsigned int x) nogil


cdef enum:
    MAX_TURNS = 16  # two workers, eight targets each
    MAX_PLIES = 128  # a game ends before 25 towers x 4 pieces + setup


cdef struct Pos:
    uint32_t lv[4]  # cumulative levels: >= 1, >= 2, >= 3 blocks, dome
    int8_t w[8]  # worker cells, -1 off the board; colour k owns 2k and 2k + 1
    int32_t supply[4]  # pieces left per level (finite supply only)
    int32_t finite, players, colours, turn, out, winners  # winners: a seat mask, -1 while playing


cdef struct Turns:
    int n
    int8_t source[MAX_TURNS]
    int8_t target[MAX_TURNS]
    int8_t wins[MAX_TURNS]
    uint32_t builds[MAX_TURNS]


# -- reading a position ---------------------------------------------------------------------
cdef Pos _read(object state) except *:
    cdef Pos p
    cdef int i
    levels = state.levels
    for i in range(4):
        p.lv[i] = levels[i]
    workers = state.workers
    for i in range(8):
        p.w[i] = workers[i] if i < len(workers) else -1
    supply = state.supply
    p.finite = supply is not None
    for i in range(4):
        p.supply[i] = supply[i] if p.finite else 0
    p.players = state.players
    p.colours = 2 if p.players == 4 else p.players
    p.turn = state.turn
    p.out = state.out
    winners = state.winners
    p.winners = -1 if winners is None else sum(1 << seat for seat in winners)
    return p


# -- rules ----------------------------------------------------------------------------------
def board_rules():
    """The board's constants and rules as compiled: the neighbours of each cell, and for each
    pair of heights whether a worker may step from one to the other and whether that step wins
    (``tests/test_native_santorini.py`` holds them equal to ``bordspel.games.santorini.board``)."""
    cdef uint32_t lv[4]
    cdef int before, after, level
    steps, wins = [], []
    for before in range(DOME + 1):
        for after in range(DOME + 1):
            for level in range(4):  # cell 0 at height ``before``, cell 1 at ``after``
                lv[level] = (before > level) | (after > level) << 1
            lv[3] = (before == DOME) | (after == DOME) << 1
            steps.append(bool(move_targets(lv, 0, 0) >> 1 & 1))
            wins.append(is_winning_move(before, after))
    return {
        "SIZE": SIZE,
        "CELLS": CELLS,
        "MAX_CLIMB": MAX_CLIMB,
        "WIN_LEVEL": WIN_LEVEL,
        "DOME": DOME,
        "NEIGHBOURS": tuple(NEIGHBOURS[cell] for cell in range(CELLS)),
        "steps": steps,
        "wins": wins,
    }


cdef inline uint32_t _occupied(const Pos* p) noexcept nogil:
    cdef uint32_t mask = 0
    cdef int i
    for i in range(2 * p.colours):
        if p.w[i] >= 0:
            mask |= 1u << p.w[i]
    return mask


cdef inline bint _in_setup(const Pos* p) noexcept nogil:
    return p.winners < 0 and p.w[2 * (p.turn % p.colours)] < 0


cdef uint32_t _buildable(const Pos* p) noexcept nogil:
    """Cells without a dome whose next piece is still in the supply."""
    cdef uint32_t mask = FULL & ~p.lv[3]
    cdef int level
    if p.finite:
        for level in range(4):
            if p.supply[level] <= 0:
                mask &= ~exact_level(p.lv, level)
    return mask


cdef void _turns(const Pos* p, Turns* t) noexcept nogil:
    """Every (worker, target) of the player to move with its build mask, in engine order."""
    cdef int colour = p.turn % p.colours
    cdef uint32_t occupied = _occupied(p), buildable = _buildable(p)
    cdef uint32_t free, targets, wins
    cdef int k, source, target
    t.n = 0
    for k in range(2):
        source = p.w[2 * colour + k]
        if source < 0:
            continue
        targets = move_targets(p.lv, occupied, source)
        wins = winning_steps(p.lv, source, targets)
        free = free_cells(p.lv, occupied ^ (1u << source)) & buildable  # the worker has left
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            t.source[t.n] = source
            t.target[t.n] = target
            t.wins[t.n] = wins >> target & 1
            t.builds[t.n] = 0 if t.wins[t.n] else NEIGHBOURS[target] & free
            t.n += 1


cdef inline int _weight(const Turns* t, int i) noexcept nogil:
    return 1 if t.wins[i] else popcount(t.builds[i])


cdef int _count_turns(const Turns* t) noexcept nogil:
    cdef int i, total = 0
    for i in range(t.n):
        total += _weight(t, i)
    return total


cdef uint32_t _placeable(const Pos* p) noexcept nogil:
    """The cells a setup placement may use: no worker, no level-3 tower, no dome."""
    return FULL & ~_occupied(p) & ~p.lv[2]


cdef int _count_moves(const Pos* p) noexcept nogil:
    cdef Turns t
    cdef int empty
    if p.winners >= 0:
        return 0
    if _in_setup(p):
        empty = popcount(_placeable(p))
        return empty * (empty - 1) // 2
    _turns(p, &t)
    return _count_turns(&t)


cdef bint _has_turn(const Pos* p) noexcept nogil:
    cdef Turns t
    cdef int colour = p.turn % p.colours, k, source, i
    cdef uint32_t occupied
    if _in_setup(p):
        return popcount(_placeable(p)) >= 2
    if not p.finite:  # after any move the worker can build where it stood
        occupied = _occupied(p)
        for k in range(2):
            source = p.w[2 * colour + k]
            if source >= 0 and move_targets(p.lv, occupied, source):
                return True
        return False
    _turns(p, &t)
    for i in range(t.n):
        if t.wins[i] or t.builds[i]:
            return True
    return False


cdef inline int _team(const Pos* p, int seat) noexcept nogil:
    cdef int s, mask = 0
    for s in range(p.players):
        if s % p.colours == seat % p.colours:
            mask |= 1 << s
    return mask


cdef int _next_seat(const Pos* p, int seat) noexcept nogil:
    cdef int offset, following
    for offset in range(1, p.players + 1):
        following = (seat + offset) % p.players
        if not p.out >> following & 1:
            return following
    return seat


cdef void _settle(Pos* p) noexcept nogil:
    """End the game, or take out players who cannot move (three players), as the rules say."""
    cdef int everyone = (1 << p.players) - 1, colour
    while not _has_turn(p):
        if p.players != 3:
            p.winners = everyone & ~_team(p, p.turn)
            return
        colour = p.turn % p.colours
        p.w[2 * colour] = p.w[2 * colour + 1] = -1
        p.out |= 1 << p.turn
        if popcount(everyone & ~p.out) == 1:
            p.winners = everyone & ~p.out
            return
        p.turn = _next_seat(p, p.turn)


cdef void _place(Pos* p, int first, int second) noexcept nogil:
    cdef int colour = p.turn % p.colours
    p.w[2 * colour] = first
    p.w[2 * colour + 1] = second
    p.turn = p.turn + 1 if p.turn + 1 < p.colours else 0
    _settle(p)


cdef void _play_turn(Pos* p, int source, int target, int build) noexcept nogil:
    """Move ``source`` to ``target`` and build on ``build`` (-1: the move climbed and won)."""
    cdef int i, level
    for i in range(2 * p.colours):
        if p.w[i] == source:
            p.w[i] = target
            break
    if build < 0:
        p.winners = _team(p, p.turn)
        return
    level = height(p.lv, build)
    if p.finite:
        p.supply[level] -= 1
    p.lv[level] |= 1u << build  # never a dome: domes are not buildable
    p.turn = _next_seat(p, p.turn) if p.out else (p.turn + 1) % p.players
    _settle(p)


# -- perft ----------------------------------------------------------------------------------
cdef uint64_t _perft(const Pos* p, int depth) noexcept nogil:
    cdef Turns t
    cdef Pos child
    cdef uint64_t total = 0
    cdef uint32_t empty, rest, builds
    cdef int first, i
    if depth == 1:
        return _count_moves(p)
    if p.winners >= 0:
        return 0
    if _in_setup(p):
        empty = _placeable(p)
        while empty:
            first = lowest(empty)
            empty &= empty - 1
            rest = empty
            while rest:
                child = p[0]
                _place(&child, first, lowest(rest))
                rest &= rest - 1
                total += _perft(&child, depth - 1)
        return total
    _turns(p, &t)
    for i in range(t.n):
        if t.wins[i]:  # the game is over: no move sequence goes on from it
            continue
        builds = t.builds[i]
        while builds:
            child = p[0]
            _play_turn(&child, t.source[i], t.target[i], lowest(builds))
            builds &= builds - 1
            total += _perft(&child, depth - 1)
    return total


def perft(state, int depth):
    """The number of move sequences of length ``depth`` (at least 1) from ``state``."""
    cdef Pos p = _read(state)
    return _perft(&p, depth)


def count_moves(state):
    """The number of legal moves in ``state``."""
    cdef Pos p = _read(state)
    return _count_moves(&p)


def legal_moves(state):
    """The legal moves as tuples, in the pure engine's order."""
    cdef Pos p = _read(state)
    cdef Turns t
    cdef uint32_t empty, rest, builds
    cdef int first, i
    moves = []
    if p.winners >= 0:
        return moves
    if _in_setup(&p):
        empty = _placeable(&p)
        while empty:
            first = lowest(empty)
            empty &= empty - 1
            rest = empty
            while rest:
                moves.append((first, lowest(rest)))
                rest &= rest - 1
        return moves
    _turns(&p, &t)
    for i in range(t.n):
        if t.wins[i]:
            moves.append((t.source[i], t.target[i], None))
        builds = t.builds[i]
        while builds:
            moves.append((t.source[i], t.target[i], lowest(builds)))
            builds &= builds - 1
    return moves


# -- random games ---------------------------------------------------------------------------
cdef inline uint64_t _next(uint64_t* seed) noexcept nogil:
    """SplitMix64 (Steele, Lea and Flood)."""
    cdef uint64_t z
    seed[0] += 0x9E3779B97F4A7C15ULL
    z = seed[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int _below(uint64_t* seed, int n) noexcept nogil:
    """A number in ``range(n)`` from the top 32 bits of the next draw."""
    return <int>(((_next(seed) >> 32) * <uint64_t>n) >> 32)


cdef int _random_placement(Pos* p, uint64_t* seed) noexcept nogil:
    """Play the ``k``-th placement (the engine's order) for a random ``k``; its code."""
    cdef uint32_t empty = _placeable(p), rest
    cdef int count = popcount(empty), pick = _below(seed, count * (count - 1) // 2), first, second
    while True:
        first = lowest(empty)
        empty &= empty - 1
        count -= 1
        if pick < count:
            break
        pick -= count
    rest = empty
    while pick:
        rest &= rest - 1
        pick -= 1
    second = lowest(rest)
    _place(p, first, second)
    return first | second << 5 | 1 << 15


cdef int _random_turn(Pos* p, uint64_t* seed) noexcept nogil:
    """Play the ``k``-th turn (the engine's order) for a random ``k``; its code."""
    cdef Turns t
    cdef int i, pick, build
    cdef uint32_t builds
    _turns(p, &t)
    pick = _below(seed, _count_turns(&t))
    i = 0
    while pick >= _weight(&t, i):
        pick -= _weight(&t, i)
        i += 1
    build = -1
    if not t.wins[i]:
        builds = t.builds[i]
        while pick:
            builds &= builds - 1
            pick -= 1
        build = lowest(builds)
    _play_turn(p, t.source[i], t.target[i], build)
    return t.source[i] | t.target[i] << 5 | (build & 31) << 10


cdef int _random_game(Pos* p, uint64_t* seed, int* record) noexcept nogil:
    """Play uniformly random moves to the end; the number of plies (codes into ``record``)."""
    cdef int plies = 0, code
    while p.winners < 0:
        code = _random_placement(p, seed) if _in_setup(p) else _random_turn(p, seed)
        if record != NULL and plies < MAX_PLIES:
            record[plies] = code
        plies += 1
    return plies


def random_games(state, long n, uint64_t seed):
    """Play ``n`` random games from ``state``: (the winners' seat mask per game, total plies)."""
    cdef Pos start = _read(state), p
    cdef long game, plies = 0
    winners = []
    for game in range(n):
        p = start
        plies += _random_game(&p, &seed, NULL)
        winners.append(p.winners)
    return winners, plies


def random_game_moves(state, uint64_t seed):
    """One random game as ``random_games(state, 1, seed)`` plays it: (its moves, winners' mask)."""
    cdef Pos p = _read(state)
    cdef int record[MAX_PLIES]
    cdef int plies = _random_game(&p, &seed, record), i, code
    moves = []
    for i in range(min(plies, MAX_PLIES)):
        code = record[i]
        if code >> 15:
            moves.append((code & 31, code >> 5 & 31))
        else:
            moves.append((code & 31, code >> 5 & 31, None if code >> 10 & 31 == 31 else code >> 10 & 31))
    return moves, p.winners


# -- alpha-beta search ----------------------------------------------------------------------
# Two players without gods, after the setup: negamax with principal-variation search, a table
# keyed on Zobrist hashes, killer and history moves, an extension for climbing threats, and the
# fitted linear evaluation (bordspel.games.santorini.evaluation). Scores are those of
# bordspel.ai.search: a win k plies away WIN - k, a loss -(WIN - k), else the evaluation of the
# player to move. At a fixed depth without extensions it returns the same values as the pure
# Searcher with the same evaluation (tests/test_native_santorini_search.py).

from libc.stdlib cimport calloc, free
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef enum:
    MAX_MOVES = 128  # 16 (worker, target) pairs x 8 builds
    MAX_PLY = 64
    FEATURE_COUNT = 8
    NO_MOVE = 0xFFFF
    EXACT = 0
    LOWER = 1
    UPPER = 2

cdef double WIN = 1000000.0
cdef double DECISIVE = WIN - 1000.0
cdef int CENTRE[CELLS]
cdef uint64_t ZOBRIST_LEVELS[4][4][256]
cdef uint64_t ZOBRIST_WORKERS[2][CELLS]
cdef uint64_t ZOBRIST_TURN[4]


cdef void _init_search_tables():
    cdef uint64_t seed = 0x5A7
    cdef int i, j, k
    for i in range(CELLS):
        CENTRE[i] = 4 - abs(i // SIZE - 2) - abs(i % SIZE - 2)
    for i in range(4):
        ZOBRIST_TURN[i] = _next(&seed)
        for j in range(4):
            for k in range(256):
                ZOBRIST_LEVELS[i][j][k] = _next(&seed)
    for i in range(2):
        for j in range(CELLS):
            ZOBRIST_WORKERS[i][j] = _next(&seed)


_init_search_tables()


cdef struct Entry:
    uint64_t key
    double score
    int16_t depth
    uint8_t flag
    uint16_t move


cdef struct Moves:
    int n
    uint16_t move[MAX_MOVES]
    int score[MAX_MOVES]


cdef inline uint64_t _zobrist(const Pos* p) noexcept nogil:
    """The towers a byte at a time, the workers by colour (a colour's two are alike), the turn
    and the supply."""
    cdef uint64_t key = ZOBRIST_TURN[p.turn & 3]
    cdef int i, b
    for i in range(4):
        for b in range(4):
            key ^= ZOBRIST_LEVELS[i][b][p.lv[i] >> (8 * b) & 255]
    for i in range(4):
        if p.w[i] >= 0:
            key ^= ZOBRIST_WORKERS[i >> 1][p.w[i]]
    if p.finite:
        key ^= (<uint64_t>p.supply[0] | <uint64_t>p.supply[1] << 8 | <uint64_t>p.supply[2] << 16
                | <uint64_t>p.supply[3] << 24) * 0x9E3779B97F4A7C15ULL
    return key


cdef void _colour_features(const Pos* p, int colour, uint32_t occupied, double* counts) noexcept nogil:
    """The seven counts of one colour, as ``evaluation._colour_features`` has them."""
    cdef uint32_t targets, higher
    cdef int k, cell, level
    for k in range(FEATURE_COUNT - 1):
        counts[k] = 0.0
    for k in range(2):
        cell = p.w[2 * colour + k]
        if cell < 0:
            continue
        level = height(p.lv, cell)
        targets = move_targets(p.lv, occupied, cell)
        if level:
            counts[level - 1] += 1
        counts[2] += popcount(targets & p.lv[0]) + popcount(targets & p.lv[1]) + popcount(targets & p.lv[2])
        counts[3] += popcount(targets)
        if level < 3:
            higher = p.lv[level]
            counts[4] += (targets & higher) != 0
        counts[5] += winning_steps(p.lv, cell, targets) != 0
        counts[6] += CENTRE[cell]


cdef double _evaluate(const Pos* p, const double* weights) noexcept nogil:
    """The linear evaluation for the player to move (two colours)."""
    cdef double mine[FEATURE_COUNT - 1]
    cdef double theirs[FEATURE_COUNT - 1]
    cdef uint32_t occupied = _occupied(p)
    cdef int colour = p.turn % p.colours, k
    cdef double total = 0.0
    _colour_features(p, colour, occupied, mine)
    _colour_features(p, 1 - colour, occupied, theirs)
    for k in range(FEATURE_COUNT - 1):
        total += weights[k] * (mine[k] - theirs[k])
    return total + weights[FEATURE_COUNT - 1] * (1.0 if mine[5] else 0.0)


cdef bint _threatened(const Pos* p) noexcept nogil:
    """A worker of the colour not to move on level 2 next to a free level 3 (``ai.threatens``)."""
    cdef uint32_t occupied = _occupied(p)
    cdef int rival = 1 - p.turn % p.colours, k, cell
    if p.winners >= 0:
        return False
    for k in range(2):
        cell = p.w[2 * rival + k]
        if cell >= 0 and winning_steps(p.lv, cell, move_targets(p.lv, occupied, cell)):
            return True
    return False


cdef inline double _to_table(double value, int ply) noexcept nogil:
    if value >= DECISIVE:
        return value + ply
    if value <= -DECISIVE:
        return value - ply
    return value


cdef inline double _from_table(double value, int ply) noexcept nogil:
    if value >= DECISIVE:
        return value - ply
    if value <= -DECISIVE:
        return value + ply
    return value


cdef inline void _play_code(Pos* p, int code) noexcept nogil:
    cdef int build = code >> 10 & 31
    _play_turn(p, code & 31, code >> 5 & 31, -1 if build == 31 else build)


cdef bint _is_turn(const Pos* p, int code) noexcept nogil:
    """Whether ``code`` is a legal turn with a build in ``p`` (a table move is checked before
    it is played: keys can collide)."""
    cdef Turns t
    cdef int i, build = code >> 10 & 31
    _turns(p, &t)
    for i in range(t.n):
        if t.source[i] == (code & 31) and t.target[i] == (code >> 5 & 31):
            return t.wins[i] if build == 31 else build < 25 and t.builds[i] >> build & 1
    return False


cdef inline object _move_tuple(int code):
    cdef int build = code >> 10 & 31
    return (code & 31, code >> 5 & 31, None if build == 31 else build)


cdef inline double _seconds() noexcept nogil:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


cdef class Search:
    """One search from a root position (two players, no gods, setup over), its table kept from
    depth to depth: ``depth(d, seconds, nodes)`` searches to depth ``d``."""

    cdef Pos root
    cdef Entry* table
    cdef uint64_t mask
    cdef double weights[FEATURE_COUNT]
    cdef int history[1 << 15]
    cdef uint16_t killers[MAX_PLY][2]
    cdef bint pvs, extend, stopped
    cdef int root_depth, root_move
    cdef readonly long long nodes
    cdef long long max_nodes
    cdef double deadline

    def __cinit__(self, state, weights, int table_bits=20, bint pvs=True, bint extend=True):
        cdef int k
        self.root = _read(state)
        if self.root.players != 2 or self.root.winners >= 0 or _in_setup(&self.root):
            raise ValueError("the compiled search takes two-player positions after the setup, unfinished")
        if len(weights) != FEATURE_COUNT:
            raise ValueError(f"the evaluation has {FEATURE_COUNT} weights")
        for k in range(FEATURE_COUNT):
            self.weights[k] = weights[k]
        self.table = <Entry*>calloc(<size_t>1 << table_bits, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError("no memory for the search's table")
        self.mask = (<uint64_t>1 << table_bits) - 1
        self.pvs, self.extend = pvs, extend
        self.nodes = 0
        for k in range(MAX_PLY):
            self.killers[k][0] = self.killers[k][1] = NO_MOVE

    def __dealloc__(self):
        free(self.table)

    def depth(self, int depth, double seconds=-1.0, long long nodes=-1):
        """(score, best move) at ``depth`` for the player to move, or None when ``seconds`` or
        the total of ``nodes`` ran out first."""
        cdef double score
        self.deadline = _seconds() + seconds if seconds >= 0 else -1.0
        self.max_nodes = nodes
        self.stopped = False
        self.root_depth = depth
        self.root_move = NO_MOVE
        with nogil:
            score = self._negamax(&self.root, depth, -WIN - 1, WIN + 1, 0)
        if self.stopped or self.root_move == NO_MOVE:
            return None
        return score, _move_tuple(self.root_move)

    def principal_variation(self, int length):
        """The best line from the root, read from the table."""
        cdef Pos p = self.root
        cdef Entry* entry
        line = []
        while len(line) < length and p.winners < 0:
            entry = &self.table[_zobrist(&p) & self.mask]
            if entry.key != _zobrist(&p) or not _is_turn(&p, entry.move):
                break
            line.append(_move_tuple(entry.move))
            _play_code(&p, entry.move)
        return line

    cdef bint _out_of_budget(self) noexcept nogil:
        if self.max_nodes >= 0 and self.nodes >= self.max_nodes:
            self.stopped = True
        elif self.deadline >= 0 and (self.nodes & 1023) == 0 and _seconds() > self.deadline:
            self.stopped = True
        return self.stopped

    cdef void _generate(self, const Pos* p, Moves* m, int table_move, int ply) noexcept nogil:
        """Every turn with an ordering score: the table move, killers, climbs, history."""
        cdef Turns t
        cdef uint32_t builds
        cdef int i, code, build, score, rise
        _turns(p, &t)
        m.n = 0
        for i in range(t.n):
            rise = height(p.lv, t.target[i]) - height(p.lv, t.source[i])
            builds = t.builds[i]
            while builds:
                build = lowest(builds)
                builds &= builds - 1
                code = t.source[i] | t.target[i] << 5 | build << 10
                if code == table_move:
                    score = 1 << 30
                elif code == self.killers[ply][0]:
                    score = (1 << 29) + 1
                elif code == self.killers[ply][1]:
                    score = 1 << 29
                else:
                    score = self.history[code] + 1000 * rise
                m.move[m.n] = code
                m.score[m.n] = score
                m.n += 1

    cdef double _negamax(self, Pos* p, int depth, double alpha, double beta, int ply) noexcept nogil:
        cdef Turns t
        cdef Moves m
        cdef Pos child
        cdef Entry* entry
        cdef uint64_t key
        cdef int i, j, pick, table_move = NO_MOVE, best_move = NO_MOVE, child_depth, flag
        cdef double value, best = -WIN - 1, original_alpha = alpha
        cdef bint same
        self.nodes += 1
        if self._out_of_budget():
            return 0.0
        if p.winners >= 0:
            return WIN - ply if p.winners >> p.turn & 1 else -(WIN - ply)
        if depth <= 0 or ply >= MAX_PLY - 1:
            return _evaluate(p, self.weights)
        key = _zobrist(p)
        entry = &self.table[key & self.mask]
        _turns(p, &t)
        for i in range(t.n):  # a climb onto level 3 wins at once: nothing scores higher
            if t.wins[i]:
                best_move = t.source[i] | t.target[i] << 5 | 31 << 10
                if ply == 0:
                    self.root_move = best_move
                entry.key, entry.score, entry.depth = key, _to_table(WIN - ply - 1, ply), MAX_PLY
                entry.flag, entry.move = EXACT, best_move
                return WIN - ply - 1
        if entry.key == key:
            table_move = entry.move
            if entry.depth >= depth and ply > 0:
                value = _from_table(entry.score, ply)
                if (entry.flag == EXACT or (entry.flag == LOWER and value >= beta)
                        or (entry.flag == UPPER and value <= alpha)):
                    return value
        self._generate(p, &m, table_move, ply)
        for i in range(m.n):
            pick = i
            for j in range(i + 1, m.n):
                if m.score[j] > m.score[pick]:
                    pick = j
            m.move[i], m.move[pick] = m.move[pick], m.move[i]
            m.score[i], m.score[pick] = m.score[pick], m.score[i]
            child = p[0]
            _play_code(&child, m.move[i])
            child_depth = depth - 1
            if self.extend and ply + depth < 2 * self.root_depth and _threatened(&child):
                child_depth += 1
            same = child.turn % child.colours == p.turn % p.colours
            if self.pvs and i > 0:
                value = self._child(&child, child_depth, alpha, alpha + 1, ply, same)
                if alpha < value < beta:
                    value = self._child(&child, child_depth, value, beta, ply, same)
            else:
                value = self._child(&child, child_depth, alpha, beta, ply, same)
            if self.stopped:
                return 0.0
            if value > best:
                best, best_move = value, m.move[i]
            if value > alpha:
                alpha = value
            if alpha >= beta:
                self._remember_cut(m.move[i], depth, ply)
                break
        if ply == 0:
            self.root_move = best_move
        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        entry.key, entry.score, entry.depth = key, _to_table(best, ply), depth
        entry.flag, entry.move = flag, best_move
        return best

    cdef double _child(self, Pos* child, int depth, double alpha, double beta, int ply, bint same) noexcept nogil:
        if same:
            return self._negamax(child, depth, alpha, beta, ply + 1)
        return -self._negamax(child, depth, -beta, -alpha, ply + 1)

    cdef void _remember_cut(self, int move, int depth, int ply) noexcept nogil:
        cdef int code
        if self.killers[ply][0] != move:
            self.killers[ply][1] = self.killers[ply][0]
            self.killers[ply][0] = move
        self.history[move] += depth * depth
        if self.history[move] > (1 << 28):
            for code in range(1 << 15):
                self.history[code] >>= 1


def move_values(state, weights):
    """The evaluation after each legal turn (``legal_moves`` order) for the player making it,
    ``WIN`` for a winning climb: MCTS's move priors (two colours, after the setup)."""
    cdef Pos p = _read(state), child
    cdef Turns t
    cdef double w[FEATURE_COUNT]
    cdef uint32_t builds
    cdef int i, k
    if p.colours != 2 or p.winners >= 0 or _in_setup(&p):
        raise ValueError("move values take unfinished two-colour positions after the setup")
    for k in range(FEATURE_COUNT):
        w[k] = weights[k]
    values = []
    _turns(&p, &t)
    for i in range(t.n):
        if t.wins[i]:
            values.append(WIN)
        builds = t.builds[i]
        while builds:
            child = p
            _play_turn(&child, t.source[i], t.target[i], lowest(builds))
            builds &= builds - 1
            if child.winners >= 0:
                values.append(WIN if child.winners >> p.turn & 1 else -WIN)
            elif child.turn % child.colours == p.turn % p.colours:
                values.append(_evaluate(&child, w))
            else:
                values.append(-_evaluate(&child, w))
    return values


# -- batched environments -------------------------------------------------------------------
# ``bordspel.rl.vector``'s Santorini without gods: N games stepped in one call, observations and
# masks written into the caller's arrays (the planes and actions of
# ``bordspel.games.santorini.codec``). The directions are those of the rules' ``STEPS``.

from libc.string cimport memset

from bordspel.games.santorini.board import STEPS as _STEPS

cdef enum:
    ACTIONS = 444
    TURN_ACTIONS = 300
    WIN_ACTIONS = 428
    MAX_PLANES = 9  # five heights, up to three colours, the setup

cdef int8_t STEP[CELLS][8]
"""``STEP[cell][d]``: the neighbour in direction ``d``, -1 off the board."""
cdef int8_t DIRECTION[CELLS][CELLS]
"""``DIRECTION[a][b]``: the direction from ``a`` to its neighbour ``b``, -1 when not next to it."""
cdef int16_t PAIR[CELLS][CELLS]
"""``PAIR[a][b]`` (``a < b``): the setup action of workers on ``a`` and ``b``."""
cdef int8_t PAIR_CELLS[TURN_ACTIONS][2]


cdef void _fill_vector_tables() except *:
    cdef int a, b, d, index = 0
    memset(DIRECTION, -1, sizeof(DIRECTION))
    for a in range(CELLS):
        for d in range(8):
            STEP[a][d] = _STEPS[a][d]
            if STEP[a][d] >= 0:
                DIRECTION[a][STEP[a][d]] = d
        for b in range(a + 1, CELLS):
            PAIR[a][b] = index
            PAIR_CELLS[index][0], PAIR_CELLS[index][1] = a, b
            index += 1


_fill_vector_tables()


include "vector_batch.pxi"


cdef class Batch(VectorBatch):
    """N Santorini games without gods for ``bordspel.rl.vector`` (see ``vector_batch.pxi``); the
    greedy opponent uses the linear evaluation of ``weights`` (two colours)."""

    cdef Pos start
    cdef Pos* games
    cdef double weights[FEATURE_COUNT]
    cdef int planes

    def __cinit__(self, state, int n, int seat, int opponent, weights):
        cdef int k
        self.start = _read(state)
        self.planes = 5 + self.start.colours + 1
        if opponent and (self.start.colours != 2 or len(weights) != FEATURE_COUNT):
            raise ValueError(f"the compiled greedy player takes two colours and {FEATURE_COUNT} weights")
        for k in range(FEATURE_COUNT):
            self.weights[k] = weights[k] if opponent else 0.0
        self.games = <Pos*>calloc(n, sizeof(Pos))
        if not self.games:
            raise MemoryError("no memory for the batch of Santorini games")
        self._allocate(n, seat, opponent, ACTIONS)

    def __dealloc__(self):
        free(self.games)

    def copy_games(self, Batch source, const int64_t[::1] rows, const int64_t[::1] into):
        """Copy game ``rows[k]`` of ``source`` (a Santorini batch) into game ``into[k]`` of this
        one, for every ``k``: its position, random stream and legal actions (what a tree search
        needs to keep and restore positions; ``source`` may be this batch)."""
        cdef int k
        if source.planes != self.planes:
            raise TypeError("games are copied between batches of the same number of players")
        self._copy_rows(source, rows, into)
        for k in range(rows.shape[0]):
            self.games[into[k]] = source.games[rows[k]]

    cdef void _start(self, int i) noexcept nogil:
        self.games[i] = self.start

    cdef int _to_move(self, int i) noexcept nogil:
        return self.games[i].turn

    cdef void _play(self, int i, int action) noexcept nogil:
        _play_action(&self.games[i], action)

    cdef int _result(self, int i, int seat) noexcept nogil:
        if self.games[i].winners < 0:
            return ONGOING
        return 1 if self.games[i].winners >> seat & 1 else -1

    cdef void _replies(self, int i, int32_t* replies, int width) noexcept nogil:
        """The opponents' moves until the agent's turn or the end; their actions into ``replies``."""
        cdef Pos* p = &self.games[i]
        cdef int count = 0, action, code, colour, worker, build
        while p.winners < 0 and p.turn != self.seat:
            if self.opponent:
                action = self._greedy(i)
                _play_action(p, action)
            elif _in_setup(p):
                code = _random_placement(p, &self.rngs[i])
                action = PAIR[code & 31][code >> 5 & 31]
            else:
                colour = p.turn % p.colours
                code = _random_turn(p, &self.rngs[i])
                worker = 0 if p.w[2 * colour] == (code >> 5 & 31) else 1
                action = worker * 8 + DIRECTION[code & 31][code >> 5 & 31]
                build = code >> 10 & 31
                if build == 31:
                    action = WIN_ACTIONS + action
                else:
                    action = TURN_ACTIONS + action * 8 + DIRECTION[code >> 5 & 31][build]
            if count < width:
                replies[count] = action
            count += 1

    cdef int _greedy(self, int i) noexcept nogil:
        """The greedy player's move: a win, else one after which the linear evaluation favours it
        most, ties drawn from the game's stream."""
        cdef Pos* p = &self.games[i]
        cdef Pos child
        cdef uint8_t* legal = &self.legal[i * ACTIONS]
        cdef int action, count = 0
        cdef int chosen[ACTIONS]
        cdef double value, best = -WIN - 1.0
        self._mask(i)
        for action in range(ACTIONS):
            if not legal[action]:
                continue
            child = p[0]
            _play_action(&child, action)
            if child.winners >= 0:
                value = WIN if child.winners >> p.turn & 1 else -WIN
            else:  # the child's colour to move is the other one
                value = -_evaluate(&child, self.weights)
            if value > best:
                best, count = value, 0
            if value == best:
                chosen[count] = action
                count += 1
        return chosen[_below(&self.rngs[i], count)]

    cdef void _mask(self, int i) noexcept nogil:
        """The legal actions of game ``i`` into its row of ``legal``."""
        cdef Pos* p = &self.games[i]
        cdef uint8_t* legal = &self.legal[i * ACTIONS]
        cdef Turns t
        cdef uint32_t empty, rest, builds
        cdef int first, k, worker, step, colour = p.turn % p.colours
        memset(legal, 0, ACTIONS)
        if p.winners >= 0:
            return
        if _in_setup(p):
            empty = _placeable(p)
            while empty:
                first = lowest(empty)
                empty &= empty - 1
                rest = empty
                while rest:
                    legal[PAIR[first][lowest(rest)]] = 1
                    rest &= rest - 1
            return
        _turns(p, &t)
        for k in range(t.n):
            worker = 0 if p.w[2 * colour] == t.source[k] else 1
            step = worker * 8 + DIRECTION[t.source[k]][t.target[k]]
            if t.wins[k]:
                legal[WIN_ACTIONS + step] = 1
            builds = t.builds[k]
            while builds:
                legal[TURN_ACTIONS + step * 8 + DIRECTION[t.target[k]][lowest(builds)]] = 1
                builds &= builds - 1

    cdef void _observe(self, int i, int8_t[:, :, :, ::1] obs) noexcept nogil:
        """The planes from the agent's seat (self-play: the seat to move)."""
        cdef Pos* p = &self.games[i]
        cdef int seat = self.seat if self.seat >= 0 else p.turn
        cdef int mine = seat % p.colours, cell, k, colour
        cdef int8_t setup = _in_setup(p)
        cdef int8_t* planes
        cdef int order[3]
        order[0] = mine
        k = 1
        for colour in range(p.colours):
            if colour != mine:
                order[k] = colour
                k += 1
        for cell in range(CELLS):
            planes = &obs[i, cell // SIZE, cell % SIZE, 0]
            memset(planes, 0, self.planes)
            planes[height(p.lv, cell)] = 1
            planes[5 + p.colours] = setup
        for k in range(p.colours):
            for colour in range(2):
                cell = p.w[2 * order[k] + colour]
                if cell >= 0:
                    obs[i, cell // SIZE, cell % SIZE, 5 + k] = 1


cdef void _play_action(Pos* p, int action) noexcept nogil:
    """Play a legal action (the codec's numbering)."""
    cdef int colour = p.turn % p.colours, worker, step, source, target
    if action < TURN_ACTIONS:
        _place(p, PAIR_CELLS[action][0], PAIR_CELLS[action][1])
        return
    if action >= WIN_ACTIONS:
        worker, step = (action - WIN_ACTIONS) // 8, (action - WIN_ACTIONS) % 8
    else:
        worker, step = (action - TURN_ACTIONS) // 64, (action - TURN_ACTIONS) // 8 % 8
    source = p.w[2 * colour + worker]
    target = STEP[source][step]
    _play_turn(p, source, target, -1 if action >= WIN_ACTIONS else STEP[target][(action - TURN_ACTIONS) % 8])
