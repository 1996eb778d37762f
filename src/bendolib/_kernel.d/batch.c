/*
 * bendolib._kernel, batched games (#included by _kernel.c before module.c): N independent
 * games of one compiled rule set and player count, stepped with one call, read and
 * written as flat arrays through the buffer protocol (bendolib.vector owns the NumPy
 * arrays; this file needs no NumPy header).
 *
 * Each game is a KState played by the struct engine (list_moves, apply_move) plus what
 * bendolib._inference deduces from the round's public history, kept incrementally for
 * every observer at once: the deck positions of the round are grouped into classes
 * (each seat's dealt hand, each draw, each effect draw), each with the tiles it may
 * hold ("accept").  The constraints that are plain masks (lacks, placements, misses)
 * are applied as the moves are made; the order-dependent ones (draws that fitted, the
 * history's last draw, the opening tile, the start policy's exclusions) and the
 * observer's hidden tiles are applied when an observation is written.  The
 * specification is bendolib.encoding.encode of GameState.observation; the
 * differential test (tests/test_vector.py) checks every field.
 *
 * Seeds: game g's k-th episode is dealt as new_game(rules, players, derive_seed(seed_g,
 * k)); the kernel's random opponents draw from SplitMix64(derive_seed(seed_g, k, 1)).
 */

#define MAXCLS (MAXP + MAXT)

typedef struct {
    KState st;
    Rng rng;
    uint64_t base, deal_seed;
    int64_t episode; /* the episode being played (its index in the seed stream) */
    int moves;       /* moves made in this episode */
    int decided;     /* the caller has moved in this episode */
    /* the round's public history, as far as the encoding needs it */
    int hist, last_seat, last_kind, last_tile;
    mask_t board_mask, table, placed_all;
    mask_t dealt[MAXP], taken[MAXP];
    int64_t start_scores[MAXP]; /* side scores when the round was dealt (rewards) */
    /* the deductions */
    int turn_player, drew, turn_first, ncls, deal_opening;
    int8_t cls_seat[MAXCLS], cls_draw[MAXCLS];
    int16_t cls_turn[MAXCLS];
    uint8_t cls_size[MAXCLS];
    mask_t accept[MAXCLS];
    mask_t excl[MAXP][MAXP]; /* [observer][seat]: tiles the start rules out of a hand */
    int npos;
    int8_t pos_seat[MAXT];
    uint8_t pos_first[MAXT], pos_end[MAXT];
    mask_t pos_fits[MAXT];
    int pending, pend_idx, pend_seat, pend_may_pass, pend_first, pend_end;
    mask_t pend_fits;
} Game;

enum { OUT_OBS, OUT_MASK, OUT_SEAT, OUT_REWARD, OUT_TERM, OUT_TRUNC, OUT_FINAL_OBS,
       OUT_SCORES, OUT_ROUND_WINNER, OUT_MATCH_WINNER, OUT_DEAL_SEED, NOUT };
static const char OUT_FORMAT[NOUT] = {'i', 'b', 'i', 'd', 'b', 'b', 'i', 'q', 'i', 'i', 'Q'};

typedef struct {
    PyObject *spec_capsule;
    const Spec *sp;
    Py_ssize_t n;
    Game *games;
    uint64_t *legal; /* per game, a bit per action */
    int words;       /* legal words per game */
    int players, size, actions, tiles, ends, values, turns, placements;
    int agent, policy, until_match, skip_forced, max_moves;
    int busy; /* a call is stepping the games (without the GIL) */
    Py_buffer out[NOUT];
    int bound;
    /* encoding offsets */
    int o_hand, o_drawn, o_board, o_possible, o_sizes, o_stock, o_ends, o_rest;
} VBatch;

static void vbatch_destroy(PyObject *capsule) {
    VBatch *b = PyCapsule_GetPointer(capsule, KNAME(".VBatch"));
    if (!b)
        return;
    if (b->bound)
        for (int k = 0; k < NOUT; k++)
            PyBuffer_Release(&b->out[k]);
    Py_XDECREF(b->spec_capsule);
    PyMem_Free(b->games);
    PyMem_Free(b->legal);
    PyMem_Free(b);
}

static VBatch *get_vbatch(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, KNAME(".VBatch"));
}

/* -- the action space (bendolib.encoding.action_index) ------------------------------ */

static int action_of(const VBatch *b, const KMove *m) {
    const Spec *sp = b->sp;
    int base = b->tiles + b->placements;
    if (m->kind == K_DRAW)
        return base;
    if (m->kind == K_PASS)
        return base + 1;
    if (m->kind == K_NEXT)
        return base + 2;
    if (m->end == OPENING)
        return m->tile;
    int t = m->tile, side = m->inward == sp->a[t] ? 0 : 1;
    int outward = sp->a[t] != sp->b[t] ? (side == 0 ? sp->b[t] : sp->a[t]) : m->inward;
    int named = is_wild(sp, outward) ? m->shows : 0;
    int turn = (b->turns == 2 && m->turn == RIGHT) ? 1 : 0;
    return b->tiles + (((t * b->ends + m->end) * 2 + side) * b->values + named) * b->turns + turn;
}

