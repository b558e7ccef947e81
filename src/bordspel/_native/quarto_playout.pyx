# cython: language_level=3
"""Random Quarto games in C, for Monte Carlo tree search (the reference: ``random_move`` and
``apply_unchecked`` of ``bordspel.games.quarto.engine.QuartoState``, repeated to the end).

A position is the engine's own: the mask of filled squares, per characteristic the mask of
squares whose piece has its second value, the piece in hand (-1 on the first turn) and the
seat to move. Every move is drawn uniformly from the legal moves, as ``random_move`` draws
them: a square where the piece in hand wins (or the last piece fills the board) is one move,
any other square one move per piece that can be handed over. A result is the winning seat,
or 2 for a draw. The lines and the winning rule are read from ``bordspel.games.quarto.rules``
on import.
"""

from libc.stdint cimport int16_t, uint8_t, uint32_t, uint64_t

from bordspel.games.quarto.rules import SHARES, line_masks

cdef extern from * nogil:
    int ctz "__builtin_ctz" (unsigned int)

cdef enum:
    DRAW = 2
    FULL = 0xFFFF
    MAX_LINES = 19

cdef uint32_t LINES[MAX_LINES]
"""The rules' lines of the advanced variant: the ten lines of four, then the 2x2 squares."""
cdef int PLAIN_LINES = len(line_masks(False))
cdef int ADVANCED_LINES = len(line_masks(True))
cdef uint8_t SHARE[256]
"""The rules' ``SHARES``: ``ones << 4 | zeros`` -> whether a full line of such pieces wins."""


cdef void fill_tables() except *:
    cdef int i
    if ADVANCED_LINES > MAX_LINES:
        raise ValueError(f"the compiled playouts take at most {MAX_LINES} lines")
    for i, mask in enumerate(line_masks(True)):
        LINES[i] = mask
    for i in range(256):
        SHARE[i] = SHARES[i]


fill_tables()


cdef struct Game:
    uint32_t filled
    uint32_t ones[4]
    int hand
    int turn
    uint32_t available
    int lines


cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    """splitmix64."""
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t below(uint64_t* state, uint32_t bound) noexcept nogil:
    """A random number from 0 to ``bound - 1``."""
    return <uint32_t>(((next_random(state) >> 32) * bound) >> 32)


cdef inline int popcount16(uint32_t x) noexcept nogil:
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


cdef inline int nth_bit(uint32_t mask, uint32_t n) noexcept nogil:
    while n:
        mask &= mask - 1
        n -= 1
    return ctz(mask)


cdef bint wins_after(Game* g, int square) noexcept nogil:
    """Whether the piece in hand on the empty ``square`` completes a line."""
    cdef uint32_t bit = 1 << square, filled = g.filled | bit, line, covered
    cdef int i, j, ones, zeros
    for i in range(g.lines):
        line = LINES[i]
        if line & bit and filled & line == line:
            ones = zeros = 0
            for j in range(4):
                covered = (g.ones[j] | bit if g.hand >> j & 1 else g.ones[j]) & line
                if covered == line:
                    ones |= 1 << j
                elif covered == 0:
                    zeros |= 1 << j
            if SHARE[ones << 4 | zeros]:
                return True
    return False


cdef int play(Game* g, uint64_t* rng, int16_t* moves) noexcept nogil:
    """Play ``g`` to the end; its result. ``moves`` (or NULL) gets ``square << 5 | give + 1``
    for every move (square 31 on the first turn, give -1 when none), then -1."""
    cdef uint32_t ends, empty, draw, bit
    cdef int square = 31, give, offer, n = 0, j, result = -1
    while result < 0:
        if g.hand < 0:
            give = nth_bit(g.available, below(rng, popcount16(g.available)))
        else:
            offer = popcount16(g.available)
            empty = ~g.filled & FULL
            ends = ending_squares(g, empty, offer)
            draw = below(rng, popcount16(ends) + popcount16(empty & ~ends) * offer)
            bit = empty
            while True:
                square = ctz(bit)
                bit &= bit - 1
                if ends >> square & 1:
                    if draw == 0:
                        give = -1
                        result = g.turn if offer or wins_after(g, square) else DRAW
                        break
                    draw -= 1
                elif draw < <uint32_t>offer:
                    give = nth_bit(g.available, draw)
                    break
                else:
                    draw -= offer
            g.filled |= 1 << square
            for j in range(4):
                if g.hand >> j & 1:
                    g.ones[j] |= 1 << square
        if moves != NULL:
            moves[n] = square << 5 | (give + 1)
            n += 1
        if result < 0:
            g.hand = give
            g.available &= ~(1 << give)
            g.turn = 1 - g.turn
    if moves != NULL:
        moves[n] = -1
    return result


cdef uint32_t ending_squares(Game* g, uint32_t empty, int offer) noexcept nogil:
    """The empty squares where placing the piece in hand ends the game (a win, or the last
    piece)."""
    cdef uint32_t ends = 0
    cdef int square
    if not offer:
        return empty
    while empty:
        square = ctz(empty)
        empty &= empty - 1
        if wins_after(g, square):
            ends |= 1 << square
    return ends


cdef Game load(int filled, ones, int hand, int turn, bint advanced) except *:
    cdef Game g
    cdef int square, j, piece
    if len(ones) != 4 or filled & ~FULL or not -1 <= hand < 16 or turn not in (0, 1):
        raise ValueError("a Quarto position is filled, four characteristic masks, hand, turn")
    g.filled, g.hand, g.turn = filled, hand, turn
    g.lines = ADVANCED_LINES if advanced else PLAIN_LINES
    g.available = FULL
    for j in range(4):
        g.ones[j] = ones[j]
    for square in range(16):
        if filled >> square & 1:
            piece = 0
            for j in range(4):
                piece |= (g.ones[j] >> square & 1) << j
            g.available &= ~(1 << piece)
    if hand >= 0:
        g.available &= ~(1 << hand)
    if filled == FULL or (hand < 0 and filled):
        raise ValueError("the game in that position is over or has no piece in hand")
    return g


def random_result(int filled, ones, int hand, int turn, bint advanced, uint64_t seed):
    """The result of one random game from an ongoing position (see the module docstring)."""
    cdef Game g = load(filled, ones, hand, turn, advanced)
    cdef uint64_t rng = seed
    return play(&g, &rng, NULL)


def random_results(int filled, ones, int hand, int turn, bint advanced, int games, uint64_t seed):
    """The results of ``games`` random games from the position, one byte each."""
    cdef Game start = load(filled, ones, hand, turn, advanced)
    cdef Game g
    cdef uint64_t rng = seed
    cdef bytearray results = bytearray(max(games, 0))
    cdef uint8_t* out = results
    cdef int i
    with nogil:
        for i in range(games):
            g = start
            out[i] = play(&g, &rng, NULL)
    return bytes(results)


def random_game(int filled, ones, int hand, int turn, bint advanced, uint64_t seed):
    """(result, moves) of one random game: moves as (square or -1, piece given or -1)."""
    cdef Game g = load(filled, ones, hand, turn, advanced)
    cdef uint64_t rng = seed
    cdef int16_t moves[18]
    cdef int result = play(&g, &rng, moves), i = 0
    found = []
    while moves[i] >= 0:
        found.append((-1 if moves[i] >> 5 == 31 else moves[i] >> 5, (moves[i] & 31) - 1))
        i += 1
    return result, found
