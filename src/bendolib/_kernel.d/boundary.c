/*
 * bendolib._kernel, reading Python in: the flat spec tuple into a Spec (read_spec,
 * compile) and the flat state tuple into a KState (read_state); anything the kernel
 * does not know raises UnsupportedError (the caller falls back on the Python engine).
 */

/* -- import from Python --------------------------------------------------------------- */

static int unsupported(const char *why) {
    PyErr_SetString(UnsupportedError, why);
    return -1;
}

/* item i of a tuple, an int of 64 bits: anything else is not for the kernel (an int
 * beyond 64 bits, say), so that the caller falls back on the Python engine */
static int get_long(PyObject *seq, Py_ssize_t i, long long *out) {
    PyObject *item = PyTuple_GetItem(seq, i);
    if (!item)
        return -1;
    if (!PyLong_Check(item))
        return unsupported("a value that is not an int");
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow)
        return unsupported("an int beyond 64 bits");
    if (*out == -1 && PyErr_Occurred())
        return -1;
    return 0;
}

/* read item i into var, refused (UnsupportedError) unless var holds it exactly */
#define GET(seq, i, var)                                                                   \
    do {                                                                                   \
        long long _v;                                                                      \
        if (get_long((seq), (i), &_v))                                                     \
            return -1;                                                                     \
        var = _v;                                                                          \
        if ((long long)(var) != _v)                                                        \
            return unsupported("an int beyond the kernel's range");                        \
    } while (0)

/* GET, refused unless lo <= value <= hi */
#define GET_IN(seq, i, var, lo, hi)                                                        \
    do {                                                                                   \
        GET(seq, i, var);                                                                  \
        if ((long long)(var) < (long long)(lo) || (long long)(var) > (long long)(hi))      \
            return unsupported("a value out of the kernel's range");                       \
    } while (0)

/* GET, a value above cap read as cap (a count or a limit beyond what any deal holds) */
#define GET_CAPPED(seq, i, var, cap)                                                       \
    do {                                                                                   \
        long long _c;                                                                      \
        if (get_long((seq), (i), &_c))                                                     \
            return -1;                                                                     \
        var = _c > (cap) ? (cap) : _c < -(cap) ? -(cap) : _c;                              \
    } while (0)

/* a tuple of size items (any size when negative); anything else (a list a user put in a
 * state, a result of the wrong length) is not for the kernel: the Python engine decides */
static int tuple_of(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj) || (size >= 0 && PyTuple_GET_SIZE(obj) != size)) {
        PyErr_Format(UnsupportedError, "kernel: %s is not a tuple of %zd", what, size);
        return -1;
    }
    return 0;
}

static void spec_destroy(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, KNAME(".Spec")));
}

