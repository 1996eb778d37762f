/*
 * bendolib._kernel, the step API's apply on the engine's Python values: placing on the
 * straight and bend geometries, new states, the end of a turn and of a round (finish),
 * the place and draw moves, and the module's step_apply.
 */

/* -- the geometries' place -- */

/* (occupancy >> shift) & 63 */
static int six_bits(PyObject *occupancy, long shift, long *out) {
    PyObject *s = PyLong_FromLong(shift);
    PyObject *x = s ? PyNumber_Rshift(occupancy, s) : NULL;
    Py_XDECREF(s);
    if (!x)
        return -1;
    *out = (long)(PyLong_AsUnsignedLongLongMask(x) & 63);
    Py_DECREF(x);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *memo_end(PyObject *value, long free_, PyObject *cell, PyObject *side, long slot,
                          PyObject *left, PyObject *right) {
    long val;
    PyObject *free_obj = PyLong_FromLong(free_);
    if (!free_obj)
        return NULL;
    PyObject *values[6] = {value, free_obj, cell, side, left, right};
    if (as_long(value, &val) || !(-8 <= val && val < 56)) {
        PyObject *out = make(&L_end, values);
        Py_DECREF(free_obj);
        return out;
    }
    PyObject *key = PyLong_FromLong((slot * 4 + free_) * 64 + val + 8);
    PyObject *found = key ? PyDict_GetItemWithError(s_ends_memo, key) : NULL;
    if (found) {
        Py_INCREF(found);
    } else if (key && !PyErr_Occurred()) {
        found = make(&L_end, values);
        if (found && remember(s_ends_memo, key, found))
            Py_CLEAR(found);
    }
    Py_XDECREF(key);
    Py_DECREF(free_obj);
    return found;
}

/* the cached lattice tuple ``table[key]`` or ``build(cell, side[, turn])`` */
static PyObject *lattice_fact(PyObject *table, long key, PyObject *build, PyObject *cell, PyObject *side,
                              PyObject *turn) {
    PyObject *k = PyLong_FromLong(key);
    if (!k)
        return NULL;
    PyObject *found = PyDict_GetItemWithError(table, k);
    Py_DECREF(k);
    if (found) {
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred())
        return NULL;
    return PyObject_CallFunctionObjArgs(build, cell, side, turn, NULL);
}

/* the memoised placement under the tuple key, or one built and remembered */
static PyObject *placement_of(PyObject *memo, PyObject *key, PyObject *tile, PyObject *inward,
                              PyObject *shows, PyObject *turn, PyObject *position, PyObject *end) {
    PyObject *found = PyDict_GetItemWithError(memo, key);
    if (found) {
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred())
        return NULL;
    PyObject *built = PyObject_CallFunctionObjArgs(s_new_placement, tile, inward, shows, turn, position, end, NULL);
    if (!built)
        return NULL;
    found = PyObject_CallFunctionObjArgs(s_remember, memo, key, built, NULL);
    Py_DECREF(built);
    return found;
}

/* the new board: placements + (placement,), ends, occupancy (references stolen) */
static PyObject *new_board(PyObject *board, PyObject *placement, PyObject *ends, PyObject *occupancy) {
    PyObject *old = FIELD(board, L_board, B_PLACEMENTS);
    Py_ssize_t n = PyTuple_GET_SIZE(old);
    PyObject *placements = PyTuple_New(n + 1);
    PyObject *out = NULL;
    if (placements) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyTuple_GET_ITEM(old, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(placements, i, item);
        }
        PyTuple_SET_ITEM(placements, n, placement);
        placement = NULL;
        PyObject *values[3] = {placements, ends, occupancy};
        out = make(&L_board, values);
    }
    Py_XDECREF(placement);
    Py_XDECREF(placements);
    Py_XDECREF(ends);
    Py_XDECREF(occupancy);
    return out;
}

