/*
 * bendolib._kernel, new_game's first deal in C (engine.new_game): deal, and deal_set and
 * deal_quick for the latest rule set dealt.  In every build of the chain games (the C++
 * builds too: tile sets of up to 1,024 tiles; a hand is written at the build's width).
 */

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
    if (!step_ready || !PyCapsule_IsValid(args[0], KNAME(".Spec")))
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
    PyObject *context_values[15], *state_values[9]; /* (set below: no goto past them) */
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
        PyObject *x = tiles_obj(st.hands[s]);
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
    {
        PyObject *values[15] = {rules, players, seed, round, deck, scores, opening, one,
                                none, play_points, none, s_zero, minus, none, Py_None};
        memcpy(context_values, values, sizeof values);
    }
    if (!(context = make(&L_context, context_values)))
        goto done;
    /* _new_state(hands, board, player, pos, 0, 0, -1, None, context) */
    {
        PyObject *values[9] = {hands, board, player, stock, s_zero, s_zero, minus, Py_None, context};
        memcpy(state_values, values, sizeof values);
    }
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

/* the latest rule set and player count new_game dealt by deal (engine._deal_spec, after
 * new_game's checks of them): deal_quick deals for them */
static PyObject *d_rules = NULL, *d_spec = NULL, *d_board = NULL;
static long d_players = -1;

/* deal_set(rules, players, spec, empty_board): the rule set deal_quick deals (spec None:
 * none) */
static PyObject *k_deal_set(PyObject *self, PyObject *args) {
    PyObject *rules, *spec, *board;
    long players;
    if (!PyArg_ParseTuple(args, "OlOO", &rules, &players, &spec, &board))
        return NULL;
    Py_CLEAR(d_rules);
    Py_CLEAR(d_spec);
    Py_CLEAR(d_board);
    d_players = -1;
    if (PyCapsule_IsValid(spec, KNAME(".Spec"))) {
        d_rules = Py_NewRef(rules);
        d_spec = Py_NewRef(spec);
        d_board = Py_NewRef(board);
        d_players = players;
    }
    Py_RETURN_NONE;
}

/* deal_quick(rules, players, seed): new_game(rules, players, seed) for the rule set and
 * player count of deal_set, an exact int players and an exact int seed of 0..2**64-1
 * (the checks new_game makes, passed); None for anything else (new_game checks it) */
static PyObject *k_deal_quick(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long players;
    if (nargs != 3 || !d_spec || args[0] != d_rules || as_long(args[1], &players) ||
        players != d_players || !PyLong_CheckExact(args[2]))
        Py_RETURN_NONE;
    PyObject *spec = Py_NewRef(d_spec), *board = Py_NewRef(d_board);
    PyObject *call[5] = {spec, args[0], args[1], args[2], board};
    PyObject *out = k_deal(self, call, 5); /* (a negative seed or one beyond: None) */
    Py_DECREF(spec);
    Py_DECREF(board);
    return out;
}

#define DEAL_METHODS                                                                       \
    {"deal_set", k_deal_set, METH_VARARGS,                                                 \
     "deal_set(rules, players, spec, empty_board): the rule set deal_quick deals"},        \
    {"deal_quick", (PyCFunction)(void (*)(void))k_deal_quick, METH_FASTCALL,               \
     "deal_quick(rules, players, seed) -> new_game(...), or None"},                        \
    {"deal", (PyCFunction)(void (*)(void))k_deal, METH_FASTCALL,                           \
     "deal(spec, rules, players, seed, empty_board) -> new_game's state, or None"},
