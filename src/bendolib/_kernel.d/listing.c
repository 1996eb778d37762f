/*
 * bendolib._kernel, the legal moves of a state on structs: the move list, the places
 * of each tile at each open end (list_places), the fitting tiles (fitting, fits) and
 * the whole listing with draws and passes (list_moves).
 */

/* -- legal moves ------------------------------------------------------------------ */

typedef struct {
    KMove *moves;
    int count;
    int overflow;
} List;

static inline void push(List *list, int kind, int end, int tile, int inward, int shows, int turn) {
    if (list->count >= MAXMOVES) {
        list->overflow = 1;
        return;
    }
    KMove *m = &list->moves[list->count++];
    m->kind = (int8_t)kind;
    m->end = (int8_t)end;
    m->tile = (tile_t)tile;
    m->inward = (int8_t)inward;
    m->shows = (int8_t)shows;
    m->turn = (int8_t)turn;
}

static void push_opening(const Spec *sp, List *list, int tile) {
    if (sp->bends) {
        int x, y;
        orientation(sp, tile, sp->a[tile], &x, &y);
        push(list, K_PLACE, OPENING, tile, x, y, RIGHT);
    } else {
        push(list, K_PLACE, OPENING, tile, sp->a[tile], sp->b[tile], STRAIGHT);
    }
}

static inline void push_turns(const Spec *sp, const KState *st, List *list, int e, int tile,
                              int inward, int shows, int allowed) {
    if ((allowed & LEFT) && (!sp->even_closure || closes_evenly(st, e, LEFT, shows)))
        push(list, K_PLACE, e, tile, inward, shows, LEFT);
    if ((allowed & RIGHT) && (!sp->even_closure || closes_evenly(st, e, RIGHT, shows)))
        push(list, K_PLACE, e, tile, inward, shows, RIGHT);
}

/* the tiles that may be laid at end e turning `turn` under the even-closure rule: every
 * other end the new end would face must be shown, so only the tile carrying both the end's
 * value and that end's value passes.  One mask per end and turn instead of closes_evenly()
 * per candidate (issue 24: the closing check was 18% of a Basic playout; with the
 * mask test in fitting() and next_seat() without divisions: -4.7% instructions per
 * Basic playout, callgrind, docs/performance.md). */
static mask_t closing_mask(const Spec *sp, const KState *st, int e, int turn) {
    /* the cell and side facing the new end, by (side, turn), as step() gives them
     * (DELTA[side] + DELTA[exit], (exit + 3) % 6):
     * a table instead of four modulos per call (with the occ_bloom filter: -7.1%
     * instructions per Basic playout) */
    static const int AHEAD[6][3] = {{0, 1, 255},   {0, -255, 256}, {0, -256, 1},
                                    {0, -1, -255}, {0, 255, -256}, {0, 256, -1}};
    static const int8_t BACK[6][3] = {{0, 5, 1}, {0, 0, 2}, {0, 1, 3},
                                      {0, 2, 4}, {0, 3, 5}, {0, 4, 0}};
    const KEnd *end = &st->ends[e];
    uint16_t facing = (uint16_t)(end->cell + AHEAD[end->side][turn]);
    int back = BACK[end->side][turn], value = end->value;
    mask_t ok = ~(mask_t)0;
    for (int i = 0; i < st->nends; i++)
        if (i != e && st->ends[i].cell == facing && st->ends[i].side == back) {
            int need = st->ends[i].value;
            ok &= need == value ? sp->face[value + FACE0] & sp->doubles
                                : sp->face[value + FACE0] & sp->face[need + FACE0];
        }
    return ok;
}

