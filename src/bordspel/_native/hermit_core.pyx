# cython: language_level=3
"""Hermit's hot paths in C: the win/loss proof search, region decomposition, Grundy values of
small regions, perft and random playouts.

The pure-Python reference is ``bordspel.games.hermit.proof`` (with ``grundy``); this module
follows it step by step on 64-bit masks. Internally every board, whatever its size n (1 to 8),
lies on an 8x8 grid: cell (r, c) is bit ``8 * r + c``, so growing a mask, the 8 symmetries of
the grid (byte swaps and bit swaps) and moving a region to the corner are a few instructions
each, and a region's canonical form does not depend on the board size. Masks cross the Python
boundary in the engine's layout (bit ``n * r + c``). The grid's tables (columns, the blocks'
shapes, the letters) are read from the rules, ``bordspel.games.hermit.rules``, on import.

A canonical region (its three acceptance masks moved to the corner, the colour masks sorted,
the least of its 8 images) is hashed to 128 bits; a position (its large regions and the Nim
heap of the small ones) hashes to the XOR of its regions' hashes and the heap's, so two equal
regions cancel in the hash as they do in the game. Win/loss results go in a fixed-size table
of 4-entry buckets that keeps the results of the largest searches; Grundy values go in an
exact table that grows. The proof-number search (``Solver.prove``, df-pn) searches the same
positions with a table of proof and disproof numbers instead.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

import time

from bordspel.ai.search import OutOfTime
from bordspel.games.hermit.rules import COLOURS, PLACEMENTS, geometry

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil
    uint64_t bswap "__builtin_bswap64"(uint64_t) nogil

cdef enum:
    MAX_REGIONS = 16
    MAX_CHILDREN = 800  # 3 colours x (64 + 56 + 56) moves in the regions, plus 255 heap moves
    SEEN_WORDS = 5  # 64-bit words for the values reached from a small region (all below 256)
    CANON_BITS = 16  # the cache of canonical hashes holds 2**CANON_BITS regions (3 MB)

GRID = geometry(8)
"""The rules' masks of the 8x8 grid that every board lies on."""
cdef uint64_t NOT_FIRST_COL = GRID.not_first_col
cdef uint64_t NOT_LAST_COL = GRID.not_last_col
cdef uint64_t STEPS[3]
"""For each placement (U, H, V): the bit distance from a block's top-left square to its second."""
cdef uint64_t FITS[3]
"""For each placement: the top-left squares from which the block stays on the grid."""
for _shape in range(3):
    STEPS[_shape] = GRID.steps[_shape]
    FITS[_shape] = GRID.fits[_shape]


# -- masks on the 8x8 grid ------------------------------------------------------------------------
cdef inline uint64_t dilate(uint64_t mask, uint64_t within) noexcept nogil:
    """``mask`` grown by one square in all eight directions, clipped to ``within``: the rules'
    ``dilate`` on the grid."""
    cdef uint64_t row = mask | ((mask << 1) & NOT_FIRST_COL) | ((mask >> 1) & NOT_LAST_COL)
    return (row | (row << 8) | (row >> 8)) & within


cdef inline uint64_t mirror(uint64_t x) noexcept nogil:
    """(r, c) -> (r, 7 - c)."""
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1)
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2)
    return ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4)


cdef inline uint64_t transpose(uint64_t x) noexcept nogil:
    """(r, c) -> (c, r)."""
    cdef uint64_t t
    t = 0x0f0f0f0f00000000ULL & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333000033330000ULL & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500550055005500ULL & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x


cdef inline uint64_t image(uint64_t x, int symmetry) noexcept nogil:
    """``x`` under symmetry 0-7: optionally transposed, then mirrored and/or flipped."""
    if symmetry & 4:
        x = transpose(x)
    if symmetry & 1:
        x = mirror(x)
    if symmetry & 2:
        x = bswap(x)
    return x


cdef inline int corner_shift(uint64_t live) noexcept nogil:
    """The right shift that moves ``live`` to the top-left corner."""
    cdef uint64_t cols = live
    cols |= cols >> 32
    cols |= cols >> 16
    cols |= cols >> 8
    return (ctz(live) & ~7) + ctz(cols & 0xff)


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111ebULL
    return z ^ (z >> 31)


cdef inline void sort3(uint64_t* m) noexcept nogil:
    cdef uint64_t t
    if m[0] > m[1]:
        t = m[0]; m[0] = m[1]; m[1] = t
    if m[1] > m[2]:
        t = m[1]; m[1] = m[2]; m[2] = t
    if m[0] > m[1]:
        t = m[0]; m[0] = m[1]; m[1] = t


cdef inline bint less3(uint64_t* a, uint64_t* b) noexcept nogil:
    if a[0] != b[0]:
        return a[0] < b[0]
    if a[1] != b[1]:
        return a[1] < b[1]
    return a[2] < b[2]


cdef void canonical_form(const uint64_t* m, uint64_t* best) noexcept nogil:
    """The least of the region's 8 images, each moved to the corner with its colours sorted."""
    cdef uint64_t cand[3]
    cdef int symmetry, shift, i
    for symmetry in range(8):
        for i in range(3):
            cand[i] = image(m[i], symmetry)
        shift = corner_shift(cand[0] | cand[1] | cand[2])
        for i in range(3):
            cand[i] >>= shift
        sort3(cand)
        if symmetry == 0 or less3(cand, best):
            best[0] = cand[0]; best[1] = cand[1]; best[2] = cand[2]


cdef inline void hash3(const uint64_t* c, uint64_t* h1, uint64_t* h2) noexcept nogil:
    h1[0] = mix(mix(mix(c[0] ^ 0x243f6a8885a308d3ULL) ^ c[1]) ^ c[2])
    h2[0] = mix(mix(mix(c[0] ^ 0x13198a2e03707344ULL) + c[1]) + c[2])


cdef void after_block(const uint64_t* accepts, int colour, uint64_t block, uint64_t full,
                      uint64_t* out) noexcept nogil:
    """What each square accepts after a block of ``colour`` covers ``block``."""
    cdef int i
    for i in range(3):
        out[i] = accepts[i] & ~block
    out[colour] &= ~dilate(block, full)


cdef inline uint64_t block_starts(uint64_t free_mask, int shape) noexcept nogil:
    """Top-left squares of the blocks of placement ``shape`` (0-2: U, H, V) that fit in
    ``free_mask``."""
    return free_mask & (free_mask >> STEPS[shape]) & FITS[shape]