/* geometry.straight.StraightGeometry.place */
static PyObject *straight_place(PyObject *board, Py_ssize_t end, PyObject *move) {
    PyObject *old = FIELD(board, L_board, B_ENDS);
    Py_ssize_t n = PyTuple_GET_SIZE(old);
    PyObject *shows = FIELD(move, L_place, P_SHOWS);
    PyObject *fresh = PyDict_GetItemWithError(s_open_ends, shows);
    if (!fresh)
        return NULL; /* an error, or End(shows, BOTH) to build: the Python engine */
    PyObject *ends = PyTuple_New(n);
    if (!ends)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = i == end ? fresh : PyTuple_GET_ITEM(old, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(ends, i, item);
    }
    PyObject *tile = FIELD(move, L_place, P_TILE), *inward = FIELD(move, L_place, P_INWARD);
    PyObject *eo = FIELD(move, L_place, P_END);
    PyObject *id = PyLong_FromVoidPtr(tile);
    PyObject *key = id ? PyTuple_Pack(4, id, inward, shows, eo) : NULL;
    Py_XDECREF(id);
    PyObject *turn = key ? PyLong_FromLong(s_straight_turn) : NULL;
    PyObject *placement = turn ? placement_of(s_straight_placements, key, tile, inward, shows, turn, Py_None, eo)
                               : NULL;
    Py_XDECREF(turn);
    Py_XDECREF(key);
    if (!placement) {
        Py_DECREF(ends);
        return NULL;
    }
    Py_INCREF(s_zero);
    return new_board(board, placement, ends, s_zero);
}

/* geometry.bend.BendGeometry.place */
static PyObject *bend_place(PyObject *board, Py_ssize_t end, PyObject *move) {
    PyObject *old_ends = FIELD(board, L_board, B_ENDS);
    Py_ssize_t n = PyTuple_GET_SIZE(old_ends);
    PyObject *old = PyTuple_GET_ITEM(old_ends, end);
    PyObject *turn_obj = FIELD(move, L_place, P_TURN);
    long cell, side, turn;
    if (Py_TYPE(old) != L_end.type || as_long(FIELD(old, L_end, E_CELL), &cell) ||
        as_long(FIELD(old, L_end, E_SIDE), &side) || as_long(turn_obj, &turn) ||
        (turn != s_left && turn != s_right))
        return NULL;
    long slot = cell * 6 + side;
    PyObject *step = lattice_fact(s_steps, 2 * slot + (turn == s_right), s_step, FIELD(old, L_end, E_CELL),
                                  FIELD(old, L_end, E_SIDE), turn_obj);
    if (!step)
        return NULL;
    PyObject *ends = NULL, *occupancy = NULL, *bit = NULL, *one = NULL;
    PyObject *fresh, *tile, *id, *kind, *eo, *key, *placement; /* (no goto past an initialisation) */
    long target, at, beyond, left_hits, right_hits, used, exit_slot, free_;
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 10 ||
        as_long(PyTuple_GET_ITEM(step, 0), &target) || as_long(PyTuple_GET_ITEM(step, 1), &at) ||
        as_long(PyTuple_GET_ITEM(step, 4), &exit_slot) || as_long(PyTuple_GET_ITEM(step, 5), &beyond) ||
        as_long(PyTuple_GET_ITEM(step, 8), &left_hits) || as_long(PyTuple_GET_ITEM(step, 9), &right_hits))
        goto fail;
    one = PyLong_FromLong(1);
    bit = one ? PyNumber_Lshift(one, PyTuple_GET_ITEM(step, 1)) : NULL;
    occupancy = bit ? PyNumber_Or(FIELD(board, L_board, B_OCC), bit) : NULL;
    if (!occupancy || six_bits(occupancy, beyond, &used))
        goto fail;
    free_ = ((used & left_hits) ? 0 : s_left) | ((used & right_hits) ? 0 : s_right);
    if (!(ends = PyTuple_New(n)))
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(old_ends, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(ends, i, item);
    }
    fresh = memo_end(FIELD(move, L_place, P_SHOWS), free_, PyTuple_GET_ITEM(step, 0),
                     PyTuple_GET_ITEM(step, 3), exit_slot, PyTuple_GET_ITEM(step, 6),
                     PyTuple_GET_ITEM(step, 7));
    if (!fresh)
        goto fail;
    Py_DECREF(PyTuple_GET_ITEM(ends, end));
    PyTuple_SET_ITEM(ends, end, fresh);
    if (six_bits(occupancy, target * 6, &used))
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *other = PyTuple_GET_ITEM(ends, i);
        long ofree, ocell, oside;
        if (i == end)
            continue;
        if (Py_TYPE(other) != L_end.type || as_long(FIELD(other, L_end, E_FREE), &ofree) ||
            as_long(FIELD(other, L_end, E_CELL), &ocell) || as_long(FIELD(other, L_end, E_SIDE), &oside))
            goto fail;
        if (!ofree)
            continue;
        long other_slot = ocell * 6 + oside;
        PyObject *into = lattice_fact(s_slots, other_slot, s_slot, FIELD(other, L_end, E_CELL),
                                      FIELD(other, L_end, E_SIDE), NULL);
        if (!into)
            goto fail;
        long into_target, lh, rh;
        if (!PyTuple_CheckExact(into) || PyTuple_GET_SIZE(into) != 5 ||
            as_long(PyTuple_GET_ITEM(into, 0), &into_target) || as_long(PyTuple_GET_ITEM(into, 3), &lh) ||
            as_long(PyTuple_GET_ITEM(into, 4), &rh)) {
            Py_DECREF(into);
            goto fail;
        }
        Py_DECREF(into);
        if (into_target != target)
            continue;
        long nfree = ((used & lh) ? 0 : s_left) | ((used & rh) ? 0 : s_right);
        if (nfree == ofree)
            continue;
        PyObject *changed = memo_end(FIELD(other, L_end, E_VALUE), nfree, FIELD(other, L_end, E_CELL),
                                     FIELD(other, L_end, E_SIDE), other_slot, FIELD(other, L_end, E_LEFT),
                                     FIELD(other, L_end, E_RIGHT));
        if (!changed)
            goto fail;
        PyTuple_SET_ITEM(ends, i, changed);
        Py_DECREF(other);
    }
    tile = FIELD(move, L_place, P_TILE);
    id = PyLong_FromVoidPtr(tile);
    kind = id ? PyLong_FromLong(2 * slot + (turn == s_right)) : NULL;
    eo = FIELD(move, L_place, P_END);
    key = kind ? PyTuple_Pack(5, id, FIELD(move, L_place, P_INWARD), FIELD(move, L_place, P_SHOWS), kind, eo)
               : NULL;
    Py_XDECREF(id);
    Py_XDECREF(kind);
    placement = key ? placement_of(s_bend_placements, key, tile, FIELD(move, L_place, P_INWARD),
                                   FIELD(move, L_place, P_SHOWS), turn_obj, PyTuple_GET_ITEM(step, 2), eo)
                    : NULL;
    Py_XDECREF(key);
    if (!placement)
        goto fail;
    Py_DECREF(step);
    Py_DECREF(bit);
    Py_DECREF(one);
    return new_board(board, placement, ends, occupancy);
