/*
 * bendolib._kernel, the step API's set-up: the attrs layouts of the engine's classes,
 * step_setup (the classes, tables and helpers it hands over), the small readers, and
 * each rule set's facts (RulesInfo).
 */

/* -- the step API's hot paths (bendolib.engine) -----------------------------------
 *
 * Compiled versions of the commonest cases of bendolib.engine's legal_moves and
 * apply (and of the placement on the built-in straight and bend geometries), working
 * on the engine's own Python values: they read and build the same GameState, Board,
 * End, Place and Placement instances, share the engine's memo tables (found in them,
 * or built there by the Python functions), and give exactly the values the Python
 * code gives.  Each returns None for anything else (the Python engine, which is the
 * specification, then does the work).  step_setup hands over the classes, tables and
 * Python helpers; the attrs slots are read and written at their offsets.
 */

#include <structmember.h>

enum { S_HANDS, S_BOARD, S_PLAYER, S_STOCK, S_DRAWN, S_DCOUNT, S_LAST, S_LOG, S_CONTEXT };
enum { C_RULES, C_PLAYERS, C_SEED, C_ROUND, C_DECK, C_SCORES, C_OPENING, C_DIRECTION, C_OUT,
       C_PLAYPOINTS, C_RESULTS, C_PHASE, C_WINNER, C_PAST, C_ORIGIN };
enum { B_PLACEMENTS, B_ENDS, B_OCC };
enum { E_VALUE, E_FREE, E_CELL, E_SIDE, E_LEFT, E_RIGHT };
enum { P_TILE, P_END, P_INWARD, P_SHOWS, P_TURN, P_POSITION };

#define MAXFIELDS 16
typedef struct {
    PyTypeObject *type;
    int n;
    Py_ssize_t off[MAXFIELDS];
} Layout;

static Layout L_state, L_context, L_board, L_end, L_place, L_placement, L_outcome, L_result;
#define FIELD(o, L, i) (*(PyObject **)((char *)(o) + (L).off[i]))

/* the Python helpers and tables, from step_setup */
static int step_ready = 0;
static PyObject *s_draw, *s_pass, *s_draw_type, *s_bend_type, *s_straight_type;
static PyObject *s_bend_at, *s_straight_at, *s_remember, *s_fits, *s_finish_round;
static PyObject *s_steps, *s_step, *s_slots, *s_slot, *s_ends_memo, *s_memo_end;
static PyObject *s_bend_placements, *s_straight_placements, *s_open_ends, *s_new_placement;
static PyObject *s_zero, *s_one_tuple_draw, *s_one_tuple_pass;
static long s_list_bend, s_list_straight, s_left, s_right, s_straight_turn, s_opening_end;
static PyObject *s_opening, *s_match_type, *s_bend_joints, *s_bend_closing, *s_memo_module, *s_closings_of;
static Layout L_position;

/* what the hot paths need of one rule set (the latest seen) */
typedef struct {
    PyObject *rules; /* strong reference; NULL when none */
    int ok;          /* a rule set these paths play */
    int listing, even_closing, geometry; /* geometry: 1 straight line, 2 bend lattice */
    int draws, voluntary, must_play, until_fits, one_each, pass_after_voluntary, first_out;
    int place_ok;    /* no effects, no play scoring */
    PyObject *tileset, *fit_masks, *face_mask, *memo, *by_id, *count_obj, *tiles, *turn_table;
    PyObject *scoring, *match, *sides[MAXP + 1]; /* sides: by player count, filled on use */
    int match_plain;  /* a Match whose highest total wins: its winner is worked out here */
    long target;
    long points[MAXT];
    long count;
} RulesInfo;

/* The latest rule set's facts, in a capsule that owns them: each call of step_legal or
 * step_apply holds a reference to the capsule it uses, so that another thread switching
 * to another rule set meanwhile (a Python callback can let it run) frees nothing in use. */
static PyObject *ri_current = NULL;

static int layout(Layout *L, PyObject *spec) {
    /* spec: (class, (field names in order)) */
    PyObject *type, *names;
    if (!PyArg_ParseTuple(spec, "OO!", &type, &PyTuple_Type, &names))
        return -1;
    if (!PyType_Check(type) || PyTuple_GET_SIZE(names) > MAXFIELDS) {
        PyErr_SetString(PyExc_TypeError, "step_setup: a class and at most 16 field names");
        return -1;
    }
    L->n = (int)PyTuple_GET_SIZE(names);
    for (int i = 0; i < L->n; i++) {
        PyObject *d = PyObject_GetAttr(type, PyTuple_GET_ITEM(names, i));
        if (!d)
            return -1;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "step_setup: %R is not a slot", PyTuple_GET_ITEM(names, i));
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX) {
            Py_DECREF(d);
            PyErr_SetString(PyExc_TypeError, "step_setup: not an object slot");
            return -1;
        }
        L->off[i] = m->offset;
        Py_DECREF(d);
    }
    Py_INCREF(type);
    L->type = (PyTypeObject *)type;
    return 0;
}

