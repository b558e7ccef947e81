cimport cython

# The C types of gods_search.py when it is compiled (setup.py builds it as
# bordspel._native.santorini_gods_search); gods_search.py stays plain Python, the reference.

cdef int CHECK_EVERY, KEPT_EXPANSIONS, PAN, ARTEMIS, APOLLO, MINOTAUR
cdef long long FULL
cdef tuple NEIGHBOURS, STEPS

cdef int _cell(long long workers, int index)
@cython.locals(occupied='long long', index=int, cell=int)
cdef long long _occupied(long long workers)
cdef int _height(long long g1, long long g2, long long g3, long long dome, int cell)
cdef long long _too_high(long long g1, long long g2, long long g3, long long dome, int limit)
@cython.locals(level=int)
cdef long long _targets(long long g1, long long g2, long long g3, long long dome, long long occupied, int cell)
cdef int _bits(long long mask)

@cython.locals(g1='long long', g2='long long', g3='long long', dome='long long', workers='long long',
               occupied='long long', value=double, mine=int, theirs=int, athena=int,
               held_own=int, held_other=int, _w0=double, _w1=double, _w2=double, _w3=double,
               _w4=double, threat=double, _w6=double, climb=double)
cpdef double packed_value(tuple board, int mover, int seat, tuple weights, tuple powers, long long up)

@cython.locals(level_1=int, level_2=int, heights=int, steps=int, ups=int, tops=int, centre=int,
               free_tops='long long', index=int, cell=int, level=int, targets='long long',
               w0=double, w1=double, w2=double, w3=double, w4=double, w5=double, w6=double,
               _climb=double)
cdef double _colour_value(long long g1, long long g2, long long g3, long long dome, long long workers,
                          long long occupied, int colour, tuple weights)

@cython.locals(index=int, cell=int)
cdef bint _climbs(long long g1, long long g2, long long g3, long long dome, long long workers,
                  long long occupied, int colour)

@cython.locals(count=int, index=int, cell=int)
cdef int _god_threats(long long g1, long long g2, long long g3, long long dome, long long workers,
                      long long occupied, int colour, int flags, int held)

@cython.locals(level=int, targets='long long', target=int, tops='long long', index=int, other=int,
               behind=int)
cdef bint _threatens_by_power(long long g1, long long g2, long long g3, long long dome, long long workers,
                              long long occupied, int colour, int flags, int cell)

@cython.locals(g1='long long', g2='long long', g3='long long', dome='long long', workers='long long',
               occupied='long long')
cdef bint _climb_threat(tuple board, int colour)

@cython.locals(g1='long long', g2='long long', g3='long long', dome='long long', workers='long long',
               occupied='long long', held=int)
cdef bint _power_threat(tuple board, int colour, tuple powers, long long up)


@cython.no_gc  # a node refers to no other node: no cycle to collect
cdef class Node:
    cdef public tuple key
    cdef public object outcome, winners, state
    cdef public double guess


cdef class GodsSearch:
    cdef public Node root
    cdef public tuple weights, powers, names, checked, held
    cdef public bint pvs, extend, reduce, limited
    cdef public dict table, children
    cdef public long long nodes, node_limit
    cdef public int root_depth
    cdef public double deadline
    cdef public object improved

    @cython.locals(stored_depth=int, stored=double, flag=int, value=double, original_alpha=double,
                   best_value=double, index=int, child=Node)
    cpdef double negamax(self, Node node, int depth, double alpha, double beta, int ply) except? -1e300
    @cython.locals(child_depth=int, late=bint, value=double)
    cpdef double _child_value(self, Node node, Node child, int index, int depth, double alpha, double beta,
                              int ply) except? -1e300
    cpdef double _searched(self, Node child, int depth, double alpha, double beta, int ply) except? -1e300
    @cython.locals(colour=int, board=tuple, up='long long')
    cpdef bint _threatened(self, Node child) except -1
    cpdef double _leaf(self, Node node, int ply) except? -1e300
    @cython.locals(mover=int, g1='long long', g2='long long', g3='long long', dome='long long',
                   workers='long long', occupied='long long', index=int, cell=int, steps=int,
                   no_climb=bint, targets='long long')
    cpdef bint _may_be_stuck(self, Node node) except -1
    @cython.locals(mover=int)
    cpdef int _extension(self, Node child, int depth, int ply) except -1
    cpdef list _ordered(self, Node node, object table_move)
    @cython.locals(seat=int, turn=int, child=Node)
    cpdef list _expand(self, Node node)
    cpdef object position(self, Node node)
    cpdef void _forget_children(self)
    cpdef void _check_limits(self) except *
