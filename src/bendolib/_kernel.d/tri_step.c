/*
 * bendolib._kernel, the triangle games' step API: #included by _kernel.c after the chain
 * games' step parts (step_setup.c ... step_apply.c: Layout, make, new_state,
 * tuple_plus...), before module.c's k_step_apply.
 */

/* -- the step API's hot paths for the triangle games (bendolib.engine) ---------------
 *
 * As the chain games' step_legal and step_apply (step_legal.c, step_apply.c, which
 * _kernel.c #includes before this file): the commonest cases of legal_moves and apply on a triangle board
 * with tiles, on the engine's own Python values, exactly what the Python code gives
 * (bendolib.geometry.triangles.TriangleGeometry.placements and .play,
 * bendolib.rules.triangles.TriangleScoring.score_move, engine._place), or None for the
 * rest (a draw or a pass, an empty board, the target checked at once...).  They share
 * the geometry's memo tables (the fits of each corner pattern, the moves built).
 */

/* Python triangle-key arithmetic (bendolib.geometry.trilattice: STRIDE 8192) */
#define PSTRIDE 8192L
#define POFFSET 4096L
/* the memo key of a move in the geometry's table, (site * PKEY_TILES + tile) * 4 +
 * rotation: bendolib.limits.MAX_TILES, as bendolib.geometry.triangles builds it */
#define PKEY_TILES 1024L

static Layout L_tboard, L_tplacement, L_edge, L_pic, L_cell;
enum { TB_NUMBERS = 3, TB_FILLED, TB_SITES, TB_PATTERNS };
static PyObject *t_tables_fn, *t_geometry_type, *t_scoring_type, *t_py_finish_round;
static PyObject *t_penalties_type;
static PyObject *t_minus_one, *t_both, *t_straight_obj;
static int t_step_ready = 0;

/* what the triangle step paths need of one rule set (the latest seen) */
typedef struct {
    PyObject *rules, *fits, *moves, *by_id, *tiles;
    int ok, draws, voluntary, must_play, play, first_out;
    int draw_ok; /* draws and passes: no penalties, or DrawPenalties */
    int batch, max_per_turn, draw_and_pass, until_fits, one_each, penalties;
    long per_draw, pass_after_draws, pass_when_empty;
    long opening_bonus, bridge_bonus, hexagon_bonus[3];
    long points[MAXT];
    int8_t face[MAXT][3];
    int n, bonuses; /* bonuses: some hexagon or bridge bonus is not 0 */
    TSpec fit;      /* the fit tables of the playout kernel (fitmask, fitstart...) */
} TriInfo;

static PyObject *ti_current = NULL;

static void ti_free(PyObject *capsule) {
    TriInfo *ti = PyCapsule_GetPointer(capsule, "bendolib._kernel.TriInfo");
    if (!ti)
        return;
    Py_XDECREF(ti->rules);
    Py_XDECREF(ti->fits);
    Py_XDECREF(ti->moves);
    Py_XDECREF(ti->by_id);
    Py_XDECREF(ti->tiles);
    PyMem_Free(ti);
}

static long attr_long(PyObject *o, const char *name, int *bad) {
    PyObject *v = PyObject_GetAttrString(o, name);
    long x = -1;
    if (!v || !PyLong_CheckExact(v))
        *bad = 1;
    else
        x = PyLong_AsLong(v);
    Py_XDECREF(v);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        *bad = 1;
    }
    return x;
}

/* 1 when every attrs field of part's class is one of names (NULL-ended): a part that
 * gained a parameter is left to the Python engine, as _kernel_tri_input's KNOWN_FIELDS */
static int t_fields_known(PyObject *part, const char *const *names) {
    PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(part), "__attrs_attrs__");
    if (!fields || !PyTuple_Check(fields)) {
        Py_XDECREF(fields);
        PyErr_Clear();
        return 0;
    }
    int known = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields) && known; i++) {
        PyObject *name = PyObject_GetAttrString(PyTuple_GET_ITEM(fields, i), "name");
        known = 0;
        for (int k = 0; name && PyUnicode_Check(name) && names[k] && !known; k++)
            known = PyUnicode_CompareWithASCIIString(name, names[k]) == 0;
        Py_XDECREF(name);
    }
    Py_DECREF(fields);
    PyErr_Clear();
    return known;
}

static const char *const T_RULESET_FIELDS[] = {
    "name", "tileset", "geometry", "deal", "start", "draw", "round_scoring", "match",
    "play_scoring", "finish", "wild_faces", "effects", "description", "wild_mask", "listing",
    "closing", "even_closing", "penalties",
    "origin", /* the rule set a variant was built from: a name, not a rule */
    NULL};
static const char *const T_GEOMETRY_FIELDS[] = {"name", "uses_bends", NULL};
static const char *const T_DRAW_FIELDS[] = {"when_stuck", "voluntary", "must_play", "batch",
                                            "max_per_turn", "draws", "after_voluntary",
                                            "when_blocked", NULL};
static const char *const T_MATCH_FIELDS[] = {"target", "teams", "_seats", "target_check",
                                             "several", NULL};
static const char *const T_SCORING_FIELDS[] = {"opening_bonus", "zero_triple_bonus",
                                               "bridge_bonus", "hexagon_bonus", NULL};
static const char *const T_PENALTY_FIELDS[] = {"per_draw", "pass_after_draws", "pass_when_empty",
                                               NULL};

/* 1 when attribute name of o is one of the texts (NULL-ended) */
static int t_one_of(PyObject *o, const char *name, const char *const *texts) {
    for (int k = 0; texts[k]; k++)
        if (attr_is(o, name, texts[k]) == 1)
            return 1;
    return 0;
}