/* spec tuple: see bendolib._kernel_input.spec_tuple */
static int read_spec(PyObject *t, Spec *sp) {
    memset(sp, 0, sizeof *sp);
    if (tuple_of(t, 12, "spec"))
        return -1;
    PyObject *head = PyTuple_GET_ITEM(t, 0), *tiles = PyTuple_GET_ITEM(t, 1),
             *wild = PyTuple_GET_ITEM(t, 2), *start = PyTuple_GET_ITEM(t, 3),
             *draw = PyTuple_GET_ITEM(t, 4), *scoring = PyTuple_GET_ITEM(t, 5),
             *places = PyTuple_GET_ITEM(t, 6), *sides = PyTuple_GET_ITEM(t, 7),
             *match = PyTuple_GET_ITEM(t, 8), *effects = PyTuple_GET_ITEM(t, 9),
             *flags = PyTuple_GET_ITEM(t, 10), *deal = PyTuple_GET_ITEM(t, 11);
    if (tuple_of(head, 4, "head") || tuple_of(tiles, -1, "tiles") || tuple_of(wild, -1, "wild") ||
        tuple_of(start, 6, "start") || tuple_of(draw, 5, "draw") || tuple_of(scoring, 7, "scoring") ||
        tuple_of(places, -1, "places") || tuple_of(sides, -1, "sides") || tuple_of(match, 2, "match") ||
        tuple_of(effects, -1, "effects") || tuple_of(flags, 5, "flags") || tuple_of(deal, 2, "deal"))
        return -1;
    GET(head, 0, sp->players);
    GET(head, 1, sp->top);
    GET(head, 2, sp->bends);
    GET(head, 3, sp->finish_last);
    sp->n = (int)PyTuple_GET_SIZE(tiles);
    if (sp->players < 1 || sp->players > MAXP || sp->n < 1 || sp->n > MAXT || sp->top < 0 ||
        sp->top > NFACE - FACE0 - 1)
        return unsupported("players, tiles or faces out of the kernel's range");
    for (int i = 0; i < sp->n; i++) {
        PyObject *tile = PyTuple_GET_ITEM(tiles, i);
        long long a, b, points, ta, tb;
        if (tuple_of(tile, 5, "tile"))
            return -1;
        GET(tile, 0, a);
        GET(tile, 1, b);
        GET_IN(tile, 2, points, -(1 << 30), 1 << 30);
        GET_IN(tile, 3, ta, 0, BOTH);
        GET_IN(tile, 4, tb, 0, BOTH);
        if (a < -FACE0 || a >= NFACE - FACE0 || b < -FACE0 || b >= NFACE - FACE0)
            return unsupported("a face out of the kernel's range");
        sp->a[i] = (int8_t)a;
        sp->b[i] = (int8_t)b;
        sp->points[i] = (int32_t)points;
        sp->turn[2 * i] = (uint8_t)ta;
        sp->turn[2 * i + 1] = (uint8_t)tb;
        sp->face[a + FACE0] |= BIT(i);
        sp->face[b + FACE0] |= BIT(i);
        if (a == b)
            sp->doubles |= BIT(i);
    }
    sp->full = sp->n == MAXT ? ~(mask_t)0 : (((mask_t)1 << sp->n) - 1);
    for (int i = 0; i < sp->n; i++) {
        for (int j = 0; j < sp->n; j++)
            if (sp->a[i] == sp->a[j] && sp->b[i] == sp->b[j])
                sp->twins[i] |= BIT(j);
        if (sp->twins[i] != ((mask_t)1 << i))
            sp->has_twins = 1;
    }
    for (int f = 0; f < NFACE; f++)
        for (int i = 0; i < sp->n; i++) {
            int face = f - FACE0;
            if (face != sp->a[i] && face != sp->b[i])
                continue;
            int turn = turn_from(sp, i, face);
            for (int free = 1; free < 4; free++)
                if (turn & free)
                    sp->fit[f][free] |= BIT(i);
        }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(wild); k++) {
        long long face;
        GET(wild, k, face);
        if (face < -FACE0 || face >= NFACE - FACE0)
            return unsupported("a wild face out of the kernel's range");
        sp->wild_faces |= (uint64_t)1 << (face + FACE0);
        sp->wild_mask |= sp->face[face + FACE0];
    }
    sp->general = sp->wild_mask != 0;
    GET_IN(start, 0, sp->start_kind, START_NONE, START_FIXED);
    GET_IN(start, 1, sp->start_tile, -1, sp->n - 1);
    GET(start, 2, sp->start_redeal);
    GET(start, 3, sp->start_opens);
    GET_IN(start, 4, sp->start_seat, 0, INT_MAX);
    GET_IN(start, 5, sp->start_split, 0, 2);
    GET_IN(draw, 0, sp->when_stuck, NEVER, UNTIL_FITS);
    GET(draw, 1, sp->voluntary);
    GET(draw, 2, sp->must_play);
    /* a batch or a limit beyond the tile set draws the whole stock, as it does at 2**20 */
    GET_CAPPED(draw, 3, sp->batch, 1 << 20);
    GET_CAPPED(draw, 4, sp->max_per_turn, 1 << 20);
    if (sp->max_per_turn < 0)
        return unsupported("a negative limit of draws");
    sp->draws = sp->when_stuck != NEVER;
    GET(scoring, 0, sp->scoring);
    GET(scoring, 1, sp->lowest_side);
    GET(scoring, 2, sp->locker_loses);
    GET(scoring, 3, sp->minus_own);
    GET(scoring, 4, sp->out_wins);
    GET(scoring, 5, sp->takes_all);
    GET(scoring, 6, sp->win_points);
    if (sp->scoring < SCORE_WINNER_TAKES || sp->scoring > SCORE_HIGHEST_PLAY)
        return unsupported("an unknown round scoring");
    if (PyTuple_GET_SIZE(places) > 2 + MAXP || PyTuple_GET_SIZE(places) == 1)
        return unsupported("too many place points");
    for (Py_ssize_t k = 2; k < PyTuple_GET_SIZE(places); k++)
        GET(places, k, sp->place_points[k - 2]);
    if (PyTuple_GET_SIZE(places)) {
        GET(places, 0, sp->share);
        GET(places, 1, sp->round_up);
    }
    sp->nsides = (int)PyTuple_GET_SIZE(sides);
    if (sp->nsides < 1 || sp->nsides > MAXP)
        return unsupported("sides out of the kernel's range");
    for (int i = 0; i < sp->players; i++)
        sp->side_of[i] = -1;
    for (int i = 0; i < sp->nsides; i++) {
        PyObject *side = PyTuple_GET_ITEM(sides, i);
        if (tuple_of(side, -1, "side"))
            return -1;
        sp->side_size[i] = (int)PyTuple_GET_SIZE(side);
        if (sp->side_size[i] > MAXP)
            return unsupported("a side out of the kernel's range");
        for (int k = 0; k < sp->side_size[i]; k++) {
            long long seat;
            GET(side, k, seat);
            if (seat < 0 || seat >= sp->players)
                return unsupported("a side seat out of range");
            sp->side_seats[i][k] = (int)seat;
            sp->side_of[seat] = i;
        }
    }
    for (int i = 0; i < sp->players; i++)
        if (sp->side_of[i] < 0)
            return unsupported("a seat on no side");
    GET(match, 0, sp->target);
    /* a multiple beyond any sum of four ends scores as it does at 2**20: never */
    GET_CAPPED(match, 1, sp->multiple, 1 << 20);
    sp->neffects = (int)PyTuple_GET_SIZE(effects);
    if (sp->neffects > MAXEFF)
        return unsupported("too many effects");
    for (int k = 0; k < sp->neffects; k++) {
        PyObject *effect = PyTuple_GET_ITEM(effects, k);
        if (tuple_of(effect, 3, "effect"))
            return -1;
        GET(effect, 0, sp->effect_face[k]);
        GET_IN(effect, 1, sp->effect_kind[k], EFFECT_REVERSE, EFFECT_NEXT_DRAWS);
        GET_CAPPED(effect, 2, sp->effect_count[k], 1 << 20); /* beyond the stock: all of it */
    }
    GET(flags, 0, sp->even_closure);
    GET(flags, 1, sp->drain_blocked);
    GET(flags, 2, sp->draw_and_pass);
    GET(flags, 3, sp->end_in_play);
    GET_IN(flags, 4, sp->round_winner, 0, 1);
    GET(deal, 0, sp->hand_size);
    GET(deal, 1, sp->table_tiles);
    if (sp->table_tiles > 2 || sp->table_tiles < 0 || sp->hand_size < 0 || sp->batch < 1 ||
        (sp->even_closure && !sp->bends))
        return unsupported("a deal or draw the kernel does not know");
    return 0;
}

