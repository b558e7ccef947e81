cimport cython

# The C types of gods_play.py when it is compiled (setup.py builds it as
# bordspel._native.santorini_gods_play); gods_play.py stays plain Python, the reference.


cdef class Spot:
    cdef public int players, turn, out
    cdef public tuple levels, workers
    cdef public object supply, winners, powers


@cython.locals(lines=list, by_key=dict, keys=list, kept=list, by_turn=dict, found=list, line=tuple)
cpdef list outcomes(Spot spot)
@cython.locals(g1='long long', g2='long long', g3='long long', dome='long long', workers='long long',
               supply='long long', after=Spot)
cpdef Spot child(Spot spot, tuple outcome)
@cython.locals(offset=int, following=int)
cpdef int next_seat(Spot spot, int seat)
@cython.locals(found=list, colour=int)
cpdef list settled(Spot spot)
@cython.locals(found=list, total='long long')
cpdef long long perft(Spot spot, int depth) except? -1
@cython.locals(played=list, found=list)
cpdef list random_outcomes(Spot spot, object rng)
