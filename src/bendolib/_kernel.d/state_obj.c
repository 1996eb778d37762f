/*
 * bendolib._kernel, small calls (issue 24, point 3): a GameState read in compiled code
 * (read_slots: its attrs slots straight into a KState, every check of read_state made;
 * state_of: the state tuple of bendolib._kernel_input.state_tuple, built from the
 * attrs slots, for a state read_slots leaves), play (run for a GameState, returning a
 * tuple), quick and quick_many (playouts and playouts_many in one C call) and
 * fast_entry; new_game's deal is deal.c's.  In bendolib._kernel and its wide build only
 * (the C++ builds read the state tuple).
 *
 * state_of builds exactly the tuple state_tuple builds for a chain game (play calls it
 * with a chain game's spec only), from the same objects, for the exact classes the step
 * API's layouts name (GameState, RoundContext, Board, End, RoundResult) with every slot
 * set; for anything else (a subclass, a missing slot, a seed or an occupancy that is no
 * plain int in range) it builds nothing and the caller uses the Python state_tuple.  The
 * tuple then goes through read_state, which checks every value as before: a hostile
 * state is refused exactly as it was.
 */

#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h> /* (3.10: ob_digit, for slot_long) */
#endif

/* the occupancy int's little-endian bytes, (bit_length + 7) // 8 of them, into buffer:
 * their number, or -1 (no error set) when it is not a non-negative exact int of at most
 * max bytes */
static Py_ssize_t occupancy_raw(PyObject *occ, unsigned char *buffer, Py_ssize_t max) {
    if (!PyLong_CheckExact(occ))
        return -1;
#if PY_VERSION_HEX >= 0x030D0000
    int flags = Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                Py_ASNATIVEBYTES_REJECT_NEGATIVE;
    Py_ssize_t need = PyLong_AsNativeBytes(occ, buffer, max, flags);
    if (need < 0) {
        PyErr_Clear();
        return -1;
    }
    if (need > max)
        return -1;
    while (need > 0 && buffer[need - 1] == 0) /* the native size may round up */
        need--;
#else
    if (_PyLong_Sign(occ) < 0)
        return -1;
    size_t bits = _PyLong_NumBits(occ);
    if (bits == (size_t)-1) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t need = (Py_ssize_t)((bits + 7) / 8);
    if (need > max)
        return -1;
    if (need && _PyLong_AsByteArray((PyLongObject *)occ, buffer, (size_t)need, 1, 0) < 0) {
        PyErr_Clear();
        return -1;
    }
#endif
    return need;
}

enum { OCC_BYTES = 4096 }; /* an occupancy beyond: the Python state_tuple reads it */

/* the occupancy int as state_tuple's bytes; NULL with no error set when occupancy_raw
 * refuses it */
static PyObject *occupancy_bytes(PyObject *occ) {
    unsigned char buffer[OCC_BYTES];
    Py_ssize_t n = occupancy_raw(occ, buffer, OCC_BYTES);
    return n < 0 ? NULL : PyBytes_FromStringAndSize((const char *)buffer, n);
}

/* state_tuple(state) built from the slots: a new tuple, NULL with no error set when
 * the state is not for this path (the Python state_tuple then), NULL with an error set
 * on a failure (no memory) */
