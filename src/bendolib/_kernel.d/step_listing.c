/*
 * bendolib._kernel, the step API's listing on the engine's Python values: the parts of
 * the move tuple, the memo tables, and the listing of bend, bend-with-closing and
 * straight placements over the open ends.
 */

/* -- listing -- */

#define MAXPARTS 512
typedef struct {
    PyObject *part[MAXPARTS];
    int n;
    Py_ssize_t total;
} Parts;

static void parts_clear(Parts *p) {
    for (int i = 0; i < p->n; i++)
        Py_DECREF(p->part[i]);
    p->n = 0;
}

/* take a new reference to the tuple ``t``: 0, -1 on an error, 1 when it is not handled */
static int parts_add(Parts *p, PyObject *t) {
    if (!t)
        return -1;
    if (!PyTuple_CheckExact(t) || p->n >= MAXPARTS) {
        Py_DECREF(t);
        return 1;
    }
    p->part[p->n++] = t;
    p->total += PyTuple_GET_SIZE(t);
    return 0;
}

/* the parts joined, then ``extra`` (or NULL): a new tuple, as ``out += part`` builds it */
static PyObject *parts_join(Parts *p, PyObject *extra) {
    if (!extra && p->n == 1) {
        PyObject *only = p->part[0];
        Py_INCREF(only);
        return only;
    }
    PyObject *out = PyTuple_New(p->total + (extra != NULL));
    if (!out)
        return NULL;
    Py_ssize_t k = 0;
    for (int i = 0; i < p->n; i++) {
        PyObject *t = p->part[i];
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(t); j++) {
            PyObject *item = PyTuple_GET_ITEM(t, j);
            Py_INCREF(item);
            PyTuple_SET_ITEM(out, k++, item);
        }
    }
    if (extra) {
        Py_INCREF(extra);
        PyTuple_SET_ITEM(out, k, extra);
    }
    return out;
}

/* memo.remember: store ``value`` under ``key`` in ``memo``, emptied first when it holds
 * memo.LIMIT entries (read at each call, as the Python function reads it) */
static int remember(PyObject *memo, PyObject *key, PyObject *value) {
    PyObject *limit = PyObject_GetAttrString(s_memo_module, "LIMIT");
    if (!limit)
        return -1;
    Py_ssize_t most = PyLong_AsSsize_t(limit);
    Py_DECREF(limit);
    if (most == -1 && PyErr_Occurred())
        return -1;
    if (PyDict_GET_SIZE(memo) >= most)
        PyDict_Clear(memo);
    return PyDict_SetItem(memo, key, value);
}

/* the memoised entry under ``k`` (a new reference, taken), or
 * ``remember(memo, k, build(*args))`` */
static PyObject *memo_or_build(PyObject *memo, PyObject *k, PyObject *build, PyObject *a,
                               PyObject *b, PyObject *c, PyObject *d) {
    if (!k)
        return NULL;
    PyObject *found = PyDict_GetItemWithError(memo, k);
    if (found) {
        Py_DECREF(k);
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(k);
        return NULL;
    }
    PyObject *built = PyObject_CallFunctionObjArgs(build, a, b, c, d, NULL);
    if (!built) {
        Py_DECREF(k);
        return NULL;
    }
    int r = remember(memo, k, built);
    Py_DECREF(k);
    if (r) {
        Py_DECREF(built);
        return NULL;
    }
    return built;
}

static inline int lowest_index(mask_t x) { return lowest_bit(x); }

/* placing._bend_at for the one tile ``i`` at end ``e``: a new tuple, or NULL */
static PyObject *bend_at_one(RulesInfo *ri, PyObject *end, PyObject *eo, long value, long free_, int i) {
    PyObject *tile = PyTuple_GET_ITEM(ri->tiles, i);
    PyObject *a = PyObject_GetAttrString(tile, "a"), *b = a ? PyObject_GetAttrString(tile, "b") : NULL;
    PyObject *out = NULL, *left = NULL, *right = NULL, *shows, *made[2];
    long av, turns, allowed;
    int flipped, n = 0; /* (set below: no goto past an initialisation) */
    if (!b || as_long(a, &av))
        goto done;
    flipped = av != value;
    if (as_long(PyTuple_GET_ITEM(ri->turn_table, 2 * i + flipped), &turns))
        goto done;
    allowed = free_ & turns;
    shows = flipped ? a : b;
    if (!(left = PyLong_FromLong(s_left)) || !(right = PyLong_FromLong(s_right)))
        goto done;
    if (allowed & s_left) {
        PyObject *values[6] = {tile, eo, FIELD(end, L_end, E_VALUE), shows, left, FIELD(end, L_end, E_LEFT)};
        if (!(made[n] = make(&L_place, values)))
            goto done;
        n++;
    }
    if (allowed & s_right) {
        PyObject *values[6] = {tile, eo, FIELD(end, L_end, E_VALUE), shows, right, FIELD(end, L_end, E_RIGHT)};
        if (!(made[n] = make(&L_place, values))) {
            if (n)
                Py_DECREF(made[0]);
            goto done;
        }
        n++;
    }
    if ((out = PyTuple_New(n)))
        for (int k = 0; k < n; k++)
            PyTuple_SET_ITEM(out, k, made[k]);
    else
        for (int k = 0; k < n; k++)
            Py_DECREF(made[k]);
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(left);
    Py_XDECREF(right);
    return out;
}

