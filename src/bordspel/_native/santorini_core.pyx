# cython: language_level=3
"""Santorini in C: move generation, perft and random games on bitboards of the 25 squares.

The compiled twin of the rules in :mod:`bordspel.santorini` (the readable reference): the same
legal moves in the same order (workers in order, targets and builds by rising square), the same
setup, climbing, win, elimination (three players), team (four players) and supply rules. Random
games draw from the SplitMix64 generator exactly as :mod:`bordspel.santorini_batch` does, so a
seed plays the same games compiled and pure.

Positions come in as :class:`~bordspel.santorini.SantoriniState` objects (read by attribute).
Moves come out as tuples: ``(first, second)`` for a setup placement, ``(source, target, build)``
for a turn, ``build`` ``None`` for a winning climb.
"""

from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t


cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int x) nogil
    int lowest "__builtin_ctz"(unsigned int x) nogil


cdef enum:
    CELLS = 25
    MAX_TURNS = 16  # two workers, eight targets each
    MAX_PLIES = 128  # a game ends before 25 towers x 4 pieces + setup


cdef uint32_t FULL = (1 << CELLS) - 1
cdef uint32_t NEIGHBOURS[CELLS]
cdef int CLIMB_LIMIT[5]
CLIMB_LIMIT[:] = [1, 2, 3, 3, 3]  # levels[CLIMB_LIMIT[h]]: cells a worker on height h cannot enter


cdef void _init_neighbours():
    cdef int cell, dr, dc, row, col
    for cell in range(CELLS):
        NEIGHBOURS[cell] = 0
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                row, col = cell // 5 + dr, cell % 5 + dc
                if (dr or dc) and 0 <= row < 5 and 0 <= col < 5:
                    NEIGHBOURS[cell] |= 1u << (row * 5 + col)


_init_neighbours()


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
cdef inline int _height(const Pos* p, int cell) noexcept nogil:
    return (p.lv[0] >> cell & 1) + (p.lv[1] >> cell & 1) + (p.lv[2] >> cell & 1) + (p.lv[3] >> cell & 1)


cdef inline uint32_t _occupied(const Pos* p) noexcept nogil:
    cdef uint32_t mask = 0
    cdef int i
    for i in range(2 * p.colours):
        if p.w[i] >= 0:
            mask |= 1u << p.w[i]
    return mask


cdef inline bint _in_setup(const Pos* p) noexcept nogil:
    return p.winners < 0 and p.w[2 * (p.turn % p.colours)] < 0


cdef inline uint32_t _exact_level(const Pos* p, int level) noexcept nogil:
    if level == 0:
        return FULL & ~p.lv[0]
    return p.lv[level - 1] & ~p.lv[level]


cdef uint32_t _buildable(const Pos* p) noexcept nogil:
    """Cells without a dome whose next piece is still in the supply."""
    cdef uint32_t mask = FULL & ~p.lv[3]
    cdef int level
    if p.finite:
        for level in range(4):
            if p.supply[level] <= 0:
                mask &= ~_exact_level(p, level)
    return mask


cdef void _turns(const Pos* p, Turns* t) noexcept nogil:
    """Every (worker, target) of the player to move with its build mask, in engine order."""
    cdef int colour = p.turn % p.colours
    cdef uint32_t occupied = _occupied(p), free = _buildable(p), level3 = p.lv[2] & ~p.lv[3]
    cdef uint32_t others, targets
    cdef int k, source, target, level
    t.n = 0
    for k in range(2):
        source = p.w[2 * colour + k]
        if source < 0:
            continue
        level = _height(p, source)
        others = occupied ^ (1u << source)
        targets = NEIGHBOURS[source] & ~occupied & ~p.lv[CLIMB_LIMIT[level]]
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            t.source[t.n] = source
            t.target[t.n] = target
            t.wins[t.n] = level == 2 and level3 >> target & 1
            t.builds[t.n] = 0 if t.wins[t.n] else NEIGHBOURS[target] & ~others & free
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
            if source >= 0 and NEIGHBOURS[source] & ~occupied & ~p.lv[CLIMB_LIMIT[_height(p, source)]]:
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
    level = _height(p, build)
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