static PyObject *state_of(PyObject *state) {
    if (!step_ready || !complete(state, &L_state))
        return NULL;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!complete(context, &L_context))
        return NULL;
    PyObject *board = FIELD(state, L_state, S_BOARD);
    if (!complete(board, &L_board))
        return NULL;
    PyObject *placements = FIELD(board, L_board, B_PLACEMENTS);
    PyObject *ends = FIELD(board, L_board, B_ENDS);
    PyObject *results = FIELD(context, L_context, C_RESULTS);
    PyObject *seed = FIELD(context, L_context, C_SEED);
    if (!PyTuple_CheckExact(placements) || !PyTuple_CheckExact(ends) ||
        !PyTuple_CheckExact(results) || !PyLong_CheckExact(seed))
        return NULL;
    /* context.seed & (2**64 - 1): the seed itself when it is in range */
    unsigned long long seed_value = PyLong_AsUnsignedLongLong(seed);
    if (seed_value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t nends = PyTuple_GET_SIZE(ends);
    for (Py_ssize_t e = 0; e < nends; e++)
        if (!complete(PyTuple_GET_ITEM(ends, e), &L_end))
            return NULL;
    PyObject *last = NULL;
    if (PyTuple_GET_SIZE(results)) {
        last = PyTuple_GET_ITEM(results, PyTuple_GET_SIZE(results) - 1);
        if (!complete(last, &L_result))
            return NULL;
    }
    PyObject *occupancy = occupancy_bytes(FIELD(board, L_board, B_OCC));
    if (!occupancy)
        return NULL;
    PyObject *out = PyTuple_New(21), *flat_ends = PyTuple_New(nends), *result = NULL;
    PyObject *nplaced = PyLong_FromSsize_t(PyTuple_GET_SIZE(placements));
    if (!out || !flat_ends || !nplaced)
        goto fail;
    for (Py_ssize_t e = 0; e < nends; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        PyObject *four = PyTuple_Pack(4, FIELD(end, L_end, E_VALUE), FIELD(end, L_end, E_FREE),
                                      FIELD(end, L_end, E_CELL), FIELD(end, L_end, E_SIDE));
        if (!four)
            goto fail;
        PyTuple_SET_ITEM(flat_ends, e, four);
    }
    if (last) {
        /* (blocked, order, hand_points, points, winners): RoundResult's fields 1 to 5 */
        result = PyTuple_Pack(5, FIELD(last, L_result, 1), FIELD(last, L_result, 2),
                              FIELD(last, L_result, 3), FIELD(last, L_result, 4),
                              FIELD(last, L_result, 5));
        if (!result)
            goto fail;
    } else {
        result = Py_None;
        Py_INCREF(result);
    }
    PyObject *items[21] = {
        FIELD(context, L_context, C_PLAYERS),  seed,
        FIELD(context, L_context, C_ROUND),    FIELD(context, L_context, C_DECK),
        FIELD(state, L_state, S_STOCK),        FIELD(state, L_state, S_HANDS),
        FIELD(state, L_state, S_PLAYER),       FIELD(context, L_context, C_SCORES),
        FIELD(context, L_context, C_OPENING),  FIELD(state, L_state, S_DRAWN),
        FIELD(state, L_state, S_DCOUNT),       FIELD(context, L_context, C_DIRECTION),
        FIELD(context, L_context, C_OUT),      FIELD(context, L_context, C_PLAYPOINTS),
        FIELD(context, L_context, C_PHASE),    FIELD(state, L_state, S_LAST),
        FIELD(context, L_context, C_WINNER),   nplaced,
        flat_ends,                             occupancy,
        result,
    };
    for (int i = 0; i < 21; i++) {
        if (i < 17)
            Py_INCREF(items[i]);
        PyTuple_SET_ITEM(out, i, items[i]); /* 17 to 20: the references made here */
    }
    return out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(flat_ends);
    Py_XDECREF(nplaced);
    Py_XDECREF(result);
    Py_DECREF(occupancy);
    return NULL;
}

/* state_of(state): the state tuple built here, or None (the Python state_tuple then) */
static PyObject *k_state_of(PyObject *self, PyObject *state) {
    PyObject *out = state_of(state);
    if (!out && !PyErr_Occurred())
        Py_RETURN_NONE;
    return out;
}

/* -- reading the slots straight into a KState ------------------------------------------ */

/* an exact int (or a bool, as read_state's PyLong_Check takes it) of a long, in lo..hi;
 * the ints of one digit (every value of a state but the masks and big scores) are read
 * inline, as Cython does (issue 24: 40% of the reading was PyLong_AsLongAndOverflow) */
#if defined(__GNUC__)
#define SLOT_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define SLOT_INLINE __forceinline
#else
#define SLOT_INLINE inline
#endif
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif
/* CPython's small ints (-5 to 256), one array of equal objects: the int at base +
 * (k << shift) is min + k, each checked at init (span 0, no such array: every int is
 * read from its object).  A value in it is known from the pointer alone, with no read of
 * the object (issue 24, point 3: most values of a state are small ints). */
typedef struct {
    uintptr_t base, span, mask;
    int shift;
    long min;
} SmallInts;
static SmallInts small_ints;

/* small_ints found (called at the module's init): -1 on an error */
static int small_ints_setup(void) {
    /* Every object found in place is kept (a reference never released): its address then
     * stays its value's for the life of the process, even were these ints not the
     * interpreter's shared ones (CPython's always are). */
    PyObject *first = PyLong_FromLong(-5), *second = PyLong_FromLong(-4);
    if (!first || !second) {
        Py_XDECREF(first);
        Py_XDECREF(second);
        return -1;
    }
    uintptr_t base = (uintptr_t)first, stride = (uintptr_t)second - base;
    int shift = 0;
    while (shift < 12 && ((uintptr_t)1 << shift) < stride)
        shift++;
    if (((uintptr_t)1 << shift) != stride)
        return 0; /* not an array of equal objects: no fast path */
    long k = 0;
    for (; k < 262; k++) { /* each object where the array puts it, of the value it says */
        PyObject *v = PyLong_FromLong(-5 + k);
        if (!v)
            return -1;
        if ((uintptr_t)v != base + ((uintptr_t)k << shift) || !PyLong_CheckExact(v) ||
            PyLong_AsLong(v) != -5 + k) {
            Py_DECREF(v);
            break;
        }
    }
    small_ints = (SmallInts){base, (uintptr_t)k << shift, stride - 1, shift, -5};
    return 0;
}

/* 1 and the value when v is one of the small ints, else 0 */
static SLOT_INLINE int small_long(const SmallInts *si, PyObject *v, long *out) {
    uintptr_t at = (uintptr_t)v - si->base;
    if (at >= si->span || (at & si->mask))
        return 0;
    *out = (long)(at >> si->shift) + si->min;
    return 1;
}