/* the facts of rules (a new capsule), ti->ok 0 for a rule set these paths leave alone */
static PyObject *ti_build(PyObject *rules) {
    TriInfo *ti = PyMem_Calloc(1, sizeof(TriInfo));
    if (!ti)
        return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(ti, "bendolib._kernel.TriInfo", ti_free);
    if (!capsule) {
        PyMem_Free(ti);
        return NULL;
    }
    Py_INCREF(rules);
    ti->rules = rules;
    int bad = 0;
    PyObject *geometry = PyObject_GetAttrString(rules, "geometry");
    PyObject *effects = PyObject_GetAttrString(rules, "effects");
    PyObject *play = PyObject_GetAttrString(rules, "play_scoring");
    PyObject *match = PyObject_GetAttrString(rules, "match");
    PyObject *draw = PyObject_GetAttrString(rules, "draw");
    PyObject *tileset = PyObject_GetAttrString(rules, "tileset");
    PyObject *tables = NULL, *tiles = NULL;
    if (!geometry || !effects || !play || !match || !draw || !tileset) {
        PyErr_Clear();
        goto done;
    }
    if ((PyObject *)Py_TYPE(geometry) != t_geometry_type || effects != Py_None ||
        (play != Py_None && (PyObject *)Py_TYPE(play) != t_scoring_type) ||
        attr_is(match, "target_check", "round_end") != 1)
        goto done;
    {
        static const char *const finishes[] = {"first_out", "last_one_left", NULL};
        static const char *const stuck[] = {"never", "once", "until_fits", NULL};
        static const char *const after[] = {"pass", "play", NULL};
        static const char *const blocked[] = {"one_each", "as_stuck", NULL};
        if (!t_fields_known(rules, T_RULESET_FIELDS) ||
            !t_fields_known(geometry, T_GEOMETRY_FIELDS) || !t_fields_known(draw, T_DRAW_FIELDS) ||
            !t_fields_known(match, T_MATCH_FIELDS) ||
            (play != Py_None && !t_fields_known(play, T_SCORING_FIELDS)) ||
            !t_one_of(rules, "finish", finishes) || !t_one_of(draw, "when_stuck", stuck) ||
            !t_one_of(draw, "after_voluntary", after) || !t_one_of(draw, "when_blocked", blocked))
            goto done;
    }
    ti->first_out = attr_is(rules, "finish", "first_out");
    ti->draws = attr_truth(draw, "draws");
    ti->voluntary = attr_truth(draw, "voluntary");
    ti->must_play = attr_truth(draw, "must_play");
    if (ti->first_out < 0 || ti->draws < 0 || ti->voluntary < 0 || ti->must_play < 0)
        goto done;
    ti->play = play != Py_None;
    if (ti->play) {
        ti->opening_bonus = attr_long(play, "opening_bonus", &bad);
        ti->bridge_bonus = attr_long(play, "bridge_bonus", &bad);
        PyObject *hex = PyObject_GetAttrString(play, "hexagon_bonus");
        if (!hex || !PyTuple_CheckExact(hex) || PyTuple_GET_SIZE(hex) != 3)
            bad = 1;
        else
            for (int k = 0; k < 3; k++) {
                ti->hexagon_bonus[k] = PyLong_AsLong(PyTuple_GET_ITEM(hex, k));
                if (PyErr_Occurred()) {
                    PyErr_Clear();
                    bad = 1;
                }
            }
        Py_XDECREF(hex);
    }
    tables = PyObject_CallOneArg(t_tables_fn, tileset);
    tiles = PyObject_GetAttrString(tileset, "tiles");
    ti->by_id = PyObject_GetAttrString(tileset, "_by_id");
    if (!tables || !tiles || !ti->by_id || !PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 3 ||
        !PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) > MAXT || !PyDict_CheckExact(ti->by_id)) {
        /* (at most MAXT tiles: a larger set is another build's, or the engine's) */
        PyErr_Clear();
        goto done;
    }
    ti->fits = PyTuple_GET_ITEM(tables, 1);
    ti->moves = PyTuple_GET_ITEM(tables, 2);
    Py_INCREF(ti->fits);
    Py_INCREF(ti->moves);
    if (!PyDict_CheckExact(ti->fits) || !PyDict_CheckExact(ti->moves))
        goto done;
    ti->n = (int)PyTuple_GET_SIZE(tiles);
    ti->tiles = tiles;
    Py_INCREF(tiles);
    {
        PyObject *penalties = PyObject_GetAttrString(rules, "penalties");
        PyObject *most = PyObject_GetAttrString(draw, "max_per_turn");
        int draw_bad = !penalties || !most;
        if (!draw_bad) {
            ti->batch = (int)attr_long(draw, "batch", &draw_bad);
            ti->max_per_turn = most == Py_None ? 0 : (int)attr_long(draw, "max_per_turn", &draw_bad);
            ti->draw_and_pass = attr_is(draw, "after_voluntary", "pass");
            ti->until_fits = attr_is(draw, "when_stuck", "until_fits");
            ti->one_each = attr_is(draw, "when_blocked", "one_each");
            draw_bad |= ti->draw_and_pass < 0 || ti->until_fits < 0 || ti->one_each < 0 ||
                        ti->batch < 1 || ti->max_per_turn < 0;
            ti->penalties = penalties != Py_None;
            if (ti->penalties) {
                draw_bad |= (PyObject *)Py_TYPE(penalties) != t_penalties_type ||
                            !t_fields_known(penalties, T_PENALTY_FIELDS);
                ti->per_draw = attr_long(penalties, "per_draw", &draw_bad);
                ti->pass_after_draws = attr_long(penalties, "pass_after_draws", &draw_bad);
                ti->pass_when_empty = attr_long(penalties, "pass_when_empty", &draw_bad);
            }
        }
        Py_XDECREF(penalties);
        Py_XDECREF(most);
        PyErr_Clear();
        ti->draw_ok = !draw_bad;
    }
    for (int i = 0; i < ti->n; i++) {
        PyObject *tile = PyTuple_GET_ITEM(tiles, i);
        ti->points[i] = attr_long(tile, "points", &bad);
        const char *names[3] = {"a", "b", "c"};
        for (int k = 0; k < 3; k++) {
            long f = attr_long(tile, names[k], &bad);
            bad |= f < 0 || f > 14; /* a pattern packs (number + 1) in 4 bits */
            ti->face[i][k] = ti->fit.face[i][k] = (int8_t)(f < 0 || f > 14 ? 0 : f);
        }
    }
    ti->fit.n = ti->n;
    t_build_fits(&ti->fit);
    ti->bonuses = ti->bridge_bonus || ti->hexagon_bonus[0] || ti->hexagon_bonus[1] ||
                  ti->hexagon_bonus[2];
    ti->ok = !bad;