/* a new instance with every field set (new references taken) */
static PyObject *make(Layout *L, PyObject *const *values) {
    PyObject *o = L->type->tp_alloc(L->type, 0);
    if (!o)
        return NULL;
    for (int i = 0; i < L->n; i++) {
        Py_INCREF(values[i]);
        FIELD(o, *L, i) = values[i];
    }
    return o;
}

static PyObject *cfg(PyObject *config, const char *name) {
    PyObject *v = PyDict_GetItemString(config, name);
    if (!v)
        PyErr_Format(PyExc_KeyError, "step_setup: no %s", name);
    else
        Py_INCREF(v);
    return v;
}

static int cfg_long(PyObject *config, const char *name, long *out) {
    PyObject *v = cfg(config, name);
    if (!v)
        return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int tri_step_setup(PyObject *config); /* tri_step.c */
static PyObject *tri_step_legal(PyObject *state, int *mine);
static PyObject *tri_step_apply(PyObject *const *args, int *mine);

static PyObject *k_step_setup(PyObject *self, PyObject *config) {
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "step_setup takes a dict");
        return NULL;
    }
    const char *layouts[] = {"GameState", "RoundContext", "Board", "End", "Place", "Placement",
                             "RoundOutcome", "RoundResult"};
    Layout *targets[] = {&L_state, &L_context, &L_board, &L_end, &L_place, &L_placement, &L_outcome, &L_result};
    for (int i = 0; i < 8; i++) {
        PyObject *spec = PyDict_GetItemString(config, layouts[i]);
        if (!spec) {
            PyErr_Format(PyExc_KeyError, "step_setup: no %s", layouts[i]);
            return NULL;
        }
        if (layout(targets[i], spec))
            return NULL;
    }
    if (L_state.n != 9 || L_context.n != 15 || L_board.n != 3 || L_end.n != 6 || L_place.n != 6 ||
        L_placement.n != 6 || L_outcome.n != 6 || L_result.n != 6) {
        PyErr_SetString(PyExc_TypeError, "step_setup: unexpected field counts");
        return NULL;
    }
#define SGET(var, name) if (!(var = cfg(config, name))) return NULL;
    SGET(s_draw, "DRAW") SGET(s_pass, "PASS") SGET(s_draw_type, "Draw")
    SGET(s_bend_type, "BendGeometry") SGET(s_straight_type, "StraightGeometry")
    SGET(s_bend_at, "bend_at") SGET(s_straight_at, "straight_at") SGET(s_remember, "remember")
    SGET(s_fits, "fits") SGET(s_finish_round, "finish_round")
    SGET(s_steps, "bend_steps") SGET(s_step, "bend_step") SGET(s_slots, "bend_slots")
    SGET(s_slot, "bend_slot") SGET(s_ends_memo, "bend_ends") SGET(s_memo_end, "bend_memo_end")
    SGET(s_bend_placements, "bend_placements") SGET(s_straight_placements, "straight_placements")
    SGET(s_open_ends, "straight_open_ends") SGET(s_new_placement, "new_placement")
    SGET(s_opening, "opening") SGET(s_match_type, "Match") SGET(s_bend_joints, "bend_joints")
    SGET(s_bend_closing, "bend_closing") SGET(s_memo_module, "memo") SGET(s_closings_of, "closings_of")
    {
        PyObject *spec = PyDict_GetItemString(config, "Position");
        if (!spec) {
            PyErr_SetString(PyExc_KeyError, "step_setup: no Position");
            return NULL;
        }
        if (layout(&L_position, spec))
            return NULL;
    }
#undef SGET
    if (cfg_long(config, "LIST_BEND", &s_list_bend) || cfg_long(config, "LIST_STRAIGHT", &s_list_straight) ||
        cfg_long(config, "LEFT", &s_left) || cfg_long(config, "RIGHT", &s_right) ||
        cfg_long(config, "STRAIGHT", &s_straight_turn) || cfg_long(config, "OPENING", &s_opening_end))
        return NULL;
    s_zero = PyLong_FromLong(0);
    s_one_tuple_draw = PyTuple_Pack(1, s_draw);
    s_one_tuple_pass = PyTuple_Pack(1, s_pass);
    if (!s_zero || !s_one_tuple_draw || !s_one_tuple_pass || tri_step_setup(config))
        return NULL;
    step_ready = 1;
    Py_RETURN_NONE;
}