static SLOT_INLINE int slot_long(PyObject *v, long lo, long hi, long *out) {
    if (small_long(&small_ints, v, out))
        return *out < lo || *out > hi ? -1 : 0;
    if (PyLong_CheckExact(v)) {
#if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject *)v)) {
            *out = (long)PyUnstable_Long_CompactValue((PyLongObject *)v);
            return *out < lo || *out > hi ? -1 : 0;
        }
#else
        Py_ssize_t size = Py_SIZE(v);
        if (size >= -1 && size <= 1) {
            *out = size * (long)((PyLongObject *)v)->ob_digit[0];
            return *out < lo || *out > hi ? -1 : 0;
        }
#endif
    }
    if (PyBool_Check(v))
        *out = v == Py_True;
    else if (as_long(v, out))
        return -1;
    return *out < lo || *out > hi ? -1 : 0;
}

/* an exact tuple of n ints of 64 bits (scores, points) */
static int slot_ints(PyObject *t, int n, int64_t *out) {
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != n)
        return -1;
    const uintptr_t base = small_ints.base, span = small_ints.span, mask = small_ints.mask;
    const int shift = small_ints.shift;
    const long min = small_ints.min;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(t, i);
        uintptr_t at = (uintptr_t)item - base;
        if (at < span && !(at & mask)) { /* (small_long, with the values in registers) */
            out[i] = (long)(at >> shift) + min;
            continue;
        }
        long v;
        if (slot_long(item, LONG_MIN, LONG_MAX, &v))
            return -1;
        out[i] = v;
    }
    return 0;
}

/* an exact tuple of at most MAXP seats in 0..players-1 */
static int slot_seats(PyObject *t, int players, int8_t *out, int *n) {
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) > MAXP)
        return -1;
    *n = (int)PyTuple_GET_SIZE(t);
    for (int k = 0; k < *n; k++) {
        long v;
        if (slot_long(PyTuple_GET_ITEM(t, k), 0, players - 1, &v))
            return -1;
        out[k] = (int8_t)v;
    }
    return 0;
}

/* the occupancy int's set bits, in increasing order, into st as read_state's occupy()
 * calls put them: the bits of one cell are consecutive and the cells come in increasing
 * spiral order, so each cell is the last one added or a new one (no search) */
static SLOT_INLINE int occupancy_bit(KState *st, long position, long *last) {
    long index = position / 6;
    if (index >= spiral_cells)
        return -1;
    uint8_t corner = (uint8_t)(1u << (position % 6));
    if (index == *last) {
        st->occ_mask[st->nocc - 1] |= corner;
        return 0;
    }
    if (st->nocc >= MAXOCC)
        return -1;
    occupy_new(st, spiral[index], corner);
    *last = index;
    return 0;
}

static int slot_occupancy(PyObject *occ, KState *st) {
    long last = -1;
#if PY_VERSION_HEX < 0x030C0000
    /* the int's bits read from its digits (issue 24, point 3: no call, no copy), when
     * occupancy_raw takes them all */
    if (PyLong_CheckExact(occ) && Py_SIZE(occ) >= 0 &&
        Py_SIZE(occ) <= (Py_ssize_t)OCC_BYTES * 8 / PyLong_SHIFT) {
        const digit *d = ((PyLongObject *)occ)->ob_digit;
        for (Py_ssize_t k = 0; k < Py_SIZE(occ); k++)
            for (uint64_t bits = d[k]; bits; bits &= bits - 1)
                if (occupancy_bit(st, (long)k * PyLong_SHIFT + lowest_word(bits), &last))
                    return -1;
        return 0;
    }
#endif
    uint64_t small;
    if (!as_mask(occ, &small)) { /* (a board of a few tiles: its bits, from the word) */
        for (; small; small &= small - 1)
            if (occupancy_bit(st, lowest_word(small), &last))
                return -1;
        return 0;
    }
    unsigned char bytes[OCC_BYTES];
    Py_ssize_t n = occupancy_raw(occ, bytes, OCC_BYTES);
    if (n < 0)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++)
        for (unsigned bits = bytes[k]; bits; bits &= bits - 1)
            if (occupancy_bit(st, (long)k * 8 + __builtin_ctz(bits), &last))
                return -1;
    return 0;
}

/* read_mask(v, out) (0 when read, else -1 with no error left), an exact int of at most
 * two digits read inline (a hand of a double-six or double-nine set) */
static SLOT_INLINE int slot_mask(PyObject *v, mask_t *out) {
    if (PyLong_CheckExact(v)) {
#if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject *)v)) {
            Py_ssize_t x = PyUnstable_Long_CompactValue((PyLongObject *)v);
            if (x < 0)
                return -1;
            *out = (mask_t)(uint64_t)x;
            return 0;
        }
#else
        Py_ssize_t size = Py_SIZE(v);
        const digit *d = ((PyLongObject *)v)->ob_digit;
        if (size >= 0 && size <= 2) {
            uint64_t x = size ? d[0] : 0;
            if (size == 2)
                x |= (uint64_t)d[1] << PyLong_SHIFT;
            *out = (mask_t)x;
            return 0;
        }
#endif
    }
    if (read_mask(v, out)) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

/* read_slots for a state and its context of the exact classes with every slot set (the
 * caller has checked them, and zeroed st): see read_slots */
