/*
 * bendolib._kernel, the playout calls of the module on the chain games (each hands a
 * triangle spec to tri.c): run, listing, perft and walk.
 */

/* run(spec, state, count, policy, seed, until_match, record, first, outcome_class): the
 * playouts, CHUNK at a time without the GIL (other threads run meanwhile; a single
 * playout keeps it), then their outcomes built with it */
static PyObject *run_from(const Spec *sp, KState *root_state, Py_ssize_t count, int policy,
                          unsigned long long seed, int until_match, int record, PyObject *first,
                          PyObject *cls, int as_tuple);

static PyObject *k_run(PyObject *self, PyObject *args) {
    if (tri_is_spec(args))
        return tri_run(args);
    PyObject *capsule, *state_tuple, *first, *cls;
    Py_ssize_t count;
    int policy, until_match, record;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOniKppOO", &capsule, &state_tuple, &count, &policy, &seed,
                          &until_match, &record, &first, &cls))
        return NULL;
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "kernel: the outcome class must be a tuple subclass");
        return NULL;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "kernel: a negative count");
        return NULL;
    }
    KState root;
    if (read_state(sp, state_tuple, &root))
        return NULL;
    return run_from(sp, &root, count, policy, seed, until_match, record, first, cls, 0);
}

/* the playouts of run from a state read in: a new list (a tuple when as_tuple), NULL.
 * The caller's root_state is not needed after: a single playout plays in it (no copy) */
static PyObject *run_from(const Spec *sp, KState *root_state, Py_ssize_t count, int policy,
                          unsigned long long seed, int until_match, int record, PyObject *first,
                          PyObject *cls, int as_tuple) {
    if (first != Py_None && (!PyTuple_Check(first) || PyTuple_GET_SIZE(first) != count)) {
        PyErr_SetString(PyExc_TypeError, "kernel: first must be a tuple of count indices");
        return NULL;
    }
    KMove root_moves[MAXMOVES];
    List root_list = {root_moves, 0, 0};
    if (first != Py_None && list_moves(sp, root_state, &root_list))
        return raise_for(-1), (PyObject *)NULL;
    PyObject *results = NULL;
    long *forced = NULL;
    /* buffers for the playouts of one chunk, not always CHUNK states (1.2 MB): a small
     * call allocates what it uses (issue 24; no change in instructions counted, the
     * allocator reused the block) */
    Py_ssize_t chunk = count < CHUNK ? (count ? count : 1) : CHUNK;
    /* a call of a few playouts (a search's rollout) uses the stack: no allocation (one in
     * the vast build, whose state is 12.6 KB: a thread's stack may be small, musl's) */
    enum { FEW = MAXT > 256 ? 1 : 4 };
    KState few_finals[FEW];
    int few_moves[FEW];
    size_t few_starts[FEW];
    int few = chunk <= FEW;
    KState *finals = few ? few_finals : (KState *)PyMem_Malloc(chunk * sizeof(KState));
    if (count == 1 && first == Py_None)
        finals = root_state; /* a single playout plays in the root (play_one: no copy) */
    int *moves = few ? few_moves : (int *)PyMem_Malloc(chunk * sizeof(int));
    size_t *starts = few ? few_starts : (size_t *)PyMem_Malloc(chunk * sizeof(size_t));
    int *choices = NULL;
    size_t used = 0, capacity = 0;
    Batch batch; /* (set below: declared before the gotos, as C++ wants in _kernel_huge.cc) */
    if (!finals || !moves || !starts) {
        PyErr_NoMemory();
        goto fail;
    }
    if (first != Py_None) {
        forced = (long *)PyMem_Malloc((count ? count : 1) * sizeof(long));
        if (!forced) {
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *index = PyTuple_GET_ITEM(first, i);
            int overflow = 0;
            forced[i] = PyLong_Check(index) ? PyLong_AsLongAndOverflow(index, &overflow) : -1;
            if (forced[i] == -1 && PyErr_Occurred())
                goto fail;
            if (overflow || forced[i] < 0 || forced[i] >= root_list.count) {
                PyErr_SetString(UnsupportedError, "a first move out of range");
                goto fail;
            }
        }
    }
    batch = (Batch){sp, root_state, root_moves, forced, policy, until_match, record, seed};
    results = as_tuple ? PyTuple_New(count) : PyList_New(count);
    if (!results)
        goto fail;
    for (Py_ssize_t from = 0; from < count; from += CHUNK) {
        Py_ssize_t to = from + CHUNK < count ? from + CHUNK : count;
        int err = 0;
        used = 0;
        /* without the GIL, other threads running meanwhile; but a single playout (a
         * search's 1-playout call) keeps it: letting it go and taking it back was about
         * 500 instructions, a sixth of the call's fixed cost, for ~1.5 µs of play */
        PyThreadState *saved = to - from > 1 ? PyEval_SaveThread() : NULL;
        for (Py_ssize_t i = from; i < to && !err; i++) {
            starts[i - from] = used;
            err = play_one(&batch, i, &finals[i - from], &choices, &used, &capacity,
                           &moves[i - from]);
        }
        if (saved)
            PyEval_RestoreThread(saved);
        if (err == E_NO_MEMORY) {
            PyErr_NoMemory();
            goto fail;
        }
        if (err) {
            raise_for(err);
            goto fail;
        }
        /* the outcomes hold no cycle: no collection while they are made (it would walk
         * the whole growing list, again and again) */
        int gc_was_on = PyGC_Disable();
        for (Py_ssize_t i = from; i < to; i++) {
            PyObject *recorded = Py_None;
            if (record) {
                recorded = PyTuple_New(moves[i - from]);
                if (!recorded)
                    break;
                for (int m = 0; m < moves[i - from]; m++)
                    PyTuple_SET_ITEM(recorded, m, PyLong_FromLong(choices[starts[i - from] + m]));
            } else {
                Py_INCREF(Py_None);
            }
            PyObject *made = outcome(cls, sp, &finals[i - from], moves[i - from], recorded);
            Py_DECREF(recorded);
            if (!made)
                break;
            if (as_tuple)
                PyTuple_SET_ITEM(results, i, made);
            else
                PyList_SET_ITEM(results, i, made);
        }
        if (gc_was_on)
            PyGC_Enable();
        if (PyErr_Occurred())
            goto fail;
    }
    if (!few) {
        PyMem_Free(finals);
        PyMem_Free(moves);
        PyMem_Free(starts);
    }
    PyMem_Free(forced);
    PyMem_RawFree(choices);
    return results;
fail:
    if (!few) {
        PyMem_Free(finals);
        PyMem_Free(moves);
        PyMem_Free(starts);
    }
    PyMem_Free(forced);
    PyMem_RawFree(choices);
    Py_XDECREF(results);
    return NULL;
}

