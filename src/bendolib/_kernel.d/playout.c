/*
 * bendolib._kernel, the playout loop: the outcomes built as Python values, the error
 * mapping, and play_one (one playout of a batch, without the GIL).
 */

/* -- results ------------------------------------------------------------------------ */

static PyObject *int64_tuple(const int64_t *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* the tuples (seat,), shared: most rounds have one winner and one seat out */
static PyObject *single_seat[MAXP];

static PyObject *int8_tuple(const int8_t *values, int n) {
    if (n == 1 && values[0] >= 0 && values[0] < MAXP) {
        Py_INCREF(single_seat[values[0]]);
        return single_seat[values[0]];
    }
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(values[i]));
    return t;
}

/* an Outcome (a NamedTuple class) of the final state.  Made the way tuple.__new__(cls,
 * items) makes it (cls->tp_alloc, then the items), without the items and arguments
 * tuples in between; and left untracked by the cyclic collector, with its tuples: they
 * hold only ints, bools, None and such tuples, so no cycle can go through them (the
 * collector untracks such tuples itself when it first meets them).  Issue 24: the
 * collections of the growing list of tracked outcomes, and the two tuples more per
 * outcome, were ~3,900 instructions of a ~27,000-instruction Basic playout. */
static PyObject *untracked(PyObject *t) {
    if (t && PyObject_IS_GC(t))
        PyObject_GC_UnTrack(t);
    return t;
}

/* The tuples of ints of the outcomes (scores, hand points, points), shared between
 * outcomes with the same values: a direct-mapped table of the latest made, by a hash of
 * the values (the outcomes' tuples are immutable: equal values, one object).  Issue 24:
 * making, then freeing, the outcomes was ~14% of a Basic playout's time; with the table
 * most of their tuples are made once per call: -3.7% time per playout (interleaved
 * runs).  Used with the GIL held, as the table holds references. */
#define SHARED_TUPLES 256
static struct {
    int n;
    int64_t values[MAXP];
    PyObject *tuple;
} shared_tuples[SHARED_TUPLES];

static PyObject *shared_tuple(const int64_t *values, int n) {
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)values[i]) * GOLDEN;
    int slot = (int)(h >> 56); /* 256 slots */
    if (shared_tuples[slot].tuple && shared_tuples[slot].n == n) {
        int same = 1;
        for (int i = 0; i < n; i++)
            same &= shared_tuples[slot].values[i] == values[i];
        if (same) {
            Py_INCREF(shared_tuples[slot].tuple);
            return shared_tuples[slot].tuple;
        }
    }
    PyObject *t = untracked(int64_tuple(values, n));
    if (!t)
        return NULL;
    Py_XDECREF(shared_tuples[slot].tuple);
    Py_INCREF(t);
    shared_tuples[slot].tuple = t;
    shared_tuples[slot].n = n;
    memcpy(shared_tuples[slot].values, values, (size_t)n * sizeof values[0]);
    return t;
}