static int read_fields(const Spec *sp, PyObject *state, PyObject *context, KState *st) {
#define CF(i) FIELD(context, L_context, i)
#define SF(i) FIELD(state, L_state, i)
    /* the objects read below, asked for at once (their reads overlap: issue 24, point 3,
     * a search's states are out of the cache) */
    PyObject *board = SF(S_BOARD), *deck = CF(C_DECK), *hands = SF(S_HANDS);
    PREFETCH(board);
    PREFETCH(hands);
    PREFETCH(deck);
    PREFETCH((char *)deck + 64);
    PREFETCH((char *)deck + 128);
    PREFETCH((char *)deck + 192);
    PREFETCH(CF(C_SEED));
    PREFETCH(CF(C_SCORES));
    PREFETCH(CF(C_PLAYPOINTS));
    if (!complete(board, &L_board))
        return 1;
    PyObject *ends = FIELD(board, L_board, B_ENDS);
    PREFETCH(ends);
    PREFETCH(FIELD(board, L_board, B_OCC));
    const SmallInts si = small_ints; /* (a copy: kept in registers across the stores) */
    long v;
    if ((!small_long(&si, CF(C_PLAYERS), &v) && as_long(CF(C_PLAYERS), &v)) || v != sp->players)
        return 1;
    PyObject *seed = CF(C_SEED);
    if (small_long(&si, seed, &v) && v >= 0) {
        st->seed = (uint64_t)v;
    } else {
        if (!PyLong_CheckExact(seed))
            return 1;
        st->seed = PyLong_AsUnsignedLongLong(seed);
        if (st->seed == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
    }
    if (slot_long(CF(C_ROUND), 0, LONG_MAX, &v) || v > ((int64_t)1 << 62))
        return 1;
    st->round_number = v;
    if (!PyTuple_CheckExact(deck) || PyTuple_GET_SIZE(deck) > MAXT)
        return 1;
    int ndeck = (int)PyTuple_GET_SIZE(deck);
    st->ndeck = ndeck;
    /* tile indices: small ints, the ones of 0 to n - 1 known by address (zero, span) */
    const long tiles = sp->n;
    const int shift = si.shift;
    const uintptr_t zero = si.base + ((uintptr_t)-si.min << shift), mask = si.mask;
    uintptr_t span = 0, off = 0;
    if (si.span && (uintptr_t)(tiles - si.min) << shift <= si.span)
        span = (uintptr_t)tiles << shift;
    tile_t *out_deck = st->deck;
    PyObject *const *items = &PyTuple_GET_ITEM(deck, 0);
    /* every item in the array first, with no branch (vectorised): its top bit set when at
     * >= span (span - 1 - at wraps below 0) or when the item is below zero */
    for (int i = 0; i < ndeck; i++) {
        uintptr_t at = (uintptr_t)items[i] - zero;
        off |= ((span - 1 - at) | at) >> 63 | (at & mask);
    }
    for (int i = 0; !off && i < ndeck; i++)
        out_deck[i] = (tile_t)(((uintptr_t)items[i] - zero) >> shift);
    for (int i = 0; off && i < ndeck; i++) {
        if (slot_long(items[i], 0, tiles - 1, &v))
            return 1;
        out_deck[i] = (tile_t)v;
    }
    if (slot_long(SF(S_STOCK), 0, ndeck, &v))
        return 1;
    st->stock_pos = (int)v;
    if (!PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) != sp->players)
        return 1;
    mask_t held = 0;
    for (int s = 0; s < sp->players; s++) { /* (slot_mask: read_mask, the tuple path's) */
        if (slot_mask(PyTuple_GET_ITEM(hands, s), &st->hands[s]))
            return 1;
        if ((st->hands[s] & ~sp->full) || (st->hands[s] & held))
            return 1;
        held |= st->hands[s];
    }
    if (slot_long(SF(S_PLAYER), 0, sp->players - 1, &v))
        return 1;
    st->current = (int)v;
    if (slot_ints(CF(C_SCORES), sp->players, st->scores))
        return 1;
    if (slot_long(CF(C_OPENING), -1, sp->n - 1, &v))
        return 1;
    st->opening = (int)v;
    if (slot_mask(SF(S_DRAWN), &st->drawn))
        return 1;
    if (st->drawn & ~sp->full)
        return 1;
    if (slot_long(SF(S_DCOUNT), 0, MAXT, &v) || (sp->max_per_turn && v > sp->max_per_turn))
        return 1;
    st->drawn_count = (int)v;
    if (slot_long(CF(C_DIRECTION), -1, 1, &v) || v == 0)
        return 1;
    st->direction = (int)v;
    PyObject *out = CF(C_OUT);
    if (!PyTuple_CheckExact(out) || PyTuple_GET_SIZE(out) > sp->players)
        return 1;
    st->nout = (int)PyTuple_GET_SIZE(out);
    for (int k = 0; k < st->nout; k++) {
        if (slot_long(PyTuple_GET_ITEM(out, k), 0, sp->players - 1, &v))
            return 1;
        for (int j = 0; j < k; j++)
            if (st->out[j] == v)
                return 1;
        st->out[k] = (int8_t)v;
    }
    if (slot_ints(CF(C_PLAYPOINTS), sp->players, st->play_points))
        return 1;
    if (slot_long(CF(C_PHASE), PLAYING, GAME_OVER, &v))
        return 1;
    st->phase = (int)v;
    if (st->phase == PLAYING && !st->hands[st->current])
        return 1;
    if (slot_long(SF(S_LAST), -1, sp->players - 1, &v))
        return 1;
    st->last_placer = (int)v;
    if (slot_long(CF(C_WINNER), -1, sp->nsides - 1, &v))
        return 1;
    st->match_winner = (int)v;
    PyObject *placements = FIELD(board, L_board, B_PLACEMENTS);
    if (!PyTuple_CheckExact(placements) || PyTuple_GET_SIZE(placements) > INT_MAX ||
        !PyTuple_CheckExact(ends) || PyTuple_GET_SIZE(ends) > MAXE)
        return 1;
    st->nplaced = (int)PyTuple_GET_SIZE(placements);
    st->nends = (int)PyTuple_GET_SIZE(ends);
    for (int e = 0; e < st->nends; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long value, free, cell, side;
        if (!complete(end, &L_end) ||
            slot_long(FIELD(end, L_end, E_VALUE), -FACE0, NFACE - FACE0 - 1, &value) ||
            slot_long(FIELD(end, L_end, E_FREE), 0, 3, &free) ||
            slot_long(FIELD(end, L_end, E_CELL), LONG_MIN, LONG_MAX, &cell) ||
            slot_long(FIELD(end, L_end, E_SIDE), INT8_MIN, INT8_MAX, &side))
            return 1; /* (a side beyond int8: the tuple path, which reads it as before) */
        st->ends[e].value = (int8_t)value;
        st->ends[e].free = (uint8_t)free;
        st->ends[e].side = (int8_t)side;
        if (sp->bends) {
            if (cell < 0 || cell >= spiral_cells || side < 0 || side > 5)
                return 1;
            st->ends[e].cell = spiral[cell];
        }
    }
    if (slot_occupancy(FIELD(board, L_board, B_OCC), st))
        return 1;
    PyObject *results = CF(C_RESULTS);
    if (!PyTuple_CheckExact(results))
        return 1;
    if (PyTuple_GET_SIZE(results)) {
        PyObject *last = PyTuple_GET_ITEM(results, PyTuple_GET_SIZE(results) - 1);
        if (!complete(last, &L_result))
            return 1;
        st->has_result = 1;
        if (slot_long(FIELD(last, L_result, 1), INT_MIN, INT_MAX, &v))
            return 1;
        st->r_blocked = (int)v;
        if (slot_seats(FIELD(last, L_result, 2), sp->players, st->r_order, &st->r_nout) ||
            slot_seats(FIELD(last, L_result, 5), sp->players, st->r_winners, &st->r_nwinners) ||
            slot_ints(FIELD(last, L_result, 3), sp->players, st->r_hand) ||
            slot_ints(FIELD(last, L_result, 4), sp->players, st->r_points))
            return 1;
    }
#undef CF
#undef SF
    return 0;
}