done:
    PyErr_Clear();
    Py_XDECREF(geometry);
    Py_XDECREF(effects);
    Py_XDECREF(play);
    Py_XDECREF(match);
    Py_XDECREF(draw);
    Py_XDECREF(tileset);
    Py_XDECREF(tables);
    Py_XDECREF(tiles);
    return capsule;
}

/* the facts of rules, and a reference to the capsule owning them (NULL on error) */
static TriInfo *ti_of(PyObject *rules, PyObject **owner) {
    TriInfo *ti = ti_current ? PyCapsule_GetPointer(ti_current, "bendolib._kernel.TriInfo") : NULL;
    if (!ti || ti->rules != rules) {
        PyObject *capsule = ti_build(rules);
        if (!capsule)
            return NULL;
        Py_XSETREF(ti_current, capsule);
        ti = PyCapsule_GetPointer(capsule, "bendolib._kernel.TriInfo");
    }
    Py_INCREF(ti_current);
    *owner = ti_current;
    return ti;
}

typedef struct {
    PyObject *context, *board, *deck, *sites, *patterns, *placements, *owner;
    TriInfo *ti;
    long player, stock_pos, direction;
    mask_t hands[MAXP], drawn;
    int nhands;
} TView;

/* 0: viewed; 1: not for these paths; -1: an error */
static int t_view(PyObject *state, TView *v) {
    v->owner = NULL;
    if (!t_step_ready || Py_TYPE(state) != L_state.type)
        return 1;
    v->board = FIELD(state, L_state, S_BOARD);
    if (Py_TYPE(v->board) != L_tboard.type)
        return 1;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!context || Py_TYPE(context) != L_context.type)
        return 1;
    long phase, opening;
    if (as_long(FIELD(context, L_context, C_PHASE), &phase) || phase != 0 ||
        as_long(FIELD(context, L_context, C_OPENING), &opening) || opening >= 0)
        return 1;
    v->context = context;
    v->placements = FIELD(v->board, L_tboard, B_PLACEMENTS);
    v->sites = FIELD(v->board, L_tboard, TB_SITES);
    v->patterns = FIELD(v->board, L_tboard, TB_PATTERNS);
    if (!PyTuple_CheckExact(v->placements) || !PyTuple_GET_SIZE(v->placements) ||
        !PyTuple_CheckExact(v->sites) || !PyTuple_CheckExact(v->patterns) ||
        PyTuple_GET_SIZE(v->sites) != PyTuple_GET_SIZE(v->patterns))
        return 1;
    PyObject *hands = FIELD(state, L_state, S_HANDS);
    if (!PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) > MAXP || !PyTuple_GET_SIZE(hands))
        return 1;
    v->nhands = (int)PyTuple_GET_SIZE(hands);
    for (int i = 0; i < v->nhands; i++)
        if (as_tiles(PyTuple_GET_ITEM(hands, i), &v->hands[i]))
            return 1;
    if (as_long(FIELD(state, L_state, S_PLAYER), &v->player) || v->player < 0 ||
        v->player >= v->nhands || as_long(FIELD(state, L_state, S_STOCK), &v->stock_pos) ||
        as_tiles(FIELD(state, L_state, S_DRAWN), &v->drawn) ||
        as_long(FIELD(context, L_context, C_DIRECTION), &v->direction))
        return 1;
    v->deck = FIELD(context, L_context, C_DECK);
    if (!PyTuple_CheckExact(v->deck))
        return 1;
    v->ti = ti_of(FIELD(context, L_context, C_RULES), &v->owner);
    if (!v->ti)
        return -1;
    if (!v->ti->ok)
        return 1;
    /* A state the rules cannot reach (built around GameState's checks) goes to the
       Python engine, which answers or raises (issue 22): the stock position within the
       deck, the direction one way or the other, the hands and the drawn tiles within the
       tile set and the hands disjoint. */
    mask_t full = v->ti->n >= MAXT ? ~(mask_t)0 : ((mask_t)1 << v->ti->n) - 1;
    if (v->stock_pos < 0 || v->stock_pos > PyTuple_GET_SIZE(v->deck) ||
        (v->direction != 1 && v->direction != -1) || (v->drawn & ~full))
        return 1;
    mask_t seen = 0;
    for (int i = 0; i < v->nhands; i++) {
        if ((v->hands[i] & ~full) || (v->hands[i] & seen))
            return 1;
        seen |= v->hands[i];
    }
    return 0;
}

static PyObject *t_hands_tuple(TView *v) {
    PyObject *t = PyTuple_New(v->nhands);
    if (!t)
        return NULL;
    for (int i = 0; i < v->nhands; i++) {
        PyObject *h = tiles_obj(v->hands[i]);
        if (!h) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, h);
    }
    return t;
}

/* engine._next_seat */
static long step_next_seat_t(TView *v, long seat) {
    for (long k = 0; k < v->nhands; k++) {
        seat = ((seat + v->direction) % v->nhands + v->nhands) % v->nhands;
        if (v->hands[seat])
            break;
    }
    return seat;
}

/* the fit mask of a corner pattern (a tuple of 3 numbers, -1 for any) and its index in
 * the fit tables; 1 for a pattern beyond them */
static int t_pattern_mask(TriInfo *ti, PyObject *pattern, mask_t *mask, int *code) {
    if (!PyTuple_CheckExact(pattern) || PyTuple_GET_SIZE(pattern) != 3)
        return 1;
    int c = 0;
    for (int k = 0; k < 3; k++) {
        long x;
        if (as_long(PyTuple_GET_ITEM(pattern, k), &x) || x < -1 || x > 14)
            return 1;
        c |= (int)(x + 1) << (4 * k);
    }
    *mask = ti->fit.fitmask[c];
    if (code)
        *code = c;
    return 0;
}