/* the memoised placements of tile ``i`` at end ``e`` under ``key``, built on a miss */
static PyObject *bend_memo(RulesInfo *ri, PyObject *end, PyObject *eo, long value, long free_, int i) {
    PyObject *index = tiles_obj((mask_t)1 << i);
    PyObject *k = index ? PyTuple_Pack(6, FIELD(end, L_end, E_CELL), FIELD(end, L_end, E_SIDE), eo,
                                       FIELD(end, L_end, E_FREE), FIELD(end, L_end, E_VALUE), index)
                        : NULL;
    Py_XDECREF(index);
    if (!k)
        return NULL;
    PyObject *found = PyDict_GetItemWithError(ri->memo, k);
    if (found) {
        Py_DECREF(k);
        Py_INCREF(found);
        return found;
    }
    PyObject *built = PyErr_Occurred() ? NULL : bend_at_one(ri, end, eo, value, free_, i);
    if (!built) {
        Py_DECREF(k);
        return NULL;
    }
    int r = remember(ri->memo, k, built);
    Py_DECREF(k);
    if (r) {
        Py_DECREF(built);
        return NULL;
    }
    return built;
}

/* The walk over the open ends that the three listings share: end e of ``ends``, its free
 * turns and number, and its candidate tiles, ``mask & table.get(value, 0)`` (item ``free``
 * of a 4-tuple entry when by_free: the curved tiles that turn into the end's free turns).
 * 0 with o->cand == 0 when the end has no free turn or no tile fits, 1 when not handled
 * (an end not of the engine's class, a field out of range), -1 on an error. */
typedef struct {
    PyObject *end;
    long free_, value;
    mask_t cand;
} OpenEnd;

static int open_end(PyObject *ends, Py_ssize_t e, PyObject *table, int by_free, mask_t mask, OpenEnd *o) {
    PyObject *end = o->end = PyTuple_GET_ITEM(ends, e);
    o->cand = 0;
    if (Py_TYPE(end) != L_end.type || as_long(FIELD(end, L_end, E_FREE), &o->free_) ||
        as_long(FIELD(end, L_end, E_VALUE), &o->value))
        return 1;
    if (!o->free_)
        return 0;
    if (by_free && (o->free_ < 0 || o->free_ > 3))
        return 1;
    mask_t fit;
    int r = masked_get(table, FIELD(end, L_end, E_VALUE), by_free ? (int)o->free_ : -1, &fit);
    if (!r)
        o->cand = mask & fit;
    return r;
}

/* placing._bend_placements: 0, -1 on an error, 1 when not handled */
static int bend_listing(RulesInfo *ri, PyObject *ends, mask_t mask, Parts *p) {
    Py_ssize_t n = PyTuple_GET_SIZE(ends);
    for (Py_ssize_t e = 0; e < n; e++) {
        OpenEnd o;
        int r = open_end(ends, e, ri->fit_masks, 1, mask, &o);
        if (r)
            return r;
        if (!o.cand)
            continue;
        PyObject *eo = PyLong_FromSsize_t(e);
        if (!eo)
            return -1;
        while (o.cand) {
            mask_t low = o.cand & (0 - o.cand);
            o.cand ^= low;
            int i = lowest_index(low);
            PyObject *t = bend_memo(ri, o.end, eo, o.value, o.free_, i);
            if ((r = parts_add(p, t))) {
                Py_DECREF(eo);
                return r;
            }
        }
        Py_DECREF(eo);
    }
    return 0;
}

