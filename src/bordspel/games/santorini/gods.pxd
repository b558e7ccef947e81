cimport cython

# The C types of gods.py when it is compiled (setup.py builds it as bordspel._native.santorini_gods);
# gods.py stays plain Python, the reference. Every name here is a name of gods.py.

cdef tuple NEIGHBOURS, STEPS, BIT_INDEX
cdef long long FULL, PERIMETER
cdef int SLOT, MOVES, AFTER_MOVE, BUILDS, END, EMIT, MOVE, BUILD, DOME, REMOVE

cpdef int lowest(long long mask)
cpdef list rival_steps(Walk walk, int worker, bint no_up)
cpdef int direction(int source, int target)
cpdef list unmoved(Walk walk)


cdef class Walk:
    cdef public long long g1, g2, g3, dome, workers, occupied, supply, start_workers, no_win
    cdef public int count, colour, players, worker, start
    cdef public bint limited, moved_up, won, no_up, extra, first_only, no_climb
    cdef public God owner
    cdef public tuple rivals
    cdef public str memo
    cdef public list restricting, charming, actions, stage_gods, stages, charmed, returns, tritons, lines

    cpdef void push(self, God god, int stage)
    cpdef void pop(self)
    @cython.locals(god=God, stage=int)
    cpdef void proceed(self)
    cpdef void emit(self)
    cpdef object board(self, long long g1, long long g2, long long g3, long long dome, long long workers, long long supply)
    cpdef void run_worker(self, int worker)
    cpdef void after_move(self)
    cpdef int cell(self, int worker)
    cpdef int start_cell(self, int worker)
    @cython.locals(old=int, shift=int)
    cpdef void put(self, int worker, int cell)
    cpdef int worker_on(self, int cell)
    cpdef list mine(self)
    cpdef bint is_rival(self, int worker)
    cpdef int height(self, int cell)
    cpdef long long free(self)
    cpdef long long exact(self, int level)
    cpdef long long too_high(self, int limit)
    cpdef long long targets(self, int cell, bint no_up)
    cpdef int climb(self, bint no_up)
    cpdef bint has_piece(self, int cell, bint dome)
    cpdef void place(self, int cell, bint dome)
    cpdef void lift(self, int cell)
    cpdef void act(self, int kind, int source, int target)
    @cython.locals(g1='long long', g2='long long', g3='long long', top='long long', supply='long long')
    cpdef void build(self, int cell, bint dome)
    @cython.locals(cell=int, level=int)
    cpdef void builds_on(self, long long cells, bint domes=*, bint only_domes=*)
    cpdef bint may_build(self, int cell, int level)
    cpdef void ascending(self, long long cells, int count, int above)
    @cython.locals(moved_up=bint, won=bint, after=int)
    cpdef void stepped(self, int source, int target, int before)
    cpdef bint wins(self, int source, int target, int before, int after)
    cpdef void steps(self, God god)
    cpdef long long frozen(self)
    cpdef long long charmers(self)
    cpdef void note_charmed(self)
    cpdef bint charm_kept(self)
    cpdef long long same_level_reach(self, int source)


cdef class God:
    cpdef void turn(self, Walk walk)
    cpdef void resume(self, Walk walk, int stage)
    cpdef void before_move(self, Walk walk)
    cpdef void moves(self, Walk walk)
    @cython.locals(source=int, before=int, targets='long long', target=int, workers='long long', occupied='long long')
    cpdef void step_targets(self, Walk walk, int worker, bint no_up)
    cpdef void landed(self, Walk walk, int source, int target)
    cpdef bint wins_by_move(self, Walk walk, int source, int target, int before, int after)
    cpdef void builds(self, Walk walk)
    cpdef void end_of_turn(self, Walk walk)
    cpdef bint forbids_climb(self, int moved_up)
    cpdef long long frozen(self, Walk walk, int colour)
    cpdef long long charm(self, Walk walk, int own)
    cpdef long long unbuildable(self, Walk walk, int own)
    cpdef long long blocked_wins(self)


cdef class Apollo(God):
    cpdef void step_targets(self, Walk walk, int worker, bint no_up)

cdef class Artemis(God):
    cpdef void moves(self, Walk walk)
    cpdef void resume(self, Walk walk, int stage)

cdef class Athena(God):
    cpdef bint forbids_climb(self, int moved_up)

cdef class Atlas(God):
    cpdef void builds(self, Walk walk)

cdef class SecondBuild(God):
    cpdef void builds(self, Walk walk)
    cpdef void resume(self, Walk walk, int stage)
    cpdef void second_build(self, Walk walk, int first)

cdef class Demeter(SecondBuild):
    cpdef void second_build(self, Walk walk, int first)

cdef class Hephaestus(SecondBuild):
    cpdef void second_build(self, Walk walk, int first)

cdef class Hermes(God):
    cpdef void turn(self, Walk walk)

cdef class Minotaur(God):
    cpdef void step_targets(self, Walk walk, int worker, bint no_up)

cdef class Pan(God):
    cpdef bint wins_by_move(self, Walk walk, int source, int target, int before, int after)

cdef class Prometheus(God):
    cpdef void before_move(self, Walk walk)

cdef class Aphrodite(God):
    cpdef long long charm(self, Walk walk, int own)

cdef class Ares(God):
    cpdef void end_of_turn(self, Walk walk)

cdef class Bia(God):
    cpdef void landed(self, Walk walk, int source, int target)

cdef class Chaos(God):
    pass

cdef class Charon(God):
    cpdef void before_move(self, Walk walk)

cdef class Chronus(God):
    pass

cdef class Circe(God):
    pass

cdef class Dionysus(God):
    cpdef void end_of_turn(self, Walk walk)
    cpdef void resume(self, Walk walk, int stage)

cdef class Eros(God):
    cpdef bint wins_by_move(self, Walk walk, int source, int target, int before, int after)

cdef class Hera(God):
    cpdef long long blocked_wins(self)

cdef class Hestia(SecondBuild):
    cpdef void second_build(self, Walk walk, int first)

cdef class Hypnus(God):
    cpdef long long frozen(self, Walk walk, int colour)

cdef class Limus(God):
    cpdef long long unbuildable(self, Walk walk, int own)

cdef class Medusa(God):
    cpdef void end_of_turn(self, Walk walk)

cdef class Morpheus(God):
    cpdef void builds(self, Walk walk)

cdef class Persephone(God):
    pass

cdef class Poseidon(God):
    cpdef void end_of_turn(self, Walk walk)

cdef class Selene(God):
    cpdef void builds(self, Walk walk)

cdef class Triton(God):
    cpdef void moves(self, Walk walk)
    cpdef void resume(self, Walk walk, int stage)

cdef class Zeus(God):
    cpdef void builds(self, Walk walk)