/* TriangleGeometry.fits on the patterns of a board: 1, 0, -1 error, 2 not handled */
static int t_step_fits(TriInfo *ti, PyObject *patterns, mask_t mask) {
    if (!mask)
        return 0;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(patterns); k++) {
        mask_t m;
        if (t_pattern_mask(ti, PyTuple_GET_ITEM(patterns, k), &m, NULL))
            return 2;
        if (m & mask)
            return 1;
    }
    return 0;
}

/* PlaceInCell(tiles[i], Cell.from_key(site), rot), remembered in the geometry's table */
static PyObject *t_new_move(TriInfo *ti, PyObject *key, long site, long i, long rotation) {
    long p = site >> 1;
    PyObject *x = PyLong_FromLong(p / PSTRIDE - POFFSET), *y = PyLong_FromLong(p % PSTRIDE - POFFSET);
    PyObject *cell = NULL, *move = NULL, *kept = NULL, *rot = PyLong_FromLong(rotation);
    if (x && y && rot) {
        PyObject *values[3] = {x, y, site & 1 ? Py_True : Py_False};
        cell = make(&L_cell, values);
    }
    if (cell) {
        PyObject *values[3] = {PyTuple_GET_ITEM(ti->tiles, i), cell, rot};
        move = make(&L_pic, values);
    }
    if (move)
        kept = PyObject_CallFunctionObjArgs(s_remember, ti->moves, key, move, NULL);
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(rot);
    Py_XDECREF(cell);
    Py_XDECREF(move);
    return kept;
}

/* the legal moves (engine.legal_moves on a triangle board with tiles), or NULL */
static PyObject *t_legal_of(TView *v) {
    TriInfo *ti = v->ti;
    mask_t hand = v->hands[v->player];
    if (v->drawn)
        hand &= v->drawn;
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    Py_ssize_t nsites = PyTuple_GET_SIZE(v->sites);
    for (Py_ssize_t s = 0; s < nsites; s++) {
        mask_t mask;
        int code;
        if (t_pattern_mask(ti, PyTuple_GET_ITEM(v->patterns, s), &mask, &code))
            goto fail;
        if (!(mask & hand))
            continue;
        long site = PyLong_AsLong(PyTuple_GET_ITEM(v->sites, s));
        if (site == -1 && PyErr_Occurred())
            goto fail;
        for (int f = ti->fit.fitstart[code]; f < ti->fit.fitstart[code + 1]; f++) {
            long i = ti->fit.fit_tile[f], rot = ti->fit.fit_rot[f];
            if (!((hand >> i) & 1))
                continue;
            PyObject *key = PyLong_FromLong((site * PKEY_TILES + i) * 4 + rot);
            if (!key)
                goto fail;
            PyObject *move = PyDict_GetItemWithError(ti->moves, key), *built = NULL;
            if (!move && !PyErr_Occurred()) /* not built yet: PlaceInCell(tile, cell, rot) */
                move = built = t_new_move(ti, key, site, i, rot);
            Py_DECREF(key);
            int failed = !move || PyList_Append(list, move);
            Py_XDECREF(built);
            if (failed)
                goto fail;
        }
    }
    Py_ssize_t places = PyList_GET_SIZE(list);
    int append = 0; /* 1: DRAW, 2: PASS */
    if (v->drawn) {
        if (!places) {
            Py_DECREF(list);
            Py_INCREF(s_one_tuple_draw);
            return s_one_tuple_draw;
        }
        append = ti->must_play ? 0 : 2;
    } else if (ti->draws && v->stock_pos < PyTuple_GET_SIZE(v->deck) && (ti->voluntary || !places)) {
        append = 1;
    } else if (!places) {
        Py_DECREF(list);
        Py_INCREF(s_one_tuple_pass);
        return s_one_tuple_pass;
    }
    if (append && PyList_Append(list, append == 1 ? s_draw : s_pass))
        goto fail;
    PyObject *moves = PyList_AsTuple(list);
    Py_DECREF(list);
    return moves;
fail:
    Py_DECREF(list);
    return NULL;
}

/* -- the lattice of the Python keys ----------------------------------------------- */

static inline void pk_corners(long cell, long *c) {
    long p = cell >> 1;
    if (cell & 1) {
        c[0] = p + 1;
        c[1] = p + PSTRIDE + 1;
        c[2] = p + PSTRIDE;
    } else {
        c[0] = p;
        c[1] = p + 1;
        c[2] = p + PSTRIDE;
    }
}

static inline void pk_neighbors(long cell, long *nb) {
    long p = cell >> 1;
    if (cell & 1) {
        nb[0] = (p + 1) * 2;
        nb[1] = (p + PSTRIDE) * 2;
        nb[2] = p * 2;
    } else {
        nb[0] = (p - PSTRIDE) * 2 + 1;
        nb[1] = p * 2 + 1;
        nb[2] = (p - 1) * 2 + 1;
    }
}

static inline void pk_around(long point, long *c) {
    c[0] = point * 2;
    c[1] = (point - PSTRIDE) * 2 + 1;
    c[2] = (point - PSTRIDE) * 2;
    c[3] = (point - PSTRIDE - 1) * 2 + 1;
    c[4] = (point - 1) * 2;
    c[5] = (point - 1) * 2 + 1;
}

/* key in the dict d: 1, 0, -1 on an error */
static int has_key(PyObject *d, long key) {
    PyObject *k = PyLong_FromLong(key);
    if (!k)
        return -1;
    int r = PyDict_Contains(d, k);
    Py_DECREF(k);
    return r;
}

/* the int at key in d, or dflt; -2 (an error set) on failure */
static long dict_long(PyObject *d, long key, long dflt) {
    PyObject *k = PyLong_FromLong(key);
    if (!k)
        return -2;
    PyObject *v = PyDict_GetItemWithError(d, k);
    Py_DECREF(k);
    if (!v)
        return PyErr_Occurred() ? -2 : dflt;
    long x = PyLong_AsLong(v);
    return x == -1 && PyErr_Occurred() ? -2 : x;
}