static PyObject *tri_compile(PyObject *arg);

static PyObject *k_compile(PyObject *self, PyObject *arg) {
    if (PyTuple_Check(arg) && PyTuple_GET_SIZE(arg) && PyUnicode_Check(PyTuple_GET_ITEM(arg, 0)))
        return tri_compile(arg); /* ("triangles", ...): tri.c */
    Spec *sp = (Spec *)PyMem_Malloc(sizeof(Spec));
    if (!sp)
        return PyErr_NoMemory();
    if (read_spec(arg, sp)) {
        PyMem_Free(sp);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(sp, KNAME(".Spec"), spec_destroy);
    if (!capsule)
        PyMem_Free(sp);
    return capsule;
}

static int read_int_tuple(PyObject *t, int64_t *out, int size, const char *what) {
    if (tuple_of(t, size, what))
        return -1;
    for (int i = 0; i < size; i++) {
        long long v;
        GET(t, i, v);
        out[i] = v;
    }
    return 0;
}

#if MAXT > 64
/* a mask of up to MAXT bits, 64 at a time from the lowest (a negative int stays negative
 * and is refused with the bits beyond MAXT) */
static int read_mask(PyObject *obj, mask_t *out) {
    if (!PyLong_Check(obj))
        return unsupported("a mask that is not an int");
    PyObject *shift = PyLong_FromLong(64), *rest = obj;
    if (!shift)
        return -1;
    Py_INCREF(rest);
    mask_t mask = 0;
    for (int word = 0; word < MAXT / 64; word++) {
        uint64_t bits = (uint64_t)PyLong_AsUnsignedLongLongMask(rest);
        PyObject *next = bits == (uint64_t)-1 && PyErr_Occurred() ? NULL : PyNumber_Rshift(rest, shift);
        Py_DECREF(rest);
        if (!next) {
            Py_DECREF(shift);
            return -1;
        }
        rest = next;
        mask = mask | ((mask_t)bits << (64 * word));
    }
    Py_DECREF(shift);
    int beyond = PyObject_IsTrue(rest);
    Py_DECREF(rest);
    if (beyond < 0)
        return -1;
    if (beyond)
        return unsupported("a mask beyond the kernel's tiles, or negative");
    *out = mask;
    return 0;
}
#else
static int read_mask(PyObject *obj, mask_t *out) {
    if (!PyLong_Check(obj))
        return unsupported("a mask that is not an int");
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return unsupported("a mask beyond 64 tiles, or negative");
        }
        return -1;
    }
    *out = v;
    return 0;
}
#endif