/* a non-negative int of at most 64 bits; -1 (no error left) for anything else */
static inline int as_mask(PyObject *v, uint64_t *out) {
    if (!PyLong_CheckExact(v))
        return -1;
    uint64_t x = PyLong_AsUnsignedLongLong(v);
    if (x == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    *out = x;
    return 0;
}

#if defined(BENDOLIB_HUGE)
/* The ints of the latest masks read (strong references) and their masks: a decision
 * reads the same hands in legal_moves and apply, and a new state keeps every hand but
 * the mover's, so most reads are found here; a mask written equal to one is that int
 * (an int is immutable: the same value).  Converting 1,024 bits each way was most of the
 * vast build's step time. */
#define SEEN 16
static PyObject *seen_obj[SEEN];
static mask_t seen_mask[SEEN];
static int seen_next;

static inline int seen_read(PyObject *v, mask_t *out) {
    for (int i = 0; i < SEEN; i++)
        if (seen_obj[i] == v) {
            *out = seen_mask[i];
            return 1;
        }
    return 0;
}

static inline void seen_keep(PyObject *v, mask_t x) {
    Py_INCREF(v);
    Py_XSETREF(seen_obj[seen_next], v);
    seen_mask[seen_next] = x;
    seen_next = (seen_next + 1) % SEEN;
}

static inline PyObject *seen_int(const mask_t &x) {
    for (int i = 0; i < SEEN; i++)
        if (seen_obj[i] && seen_mask[i].w[0] == x.w[0] && seen_mask[i] == x) {
            Py_INCREF(seen_obj[i]);
            return seen_obj[i];
        }
    return NULL;
}
#endif

#if MAXT > 64
/* a non-negative int of at most MAXT bits (a mask of tiles); -1 (no error left) for
 * anything else */
static inline int as_tiles(PyObject *v, mask_t *out) {
    if (!PyLong_CheckExact(v))
        return -1;
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (!overflow && small >= 0) {
        *out = (mask_t)(uint64_t)small;
        return 0;
    }
    if (overflow <= 0) { /* negative, or an error */
        PyErr_Clear();
        return -1;
    }
    unsigned char bytes[MAXT / 8];
#if defined(BENDOLIB_HUGE) /* mask_words.h's words, from the bytes the int has */
    if (seen_read(v, out))
        return 0;
    size_t bits = _PyLong_NumBits(v), used = (bits + 63) / 64 * 8;
    if (bits > (size_t)MAXT || _PyLong_AsByteArray((PyLongObject *)v, bytes, used, 1, 0)) {
        PyErr_Clear();
        return -1;
    }
    mask_t x = 0;
    for (int i = 0; i < (int)used; i++)
        x.w[i / 8] |= (uint64_t)bytes[i] << (8 * (i % 8));
    seen_keep(v, x);
#else
    if (_PyLong_NumBits(v) > (size_t)MAXT ||
        _PyLong_AsByteArray((PyLongObject *)v, bytes, sizeof bytes, 1, 0)) {
        PyErr_Clear();
        return -1;
    }
    mask_t x = 0;
    for (int i = (int)sizeof bytes - 1; i >= 0; i--)
        x = (x << 8) | bytes[i];
#endif
    *out = x;
    return 0;
}

/* a mask of tiles as an int */
static inline PyObject *tiles_obj(mask_t x) {
    unsigned char bytes[MAXT / 8];
#if defined(BENDOLIB_HUGE) /* the bytes of the words up to the highest in use */
    int top = MASK_WORDS - 1;
    while (top > 0 && !x.w[top])
        top--;
    if (!top)
        return PyLong_FromUnsignedLongLong(x.w[0]);
    PyObject *known = seen_int(x);
    if (known)
        return known;
    for (int i = 0; i < 8 * (top + 1); i++)
        bytes[i] = (unsigned char)(x.w[i / 8] >> (8 * (i % 8)));
    return _PyLong_FromByteArray(bytes, 8 * (top + 1), 1, 0);
#else
    if (!(uint64_t)(x >> 64))
        return PyLong_FromUnsignedLongLong((uint64_t)x);
    for (int i = 0; i < (int)sizeof bytes; i++)
        bytes[i] = (unsigned char)(x >> (8 * i));
    return _PyLong_FromByteArray(bytes, sizeof bytes, 1, 0);
#endif
}
#else
#define as_tiles as_mask
#define tiles_obj PyLong_FromUnsignedLongLong
#endif

/* an int that fits a long; -1 (no error left) for anything else */
static inline int as_long(PyObject *v, long *out) {
    if (!PyLong_CheckExact(v))
        return -1;
    int overflow;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    *out = x;
    return 0;
}

static int attr_truth(PyObject *o, const char *name) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

static int attr_is(PyObject *o, const char *name, const char *text) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int same = PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, text) == 0;
    Py_DECREF(v);
    return same;
}

