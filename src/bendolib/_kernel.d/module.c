/*
 * bendolib._kernel, the module: the deals (deal_hands, deal_deck), the method table
 * and the module's init (with its ABI version).
 */

/* deal_hands(deck, players, size): the hand masks of the first players * size tiles,
 * size each (None for a tile index past 63, or a deck shorter than the hands) */
static PyObject *k_deal_hands(PyObject *self, PyObject *args) {
    PyObject *deck;
    Py_ssize_t players, size;
    if (!PyArg_ParseTuple(args, "O!nn", &PyTuple_Type, &deck, &players, &size))
        return NULL;
    if (players < 0 || size < 0 || (size && players > PyTuple_GET_SIZE(deck) / size))
        Py_RETURN_NONE; /* hands past the deck: the Python engine deals what there is */
    PyObject *out = PyTuple_New(players);
    if (!out)
        return NULL;
    for (Py_ssize_t p = 0; p < players; p++) {
        uint64_t mask = 0;
        for (Py_ssize_t k = p * size; k < (p + 1) * size; k++) {
            long i;
            if (as_long(PyTuple_GET_ITEM(deck, k), &i) || i < 0 || i >= 64) {
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
            mask |= (uint64_t)1 << i;
        }
        PyObject *x = PyLong_FromUnsignedLongLong(mask);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, p, x);
    }
    return out;
}

/* deal_deck(seed, round_number, attempt, count): the deck engine._deal shuffles,
 * SplitMix64(derive_seed(seed, round_number, attempt)).shuffled(range(count)) */
static PyObject *k_deal_deck(PyObject *self, PyObject *args) {
    unsigned long long seed, round_number, attempt;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "KKKn", &seed, &round_number, &attempt, &count))
        return NULL;
    if (count < 0 || count > 4096) {
        PyErr_SetString(PyExc_ValueError, "deal_deck: count from 0 to 4096");
        return NULL;
    }
    int deck[4096];
    for (Py_ssize_t i = 0; i < count; i++)
        deck[i] = (int)i;
    Rng rng = {derive_seed2(seed, round_number, attempt, 2)};
    for (Py_ssize_t i = count - 1; i > 0; i--) {
        int j = rng_below(&rng, (uint64_t)(i + 1));
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *x = PyLong_FromLong(deck[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

static PyMethodDef methods[] = {
    PLAYOUT_METHODS
    STEP_METHODS
    {"deal_hands", k_deal_hands, METH_VARARGS, "deal_hands(deck, players, size) -> the hand masks, or None"},
    {"deal_deck", k_deal_deck, METH_VARARGS,
     "deal_deck(seed, round_number, attempt, count) -> the shuffled tile indices of a deal"},
    BATCH_METHODS
    STATE_OBJ_METHODS
    DEAL_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, KNAME(""),
    "Whole playouts in compiled code (see bendolib.playouts).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC KERNEL_INIT(void) {
    build_spiral();
    for (uint64_t b = 1; b < TABLED; b++)
        rests[b] = ((uint64_t)0 - b) % b;
    for (int s = 0; s < MAXP; s++)
        if (!(single_seat[s] = Py_BuildValue("(i)", s)))
            return NULL;
    if (small_ints_setup())
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
#ifdef BENDOLIB_WIDE
    /* one exception class for both builds: bendolib._kernel's (callers catch that one) */
    PyObject *narrow = PyImport_ImportModule("bendolib._kernel");
    UnsupportedError = narrow ? PyObject_GetAttrString(narrow, "UnsupportedError") : NULL;
    Py_XDECREF(narrow);
#else
    UnsupportedError = PyErr_NewException("bendolib._kernel.UnsupportedError", PyExc_Exception, NULL);
#endif
    if (!UnsupportedError || PyModule_AddObject(m, "UnsupportedError", UnsupportedError)) {
        Py_XDECREF(UnsupportedError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(UnsupportedError);
    if (PyModule_AddIntConstant(m, "ABI", KERNEL_ABI) ||
        PyModule_AddIntConstant(m, "MAX_TILES", MAXT) ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP) ||
        PyModule_AddIntConstant(m, "MAX_STEPS", MAXSTEPS)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
