# The common part of the compiled batches of ``bordspel.rl.vector`` (N games of one kind stepped
# in one call, their observations and masks written into the caller's arrays), included by each
# game's core (``hermit_core``, ``quarto_playout``, ``santorini_core``), whose ``Batch``
# subclasses VectorBatch and gives the rules: the start, the seat to move, playing an action (the
# codec's numbering), the opponent's replies, the result, the planes and the legal actions. This
# part does the rest: seeding, resets, Gymnasium's next-step autoreset, illegal actions, rewards.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

cdef enum:
    ONGOING = 2  # what ``_result`` answers while the game goes on


cdef class VectorBatch:
    """N games: ``seat`` (-1: self-play) against the ``opponent`` (0 random, 1 greedy) on every
    other seat, each game drawing from its own SplitMix64 stream."""

    cdef int n, seat, opponent, actions
    cdef uint64_t* rngs
    cdef uint8_t* finished
    cdef uint8_t* legal

    def __cinit__(self, *args, **kwargs):
        self.rngs, self.finished, self.legal = NULL, NULL, NULL

    def __dealloc__(self):
        free(self.rngs)
        free(self.finished)
        free(self.legal)

    cdef int _allocate(self, int n, int seat, int opponent, int actions) except -1:
        self.n, self.seat, self.opponent, self.actions = n, seat, opponent, actions
        self.rngs = <uint64_t*>calloc(n, sizeof(uint64_t))
        self.finished = <uint8_t*>calloc(n, 1)
        self.legal = <uint8_t*>calloc(<size_t>n * actions, 1)
        if not (self.rngs and self.finished and self.legal):
            raise MemoryError("no memory for the batch of games")
        return 0

    def seed(self, seeds):
        """Start each game's random stream anew from its seed (an int)."""
        cdef int i
        for i in range(self.n):
            self.rngs[i] = <uint64_t>(seeds[i] & 0xFFFFFFFFFFFFFFFF)

    def reset(self, const uint8_t[::1] which, int8_t[:, :, :, ::1] obs, int8_t[:, ::1] masks,
              int32_t[:, ::1] replies):
        """Start the games with ``which[i]`` anew (the opponents move first up to the agent's seat)."""
        cdef int i
        with nogil:
            for i in range(self.n):
                if which[i]:
                    self._restart(i, &replies[i, 0], replies.shape[1])
                    self._write(i, obs, masks)

    def step(self, const int64_t[::1] actions, int8_t[:, :, :, ::1] obs, int8_t[:, ::1] masks,
             double[::1] rewards, uint8_t[::1] terminated, uint8_t[::1] illegal, int32_t[:, ::1] replies):
        """Play each game's action and the opponents' replies; a game that ended at the previous
        step starts anew instead (Gymnasium's next-step autoreset), its action ignored. An illegal
        action ends the game with -1 and leaves its observation and mask as they were."""
        cdef int i, k, actor, result, width = replies.shape[1]
        with nogil:
            for i in range(self.n):
                rewards[i], terminated[i], illegal[i] = 0.0, 0, 0
                for k in range(width):
                    replies[i, k] = -1
                if self.finished[i]:
                    self._restart(i, &replies[i, 0], width)
                elif not 0 <= actions[i] < self.actions or not self.legal[<int64_t>i * self.actions + actions[i]]:
                    rewards[i], terminated[i], illegal[i] = -1.0, 1, 1
                    self.finished[i] = 1
                    continue
                else:
                    actor = self._to_move(i) if self.seat < 0 else self.seat
                    self._play(i, <int>actions[i])
                    if self.seat >= 0:
                        self._replies(i, &replies[i, 0], width)
                    result = self._result(i, actor)
                    if result != ONGOING:
                        terminated[i] = self.finished[i] = 1
                        rewards[i] = result
                self._write(i, obs, masks)

    def seats(self, int32_t[::1] to_move, double[:, ::1] returns):
        """Each game's seat to move (-1 once it is over) and every seat's result in a game that
        is over (0 while it goes on)."""
        cdef int i, seat, result
        with nogil:
            for i in range(self.n):
                for seat in range(returns.shape[1]):
                    result = self._result(i, seat)
                    returns[i, seat] = 0.0 if result == ONGOING else result
                to_move[i] = -1 if self.finished[i] else self._to_move(i)

    cdef void _restart(self, int i, int32_t* replies, int width) noexcept nogil:
        cdef int k
        self._start(i)
        self.finished[i] = 0
        if self.seat >= 0:
            for k in range(width):
                replies[k] = -1
            self._replies(i, replies, width)

    cdef int _copy_rows(self, VectorBatch source, const int64_t[::1] rows, const int64_t[::1] into) except -1:
        """Check a copy of ``source``'s games ``rows`` into this batch's games ``into`` (see the
        game's ``copy_games``) and copy what this part keeps of them: random stream, end, legal
        actions."""
        cdef int k, row, i
        if type(source) is not type(self) or source.actions != self.actions:
            raise TypeError("games are copied between batches of the same game")
        if rows.shape[0] != into.shape[0]:
            raise ValueError(f"{rows.shape[0]} rows to copy into {into.shape[0]}")
        for k in range(rows.shape[0]):
            if not (0 <= rows[k] < source.n and 0 <= into[k] < self.n):
                raise IndexError(f"no game {rows[k]} to copy into game {into[k]}")
        for k in range(rows.shape[0]):
            row, i = rows[k], into[k]
            self.rngs[i], self.finished[i] = source.rngs[row], source.finished[row]
            memcpy(&self.legal[<int64_t>i * self.actions], &source.legal[<int64_t>row * self.actions], self.actions)
        return 0

    cdef void _write(self, int i, int8_t[:, :, :, ::1] obs, int8_t[:, ::1] masks) noexcept nogil:
        """Game ``i``'s planes and its legal actions (none once it is over)."""
        self._observe(i, obs)
        self._mask(i)
        memcpy(&masks[i, 0], &self.legal[<int64_t>i * self.actions], self.actions)

    # -- the rules, given by each game's Batch ---------------------------------------------------
    cdef void _start(self, int i) noexcept nogil:
        pass

    cdef int _to_move(self, int i) noexcept nogil:
        return 0

    cdef void _play(self, int i, int action) noexcept nogil:
        pass

    cdef void _replies(self, int i, int32_t* replies, int width) noexcept nogil:
        pass

    cdef int _result(self, int i, int seat) noexcept nogil:
        return ONGOING

    cdef void _observe(self, int i, int8_t[:, :, :, ::1] obs) noexcept nogil:
        pass

    cdef void _mask(self, int i) noexcept nogil:
        pass