/* TriangleScoring.score_move's bonuses for a tile laid in cell, filled counting cell too */
static long t_bonus(TriInfo *ti, PyObject *filled, long cell, int *err) {
    long c[3], around[6], nb[3];
    pk_corners(cell, c);
    int hexagons = 0;
    for (int k = 0; k < 3; k++) {
        pk_around(c[k], around);
        int all = 1;
        for (int a = 0; a < 6 && all; a++) {
            int r = around[a] == cell ? 1 : has_key(filled, around[a]);
            if (r < 0)
                return *err = 1, 0;
            all = r;
        }
        hexagons += all;
    }
    if (hexagons)
        return ti->hexagon_bonus[hexagons - 1];
    pk_neighbors(cell, nb);
    int shared = -1, count = 0;
    for (int k = 0; k < 3; k++) {
        int r = has_key(filled, nb[k]);
        if (r < 0)
            return *err = 1, 0;
        if (r) {
            shared = k;
            count++;
        }
    }
    if (count != 1)
        return 0;
    pk_around(c[(shared + 2) % 3], around);
    for (int a = 0; a < 6; a++) {
        if (around[a] == cell)
            continue;
        int r = has_key(filled, around[a]);
        if (r < 0)
            return *err = 1, 0;
        if (r)
            return ti->bridge_bonus;
    }
    return 0;
}

/* the pattern tuple of cell in numbers (-1 where no number) */
static PyObject *t_pattern_of(PyObject *numbers, long cell) {
    long c[3];
    pk_corners(cell, c);
    PyObject *t = PyTuple_New(3);
    if (!t)
        return NULL;
    for (int k = 0; k < 3; k++) {
        long x = dict_long(numbers, c[k], -1);
        PyObject *o = x == -2 ? NULL : PyLong_FromLong(x);
        if (!o) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, o);
    }
    return t;
}

/* a copy of a tuple of ints with item i increased by amount */
static PyObject *t_add(PyObject *t, long i, long amount) {
    if (!PyTuple_CheckExact(t) || i >= PyTuple_GET_SIZE(t))
        return NULL;
    PyObject *out = PyTuple_New(PyTuple_GET_SIZE(t));
    if (!out)
        return NULL;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(t); k++) {
        PyObject *x = PyTuple_GET_ITEM(t, k);
        if (k == i) {
            long v = PyLong_AsLong(x);
            int64_t sum = v;
            if (!(v == -1 && PyErr_Occurred()) && add_checked(&sum, amount))
                PyErr_SetString(PyExc_OverflowError, "a score beyond 64 bits");
            /* (an error here sends the move to the Python engine, which has no limit) */
            x = PyErr_Occurred() ? NULL : PyLong_FromLongLong(sum);
            if (!x) {
                Py_DECREF(out);
                return NULL;
            }
        } else {
            Py_INCREF(x);
        }
        PyTuple_SET_ITEM(out, k, x);
    }
    return out;
}