fail:
    Py_DECREF(step);
    Py_XDECREF(ends);
    Py_XDECREF(occupancy);
    Py_XDECREF(bit);
    Py_XDECREF(one);
    return NULL;
}

/* -- new states -- */

static PyObject *hands_tuple(View *v) {
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

/* GameState(hands, board, player, stock_pos, drawn, drawn_count, last_placer, log, context) */
static PyObject *new_state(PyObject *hands, PyObject *board, long player, long stock_pos, mask_t drawn,
                           long drawn_count, PyObject *last_placer, PyObject *log, PyObject *context) {
    PyObject *p = PyLong_FromLong(player), *s = PyLong_FromLong(stock_pos);
    PyObject *d = tiles_obj(drawn), *c = PyLong_FromLong(drawn_count);
    PyObject *out = NULL;
    if (p && s && d && c) {
        PyObject *values[9] = {hands, board, p, s, d, c, last_placer, log, context};
        out = make(&L_state, values);
    }
    Py_XDECREF(p);
    Py_XDECREF(s);
    Py_XDECREF(d);
    Py_XDECREF(c);
    return out;
}

/* engine._next_seat */
static long step_next_seat(View *v, long seat) {
    long players = v->nhands;
    for (long k = 0; k < players; k++) {
        seat = ((seat + v->direction) % players + players) % players;
        if (v->hands[seat])
            break;
    }
    return seat;
}

static PyObject *finish(RulesInfo *ri, PyObject *state, int blocked);

/* engine._end_turn: the turn passes on, or the round ends blocked (references borrowed) */
static PyObject *step_end_turn(View *v, PyObject *state, PyObject *hands, long stock_pos, mask_t drawn,
                          long drawn_count, PyObject *log) {
    PyObject *last = FIELD(state, L_state, S_LAST);
    int blocked = 0;
    if (!(stock_pos < PyTuple_GET_SIZE(v->deck) && v->ri->draws)) {
        mask_t all = 0;
        for (int i = 0; i < v->nhands; i++)
            all |= v->hands[i];
        int f = step_fits(v, v->board, all);
        if (f < 0 || f > 1)
            return NULL;
        blocked = !f;
    }
    if (blocked) {
        PyObject *ended = new_state(hands, v->board, v->player, stock_pos, drawn, drawn_count, last, log,
                                    v->context);
        if (!ended)
            return NULL;
        PyObject *out = finish(v->ri, ended, 1);
        Py_DECREF(ended);
        return out;
    }
    return new_state(hands, v->board, step_next_seat(v, v->player), stock_pos, 0, 0, last, log, v->context);
}

static PyObject *log_cell(PyObject *state, PyObject *move) {
    return PyTuple_Pack(3, FIELD(state, L_state, S_PLAYER), move, FIELD(state, L_state, S_LOG));
}

/* a copy of the round context with ``field`` replaced (reference stolen) */
static PyObject *context_with(PyObject *context, int field, PyObject *value) {
    if (!value)
        return NULL;
    PyObject *values[15];
    for (int i = 0; i < 15; i++)
        values[i] = FIELD(context, L_context, i);
    values[field] = value;
    PyObject *out = make(&L_context, values);
    Py_DECREF(value);
    return out;
}

/* ``(*t, item)`` */
static PyObject *tuple_plus(PyObject *t, PyObject *item) {
    if (!PyTuple_CheckExact(t))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *out = PyTuple_New(n + 1);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(t, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(out, i, x);
    }
    Py_INCREF(item);
    PyTuple_SET_ITEM(out, n, item);
    return out;
}

/* engine._finish_round: the round scored by the rule set's round scoring (called in
 * Python), the match's winner, the new context; falls back on anything unusual */
static PyObject *finish(RulesInfo *ri, PyObject *state, int blocked) {
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    PyObject *hands = FIELD(state, L_state, S_HANDS);
    PyObject *blocked_obj = blocked ? Py_True : Py_False;
    /* (declared here, set below: no goto past an initialisation) */
    PyObject *sides, *hand_points, *outcome, *score, *points, *winners, *scores, *result, *results, *out;
    PyObject *new_context, *outcome_values[6], *old_scores, *result_values[6], *phase, *match_winner;
    long players, winner;
    Py_ssize_t nsides;
    if (as_long(FIELD(context, L_context, C_PLAYERS), &players) || players < 1 || players > MAXP ||
        !PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) != players)
        goto python;
    if (!ri->sides[players]) {
        ri->sides[players] = PyObject_CallMethod(ri->match, "sides", "l", players);
        if (!ri->sides[players])
            return NULL;
    }
    sides = ri->sides[players];
    hand_points = PyTuple_New(players);
    outcome = score = points = winners = scores = result = results = out = new_context = NULL;
    if (!hand_points)
        return NULL;
    for (long p = 0; p < players; p++) {
        mask_t h;
        if (as_tiles(PyTuple_GET_ITEM(hands, p), &h))
            goto python_cleanup;
        long total = 0;
        while (h) {
            total += ri->points[lowest_index(h)];
            h &= h - 1;
        }
        PyObject *x = PyLong_FromLong(total);
        if (!x)
            goto fail;
        PyTuple_SET_ITEM(hand_points, p, x);
    }
    outcome_values[0] = sides;
    outcome_values[1] = hand_points;
    outcome_values[2] = FIELD(context, L_context, C_OUT);
    outcome_values[3] = blocked_obj;
    outcome_values[4] = FIELD(state, L_state, S_LAST);
    outcome_values[5] = FIELD(context, L_context, C_PLAYPOINTS);
    if (!(outcome = make(&L_outcome, outcome_values)))
        goto fail;
    if (!(score = PyObject_CallMethod(ri->scoring, "score", "O", outcome)))
        goto fail;
    if (!(points = PyObject_GetAttrString(score, "points")) || !(winners = PyObject_GetAttrString(score, "winners")))
        goto fail;
    old_scores = FIELD(context, L_context, C_SCORES);
    if (!PyTuple_CheckExact(points) || !PyTuple_CheckExact(old_scores) || PyTuple_GET_SIZE(points) != players ||
        PyTuple_GET_SIZE(old_scores) != players)
        goto python_cleanup;
    if (!(scores = PyTuple_New(players)))
        goto fail;
    long totals[MAXP];
    for (long p = 0; p < players; p++) {
        long a, b;
        if (as_long(PyTuple_GET_ITEM(old_scores, p), &a) || as_long(PyTuple_GET_ITEM(points, p), &b) ||
            a > (1L << 40) || a < -(1L << 40) || b > (1L << 40) || b < -(1L << 40))
            goto python_cleanup;
        totals[p] = a + b;
        PyObject *x = PyLong_FromLong(totals[p]);
        if (!x)
            goto fail;
        PyTuple_SET_ITEM(scores, p, x);
    }
    result_values[0] = FIELD(context, L_context, C_ROUND);
    result_values[1] = blocked_obj;
    result_values[2] = FIELD(context, L_context, C_OUT);
    result_values[3] = hand_points;
    result_values[4] = points;
    result_values[5] = winners;
    if (!(result = make(&L_result, result_values)))
        goto fail;
    if (!(results = tuple_plus(FIELD(context, L_context, C_RESULTS), result)))
        goto python_cleanup;
    /* the match's winner: Match.winner over the side totals */
    winner = -1;
    nsides = PyTuple_GET_SIZE(sides);
    if (ri->match_plain && PyTuple_CheckExact(sides) && nsides <= MAXP) {
        long side_totals[MAXP], best = 0;
        for (Py_ssize_t i = 0; i < nsides; i++) {
            PyObject *side = PyTuple_GET_ITEM(sides, i);
            long sum = 0;
            if (!PyTuple_CheckExact(side))
                goto python_cleanup;
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(side); k++) {
                long seat;
                if (as_long(PyTuple_GET_ITEM(side, k), &seat) || seat < 0 || seat >= players)
                    goto python_cleanup;
                sum += totals[seat];
            }
            side_totals[i] = sum;
            if (!i || sum > best)
                best = sum;
        }
        int leaders = 0;
        for (Py_ssize_t i = 0; i < nsides; i++)
            if (side_totals[i] == best && leaders++ == 0)
                winner = (long)i;
        if (!nsides || best < ri->target || leaders != 1)
            winner = -1;
    } else {
        goto python_cleanup;
    }
    PyObject *values[15];
    for (int i = 0; i < 15; i++)
        values[i] = FIELD(context, L_context, i);
    phase = PyLong_FromLong(winner >= 0 ? 2 : 1);
    match_winner = PyLong_FromLong(winner);
    if (phase && match_winner) {
        values[C_SCORES] = scores;
        values[C_RESULTS] = results;
        values[C_PHASE] = phase;
        values[C_WINNER] = match_winner;
        new_context = make(&L_context, values);
    }
    Py_XDECREF(phase);
    Py_XDECREF(match_winner);
    if (!new_context)
        goto fail;
    {
        long player, stock_pos;
        if (as_long(FIELD(state, L_state, S_PLAYER), &player) || as_long(FIELD(state, L_state, S_STOCK), &stock_pos))
            goto python_cleanup;
        out = new_state(hands, FIELD(state, L_state, S_BOARD), player, stock_pos, 0, 0,
                        FIELD(state, L_state, S_LAST), FIELD(state, L_state, S_LOG), new_context);
    }