cdef inline uint64_t block_from(uint64_t start, int shape) noexcept nogil:
    """The squares of the block of placement ``shape`` whose top-left square is ``start``."""
    return start | (start << STEPS[shape])


cdef inline uint64_t next_region(uint64_t live) noexcept nogil:
    """The region (connected through any neighbour) of the lowest live square."""
    cdef uint64_t region = live & (~live + 1), grown
    while True:
        grown = dilate(region, live)
        if grown == region:
            return region
        region = grown


# -- layouts ---------------------------------------------------------------------------------------
cdef uint64_t to_grid(object mask, int n) except? 0:
    """An engine mask (bit n * r + c) on the 8x8 grid."""
    cdef uint64_t out = 0, row_bits = (1 << n) - 1
    cdef int row
    value = int(mask)
    for row in range(n):
        out |= (<uint64_t>((value >> (row * n)) & row_bits)) << (8 * row)
    return out


cdef object from_grid(uint64_t mask, int n):
    """A grid mask in the engine's layout."""
    cdef uint64_t row_bits = (1 << n) - 1
    cdef int row
    out = 0
    for row in range(n):
        out |= int((mask >> (8 * row)) & row_bits) << (row * n)
    return out


cdef uint64_t full_grid(int n) noexcept nogil:
    cdef uint64_t out = 0
    cdef int row
    for row in range(n):
        out |= ((<uint64_t>1 << n) - 1) << (8 * row)
    return out


def _check_size(int n):
    if not 1 <= n <= 8:
        raise ValueError(f"the compiled Hermit core takes boards of 1x1 to 8x8, not {n}x{n}")


# -- tables ----------------------------------------------------------------------------------------
cdef struct Entry:
    uint64_t key
    uint32_t check
    uint8_t value
    uint8_t work


cdef class ValueTable:
    """Exact table: 128-bit hash -> small value; grows at half full."""

    cdef uint64_t* keys
    cdef uint64_t* checks
    cdef uint8_t* values
    cdef uint64_t capacity, used

    def __cinit__(self):
        self._allocate(1 << 12)

    cdef int _allocate(self, uint64_t capacity) except -1:
        self.capacity = capacity
        self.used = 0
        self.keys = <uint64_t*>calloc(self.capacity, sizeof(uint64_t))
        self.checks = <uint64_t*>calloc(self.capacity, sizeof(uint64_t))
        self.values = <uint8_t*>calloc(self.capacity, sizeof(uint8_t))
        if not self.keys or not self.checks or not self.values:
            raise MemoryError()
        return 0

    def __dealloc__(self):
        free(self.keys)
        free(self.checks)
        free(self.values)

    def __len__(self):
        return self.used

    cdef inline int get(self, uint64_t key, uint64_t check) noexcept nogil:
        """The value, or -1."""
        cdef uint64_t mask = self.capacity - 1, i
        key |= 1
        i = key & mask
        while self.keys[i]:
            if self.keys[i] == key and self.checks[i] == check:
                return self.values[i]
            i = (i + 1) & mask
        return -1

    cdef int put(self, uint64_t key, uint64_t check, int value) except -1:
        cdef uint64_t mask, i
        if 2 * (self.used + 1) > self.capacity:
            self._grow()
        mask = self.capacity - 1
        key |= 1
        i = key & mask
        while self.keys[i]:
            if self.keys[i] == key and self.checks[i] == check:
                self.values[i] = value
                return 0
            i = (i + 1) & mask
        self.keys[i] = key
        self.checks[i] = check
        self.values[i] = value
        self.used += 1
        return 0

    cdef int _grow(self) except -1:
        cdef uint64_t* keys = self.keys
        cdef uint64_t* checks = self.checks
        cdef uint8_t* values = self.values
        cdef uint64_t old = self.capacity, i
        self._allocate(2 * old)
        for i in range(old):
            if keys[i]:
                self.put(keys[i], checks[i], values[i])
        free(keys)
        free(checks)
        free(values)
        return 0


cdef void* buckets(int bits, size_t entry_size, uint64_t* mask) except NULL:
    """Zeroed memory for 2**bits buckets of 4 entries of ``entry_size`` bytes; sets ``mask``."""
    if not 4 <= bits <= 34:
        raise ValueError("the table takes 4 to 34 bits of buckets")
    mask[0] = (<uint64_t>1 << bits) - 1
    cdef void* entries = calloc((mask[0] + 1) * 4, entry_size)
    if not entries:
        raise MemoryError(f"no memory for a table of {(mask[0] + 1) * 4 * entry_size:,} bytes")
    return entries


cdef class ResultTable:
    """Lossy table of win/loss results: 2**bits buckets of 4 entries (16 bytes each); a full
    bucket gives up the entry with the least work behind it."""

    cdef Entry* entries
    cdef uint64_t mask
    cdef public uint64_t stored

    def __cinit__(self, int bits):
        self.entries = <Entry*>buckets(bits, sizeof(Entry), &self.mask)
        self.stored = 0

    def __dealloc__(self):
        free(self.entries)

    cdef inline int get(self, uint64_t key, uint64_t check) noexcept nogil:
        cdef Entry* bucket = self.entries + (key & self.mask) * 4
        cdef uint32_t short_check = <uint32_t>check
        cdef int i
        for i in range(4):
            if bucket[i].work and bucket[i].key == key and bucket[i].check == short_check:
                return bucket[i].value
        return -1

    cdef inline void put(self, uint64_t key, uint64_t check, int value, uint64_t work) noexcept nogil:
        cdef Entry* bucket = self.entries + (key & self.mask) * 4
        cdef uint32_t short_check = <uint32_t>check
        cdef int i, victim = 0
        cdef uint8_t weight = 1
        while work > 1 and weight < 63:
            work >>= 1
            weight += 1
        for i in range(4):
            if bucket[i].work == 0 or (bucket[i].key == key and bucket[i].check == short_check):
                victim = i
                break
            if bucket[i].work < bucket[victim].work:
                victim = i
        if bucket[victim].work == 0:
            self.stored += 1
        bucket[victim].key = key
        bucket[victim].check = short_check
        bucket[victim].value = value
        bucket[victim].work = weight


cdef struct PnEntry:
    uint64_t key
    uint32_t check
    uint32_t phi
    uint32_t delta
    uint32_t work


cdef enum:
    PN_INF = 0x3fffffff  # a proof or disproof number this large means proved (or disproved)
    MOBILITY_WEIGHT = 16  # an unsearched position's disproof number: this many per move