/* the move numbered a (a legal action: the numbering is one to one on legal moves) */
static void move_of_action(const VBatch *b, int a, KMove *m) {
    const Spec *sp = b->sp;
    int base = b->tiles + b->placements;
    memset(m, 0, sizeof *m);
    if (a >= base) {
        m->kind = (int8_t)(a == base ? K_DRAW : a == base + 1 ? K_PASS : K_NEXT);
        return;
    }
    if (a < b->tiles) {
        List one = {m, 0, 0};
        push_opening(sp, &one, a);
        return;
    }
    int r = a - b->tiles;
    int turn = r % b->turns;
    r /= b->turns;
    int named = r % b->values;
    r /= b->values;
    int side = r % 2;
    r /= 2;
    int end = r % b->ends, t = r / b->ends;
    m->kind = K_PLACE;
    m->end = (int8_t)end;
    m->tile = (tile_t)t;
    m->inward = side ? sp->b[t] : sp->a[t];
    int outward = sp->a[t] != sp->b[t] ? (side ? sp->a[t] : sp->b[t]) : m->inward;
    m->shows = (int8_t)(is_wild(sp, outward) ? named : outward);
    m->turn = (int8_t)(sp->bends ? (turn ? RIGHT : LEFT) : STRAIGHT);
}

/* -- the deductions (bendolib._inference._analyse, for every observer) -------------- */

static void start_exclusions(const Spec *sp, Game *g, int opening) {
    memset(g->excl, 0, sizeof g->excl);
    if (sp->start_kind != START_HIGHEST_DOUBLE && sp->start_kind != START_HOLDER)
        return;
    int players = sp->players, starter = g->st.current;
    KState probe;
    for (int o = 0; o < players; o++) {
        for (int s = 0; s < players; s++)
            probe.hands[s] = 0;
        probe.hands[o] = g->dealt[o];
        if (opening >= 0)
            probe.hands[starter] |= (mask_t)1 << opening;
        int player, open;
        if (choose_start(sp, &probe, &player, &open) || player != starter)
            continue;
        if (starter != o && !(opening >= 0 && open == opening))
            continue;
        mask_t hidden = sp->full & ~g->dealt[o];
        if (opening >= 0)
            hidden &= ~((mask_t)1 << opening);
        for (int s = 0; s < players; s++) {
            if (s == o)
                continue;
            mask_t keep = probe.hands[s];
            for (mask_t m = hidden; m; m &= m - 1) {
                int t = lowest_bit(m), p2, o2;
                probe.hands[s] = keep | ((mask_t)1 << t);
                if (choose_start(sp, &probe, &p2, &o2) || p2 != player || o2 != open)
                    g->excl[o][s] |= (mask_t)1 << t;
            }
            probe.hands[s] = keep;
        }
    }
}

/* a new round was dealt into g->st: the history and the deductions start again */
static void infer_deal(const Spec *sp, Game *g) {
    KState *st = &g->st;
    g->hist = 0;
    g->last_seat = -1;
    g->last_kind = 0;
    g->last_tile = -1;
    g->table = 0;
    int first = sp->players * sp->hand_size;
    for (int k = 0; k < st->nplaced && first + k < st->ndeck; k++)
        g->table |= (mask_t)1 << st->deck[first + k];
    g->board_mask = g->table;
    g->placed_all = 0;
    g->ncls = 0;
    for (int s = 0; s < sp->players; s++) {
        g->dealt[s] = st->hands[s];
        g->taken[s] = 0;
        if (sp->hand_size > 0) {
            int c = g->ncls++;
            g->cls_seat[c] = (int8_t)s;
            g->cls_draw[c] = 0;
            g->cls_turn[c] = -1;
            g->cls_size[c] = (uint8_t)sp->hand_size;
            g->accept[c] = sp->full;
        }
    }
    g->turn_player = -1;
    g->drew = 0;
    g->turn_first = g->ncls;
    g->npos = 0;
    g->pending = 0;
    g->deal_opening = st->opening;
    start_exclusions(sp, g, st->opening);
    for (int i = 0; i < sp->nsides; i++) {
        int64_t total = 0;
        for (int k = 0; k < sp->side_size[i]; k++)
            total += st->scores[sp->side_seats[i][k]];
        g->start_scores[i] = total;
    }
}

static void lack(const Game *g, int seat, int turn, mask_t tiles, mask_t *acc) {
    for (int c = 0; c < g->ncls; c++)
        if (g->cls_seat[c] == seat && g->cls_turn[c] < turn)
            acc[c] &= ~tiles;
}