fail:
    Py_XDECREF(hand_points);
    Py_XDECREF(outcome);
    Py_XDECREF(score);
    Py_XDECREF(points);
    Py_XDECREF(winners);
    Py_XDECREF(scores);
    Py_XDECREF(result);
    Py_XDECREF(results);
    Py_XDECREF(new_context);
    return out;
python_cleanup:
    Py_XDECREF(hand_points);
    Py_XDECREF(outcome);
    Py_XDECREF(score);
    Py_XDECREF(points);
    Py_XDECREF(winners);
    Py_XDECREF(scores);
    Py_XDECREF(result);
    Py_XDECREF(results);
    Py_XDECREF(new_context);
    if (PyErr_Occurred())
        return NULL;
python:
    return PyObject_CallFunctionObjArgs(s_finish_round, state, blocked_obj, NULL);
}

/* engine._place for a Place (its geometry the built-in straight line or bend lattice;
 * no effects, no play scoring) */
static PyObject *place(View *v, PyObject *state, PyObject *move) {
    RulesInfo *ri = v->ri;
    long end, index;
    if (!ri->place_ok || !ri->geometry || !complete(move, &L_place) || as_long(FIELD(move, L_place, P_END), &end))
        return NULL;
    int opening = end == s_opening_end;
    if (opening ? !v->empty : (v->empty || end < 0 || end >= PyTuple_GET_SIZE(v->ends)))
        return NULL;
    PyObject *id = PyLong_FromVoidPtr(FIELD(move, L_place, P_TILE));
    if (!id)
        return NULL;
    PyObject *found = PyDict_GetItemWithError(ri->by_id, id);
    Py_DECREF(id);
    if (!found || as_long(found, &index) || index < 0 || index >= MAXT)
        return NULL;
    mask_t hand = v->hands[v->player] & ~((mask_t)1 << index);
    if (!hand && !ri->first_out) {
        int left = 0;
        for (int i = 0; i < v->nhands; i++)
            left += i != v->player && v->hands[i] != 0;
        if (left > 1)
            return NULL; /* the turn goes on after going out: the Python engine */
    }
    v->hands[v->player] = hand;
    PyObject *board;
    if (opening) {
        PyObject *got = PyObject_CallFunctionObjArgs(s_opening, v->rules, FIELD(move, L_place, P_TILE),
                                                     FIELD(move, L_place, P_INWARD), NULL);
        if (!got)
            return NULL;
        if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) < 3 ||
            Py_TYPE(PyTuple_GET_ITEM(got, 2)) != L_board.type) {
            Py_DECREF(got);
            return NULL;
        }
        board = PyTuple_GET_ITEM(got, 2);
        Py_INCREF(board);
        Py_DECREF(got);
    } else {
        board = ri->geometry == 1 ? straight_place(v->board, end, move) : bend_place(v->board, end, move);
        if (!board)
            return NULL;
    }
    PyObject *hands = hands_tuple(v), *log = log_cell(state, move), *out = NULL, *context = v->context;
    PyObject *player = FIELD(state, L_state, S_PLAYER);
    Py_INCREF(context);
    if (!hands || !log)
        goto done;
    if (v->opening >= 0) {
        Py_SETREF(context, context_with(context, C_OPENING, PyLong_FromLong(-1)));
        if (!context)
            goto done;
    }
    if (!hand) {
        /* out: the round ends (the Python engine's finish decides the score) */
        Py_SETREF(context, context_with(context, C_OUT, tuple_plus(FIELD(context, L_context, C_OUT), player)));
        if (!context)
            goto done;
        PyObject *placed = new_state(hands, board, v->player, v->stock_pos, 0, 0, player, log, context);
        if (placed) {
            out = finish(v->ri, placed, 0);
            Py_DECREF(placed);
        }
        goto done;
    }
    int blocked; /* (no goto past an initialisation) */
    blocked = 0;
    if (!(v->stock_pos < PyTuple_GET_SIZE(v->deck) && ri->draws)) {
        mask_t all = 0;
        for (int i = 0; i < v->nhands; i++)
            all |= v->hands[i];
        int f = step_fits(v, board, all);
        if (f < 0 || f > 1)
            goto done;
        blocked = !f;
    }
    if (!blocked) {
        long seat = ((v->player + v->direction) % v->nhands + v->nhands) % v->nhands;
        if (!v->hands[seat])
            seat = step_next_seat(v, seat);
        out = new_state(hands, board, seat, v->stock_pos, 0, 0, player, log, context);
    } else {
        PyObject *placed = new_state(hands, board, v->player, v->stock_pos, 0, 0, player, log, context);
        if (placed) {
            out = finish(v->ri, placed, 1);
            Py_DECREF(placed);
        }
    }
