/*
 * bendolib._kernel, the step API's legal moves: a view of a GameState's fields,
 * step_legal (engine.legal_moves) and step_fits (placing._fits).
 */

/* the state's context, rules facts and a few fields; 0 when handled */
typedef struct {
    PyObject *context, *rules, *board, *ends, *deck;
    RulesInfo *ri;
    PyObject *owner; /* a reference to the capsule owning ri, or NULL */
    long player, stock_pos, players, direction, opening;
    int empty;
    mask_t hands[MAXP], drawn;
    int nhands;
} View;

/* 1 when ``o`` is of the layout's class with every slot set (an object unpickled from
 * an older version can miss one: a NULL slot) */
static int complete(PyObject *o, const Layout *L) {
    if (!o || Py_TYPE(o) != L->type)
        return 0;
    for (int i = 0; i < L->n; i++)
        if (!FIELD(o, *L, i))
            return 0;
    return 1;
}

/* 0: viewed; 1: not for these paths; -1: an error.  Every value these paths read is
 * checked here, once per call: the slots set, the seats, the stock position, the
 * direction, the masks within the tile set and the open ends (the Python engine, the
 * specification, decides for anything else) */
static int view_state(PyObject *state, View *v, int allow_open) {
    v->owner = NULL;
    if (!step_ready || !complete(state, &L_state))
        return 1;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!complete(context, &L_context))
        return 1;
    long phase, opening;
    if (as_long(FIELD(context, L_context, C_PHASE), &phase) || phase != 0 ||
        as_long(FIELD(context, L_context, C_OPENING), &opening) || (opening >= 0 && !allow_open))
        return 1;
    v->opening = opening;
    v->context = context;
    v->rules = FIELD(context, L_context, C_RULES);
    v->ri = rules_info(v->rules, &v->owner);
    if (!v->ri)
        return -1;
    if (!v->ri->ok)
        return 1;
    v->board = FIELD(state, L_state, S_BOARD);
    if (!complete(v->board, &L_board))
        return 1;
    PyObject *placements = FIELD(v->board, L_board, B_PLACEMENTS);
    v->ends = FIELD(v->board, L_board, B_ENDS);
    if (!PyTuple_CheckExact(placements) || !PyTuple_CheckExact(v->ends) ||
        (!PyTuple_GET_SIZE(placements) && !allow_open))
        return 1;
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(v->ends); e++)
        if (!complete(PyTuple_GET_ITEM(v->ends, e), &L_end))
            return 1;
    v->empty = !PyTuple_GET_SIZE(placements);
    PyObject *hands = FIELD(state, L_state, S_HANDS);
    if (!PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) > MAXP || !PyTuple_GET_SIZE(hands))
        return 1;
    v->nhands = (int)PyTuple_GET_SIZE(hands);
    mask_t beyond = v->ri->count >= MAXT ? 0 : ~(mask_t)0 << v->ri->count, held = 0;
    for (int i = 0; i < v->nhands; i++) {
        if (as_tiles(PyTuple_GET_ITEM(hands, i), &v->hands[i]) || (v->hands[i] & (beyond | held)))
            return 1;
        held |= v->hands[i];
    }
    if (as_long(FIELD(state, L_state, S_PLAYER), &v->player) || v->player < 0 || v->player >= v->nhands ||
        as_long(FIELD(state, L_state, S_STOCK), &v->stock_pos) ||
        as_tiles(FIELD(state, L_state, S_DRAWN), &v->drawn) || (v->drawn & beyond) ||
        as_long(FIELD(context, L_context, C_DIRECTION), &v->direction) ||
        (v->direction != 1 && v->direction != -1))
        return 1;
    v->deck = FIELD(context, L_context, C_DECK);
    if (!PyTuple_CheckExact(v->deck) || v->stock_pos < 0 || v->stock_pos > PyTuple_GET_SIZE(v->deck))
        return 1;
    return 0;
}