static void resolve_pending(const Spec *sp, Game *g, int next_player) {
    if (!g->pending)
        return;
    g->pending = 0;
    int ended = next_player != g->pend_seat;
    if (g->pend_may_pass && !ended)
        lack(g, g->pend_seat, g->pend_idx, g->pend_fits, g->accept);
    if (ended && !g->pend_may_pass)
        for (int c = g->pend_first; c < g->pend_end; c++)
            g->accept[c] &= ~g->pend_fits;
}

static int add_class(Game *g, int seat, int turn, int draw, int size) {
    if (g->ncls >= MAXCLS || turn > INT16_MAX)
        return E_UNSUPPORTED;
    int c = g->ncls++;
    g->cls_seat[c] = (int8_t)seat;
    g->cls_draw[c] = (int8_t)draw;
    g->cls_turn[c] = (int16_t)turn;
    g->cls_size[c] = (uint8_t)size;
    g->accept[c] = ~g->placed_all;
    return 0;
}

/* apply move m (legal) to game g, keeping the history's deductions */
static int play_move(const Spec *sp, Game *g, const KMove *m) {
    KState *st = &g->st;
    if (m->kind == K_NEXT) {
        int err = apply_move(sp, st, m);
        if (!err)
            infer_deal(sp, g);
        return err;
    }
    int p = st->current, idx = g->hist;
    resolve_pending(sp, g, p);
    if (p != g->turn_player) {
        g->turn_player = p;
        g->drew = 0;
        g->turn_first = g->ncls;
    }
    int before = st->stock_pos, err;
    mask_t fits = 0;
    if (m->kind == K_DRAW || m->kind == K_PASS)
        fits = fitting(sp, st, sp->full & ~g->board_mask);
    if (m->kind == K_PLACE) {
        int x = m->tile;
        mask_t bit = (mask_t)1 << x;
        int lo, hi;
        if (g->drew) {
            lo = g->turn_first;
            hi = g->ncls;
        } else {
            lo = hi = -1;
        }
        for (int c = 0; c < g->ncls; c++) {
            int allowed = g->drew ? (c >= lo && c < hi) : (g->cls_seat[c] == p);
            if (!allowed)
                g->accept[c] &= ~bit;
        }
        g->placed_all |= bit;
        g->board_mask |= bit;
        if (idx == 0 && m->end == OPENING && g->deal_opening != x)
            start_exclusions(sp, g, x);
        g->turn_player = -1;
        mask_t hands_before[MAXP];
        memcpy(hands_before, st->hands, sizeof hands_before);
        if ((err = apply_move(sp, st, m)))
            return err;
        if (st->stock_pos > before) { /* an effect made the next seat draw */
            int q = -1;
            for (int s = 0; s < sp->players; s++)
                if (st->hands[s] & ~hands_before[s])
                    q = s;
            mask_t got = 0;
            for (int i = before; i < st->stock_pos; i++)
                got |= (mask_t)1 << st->deck[i];
            if (q >= 0) {
                g->taken[q] |= got;
                if ((err = add_class(g, q, idx, 0, st->stock_pos - before)))
                    return err;
            }
        }
        g->last_kind = 1;
        g->last_tile = x;
    } else if (m->kind == K_DRAW) {
        int may_pass = !g->drew && sp->draw_and_pass;
        if (g->drew || !sp->voluntary)
            lack(g, p, idx, fits, g->accept);
        g->drew = 1;
        if ((err = apply_move(sp, st, m)))
            return err;
        int count = st->stock_pos - before;
        mask_t got = 0;
        for (int i = before; i < st->stock_pos; i++)
            got |= (mask_t)1 << st->deck[i];
        g->taken[p] |= got;
        if (count > 0 && (err = add_class(g, p, idx, 1, count)))
            return err;
        g->pending = 1;
        g->pend_idx = idx;
        g->pend_seat = p;
        g->pend_may_pass = may_pass;
        g->pend_fits = fits;
        g->pend_first = g->turn_first;
        g->pend_end = g->ncls;
        g->last_kind = 2;
        g->last_tile = -1;
    } else {
        if (g->drew) {
            if (g->npos >= MAXT)
                return E_UNSUPPORTED;
            int k = g->npos++;
            g->pos_seat[k] = (int8_t)p;
            g->pos_first[k] = (uint8_t)g->turn_first;
            g->pos_end[k] = (uint8_t)g->ncls;
            g->pos_fits[k] = fits;
        } else {
            lack(g, p, idx, fits, g->accept);
        }
        g->turn_player = -1;
        if ((err = apply_move(sp, st, m)))
            return err;
        g->last_kind = 3;
        g->last_tile = -1;
    }
    g->last_seat = p;
    g->hist++;
    return 0;
}

static void positive(const Game *g, int first, int end, mask_t fits, mask_t *acc) {
    int open = -1, size = 0;
    for (int c = first; c < end; c++)
        if (acc[c] & fits) {
            if (open < 0)
                open = c;
            size += g->cls_size[c];
        }
    if (size == 1)
        acc[open] &= fits;
}