/* placing._bend_closing: 0, -1 on an error, 1 when not handled */
static int bend_closing_listing(RulesInfo *ri, PyObject *ends, mask_t mask, PyObject *joints, Parts *p) {
    Py_ssize_t n = PyTuple_GET_SIZE(ends);
    if (n > MAXE || !PyTuple_CheckExact(joints))
        return 1;
    /* placing._needs: per end, the number a placement turning LEFT (slot 0) and one
     * turning RIGHT (slot 1) must show; -1 closes nothing, -2 closes onto two ends of
     * different numbers (one end can close two ways: issue 21 point 2) */
    long need_of[MAXE][2];
    int joint_end[MAXE] = {0};
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(joints); j++) {
        PyObject *joint = PyTuple_GET_ITEM(joints, j);
        long e, met, jturn, met_value;
        if (!PyTuple_CheckExact(joint) || PyTuple_GET_SIZE(joint) != 3 || as_long(PyTuple_GET_ITEM(joint, 0), &e) ||
            as_long(PyTuple_GET_ITEM(joint, 1), &jturn) || as_long(PyTuple_GET_ITEM(joint, 2), &met) || e < 0 ||
            e >= n || met < 0 || met >= n || (jturn != LEFT && jturn != RIGHT) ||
            as_long(FIELD(PyTuple_GET_ITEM(ends, met), L_end, E_VALUE), &met_value))
            return 1;
        if (!joint_end[e]) {
            joint_end[e] = 1;
            need_of[e][0] = need_of[e][1] = -1;
        }
        long *slot = &need_of[e][jturn - LEFT];
        *slot = (*slot == -1 || *slot == met_value) ? met_value : -2;
    }
    PyObject *closings = PyObject_CallOneArg(s_closings_of, ri->tileset);
    if (!closings)
        return -1;
    if (!PyDict_CheckExact(closings)) {
        Py_DECREF(closings);
        return 1;
    }
    int r = 0;
    for (Py_ssize_t e = 0; e < n && !r; e++) {
        OpenEnd o;
        if ((r = open_end(ends, e, ri->fit_masks, 1, mask, &o)))
            break;
        if (!o.cand)
            continue;
        PyObject *end = o.end;
        long free_ = o.free_, value = o.value;
        mask_t cand = o.cand;
        PyObject *eo = PyLong_FromSsize_t(e);
        if (!eo) {
            r = -1;
            break;
        }
        while (cand && !r) {
            mask_t low = cand & (0 - cand);
            cand ^= low;
            int i = lowest_index(low);
            if (!joint_end[e]) {
                r = parts_add(p, bend_memo(ri, end, eo, value, free_, i));
                continue;
            }
            PyObject *bit = tiles_obj(low), *t = NULL;
            PyObject *need_l = PyLong_FromLong(need_of[e][0]), *need_r = PyLong_FromLong(need_of[e][1]);
            PyObject *key = bit && need_l && need_r
                                ? PyTuple_Pack(8, FIELD(end, L_end, E_CELL), FIELD(end, L_end, E_SIDE), eo,
                                               FIELD(end, L_end, E_FREE), FIELD(end, L_end, E_VALUE), bit, need_l,
                                               need_r)
                                : NULL;
            Py_XDECREF(bit);
            Py_XDECREF(need_l);
            Py_XDECREF(need_r);
            if (key) {
                t = PyDict_GetItemWithError(closings, key);
                if (t) {
                    Py_INCREF(t);
                } else if (!PyErr_Occurred()) {
                    PyObject *all = bend_at_one(ri, end, eo, value, free_, i);
                    if (all) {
                        Py_ssize_t kept = 0, m = PyTuple_GET_SIZE(all);
                        PyObject *items[2];
                        for (Py_ssize_t k = 0; k < m && kept < 2; k++) {
                            PyObject *place = PyTuple_GET_ITEM(all, k);
                            long pturn, shows;
                            if (as_long(FIELD(place, L_place, P_TURN), &pturn) ||
                                as_long(FIELD(place, L_place, P_SHOWS), &shows))
                                continue;
                            long need = (pturn == LEFT || pturn == RIGHT) ? need_of[e][pturn - LEFT] : -1;
                            if (need == -1 || shows == need)
                                items[kept++] = place;
                        }
                        t = PyTuple_New(kept);
                        for (Py_ssize_t k = 0; t && k < kept; k++) {
                            Py_INCREF(items[k]);
                            PyTuple_SET_ITEM(t, k, items[k]);
                        }
                        Py_DECREF(all);
                        if (t && remember(closings, key, t))
                            Py_CLEAR(t);
                    }
                }
                Py_DECREF(key);
            }
            r = parts_add(p, t);
        }
        Py_DECREF(eo);
    }
    Py_DECREF(closings);
    return r;
}

/* placing._straight_placements */
static int straight_listing(RulesInfo *ri, PyObject *ends, mask_t mask, Parts *p) {
    Py_ssize_t n = PyTuple_GET_SIZE(ends);
    for (Py_ssize_t e = 0; e < n; e++) {
        OpenEnd o;
        int r = open_end(ends, e, ri->face_mask, 0, mask, &o);
        if (r)
            return r;
        if (!o.cand)
            continue;
        PyObject *eo = PyLong_FromSsize_t(e);
        PyObject *c = tiles_obj(o.cand);
        PyObject *t = NULL;
        PyObject *value = FIELD(o.end, L_end, E_VALUE);
        if (eo && c) {
            PyObject *key = PyTuple_Pack(3, c, eo, value);
            t = memo_or_build(ri->memo, key, s_straight_at, ri->tileset, eo, value, c);
        }
        Py_XDECREF(eo);
        Py_XDECREF(c);
        if ((r = parts_add(p, t)))
            return r;
    }
    return 0;
}