/* TriangleGeometry.play (board) and engine._place (state) for a listed PlaceInCell */
static PyObject *t_step_place(TView *v, PyObject *state, PyObject *move) {
    TriInfo *ti = v->ti;
    PyObject *tile = FIELD(move, L_pic, 0), *cellobj = FIELD(move, L_pic, 1);
    PyObject *rotobj = FIELD(move, L_pic, 2);
    PyObject *out = NULL, *numbers = NULL, *filled = NULL, *ends = NULL, *sites = NULL;
    PyObject *patterns = NULL, *shown = NULL, *cellkey = NULL, *placement = NULL, *board = NULL;
    PyObject *hands = NULL, *log = NULL, *context = NULL, *tmp = NULL;
    long rot, x, y;
    if (Py_TYPE(cellobj) != L_cell.type || as_long(rotobj, &rot) ||
        as_long(FIELD(cellobj, L_cell, 0), &x) || as_long(FIELD(cellobj, L_cell, 1), &y) ||
        x <= -POFFSET || x >= POFFSET || y <= -POFFSET || y >= POFFSET)
        return NULL;
    int down = PyObject_IsTrue(FIELD(cellobj, L_cell, 2));
    if (down < 0)
        return NULL;
    PyObject *id = PyLong_FromVoidPtr(tile);
    if (!id)
        return NULL;
    PyObject *index_obj = PyDict_GetItemWithError(ti->by_id, id);
    Py_DECREF(id);
    long index;
    if (!index_obj || as_long(index_obj, &index) || index < 0 || index >= ti->n)
        return NULL;
    long cell = ((x + POFFSET) * PSTRIDE + (y + POFFSET)) * 2 + down;
    PyObject *old_numbers = FIELD(v->board, L_tboard, TB_NUMBERS);
    PyObject *old_filled = FIELD(v->board, L_tboard, TB_FILLED);
    PyObject *old_ends = FIELD(v->board, L_tboard, B_ENDS);
    if (!PyDict_CheckExact(old_numbers) || !PyDict_CheckExact(old_filled) ||
        !PyTuple_CheckExact(old_ends))
        return NULL;
    int err = 0;
    long gained = 0;
    if (ti->play) {
        gained = ti->points[index] + (ti->bonuses ? t_bonus(ti, old_filled, cell, &err) : 0);
        if (err)
            return NULL;
    }
    long r = ((rot % 3) + 3) % 3, c[3], nb[3];
    int face[3];
    for (int k = 0; k < 3; k++)
        face[k] = ti->face[index][((k - r) % 3 + 3) % 3];
    pk_corners(cell, c);
    pk_neighbors(cell, nb);
    Py_ssize_t nplaced = PyTuple_GET_SIZE(v->placements);
    /* the board */
    if (!(shown = Py_BuildValue("(iii)", face[0], face[1], face[2])) ||
        !(cellkey = PyLong_FromLong(cell)) || !(numbers = PyDict_Copy(old_numbers)) ||
        !(filled = PyDict_Copy(old_filled)))
        goto done;
    for (int k = 0; k < 3; k++) {
        PyObject *key = PyLong_FromLong(c[k]);
        if (!key || PyDict_SetItem(numbers, key, PyTuple_GET_ITEM(shown, k))) {
            Py_XDECREF(key);
            goto done;
        }
        Py_DECREF(key);
    }
    if (!(tmp = PyLong_FromSsize_t(nplaced)) || PyDict_SetItem(filled, cellkey, tmp))
        goto done;
    Py_CLEAR(tmp);
    if (!(ends = PyList_New(0)))
        goto done;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(old_ends); k++) {
        PyObject *e = PyTuple_GET_ITEM(old_ends, k);
        long site;
        if (Py_TYPE(e) != L_edge.type || as_long(FIELD(e, L_edge, 7), &site))
            goto done;
        if (site != cell && PyList_Append(ends, e))
            goto done;
    }
    long fresh[3];
    int nfresh = 0;
    for (int k = 0; k < 3; k++) {
        int in = has_key(filled, nb[k]);
        if (in < 0)
            goto done;
        if (in)
            continue;
        PyObject *pair = PyTuple_Pack(2, PyTuple_GET_ITEM(shown, k), PyTuple_GET_ITEM(shown, (k + 1) % 3));
        PyObject *side = PyLong_FromLong(k), *beyond = PyLong_FromLong(nb[k]);
        PyObject *edge = NULL;
        if (pair && side && beyond) {
            PyObject *values[8] = {PyTuple_GET_ITEM(shown, k), t_both, cellkey, side, Py_None, Py_None,
                                   pair, beyond};
            edge = make(&L_edge, values);
        }
        Py_XDECREF(pair);
        Py_XDECREF(side);
        Py_XDECREF(beyond);
        if (!edge || PyList_Append(ends, edge)) {
            Py_XDECREF(edge);
            goto done;
        }
        Py_DECREF(edge);
        fresh[nfresh++] = nb[k];
    }
    long touched[18];
    for (int k = 0; k < 3; k++)
        pk_around(c[k], touched + 6 * k);
    Py_ssize_t nsites = PyTuple_GET_SIZE(v->sites);
    long *kept = PyMem_Malloc((nsites + 4) * sizeof(long));
    int nkept = 0;
    if (!kept || !(sites = PyList_New(0)) || !(patterns = PyList_New(0))) {
        PyMem_Free(kept);
        if (!kept)
            PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < nsites && !err; k++) {
        PyObject *so = PyTuple_GET_ITEM(v->sites, k), *pat = PyTuple_GET_ITEM(v->patterns, k);
        long site;
        if (as_long(so, &site)) {
            err = 1;
            break;
        }
        if (site == cell)
            continue;
        int hit = 0;
        for (int t = 0; t < 18; t++)
            hit |= touched[t] == site;
        PyObject *p = hit ? t_pattern_of(numbers, site) : (Py_INCREF(pat), pat);
        if (!p || PyList_Append(sites, so) || PyList_Append(patterns, p))
            err = 1;
        Py_XDECREF(p);
        kept[nkept++] = site;
    }
    for (int f = 0; f < nfresh && !err; f++) {
        int seen = 0;
        for (int k = 0; k < nkept; k++)
            seen |= kept[k] == fresh[f];
        if (seen)
            continue;
        PyObject *so = PyLong_FromLong(fresh[f]), *p = t_pattern_of(numbers, fresh[f]);
        if (!so || !p || PyList_Append(sites, so) || PyList_Append(patterns, p))
            err = 1;
        Py_XDECREF(so);
        Py_XDECREF(p);
        kept[nkept++] = fresh[f];
    }
    PyMem_Free(kept);
    if (err)
        goto done;
    {
        PyObject *values[9] = {tile, PyTuple_GET_ITEM(shown, 0), PyTuple_GET_ITEM(shown, 1),
                               t_straight_obj, Py_None, s_zero, cellobj, rotobj, shown};
        if (!(placement = make(&L_tplacement, values)))
            goto done;
    }
    {
        PyObject *placements = tuple_plus(v->placements, placement);
        PyObject *et = PyList_AsTuple(ends), *st = PyList_AsTuple(sites);
        PyObject *pt = PyList_AsTuple(patterns);
        if (placements && et && st && pt) {
            PyObject *values[7] = {placements, et, s_zero, numbers, filled, st, pt};
            board = make(&L_tboard, values);
        }
        Py_XDECREF(placements);
        Py_XDECREF(et);
        Py_XDECREF(st);
        Py_XDECREF(pt);
        if (!board)
            goto done;
    }
    /* the state (engine._place) */
    mask_t bit = (mask_t)1 << index;
    v->hands[v->player] &= ~bit;
    mask_t hand = v->hands[v->player], all = 0;
    if (!(hands = t_hands_tuple(v)) || !(log = log_cell(state, move)))
        goto done;
    context = v->context;
    Py_INCREF(context);
    if (ti->play) {
        PyObject *values[15];
        for (int i = 0; i < 15; i++)
            values[i] = FIELD(context, L_context, i);
        PyObject *scores = NULL, *points = NULL;
        if (gained) {
            scores = t_add(values[C_SCORES], v->player, gained);
            points = t_add(values[C_PLAYPOINTS], v->player, gained);
            if (!scores || !points) {
                Py_XDECREF(scores);
                Py_XDECREF(points);
                goto done;
            }
            values[C_SCORES] = scores;
            values[C_PLAYPOINTS] = points;
        }
        PyObject *fresh_context = make(&L_context, values);
        Py_XDECREF(scores);
        Py_XDECREF(points);
        if (!fresh_context)
            goto done;
        Py_SETREF(context, fresh_context);
    }
    PyObject *player = FIELD(state, L_state, S_PLAYER);
    if (hand) {
        int blocked = 0;
        if (!(v->stock_pos < PyTuple_GET_SIZE(v->deck) && ti->draws)) {
            for (int i = 0; i < v->nhands; i++)
                all |= v->hands[i];
            int f = t_step_fits(ti, FIELD(board, L_tboard, TB_PATTERNS), all);
            if (f < 0 || f > 1)
                goto done;
            blocked = !f;
        }
        if (!blocked) {
            long seat = ((v->player + v->direction) % v->nhands + v->nhands) % v->nhands;
            if (!v->hands[seat])
                seat = step_next_seat_t(v, seat);
            out = new_state(hands, board, seat, v->stock_pos, 0, 0, player, log, context);
            goto done;
        }
        PyObject *placed = new_state(hands, board, v->player, v->stock_pos, 0, 0, player, log, context);
        if (placed) {
            out = PyObject_CallFunctionObjArgs(t_py_finish_round, placed, Py_True, NULL);
            Py_DECREF(placed);
        }
        goto done;
    }
    if (!ti->first_out)
        goto done; /* the rest (last one left) in Python */
    {
        PyObject *outs = tuple_plus(FIELD(context, L_context, C_OUT), player);
        PyObject *with_out = outs ? context_with(context, C_OUT, outs) : NULL;
        if (!with_out)
            goto done;
        Py_SETREF(context, with_out);
        PyObject *placed = new_state(hands, board, v->player, v->stock_pos, 0, 0, player, log, context);
        if (placed) {
            out = PyObject_CallFunctionObjArgs(t_py_finish_round, placed, Py_False, NULL);
            Py_DECREF(placed);
        }
    }