/* possible[s] of observer o (Deductions.possible) */
static void possible_of(const Spec *sp, const Game *g, int o, mask_t *possible) {
    const KState *st = &g->st;
    int players = sp->players;
    if (st->phase != PLAYING) {
        for (int s = 0; s < players; s++)
            possible[s] = st->hands[s];
        return;
    }
    mask_t acc[MAXCLS];
    mask_t hidden = sp->full & ~(g->dealt[o] | g->taken[o] | g->table);
    for (int c = 0; c < g->ncls; c++)
        acc[c] = g->accept[c] & hidden;
    int pend = g->pending && g->pend_seat != o, ended = 0;
    if (pend) {
        ended = st->current != g->pend_seat || st->drawn_count == 0;
        if (g->pend_may_pass && !ended)
            lack(g, g->pend_seat, g->pend_idx, g->pend_fits, acc);
        if (ended && !g->pend_may_pass)
            for (int c = g->pend_first; c < g->pend_end; c++)
                acc[c] &= ~g->pend_fits;
    }
    for (int k = 0; k < g->npos; k++)
        if (g->pos_seat[k] != o)
            positive(g, g->pos_first[k], g->pos_end[k], g->pos_fits[k], acc);
    if (pend && !ended && sp->when_stuck != UNTIL_FITS)
        positive(g, g->pend_first, g->pend_end, g->pend_fits, acc);
    if (st->opening >= 0 && st->current != o) {
        mask_t bit = (mask_t)1 << st->opening;
        for (int c = 0; c < g->ncls; c++)
            if (g->cls_seat[c] != st->current)
                acc[c] &= ~bit;
    }
    mask_t unseen = sp->full & ~(st->hands[o] | g->board_mask);
    for (int s = 0; s < players; s++)
        possible[s] = 0;
    for (int c = 0; c < g->ncls; c++) {
        int s = g->cls_seat[c];
        if (s == o)
            continue;
        mask_t a = acc[c];
        if (g->cls_turn[c] < 0)
            a &= ~g->excl[o][s];
        possible[s] |= a;
    }
    for (int s = 0; s < players; s++)
        possible[s] = s == o ? st->hands[o] : possible[s] & unseen;
}

/* -- the encoding (bendolib.encoding.encode) ---------------------------------------- */

static inline int32_t *bits_out(int32_t *out, mask_t mask, int n) {
    for (int i = 0; i < n; i++)
        out[i] = (int32_t)((mask >> i) & 1);
    return out + n;
}

static void encode_game(const VBatch *b, const Game *g, int o, int32_t *out) {
    const Spec *sp = b->sp;
    const KState *st = &g->st;
    int n = sp->n, P = sp->players;
    mask_t possible[MAXP];
    possible_of(sp, g, o, possible);
    int32_t *w = out;
    w = bits_out(w, st->hands[o], n);
    w = bits_out(w, st->current == o ? st->drawn : 0, n);
    w = bits_out(w, g->board_mask, n);
    for (int k = 1; k < P; k++)
        w = bits_out(w, possible[(o + k) % P], n);
    for (int k = 0; k < P; k++)
        *w++ = popcount_mask(st->hands[(o + k) % P]);
    *w++ = st->ndeck - st->stock_pos;
    for (int e = 0; e < b->ends; e++) {
        if (e < st->nends) {
            *w++ = 1;
            *w++ = st->ends[e].value;
            *w++ = (st->ends[e].free & LEFT) ? 1 : 0;
            *w++ = (st->ends[e].free & RIGHT) ? 1 : 0;
        } else {
            w[0] = w[1] = w[2] = w[3] = 0;
            w += 4;
        }
    }
    *w++ = mod(st->current - o, P);
    *w++ = st->phase;
    *w++ = st->opening;
    *w++ = st->drawn_count;
    *w++ = st->direction;
    *w++ = (int32_t)st->round_number;
    for (int k = 0; k < P; k++)
        *w++ = (int32_t)st->scores[(o + k) % P];
    for (int k = 0; k < P; k++) {
        int side = sp->side_of[(o + k) % P];
        int64_t total = 0;
        for (int j = 0; j < sp->side_size[side]; j++)
            total += st->scores[sp->side_seats[side][j]];
        *w++ = (int32_t)total;
    }
    for (int k = 0; k < P; k++)
        *w++ = (int32_t)st->play_points[(o + k) % P];
    *w++ = (int32_t)sp->target;
    if (g->hist == 0) {
        *w++ = -1;
        *w++ = 0;
        *w++ = -1;
    } else {
        *w++ = mod(g->last_seat - o, P);
        *w++ = g->last_kind;
        *w++ = g->last_tile;
    }
}

/* -- stepping ------------------------------------------------------------------------- */

#define OUTP(b, k, type) ((type *)(b)->out[k].buf)

