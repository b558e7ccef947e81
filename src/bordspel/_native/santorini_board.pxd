# cython: language_level=3
# Santorini's board rules in C: the twin of bordspel.games.santorini.board, shared by the move
# generator and the search of santorini_core. ``lv`` is the four level masks (>= 1, >= 2, >= 3
# blocks, dome). tests/test_native_santorini.py holds these constants and rules equal to Python's.

from libc.stdint cimport uint32_t


cdef enum:
    SIZE = 5
    CELLS = 25
    FULL = 0x1FFFFFF  # all 25 cells
    MAX_CLIMB = 1  # how many levels a worker may step up in one move
    WIN_LEVEL = 3  # a worker that moves up onto this level wins
    DOME = 4  # the height of a square with a dome


cdef extern from *:
    """
    /* bordspel.games.santorini.board.NEIGHBOURS: the cells next to each cell, row by row */
    static const uint32_t santorini_neighbours[25] = {
        0x0000062, 0x00000E5, 0x00001CA, 0x0000394, 0x0000308,
        0x0000C43, 0x0001CA7, 0x000394E, 0x000729C, 0x0006118,
        0x0018860, 0x00394E0, 0x00729C0, 0x00E5380, 0x00C2300,
        0x0310C00, 0x0729C00, 0x0E53800, 0x1CA7000, 0x1846000,
        0x0218000, 0x0538000, 0x0A70000, 0x14E0000, 0x08C0000
    };
    """
    const uint32_t NEIGHBOURS "santorini_neighbours"[CELLS]


cdef inline int height(const uint32_t* lv, int cell) noexcept nogil:
    """The tower height on ``cell``: 0-3 blocks, DOME for a dome."""
    if lv[3] >> cell & 1:
        return DOME
    return (lv[0] >> cell & 1) + (lv[1] >> cell & 1) + (lv[2] >> cell & 1)


cdef inline uint32_t exact_level(const uint32_t* lv, int level) noexcept nogil:
    """Cells whose tower has exactly ``level`` pieces (DOME: a dome)."""
    if level == DOME:
        return lv[3]
    return (FULL if level == 0 else lv[level - 1]) & ~lv[level] & ~lv[3]


cdef inline uint32_t free_cells(const uint32_t* lv, uint32_t occupied) noexcept nogil:
    """Cells without a worker or a dome."""
    return FULL & ~occupied & ~lv[3]


cdef inline uint32_t move_targets(const uint32_t* lv, uint32_t occupied, int cell) noexcept nogil:
    """Neighbours of ``cell`` a worker there may step onto: free, and at most MAX_CLIMB up."""
    cdef int limit = height(lv, cell) + MAX_CLIMB
    return NEIGHBOURS[cell] & free_cells(lv, occupied) & ~lv[limit if limit < 3 else 3]


cdef inline uint32_t build_targets(const uint32_t* lv, uint32_t occupied, int cell) noexcept nogil:
    """Neighbours of ``cell`` a worker there may build on: no worker and no dome."""
    return NEIGHBOURS[cell] & free_cells(lv, occupied)


cdef inline bint is_winning_move(int before, int after) noexcept nogil:
    """Whether a worker moving from height ``before`` to height ``after`` wins."""
    return before < WIN_LEVEL and after == WIN_LEVEL


cdef inline uint32_t winning_steps(const uint32_t* lv, int cell, uint32_t targets) noexcept nogil:
    """The cells among ``targets`` (steps a worker on ``cell`` may take) that win at once."""
    if not is_winning_move(height(lv, cell), WIN_LEVEL):
        return 0
    return targets & exact_level(lv, WIN_LEVEL)