done:
    Py_XDECREF(numbers);
    Py_XDECREF(filled);
    Py_XDECREF(ends);
    Py_XDECREF(sites);
    Py_XDECREF(patterns);
    Py_XDECREF(shown);
    Py_XDECREF(cellkey);
    Py_XDECREF(placement);
    Py_XDECREF(board);
    Py_XDECREF(hands);
    Py_XDECREF(log);
    Py_XDECREF(context);
    Py_XDECREF(tmp);
    return out;
}

/* the context with cost taken off the mover's score and play points (a new reference) */
static PyObject *t_charged(TView *v, long cost) {
    if (!cost) {
        Py_INCREF(v->context);
        return v->context;
    }
    PyObject *values[15];
    for (int i = 0; i < 15; i++)
        values[i] = FIELD(v->context, L_context, i);
    PyObject *scores = t_add(values[C_SCORES], v->player, -cost);
    PyObject *points = t_add(values[C_PLAYPOINTS], v->player, -cost);
    PyObject *out = NULL;
    if (scores && points) {
        values[C_SCORES] = scores;
        values[C_PLAYPOINTS] = points;
        out = make(&L_context, values);
    }
    Py_XDECREF(scores);
    Py_XDECREF(points);
    return out;
}

/* DrawPenalties.cost */
static long t_step_cost(TriInfo *ti, int drew, int turn_over, int stock_empty, int drew_before) {
    if (!ti->penalties)
        return 0;
    long cost = drew ? ti->per_draw : 0;
    if (turn_over) {
        if (stock_empty)
            cost += ti->pass_when_empty;
        else if (drew || drew_before)
            cost += ti->pass_after_draws;
        else
            cost += ti->pass_when_empty;
    }
    return cost;
}

/* engine._end_turn with the values given (v->hands already the new hands) */
static PyObject *t_step_end_turn(TView *v, PyObject *state, PyObject *hands, long stock_pos,
                                 mask_t drawn, long drawn_count, PyObject *log, PyObject *context) {
    PyObject *last = FIELD(state, L_state, S_LAST);
    int blocked = 0;
    if (!(stock_pos < PyTuple_GET_SIZE(v->deck) && v->ti->draws)) {
        mask_t all = 0;
        for (int i = 0; i < v->nhands; i++)
            all |= v->hands[i];
        int f = t_step_fits(v->ti, v->patterns, all);
        if (f < 0 || f > 1)
            return NULL;
        blocked = !f;
    }
    if (!blocked)
        return new_state(hands, v->board, step_next_seat_t(v, v->player), stock_pos, 0, 0, last, log,
                         context);
    PyObject *ended = new_state(hands, v->board, v->player, stock_pos, drawn, drawn_count, last, log,
                                context);
    if (!ended)
        return NULL;
    PyObject *out = PyObject_CallFunctionObjArgs(t_py_finish_round, ended, Py_True, NULL);
    Py_DECREF(ended);
    return out;
}

/* engine._draw (and _penalised) for a listed draw */
static PyObject *t_step_draw(TView *v, PyObject *state, int could_place) {
    TriInfo *ti = v->ti;
    long drawn_count;
    if (as_long(FIELD(state, L_state, S_DCOUNT), &drawn_count))
        return NULL;
    long limit = ti->batch, ndeck = PyTuple_GET_SIZE(v->deck), stock = v->stock_pos;
    if (ti->max_per_turn && ti->max_per_turn - drawn_count < limit)
        limit = ti->max_per_turn - drawn_count;
    mask_t mask = 0;
    long taken = 0;
    while (taken < limit && stock < ndeck) {
        long t;
        if (as_long(PyTuple_GET_ITEM(v->deck, stock), &t) || t < 0 || t >= ti->n)
            return NULL;
        mask |= (mask_t)1 << t;
        stock++;
        taken++;
    }
    mask_t before = v->drawn;
    v->hands[v->player] |= mask;
    mask_t hand = v->hands[v->player], drawn = before | mask;
    drawn_count += taken;
    int keep, f;
    if (could_place && !before && ti->draw_and_pass) {
        keep = 0;
    } else {
        if ((f = t_step_fits(ti, v->patterns, hand & drawn)) < 0 || f > 1)
            return NULL;
        keep = f;
        if (!keep && ti->until_fits && stock < ndeck) {
            int more = !ti->max_per_turn || drawn_count < ti->max_per_turn;
            if (more) {
                if ((f = t_step_fits(ti, v->patterns, hand & ~drawn)) < 0 || f > 1)
                    return NULL;
                keep = !f;
            }
            if (keep && ti->one_each) {
                mask_t off = 0;
                for (int i = 0; i < v->nhands; i++)
                    off |= v->hands[i];
                for (long k = stock; k < ndeck; k++) {
                    long t;
                    if (as_long(PyTuple_GET_ITEM(v->deck, k), &t) || t < 0 || t >= ti->n)
                        return NULL;
                    off |= (mask_t)1 << t;
                }
                if ((f = t_step_fits(ti, v->patterns, off)) < 0 || f > 1)
                    return NULL;
                keep = f;
            }
        }
    }
    long cost = t_step_cost(ti, 1, !keep, stock >= ndeck, before != 0);
    PyObject *hands = t_hands_tuple(v), *log = log_cell(state, s_draw);
    PyObject *context = hands && log ? t_charged(v, cost) : NULL, *out = NULL;
    if (context) {
        if (keep)
            out = new_state(hands, v->board, v->player, stock, drawn, drawn_count,
                            FIELD(state, L_state, S_LAST), log, context);
        else
            out = t_step_end_turn(v, state, hands, stock, drawn, drawn_count, log, context);
    }
    Py_XDECREF(hands);
    Py_XDECREF(log);
    Py_XDECREF(context);
    return out;
}