/* every placement of a tile of `mask`, in the engine's order (bendolib._placing) */
static void list_places(const Spec *sp, const KState *st, mask_t mask, List *list) {
    if (st->nplaced == 0) {
        for (mask_t m = mask; m; m &= m - 1)
            push_opening(sp, list, lowest_bit(m));
        return;
    }
    for (int e = 0; e < st->nends; e++) {
        const KEnd *end = &st->ends[e];
        int free = end->free, value = end->value;
        if (!free)
            continue;
        if (!sp->general) {
            if (!sp->bends) {
                for (mask_t m = mask & sp->face[value + FACE0]; m; m &= m - 1) {
                    int t = lowest_bit(m);
                    int shows = (sp->a[t] == value) ? sp->b[t] : sp->a[t];
                    push(list, K_PLACE, e, t, value, shows, STRAIGHT);
                }
            } else if (sp->even_closure) {
                /* the closing rule as two masks (closing_mask), not a check per tile */
                mask_t left = (free & LEFT) ? mask & sp->fit[value + FACE0][LEFT] : 0;
                mask_t right = (free & RIGHT) ? mask & sp->fit[value + FACE0][RIGHT] : 0;
                if (left)
                    left &= closing_mask(sp, st, e, LEFT);
                if (right)
                    right &= closing_mask(sp, st, e, RIGHT);
                for (mask_t m = left | right; m; m &= m - 1) {
                    int t = lowest_bit(m);
                    int shows = sp->a[t] != value ? sp->a[t] : sp->b[t];
                    if ((left >> t) & 1)
                        push(list, K_PLACE, e, t, value, shows, LEFT);
                    if ((right >> t) & 1)
                        push(list, K_PLACE, e, t, value, shows, RIGHT);
                }
            } else {
                for (mask_t m = mask & sp->fit[value + FACE0][free]; m; m &= m - 1) {
                    int t = lowest_bit(m);
                    int flipped = sp->a[t] != value;
                    int allowed = free & sp->turn[2 * t + flipped];
                    int shows = flipped ? sp->a[t] : sp->b[t];
                    push_turns(sp, st, list, e, t, value, shows, allowed);
                }
            }
            continue;
        }
        /* wild faces: the general listing */
        for (mask_t m = mask & (sp->face[value + FACE0] | sp->wild_mask); m; m &= m - 1) {
            int t = lowest_bit(m);
            int faces[2] = {sp->a[t], sp->b[t]};
            int nf = (sp->a[t] == sp->b[t]) ? 1 : 2;
            for (int f = 0; f < nf; f++) {
                int inward = faces[f];
                if (inward != value && !is_wild(sp, inward))
                    continue;
                int outward = (sp->a[t] != sp->b[t]) ? faces[1 - f] : inward;
                int lo = outward, hi = outward;
                if (is_wild(sp, outward)) {
                    lo = 0;
                    hi = sp->top;
                }
                int allowed = sp->bends ? (free & turn_from(sp, t, inward)) : 0;
                for (int shows = lo; shows <= hi; shows++) {
                    if (sp->bends)
                        push_turns(sp, st, list, e, t, inward, shows, allowed);
                    else
                        push(list, K_PLACE, e, t, inward, shows, STRAIGHT);
                }
            }
        }
    }
}

/* the tiles of `mask` that can be placed somewhere on the board */
static mask_t fitting(const Spec *sp, const KState *st, mask_t mask) {
    if (!mask)
        return 0;
    if (st->nplaced == 0)
        return mask;
    mask_t found = 0;
    if (!sp->general && !sp->even_closure) {
        for (int e = 0; e < st->nends; e++) {
            const KEnd *end = &st->ends[e];
            if (!end->free)
                continue;
            found |= sp->bends ? sp->fit[end->value + FACE0][end->free]
                               : sp->face[end->value + FACE0];
        }
        return found & mask;
    }
    if (!sp->general && sp->bends) {
        /* even closing: the same masks as list_places, without building the list (issue
         * 24: fits() building the whole legal list was 26% of a Basic playout; see
         * closing_mask for what it bought) */
        for (int e = 0; e < st->nends; e++) {
            const KEnd *end = &st->ends[e];
            for (int turn = LEFT; turn <= RIGHT; turn++) {
                if (!(end->free & turn))
                    continue;
                mask_t cand = mask & sp->fit[end->value + FACE0][turn] & ~found;
                if (cand)
                    found |= cand & closing_mask(sp, st, e, turn);
            }
        }
        return found;
    }
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    list_places(sp, st, mask, &list);
    for (int k = 0; k < list.count; k++)
        found |= (mask_t)1 << buffer[k].tile;
    return found;
}

/* true if some tile of `mask` can be placed (the engine's _fits) */
static int fits(const Spec *sp, const KState *st, mask_t mask) {
    if (!mask)
        return 0;
    if (st->nplaced == 0)
        return 1;
    if (!sp->general && !sp->even_closure) {
        for (int e = 0; e < st->nends; e++) {
            const KEnd *end = &st->ends[e];
            if (!end->free)
                continue;
            mask_t cand = sp->bends ? sp->fit[end->value + FACE0][end->free]
                                    : sp->face[end->value + FACE0];
            if (mask & cand)
                return 1;
        }
        return 0;
    }
    return fitting(sp, st, mask) != 0;
}

static int list_moves(const Spec *sp, const KState *st, List *list) {
    list->count = 0;
    list->overflow = 0;
    if (st->phase != PLAYING) {
        if (st->phase == ROUND_OVER)
            push(list, K_NEXT, 0, 0, 0, 0, 0);
        return 0;
    }
    if (st->opening >= 0) {
        push_opening(sp, list, st->opening);
        return 0;
    }
    mask_t hand = st->hands[st->current];
    if (st->drawn)
        hand &= st->drawn; /* after drawing, only a drawn tile may be placed */
    list_places(sp, st, hand, list);
    int places = list->count;
    if (st->drawn) {
        if (!places)
            push(list, K_DRAW, 0, 0, 0, 0, 0);
        else if (!sp->must_play)
            push(list, K_PASS, 0, 0, 0, 0, 0);
    } else if (sp->draws && st->stock_pos < st->ndeck && (sp->voluntary || !places)) {
        push(list, K_DRAW, 0, 0, 0, 0, 0);
    } else if (!places) {
        push(list, K_PASS, 0, 0, 0, 0, 0);
    }
    return list->overflow ? E_UNSUPPORTED : 0;
}