cdef class PnTable:
    """Lossy table of proof and disproof numbers: 2**bits buckets of 4 entries (24 bytes each);
    a full bucket gives up the entry with the least work behind it, proved results last."""

    cdef PnEntry* entries
    cdef uint64_t mask
    cdef public uint64_t stored

    def __cinit__(self, int bits):
        self.entries = <PnEntry*>buckets(bits, sizeof(PnEntry), &self.mask)
        self.stored = 0

    def __dealloc__(self):
        free(self.entries)

    @property
    def capacity(self):
        """Entries the table holds."""
        return 4 * (self.mask + 1)

    cdef inline bint get(self, uint64_t key, uint64_t check, uint32_t* phi, uint32_t* delta) noexcept nogil:
        """Whether the position is there; its numbers into ``phi`` and ``delta``."""
        cdef PnEntry* bucket = self.entries + (key & self.mask) * 4
        cdef uint32_t short_check = <uint32_t>check
        cdef int i
        for i in range(4):
            if bucket[i].work and bucket[i].key == key and bucket[i].check == short_check:
                phi[0] = bucket[i].phi
                delta[0] = bucket[i].delta
                return True
        return False

    cdef inline bint work_of(self, uint64_t key, uint64_t check, uint64_t* work) noexcept nogil:
        """Whether the position is there; the work of its last search into ``work``."""
        cdef PnEntry* bucket = self.entries + (key & self.mask) * 4
        cdef uint32_t short_check = <uint32_t>check
        cdef int i
        for i in range(4):
            if bucket[i].work and bucket[i].key == key and bucket[i].check == short_check:
                work[0] = (bucket[i].work & 0x3fffffff) - 1
                return True
        return False

    cdef inline void put(self, uint64_t key, uint64_t check, uint32_t phi, uint32_t delta,
                         uint64_t work) noexcept nogil:
        cdef PnEntry* bucket = self.entries + (key & self.mask) * 4
        cdef uint32_t short_check = <uint32_t>check
        cdef uint32_t weight = <uint32_t>(work if work < 0x3fffffff else 0x3fffffff) + 1
        cdef int i, victim = 0
        if phi == 0 or delta == 0:
            weight |= 0x40000000
        for i in range(4):
            if bucket[i].work == 0 or (bucket[i].key == key and bucket[i].check == short_check):
                victim = i
                break
            if bucket[i].work < bucket[victim].work:
                victim = i
        if bucket[victim].work == 0:
            self.stored += 1
        bucket[victim].key = key
        bucket[victim].check = short_check
        bucket[victim].phi = phi
        bucket[victim].delta = delta
        bucket[victim].work = weight


# -- positions -------------------------------------------------------------------------------------
cdef struct CanonEntry:
    uint64_t m[3]  # a region moved to the corner, its colour masks sorted (all zero: empty)
    uint64_t h1
    uint64_t h2
    int value  # the region's Grundy value once known, else -1


cdef struct Region:
    uint64_t m[3]  # what each square accepts (red, yellow, blue), where the region lies
    uint64_t h1
    uint64_t h2
    int size


cdef struct Position:
    int count
    int heap
    int size
    int symmetric
    int known
    uint64_t h1
    uint64_t h2
    Region r[MAX_REGIONS]


