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

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset


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
cdef uint8_t SQUARE_LINES[16][MAX_LINES]
"""The lines through each square, in the order of ``LINES``."""
cdef int SQUARE_LINE_COUNT[2][16]
"""How many lines pass through each square: ``[advanced][square]``."""


cdef void fill_tables() except *:
    cdef int i, square, advanced
    if ADVANCED_LINES > MAX_LINES:
        raise ValueError(f"the compiled playouts take at most {MAX_LINES} lines")
    for i, mask in enumerate(line_masks(True)):
        LINES[i] = mask
    for square in range(16):
        for advanced in range(2):
            SQUARE_LINE_COUNT[advanced][square] = 0
        for i in range(ADVANCED_LINES):
            if LINES[i] >> square & 1:
                SQUARE_LINES[square][SQUARE_LINE_COUNT[1][square]] = i
                SQUARE_LINE_COUNT[1][square] += 1
                SQUARE_LINE_COUNT[0][square] += i < PLAIN_LINES
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


cdef bint wins_after(const Game* g, int square) noexcept nogil:
    """Whether the piece in hand on the empty ``square`` completes a line."""
    cdef uint32_t bit = 1 << square, filled = g.filled | bit, line, covered
    cdef int k, j, ones, zeros
    for k in range(SQUARE_LINE_COUNT[g.lines == ADVANCED_LINES][square]):
        line = LINES[SQUARE_LINES[square][k]]
        if filled & line == line:
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


cdef int random_move(Game* g, uint64_t* rng, int* square_out, int* give_out) noexcept nogil:
    """Play one uniformly random move of ``g`` (as ``random_move`` draws it); the result, -1
    while the game goes on. ``square_out`` gets the square (31 on the first turn), ``give_out``
    the piece handed over (-1 when none)."""
    cdef uint32_t ends, empty, draw, bit
    cdef int square = 31, give, offer, j, result = -1
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
    if result < 0:
        g.hand = give
        g.available &= ~(1 << give)
        g.turn = 1 - g.turn
    square_out[0], give_out[0] = square, give
    return result


cdef int play(Game* g, uint64_t* rng, int16_t* moves) noexcept nogil:
    """Play ``g`` to the end; its result. ``moves`` (or NULL) gets ``square << 5 | give + 1``
    for every move (square 31 on the first turn, give -1 when none), then -1."""
    cdef int square, give, n = 0, result = -1
    while result < 0:
        result = random_move(g, rng, &square, &give)
        if moves != NULL:
            moves[n] = square << 5 | (give + 1)
            n += 1
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


# -- batched environments ---------------------------------------------------------------------
# ``bordspel.rl.vector``'s Quarto: N games stepped in one call, observations and masks written
# into the caller's arrays (the planes and actions of ``bordspel.games.quarto.codec``).

cdef enum:
    ACTIONS = 288
    PLANES = 11
    END_GIVE = 16  # the give of a placement that ends the game
    WIN_VALUE = 1000000  # the greedy player's value of a win (its evaluation is +-1)


cdef uint32_t threats(const Game* g) noexcept nogil:
    """The pieces that would complete a line somewhere on ``g``'s board (the evaluation's
    ``threats``)."""
    cdef uint32_t found = 0, line, covered
    cdef int i, j, piece, ones, zeros
    for i in range(g.lines):
        line = LINES[i]
        if popcount16(g.filled & line) != 3:
            continue
        ones = zeros = 0
        for j in range(4):
            covered = g.ones[j] & line
            if covered == g.filled & line:
                ones |= 1 << j
            elif covered == 0:
                zeros |= 1 << j
        for piece in range(16):
            if SHARE[(ones & piece) << 4 | (zeros & ~piece & 15)]:
                found |= 1u << piece
    return found


include "vector_batch.pxi"