done:
    Py_XDECREF(context);
    Py_XDECREF(hands);
    Py_XDECREF(log);
    Py_DECREF(board);
    return out;
}

/* engine._draw for a rule set that draws one tile at a time, with no limit per turn */
static PyObject *draw(View *v, PyObject *state, int could_place) {
    RulesInfo *ri = v->ri;
    Py_ssize_t size = PyTuple_GET_SIZE(v->deck);
    long index, drawn_count;
    if (!ri->place_ok || v->stock_pos >= size || as_long(PyTuple_GET_ITEM(v->deck, v->stock_pos), &index) ||
        index < 0 || index >= ri->count || as_long(FIELD(state, L_state, S_DCOUNT), &drawn_count) ||
        drawn_count < 0 || drawn_count > MAXT)
        return NULL;
    mask_t mask = (mask_t)1 << index;
    long stock_pos = v->stock_pos + 1;
    mask_t hand = v->hands[v->player] |= mask;
    mask_t drawn = v->drawn | mask;
    drawn_count += 1;
    PyObject *hands = hands_tuple(v), *log = log_cell(state, s_draw), *out = NULL;
    if (!hands || !log)
        goto done;
    if (could_place && !v->drawn && ri->pass_after_voluntary) {
        out = step_end_turn(v, state, hands, stock_pos, drawn, drawn_count, log);
        goto done;
    }
    int keep; /* (no goto past an initialisation) */
    keep = step_fits(v, v->board, hand & drawn);
    if (keep < 0 || keep > 1)
        goto done;
    if (!keep && ri->until_fits && stock_pos < size) {
        int f = step_fits(v, v->board, hand & ~drawn);
        if (f < 0 || f > 1)
            goto done;
        keep = !f;
        if (keep && ri->one_each) {
            mask_t off_board = 0;
            for (int i = 0; i < v->nhands; i++)
                off_board |= v->hands[i];
            for (Py_ssize_t k = stock_pos; k < size; k++) {
                long j;
                if (as_long(PyTuple_GET_ITEM(v->deck, k), &j) || j < 0 || j >= ri->count)
                    goto done;
                off_board |= (mask_t)1 << j;
            }
            keep = step_fits(v, v->board, off_board);
            if (keep < 0 || keep > 1)
                goto done;
        }
    }
    if (keep)
        out = new_state(hands, v->board, v->player, stock_pos, drawn, drawn_count, FIELD(state, L_state, S_LAST),
                        log, v->context);
    else
        out = step_end_turn(v, state, hands, stock_pos, drawn, drawn_count, log);
done:
    Py_XDECREF(hands);
    Py_XDECREF(log);
    return out;
}