static PyObject *outcome(PyObject *cls, const Spec *sp, const KState *st, int moves,
                         PyObject *choices) {
    int players = sp->players;
    PyObject *made = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 10);
    if (!made)
        return NULL;
    PyTuple_SET_ITEM(made, 0, shared_tuple(st->scores, players));
    PyTuple_SET_ITEM(made, 1, PyLong_FromLong(st->phase));
    PyTuple_SET_ITEM(made, 2, PyLong_FromLong(st->match_winner));
    if (st->has_result) {
        PyTuple_SET_ITEM(made, 3, PyBool_FromLong(st->r_blocked));
        PyTuple_SET_ITEM(made, 4, untracked(int8_tuple(st->r_order, st->r_nout)));
        PyTuple_SET_ITEM(made, 5, shared_tuple(st->r_hand, players));
        /* the round's points are the scores after a first round: one tuple */
        PyObject *scores = PyTuple_GET_ITEM(made, 0);
        int same = scores != NULL;
        for (int s = 0; s < players; s++)
            same &= st->r_points[s] == st->scores[s];
        if (same)
            Py_INCREF(scores);
        PyTuple_SET_ITEM(made, 6, same ? scores : shared_tuple(st->r_points, players));
        PyTuple_SET_ITEM(made, 7, untracked(int8_tuple(st->r_winners, st->r_nwinners)));
    } else {
        PyTuple_SET_ITEM(made, 3, PyBool_FromLong(0));
        PyTuple_SET_ITEM(made, 4, PyTuple_New(0));
        PyTuple_SET_ITEM(made, 5, PyTuple_New(0));
        PyTuple_SET_ITEM(made, 6, PyTuple_New(0));
        PyTuple_SET_ITEM(made, 7, PyTuple_New(0));
    }
    PyTuple_SET_ITEM(made, 8, PyLong_FromLong(moves));
    Py_INCREF(choices);
    PyTuple_SET_ITEM(made, 9, untracked(choices));
    for (int i = 0; i < 10; i++)
        if (!PyTuple_GET_ITEM(made, i)) {
            Py_DECREF(made);
            return NULL;
        }
    return untracked(made);
}

static int raise_for(int err) {
    if (!PyErr_Occurred())
        PyErr_SetString(UnsupportedError, "a position the kernel does not play");
    return err;
}

/* -- entry points -------------------------------------------------------------------- */

#define E_NO_MEMORY (-2)
#define CHUNK 1024 /* playouts played between two returns to Python */

/* what one batch of playouts shares */
typedef struct {
    const Spec *sp;
    const KState *root;
    const KMove *root_moves; /* the root's legal moves, for the forced first moves */
    const long *first;       /* forced first move of each playout, or NULL */
    int policy, until_match, record;
    uint64_t seed;
} Batch;

/* playout i of the batch into *st; its moves' indices appended to *choices when recorded.
 * Touches no Python object: runs without the GIL. */
static int play_one(const Batch *b, Py_ssize_t i, KState *st, int **choices, size_t *used,
                    size_t *capacity, int *moves_out) {
    const Spec *sp = b->sp;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    if (st != b->root) /* (a single playout plays in the root: see run_from) */
        *st = *b->root;
    Rng rng = {derive_seed2(b->seed, (uint64_t)i, 0, 1)};
    int moves = 0, err = 0;
    long forced = b->first ? b->first[i] : -1;
    int hw = HW_POPCOUNT(); /* see tile_count */
    while (b->until_match ? st->phase != GAME_OVER : st->phase == PLAYING) {
        int k;
        if (forced >= 0) {
            k = (int)forced;
            forced = -1;
            err = apply_move(sp, st, &b->root_moves[k]);
        } else if (b->policy == POLICY_RANDOM && !sp->general) {
            KMove move;
            if (hw)
                random_move_hw(sp, st, &rng, &move, &k);
            else
                random_move(sp, st, &rng, &move, &k);
            err = apply_move(sp, st, &move);
        } else {
            if ((err = list_moves(sp, st, &list)))
                break;
            if (b->policy == POLICY_RANDOM)
                k = list.count > 1 ? rng_below(&rng, (uint64_t)list.count) : 0;
            else if (b->policy == POLICY_HEAVIEST)
                k = heaviest(sp, &list);
            else {
                k = greedy(sp, st, &list, &err);
                if (err)
                    break;
            }
            err = apply_move(sp, st, &buffer[k]);
        }
        if (err)
            break;
        if (moves >= MAXSTEPS) {
            err = E_UNSUPPORTED;
            break;
        }
        if (b->record) {
            if (*used >= *capacity) {
                size_t grown = 2 * *capacity + 4096;
                int *more = (int *)PyMem_RawRealloc(*choices, grown * sizeof(int));
                if (!more)
                    return E_NO_MEMORY;
                *choices = more;
                *capacity = grown;
            }
            (*choices)[(*used)++] = k;
        }
        moves++;
    }
    *moves_out = moves;
    return err;
}