static int deal_episode(VBatch *b, Py_ssize_t i) {
    const Spec *sp = b->sp;
    Game *g = &b->games[i];
    g->deal_seed = derive_seed2(g->base, (uint64_t)g->episode, 0, 1);
    g->rng.state = derive_seed2(g->base, (uint64_t)g->episode, 1, 2);
    g->moves = 0;
    g->decided = 0;
    KState *st = &g->st;
    memset(st, 0, sizeof *st);
    st->seed = g->deal_seed;
    for (int s = 0; s < sp->players; s++)
        st->scores[s] = 0;
    int err = deal_round(sp, st, 1);
    if (err)
        return err;
    infer_deal(sp, g);
    return 0;
}

/* the rewards of a finished round (adapters._rewards.round_returns), added to r */
static void add_returns(const Spec *sp, const Game *g, double *r) {
    int P = sp->players;
    double per[MAXP], total = 0.0;
    for (int s = 0; s < P; s++) {
        int side = sp->side_of[s];
        int64_t now = 0;
        for (int j = 0; j < sp->side_size[side]; j++)
            now += g->st.scores[sp->side_seats[side][j]];
        per[s] = (double)(now - g->start_scores[side]);
    }
    for (int s = 0; s < P; s++)
        total += per[s];
    double mean = total / P;
    for (int s = 0; s < P; s++)
        r[s] += per[s] - mean;
}

static int is_opponent(const VBatch *b, const Game *g) {
    return b->agent >= 0 && g->st.current != b->agent;
}

/* who decides the move of game g now: 0 the caller, 1 the core */
static int core_moves(const VBatch *b, const Game *g, const List *list) {
    if (b->skip_forced && list->count == 1)
        return 1;
    return is_opponent(b, g) && b->policy >= 0;
}

static int choose_core(const VBatch *b, Game *g, const List *list, int *err) {
    if (list->count == 1)
        return 0;
    if (b->policy == POLICY_RANDOM)
        return rng_below(&g->rng, (uint64_t)list->count);
    if (b->policy == POLICY_HEAVIEST)
        return heaviest(b->sp, list);
    return greedy(b->sp, &g->st, list, err);
}

/* after a move: the round's end, the episode's end, the core's moves, until the caller
 * decides; writes the game's row of every output */
static int advance(VBatch *b, Py_ssize_t i, List *list) {
    const Spec *sp = b->sp;
    Game *g = &b->games[i];
    int P = sp->players, err;
    double *reward = OUTP(b, OUT_REWARD, double) + i * P;
    int8_t *term = OUTP(b, OUT_TERM, int8_t) + i, *trunc = OUTP(b, OUT_TRUNC, int8_t) + i;
    for (int guard = 0;; guard++) {
        if (guard > 4 * MAXSTEPS)
            return E_UNSUPPORTED;
        KState *st = &g->st;
        int over = 0, cut = 0;
        if (st->phase != PLAYING) {
            if (g->decided)
                add_returns(sp, g, reward);
            if (!b->until_match || st->phase == GAME_OVER)
                over = 1;
        } else if (b->max_moves && g->moves >= b->max_moves) {
            cut = 1;
        }
        if (over || cut) {
            if (g->decided) { /* else over before the caller's first decision: dealt again */
                *term |= (int8_t)over;
                *trunc |= (int8_t)cut;
                int o = b->agent >= 0 ? b->agent : st->current;
                encode_game(b, g, o, OUTP(b, OUT_FINAL_OBS, int32_t) + i * b->size);
                int64_t *scores = OUTP(b, OUT_SCORES, int64_t) + i * P;
                for (int s = 0; s < P; s++)
                    scores[s] = st->scores[s];
                OUTP(b, OUT_ROUND_WINNER, int32_t)[i] =
                    st->has_result && st->r_nwinners ? st->r_winners[0] : -1;
                OUTP(b, OUT_MATCH_WINNER, int32_t)[i] = st->match_winner;
            }
            g->episode++;
            if ((err = deal_episode(b, i)))
                return err;
            continue;
        }
        if (st->phase != PLAYING) { /* a match goes on: the next round */
            KMove next = {K_NEXT, 0, 0, 0, 0, 0};
            if ((err = play_move(sp, g, &next)))
                return err;
            continue;
        }
        if ((err = list_moves(sp, st, list)))
            return err;
        if (list->count == 0)
            return E_UNSUPPORTED;
        if (core_moves(b, g, list)) {
            int k = choose_core(b, g, list, &err);
            if (err)
                return err;
            if ((err = play_move(sp, g, &list->moves[k])))
                return err;
            g->moves++;
            continue;
        }
        break;
    }
    /* the caller's decision: the observation, the mask */
    KState *st = &g->st;
    OUTP(b, OUT_SEAT, int32_t)[i] = st->current;
    OUTP(b, OUT_DEAL_SEED, uint64_t)[i] = g->deal_seed;
    encode_game(b, g, st->current, OUTP(b, OUT_OBS, int32_t) + i * b->size);
    int8_t *mask = OUTP(b, OUT_MASK, int8_t) + i * b->actions;
    uint64_t *legal = b->legal + i * b->words;
    memset(mask, 0, b->actions);
    memset(legal, 0, b->words * sizeof(uint64_t));
    for (int k = 0; k < list->count; k++) {
        int a = action_of(b, &list->moves[k]);
        mask[a] = 1;
        legal[a >> 6] |= (uint64_t)1 << (a & 63);
    }
    return 0;
}