static int attr_is_none(PyObject *o, const char *name) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int none = v == Py_None;
    Py_DECREF(v);
    return none;
}

static void ri_clear(RulesInfo *ri) {
    Py_CLEAR(ri->rules);
    Py_CLEAR(ri->tileset);
    Py_CLEAR(ri->fit_masks);
    Py_CLEAR(ri->face_mask);
    Py_CLEAR(ri->memo);
    Py_CLEAR(ri->by_id);
    Py_CLEAR(ri->count_obj);
    Py_CLEAR(ri->tiles);
    Py_CLEAR(ri->turn_table);
    Py_CLEAR(ri->scoring);
    Py_CLEAR(ri->match);
    for (int i = 0; i <= MAXP; i++)
        Py_CLEAR(ri->sides[i]);
    ri->match_plain = 0;
    ri->ok = 0;
}

static void ri_free(PyObject *capsule) {
    RulesInfo *ri = (RulesInfo *)PyCapsule_GetPointer(capsule, "bendolib._kernel.RulesInfo");
    if (ri) {
        ri_clear(ri);
        PyMem_Free(ri);
    }
}

static RulesInfo *rules_facts(RulesInfo *ri, PyObject *rules);

/* the facts of ``rules`` and a new reference to the capsule that owns them (*owner);
 * NULL on an error */