cdef class Batch(VectorBatch):
    """N Quarto games for ``bordspel.rl.vector`` (see ``vector_batch.pxi``)."""

    cdef Game start
    cdef Game* games
    cdef int* results

    def __cinit__(self, int filled, ones, int hand, int turn, bint advanced, int n, int seat, int opponent):
        self.start = load(filled, ones, hand, turn, advanced)
        self.games = <Game*>calloc(n, sizeof(Game))
        self.results = <int*>calloc(n, sizeof(int))
        if not (self.games and self.results):
            raise MemoryError("no memory for the batch of Quarto games")
        self._allocate(n, seat, opponent, ACTIONS)

    def __dealloc__(self):
        free(self.games)
        free(self.results)

    def copy_games(self, Batch source, const int64_t[::1] rows, const int64_t[::1] into):
        """Copy game ``rows[k]`` of ``source`` (a Quarto batch) into game ``into[k]`` of this one,
        for every ``k``: its position, result, random stream and legal actions (what a tree
        search needs to keep and restore positions; ``source`` may be this batch)."""
        cdef int k
        self._copy_rows(source, rows, into)
        for k in range(rows.shape[0]):
            self.games[into[k]] = source.games[rows[k]]
            self.results[into[k]] = source.results[rows[k]]

    cdef void _start(self, int i) noexcept nogil:
        self.games[i] = self.start
        self.results[i] = -1

    cdef int _to_move(self, int i) noexcept nogil:
        return self.games[i].turn

    cdef int _result(self, int i, int seat) noexcept nogil:
        if self.results[i] < 0:
            return ONGOING
        return 0 if self.results[i] == DRAW else (1 if self.results[i] == seat else -1)

    cdef void _replies(self, int i, int32_t* reply, int width) noexcept nogil:
        """The opponent's move unless the game is over or it is the agent's turn; its action into
        ``reply``."""
        cdef Game* g = &self.games[i]
        cdef int square, give, action
        if self.results[i] >= 0 or g.turn == self.seat:
            return
        if self.opponent:
            action = self._greedy(i)
            self._play(i, action)
        else:
            self.results[i] = random_move(g, &self.rngs[i], &square, &give)
            action = give if square == 31 else 16 + square * 17 + (END_GIVE if give < 0 else give)
            if self.results[i] >= 0:
                g.hand = -1
        reply[0] = action

    cdef void _play(self, int i, int action) noexcept nogil:
        """Play a legal action (the codec's numbering)."""
        cdef Game* g = &self.games[i]
        cdef int square, give, j
        if action < 16:
            g.hand = action
            g.available &= ~(1u << action)
            g.turn = 1 - g.turn
            return
        square, give = (action - 16) // 17, (action - 16) % 17
        if wins_after(g, square):
            self.results[i] = g.turn
        g.filled |= 1u << square
        for j in range(4):
            if g.hand >> j & 1:
                g.ones[j] |= 1u << square
        if self.results[i] < 0 and g.filled == FULL:
            self.results[i] = DRAW
        if self.results[i] >= 0:
            g.hand = -1
            return
        g.hand = give
        g.available &= ~(1u << give)
        g.turn = 1 - g.turn

    cdef int _greedy(self, int i) noexcept nogil:
        """The greedy player's move: a win, else a move after which the evaluation (the parity of
        the pieces safe to give) favours it, ties drawn from the game's stream."""
        cdef Game* g = &self.games[i]
        cdef Game child
        cdef uint8_t* legal = &self.legal[i * ACTIONS]
        cdef int action, value, best = -WIN_VALUE - 1, count = 0, square, j
        cdef int chosen[ACTIONS]
        cdef uint32_t safe
        self._mask(i)
        for action in range(ACTIONS):
            if not legal[action]:
                continue
            if action < 16:
                safe = g.available & ~(1u << action)  # nothing on the board threatens yet
                value = 1 if popcount16(safe) % 2 == 0 else -1
            else:
                square = (action - 16) // 17
                child = g[0]
                child.filled |= 1u << square
                for j in range(4):
                    if g.hand >> j & 1:
                        child.ones[j] |= 1u << square
                if wins_after(g, square):
                    value = WIN_VALUE
                elif child.filled == FULL:
                    value = 0
                else:
                    safe = g.available & ~(1u << ((action - 16) % 17)) & ~threats(&child)
                    value = 1 if popcount16(safe) % 2 == 0 else -1
            if value > best:
                best, count = value, 0
            if value == best:
                chosen[count] = action
                count += 1
        return chosen[below(&self.rngs[i], count)]

    cdef void _mask(self, int i) noexcept nogil:
        """The legal actions of game ``i`` into its row of ``legal``."""
        cdef Game* g = &self.games[i]
        cdef uint8_t* legal = &self.legal[i * ACTIONS]
        cdef uint32_t empty = ~g.filled & FULL, ends, rest
        cdef int offer = popcount16(g.available), square, give
        memset(legal, 0, ACTIONS)
        if self.results[i] >= 0:
            return
        if g.hand < 0:
            for give in range(16):
                legal[give] = g.available >> give & 1
            return
        ends = ending_squares(g, empty, offer)
        while empty:
            square = ctz(empty)
            empty &= empty - 1
            if ends >> square & 1:
                legal[16 + square * 17 + END_GIVE] = 1
                continue
            rest = g.available
            while rest:
                give = ctz(rest)
                rest &= rest - 1
                legal[16 + square * 17 + give] = 1

    cdef void _observe(self, int i, int8_t[:, :, :, ::1] obs) noexcept nogil:
        cdef Game* g = &self.games[i]
        cdef int8_t* cell
        cdef int square, j, hand = g.hand
        for square in range(16):
            cell = &obs[i, square >> 2, square & 3, 0]
            cell[0] = g.filled >> square & 1
            for j in range(4):
                cell[1 + j] = g.ones[j] >> square & 1
                cell[5 + j] = hand >= 0 and hand >> j & 1
            cell[9] = hand >= 0
            cell[10] = g.available >> square & 1