/* read_state(sp, state_tuple(state), st) read from the slots: 0 when read (the same
 * KState, byte for byte), 1 when not (anything read_state would refuse or that is not of
 * the exact classes and types: the caller takes the tuple path, which answers as before);
 * every check of read_state is made here, in its order */
static int read_slots(const Spec *sp, PyObject *state, KState *st) {
    memset(st, 0, sizeof *st);
    if (!step_ready || !complete(state, &L_state))
        return 1;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!complete(context, &L_context))
        return 1;
    return read_fields(sp, state, context, st);
}

/* play(spec, state, count, policy, seed, until_match, record, first, outcome_class): run
 * for a GameState (the seed taken modulo 2**64), the outcomes as a tuple; NotImplemented
 * when the state is not for state_of or the spec is a triangle game's (the caller then
 * calls run with the Python state_tuple) */
static PyObject *k_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "play takes 9 arguments");
        return NULL;
    }
    if (!PyCapsule_IsValid(args[0], "bendolib._kernel.Spec"))
        Py_RETURN_NOTIMPLEMENTED; /* a triangle spec (or not a spec): run decides */
    Spec *sp = get_spec(args[0]);
    PyObject *cls = args[8], *first = args[7];
    if (!sp)
        return NULL;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "kernel: the outcome class must be a tuple subclass");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[2]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "kernel: a negative count");
        return NULL;
    }
    long policy = PyLong_AsLong(args[3]);
    if (policy == -1 && PyErr_Occurred())
        return NULL;
    if (!PyLong_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "kernel: the seed must be an int");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[4]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    int until_match = PyObject_IsTrue(args[5]), record = PyObject_IsTrue(args[6]);
    if (until_match < 0 || record < 0)
        return NULL;
    KState root;
    if (read_slots(sp, args[1], &root)) {
        /* not read from the slots: the state tuple (built here, or in Python) */
        PyObject *flat = state_of(args[1]);
        if (!flat) {
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_NOTIMPLEMENTED;
        }
        int err = read_state(sp, flat, &root);
        Py_DECREF(flat);
        if (err)
            return NULL;
    }
    return run_from(sp, &root, count, (int)policy, seed, until_match, record, first, cls, 1);
}