static RulesInfo *rules_info(PyObject *rules, PyObject **owner) {
    if (ri_current) {
        RulesInfo *ri = (RulesInfo *)PyCapsule_GetPointer(ri_current, "bendolib._kernel.RulesInfo");
        if (ri && ri->rules == rules) {
            Py_INCREF(ri_current);
            *owner = ri_current;
            return ri;
        }
    }
    RulesInfo *ri = (RulesInfo *)PyMem_Calloc(1, sizeof(RulesInfo));
    if (!ri) {
        PyErr_NoMemory();
        return NULL;
    }
    if (!rules_facts(ri, rules)) {
        ri_clear(ri);
        PyMem_Free(ri);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(ri, "bendolib._kernel.RulesInfo", ri_free);
    if (!capsule) {
        ri_clear(ri);
        PyMem_Free(ri);
        return NULL;
    }
    Py_INCREF(capsule);
    Py_XSETREF(ri_current, capsule);
    *owner = capsule;
    return ri;
}

/* fill ``ri`` (zeroed) with the facts of ``rules``; NULL on an error */
static RulesInfo *rules_facts(RulesInfo *ri, PyObject *rules) {
    Py_INCREF(rules);
    ri->rules = rules;
    PyObject *geometry = NULL, *draw = NULL, *tiles = NULL;
    long listing, batch;
    int t, simple_draw, plain, points_ok; /* (set below: no goto past an initialisation) */
    PyObject *v = PyObject_GetAttrString(rules, "listing");
    if (!v)
        goto fail;
    if (as_long(v, &listing)) {
        Py_DECREF(v);
        return ri; /* not ok */
    }
    Py_DECREF(v);
    ri->listing = (int)listing;
    if (listing != s_list_bend && listing != s_list_straight)
        return ri;
    if ((ri->even_closing = attr_truth(rules, "even_closing")) < 0)
        goto fail;
    if (!(geometry = PyObject_GetAttrString(rules, "geometry")))
        goto fail;
    ri->geometry = (PyObject *)Py_TYPE(geometry) == s_straight_type ? 1
                   : (PyObject *)Py_TYPE(geometry) == s_bend_type   ? 2
                                                                    : 0;
    Py_CLEAR(geometry);
    if (!(draw = PyObject_GetAttrString(rules, "draw")))
        goto fail;
    if ((t = attr_truth(draw, "draws")) < 0) goto fail;
    ri->draws = t;
    if ((t = attr_truth(draw, "voluntary")) < 0) goto fail;
    ri->voluntary = t;
    if ((t = attr_truth(draw, "must_play")) < 0) goto fail;
    ri->must_play = t;
    if ((t = attr_is(draw, "when_stuck", "until_fits")) < 0) goto fail;
    ri->until_fits = t;
    if ((t = attr_is(draw, "when_blocked", "one_each")) < 0) goto fail;
    ri->one_each = t;
    if ((t = attr_is(draw, "after_voluntary", "pass")) < 0) goto fail;
    ri->pass_after_voluntary = t;
    simple_draw = 1;
    if ((t = attr_is_none(draw, "max_per_turn")) < 0) goto fail;
    simple_draw &= t;
    v = PyObject_GetAttrString(draw, "batch");
    if (!v)
        goto fail;
    simple_draw &= !as_long(v, &batch) && batch == 1;
    Py_DECREF(v);
    Py_CLEAR(draw);
    plain = simple_draw;
    if ((t = attr_is_none(rules, "effects")) < 0) goto fail;
    plain &= t;
    if ((t = attr_is_none(rules, "play_scoring")) < 0) goto fail;
    plain &= t;
    if ((t = attr_is_none(rules, "penalties")) < 0) goto fail;
    plain &= t;
    ri->place_ok = plain;
    if ((t = attr_is(rules, "finish", "first_out")) < 0) goto fail;
    ri->first_out = t;
    if (!(ri->tileset = PyObject_GetAttrString(rules, "tileset")))
        goto fail;
    if (!(ri->fit_masks = PyObject_GetAttrString(ri->tileset, "_fit_masks")) ||
        !(ri->face_mask = PyObject_GetAttrString(ri->tileset, "_face_mask")) ||
        !(ri->memo = PyObject_GetAttrString(ri->tileset, "_memo")) ||
        !(ri->by_id = PyObject_GetAttrString(ri->tileset, "_by_id")) ||
        !(tiles = PyObject_GetAttrString(ri->tileset, "tiles")))
        goto fail;
    if (!PyDict_CheckExact(ri->fit_masks) || !PyDict_CheckExact(ri->face_mask) ||
        !PyDict_CheckExact(ri->memo) || !PyDict_CheckExact(ri->by_id) || !PyTuple_Check(tiles)) {
        Py_DECREF(tiles);
        return ri;
    }
    ri->count = (long)PyTuple_GET_SIZE(tiles);
    ri->tiles = tiles;
    tiles = NULL;
    if (!(ri->turn_table = PyObject_GetAttrString(ri->tileset, "turn_table")))
        goto fail;
    if (!PyTuple_CheckExact(ri->turn_table) || PyTuple_GET_SIZE(ri->turn_table) != 2 * ri->count)
        return ri;
    if (!(ri->scoring = PyObject_GetAttrString(rules, "round_scoring")) ||
        !(ri->match = PyObject_GetAttrString(rules, "match")))
        goto fail;
    if ((PyObject *)Py_TYPE(ri->match) == s_match_type) {
        v = PyObject_GetAttrString(ri->match, "target");
        if (!v)
            goto fail;
        ri->match_plain = !as_long(v, &ri->target);
        Py_DECREF(v);
        /* the highest total wins a shared target; several="round_winner" (its winner
         * told by the round's winners) is left to the Python engine */
        if (!(v = PyObject_GetAttrString(ri->match, "several")))
            goto fail;
        if (!PyUnicode_CheckExact(v) || PyUnicode_CompareWithASCIIString(v, "highest") != 0)
            ri->match_plain = 0;
        Py_DECREF(v);
    }
    v = PyObject_GetAttrString(ri->tileset, "_points");
    if (!v)
        goto fail;
    points_ok = PyTuple_Check(v) && PyTuple_GET_SIZE(v) == ri->count && ri->count <= MAXT;
    for (long i = 0; points_ok && i < ri->count; i++)
        points_ok = !as_long(PyTuple_GET_ITEM(v, i), &ri->points[i]);
    Py_DECREF(v);
    if (!points_ok)
        return ri;
    if (!(ri->count_obj = PyLong_FromLong(ri->count)))
        goto fail;
#ifdef STEP_ABOVE /* the C++ builds: only the sets the smaller builds leave */
    ri->ok = ri->count > STEP_ABOVE && ri->count <= MAXT;
#else
    ri->ok = ri->count <= MAXT;
#endif
    return ri;
fail:
    Py_XDECREF(geometry);
    Py_XDECREF(draw);
    Py_XDECREF(tiles);
    ri_clear(ri);
    return NULL;
}

/* ``mask & table.get(key, 0)`` read from a dict of ints (or of 4-tuples, item ``free``) */
static int masked_get(PyObject *table, PyObject *key, int item, mask_t *out) {
    PyObject *v = PyDict_GetItemWithError(table, key);
    if (!v) {
        if (PyErr_Occurred())
            return -1;
        *out = 0;
        return 0;
    }
    if (item >= 0) {
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) <= item)
            return 1;
        v = PyTuple_GET_ITEM(v, item);
    }
    return as_tiles(v, out) ? 1 : 0;
}