/* step_apply(state, move, listed_for, moves): engine.apply for a move that
 * legal_moves(state) has just listed (``moves``), or None */

static PyObject *k_step_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "step_apply takes 4 arguments");
        return NULL;
    }
    int mine;
    PyObject *tri = tri_step_apply(args, &mine);
    if (mine)
        return tri;
    PyObject *state = args[0], *move = args[1], *moves = args[3];
    if (args[2] != state || !PyTuple_CheckExact(moves) || !PyTuple_GET_SIZE(moves))
        Py_RETURN_NONE;
    View v;
    int r = view_state(state, &v, Py_TYPE(move) == L_place.type);
    if (r) {
        Py_XDECREF(v.owner);
        if (r < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *out = NULL;
    if ((v.empty || v.opening >= 0) && Py_TYPE(move) != L_place.type)
        goto done;
    Py_ssize_t n; /* (no goto past an initialisation) */
    n = PyTuple_GET_SIZE(moves);
    if (Py_TYPE(move) == L_place.type) {
        for (Py_ssize_t i = 0; i < n; i++)
            if (PyTuple_GET_ITEM(moves, i) == move) {
                out = place(&v, state, move);
                break;
            }
    } else if ((move == s_draw || move == s_pass) && PyTuple_GET_ITEM(moves, n - 1) == move && v.ri->place_ok) {
        int could_place = (PyObject *)Py_TYPE(PyTuple_GET_ITEM(moves, 0)) != s_draw_type;
        if (move == s_draw) {
            out = draw(&v, state, could_place);
        } else {
            PyObject *log = log_cell(state, move);
            if (log) {
                mask_t drawn = v.drawn;
                long dcount;
                if (!as_long(FIELD(state, L_state, S_DCOUNT), &dcount))
                    out = step_end_turn(&v, state, FIELD(state, L_state, S_HANDS), v.stock_pos, drawn, dcount, log);
                Py_DECREF(log);
            }
        }
    }
done:
    Py_XDECREF(v.owner);
    if (!out && !PyErr_Occurred())
        Py_RETURN_NONE;
    return out;
}

/* the step API's entries of a method table (module.c's and the C++ builds') */
#define STEP_METHODS                                                                       \
    {"step_setup", k_step_setup, METH_O,                                                   \
     "step_setup(config): the engine's classes, tables and helpers"},                      \
    {"step_legal", k_step_legal, METH_O, "step_legal(state) -> legal_moves(state), or None"}, \
    {"step_apply", (PyCFunction)(void (*)(void))k_step_apply, METH_FASTCALL,               \
     "step_apply(state, move, listed_for, moves) -> apply(state, move), or None"},
