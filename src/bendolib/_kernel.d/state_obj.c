/*
 * bendolib._kernel, small calls (issue 24, point 3): a GameState read in compiled code
 * (state_of: the state tuple of bendolib._kernel_input.state_tuple, built from the
 * attrs slots), play (run for a GameState, returning a tuple) and deal (the first round
 * of engine.new_game, dealt here).
 *
 * state_of builds exactly the tuple state_tuple builds for a chain game (play calls it
 * with a chain game's spec only), from the same objects, for the exact classes the step API's layouts name (GameState, RoundContext, Board, End,
 * RoundResult) with every slot set; for anything else (a subclass, a missing slot, a
 * seed or an occupancy that is no plain int in range) it builds nothing and the caller
 * uses the Python state_tuple.  The tuple then goes through read_state, which checks
 * every value as before: a hostile state is refused exactly as it was.
 */

/* the occupancy int as state_tuple's bytes (little-endian, (bit_length + 7) // 8 bytes);
 * NULL with no error set when it is not a non-negative int of a sane size */
static PyObject *occupancy_bytes(PyObject *occ) {
    if (!PyLong_CheckExact(occ))
        return NULL;
    int sign = PyObject_RichCompareBool(occ, s_zero, Py_LT);
    if (sign) {
        if (sign < 0)
            PyErr_Clear();
        return NULL;
    }
    enum { MAXBYTES = 4096 };
    unsigned char buffer[MAXBYTES];
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(occ, NULL, 0,
                                           Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                               Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (need < 0) {
        PyErr_Clear();
        return NULL;
    }
    if (need > MAXBYTES)
        return NULL;
    if (PyLong_AsNativeBytes(occ, buffer, need,
                             Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER) < 0) {
        PyErr_Clear();
        return NULL;
    }
    /* the native size may round up: keep (bit_length + 7) // 8 bytes */
    while (need > 0 && buffer[need - 1] == 0)
        need--;
#else
    size_t bits = _PyLong_NumBits(occ);
    if (bits == (size_t)-1) {
        PyErr_Clear();
        return NULL;
    }
    Py_ssize_t need = (Py_ssize_t)((bits + 7) / 8);
    if (need > MAXBYTES)
        return NULL;
    if (need && _PyLong_AsByteArray((PyLongObject *)occ, buffer, (size_t)need, 1, 0) < 0) {
        PyErr_Clear();
        return NULL;
    }
#endif
    return PyBytes_FromStringAndSize((const char *)buffer, need);
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
    PyObject *flat = state_of(args[1]);
    if (!flat) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    KState root;
    int err = read_state(sp, flat, &root);
    Py_DECREF(flat);
    if (err)
        return NULL;
    return run_from(sp, &root, count, (int)policy, seed, until_match, record, first, cls, 1);
}

/* deal(spec, rules, players, seed, empty_board): engine.new_game(rules, players, seed)
 * for arguments new_game has checked, the round dealt by deal_round (the playouts' deal,
 * the same shuffle, hands and start decision as engine._deal); None when this path does
 * not deal it (table tiles, a start policy or a deal the kernel leaves to the engine, a
 * spec for other players): the Python engine deals it then.  The values built here are
 * the library's own (a permutation of the tile indices, disjoint hands, a seat in range),
 * so the state is made from its slots, as engine._deal_from makes it, unchecked. */
static PyObject *k_deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "deal takes 5 arguments");
        return NULL;
    }
    if (!step_ready || !PyCapsule_IsValid(args[0], "bendolib._kernel.Spec"))
        Py_RETURN_NONE;
    const Spec *sp = get_spec(args[0]);
    if (!sp)
        return NULL;
    PyObject *rules = args[1], *players = args[2], *seed = args[3], *board = args[4];
    long count;
    if (as_long(players, &count) || count != sp->players || sp->table_tiles || sp->hand_size < 1 ||
        !PyLong_Check(seed))
        Py_RETURN_NONE;
    KState st;
    memset(&st, 0, sizeof st);
    st.seed = PyLong_AsUnsignedLongLong(seed);
    if (st.seed == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (deal_round(sp, &st, 1))
        Py_RETURN_NONE; /* no deal here: the engine deals (or raises) */
    PyObject *deck = PyTuple_New(st.ndeck), *hands = PyTuple_New(sp->players);
    PyObject *scores = PyTuple_New(sp->players), *play_points = PyTuple_New(sp->players);
    PyObject *opening = PyLong_FromLong(st.opening), *player = PyLong_FromLong(st.current);
    PyObject *stock = PyLong_FromLong(st.stock_pos), *round = PyLong_FromLong(1);
    PyObject *one = PyLong_FromLong(1), *minus = PyLong_FromLong(-1), *none = PyTuple_New(0);
    PyObject *context = NULL, *state = NULL;
    if (!deck || !hands || !scores || !play_points || !opening || !player || !stock || !round ||
        !one || !minus || !none)
        goto done;
    for (int i = 0; i < st.ndeck; i++) {
        PyObject *x = PyLong_FromLong(st.deck[i]);
        if (!x)
            goto done;
        PyTuple_SET_ITEM(deck, i, x);
    }
    for (int s = 0; s < sp->players; s++) {
        PyObject *x = PyLong_FromUnsignedLongLong(st.hands[s]);
        if (!x)
            goto done;
        PyTuple_SET_ITEM(hands, s, x);
        Py_INCREF(s_zero);
        PyTuple_SET_ITEM(scores, s, s_zero);
        Py_INCREF(s_zero);
        PyTuple_SET_ITEM(play_points, s, s_zero);
    }
    /* engine._deal_from: _new_context(rules, players, seed, round_number, deck, scores,
     * opening, 1, (), zeros, results, PLAYING, -1, (), None) */
    PyObject *context_values[15] = {rules, players, seed, round, deck, scores, opening, one,
                                    none, play_points, none, s_zero, minus, none, Py_None};
    if (!(context = make(&L_context, context_values)))
        goto done;
    /* _new_state(hands, board, player, pos, 0, 0, -1, None, context) */
    PyObject *state_values[9] = {hands, board, player, stock, s_zero, s_zero, minus, Py_None,
                                 context};
    state = make(&L_state, state_values);
done:
    Py_XDECREF(deck);
    Py_XDECREF(hands);
    Py_XDECREF(scores);
    Py_XDECREF(play_points);
    Py_XDECREF(opening);
    Py_XDECREF(player);
    Py_XDECREF(stock);
    Py_XDECREF(round);
    Py_XDECREF(one);
    Py_XDECREF(minus);
    Py_XDECREF(none);
    Py_XDECREF(context);
    return state;
}

#define STATE_OBJ_METHODS                                                                  \
    {"state_of", k_state_of, METH_O, "state_of(state) -> the state tuple, or None"},       \
    {"play", (PyCFunction)(void (*)(void))k_play, METH_FASTCALL,                           \
     "play(spec, state, count, policy, seed, until_match, record, first, outcome) -> "     \
     "outcomes, or NotImplemented"},                                                     \
    {"deal", (PyCFunction)(void (*)(void))k_deal, METH_FASTCALL,                           \
     "deal(spec, rules, players, seed, empty_board) -> new_game's state, or None"},