/* -- playouts(state, count) in one C call (issue 24, point 3) ---------------------------- */

/* the latest rule set playouts compiled (bendolib.playouts._compiled): quick serves its
 * states; strong references, replaced by quick_set */
static PyObject *q_rules = NULL, *q_spec = NULL, *q_policies = NULL, *q_outcome = NULL;

/* quick_set(rules, players, spec, policies, outcome_class): the rule set quick serves
 * (spec None, or a triangle game's: none); the player count is the spec's, which
 * read_fields checks the state's against */
static PyObject *k_quick_set(PyObject *self, PyObject *args) {
    PyObject *rules, *spec, *policies, *cls;
    long players;
    if (!PyArg_ParseTuple(args, "OlOO!O", &rules, &players, &spec, &PyTuple_Type, &policies, &cls))
        return NULL;
    int chain = PyCapsule_IsValid(spec, KNAME(".Spec"));
    if (chain && (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type))) {
        PyErr_SetString(PyExc_TypeError, "kernel: the outcome class must be a tuple subclass");
        return NULL;
    }
    Py_CLEAR(q_rules);
    Py_CLEAR(q_spec);
    Py_CLEAR(q_policies);
    Py_CLEAR(q_outcome);
    if (chain) {
        Py_INCREF(rules);
        Py_INCREF(spec);
        Py_INCREF(policies);
        Py_INCREF(cls);
        q_rules = rules;
        q_spec = spec;
        q_policies = policies;
        q_outcome = cls;
    }
    Py_RETURN_NONE;
}

/* an exact str equal to ``text`` (an interned literal: mostly the same object) */
static inline int same_text(PyObject *v, PyObject *text) {
    return v == text || (PyUnicode_CheckExact(v) && PyUnicode_Compare(v, text) == 0);
}

/* the arguments of quick but the state, checked as quick checks them: 0 when they are of
 * the exact common types (count None or an int >= 0, policy and until known strs, seed an
 * int), 1 when not (NotImplemented), -1 on an error */
static int quick_arguments(PyObject *count_obj, PyObject *policy, PyObject *seed_obj,
                           PyObject *until, long *count, long *code, int *until_match,
                           unsigned long long *seed) {
    *count = 1;
    *code = -1;
    if (!q_spec || !step_ready || (count_obj != Py_None && (as_long(count_obj, count) || *count < 0)) ||
        !PyLong_CheckExact(seed_obj))
        return 1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(q_policies) && *code < 0; k++)
        if (same_text(policy, PyTuple_GET_ITEM(q_policies, k)))
            *code = (long)k;
    static PyObject *round_text = NULL, *match_text = NULL;
    if (!round_text && (!(round_text = PyUnicode_InternFromString("round")) ||
                        !(match_text = PyUnicode_InternFromString("match"))))
        return -1;
    *until_match = until != round_text && same_text(until, match_text);
    if (*code < 0 || (!*until_match && !same_text(until, round_text)))
        return 1;
    *seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (*seed == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    return 0;
}

/* the playouts of quick from one state, for the spec and class held by the caller: the
 * outcomes, NotImplemented for a state quick does not take, NULL on an error */
static PyObject *quick_state(const Spec *sp, PyObject *cls, PyObject *state, long count,
                             long code, unsigned long long seed, int until_match, int record) {
    if (!complete(state, &L_state))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!complete(context, &L_context) || FIELD(context, L_context, C_RULES) != q_rules)
        Py_RETURN_NOTIMPLEMENTED;
    KState root;
    memset(&root, 0, sizeof root);
    /* (read_fields: read_slots but the checks just made; the player count the spec's) */
    if (read_fields(sp, state, context, &root))
        Py_RETURN_NOTIMPLEMENTED;
    return run_from(sp, &root, count, (int)code, seed, until_match, record, Py_None, cls, 1);
}

/* quick(state, count, policy, seed, until, record): bendolib.playouts.playouts(state,
 * count, policy=..., seed=..., until=..., record=...) for the rule set of quick_set and
 * arguments of the exact common types (count None or an int >= 0, policy and until known
 * strs, seed an int, record a bool) and a state read_slots reads; NotImplemented for
 * anything else (playouts then checks and plays as before); UnsupportedError as run */
static PyObject *k_quick(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "quick takes 6 arguments");
        return NULL;
    }
    PyObject *record = args[5];
    long count, code;
    int until_match;
    unsigned long long seed;
    int bad = quick_arguments(args[1], args[2], args[3], args[4], &count, &code, &until_match,
                              &seed);
    if (bad < 0)
        return NULL;
    if (bad || (record != Py_True && record != Py_False))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *spec = q_spec, *cls = q_outcome; /* held: another thread may quick_set */
    Py_INCREF(spec);
    Py_INCREF(cls);
    const Spec *sp = get_spec(spec);
    PyObject *out = sp ? quick_state(sp, cls, args[0], count, code, seed, until_match,
                                     record == Py_True)
                       : NULL;
    Py_DECREF(spec);
    Py_DECREF(cls);
    return out;
}