cdef class Solver:
    """Who wins Hermit positions on an n x n board (n <= 8): ``ProofSolver`` in C.

    Regions of at most ``small`` live squares get Grundy values, larger ones are searched;
    the win/loss table holds ``4 * 2**table_bits`` results (16 bytes each). Without
    ``region_cache`` every region's canonical form is computed afresh (``hard-v1``'s speed).
    """

    cdef readonly int n, small
    cdef uint64_t full
    cdef int reflect_shift
    cdef ValueTable grundy_table
    cdef ResultTable results
    cdef PnTable pn
    cdef Position** levels
    cdef int** orders
    cdef uint32_t** pn_levels
    cdef int depth_cap
    cdef CanonEntry* canon_cache
    cdef int canon_bits
    cdef public uint64_t examined
    cdef public uint64_t grundy_examined
    cdef public uint64_t node_limit
    """Stop with OutOfTime once ``examined`` passes this (0: no limit): a budget of a few
    hundred positions, finer than the deadline's clock checks."""
    cdef public object deadline
    cdef public object on_progress
    cdef public object disk
    """A second-level table of settled positions (``bordspel.games.hermit.disk.DiskTable``, or
    None): df-pn reads it where its own table has no entry, and writes every position it settles
    with at least ``disk_work`` positions searched below it (over all its searches):
    ``disk.put(key, value, work, depth)``, with that work and the depth below the search's root."""
    cdef public uint64_t disk_work
    cdef public int disk_depth
    """Every position settled less than this many moves below the root is written as well (a
    position settled cheaply here, its children known, may be costly in a later run)."""
    cdef public uint64_t disk_hits
    """Positions settled by a read of ``disk``, without a search."""

    def __cinit__(self, int n, int small=8, int table_bits=20, bint region_cache=True,
                  bint proof_numbers=False):
        _check_size(n)
        if not 0 <= small <= 16:
            raise ValueError("small regions have 0 to 16 live squares")
        self.n = n
        self.small = small
        self.full = full_grid(n)
        self.reflect_shift = 9 * (8 - n)
        self.grundy_table = ValueTable()
        self.results = ResultTable(4 if proof_numbers else table_bits)
        self.pn = PnTable(table_bits) if proof_numbers else None
        self.depth_cap = 0
        self.canon_bits = CANON_BITS if region_cache else 0
        self.canon_cache = <CanonEntry*>calloc(1 << self.canon_bits, sizeof(CanonEntry))
        if not self.canon_cache:
            raise MemoryError()
        self.levels = NULL
        self.orders = NULL
        self.pn_levels = NULL
        self.examined = 0
        self.grundy_examined = 0
        self.node_limit = 0
        self.deadline = None
        self.on_progress = None
        self.disk = None
        self.disk_work = 64
        self.disk_depth = 2
        self.disk_hits = 0

    def __dealloc__(self):
        cdef int i
        free(self.canon_cache)
        if self.levels:
            for i in range(self.depth_cap):
                free(self.levels[i])
                free(self.orders[i])
                free(self.pn_levels[2 * i])
                free(self.pn_levels[2 * i + 1])
            free(self.levels)
            free(self.orders)
            free(self.pn_levels)

    @property
    def stored(self):
        """Win/loss results (or proof-number entries) in the table."""
        return self.pn.stored if self.pn is not None else self.results.stored

    @property
    def capacity(self):
        """Entries the table holds."""
        return self.pn.capacity if self.pn is not None else 4 * (self.results.mask + 1)

    # -- Python API ------------------------------------------------------------------------------
    def regions(self, red, yellow, blue):
        """The regions of the accepted squares (engine masks), in the order of their lowest
        grid square: a list of (red, yellow, blue)."""
        cdef uint64_t m[3]
        cdef uint64_t live, region
        m[0] = to_grid(red, self.n)
        m[1] = to_grid(yellow, self.n)
        m[2] = to_grid(blue, self.n)
        live = m[0] | m[1] | m[2]
        found = []
        while live:
            region = next_region(live)
            live &= ~region
            found.append((from_grid(m[0] & region, self.n), from_grid(m[1] & region, self.n),
                          from_grid(m[2] & region, self.n)))
        return found

    def region_value(self, red, yellow, blue):
        """The Grundy value of the accepted squares (engine masks), by exact search."""
        cdef uint64_t m[3]
        m[0] = to_grid(red, self.n)
        m[1] = to_grid(yellow, self.n)
        m[2] = to_grid(blue, self.n)
        return self._value(m)

    def canonical(self, red, yellow, blue):
        """The canonical form of a region (three masks on the 8x8 grid): equal exactly for the
        regions that are the same up to place, the 8 symmetries and the colour names."""
        cdef uint64_t m[3]
        cdef uint64_t best[3]
        m[0] = to_grid(red, self.n)
        m[1] = to_grid(yellow, self.n)
        m[2] = to_grid(blue, self.n)
        canonical_form(m, best)
        return best[0], best[1], best[2]

    def key(self, red, yellow, blue):
        """A 128-bit key of the position's value (large regions and heap), as an int."""
        cdef Position* pos = self._level(0)
        self._set_position(pos, red, yellow, blue)
        return (int(pos.h1) << 64) | int(pos.h2)

    def wins(self, red, yellow, blue, int heap=0):
        """Whether the player to move wins, given what each square accepts (engine masks) and a
        Nim heap beside them."""
        cdef Position* pos = self._level(0)
        self._set_position(pos, red, yellow, blue, heap)
        return self._known_or_search(0, pos) == 1

    def state_wins(self, state):
        """Whether the player to move in a ``HermitState`` wins."""
        if state.n != self.n:
            raise ValueError(f"this solver is for {self.n}x{self.n} boards, not {state.n}x{state.n}")
        return self.wins(state.free_mask(0), state.free_mask(1), state.free_mask(2))

    # -- search ----------------------------------------------------------------------------------
    cdef int _set_position(self, Position* pos, red, yellow, blue, int heap=0) except -1:
        cdef uint64_t m[3]
        if not 0 <= heap < 256:
            raise ValueError("the heap takes 0 to 255")
        m[0] = to_grid(red, self.n) & self.full
        m[1] = to_grid(yellow, self.n) & self.full
        m[2] = to_grid(blue, self.n) & self.full
        pos.count = 0
        pos.heap = heap
        self._add(pos, m)
        self._finish(pos)
        return 0

    cdef int _known_or_search(self, int depth, Position* pos) except -2:
        cdef int known = self._known(pos)
        if known >= 0:
            return known
        return self._search(depth, pos)

    cdef inline int _known(self, Position* pos) noexcept nogil:
        """1 or 0 when the value needs no search (no large region left, or found before), else -1."""
        if pos.count == 0:
            return 1 if pos.heap else 0
        return self.results.get(pos.h1, pos.h2)

    cdef int _tick(self, bint report) except -1:
        """Stop at the deadline (checked every 1,024 positions or regions: a few milliseconds);
        report progress when asked."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.disk is not None:
            self.disk.tick()
        if report and self.on_progress is not None:
            self.on_progress(self.examined + self.grundy_examined)
        return 0

    cdef int _search(self, int depth, Position* pos) except -2:
        """Whether the player to move wins ``pos`` (not in the table, some large region)."""
        cdef uint64_t before = self.examined
        cdef Position* children
        cdef Position* child
        cdef int* order
        cdef int count, i, result = 0, known
        self.examined += 1
        if self.node_limit and self.examined > self.node_limit:
            raise OutOfTime
        if (self.examined & 0x3ff) == 0:
            self._tick((self.examined & 0x3fff) == 0)
        children = self._level(depth + 1)
        order = self.orders[depth + 1]
        count = self._children(pos, children)
        for i in range(count):
            known = self._known(&children[i])
            children[i].known = known
            if known == 0:
                self.results.put(pos.h1, pos.h2, 1, 1)
                return 1
        self._order(children, count, order)
        for i in range(count):
            child = &children[order[i]]
            if child.known == 1:
                continue
            if self._known_or_search(depth + 1, child) == 0:
                result = 1
                break
        self.results.put(pos.h1, pos.h2, result, self.examined - before)
        return result

    cdef Position* _level(self, int depth) except NULL:
        """The children buffer of one search depth, and its order (allocated on first use)."""
        cdef int cap
        cdef Position** levels
        cdef int** orders
        cdef uint32_t** pn_levels
        if depth >= self.depth_cap:
            cap = max(2 * self.depth_cap, depth + 16)
            levels = <Position**>calloc(cap, sizeof(Position*))
            orders = <int**>calloc(cap, sizeof(int*))
            pn_levels = <uint32_t**>calloc(2 * cap, sizeof(uint32_t*))
            if not levels or not orders or not pn_levels:
                raise MemoryError()
            if self.levels:
                memcpy(levels, self.levels, self.depth_cap * sizeof(Position*))
                memcpy(orders, self.orders, self.depth_cap * sizeof(int*))
                memcpy(pn_levels, self.pn_levels, 2 * self.depth_cap * sizeof(uint32_t*))
                free(self.levels)
                free(self.orders)
                free(self.pn_levels)
            self.levels = levels
            self.orders = orders
            self.pn_levels = pn_levels
            self.depth_cap = cap
        if not self.levels[depth]:
            self.levels[depth] = <Position*>malloc(MAX_CHILDREN * sizeof(Position))
            self.orders[depth] = <int*>malloc(MAX_CHILDREN * sizeof(int))
            self.pn_levels[2 * depth] = <uint32_t*>malloc(MAX_CHILDREN * sizeof(uint32_t))
            self.pn_levels[2 * depth + 1] = <uint32_t*>malloc(MAX_CHILDREN * sizeof(uint32_t))
            if not (self.levels[depth] and self.orders[depth] and self.pn_levels[2 * depth]
                    and self.pn_levels[2 * depth + 1]):
                raise MemoryError()
        return self.levels[depth]

    cdef void _order(self, Position* children, int count, int* order) noexcept nogil:
        """Symmetric children first, then the rest by size (fewest live squares first)."""
        cdef int starts[66]
        cdef int i, size, placed = 0
        for i in range(66):
            starts[i] = 0
        for i in range(count):
            if children[i].symmetric:
                order[placed] = i
                placed += 1
            else:
                starts[children[i].size + 1] += 1
        starts[0] = placed
        for size in range(1, 66):
            starts[size] += starts[size - 1]
        for i in range(count):
            if not children[i].symmetric:
                order[starts[children[i].size]] = i
                starts[children[i].size] += 1

    cdef int _children(self, Position* pos, Position* out) except -1:
        """The positions after every move: in a large region, or down the heap."""
        cdef int i, j, colour, shape, count = 0, heap
        cdef uint64_t starts, low, block
        cdef uint64_t after[3]
        cdef uint64_t free_mask
        cdef Region* region
        cdef Position* child
        for i in range(pos.count):
            region = &pos.r[i]
            for colour in range(3):
                free_mask = region.m[colour]
                for shape in range(3):
                    starts = block_starts(free_mask, shape)
                    while starts:
                        low = starts & (~starts + 1)
                        starts ^= low
                        block = block_from(low, shape)
                        child = &out[count]
                        count += 1
                        child.count = 0
                        for j in range(pos.count):
                            if j != i:
                                child.r[child.count] = pos.r[j]
                                child.count += 1
                        child.heap = pos.heap
                        after_block(region.m, colour, block, self.full, after)
                        self._add(child, after)
                        self._finish(child)
        for heap in range(pos.heap):
            child = &out[count]
            count += 1
            memcpy(child, pos, sizeof(Position) - (MAX_REGIONS - pos.count) * sizeof(Region))
            child.heap = heap
            self._finish(child)
        return count

    cdef int _add(self, Position* pos, const uint64_t* accepts) except -1:
        """Add the regions of ``accepts``: small ones to the heap, large ones to the list (an
        equal large region already there cancels)."""
        cdef uint64_t live = accepts[0] | accepts[1] | accepts[2], region
        cdef uint64_t m[3]
        cdef uint64_t h1, h2
        cdef CanonEntry* entry
        cdef int size, i, k
        while live:
            region = next_region(live)
            live &= ~region
            for i in range(3):
                m[i] = accepts[i] & region
            size = popcount(region)
            if size <= self.small:
                pos.heap ^= self._region_value(m)  # m is one region
                continue
            entry = self._entry(m)
            h1, h2 = entry.h1, entry.h2
            for k in range(pos.count):
                if pos.r[k].h1 == h1 and pos.r[k].h2 == h2:
                    pos.count -= 1
                    pos.r[k] = pos.r[pos.count]
                    break
            else:
                if pos.count == MAX_REGIONS:
                    raise ValueError("too many large regions: raise small")
                pos.r[pos.count].m[0] = m[0]
                pos.r[pos.count].m[1] = m[1]
                pos.r[pos.count].m[2] = m[2]
                pos.r[pos.count].h1 = h1
                pos.r[pos.count].h2 = h2
                pos.r[pos.count].size = size
                pos.count += 1
        return 0

    cdef void _finish(self, Position* pos) noexcept nogil:
        """The hash, size and point symmetry of a position whose regions and heap are set."""
        cdef uint64_t h1 = mix(<uint64_t>pos.heap + 0x9e3779b97f4a7c15ULL)
        cdef uint64_t h2 = mix(<uint64_t>pos.heap + 0x3c6ef372fe94f82bULL)
        cdef uint64_t masks[3]
        cdef int i, c, size = 0
        masks[0] = 0; masks[1] = 0; masks[2] = 0
        for i in range(pos.count):
            h1 ^= pos.r[i].h1
            h2 ^= pos.r[i].h2
            size += pos.r[i].size
            for c in range(3):
                masks[c] |= pos.r[i].m[c]
        pos.h1 = h1
        pos.h2 = h2
        pos.size = size
        pos.symmetric = 1
        for c in range(3):
            if (bswap(mirror(masks[c])) >> self.reflect_shift) != masks[c]:
                pos.symmetric = 0
                break

    cdef CanonEntry* _entry(self, const uint64_t* m) noexcept nogil:
        """The cache entry of a region: the hash of its canonical form and its Grundy value if
        known. The cache is keyed on the region moved to the corner; the 8 images are computed
        only on a miss (on every call without the cache: its one entry is scratch). Valid until
        the next call (another region may take the entry)."""
        cdef uint64_t key[3]
        cdef uint64_t canon[3]
        cdef int shift = corner_shift(m[0] | m[1] | m[2]), i
        cdef CanonEntry* entry
        for i in range(3):
            key[i] = m[i] >> shift
        sort3(key)
        entry = self.canon_cache
        if self.canon_bits:
            entry += mix(key[0] ^ mix(key[1] ^ mix(key[2]))) >> (64 - self.canon_bits)
        if not self.canon_bits or entry.m[0] != key[0] or entry.m[1] != key[1] or entry.m[2] != key[2]:
            canonical_form(key, canon)
            hash3(canon, &entry.h1, &entry.h2)
            entry.m[0] = key[0]; entry.m[1] = key[1]; entry.m[2] = key[2]
            entry.value = -1
        return entry

    def disk_key(self, red, yellow, blue, int heap=0):
        """A position's key in the disk table (its 128-bit hash, 16 bytes), given what each square
        accepts (engine masks) and a Nim heap beside them; safe to call during a search."""
        cdef Position pos
        self._set_position(&pos, red, yellow, blue, heap)
        return _disk_key(&pos)

    # -- proof-number search -----------------------------------------------------------------------
    def prove(self, red, yellow, blue, int heap=0):
        """Whether the player to move wins, by proof-number search (df-pn with the 1+epsilon
        trick), given what each square accepts (engine masks) and a Nim heap beside them."""
        cdef Position* pos = self._level(0)
        cdef uint32_t phi, delta
        if self.pn is None:
            raise ValueError("proof-number search needs a solver made with proof_numbers=True")
        self._set_position(pos, red, yellow, blue, heap)
        if pos.count == 0:
            return pos.heap != 0
        while True:
            self._mid(0, pos, PN_INF, PN_INF, &phi, &delta)
            if phi == 0 or delta == 0:
                return phi == 0

    cdef inline void _numbers(self, Position* pos, uint32_t* phi, uint32_t* delta) noexcept nogil:
        """The proof and disproof numbers of a position for the player to move: exact without
        large regions, else from the table, else a guess: 1 to prove a win, and to disprove one
        the number of moves (every move must be refuted), or 1 where the large regions are
        their own point reflection (the mirror strategy's positions, likely lost). The number of
        moves is weighted so that a searched mirror position (its disproof number the sum over
        its replies) stays cheaper than an unsearched other."""
        cdef int i, colour, shape, moves
        if pos.count == 0:
            phi[0] = 0 if pos.heap else PN_INF
            delta[0] = PN_INF if pos.heap else 0
        elif not self.pn.get(pos.h1, pos.h2, phi, delta):
            phi[0] = 1
            moves = pos.heap
            if not pos.symmetric:
                for i in range(pos.count):
                    for colour in range(3):
                        for shape in range(3):
                            moves += popcount(block_starts(pos.r[i].m[colour], shape))
            delta[0] = max(1, MOBILITY_WEIGHT * moves) if not pos.symmetric else 1

    cdef int _mid(self, int depth, Position* pos, uint32_t th_phi, uint32_t th_delta,
                  uint32_t* out_phi, uint32_t* out_delta) except -1:
        """Search ``pos`` until its proof number reaches ``th_phi`` or its disproof number
        ``th_delta``; its final numbers into ``out_phi`` and ``out_delta`` (and the table)."""
        cdef uint64_t before = self.examined
        cdef Position* children
        cdef int* order
        cdef uint32_t* phis
        cdef uint32_t* deltas
        cdef int count, i, best
        cdef uint32_t phi, delta, second, child_phi, child_delta
        cdef uint64_t total, prior = 0
        if self.disk is not None and self._from_disk(pos, &prior, out_phi, out_delta):
            return 0
        self.examined += 1
        if self.node_limit and self.examined > self.node_limit:
            raise OutOfTime
        if (self.examined & 0x3ff) == 0:
            self._tick((self.examined & 0x3fff) == 0)
        children = self._level(depth + 1)
        order = self.orders[depth + 1]
        phis = self.pn_levels[2 * (depth + 1)]
        deltas = self.pn_levels[2 * (depth + 1) + 1]
        count = self._children(pos, children)
        self._order(children, count, order)
        for i in range(count):
            self._numbers(&children[order[i]], &phis[i], &deltas[i])
        while True:
            phi, total, best, second = PN_INF, 0, 0, PN_INF
            for i in range(count):
                total += phis[i]
                if deltas[i] < phi:
                    second = phi
                    phi = deltas[i]
                    best = i
                elif deltas[i] < second:
                    second = deltas[i]
            delta = <uint32_t>(total if total < PN_INF else PN_INF)
            if phi >= th_phi or delta >= th_delta:
                break
            child_phi = th_delta - delta + phis[best]
            child_delta = th_phi
            if second < PN_INF:
                second = max(second + 1, second + second // 4)
                child_delta = min(th_phi, second)
            self._mid(depth + 1, &children[order[best]], child_phi, child_delta, &phis[best], &deltas[best])
        self.pn.put(pos.h1, pos.h2, phi, delta, self.examined - before)
        if (phi == 0 or delta == 0) and self.disk is not None and (
                depth < self.disk_depth or prior + self.examined - before >= self.disk_work):
            self.disk.put(_disk_key(pos), b"\x01" if phi == 0 else b"\x00",
                          prior + self.examined - before, depth)
        out_phi[0] = phi
        out_delta[0] = delta
        return 0

    cdef bint _from_disk(self, Position* pos, uint64_t* prior, uint32_t* out_phi,
                         uint32_t* out_delta) except -1:
        """Whether ``disk`` settles a position missing from the table (then its numbers are set
        and it enters the table as a settled result); the work of its earlier searches, if the
        table has it, into ``prior``."""
        cdef bint wins
        if self.pn.work_of(pos.h1, pos.h2, prior):
            return False
        found = self.disk.get(_disk_key(pos))
        if found is None:
            return False
        self.disk_hits += 1
        wins = found == b"\x01"
        out_phi[0] = 0 if wins else PN_INF
        out_delta[0] = PN_INF if wins else 0
        self.pn.put(pos.h1, pos.h2, out_phi[0], out_delta[0], self.disk_work)
        return True

    # -- Grundy values ---------------------------------------------------------------------------
    cdef int _value(self, const uint64_t* accepts) except -1:
        """The Grundy value of accepted squares: the XOR of their regions' values."""
        cdef uint64_t live = accepts[0] | accepts[1] | accepts[2], region
        cdef uint64_t m[3]
        cdef int value = 0
        while live:
            region = next_region(live)
            live &= ~region
            m[0] = accepts[0] & region
            m[1] = accepts[1] & region
            m[2] = accepts[2] & region
            value ^= self._region_value(m)
        return value

    cdef int _region_value(self, const uint64_t* region) except -1:
        cdef uint64_t h1, h2, starts, low, free_mask
        cdef uint64_t after[3]
        cdef uint64_t seen[SEEN_WORDS]
        cdef int value, colour, shape, i
        cdef CanonEntry* entry = self._entry(region)
        if entry.value >= 0:
            return entry.value
        h1, h2 = entry.h1, entry.h2
        value = self.grundy_table.get(h1, h2)
        if value >= 0:
            entry.value = value
            return value
        for i in range(SEEN_WORDS):
            seen[i] = 0
        for colour in range(3):
            free_mask = region[colour]
            for shape in range(3):
                starts = block_starts(free_mask, shape)
                while starts:
                    low = starts & (~starts + 1)
                    starts ^= low
                    after_block(region, colour, block_from(low, shape), self.full, after)
                    value = self._value(after)
                    seen[value >> 6] |= <uint64_t>1 << (value & 63)
        value = 0
        while (seen[value >> 6] >> (value & 63)) & 1:
            value += 1
        if value >= 256:
            raise ValueError("a Grundy value above 255: lower small")
        self.grundy_table.put(h1, h2, value)
        self._entry(region).value = value  # looked up again: the search may have reused the entry
        self.grundy_examined += 1
        if (self.grundy_examined & 0x3ff) == 0:
            self._tick(False)
        return value


cdef bytes _disk_key(Position* pos):
    """A position's key in the disk table: its full 128-bit hash, 16 bytes."""
    cdef uint64_t key[2]
    key[0] = pos.h1
    key[1] = pos.h2
    return PyBytes_FromStringAndSize(<char*>key, 16)


# -- perft ---------------------------------------------------------------------------------------
cdef extern from *:
    """
    /* Hermit perft on the 8x8 grid (bit 8 * r + c); the last ply is counted in bulk. Written in C
     * so that x86-64 gets a copy built for the popcnt instruction, chosen when the CPU has it. */
    typedef struct { uint64_t full, not_first_col, not_last_col, fits[3]; } hermit_grid;
    static const int hermit_steps[3] = {0, 1, 8};

    #define HERMIT_PERFT(NAME)                                                                  \\
    static uint64_t NAME(const hermit_grid *g, uint64_t m0, uint64_t m1, uint64_t m2, int depth) { \\
        uint64_t m[3] = {m0, m1, m2}, empty = g->full & ~(m0 | m1 | m2), total = 0;             \\
        for (int colour = 0; colour < 3; colour++) {                                            \\
            uint64_t x = m[colour];                                                             \\
            uint64_t row = x | ((x << 1) & g->not_first_col) | ((x >> 1) & g->not_last_col);    \\
            uint64_t free_mask = empty & ~((row | (row << 8) | (row >> 8)) & g->full);          \\
            for (int shape = 0; shape < 3; shape++) {                                           \\
                int step = hermit_steps[shape];                                                 \\
                uint64_t starts = free_mask & (free_mask >> step) & g->fits[shape];             \\
                if (depth == 1) {                                                               \\
                    total += (uint64_t)__builtin_popcountll(starts);                            \\
                    continue;                                                                   \\
                }                                                                               \\
                while (starts) {                                                                \\
                    uint64_t low = starts & (~starts + 1), block = low | (low << step);         \\
                    starts ^= low;                                                              \\
                    m[colour] |= block;                                                         \\
                    total += NAME(g, m[0], m[1], m[2], depth - 1);                              \\
                    m[colour] &= ~block;                                                        \\
                }                                                                               \\
            }                                                                                   \\
        }                                                                                       \\
        return total;                                                                           \\
    }

    HERMIT_PERFT(hermit_perft_default)
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __attribute__((target("popcnt"))) HERMIT_PERFT(hermit_perft_popcnt)
    static uint64_t hermit_perft(const hermit_grid *g, uint64_t m0, uint64_t m1, uint64_t m2,
                                 int depth) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("popcnt"))
            return hermit_perft_popcnt(g, m0, m1, m2, depth);
        return hermit_perft_default(g, m0, m1, m2, depth);
    }
    #else
    #define hermit_perft hermit_perft_default
    #endif
    """
    ctypedef struct hermit_grid:
        uint64_t full, not_first_col, not_last_col
        uint64_t fits[3]
    uint64_t hermit_perft(const hermit_grid* grid, uint64_t m0, uint64_t m1, uint64_t m2,
                          int depth) nogil


def perft(state, int depth):
    """The leaves ``depth`` plies below a ``HermitState`` (``HermitState.perft`` in C)."""
    cdef uint64_t masks[3]
    cdef hermit_grid grid
    cdef uint64_t total
    cdef int shape
    if depth <= 0:
        return 1
    load_masks(state, masks)
    grid.full = full_grid(state.n)
    grid.not_first_col = grid.full & NOT_FIRST_COL
    grid.not_last_col = grid.full & NOT_LAST_COL
    for shape in range(3):
        grid.fits[shape] = block_starts(grid.full, shape)
    with nogil:
        total = hermit_perft(&grid, masks[0], masks[1], masks[2], depth)
    return total


# -- random playouts -------------------------------------------------------------------------------
cdef inline uint64_t next_random(uint64_t* seed) noexcept nogil:
    seed[0] += <uint64_t>0x9e3779b97f4a7c15ULL
    return mix(seed[0])


cdef inline uint64_t nth_bit(uint64_t mask, int index) noexcept nogil:
    while index:
        mask &= mask - 1
        index -= 1
    return mask & (~mask + 1)


cdef int random_block(uint64_t full, uint64_t* masks, uint64_t* seed) noexcept nogil:
    """Cover a uniformly random legal block (drawn over the moves in the engine's order); its
    ``(colour * 3 + placement) << 6 | cell`` (the top-left grid cell), or -1 when no move is left."""
    cdef uint64_t empty = full & ~(masks[0] | masks[1] | masks[2]), free_mask, low
    cdef uint64_t starts[9]
    cdef int counts[9]
    cdef int total = 0, i, shape, pick
    for i in range(3):
        free_mask = empty & ~dilate(masks[i], full)
        for shape in range(3):
            starts[3 * i + shape] = block_starts(free_mask, shape)
    for i in range(9):
        counts[i] = popcount(starts[i])
        total += counts[i]
    if total == 0:
        return -1
    pick = <int>((next_random(seed) >> 32) * <uint64_t>total >> 32)
    i = 0
    while pick >= counts[i]:
        pick -= counts[i]
        i += 1
    low = nth_bit(starts[i], pick)
    masks[i // 3] |= block_from(low, i % 3)
    return i << 6 | ctz(low)


cdef int play_random(int n, uint64_t* masks, uint64_t* seed, list record) except -1:
    """Play uniformly random moves on grid masks until no move is left; the number of plies.
    With ``record`` (a list), each move is appended as (colour, row, col, placement)."""
    cdef uint64_t full = full_grid(n)
    cdef int plies = 0, code
    while True:
        code = random_block(full, masks, seed)
        if code < 0:
            return plies
        if record is not None:
            record.append((COLOURS[(code >> 6) // 3], (code & 63) >> 3, code & 7, PLACEMENTS[(code >> 6) % 3]))
        plies += 1


cdef int load_masks(state, uint64_t* masks) except -1:
    cdef int i
    _check_size(state.n)
    for i in range(3):
        masks[i] = to_grid(state.masks[i], state.n)
    return 0


def playout(state, rng):
    """Play a ``HermitState`` to its end with uniformly random moves (seeded from ``rng``):
    the returns of both seats, +1 for the winner (who made the last move) and -1 for the other."""
    cdef uint64_t masks[3]
    cdef uint64_t seed = rng.getrandbits(64)
    load_masks(state, masks)
    plies = play_random(state.n, masks, &seed, None)
    winner = (state.plies + plies + 1) & 1
    return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def playouts(state, int games, seed):
    """Play ``games`` random games from a ``HermitState``: a bytes of the winning seat (0 or 1)
    of each game, reproducible from ``seed`` (an int)."""
    cdef uint64_t masks[3]
    cdef uint64_t start[3]
    cdef uint64_t stream = <uint64_t>(int(seed) & 0xffffffffffffffffULL)
    cdef int game, plies, first = state.plies & 1
    cdef bytearray winners = bytearray(games)
    load_masks(state, start)
    for game in range(games):
        masks[0] = start[0]; masks[1] = start[1]; masks[2] = start[2]
        plies = play_random(state.n, masks, &stream, None)
        winners[game] = (first + plies + 1) & 1
    return bytes(winners)


def random_game(state, seed):
    """The moves of one random game from a ``HermitState``, as (colour, row, col, placement)."""
    cdef uint64_t masks[3]
    cdef uint64_t stream = <uint64_t>(int(seed) & 0xffffffffffffffffULL)
    moves = []
    load_masks(state, masks)
    play_random(state.n, masks, &stream, moves)
    return moves


# -- batched environments --------------------------------------------------------------------------
# ``bordspel.rl.vector``'s Hermit: N games stepped in one call, observations and masks written into
# the caller's arrays (the planes and actions of ``bordspel.games.hermit.codec``).

cdef enum:
    PLANES = 6
    WIN_VALUE = 1000000  # the greedy player's value of a win (its evaluation is +-1)


cdef inline uint64_t live_squares(uint64_t full, const uint64_t* masks) noexcept nogil:
    """The squares where a block of some colour may still go."""
    cdef uint64_t empty = full & ~(masks[0] | masks[1] | masks[2])
    return (empty & ~dilate(masks[0], full)) | (empty & ~dilate(masks[1], full)) | (empty & ~dilate(masks[2], full))


include "vector_batch.pxi"


cdef class Batch(VectorBatch):
    """N Hermit games on an ``n`` x ``n`` board (1 to 8) for ``bordspel.rl.vector`` (see
    ``vector_batch.pxi``)."""

    cdef uint64_t start[3]
    cdef uint64_t* masks
    cdef int* plies
    cdef uint64_t full
    cdef int size, cells, start_plies

    def __cinit__(self, state, int games, int seat, int opponent):
        load_masks(state, self.start)
        self.size = state.n
        self.cells = self.size * self.size
        self.full = full_grid(self.size)
        self.start_plies = state.plies
        self.masks = <uint64_t*>calloc(3 * games, sizeof(uint64_t))
        self.plies = <int*>calloc(games, sizeof(int))
        if not (self.masks and self.plies):
            raise MemoryError("no memory for the batch of Hermit games")
        self._allocate(games, seat, opponent, 9 * self.cells)

    def __dealloc__(self):
        free(self.masks)
        free(self.plies)

    cdef void _start(self, int i) noexcept nogil:
        memcpy(&self.masks[3 * i], self.start, 3 * sizeof(uint64_t))
        self.plies[i] = self.start_plies

    cdef int _to_move(self, int i) noexcept nogil:
        return self.plies[i] & 1

    cdef int _result(self, int i, int seat) noexcept nogil:
        if live_squares(self.full, &self.masks[3 * i]):
            return ONGOING
        return 1 if (self.plies[i] - 1) & 1 == seat else -1  # the last mover wins

    cdef void _replies(self, int i, int32_t* reply, int width) noexcept nogil:
        """The opponent's move unless the game is over or it is the agent's turn; its action into
        ``reply``."""
        cdef int code, cell
        if self.plies[i] & 1 == self.seat or not live_squares(self.full, &self.masks[3 * i]):
            return
        if self.opponent:
            reply[0] = self._greedy(i)
            self._play(i, reply[0])
            return
        code = random_block(self.full, &self.masks[3 * i], &self.rngs[i])
        cell = code & 63
        reply[0] = (code >> 6) * self.cells + (cell >> 3) * self.size + (cell & 7)
        self.plies[i] += 1

    cdef inline uint64_t _block(self, int action, int* colour) noexcept nogil:
        """The squares (grid layout) of ``action``'s block; its colour into ``colour``."""
        cdef int kind = action // self.cells, cell = action % self.cells
        colour[0] = kind // 3
        return block_from(<uint64_t>1 << (8 * (cell // self.size) + cell % self.size), kind % 3)

    cdef void _play(self, int i, int action) noexcept nogil:
        cdef int colour
        cdef uint64_t block = self._block(action, &colour)
        self.masks[3 * i + colour] |= block
        self.plies[i] += 1

    cdef int _greedy(self, int i) noexcept nogil:
        """The greedy player's move: a win, else one after which the evaluation (the parity of the
        live squares and their regions) favours it, ties drawn from the game's stream."""
        cdef uint64_t child[3]
        cdef uint64_t live, rest
        cdef uint8_t* legal = &self.legal[i * self.actions]
        cdef int action, colour, value, regions, best = -WIN_VALUE - 1, count = 0
        cdef int chosen[9 * 64]
        self._mask(i)
        for action in range(self.actions):
            if not legal[action]:
                continue
            memcpy(child, &self.masks[3 * i], 3 * sizeof(uint64_t))
            rest = self._block(action, &colour)
            child[colour] |= rest
            live = live_squares(self.full, child)
            if not live:
                value = WIN_VALUE
            else:
                regions, rest = 0, live
                while rest:
                    rest &= ~next_region(rest)
                    regions += 1
                value = -1 if (popcount(live) + regions) & 1 else 1  # the evaluation is the mover's
            if value > best:
                best, count = value, 0
            if value == best:
                chosen[count] = action
                count += 1
        return chosen[<int>((next_random(&self.rngs[i]) >> 32) * <uint64_t>count >> 32)]

    cdef void _mask(self, int i) noexcept nogil:
        """The legal actions of game ``i`` into its row of ``legal``."""
        cdef uint64_t* m = &self.masks[3 * i]
        cdef uint8_t* legal = &self.legal[i * self.actions]
        cdef uint64_t empty = self.full & ~(m[0] | m[1] | m[2]), starts
        cdef int colour, shape, cell, base
        memset(legal, 0, self.actions)
        for colour in range(3):
            for shape in range(3):
                starts = block_starts(empty & ~dilate(m[colour], self.full), shape)
                base = (colour * 3 + shape) * self.cells
                while starts:
                    cell = ctz(starts)
                    starts &= starts - 1
                    legal[base + (cell >> 3) * self.size + (cell & 7)] = 1

    cdef void _observe(self, int i, int8_t[:, :, :, ::1] obs) noexcept nogil:
        cdef uint64_t* m = &self.masks[3 * i]
        cdef uint64_t empty = self.full & ~(m[0] | m[1] | m[2])
        cdef uint64_t planes[PLANES]
        cdef int8_t* cell
        cdef int row, col, k, bit
        for k in range(3):
            planes[k] = m[k]
            planes[3 + k] = empty & ~dilate(m[k], self.full)
        for row in range(self.size):
            for col in range(self.size):
                cell = &obs[i, row, col, 0]
                bit = 8 * row + col
                for k in range(PLANES):
                    cell[k] = planes[k] >> bit & 1