static void clear_row(VBatch *b, Py_ssize_t i) {
    int P = b->players;
    double *reward = OUTP(b, OUT_REWARD, double) + i * P;
    for (int s = 0; s < P; s++)
        reward[s] = 0.0;
    OUTP(b, OUT_TERM, int8_t)[i] = 0;
    OUTP(b, OUT_TRUNC, int8_t)[i] = 0;
    OUTP(b, OUT_ROUND_WINNER, int32_t)[i] = -1;
    OUTP(b, OUT_MATCH_WINNER, int32_t)[i] = -1;
}

static int batch_error(int err) {
    if (err == E_NO_MEMORY)
        PyErr_NoMemory();
    else if (!PyErr_Occurred())
        PyErr_SetString(UnsupportedError, "a position the kernel does not play");
    return -1;
}

/* batch_new(spec, n, agent, policy, until_match, skip_forced, max_moves) */
static PyObject *k_batch_new(PyObject *self, PyObject *args) {
    PyObject *capsule;
    Py_ssize_t n;
    int agent, policy, until_match, skip_forced, max_moves;
    if (!PyArg_ParseTuple(args, "Oniippi", &capsule, &n, &agent, &policy, &until_match,
                          &skip_forced, &max_moves))
        return NULL;
    Spec *sp = get_spec(capsule);
    if (!sp)
        return NULL;
    if (n < 1 || n > ((Py_ssize_t)1 << 26)) {
        PyErr_SetString(PyExc_ValueError, "kernel: from 1 to 2**26 games");
        return NULL;
    }
    if (sp->start_kind == START_NONE)
        return PyErr_SetString(UnsupportedError, "a start policy the kernel does not know"), NULL;
    VBatch *b = PyMem_Calloc(1, sizeof(VBatch));
    if (!b)
        return PyErr_NoMemory();
    b->sp = sp;
    b->spec_capsule = capsule;
    Py_INCREF(capsule);
    b->n = n;
    b->players = sp->players;
    b->agent = agent;
    b->policy = policy;
    b->until_match = until_match;
    b->skip_forced = skip_forced;
    b->max_moves = max_moves;
    int n_t = sp->n, P = sp->players;
    b->tiles = n_t;
    b->ends = 2 * (sp->table_tiles > 1 ? sp->table_tiles : 1);
    b->values = sp->wild_faces ? sp->top + 1 : 1;
    b->turns = sp->bends ? 2 : 1;
    b->placements = n_t * b->ends * 2 * b->values * b->turns;
    b->actions = n_t + b->placements + 3;
    b->words = (b->actions + 63) / 64;
    b->size = 3 * n_t + (P - 1) * n_t + P + 1 + 4 * b->ends + 6 + 3 * P + 1 + 3;
    b->games = PyMem_Calloc((size_t)n, sizeof(Game));
    b->legal = PyMem_Calloc((size_t)n * b->words, sizeof(uint64_t));
    PyObject *out = PyCapsule_New(b, KNAME(".VBatch"), vbatch_destroy);
    if (!b->games || !b->legal) {
        Py_XDECREF(out);
        if (!out) {
            PyMem_Free(b->games);
            PyMem_Free(b->legal);
            Py_DECREF(capsule);
            PyMem_Free(b);
        }
        return PyErr_NoMemory();
    }
    return out;
}

/* batch_info(batch) -> (size, actions, bytes per game) */
static PyObject *k_batch_info(PyObject *self, PyObject *arg) {
    VBatch *b = get_vbatch(arg);
    if (!b)
        return NULL;
    return Py_BuildValue("(iin)", b->size, b->actions,
                         (Py_ssize_t)(sizeof(Game) + b->words * sizeof(uint64_t)));
}

static int check_buffer(Py_buffer *view, char format, Py_ssize_t count, const char *what) {
    const char *f = view->format ? view->format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@')
        f++;
    char want = format;
    int ok = f[0] == want && f[1] == '\0';
    if (!ok && want == 'q' && view->itemsize == 8 && (f[0] == 'l' && f[1] == '\0'))
        ok = 1;
    if (!ok && want == 'Q' && view->itemsize == 8 && (f[0] == 'L' && f[1] == '\0'))
        ok = 1;
    if (!ok || !PyBuffer_IsContiguous(view, 'C') || view->len != count * view->itemsize ||
        view->readonly) {
        PyErr_Format(PyExc_TypeError,
                     "kernel: %s must be a writable C-contiguous array of %zd items of format '%c'",
                     what, count, format);
        return -1;
    }
    return 0;
}