/* quick_many(states, count, policy, seed, until): bendolib.playouts.playouts_many in one C
 * call (issue 24, point 3: one C call for a search's leaves, no Python frame per state):
 * for a list or tuple of states, item j quick(states[j], count, policy, seed + j, until,
 * False); a tuple when every state was played, else a list with NotImplemented for each
 * state quick does not take or whose playouts raised UnsupportedError (playouts_many plays
 * those as before); NotImplemented when the arguments are not quick's */
static PyObject *k_quick_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "quick_many takes 5 arguments");
        return NULL;
    }
    PyObject *states = args[0];
    long count, code;
    int until_match;
    unsigned long long seed;
    if (!PyList_CheckExact(states) && !PyTuple_CheckExact(states))
        Py_RETURN_NOTIMPLEMENTED;
    int bad = quick_arguments(args[1], args[2], args[3], args[4], &count, &code, &until_match,
                              &seed);
    if (bad < 0)
        return NULL;
    if (bad)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *spec = q_spec, *cls = q_outcome; /* held: another thread may quick_set */
    Py_INCREF(spec);
    Py_INCREF(cls);
    /* a snapshot of the states: a list may change while its outcomes are made */
    PyObject *items = PySequence_Tuple(states);
    const Spec *sp = items ? get_spec(spec) : NULL;
    Py_ssize_t n = items ? PyTuple_GET_SIZE(items) : 0;
    PyObject *out = sp ? PyTuple_New(n) : NULL;
    int holes = 0;
    for (Py_ssize_t j = 0; out && j < n; j++) {
        PyObject *got = quick_state(sp, cls, PyTuple_GET_ITEM(items, j), count, code,
                                    seed + (unsigned long long)j, until_match, 0);
        if (!got && PyErr_ExceptionMatches(UnsupportedError)) {
            PyErr_Clear(); /* an event the kernel leaves to the engine */
            got = Py_NewRef(Py_NotImplemented);
        }
        if (!got)
            Py_CLEAR(out);
        else {
            holes |= got == Py_NotImplemented;
            PyTuple_SET_ITEM(out, j, got);
        }
    }
    if (out && holes) {
        PyObject *list = PySequence_List(out);
        Py_SETREF(out, list);
    }
    Py_XDECREF(items);
    Py_DECREF(spec);
    Py_DECREF(cls);
    return out;
}

/* -- playouts itself reached from C (issue 24, point 3) ---------------------------------
 * fast_entry(function): a callable standing for bendolib.playouts.playouts (``function``):
 * a call of the common form (the state and count positional, policy, seed, until and record
 * by keyword or left out) is quick's, in C, with no Python frame (the frame, its keyword-only
 * defaults looked up in a dict one by one, was a third of a 1-playout call's fixed cost);
 * every other call, and every one quick leaves (NotImplemented, UnsupportedError), is the
 * function's own call, its arguments as given: the same answers and the same errors.  Its
 * attributes are the function's (__doc__, __name__, __wrapped__ for inspect.signature). */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *function;
} FastEntry;

static PyTypeObject FastEntryType = {PyVarObject_HEAD_INIT(NULL, 0)};
static PyObject *fe_policy = NULL, *fe_seed = NULL, *fe_until = NULL, *fe_record = NULL,
                *fe_random = NULL, *fe_round = NULL, *fe_zero = NULL;

static PyObject *fe_call(PyObject *self, PyObject *const *args, size_t nargsf,
                         PyObject *kwnames) {
    PyObject *function = ((FastEntry *)self)->function;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs >= 1 && nargs <= 2 && q_spec) {
        PyObject *call[6] = {args[0], nargs == 2 ? args[1] : Py_None, fe_random, fe_zero,
                             fe_round, Py_False};
        int common = 1;
        Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        for (Py_ssize_t k = 0; k < nk && common; k++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, k); /* (interned: compared by id) */
            if (name == fe_policy)
                call[2] = args[nargs + k];
            else if (name == fe_seed)
                call[3] = args[nargs + k];
            else if (name == fe_until)
                call[4] = args[nargs + k];
            else if (name == fe_record)
                call[5] = args[nargs + k];
            else
                common = 0; /* first, count or state by keyword, a wrong name: the function */
        }
        if (common) {
            PyObject *got = k_quick(NULL, call, 6);
            if (got && got != Py_NotImplemented)
                return got;
            if (got)
                Py_DECREF(got);
            else if (PyErr_ExceptionMatches(UnsupportedError))
                PyErr_Clear(); /* an event the kernel leaves to the engine: the function */
            else
                return NULL;
        }
    }
    return PyObject_Vectorcall(function, args, nargsf, kwnames);
}

static PyObject *fe_getattro(PyObject *self, PyObject *name) {
    PyObject *function = ((FastEntry *)self)->function;
    if (PyUnicode_Check(name)) {
        if (PyUnicode_CompareWithASCIIString(name, "__wrapped__") == 0)
            return Py_NewRef(function);
        if (PyUnicode_CompareWithASCIIString(name, "__reduce_ex__") == 0 ||
            PyUnicode_CompareWithASCIIString(name, "__reduce__") == 0)
            return PyObject_GenericGetAttr(self, name); /* pickled by name: fe_reduce */
    }
    return PyObject_GetAttr(function, name);
}

