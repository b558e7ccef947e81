# cython: language_level=3
"""The Quarto solver of ``bordspel.games.quarto.ai`` (the readable reference) in C.

The same search: negamax with alpha-beta, win/draw/loss first and then the distance, scores
``WIN - d``; per line the number of pieces and the characteristics all of them have
(``ones``) and lack (``zeros``), so the pieces that would win are table look-ups; the
canonical key of the reference at ``canonical_empties`` empty squares or more, the raw board
below. Two transposition tables, fixed C arrays of two-entry buckets (the first keeps the entry
with the most empty squares, the largest subtree, the second the latest): the canonical keys
in one of up to ``2**max_table_bits`` entries, the raw keys (the many small subtrees) in one of
at most ``2**NEAR_BITS``, small enough to stay in the processor's cache, so the deep positions
neither evict the shallow ones nor wait for memory.

The lines come from the caller (``rules.line_masks``); the tables of the winning rule
(``WINNERS``, ``SHARES``) are read from ``bordspel.games.quarto.rules`` on import.

The search runs without the GIL. Every ``POLL`` nodes it reads the clock: past the deadline
it stops (``solve_*`` raise ``TimeoutError``, which the Python side turns into ``OutOfTime``),
and about every ``report_seconds`` it takes the GIL to call ``progress(nodes, seconds)`` and
let signals (Ctrl-C) through.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from bordspel.games.quarto.rules import SHARES, WINNERS

cdef extern from * nogil:
    """
    #include <sys/mman.h>

    /* A zeroed table whose pages the system hands out on first touch; a large one in huge
       pages where the system has them (fewer faults when it fills). */
    static void *table_alloc(size_t bytes) {
        void *table = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (table == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        if (bytes >= ((size_t)32 << 20)) madvise(table, bytes, MADV_HUGEPAGE);
    #endif
        return table;
    }
    """
    int ctz "__builtin_ctz" (unsigned int)
    void* table_alloc(size_t bytes)
    int munmap(void* address, size_t bytes)

cdef enum:
    WIN = 1000
    EXACT = 0
    LOWER = 1
    UPPER = 2
    MAX_LINES = 19
    MAX_CELL_LINES = 7
    MAX_SYMMETRIES = 32
    MIN_TABLE_BITS = 10
    NEAR_BITS = 20
    POLL = 4095
    USED = 1 << 17
    WDL = 1 << 16
    RUNNING = 0
    OUT_OF_TIME = 1
    INTERRUPTED = 2

cdef uint16_t COMPLETING[256]
"""The rules' ``WINNERS``: for a line of three, ``shared_ones << 4 | shared_zeros`` -> the
pieces that complete it."""
cdef uint8_t SHARE[256]
"""The rules' ``SHARES``: ``ones << 4 | zeros`` -> whether a full line of such pieces wins."""


cdef void fill_tables() except *:
    cdef int index
    for index in range(256):
        COMPLETING[index] = WINNERS[index]
        SHARE[index] = SHARES[index]


fill_tables()


cdef struct Entry:
    uint64_t key
    uint32_t check      # the filled mask, WDL in win/draw/loss mode, USED
    int16_t score       # distances from the position, not the root
    uint8_t flag
    int8_t best


cdef struct Search:
    int8_t board[16]
    uint64_t packed     # 4 bits a square, 0 when empty (with ``filled``, the raw key)
    uint16_t filled
    int lines
    uint8_t ones[MAX_LINES]
    uint8_t zeros[MAX_LINES]
    uint8_t count[MAX_LINES]
    uint16_t threat[MAX_LINES]
    uint16_t line_cells[MAX_LINES]
    int cell_count[16]
    int8_t cell_lines[16][MAX_CELL_LINES]
    int symmetries
    int8_t perm[MAX_SYMMETRIES][16]
    uint16_t perm_low[MAX_SYMMETRIES][256]
    uint16_t perm_high[MAX_SYMMETRIES][256]
    int canonical_empties
    Entry* far          # canonical keys (``canonical_empties`` empty squares or more)
    uint64_t far_mask
    Entry* near         # raw keys (fewer empty squares): small, so it stays in the cache
    uint64_t near_mask
    uint64_t nodes
    int wdl
    double deadline
    double next_report
    double report_seconds
    int stop
    void* owner


cdef inline int popcount16(uint32_t x) noexcept nogil:
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


cdef inline int popcount64(uint64_t x) noexcept nogil:
    cdef int found = 0
    while x:
        x &= x - 1
        found += 1
    return found


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int win(Search* s, int placements) noexcept nogil:
    return 1 if s.wdl else WIN - placements


# -- the board --------------------------------------------------------------------------------------
cdef void clear(Search* s) noexcept nogil:
    cdef int line, cell
    for cell in range(16):
        s.board[cell] = -1
    s.packed = 0
    s.filled = 0
    for line in range(s.lines):
        s.ones[line] = 15
        s.zeros[line] = 15
        s.count[line] = 0
        s.threat[line] = 0


cdef inline void update_threat(Search* s, int line) noexcept nogil:
    if s.count[line] == 3:
        s.threat[line] = COMPLETING[s.ones[line] << 4 | s.zeros[line]]
    else:
        s.threat[line] = 0


cdef inline void put(Search* s, int cell, int piece, uint8_t* saved) noexcept nogil:
    cdef int i, line
    s.board[cell] = piece
    s.packed |= <uint64_t>piece << (4 * cell)
    s.filled |= 1 << cell
    for i in range(s.cell_count[cell]):
        line = s.cell_lines[cell][i]
        saved[2 * i] = s.ones[line]
        saved[2 * i + 1] = s.zeros[line]
        s.ones[line] &= piece
        s.zeros[line] &= ~piece & 15
        s.count[line] += 1
        update_threat(s, line)


cdef inline void take(Search* s, int cell, uint8_t* saved) noexcept nogil:
    cdef int i, line
    s.packed &= ~(<uint64_t>15 << (4 * cell))
    s.filled &= ~(1 << cell)
    s.board[cell] = -1
    for i in range(s.cell_count[cell]):
        line = s.cell_lines[cell][i]
        s.ones[line] = saved[2 * i]
        s.zeros[line] = saved[2 * i + 1]
        s.count[line] -= 1
        update_threat(s, line)


cdef inline uint16_t threats(Search* s) noexcept nogil:
    cdef uint16_t found = 0
    cdef int line
    for line in range(s.lines):
        found |= s.threat[line]
    return found


cdef bint completes(Search* s, int cell) noexcept nogil:
    """Whether the piece just put on ``cell`` completes one of its lines."""
    cdef int i, line
    for i in range(s.cell_count[cell]):
        line = s.cell_lines[cell][i]
        if s.count[line] == 4 and SHARE[s.ones[line] << 4 | s.zeros[line]]:
            return True
    return False


# -- the transposition table ------------------------------------------------------------------------
cdef inline void sort4(uint64_t* c) noexcept nogil:
    cdef uint64_t t
    if c[0] > c[1]:
        t = c[0]; c[0] = c[1]; c[1] = t
    if c[2] > c[3]:
        t = c[2]; c[2] = c[3]; c[3] = t
    if c[0] > c[2]:
        t = c[0]; c[0] = c[2]; c[2] = t
    if c[1] > c[3]:
        t = c[1]; c[1] = c[3]; c[3] = t
    if c[1] > c[2]:
        t = c[1]; c[1] = c[2]; c[2] = t


cdef uint64_t canonical(Search* s, uint32_t* check) noexcept nogil:
    """The reference's canonical key: over the square permutations with the smallest filled
    mask, the pieces in permuted order XOR the first, characteristic columns sorted, smallest."""
    cdef uint32_t masks[MAX_SYMMETRIES]
    cdef uint32_t least = 0x10000, mask
    cdef uint64_t best = 0xFFFFFFFFFFFFFFFFULL, packed
    cdef uint64_t columns[4]
    cdef int k, i, piece, first, diff
    for k in range(s.symmetries):
        masks[k] = s.perm_low[k][s.filled & 255] | s.perm_high[k][s.filled >> 8]
        if masks[k] < least:
            least = masks[k]
    for k in range(s.symmetries):
        if masks[k] != least:
            continue
        columns[0] = columns[1] = columns[2] = columns[3] = 0
        mask, i, first = least, 0, -1
        while mask:
            piece = s.board[s.perm[k][ctz(mask)]]
            mask &= mask - 1
            if first < 0:
                first = piece
            diff = piece ^ first
            columns[0] |= <uint64_t>(diff & 1) << i
            columns[1] |= <uint64_t>(diff >> 1 & 1) << i
            columns[2] |= <uint64_t>(diff >> 2 & 1) << i
            columns[3] |= <uint64_t>(diff >> 3 & 1) << i
            i += 1
        sort4(columns)
        packed = columns[0] << 48 | columns[1] << 32 | columns[2] << 16 | columns[3]
        if packed < best:
            best = packed
    check[0] = least
    return best


cdef inline uint64_t key_of(Search* s, int empties, uint32_t* check) noexcept nogil:
    cdef uint64_t key
    if empties < s.canonical_empties:
        check[0] = s.filled
        key = s.packed
    else:
        key = canonical(s, check)
    check[0] |= USED | (WDL if s.wdl else 0)
    return key


cdef inline Entry* bucket(Search* s, uint64_t key, uint32_t check, int empties) noexcept nogil:
    cdef uint64_t h = key ^ (<uint64_t>check * 0x9E3779B97F4A7C15ULL)
    h ^= h >> 30
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 27
    h *= 0x94D049BB133111EBULL
    h ^= h >> 31
    if empties >= s.canonical_empties:
        return s.far + (h & s.far_mask & ~(<uint64_t>1))
    return s.near + (h & s.near_mask & ~(<uint64_t>1))


cdef inline Entry* probe(Entry* slots, uint64_t key, uint32_t check) noexcept nogil:
    if slots[0].key == key and slots[0].check == check:
        return slots
    if slots[1].key == key and slots[1].check == check:
        return slots + 1
    return NULL


cdef inline int empties_of(uint32_t check) noexcept nogil:
    return 16 - popcount16(check & 0xFFFF)


cdef void store(Entry* slots, uint64_t key, uint32_t check, int score, int flag, int best) noexcept nogil:
    cdef Entry* target = probe(slots, key, check)
    if target == NULL:
        if not slots[0].check or empties_of(check) >= empties_of(slots[0].check):
            slots[1] = slots[0]
            target = slots
        else:
            target = slots + 1
    target.key = key
    target.check = check
    target.score = score
    target.flag = flag
    target.best = best


# -- search ---------------------------------------------------------------------------------------
cdef void poll(Search* s) noexcept nogil:
    cdef double t = now()
    if s.deadline > 0 and t > s.deadline:
        s.stop = OUT_OF_TIME
    elif t >= s.next_report:
        s.next_report = t + s.report_seconds
        report(s)


cdef void report(Search* s) noexcept nogil:
    with gil:
        solver = <Solver>s.owner
        try:
            PyErr_CheckSignals()
            if solver.progress is not None:
                solver.progress(s.nodes)
        except BaseException as error:
            solver.error = error
            s.stop = INTERRUPTED


cdef int choose(Search* s, uint32_t available, uint32_t now_threats, int alpha, int beta, int done) noexcept nogil:
    """Score of the player who must hand over one of ``available`` (``done`` placements made)."""
    cdef uint32_t safe, check, rest
    cdef uint64_t key
    cdef Entry* slots
    cdef Entry* entry
    cdef int value, stored, first = -1, original, best, best_piece, piece, flag, empties
    s.nodes += 1
    if not s.nodes & POLL:
        poll(s)
        if s.stop:
            return 0
    if not available:
        return 0
    safe = available & ~now_threats
    if not safe:
        return -win(s, done + 1)
    empties = popcount16(available)
    key = key_of(s, empties, &check)
    slots = bucket(s, key, check, empties)
    entry = probe(slots, key, check)
    if entry != NULL:
        stored = entry.score
        value = stored - done if stored > 1 else stored + done if stored < -1 else stored
        if (
            entry.flag == EXACT
            or (entry.flag == LOWER and value >= beta)
            or (entry.flag == UPPER and value <= alpha)
        ):
            return value
        first = entry.best
    original, best, best_piece = alpha, -WIN - 1, -1
    if first >= 0 and safe >> first & 1:
        rest = safe & ~(1 << first)
        piece = first
    else:
        rest = safe & (safe - 1)
        piece = ctz(safe)
    while True:
        value = -place(s, piece, available & ~(1 << piece), now_threats, -beta, -alpha, done)
        if s.stop:
            return 0
        if value > best:
            best, best_piece = value, piece
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        if not rest:
            break
        piece = ctz(rest)
        rest &= rest - 1
    flag = EXACT if original < best < beta else (LOWER if best >= beta else UPPER)
    stored = best + done if best > 1 else best - done if best < -1 else best
    store(slots, key, check, stored, flag, best_piece)
    return best


cdef int placements(Search* s, int piece, uint32_t available, int* cells, uint32_t* afters) noexcept nogil:
    """The empty squares with the threats after placing ``piece`` there, those leaving the
    fewest safe pieces first, those leaving none last (ties by square); returns how many."""
    cdef uint32_t now_threats = threats(s), after, new
    cdef int order[16]
    cdef int cell, i, j, line, n = 0, safe, sort_key
    cdef bint closes
    for cell in range(16):
        if s.board[cell] >= 0:
            continue
        new, closes = 0, False
        for i in range(s.cell_count[cell]):
            line = s.cell_lines[cell][i]
            if s.count[line] == 2:
                new |= COMPLETING[(s.ones[line] & piece) << 4 | (s.zeros[line] & ~piece & 15)]
            elif s.count[line] == 3:
                closes = True
        after = now_threats
        if closes:
            after = 0
            for line in range(s.lines):
                if not s.line_cells[line] >> cell & 1:
                    after |= s.threat[line]
        after |= new
        safe = popcount16(available & ~after)
        sort_key = (safe if safe else 17) << 4 | cell
        i = n
        while i > 0 and order[i - 1] > sort_key:
            order[i] = order[i - 1]
            afters[i] = afters[i - 1]
            i -= 1
        order[i] = sort_key
        afters[i] = after
        n += 1
    for j in range(n):
        cells[j] = order[j] & 15
    return n


cdef int place(Search* s, int piece, uint32_t available, uint32_t now_threats, int alpha, int beta, int done) noexcept nogil:
    """Score of the player who must place ``piece`` (then choose from ``available``)."""
    cdef int cells[16]
    cdef uint32_t afters[16]
    cdef uint8_t saved[2 * MAX_CELL_LINES]
    cdef int n, i, value, best = -WIN - 1
    s.nodes += 1
    if now_threats >> piece & 1:
        return win(s, done + 1)
    if not available:
        return 0
    n = placements(s, piece, available, cells, afters)
    for i in range(n):
        if not available & ~afters[i]:  # every piece left would lose, and so would the rest
            return max(best, -win(s, done + 2))
        put(s, cells[i], piece, saved)
        value = choose(s, available, afters[i], alpha, beta, done + 1)
        take(s, cells[i], saved)
        if s.stop:
            return 0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


cdef int search_choice(Search* s, uint32_t available, int alpha, int beta) noexcept nogil:
    return choose(s, available, threats(s), alpha, beta, 0)


cdef int search_placement(Search* s, int piece, uint32_t available, int alpha, int beta) noexcept nogil:
    return place(s, piece, available, threats(s), alpha, beta, 0)


cdef int exact(Search* s, int piece, uint32_t available) noexcept nogil:
    """Win, draw or loss first (a narrow window), then the distance of a decisive result;
    ``piece`` < 0 solves the choice, else the placement of ``piece``."""
    cdef int result
    s.wdl = 1
    result = search_choice(s, available, -1, 1) if piece < 0 else search_placement(s, piece, available, -1, 1)
    if result == 0 or s.stop:
        return 0
    s.wdl = 0
    if result > 0:
        return search_choice(s, available, WIN - 17, WIN + 1) if piece < 0 else search_placement(
            s, piece, available, WIN - 17, WIN + 1)
    return search_choice(s, available, -WIN - 1, -(WIN - 17)) if piece < 0 else search_placement(
        s, piece, available, -WIN - 1, -(WIN - 17))


cdef int best_piece(Search* s, uint32_t available, int score) noexcept nogil:
    """The first piece to give that keeps ``score`` (the reference's choice)."""
    cdef int piece
    for piece in range(16):
        if available >> piece & 1:
            if -search_placement(s, piece, available & ~(1 << piece), -score - 1, -score + 1) == score:
                return piece
            if s.stop:
                return -1
    return -1


cdef int best_cell(Search* s, int piece, uint32_t available, int score) noexcept nogil:
    """The first square to place ``piece`` on that keeps ``score`` (the reference's choice)."""
    cdef uint8_t saved[2 * MAX_CELL_LINES]
    cdef int cell, value = 0
    cdef bint wins
    for cell in range(16):
        if s.board[cell] >= 0:
            continue
        put(s, cell, piece, saved)
        wins = completes(s, cell)
        if not wins and available:
            value = choose(s, available, threats(s), score - 1, score + 1, 1)
        take(s, cell, saved)
        if s.stop:
            return -1
        if wins or not available or value == score:
            return cell
    return -1


cdef int bits_of(Entry* table, uint64_t mask) noexcept:
    return 0 if table == NULL else popcount64(mask)


cdef void release(Entry** table, uint64_t* mask) noexcept:
    if table[0] != NULL:
        munmap(table[0], (mask[0] + 1) * sizeof(Entry))
        table[0] = NULL
        mask[0] = 0


cdef void grow(Entry** table, uint64_t* mask, int bits) except *:
    """Make ``table`` at least ``2**bits`` entries (a new, empty one if it was smaller)."""
    if bits <= bits_of(table[0], mask[0]):
        return
    release(table, mask)
    table[0] = <Entry*>table_alloc((<size_t>1 << bits) * sizeof(Entry))
    if table[0] == NULL:
        raise MemoryError(f"no room for a table of 2**{bits} entries")
    mask[0] = (<uint64_t>1 << bits) - 1


cdef class Solver:
    """A solver for one variant; keeps its table between calls."""

    cdef Search s
    cdef public object progress
    """Called with the node count about every ``report_seconds`` of a search, or None."""
    cdef object error
    cdef int max_table_bits

    def __cinit__(
        self,
        lines,
        symmetries,
        int canonical_empties=9,
        int max_table_bits=24,
        double report_seconds=1.0,
    ):
        cdef int line, cell, k, old, new, byte
        if not 1 <= len(lines) <= MAX_LINES or not 1 <= len(symmetries) <= MAX_SYMMETRIES:
            raise ValueError("at most 19 lines and 32 symmetries")
        if not MIN_TABLE_BITS <= max_table_bits <= 34:
            raise ValueError(f"max_table_bits is from {MIN_TABLE_BITS} to 34")
        self.max_table_bits = max_table_bits
        self.s.lines = len(lines)
        for cell in range(16):
            self.s.cell_count[cell] = 0
        for line, mask in enumerate(lines):
            self.s.line_cells[line] = mask
            for cell in range(16):
                if mask >> cell & 1:
                    if self.s.cell_count[cell] == MAX_CELL_LINES:
                        raise ValueError("a square is on at most 7 lines")
                    self.s.cell_lines[cell][self.s.cell_count[cell]] = line
                    self.s.cell_count[cell] += 1
        self.s.symmetries = len(symmetries)
        for k, perm in enumerate(symmetries):
            for new in range(16):
                self.s.perm[k][new] = perm[new]
            for byte in range(256):
                self.s.perm_low[k][byte] = 0
                self.s.perm_high[k][byte] = 0
                for new in range(16):
                    old = perm[new]
                    if old < 8 and byte >> old & 1:
                        self.s.perm_low[k][byte] |= 1 << new
                    elif old >= 8 and byte >> (old - 8) & 1:
                        self.s.perm_high[k][byte] |= 1 << new
        self.s.canonical_empties = canonical_empties
        self.s.report_seconds = report_seconds
        self.s.owner = <void*>self
        self.progress = None
        clear(&self.s)

    def __dealloc__(self):
        release(&self.s.far, &self.s.far_mask)
        release(&self.s.near, &self.s.near_mask)

    @property
    def table_bits(self):
        """The larger table has ``2**table_bits`` entries (0 before the first search)."""
        return max(bits_of(self.s.far, self.s.far_mask), bits_of(self.s.near, self.s.near_mask))

    cdef void _fit_tables(self, int empties) except *:
        """Tables for a search from ``empties`` empty squares: from 2**12 entries at 8 empty
        squares, 1.5 bits more a square, at most 2**max_table_bits, the raw-key one at most
        2**NEAR_BITS; they only grow (their entries are lost then)."""
        cdef int bits = min(self.max_table_bits, max(MIN_TABLE_BITS, 12 + (3 * (empties - 8)) // 2))
        grow(&self.s.near, &self.s.near_mask, min(bits, NEAR_BITS))
        if empties >= self.s.canonical_empties:
            grow(&self.s.far, &self.s.far_mask, bits)

    def solve_choice(self, board, int available, double deadline=0.0):
        """(score, best piece or -1, nodes) for the player who must give one of ``available``."""
        return self._solve(board, -1, available, deadline)

    def solve_placement(self, board, int piece, int available, double deadline=0.0):
        """(score, best square, nodes) for the player who must place ``piece``."""
        if not 0 <= piece < 16:
            raise ValueError(f"piece {piece} is not 0-15")
        return self._solve(board, piece, available, deadline)

    def search(self, board, int piece, int available, int alpha, int beta, double deadline=0.0):
        """(score, nodes) of a win/draw/loss search (scores 1, 0, -1) in the window (``alpha``,
        ``beta``): a score <= ``alpha`` is an upper bound, >= ``beta`` a lower bound; ``piece``
        -1 for the player who must give one of ``available``, else who must place ``piece``."""
        cdef Search* s = &self.s
        cdef uint64_t start = s.nodes
        cdef int score = 0
        if not -1 <= piece < 16:
            raise ValueError(f"piece {piece} is not -1-15")
        self._start(board, available, deadline)
        s.wdl = 1
        with nogil:
            score = search_choice(s, available, alpha, beta) if piece < 0 else search_placement(
                s, piece, available, alpha, beta)
        self._finish()
        return score, s.nodes - start

    cdef tuple _solve(self, board, int piece, int available, double deadline):
        cdef Search* s = &self.s
        cdef uint64_t start = s.nodes
        cdef int score = 0, best = -1
        self._start(board, available, deadline)
        with nogil:
            score = exact(s, piece, available)
            if not s.stop:
                best = best_piece(s, available, score) if piece < 0 else best_cell(s, piece, available, score)
        self._finish()
        return score, best, s.nodes - start

    cdef void _start(self, board, int available, double deadline) except *:
        """Load ``board``, fit the tables and set the clock for a search."""
        cdef Search* s = &self.s
        self._load(board)
        if available & ~0xFFFF:
            raise ValueError("available is a 16-bit mask of pieces")
        self._fit_tables(16 - popcount16(s.filled))
        s.deadline, s.stop, s.next_report = deadline, RUNNING, now() + s.report_seconds
        self.error = None

    cdef void _finish(self) except *:
        """Clear the board; raise what stopped the search, if anything did."""
        clear(&self.s)
        if self.s.stop == OUT_OF_TIME:
            raise TimeoutError("the solver ran out of time")
        if self.s.stop == INTERRUPTED:
            raise self.error

    cdef void _load(self, board) except *:
        cdef uint8_t saved[2 * MAX_CELL_LINES]
        cdef int cell, piece
        if len(board) != 16:
            raise ValueError("a board is 16 piece codes, -1 for empty")
        clear(&self.s)
        for cell in range(16):
            piece = board[cell]
            if piece >= 16:
                raise ValueError(f"piece code {piece} is not 0-15")
            if piece >= 0:
                put(&self.s, cell, piece, saved)