/* a listed pass (engine._end_turn, with _penalised's cost) */
static PyObject *t_step_pass(TView *v, PyObject *state) {
    long drawn_count;
    if (as_long(FIELD(state, L_state, S_DCOUNT), &drawn_count))
        return NULL;
    long cost = t_step_cost(v->ti, 0, 1, v->stock_pos >= PyTuple_GET_SIZE(v->deck), v->drawn != 0);
    PyObject *log = log_cell(state, s_pass);
    PyObject *context = log ? t_charged(v, cost) : NULL, *out = NULL;
    if (context)
        out = t_step_end_turn(v, state, FIELD(state, L_state, S_HANDS), v->stock_pos, v->drawn,
                              drawn_count, log, context);
    Py_XDECREF(log);
    Py_XDECREF(context);
    return out;
}

/* step_legal for a triangle state; *mine 0 when the state is not one (the chain paths) */
static PyObject *tri_step_legal(PyObject *state, int *mine) {
    *mine = t_step_ready && Py_TYPE(state) == L_state.type &&
            Py_TYPE(FIELD(state, L_state, S_BOARD)) == L_tboard.type;
    if (!*mine)
        return NULL;
    TView v;
    int r = t_view(state, &v);
    PyObject *out = r ? NULL : t_legal_of(&v);
    Py_XDECREF(v.owner);
    if (!out) {
        PyErr_Clear(); /* anything unusual: the Python engine answers (or raises) */
        Py_RETURN_NONE;
    }
    return out;
}

/* step_apply for a triangle state (args as k_step_apply's); *mine as tri_step_legal's */
static PyObject *tri_step_apply(PyObject *const *args, int *mine) {
    PyObject *state = args[0], *move = args[1], *moves = args[3];
    *mine = t_step_ready && Py_TYPE(state) == L_state.type &&
            Py_TYPE(FIELD(state, L_state, S_BOARD)) == L_tboard.type;
    if (!*mine)
        return NULL;
    if (args[2] != state || !PyTuple_CheckExact(moves) || !PyTuple_GET_SIZE(moves))
        Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(moves);
    int kind = 0; /* 1: a listed placement, 2: the listed draw, 3: the listed pass */
    if (Py_TYPE(move) == L_pic.type) {
        for (Py_ssize_t i = 0; i < n && !kind; i++)
            kind = PyTuple_GET_ITEM(moves, i) == move;
    } else if (PyTuple_GET_ITEM(moves, n - 1) == move && (move == s_draw || move == s_pass)) {
        kind = move == s_draw ? 2 : 3;
    }
    if (!kind)
        Py_RETURN_NONE;
    TView v;
    int r = t_view(state, &v);
    PyObject *out = NULL;
    if (!r && kind == 1)
        out = t_step_place(&v, state, move);
    else if (!r && v.ti->draw_ok && kind == 2)
        out = t_step_draw(&v, state, (PyObject *)Py_TYPE(PyTuple_GET_ITEM(moves, 0)) != s_draw_type);
    else if (!r && v.ti->draw_ok)
        out = t_step_pass(&v, state);
    Py_XDECREF(v.owner);
    if (!out) {
        PyErr_Clear(); /* anything unusual: the Python engine answers (or raises) */
        Py_RETURN_NONE;
    }
    return out;
}

/* the triangle classes and helpers from step_setup's config (absent: paths off) */
static int tri_step_setup(PyObject *config) {
    const char *names[] = {"TriangleBoard", "TrianglePlacement", "OpenEdge", "PlaceInCell", "Cell"};
    Layout *targets[] = {&L_tboard, &L_tplacement, &L_edge, &L_pic, &L_cell};
    const int counts[] = {7, 9, 8, 3, 3};
    t_step_ready = 0;
    if (!PyDict_GetItemString(config, "TriangleBoard"))
        return 0; /* an engine without the triangle paths */
    for (int i = 0; i < 5; i++) {
        PyObject *spec = PyDict_GetItemString(config, names[i]);
        if (!spec) {
            PyErr_Format(PyExc_KeyError, "step_setup: no %s", names[i]);
            return -1;
        }
        if (layout(targets[i], spec))
            return -1;
        if (targets[i]->n != counts[i]) {
            PyErr_Format(PyExc_TypeError, "step_setup: unexpected fields of %s", names[i]);
            return -1;
        }
    }
    if (!(t_tables_fn = cfg(config, "triangle_tables")) ||
        !(t_geometry_type = cfg(config, "TriangleGeometry")) ||
        !(t_scoring_type = cfg(config, "TriangleScoring")) ||
        !(t_py_finish_round = cfg(config, "finish_round")) ||
        !(t_penalties_type = cfg(config, "DrawPenalties")))
        return -1;
    if (!(t_minus_one = PyLong_FromLong(-1)) || !(t_both = PyLong_FromLong(BOTH)) ||
        !(t_straight_obj = PyLong_FromLong(STRAIGHT)))
        return -1;
    t_step_ready = 1;
    return 0;
}