/* pickled as the function was: by its qualified name, in its module */
static PyObject *fe_reduce(PyObject *self, PyObject *unused) {
    return PyObject_GetAttrString(((FastEntry *)self)->function, "__qualname__");
}

static PyMethodDef fe_methods[] = {
    {"__reduce__", fe_reduce, METH_NOARGS, "the qualified name (pickled by reference)"},
    {NULL, NULL, 0, NULL},
};

/* bound as the function is, when it is a class's attribute */
static PyObject *fe_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (obj == NULL || obj == Py_None)
        return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyObject *fe_repr(PyObject *self) {
    return PyObject_Repr(((FastEntry *)self)->function);
}

static void fe_dealloc(PyObject *self) {
    Py_XDECREF(((FastEntry *)self)->function);
    PyObject_Free(self);
}

static int fast_entry_ready(void) {
    if (FastEntryType.tp_name)
        return 0;
    FastEntryType.tp_name = KNAME(".FastEntry");
    FastEntryType.tp_basicsize = sizeof(FastEntry);
    FastEntryType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL;
    FastEntryType.tp_vectorcall_offset = offsetof(FastEntry, vectorcall);
    FastEntryType.tp_call = PyVectorcall_Call;
    FastEntryType.tp_getattro = fe_getattro;
    FastEntryType.tp_repr = fe_repr;
    FastEntryType.tp_methods = fe_methods;
    FastEntryType.tp_descr_get = fe_get;
    FastEntryType.tp_dealloc = fe_dealloc;
    FastEntryType.tp_doc = "playouts reached from C (see bendolib.playouts)";
    if (!(fe_policy = PyUnicode_InternFromString("policy")) ||
        !(fe_seed = PyUnicode_InternFromString("seed")) ||
        !(fe_until = PyUnicode_InternFromString("until")) ||
        !(fe_record = PyUnicode_InternFromString("record")) ||
        !(fe_random = PyUnicode_InternFromString("random")) ||
        !(fe_round = PyUnicode_InternFromString("round")) || !(fe_zero = PyLong_FromLong(0)))
        return -1;
    return PyType_Ready(&FastEntryType);
}

/* fast_entry(function): the FastEntry standing for bendolib.playouts.playouts */
static PyObject *k_fast_entry(PyObject *self, PyObject *function) {
    if (fast_entry_ready())
        return NULL;
    FastEntry *made = PyObject_New(FastEntry, &FastEntryType);
    if (!made)
        return NULL;
    made->vectorcall = fe_call;
    made->function = Py_NewRef(function);
    return (PyObject *)made;
}

/* read_agrees(spec, state): None when read_slots leaves the state to the tuple path, else
 * whether it read the KState read_state reads from the state tuple, byte for byte (a
 * test's check of read_slots) */
static PyObject *k_read_agrees(PyObject *self, PyObject *args) {
    PyObject *capsule, *state;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &state))
        return NULL;
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    KState *a = PyMem_Calloc(2, sizeof(KState));
    if (!a)
        return PyErr_NoMemory();
    PyObject *out = NULL;
    if (read_slots(sp, state, &a[0])) {
        out = Py_None;
        Py_INCREF(out);
    } else {
        PyObject *flat = state_of(state);
        if (flat) {
            if (!read_state(sp, flat, &a[1]))
                out = PyBool_FromLong(!memcmp(&a[0], &a[1], sizeof(KState)));
            Py_DECREF(flat);
        } else if (!PyErr_Occurred()) {
            out = Py_False; /* read from the slots, not by the tuple path */
            Py_INCREF(out);
        }
    }
    PyMem_Free(a);
    return out;
}

#define STATE_OBJ_METHODS                                                                  \
    {"state_of", k_state_of, METH_O, "state_of(state) -> the state tuple, or None"},       \
    {"quick_set", k_quick_set, METH_VARARGS,                                               \
     "quick_set(rules, players, spec, policies, outcome): the rule set quick serves"},     \
    {"quick", (PyCFunction)(void (*)(void))k_quick, METH_FASTCALL,                         \
     "quick(state, count, policy, seed, until, record) -> playouts(...), or NotImplemented"}, \
    {"fast_entry", k_fast_entry, METH_O,                                                   \
     "fast_entry(playouts) -> playouts, its common calls served in C"},                    \
    {"quick_many", (PyCFunction)(void (*)(void))k_quick_many, METH_FASTCALL,               \
     "quick_many(states, count, policy, seed, until) -> playouts_many(...), with holes"},  \
    {"read_agrees", k_read_agrees, METH_VARARGS,                                           \
     "read_agrees(spec, state) -> None, or whether both readers read the same state"},    \
    {"play", (PyCFunction)(void (*)(void))k_play, METH_FASTCALL,                           \
     "play(spec, state, count, policy, seed, until_match, record, first, outcome) -> "     \
     "outcomes, or NotImplemented"},