/* state tuple: see bendolib._kernel_input.state_tuple */
static int read_state(const Spec *sp, PyObject *t, KState *st) {
    memset(st, 0, sizeof *st);
    if (tuple_of(t, 21, "state"))
        return -1;
    long long players, v;
    GET(t, 0, players);
    if (players != sp->players)
        return unsupported("the state's player count is not the spec's");
    PyObject *seed = PyTuple_GET_ITEM(t, 1);
    if (!PyLong_Check(seed))
        return unsupported("a seed that is not an int");
    st->seed = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return unsupported("a seed beyond 0..2**64 - 1");
    }
    GET(t, 2, st->round_number);
    if (st->round_number < 0 || st->round_number > ((int64_t)1 << 62))
        return unsupported("a round number out of range");
    PyObject *deck = PyTuple_GET_ITEM(t, 3);
    if (tuple_of(deck, -1, "deck"))
        return -1;
    st->ndeck = (int)PyTuple_GET_SIZE(deck);
    if (st->ndeck > MAXT)
        return unsupported("a deck beyond the kernel's tiles");
    for (int i = 0; i < st->ndeck; i++) {
        GET(deck, i, v);
        if (v < 0 || v >= sp->n)
            return unsupported("a deck index out of range");
        st->deck[i] = (tile_t)v;
    }
    GET(t, 4, st->stock_pos);
    if (st->stock_pos < 0 || st->stock_pos > st->ndeck)
        return unsupported("a stock position out of range");
    PyObject *hands = PyTuple_GET_ITEM(t, 5);
    if (tuple_of(hands, sp->players, "hands"))
        return -1;
    mask_t held = 0;
    for (int s = 0; s < sp->players; s++) {
        if (read_mask(PyTuple_GET_ITEM(hands, s), &st->hands[s]))
            return -1;
        if ((st->hands[s] & ~sp->full) || (st->hands[s] & held))
            return unsupported("a hand beyond the tile set, or hands sharing a tile");
        held |= st->hands[s];
    }
    GET(t, 6, st->current);
    if (st->current < 0 || st->current >= sp->players)
        return unsupported("a current player out of range");
    if (read_int_tuple(PyTuple_GET_ITEM(t, 7), st->scores, sp->players, "scores"))
        return -1;
    GET_IN(t, 8, st->opening, -1, sp->n - 1);
    if (read_mask(PyTuple_GET_ITEM(t, 9), &st->drawn))
        return -1;
    if (st->drawn & ~sp->full)
        return unsupported("drawn tiles beyond the tile set");
    GET_IN(t, 10, st->drawn_count, 0, MAXT);
    if (sp->max_per_turn && st->drawn_count > sp->max_per_turn)
        return unsupported("more tiles drawn this turn than the rules allow");
    GET(t, 11, st->direction);
    if (st->direction != 1 && st->direction != -1)
        return unsupported("a direction other than 1 or -1");
    PyObject *out = PyTuple_GET_ITEM(t, 12);
    if (tuple_of(out, -1, "out"))
        return -1;
    st->nout = (int)PyTuple_GET_SIZE(out);
    if (st->nout > sp->players)
        return unsupported("more seats out than players");
    for (int k = 0; k < st->nout; k++) {
        GET_IN(out, k, v, 0, sp->players - 1);
        for (int j = 0; j < k; j++)
            if (st->out[j] == v)
                return unsupported("a seat out twice");
        st->out[k] = (int8_t)v;
    }
    if (read_int_tuple(PyTuple_GET_ITEM(t, 13), st->play_points, sp->players, "play points"))
        return -1;
    GET_IN(t, 14, st->phase, PLAYING, GAME_OVER);
    if (st->phase == PLAYING && !st->hands[st->current])
        return unsupported("the player to move holds no tile"); /* never in play */
    GET_IN(t, 15, st->last_placer, -1, sp->players - 1);
    GET_IN(t, 16, st->match_winner, -1, sp->nsides - 1);
    GET_IN(t, 17, st->nplaced, 0, INT_MAX);
    PyObject *ends = PyTuple_GET_ITEM(t, 18);
    if (tuple_of(ends, -1, "ends"))
        return -1;
    st->nends = (int)PyTuple_GET_SIZE(ends);
    if (st->nends > MAXE)
        return unsupported("more than four open ends");
    for (int e = 0; e < st->nends; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long long value, free, cell, side;
        if (tuple_of(end, 4, "end"))
            return -1;
        GET(end, 0, value);
        GET(end, 1, free);
        GET(end, 2, cell);
        GET(end, 3, side);
        if (value < -FACE0 || value >= NFACE - FACE0 || free < 0 || free > 3)
            return unsupported("an end value out of the kernel's range");
        st->ends[e].value = (int8_t)value;
        st->ends[e].free = (uint8_t)free;
        st->ends[e].side = (int8_t)side;
        if (sp->bends) {
            if (cell < 0 || cell >= spiral_cells || side < 0 || side > 5)
                return unsupported("an end cell beyond the kernel's lattice");
            st->ends[e].cell = spiral[cell];
        }
    }
    PyObject *occupancy = PyTuple_GET_ITEM(t, 19);
    if (!PyBytes_Check(occupancy)) {
        PyErr_SetString(PyExc_TypeError, "kernel: occupancy must be bytes");
        return -1;
    }
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(occupancy);
    Py_ssize_t nbytes = PyBytes_GET_SIZE(occupancy);
    for (Py_ssize_t k = 0; k < nbytes; k++)
        for (int bit = 0; bit < 8; bit++)
            if ((bytes[k] >> bit) & 1) {
                long long position = k * 8 + bit;
                long long cell = position / 6;
                if (cell >= spiral_cells)
                    return unsupported("an occupied cell beyond the kernel's lattice");
                if (occupy(st, spiral[cell], (int)(position % 6)))
                    return unsupported("too many occupied cells");
            }
    PyObject *result = PyTuple_GET_ITEM(t, 20);
    if (result != Py_None) {
        if (tuple_of(result, 5, "result"))
            return -1;
        st->has_result = 1;
        GET(result, 0, st->r_blocked);
        PyObject *order = PyTuple_GET_ITEM(result, 1), *winners = PyTuple_GET_ITEM(result, 4);
        if (tuple_of(order, -1, "order") || tuple_of(winners, -1, "winners"))
            return -1;
        st->r_nout = (int)PyTuple_GET_SIZE(order);
        st->r_nwinners = (int)PyTuple_GET_SIZE(winners);
        if (st->r_nout > MAXP || st->r_nwinners > MAXP)
            return unsupported("a result beyond the kernel's range");
        for (int k = 0; k < st->r_nout; k++) {
            GET_IN(order, k, v, 0, sp->players - 1);
            st->r_order[k] = (int8_t)v;
        }
        for (int k = 0; k < st->r_nwinners; k++) {
            GET_IN(winners, k, v, 0, sp->players - 1);
            st->r_winners[k] = (int8_t)v;
        }
        if (read_int_tuple(PyTuple_GET_ITEM(result, 2), st->r_hand, sp->players, "hand points") ||
            read_int_tuple(PyTuple_GET_ITEM(result, 3), st->r_points, sp->players, "points"))
            return -1;
    }
    return 0;
}

static Spec *get_spec(PyObject *capsule) {
    return (Spec *)PyCapsule_GetPointer(capsule, KNAME(".Spec"));
}