/* batch_bind(batch, outputs): the arrays every call writes (held until the batch goes) */
static PyObject *k_batch_bind(PyObject *self, PyObject *args) {
    PyObject *capsule, *outs;
    if (!PyArg_ParseTuple(args, "OO!", &capsule, &PyTuple_Type, &outs))
        return NULL;
    VBatch *b = get_vbatch(capsule);
    if (!b)
        return NULL;
    if (b->bound || PyTuple_GET_SIZE(outs) != NOUT) {
        PyErr_SetString(PyExc_TypeError, "kernel: bind once, with the 11 output arrays");
        return NULL;
    }
    Py_ssize_t n = b->n, P = b->players;
    Py_ssize_t counts[NOUT] = {n * b->size, n * b->actions, n, n * P, n, n, n * b->size,
                               n * P, n, n, n};
    static const char *names[NOUT] = {"obs", "mask", "seat", "rewards", "terminated",
                                      "truncated", "final_obs", "final_scores",
                                      "round_winner", "match_winner", "deal_seed"};
    for (int k = 0; k < NOUT; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(outs, k), &b->out[k],
                               PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) {
            for (int j = 0; j < k; j++)
                PyBuffer_Release(&b->out[j]);
            return NULL;
        }
        if (check_buffer(&b->out[k], OUT_FORMAT[k], counts[k], names[k])) {
            for (int j = 0; j <= k; j++)
                PyBuffer_Release(&b->out[j]);
            return NULL;
        }
    }
    b->bound = 1;
    Py_RETURN_NONE;
}

static int read_actions(PyObject *obj, Py_buffer *view, Py_ssize_t n, char format,
                        const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS))
        return -1;
    const char *f = view->format ? view->format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@')
        f++;
    int ok = view->itemsize == (format == 'q' ? 8 : 1) && f[1] == '\0' &&
             (format == 'q' ? (f[0] == 'q' || f[0] == 'l') : (f[0] == 'b' || f[0] == 'B' || f[0] == '?'));
    if (!ok || view->len != n * view->itemsize) {
        PyErr_Format(PyExc_TypeError, "kernel: %s must be a C-contiguous array of %zd %s", what, n,
                     format == 'q' ? "int64" : "bytes");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* batch_reset(batch, seeds): every game's stream restarts at episode 0 of seeds[i] */
static PyObject *k_batch_reset(PyObject *self, PyObject *args) {
    PyObject *capsule, *seeds;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &seeds))
        return NULL;
    VBatch *b = get_vbatch(capsule);
    if (!b)
        return NULL;
    if (!b->bound) {
        PyErr_SetString(PyExc_TypeError, "kernel: bind the outputs first");
        return NULL;
    }
    if (b->busy) {
        PyErr_SetString(PyExc_RuntimeError, "kernel: the batch is being stepped by another thread");
        return NULL;
    }
    Py_buffer view;
    if (read_actions(seeds, &view, b->n, 'q', "seeds"))
        return NULL;
    const uint64_t *base = view.buf;
    int err = 0;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    for (Py_ssize_t i = 0; i < b->n && !err; i++) {
        Game *g = &b->games[i];
        g->base = base[i];
        g->episode = 0;
        clear_row(b, i);
        if ((err = deal_episode(b, i)))
            break;
        err = advance(b, i, &list);
        clear_row(b, i);
    }
    PyBuffer_Release(&view);
    if (err)
        return batch_error(err), NULL;
    Py_RETURN_NONE;
}

/* batch_step(batch, actions, active, accumulate): the caller's move in every game (or
 * in the games active marks), then the core's moves up to the caller's next decision.
 * Returns None, or (game, action) for the first action not legal in its game (then no
 * game has moved). */