/* listing(spec, state): the legal moves as (kind, end, tile, inward, shows, turn) */
static PyObject *k_listing(PyObject *self, PyObject *args) {
    if (tri_is_spec(args))
        return tri_listing(args);
    PyObject *capsule, *state_tuple;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &state_tuple))
        return NULL;
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    KState st;
    if (read_state(sp, state_tuple, &st))
        return NULL;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    if (list_moves(sp, &st, &list))
        return raise_for(-1), (PyObject *)NULL;
    PyObject *out = PyTuple_New(list.count);
    if (!out)
        return NULL;
    for (int k = 0; k < list.count; k++) {
        KMove *m = &buffer[k];
        PyTuple_SET_ITEM(out, k, Py_BuildValue("(iiiiii)", m->kind, m->end, m->tile, m->inward,
                                              m->shows, m->turn));
    }
    return out;
}

static int perft(const Spec *sp, const KState *st, int depth, long long *total) {
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    int err = list_moves(sp, st, &list);
    if (err)
        return err;
    if (depth <= 1) {
        *total += list.count;
        return 0;
    }
    for (int k = 0; k < list.count; k++) {
        KState child = *st;
        if ((err = apply_move(sp, &child, &buffer[k])) || (err = perft(sp, &child, depth - 1, total)))
            return err;
    }
    return 0;
}

/* perft(spec, state, depth): the number of move sequences of that length */
static PyObject *k_perft(PyObject *self, PyObject *args) {
    if (tri_is_spec(args))
        return tri_perft(args);
    PyObject *capsule, *state_tuple;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &state_tuple, &depth))
        return NULL;
    if (depth > 64) { /* each level holds a listing on the C stack */
        PyErr_SetString(PyExc_ValueError, "perft: a depth of at most 64");
        return NULL;
    }
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    KState st;
    if (read_state(sp, state_tuple, &st))
        return NULL;
    long long total = 0;
    if (perft(sp, &st, depth, &total))
        return raise_for(-1), (PyObject *)NULL;
    return PyLong_FromLongLong(total);
}

/* walk(spec, state, steps, stride): legal-move counts along the game in which move k
 * takes index (stride * k) mod the number of legal moves */
static PyObject *k_walk(PyObject *self, PyObject *args) {
    if (tri_is_spec(args))
        return tri_walk(args);
    PyObject *capsule, *state_tuple;
    int steps, stride;
    if (!PyArg_ParseTuple(args, "OOii", &capsule, &state_tuple, &steps, &stride))
        return NULL;
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    KState st;
    if (read_state(sp, state_tuple, &st))
        return NULL;
    PyObject *counts = PyList_New(0);
    if (!counts)
        return NULL;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    for (int k = 0; k < steps; k++) {
        if (list_moves(sp, &st, &list))
            goto fail;
        if (!list.count)
            break;
        PyObject *n = PyLong_FromLong(list.count);
        if (!n || PyList_Append(counts, n)) {
            Py_XDECREF(n);
            Py_DECREF(counts);
            return NULL;
        }
        Py_DECREF(n);
        long long at = (long long)stride * k % list.count;
        if (apply_move(sp, &st, &buffer[at < 0 ? at + list.count : at]))
            goto fail;
    }
    return counts;
fail:
    Py_DECREF(counts);
    return raise_for(-1), (PyObject *)NULL;
}

/* the method-table entries of the playout functions above, which every build has (the
 * tables of module.c and _kernel_huge.cc) */
#define PLAYOUT_METHODS                                                                         \
    {"compile", k_compile, METH_O, "compile(spec) -> a compiled rule set (capsule)"},          \
    {"run", k_run, METH_VARARGS,                                                               \
     "run(spec, state, count, policy, seed, until_match, record, first, outcome) -> outcomes"}, \
    {"listing", k_listing, METH_VARARGS, "listing(spec, state) -> the legal moves as tuples"}, \
    {"perft", k_perft, METH_VARARGS, "perft(spec, state, depth) -> move sequences"},           \
    {"walk", k_walk, METH_VARARGS, "walk(spec, state, steps, stride) -> legal-move counts"},