/* two ends leading into one cell (where legal_moves looks for joints) */
static int maybe_joints(PyObject *ends) {
    if (PyTuple_GET_SIZE(ends) != 2 || !complete(PyTuple_GET_ITEM(ends, 0), &L_end) ||
        !complete(PyTuple_GET_ITEM(ends, 1), &L_end))
        return 1;
    PyObject *a = FIELD(PyTuple_GET_ITEM(ends, 0), L_end, E_LEFT);
    PyObject *b = FIELD(PyTuple_GET_ITEM(ends, 1), L_end, E_LEFT);
    if (a == Py_None || b == Py_None)
        return 1; /* legal_moves would fail here: leave it to it */
    if (Py_TYPE(a) == L_position.type && Py_TYPE(b) == L_position.type) {
        long qa, qb, ra, rb;
        if (!as_long(FIELD(a, L_position, 0), &qa) && !as_long(FIELD(b, L_position, 0), &qb) &&
            !as_long(FIELD(a, L_position, 1), &ra) && !as_long(FIELD(b, L_position, 1), &rb))
            return qa == qb && ra == rb;
    }
    PyObject *qa = PyObject_GetAttrString(a, "q"), *qb = PyObject_GetAttrString(b, "q");
    PyObject *ra = PyObject_GetAttrString(a, "r"), *rb = PyObject_GetAttrString(b, "r");
    int same = 1;
    if (qa && qb && ra && rb) {
        int eq = PyObject_RichCompareBool(qa, qb, Py_EQ);
        int er = eq == 1 ? PyObject_RichCompareBool(ra, rb, Py_EQ) : eq;
        same = eq != 0 && er != 0; /* an error: say yes, the Python engine looks */
    }
    PyErr_Clear();
    Py_XDECREF(qa);
    Py_XDECREF(qb);
    Py_XDECREF(ra);
    Py_XDECREF(rb);
    return same;
}

/* engine.legal_moves for a playing state on a non-empty board: new tuple, NULL */
static PyObject *legal_of(View *v, PyObject *state) {
    RulesInfo *ri = v->ri;
    mask_t hand = v->hands[v->player];
    if (v->drawn)
        hand &= v->drawn;
    Parts p = {{0}, 0, 0};
    int r;
    if (ri->listing == s_list_straight)
        r = straight_listing(ri, v->ends, hand, &p);
    else if (ri->even_closing && maybe_joints(v->ends)) {
        PyObject *joints = PyObject_CallOneArg(s_bend_joints, v->ends);
        if (!joints)
            return NULL;
        if (PyObject_IsTrue(joints)) {
            r = bend_closing_listing(ri, v->ends, hand, joints, &p);
        } else {
            r = bend_listing(ri, v->ends, hand, &p);
        }
        Py_DECREF(joints);
    } else
        r = bend_listing(ri, v->ends, hand, &p);
    if (r) {
        parts_clear(&p);
        return NULL;
    }
    PyObject *moves;
    if (v->drawn) {
        if (!p.n || !p.total)
            moves = (Py_INCREF(s_one_tuple_draw), s_one_tuple_draw);
        else
            moves = parts_join(&p, ri->must_play ? NULL : s_pass);
    } else if (ri->draws && v->stock_pos < PyTuple_GET_SIZE(v->deck) && (ri->voluntary || !p.total)) {
        moves = parts_join(&p, s_draw);
    } else if (p.total) {
        moves = parts_join(&p, NULL);
    } else {
        moves = (Py_INCREF(s_one_tuple_pass), s_one_tuple_pass);
    }
    parts_clear(&p);
    return moves;
}

static PyObject *k_step_legal(PyObject *self, PyObject *state) {
    int mine;
    PyObject *tri = tri_step_legal(state, &mine);
    if (mine)
        return tri;
    View v;
    int r = view_state(state, &v, 0);
    PyObject *moves = r ? NULL : legal_of(&v, state);
    Py_XDECREF(v.owner);
    if (r < 0)
        return NULL;
    if (!moves && !PyErr_Occurred())
        Py_RETURN_NONE;
    return moves;
}

/* -- fits (placing._fits) for a board with tiles: 1, 0, -1 error, 2 not handled -- */
static int step_fits(View *v, PyObject *board, mask_t mask) {
    RulesInfo *ri = v->ri;
    if (!mask)
        return 0;
    PyObject *ends = FIELD(board, L_board, B_ENDS);
    if (ri->listing == s_list_bend && ri->even_closing && maybe_joints(ends)) {
        PyObject *joints = PyObject_CallOneArg(s_bend_joints, ends);
        if (!joints)
            return -1;
        int some = PyObject_IsTrue(joints);
        if (some) {
            Parts p = {{0}, 0, 0};
            int r = bend_closing_listing(ri, ends, mask, joints, &p);
            Py_DECREF(joints);
            int any = p.total > 0;
            parts_clear(&p);
            return r < 0 ? -1 : r > 0 ? 2 : any;
        }
        Py_DECREF(joints);
        if (some < 0)
            return -1;
    }
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(ends); e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long free_;
        if (Py_TYPE(end) != L_end.type || as_long(FIELD(end, L_end, E_FREE), &free_) || free_ < 0 || free_ > 3)
            return 2;
        if (!free_)
            continue;
        mask_t got;
        int r = ri->listing == s_list_straight
                    ? masked_get(ri->face_mask, FIELD(end, L_end, E_VALUE), -1, &got)
                    : masked_get(ri->fit_masks, FIELD(end, L_end, E_VALUE), (int)free_, &got);
        if (r)
            return r < 0 ? -1 : 2;
        if (mask & got)
            return 1;
    }
    return 0;
}