static PyObject *k_batch_step(PyObject *self, PyObject *args) {
    PyObject *capsule, *actions, *active;
    int accumulate;
    if (!PyArg_ParseTuple(args, "OOOp", &capsule, &actions, &active, &accumulate))
        return NULL;
    VBatch *b = get_vbatch(capsule);
    if (!b)
        return NULL;
    if (!b->bound) {
        PyErr_SetString(PyExc_TypeError, "kernel: bind the outputs first");
        return NULL;
    }
    Py_buffer av, mv;
    if (read_actions(actions, &av, b->n, 'q', "actions"))
        return NULL;
    const uint8_t *on = NULL;
    if (active != Py_None) {
        if (read_actions(active, &mv, b->n, 'b', "active")) {
            PyBuffer_Release(&av);
            return NULL;
        }
        on = mv.buf;
    }
    const int64_t *act = av.buf;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < b->n; i++) {
        if (on && !on[i])
            continue;
        int64_t a = act[i];
        if (a < 0 || a >= b->actions || !((b->legal[i * b->words + (a >> 6)] >> (a & 63)) & 1)) {
            result = Py_BuildValue("(nL)", i, (long long)a);
            goto done;
        }
    }
    if (b->busy) {
        PyErr_SetString(PyExc_RuntimeError, "kernel: the batch is being stepped by another thread");
        goto done;
    }
    int err = 0;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    b->busy = 1;
    /* the games and the arrays only: other threads run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < b->n && !err; i++) {
        if (on && !on[i])
            continue;
        if (!accumulate)
            clear_row(b, i);
        Game *g = &b->games[i];
        KMove move;
        move_of_action(b, (int)act[i], &move);
        if ((err = play_move(b->sp, g, &move)))
            break;
        g->moves++;
        g->decided = 1;
        err = advance(b, i, &list);
    }
    Py_END_ALLOW_THREADS
    b->busy = 0;
    if (err) {
        batch_error(err);
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&av);
    if (on)
        PyBuffer_Release(&mv);
    return result;
}

/* batch_policy(batch, policies, actions, moves[, active]): the action the kernel policy
 * policies[i * players + seat] (0 random, 1 heaviest, 2 greedy) chooses at game i's
 * decision, and the round's moves so far; "random" draws from the game's stream.  With
 * active (one byte per game), only the games it marks (the others' entries untouched). */
static PyObject *k_batch_policy(PyObject *self, PyObject *args) {
    PyObject *capsule, *policies, *actions, *moves, *active = Py_None;
    if (!PyArg_ParseTuple(args, "OOOO|O", &capsule, &policies, &actions, &moves, &active))
        return NULL;
    VBatch *b = get_vbatch(capsule);
    if (!b)
        return NULL;
    if (b->busy) {
        PyErr_SetString(PyExc_RuntimeError, "kernel: the batch is being stepped by another thread");
        return NULL;
    }
    Py_buffer pv, av, mv, onv;
    const uint8_t *on = NULL;
    if (read_actions(policies, &pv, b->n * b->players, 'b', "policies"))
        return NULL;
    if (PyObject_GetBuffer(actions, &av, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    if (PyObject_GetBuffer(moves, &mv, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&av);
        return NULL;
    }
    if (active != Py_None) {
        if (read_actions(active, &onv, b->n, 'b', "active")) {
            PyBuffer_Release(&pv);
            PyBuffer_Release(&av);
            PyBuffer_Release(&mv);
            return NULL;
        }
        on = onv.buf;
    }
    PyObject *result = NULL;
    if (check_buffer(&av, 'q', b->n, "actions") || check_buffer(&mv, 'i', b->n, "moves"))
        goto done;
    const int8_t *code = pv.buf;
    for (Py_ssize_t i = 0; i < (Py_ssize_t)b->n * b->players; i++)
        if (code[i] < POLICY_RANDOM || code[i] > POLICY_GREEDY) {
            PyErr_SetString(PyExc_ValueError, "kernel: a policy is 0, 1 or 2");
            goto done;
        }
    int64_t *out = av.buf;
    int32_t *hist = mv.buf;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    int err = 0;
    for (Py_ssize_t i = 0; i < b->n && !err; i++) {
        if (on && !on[i])
            continue;
        Game *g = &b->games[i];
        if ((err = list_moves(b->sp, &g->st, &list)))
            break;
        if (list.count == 0) {
            err = E_UNSUPPORTED;
            break;
        }
        int policy = code[i * b->players + g->st.current], k = 0;
        if (list.count > 1) {
            if (policy == POLICY_RANDOM)
                k = rng_below(&g->rng, (uint64_t)list.count);
            else if (policy == POLICY_HEAVIEST)
                k = heaviest(b->sp, &list);
            else
                k = greedy(b->sp, &g->st, &list, &err);
        }
        out[i] = action_of(b, &buffer[k]);
        hist[i] = g->hist;
    }
    if (err) {
        batch_error(err);
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&pv);
    PyBuffer_Release(&av);
    PyBuffer_Release(&mv);
    if (on)
        PyBuffer_Release(&onv);
    return result;
}

#define BATCH_METHODS                                                                        \
    {"batch_new", k_batch_new, METH_VARARGS,                                                 \
     "batch_new(spec, n, agent, policy, until_match, skip_forced, max_moves) -> a batch"},  \
        {"batch_info", k_batch_info, METH_O, "batch_info(batch) -> (size, actions, bytes)"}, \
        {"batch_bind", k_batch_bind, METH_VARARGS, "batch_bind(batch, outputs)"},            \
        {"batch_reset", k_batch_reset, METH_VARARGS, "batch_reset(batch, seeds)"},           \
        {"batch_step", k_batch_step, METH_VARARGS,                                           \
         "batch_step(batch, actions, active, accumulate) -> None or (game, action)"},         \
        {"batch_policy", k_batch_policy, METH_VARARGS,                                       \
         "batch_policy(batch, policies, actions, moves[, active]): the kernel policies' "     \
         "choices"},
