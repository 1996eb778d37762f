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

/* every placement of a tile of `mask`, in the engine's order (bendolib._placing) */
static void list_places(const Spec *sp, const KState *st, mask_t mask, List *list) {
    if (st->nplaced == 0) {
        for (mask_t m = mask; m; CLEAR_LOWEST(m))
            push_opening(sp, list, lowest_bit(m));
        return;
    }
    if (!sp->general) {
        /* the masks of KState.reach: per end, the tiles in ascending order, each laid
         * turning left, then right (issue 24: the listing was ~40% of a Basic playout,
         * recomputing the free turns' and the closing rule's masks every time) */
        Reach local;
        const Reach *reach = reach_of(sp, st, &local);
        for (int e = 0; e < st->nends; e++) {
            int value = st->ends[e].value;
            mask_t left = mask & reach->at[e][0], right = mask & reach->at[e][1];
            if (!sp->bends) {
                for (mask_t m = left; m; CLEAR_LOWEST(m)) {
                    int t = lowest_bit(m);
                    int shows = (sp->a[t] == value) ? sp->b[t] : sp->a[t];
                    push(list, K_PLACE, e, t, value, shows, STRAIGHT);
                }
                continue;
            }
            for (mask_t m = left | right; m; CLEAR_LOWEST(m)) {
                int t = lowest_bit(m);
                int shows = sp->a[t] != value ? sp->a[t] : sp->b[t];
                if (HAS_BIT(left, t))
                    push(list, K_PLACE, e, t, value, shows, LEFT);
                if (HAS_BIT(right, t))
                    push(list, K_PLACE, e, t, value, shows, RIGHT);
            }
        }
        return;
    }
    for (int e = 0; e < st->nends; e++) {
        const KEnd *end = &st->ends[e];
        int free = end->free, value = end->value;
        if (!free)
            continue;
        /* wild faces: the general listing */
        for (mask_t m = mask & (sp->face[value + FACE0] | sp->wild_mask); m; CLEAR_LOWEST(m)) {
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
    if (!sp->general) {
        /* issue 24: fits() building the whole legal list was 26% of a Basic playout */
        Reach local;
        return mask & reach_of(sp, st, &local)->all;
    }
    mask_t found = 0;
    KMove buffer[MAXMOVES];
    List list = {buffer, 0, 0};
    list_places(sp, st, mask, &list);
    for (int k = 0; k < list.count; k++)
        found |= BIT(buffer[k].tile);
    return found;
}

/* true if some tile of `mask` can be placed (the engine's _fits) */
static inline int fits(const Spec *sp, const KState *st, mask_t mask) {
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

/* -- a random legal move without the list ----------------------------------------- */

/* The count of a hand's tiles at an end, in the random policy's loop.  The x86-64
 * baseline has no popcount instruction: popcount64 is a library call there, so the
 * loop is compiled twice (random_move below), for the processors with the instruction
 * (chosen at run time, HW_POPCOUNT) and for the others (a loop per bit: the masks are
 * sparse).  Issue 24: the instruction is -5.5% time per Basic playout against the
 * loop per bit (interleaved runs); the library call was slower than either. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) &&   \
    !defined(__POPCNT__)
#define HW_POPCOUNT_DISPATCH 1
#define HW_POPCOUNT() __builtin_cpu_supports("popcnt")
#else
#define HW_POPCOUNT_DISPATCH 0
#define HW_POPCOUNT() 1 /* popcount64 is the instruction, or the only way */
#endif

static inline int tile_count(mask_t m, int hw) {
    if (hw)
        return popcount64(m);
    int n = 0;
    for (; m; CLEAR_LOWEST(m))
        n++;
    return n;
}

/* rng_below(rng, bound), the same draw, the remainder by a multiplication: with the
 * table's floor((2**64 - 1) / bound), the high half of value * that is the quotient or one
 * less, and one subtraction corrects the remainder.  Issue 24: -1.2% time per Basic
 * playout against the 64-bit division (interleaved runs, 2 and 4 players). */
#if defined(__SIZEOF_INT128__)
#define INV1(d) (UINT64_MAX / (d))
#define INV4(d) INV1(d), INV1((d) + 1), INV1((d) + 2), INV1((d) + 3)
#define INV16(d) INV4(d), INV4((d) + 4), INV4((d) + 8), INV4((d) + 12)
#define INV64(d) INV16(d), INV16((d) + 16), INV16((d) + 32), INV16((d) + 48)
static const uint64_t INVERSE[TABLED] = {0,         INV1(1),    INV1(2),    INV1(3),
                                         INV4(4),   INV4(8),    INV16(12),  INV16(28),
                                         INV16(44), INV64(60),  INV64(124), INV64(188),
                                         INV4(252)};

static inline int draw_below(Rng *rng, uint64_t bound) {
    if (bound >= TABLED)
        return rng_below(rng, bound);
    uint64_t rest = rests[bound], inverse = INVERSE[bound];
    for (;;) {
        uint64_t value = rng_next(rng);
        if (rest == 0 || value < (uint64_t)0 - rest) {
            uint64_t q = (uint64_t)(((unsigned __int128)value * inverse) >> 64);
            uint64_t r = value - q * bound;
            return (int)(r >= bound ? r - bound : r);
        }
    }
}
#else
#define draw_below rng_below
#endif

/* the index of the k-th set bit of m (k < popcount(m)) */
static inline int nth_bit(mask_t m, int k) {
    for (; k > 0; k--)
        CLEAR_LOWEST(m);
    return lowest_bit(m);
}

/* the move list_moves would list at index k (SplitMix64.below over its count, as the
 * random policy draws it), made without the list: its count from the masks of
 * KState.reach, then only the move drawn (issue 24: listing every move was ~40% of a
 * Basic playout; see play_one for what this buys).  For the rule sets without wild
 * faces, a state in play or at the end of a round; *index is the move's index. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void random_move_body(const Spec *sp, const KState *st, Rng *rng, KMove *out,
                                    int *index, int hw) {
    KMove one[1];
    List list = {one, 0, 0};
    if (st->phase != PLAYING || st->opening >= 0) {
        list_moves(sp, st, &list); /* one move: the next round, or the opening */
        *out = one[0];
        *index = 0;
        return;
    }
    mask_t hand = st->hands[st->current];
    if (st->drawn)
        hand &= st->drawn;
    Reach local;
    mask_t left[MAXE], right[MAXE];
    int places = 0, here[MAXE];
    if (st->nplaced == 0) {
        places = tile_count(hand, hw);
    } else {
        const Reach *reach = reach_of(sp, st, &local);
        for (int e = 0; e < st->nends; e++) {
            left[e] = hand & reach->at[e][0];
            right[e] = hand & reach->at[e][1];
            here[e] = tile_count(left[e] | right[e], hw) + tile_count(left[e] & right[e], hw);
            places += here[e];
        }
    }
    int extra = -1; /* the move after the placements, as list_moves adds it */
    if (st->drawn) {
        if (!places)
            extra = K_DRAW;
        else if (!sp->must_play)
            extra = K_PASS;
    } else if (sp->draws && st->stock_pos < st->ndeck && (sp->voluntary || !places)) {
        extra = K_DRAW;
    } else if (!places) {
        extra = K_PASS;
    }
    int count = places + (extra >= 0);
    int k = count > 1 ? draw_below(rng, (uint64_t)count) : 0;
    *index = k;
    if (k >= places) {
        *out = (KMove){(int8_t)extra, 0, 0, 0, 0, 0};
        return;
    }
    if (st->nplaced == 0) {
        push_opening(sp, &list, nth_bit(hand, k));
        *out = one[0];
        return;
    }
    int e = 0;
    while (k >= here[e])
        k -= here[e++];
    int value = st->ends[e].value, t, turn;
    if (!sp->bends) {
        t = nth_bit(left[e], k);
        turn = STRAIGHT;
    } else {
        /* the tiles in ascending order, each turning left, then right */
        for (mask_t m = left[e] | right[e];; CLEAR_LOWEST(m)) {
            t = lowest_bit(m);
            if (HAS_BIT(left[e], t)) {
                if (!k--) {
                    turn = LEFT;
                    break;
                }
            }
            if (HAS_BIT(right[e], t)) {
                if (!k--) {
                    turn = RIGHT;
                    break;
                }
            }
        }
    }
    int shows = sp->a[t] != value ? sp->a[t] : sp->b[t];
    *out = (KMove){K_PLACE, (int8_t)e, (tile_t)t, (int8_t)value, (int8_t)shows, (int8_t)turn};
}

static void random_move(const Spec *sp, const KState *st, Rng *rng, KMove *out, int *index) {
    random_move_body(sp, st, rng, out, index, HW_POPCOUNT_DISPATCH ? 0 : 1);
}

#if HW_POPCOUNT_DISPATCH
__attribute__((target("popcnt"))) static void random_move_hw(const Spec *sp, const KState *st,
                                                             Rng *rng, KMove *out, int *index) {
    random_move_body(sp, st, rng, out, index, 1);
}
#else
#define random_move_hw random_move
#endif
