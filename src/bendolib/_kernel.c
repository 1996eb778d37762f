/*
 * bendolib._kernel: whole playouts in compiled code.
 *
 * The specification is the Python engine (bendolib.engine) driven by
 * bendolib._playouts_reference: this file makes exactly the moves that code makes,
 * with the same SplitMix64 draws, and lists the legal moves in the engine's order.
 * bendolib._kernel_input turns a RuleSet into a flat "spec" tuple and a GameState into
 * a flat "state" tuple; anything this kernel does not know never reaches it (the
 * Python engine plays it instead).  Conditions met only inside a playout that the
 * kernel does not handle (a deal that never suits the start policy, a scorer asked
 * about a seat that laid no tile...) raise UnsupportedError, and the caller falls back.
 *
 * Data: tile sets of at most 64 tiles (hands, the drawn tiles and fit tables are
 * 64-bit masks), at most 8 players and 4 open ends.  On the curved lattice a cell is
 * kept in axial coordinates packed into 16 bits, ((q + 128) << 8) | (r + 128), so the
 * neighbour across a side is one addition; the occupancy is a short list of
 * (cell, 6-bit corner mask) pairs, which makes a state a plain copyable struct.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER)
#include <intrin.h>
#endif

typedef uint64_t mask_t;

#define MAXT 64        /* tiles in the set */
#define MAXP 8         /* players */
#define MAXE 4         /* open ends */
#define MAXOCC 160     /* occupied cells */
#define MAXMOVES 2048  /* legal moves of one position */
#define NFACE 64       /* faces -8 .. 55, stored at face + 8 */
#define FACE0 8
#define MAXEFF 8
#define MAXSTEPS 200000 /* moves of one playout (a match of many rounds included) */
#define RADIUS 48      /* spiral cells known to the importer */

/* turning senses and kinds of move, as in bendolib.tiles and bendolib.moves */
#define STRAIGHT 0
#define LEFT 1
#define RIGHT 2
#define BOTH 3
#define OPENING (-1)
enum { K_PLACE = 0, K_DRAW = 1, K_PASS = 2, K_NEXT = 3 };
enum { PLAYING = 0, ROUND_OVER = 1, GAME_OVER = 2 };
enum { NEVER = 0, ONCE = 1, UNTIL_FITS = 2 };
enum { START_NONE = 0, START_HIGHEST_DOUBLE = 1, START_HOLDER = 2, START_FIXED = 3 };
enum { SCORE_WINNER_TAKES = 1, SCORE_FINISHING_ORDER = 2, SCORE_HIGHEST_PLAY = 3 };
enum { EFFECT_REVERSE = 1, EFFECT_NEXT_DRAWS = 2 };
enum { POLICY_RANDOM = 0, POLICY_HEAVIEST = 1, POLICY_GREEDY = 2 };

/* error codes of the playing functions (0 is success) */
#define E_UNSUPPORTED (-1)

static PyObject *UnsupportedError;

/* -- bits ---------------------------------------------------------------------- */

static inline int popcount64(mask_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
#endif
}

static inline int lowest_bit(mask_t x) { /* index of the lowest set bit; x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#elif defined(_MSC_VER) && defined(_M_X64)
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
#else
    int i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* -- SplitMix64 (bendolib._rng) ------------------------------------------------- */

#define GOLDEN 0x9E3779B97F4A7C15ULL

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t derive_seed2(uint64_t seed, uint64_t label1, uint64_t label2, int labels) {
    uint64_t value = mix64(seed);
    value = mix64(value ^ ((label1 + 1) * GOLDEN));
    if (labels > 1)
        value = mix64(value ^ ((label2 + 1) * GOLDEN));
    return value;
}

typedef struct {
    uint64_t state;
} Rng;

static inline uint64_t rng_next(Rng *rng) {
    rng->state += GOLDEN;
    return mix64(rng->state);
}

/* A uniform integer below bound (> 0): draws at or above 2**64 - 2**64 % bound are
 * rejected, as SplitMix64.below does. */
#define TABLED 256
static uint64_t rests[TABLED]; /* 2**64 % bound, for the bounds below TABLED */

static inline int rng_below(Rng *rng, uint64_t bound) {
    uint64_t rest = bound < TABLED ? rests[bound] : ((uint64_t)0 - bound) % bound;
    for (;;) {
        uint64_t value = rng_next(rng);
        if (rest == 0 || value < (uint64_t)0 - rest)
            return (int)(value % bound);
    }
}

/* -- the lattice ---------------------------------------------------------------- */

/* axial offset of the neighbour across side k, as a packed-cell delta */
static const int DELTA[6] = {256, 1, -255, -256, -1, 255};
#define CELL(q, r) ((uint16_t)((((q) + 128) << 8) | ((r) + 128)))
#define COLLISION(c) ((uint8_t)((1u << (((c) + 5) % 6)) | (1u << (c)) | (1u << (((c) + 1) % 6))))

/* the spiral numbering of bendolib.geometry.lattice, to read imported cells */
static int spiral_cells = 0;
static uint16_t spiral[3 * RADIUS * (RADIUS + 1) + 1];

static void build_spiral(void) {
    static const int dq[6] = {1, 0, -1, -1, 0, 1};
    static const int dr[6] = {0, 1, 1, 0, -1, -1};
    int n = 0;
    spiral[n++] = CELL(0, 0);
    for (int d = 1; d <= RADIUS; d++) {
        int q = 0, r = -d; /* d * DIRECTIONS[4] */
        for (int side = 0; side < 6; side++)
            for (int k = 0; k < d; k++) {
                spiral[n++] = CELL(q, r);
                q += dq[side];
                r += dr[side];
            }
    }
    spiral_cells = n;
}

/* -- rules (a compiled RuleSet for one player count) --------------------------- */

typedef struct {
    int players, n, top, bends, general;
    int8_t a[MAXT], b[MAXT];
    int32_t points[MAXT];
    uint8_t turn[2 * MAXT]; /* turning senses read from face a (2i) or b (2i + 1) */
    mask_t face[NFACE];     /* tiles carrying each face */
    mask_t fit[NFACE][4];   /* curved tiles that turn into a free-turn mask from a face */
    mask_t doubles, full, wild_mask;
    uint64_t wild_faces;    /* bit face + 8 */
    int hand_size, table_tiles;
    int start_kind, start_tile, start_redeal, start_opens, start_seat, start_split;
    mask_t twins[MAXT]; /* the tiles with each tile's numbers (both bends of a pair) */
    int has_twins;
    int when_stuck, voluntary, must_play, batch, max_per_turn, draws;
    int finish_last;
    int scoring;
    int lowest_side, locker_loses, minus_own, out_wins, takes_all;
    int64_t win_points;     /* -1: pips */
    int64_t place_points[MAXP];
    int share, round_up;
    int64_t target;
    int nsides, side_of[MAXP], side_size[MAXP], side_seats[MAXP][MAXP];
    int multiple;           /* All Five's play scoring, 0: none */
    int neffects, effect_face[MAXEFF], effect_kind[MAXEFF], effect_count[MAXEFF];
    int even_closure, drain_blocked, draw_and_pass, end_in_play;
} Spec;

/* -- states ---------------------------------------------------------------------- */

typedef struct {
    int8_t value;
    uint8_t free;
    int8_t side;
    uint16_t cell;
} KEnd;

typedef struct {
    int8_t kind, end, tile, inward, shows, turn;
} KMove;

typedef struct {
    mask_t hands[MAXP];
    mask_t drawn;
    int8_t deck[MAXT];
    int ndeck, stock_pos, current, drawn_count, last_placer, opening, direction, phase;
    int match_winner;
    int64_t round_number;
    uint64_t seed;
    int64_t scores[MAXP], play_points[MAXP];
    int8_t out[MAXP];
    int nout, nplaced, nends, nocc;
    KEnd ends[MAXE];
    uint16_t occ_cell[MAXOCC];
    uint8_t occ_mask[MAXOCC];
    uint64_t occ_bloom; /* bit OCC_HASH(cell) of every occupied cell (corners' fast miss) */
    /* the latest finished round */
    int has_result, r_blocked, r_nout, r_nwinners;
    int8_t r_order[MAXP], r_winners[MAXP];
    int64_t r_hand[MAXP], r_points[MAXP];
} KState;

static inline int is_wild(const Spec *sp, int face) {
    return (sp->wild_faces >> (face + FACE0)) & 1;
}

static inline int turn_from(const Spec *sp, int tile, int face) {
    return sp->turn[2 * tile + (face != sp->a[tile])];
}

/* a cell's bit in KState.occ_bloom: about 8q + r mod 64 (distinct for nearby cells) */
#define OCC_HASH(cell) ((((cell) >> 5) + (cell)) & 63)

static inline uint8_t corners(const KState *st, uint16_t cell) {
    /* most lookups are of empty cells (the cells beyond the chain's ends): one bit test
     * instead of a scan of every occupied cell (issue 24: placing a tile was 20%; with
     * the closing table, -7.1% instructions per Basic playout) */
    if (!((st->occ_bloom >> OCC_HASH(cell)) & 1))
        return 0;
    for (int i = 0; i < st->nocc; i++)
        if (st->occ_cell[i] == cell)
            return st->occ_mask[i];
    return 0;
}

static int occupy(KState *st, uint16_t cell, int corner) {
    for (int i = 0; i < st->nocc; i++)
        if (st->occ_cell[i] == cell) {
            st->occ_mask[i] |= (uint8_t)(1u << corner);
            return 0;
        }
    if (st->nocc >= MAXOCC)
        return E_UNSUPPORTED;
    st->occ_cell[st->nocc] = cell;
    st->occ_mask[st->nocc++] = (uint8_t)(1u << corner);
    st->occ_bloom |= (uint64_t)1 << OCC_HASH(cell);
    return 0;
}

/* free turns of an end leaving cell through side: the positions beyond not overlapped */
static inline uint8_t free_turns(const KState *st, uint16_t cell, int side) {
    uint8_t used = corners(st, (uint16_t)(cell + DELTA[side]));
    return (uint8_t)(((used & COLLISION((side + 3) % 6)) ? 0 : LEFT) |
                     ((used & COLLISION((side + 4) % 6)) ? 0 : RIGHT));
}

/* -- boards ---------------------------------------------------------------------- */

/* faces (at side corner-1, at side corner) so that the tile reads right-turning */
static void orientation(const Spec *sp, int tile, int first, int *x, int *y) {
    int second = (first == sp->a[tile]) ? sp->b[tile] : sp->a[tile];
    if (sp->a[tile] == sp->b[tile] || (turn_from(sp, tile, first) & RIGHT)) {
        *x = first;
        *y = second;
    } else {
        *x = second;
        *y = first;
    }
}

/* the board opened by one or two tiles (read from face a), on an empty board */
static int open_board(const Spec *sp, KState *st, const int *tiles, int count) {
    static const int corner_of[2] = {0, 3};
    st->nocc = 0;
    st->occ_bloom = 0;
    st->nends = 0;
    if (!sp->bends) {
        int t = tiles[0];
        st->ends[0].value = sp->a[t];
        st->ends[1].value = sp->b[t];
        st->ends[0].free = st->ends[1].free = BOTH;
        st->ends[0].cell = st->ends[1].cell = 0;
        st->ends[0].side = st->ends[1].side = -1;
        st->nends = 2;
        st->nplaced = 1;
        return 0;
    }
    uint16_t centre = CELL(0, 0);
    for (int k = 0; k < count; k++) {
        int corner = corner_of[k], x, y;
        orientation(sp, tiles[k], sp->a[tiles[k]], &x, &y);
        if (occupy(st, centre, corner))
            return E_UNSUPPORTED;
        st->ends[st->nends].value = (int8_t)x;
        st->ends[st->nends].side = (int8_t)((corner + 5) % 6);
        st->ends[st->nends + 1].value = (int8_t)y;
        st->ends[st->nends + 1].side = (int8_t)corner;
        st->nends += 2;
    }
    for (int e = 0; e < st->nends; e++) {
        st->ends[e].cell = centre;
        st->ends[e].free = free_turns(st, centre, st->ends[e].side);
    }
    st->nplaced = count;
    return 0;
}

/* the new end's cell and side when a tile turning `turn` is laid at end e */
static inline void step(const KEnd *end, int turn, uint16_t *target, int *corner, int *exit) {
    *target = (uint16_t)(end->cell + DELTA[end->side]);
    if (turn == LEFT) {
        *corner = (end->side + 3) % 6;
        *exit = (end->side + 2) % 6;
    } else {
        *corner = (end->side + 4) % 6;
        *exit = (end->side + 4) % 6;
    }
}

/* lay a tile at end e (not an opening): the end now shows `shows` */
static int place_on_board(const Spec *sp, KState *st, int e, int turn, int shows) {
    st->nplaced++;
    if (!sp->bends) {
        st->ends[e].value = (int8_t)shows;
        st->ends[e].free = BOTH;
        return 0;
    }
    uint16_t target;
    int corner, exit;
    step(&st->ends[e], turn, &target, &corner, &exit);
    if (occupy(st, target, corner))
        return E_UNSUPPORTED;
    st->ends[e].value = (int8_t)shows;
    st->ends[e].cell = target;
    st->ends[e].side = (int8_t)exit;
    st->ends[e].free = free_turns(st, target, exit);
    for (int i = 0; i < st->nends; i++) {
        /* only an end leading into the new tile's cell can lose a free position */
        KEnd *other = &st->ends[i];
        if (i == e || !other->free)
            continue;
        if ((uint16_t)(other->cell + DELTA[other->side]) == target)
            other->free = free_turns(st, other->cell, other->side);
    }
    return 0;
}

/* the even-closure rule: a placement whose new end would face another open end of
 * the chain is legal only when it shows that end's number */
static int closes_evenly(const KState *st, int e, int turn, int shows) {
    uint16_t target;
    int corner, exit;
    step(&st->ends[e], turn, &target, &corner, &exit);
    uint16_t facing = (uint16_t)(target + DELTA[exit]);
    int back = (exit + 3) % 6;
    for (int i = 0; i < st->nends; i++)
        if (i != e && st->ends[i].cell == facing && st->ends[i].side == back &&
            st->ends[i].value != shows)
            return 0;
    return 1;
}

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
    m->tile = (int8_t)tile;
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

/* -- the end of a round --------------------------------------------------------- */

static int64_t hand_points(const Spec *sp, mask_t hand) {
    int64_t total = 0;
    for (; hand; hand &= hand - 1)
        total += sp->points[lowest_bit(hand)];
    return total;
}

/* *acc += x, or E_UNSUPPORTED when the sum leaves 64 bits (the Python engine's ints
 * do not overflow: it plays such scores) */
static inline int add_checked(int64_t *acc, int64_t x) {
    if ((x > 0 && *acc > INT64_MAX - x) || (x < 0 && *acc < INT64_MIN - x))
        return E_UNSUPPORTED;
    *acc += x;
    return 0;
}

static int64_t floor_div(int64_t x, int64_t y) {
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
        q--;
    return q;
}

/* WinnerTakesPips._blocked_winner; E_UNSUPPORTED where Python would raise */
static int blocked_winner(const Spec *sp, const KState *st, const int64_t *hp, int *winner) {
    int players = sp->players;
    *winner = -1;
    if (sp->lowest_side) {
        int64_t totals[MAXP], low = 0;
        int tied = 0, side = -1;
        for (int i = 0; i < sp->nsides; i++) {
            totals[i] = 0;
            for (int k = 0; k < sp->side_size[i]; k++)
                totals[i] += hp[sp->side_seats[i][k]];
            if (i == 0 || totals[i] < low)
                low = totals[i];
        }
        for (int i = 0; i < sp->nsides; i++)
            if (totals[i] == low) {
                if (side < 0)
                    side = i;
                tied++;
            }
        if (tied > 1) {
            if (!sp->locker_loses || sp->nsides != 2)
                return 0;
            if (st->last_placer < 0)
                return E_UNSUPPORTED; /* side_of(-1) raises */
            side = 1 - sp->side_of[st->last_placer];
        }
        int best = -1;
        for (int k = 0; k < sp->side_size[side]; k++) {
            int s = sp->side_seats[side][k];
            if (best < 0 || hp[s] < hp[best] || (hp[s] == hp[best] && s < best))
                best = s;
        }
        *winner = best;
        return 0;
    }
    int64_t low = hp[0];
    for (int s = 1; s < players; s++)
        if (hp[s] < low)
            low = hp[s];
    int first = -1, one_side = 1;
    for (int s = 0; s < players; s++)
        if (hp[s] == low) {
            if (first < 0)
                first = s;
            else if (sp->side_of[s] != sp->side_of[first])
                one_side = 0;
        }
    if (one_side) {
        *winner = first;
        return 0;
    }
    if (sp->locker_loses) {
        if (st->last_placer < 0)
            return E_UNSUPPORTED;
        int locker = sp->side_of[st->last_placer], other = -1, other_side = -1, single = 1;
        for (int s = 0; s < players; s++)
            if (hp[s] == low && sp->side_of[s] != locker) {
                if (other < 0) {
                    other = s;
                    other_side = sp->side_of[s];
                } else if (sp->side_of[s] != other_side) {
                    single = 0;
                }
            }
        if (other >= 0 && single)
            *winner = other;
    }
    return 0;
}

static int score_round(const Spec *sp, const KState *st, int blocked, const int64_t *hp,
                       int64_t *points, int8_t *winners, int *nwinners) {
    int players = sp->players;
    for (int s = 0; s < players; s++)
        points[s] = 0;
    *nwinners = 0;
    if (sp->scoring == SCORE_WINNER_TAKES) {
        int winner;
        if (st->nout && sp->out_wins) {
            winner = st->out[0];
        } else {
            int err = blocked_winner(sp, st, hp, &winner);
            if (err)
                return err;
        }
        if (winner < 0)
            return 0;
        winners[0] = (int8_t)winner;
        *nwinners = 1;
        if (sp->win_points >= 0) {
            points[winner] = sp->win_points;
            return 0;
        }
        int64_t won = 0;
        for (int s = 0; s < players; s++)
            won += hp[s];
        if (!sp->takes_all) {
            int side = sp->side_of[winner];
            for (int k = 0; k < sp->side_size[side]; k++)
                won -= hp[sp->side_seats[side][k]];
        }
        if (sp->minus_own) {
            won -= hp[winner];
            if (won < 0)
                won = 0;
        }
        points[winner] = won;
        return 0;
    }
    if (sp->scoring == SCORE_FINISHING_ORDER) {
        /* the seats out in order, then fewest points in hand (lower seat first) */
        int order[MAXP] = {0}, n = 0;
        for (int k = 0; k < st->nout; k++)
            order[n++] = st->out[k];
        int rest_start = n;
        for (int s = 0; s < players; s++) {
            int gone = 0;
            for (int k = 0; k < st->nout; k++)
                if (st->out[k] == s)
                    gone = 1;
            if (gone)
                continue;
            int at = n++;
            while (at > rest_start &&
                   (hp[order[at - 1]] > hp[s] || (hp[order[at - 1]] == hp[s] && order[at - 1] > s))) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = s;
        }
        for (int place = 0; place < n; place++)
            points[order[place]] = sp->place_points[place];
        if (!sp->share) {
            winners[0] = (int8_t)order[0];
            *nwinners = 1;
            return 0;
        }
        int place = st->nout;
        while (place < n) {
            int end = place + 1;
            int64_t held = hp[order[place]];
            while (end < n && hp[order[end]] == held)
                end++;
            int64_t sum = 0;
            for (int k = place; k < end; k++)
                if (add_checked(&sum, sp->place_points[k]))
                    return E_UNSUPPORTED;
            if (sum == INT64_MIN)
                return E_UNSUPPORTED; /* -sum below */
            int64_t share = sp->round_up ? -floor_div(-sum, end - place) : floor_div(sum, end - place);
            for (int k = place; k < end; k++)
                points[order[k]] = share;
            place = end;
        }
        if (st->nout) {
            winners[0] = (int8_t)order[0];
            *nwinners = 1;
        } else {
            int64_t low = hp[order[0]];
            for (int k = 0; k < n; k++)
                if (hp[order[k]] == low)
                    winners[(*nwinners)++] = (int8_t)order[k];
        }
        return 0;
    }
    /* HighestPlayScore */
    int64_t best = st->play_points[0];
    for (int s = 1; s < players; s++)
        if (st->play_points[s] > best)
            best = st->play_points[s];
    int top = -1, tied = 0;
    for (int s = 0; s < players; s++)
        if (st->play_points[s] == best) {
            if (top < 0)
                top = s;
            tied++;
        }
    if (tied > 1) {
        if (!st->nout || st->play_points[st->out[0]] != best)
            return 0;
        top = st->out[0];
    }
    int64_t bonus = 0;
    for (int s = 0; s < players; s++)
        if (s != top)
            bonus += hp[s];
    points[top] = bonus;
    winners[0] = (int8_t)top;
    *nwinners = 1;
    return 0;
}

/* the winning side of the match, or -1 while it goes on (Match.winner); NO_SUM when a
 * side's total leaves 64 bits */
#define NO_SUM (-2)
static int match_winner(const Spec *sp, const KState *st) {
    int64_t totals[MAXP], best = 0;
    for (int i = 0; i < sp->nsides; i++) {
        totals[i] = 0;
        for (int k = 0; k < sp->side_size[i]; k++)
            if (add_checked(&totals[i], st->scores[sp->side_seats[i][k]]))
                return NO_SUM;
        if (i == 0 || totals[i] > best)
            best = totals[i];
    }
    if (best < sp->target)
        return -1;
    int leader = -1;
    for (int i = 0; i < sp->nsides; i++)
        if (totals[i] == best) {
            if (leader >= 0)
                return -1;
            leader = i;
        }
    return leader;
}

static int finish_round(const Spec *sp, KState *st, int blocked) {
    int players = sp->players;
    int64_t hp[MAXP] = {0}, points[MAXP] = {0};
    int8_t winners[MAXP] = {0};
    int nwinners;
    for (int s = 0; s < players; s++)
        hp[s] = hand_points(sp, st->hands[s]);
    int err = score_round(sp, st, blocked, hp, points, winners, &nwinners);
    if (err)
        return err;
    for (int s = 0; s < players; s++) {
        if (add_checked(&st->scores[s], points[s]))
            return E_UNSUPPORTED;
        st->r_hand[s] = hp[s];
        st->r_points[s] = points[s];
    }
    st->has_result = 1;
    st->r_blocked = blocked;
    st->r_nout = st->nout;
    memcpy(st->r_order, st->out, sizeof st->out);
    st->r_nwinners = nwinners;
    memcpy(st->r_winners, winners, sizeof winners);
    int winner = match_winner(sp, st);
    if (winner == NO_SUM)
        return E_UNSUPPORTED;
    st->phase = winner >= 0 ? GAME_OVER : ROUND_OVER;
    st->match_winner = winner;
    st->drawn = 0;
    st->drawn_count = 0;
    return 0;
}

/* -- dealing ---------------------------------------------------------------------- */

/* the highest number tile of mask (most points, then the higher top face), or -1 */
static int highest(const Spec *sp, mask_t mask) {
    int best = -1, best_points = -1, best_top = -1;
    for (; mask; mask &= mask - 1) {
        int t = lowest_bit(mask);
        if (sp->a[t] < 0)
            continue;
        int top = sp->a[t] > sp->b[t] ? sp->a[t] : sp->b[t];
        if (sp->points[t] > best_points || (sp->points[t] == best_points && top > best_top)) {
            best = t;
            best_points = sp->points[t];
            best_top = top;
        }
    }
    return best;
}

static int holder(const Spec *sp, const KState *st, int tile) {
    for (int s = 0; s < sp->players; s++)
        if ((st->hands[s] >> tile) & 1)
            return s;
    return -1;
}

/* the start decision: 1 for a redeal, 0 with *player and *opening set */
static int choose_start(const Spec *sp, const KState *st, int *player, int *opening) {
    if (sp->start_kind == START_FIXED) {
        *player = sp->start_seat;
        *opening = -1;
        return 0;
    }
    if (sp->start_kind == START_HOLDER && sp->start_tile >= 0) {
        int p = holder(sp, st, sp->start_tile);
        if (p >= 0) {
            *player = p;
            *opening = sp->start_tile;
            return 0;
        }
    }
    mask_t dealt = 0;
    for (int s = 0; s < sp->players; s++)
        dealt |= st->hands[s];
    int tile = highest(sp, dealt & sp->doubles);
    if (tile < 0) {
        if (sp->start_redeal)
            return 1;
        tile = highest(sp, dealt);
        if (tile < 0)
            return 1;
    }
    *player = holder(sp, st, tile);
    if (sp->start_split && sp->has_twins) {
        /* the highest tile dealt in both bends: its holders, the lowest seat first */
        mask_t copies = dealt & sp->twins[tile];
        int lowest = -1, holders = 0;
        for (int s = 0; s < sp->players; s++)
            if (st->hands[s] & copies) {
                if (lowest < 0)
                    lowest = s;
                holders++;
            }
        if (holders > 1 && sp->start_split == 1)
            return 1;
        *player = lowest;
        tile = lowest_bit(st->hands[lowest] & copies);
    }
    *opening = sp->start_opens ? tile : -1;
    return 0;
}

static int deal_round(const Spec *sp, KState *st, int64_t round_number) {
    if (sp->start_kind == START_NONE)
        return E_UNSUPPORTED;
    if (sp->start_kind == START_FIXED && sp->start_seat >= sp->players)
        return E_UNSUPPORTED; /* FixedSeat raises RuleSetError */
    if ((long long)sp->hand_size * sp->players + sp->table_tiles > sp->n)
        return E_UNSUPPORTED; /* hands beyond the deck: the Python engine deals them */
    for (int attempt = 0; attempt < 1000; attempt++) {
        Rng rng = {derive_seed2(st->seed, (uint64_t)round_number, (uint64_t)attempt, 2)};
        int n = sp->n;
        for (int i = 0; i < n; i++)
            st->deck[i] = (int8_t)i;
        for (int i = n - 1; i > 0; i--) {
            int j = rng_below(&rng, (uint64_t)(i + 1));
            int8_t t = st->deck[i];
            st->deck[i] = st->deck[j];
            st->deck[j] = t;
        }
        st->ndeck = n;
        int pos = 0;
        for (int s = 0; s < sp->players; s++) {
            st->hands[s] = 0;
            for (int k = 0; k < sp->hand_size; k++)
                st->hands[s] |= (mask_t)1 << st->deck[pos++];
        }
        int player, opening;
        if (choose_start(sp, st, &player, &opening))
            continue;
        int table[2], ntable = 0;
        while (ntable < sp->table_tiles && pos < n)
            table[ntable++] = st->deck[pos++];
        st->nplaced = 0;
        st->nends = 0;
        st->nocc = 0;
        st->occ_bloom = 0;
        if (ntable && open_board(sp, st, table, ntable))
            return E_UNSUPPORTED;
        st->round_number = round_number;
        st->opening = opening;
        st->direction = 1;
        st->nout = 0;
        for (int s = 0; s < sp->players; s++)
            st->play_points[s] = 0;
        st->phase = PLAYING;
        st->match_winner = -1;
        st->current = player;
        st->stock_pos = pos;
        st->drawn = 0;
        st->drawn_count = 0;
        st->last_placer = -1;
        return 0;
    }
    return E_UNSUPPORTED; /* RuleSetError: no valid deal */
}

/* -- applying moves --------------------------------------------------------------- */

static inline int mod(int x, int n) { return ((x % n) + n) % n; }

/* the next seat in the order of play that still holds tiles (engine._next_seat) */
static int next_seat(const Spec *sp, const KState *st, int seat) {
    /* a step of +-1 wraps with a compare, not mod()'s two divisions (issue 24: 12%; see
     * closing_mask for what it bought) */
    for (int k = 0; k < sp->players; k++) {
        seat += st->direction;
        if (seat >= sp->players || seat < 0)
            seat = (st->direction == 1 || st->direction == -1) ? (seat < 0 ? sp->players - 1 : 0)
                                                               : mod(seat, sp->players);
        if (st->hands[seat])
            break;
    }
    return seat;
}

static mask_t all_hands(const Spec *sp, const KState *st) {
    mask_t all = 0;
    for (int s = 0; s < sp->players; s++)
        all |= st->hands[s];
    return all;
}

static int blocked_now(const Spec *sp, const KState *st) {
    if (st->stock_pos < st->ndeck && sp->draws)
        return 0;
    return !fits(sp, st, all_hands(sp, st));
}

/* the turn passes on, or the round ends blocked (engine._end_turn) */
static int end_turn(const Spec *sp, KState *st) {
    if (blocked_now(sp, st))
        return finish_round(sp, st, 1);
    st->current = next_seat(sp, st, st->current);
    st->drawn = 0;
    st->drawn_count = 0;
    return 0;
}

static void apply_effects(const Spec *sp, KState *st, int tile) {
    for (int k = 0; k < sp->neffects; k++) {
        int face = sp->effect_face[k];
        if (face != sp->a[tile] && face != sp->b[tile])
            continue;
        if (sp->effect_kind[k] == EFFECT_REVERSE) {
            st->direction = -st->direction;
            continue;
        }
        /* NextDraws: the next seat holding tiles draws, as far as the stock lasts */
        int seat = st->current, found = -1;
        for (int i = 0; i < sp->players - 1; i++) {
            seat = mod(seat + st->direction, sp->players);
            if (st->hands[seat]) {
                found = seat;
                break;
            }
        }
        if (found < 0 || !sp->draws)
            continue;
        for (int i = 0; i < sp->effect_count[k] && st->stock_pos < st->ndeck; i++)
            st->hands[found] |= (mask_t)1 << st->deck[st->stock_pos++];
    }
}

/* the match won in play by the current player's placement: the round stops there, its
 * result scores no points and credits the placer (Match.target_check "at_once") */
static int stop_match(const Spec *sp, KState *st, int winner) {
    int player = st->current;
    if (!st->hands[player])
        st->out[st->nout++] = (int8_t)player;
    st->has_result = 1;
    st->r_blocked = 0;
    st->r_nout = st->nout;
    memcpy(st->r_order, st->out, sizeof st->out);
    for (int s = 0; s < sp->players; s++) {
        st->r_hand[s] = hand_points(sp, st->hands[s]);
        st->r_points[s] = 0;
    }
    st->r_nwinners = 1;
    st->r_winners[0] = (int8_t)player;
    st->phase = GAME_OVER;
    st->match_winner = winner;
    return 0;
}

static int do_place(const Spec *sp, KState *st, const KMove *m) {
    int player = st->current, err;
    if (m->end == OPENING) {
        int tile = m->tile;
        err = open_board(sp, st, &tile, 1);
    } else {
        err = place_on_board(sp, st, m->end, m->turn, m->shows);
    }
    if (err)
        return err;
    mask_t hand = st->hands[player] &= ~((mask_t)1 << m->tile);
    st->opening = -1;
    st->last_placer = player;
    st->drawn = 0;
    st->drawn_count = 0;
    if (sp->multiple) {
        int64_t total = 0;
        for (int e = 0; e < st->nends; e++)
            total += st->ends[e].value;
        if (total % sp->multiple == 0 && total != 0) {
            if (add_checked(&st->scores[player], total) || add_checked(&st->play_points[player], total))
                return E_UNSUPPORTED;
            if (sp->end_in_play) {
                int winner = match_winner(sp, st);
                if (winner == NO_SUM)
                    return E_UNSUPPORTED;
                if (winner >= 0)
                    return stop_match(sp, st, winner);
            }
        }
    }
    if (!hand)
        st->out[st->nout++] = (int8_t)player;
    if (sp->neffects)
        apply_effects(sp, st, m->tile);
    if (!hand) {
        if (!sp->finish_last)
            return finish_round(sp, st, 0);
        int holding = 0;
        for (int s = 0; s < sp->players; s++)
            holding += st->hands[s] != 0;
        if (holding <= 1)
            return finish_round(sp, st, 0);
    }
    return end_turn(sp, st);
}

static int do_draw(const Spec *sp, KState *st) {
    int player = st->current;
    int limit = sp->batch;
    if (sp->max_per_turn && sp->max_per_turn - st->drawn_count < limit)
        limit = sp->max_per_turn - st->drawn_count;
    if (limit == 1 && st->stock_pos >= st->ndeck)
        return E_UNSUPPORTED; /* IndexError in the engine */
    mask_t before = st->hands[player], mask = 0;
    int taken = 0;
    while (taken < limit && st->stock_pos < st->ndeck) {
        mask |= (mask_t)1 << st->deck[st->stock_pos++];
        taken++;
    }
    int could_place = sp->draw_and_pass && !st->drawn && fits(sp, st, before);
    mask_t hand = st->hands[player] |= mask;
    st->drawn |= mask;
    st->drawn_count += taken;
    if (could_place)
        return end_turn(sp, st); /* a voluntary draw is "draw and pass" */
    int keep = fits(sp, st, hand & st->drawn);
    if (!keep && sp->when_stuck == UNTIL_FITS && st->stock_pos < st->ndeck) {
        int more = !sp->max_per_turn || st->drawn_count < sp->max_per_turn;
        keep = more && !fits(sp, st, hand & ~st->drawn);
        if (keep && sp->drain_blocked) {
            /* nothing off the board fits anywhere: one tile a turn drains the stock */
            mask_t off = all_hands(sp, st);
            for (int i = st->stock_pos; i < st->ndeck; i++)
                off |= (mask_t)1 << st->deck[i];
            keep = fits(sp, st, off);
        }
    }
    if (keep)
        return 0;
    return end_turn(sp, st);
}

static int apply_move(const Spec *sp, KState *st, const KMove *m) {
    switch (m->kind) {
    case K_PLACE:
        return do_place(sp, st, m);
    case K_DRAW:
        return do_draw(sp, st);
    case K_PASS:
        return end_turn(sp, st);
    default:
        return deal_round(sp, st, st->round_number + 1);
    }
}

/* -- policies ----------------------------------------------------------------------- */

static int heaviest(const Spec *sp, const List *list) {
    int best = -1, points = -1, draw = -1;
    for (int k = 0; k < list->count; k++) {
        const KMove *m = &list->moves[k];
        if (m->kind == K_PLACE) {
            if (sp->points[m->tile] > points) {
                best = k;
                points = sp->points[m->tile];
            }
        } else if (m->kind == K_DRAW && draw < 0) {
            draw = k;
        }
    }
    if (best >= 0)
        return best;
    return draw >= 0 ? draw : 0;
}

/* GreedyBot: the heaviest placement leaving the most tiles of the hand playable */
static int greedy(const Spec *sp, const KState *st, const List *list, int *err) {
    int points = -1, ties = 0, first = -1, draw = -1;
    for (int k = 0; k < list->count; k++) {
        const KMove *m = &list->moves[k];
        if (m->kind == K_PLACE) {
            if (sp->points[m->tile] > points) {
                points = sp->points[m->tile];
                first = k;
                ties = 1;
            } else if (sp->points[m->tile] == points) {
                ties++;
            }
        } else if (m->kind == K_DRAW && draw < 0) {
            draw = k;
        }
    }
    if (first < 0)
        return draw >= 0 ? draw : 0;
    if (ties == 1)
        return first;
    int best = first, most = -1;
    mask_t hand = st->hands[st->current];
    for (int k = first; k < list->count; k++) {
        const KMove *m = &list->moves[k];
        if (m->kind != K_PLACE || sp->points[m->tile] != points)
            continue;
        mask_t rest = hand & ~((mask_t)1 << m->tile);
        int options = 0;
        if (rest) {
            KState after;
            /* only the board matters here: copy it */
            after.nplaced = st->nplaced;
            after.nends = st->nends;
            after.nocc = st->nocc;
            after.occ_bloom = st->occ_bloom;
            memcpy(after.ends, st->ends, sizeof st->ends);
            memcpy(after.occ_cell, st->occ_cell, st->nocc * sizeof st->occ_cell[0]);
            memcpy(after.occ_mask, st->occ_mask, st->nocc * sizeof st->occ_mask[0]);
            int e;
            if (m->end == OPENING) {
                int tile = m->tile;
                e = open_board(sp, &after, &tile, 1);
            } else {
                e = place_on_board(sp, &after, m->end, m->turn, m->shows);
            }
            if (e) {
                *err = e;
                return 0;
            }
            options = popcount64(fitting(sp, &after, sp->full) & rest);
        }
        if (options > most) {
            best = k;
            most = options;
        }
    }
    return best;
}

/* -- import from Python --------------------------------------------------------------- */

static int unsupported(const char *why) {
    PyErr_SetString(UnsupportedError, why);
    return -1;
}

/* item i of a tuple, an int of 64 bits: anything else is not for the kernel (an int
 * beyond 64 bits, say), so that the caller falls back on the Python engine */
static int get_long(PyObject *seq, Py_ssize_t i, long long *out) {
    PyObject *item = PyTuple_GetItem(seq, i);
    if (!item)
        return -1;
    if (!PyLong_Check(item))
        return unsupported("a value that is not an int");
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow)
        return unsupported("an int beyond 64 bits");
    if (*out == -1 && PyErr_Occurred())
        return -1;
    return 0;
}

/* read item i into var, refused (UnsupportedError) unless var holds it exactly */
#define GET(seq, i, var)                                                                   \
    do {                                                                                   \
        long long _v;                                                                      \
        if (get_long((seq), (i), &_v))                                                     \
            return -1;                                                                     \
        var = _v;                                                                          \
        if ((long long)(var) != _v)                                                        \
            return unsupported("an int beyond the kernel's range");                        \
    } while (0)

/* GET, refused unless lo <= value <= hi */
#define GET_IN(seq, i, var, lo, hi)                                                        \
    do {                                                                                   \
        GET(seq, i, var);                                                                  \
        if ((long long)(var) < (long long)(lo) || (long long)(var) > (long long)(hi))      \
            return unsupported("a value out of the kernel's range");                       \
    } while (0)

/* GET, a value above cap read as cap (a count or a limit beyond what any deal holds) */
#define GET_CAPPED(seq, i, var, cap)                                                       \
    do {                                                                                   \
        long long _c;                                                                      \
        if (get_long((seq), (i), &_c))                                                     \
            return -1;                                                                     \
        var = _c > (cap) ? (cap) : _c < -(cap) ? -(cap) : _c;                              \
    } while (0)

/* a tuple of size items (any size when negative); anything else (a list a user put in a
 * state, a result of the wrong length) is not for the kernel: the Python engine decides */
static int tuple_of(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj) || (size >= 0 && PyTuple_GET_SIZE(obj) != size)) {
        PyErr_Format(UnsupportedError, "kernel: %s is not a tuple of %zd", what, size);
        return -1;
    }
    return 0;
}

static void spec_destroy(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, "bendolib._kernel.Spec"));
}

/* spec tuple: see bendolib._kernel_input.spec_tuple */
static int read_spec(PyObject *t, Spec *sp) {
    memset(sp, 0, sizeof *sp);
    if (tuple_of(t, 12, "spec"))
        return -1;
    PyObject *head = PyTuple_GET_ITEM(t, 0), *tiles = PyTuple_GET_ITEM(t, 1),
             *wild = PyTuple_GET_ITEM(t, 2), *start = PyTuple_GET_ITEM(t, 3),
             *draw = PyTuple_GET_ITEM(t, 4), *scoring = PyTuple_GET_ITEM(t, 5),
             *places = PyTuple_GET_ITEM(t, 6), *sides = PyTuple_GET_ITEM(t, 7),
             *match = PyTuple_GET_ITEM(t, 8), *effects = PyTuple_GET_ITEM(t, 9),
             *flags = PyTuple_GET_ITEM(t, 10), *deal = PyTuple_GET_ITEM(t, 11);
    if (tuple_of(head, 4, "head") || tuple_of(tiles, -1, "tiles") || tuple_of(wild, -1, "wild") ||
        tuple_of(start, 6, "start") || tuple_of(draw, 5, "draw") || tuple_of(scoring, 7, "scoring") ||
        tuple_of(places, -1, "places") || tuple_of(sides, -1, "sides") || tuple_of(match, 2, "match") ||
        tuple_of(effects, -1, "effects") || tuple_of(flags, 4, "flags") || tuple_of(deal, 2, "deal"))
        return -1;
    GET(head, 0, sp->players);
    GET(head, 1, sp->top);
    GET(head, 2, sp->bends);
    GET(head, 3, sp->finish_last);
    sp->n = (int)PyTuple_GET_SIZE(tiles);
    if (sp->players < 1 || sp->players > MAXP || sp->n < 1 || sp->n > MAXT || sp->top < 0 ||
        sp->top > NFACE - FACE0 - 1)
        return unsupported("players, tiles or faces out of the kernel's range");
    for (int i = 0; i < sp->n; i++) {
        PyObject *tile = PyTuple_GET_ITEM(tiles, i);
        long long a, b, points, ta, tb;
        if (tuple_of(tile, 5, "tile"))
            return -1;
        GET(tile, 0, a);
        GET(tile, 1, b);
        GET_IN(tile, 2, points, -(1 << 30), 1 << 30);
        GET_IN(tile, 3, ta, 0, BOTH);
        GET_IN(tile, 4, tb, 0, BOTH);
        if (a < -FACE0 || a >= NFACE - FACE0 || b < -FACE0 || b >= NFACE - FACE0)
            return unsupported("a face out of the kernel's range");
        sp->a[i] = (int8_t)a;
        sp->b[i] = (int8_t)b;
        sp->points[i] = (int32_t)points;
        sp->turn[2 * i] = (uint8_t)ta;
        sp->turn[2 * i + 1] = (uint8_t)tb;
        sp->face[a + FACE0] |= (mask_t)1 << i;
        sp->face[b + FACE0] |= (mask_t)1 << i;
        if (a == b)
            sp->doubles |= (mask_t)1 << i;
    }
    sp->full = sp->n == 64 ? ~(mask_t)0 : (((mask_t)1 << sp->n) - 1);
    for (int i = 0; i < sp->n; i++) {
        for (int j = 0; j < sp->n; j++)
            if (sp->a[i] == sp->a[j] && sp->b[i] == sp->b[j])
                sp->twins[i] |= (mask_t)1 << j;
        if (sp->twins[i] != ((mask_t)1 << i))
            sp->has_twins = 1;
    }
    for (int f = 0; f < NFACE; f++)
        for (int i = 0; i < sp->n; i++) {
            int face = f - FACE0;
            if (face != sp->a[i] && face != sp->b[i])
                continue;
            int turn = turn_from(sp, i, face);
            for (int free = 1; free < 4; free++)
                if (turn & free)
                    sp->fit[f][free] |= (mask_t)1 << i;
        }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(wild); k++) {
        long long face;
        GET(wild, k, face);
        if (face < -FACE0 || face >= NFACE - FACE0)
            return unsupported("a wild face out of the kernel's range");
        sp->wild_faces |= (uint64_t)1 << (face + FACE0);
        sp->wild_mask |= sp->face[face + FACE0];
    }
    sp->general = sp->wild_mask != 0;
    GET_IN(start, 0, sp->start_kind, START_NONE, START_FIXED);
    GET_IN(start, 1, sp->start_tile, -1, sp->n - 1);
    GET(start, 2, sp->start_redeal);
    GET(start, 3, sp->start_opens);
    GET_IN(start, 4, sp->start_seat, 0, INT_MAX);
    GET_IN(start, 5, sp->start_split, 0, 2);
    GET_IN(draw, 0, sp->when_stuck, NEVER, UNTIL_FITS);
    GET(draw, 1, sp->voluntary);
    GET(draw, 2, sp->must_play);
    /* a batch or a limit beyond the tile set draws the whole stock, as it does at 2**20 */
    GET_CAPPED(draw, 3, sp->batch, 1 << 20);
    GET_CAPPED(draw, 4, sp->max_per_turn, 1 << 20);
    if (sp->max_per_turn < 0)
        return unsupported("a negative limit of draws");
    sp->draws = sp->when_stuck != NEVER;
    GET(scoring, 0, sp->scoring);
    GET(scoring, 1, sp->lowest_side);
    GET(scoring, 2, sp->locker_loses);
    GET(scoring, 3, sp->minus_own);
    GET(scoring, 4, sp->out_wins);
    GET(scoring, 5, sp->takes_all);
    GET(scoring, 6, sp->win_points);
    if (sp->scoring < SCORE_WINNER_TAKES || sp->scoring > SCORE_HIGHEST_PLAY)
        return unsupported("an unknown round scoring");
    if (PyTuple_GET_SIZE(places) > 2 + MAXP || PyTuple_GET_SIZE(places) == 1)
        return unsupported("too many place points");
    for (Py_ssize_t k = 2; k < PyTuple_GET_SIZE(places); k++)
        GET(places, k, sp->place_points[k - 2]);
    if (PyTuple_GET_SIZE(places)) {
        GET(places, 0, sp->share);
        GET(places, 1, sp->round_up);
    }
    sp->nsides = (int)PyTuple_GET_SIZE(sides);
    if (sp->nsides < 1 || sp->nsides > MAXP)
        return unsupported("sides out of the kernel's range");
    for (int i = 0; i < sp->players; i++)
        sp->side_of[i] = -1;
    for (int i = 0; i < sp->nsides; i++) {
        PyObject *side = PyTuple_GET_ITEM(sides, i);
        if (tuple_of(side, -1, "side"))
            return -1;
        sp->side_size[i] = (int)PyTuple_GET_SIZE(side);
        if (sp->side_size[i] > MAXP)
            return unsupported("a side out of the kernel's range");
        for (int k = 0; k < sp->side_size[i]; k++) {
            long long seat;
            GET(side, k, seat);
            if (seat < 0 || seat >= sp->players)
                return unsupported("a side seat out of range");
            sp->side_seats[i][k] = (int)seat;
            sp->side_of[seat] = i;
        }
    }
    for (int i = 0; i < sp->players; i++)
        if (sp->side_of[i] < 0)
            return unsupported("a seat on no side");
    GET(match, 0, sp->target);
    /* a multiple beyond any sum of four ends scores as it does at 2**20: never */
    GET_CAPPED(match, 1, sp->multiple, 1 << 20);
    sp->neffects = (int)PyTuple_GET_SIZE(effects);
    if (sp->neffects > MAXEFF)
        return unsupported("too many effects");
    for (int k = 0; k < sp->neffects; k++) {
        PyObject *effect = PyTuple_GET_ITEM(effects, k);
        if (tuple_of(effect, 3, "effect"))
            return -1;
        GET(effect, 0, sp->effect_face[k]);
        GET_IN(effect, 1, sp->effect_kind[k], EFFECT_REVERSE, EFFECT_NEXT_DRAWS);
        GET_CAPPED(effect, 2, sp->effect_count[k], 1 << 20); /* beyond the stock: all of it */
    }
    GET(flags, 0, sp->even_closure);
    GET(flags, 1, sp->drain_blocked);
    GET(flags, 2, sp->draw_and_pass);
    GET(flags, 3, sp->end_in_play);
    GET(deal, 0, sp->hand_size);
    GET(deal, 1, sp->table_tiles);
    if (sp->table_tiles > 2 || sp->table_tiles < 0 || sp->hand_size < 0 || sp->batch < 1 ||
        (sp->even_closure && !sp->bends))
        return unsupported("a deal or draw the kernel does not know");
    return 0;
}

static PyObject *tri_compile(PyObject *arg);

static PyObject *k_compile(PyObject *self, PyObject *arg) {
    if (PyTuple_Check(arg) && PyTuple_GET_SIZE(arg) && PyUnicode_Check(PyTuple_GET_ITEM(arg, 0)))
        return tri_compile(arg); /* ("triangles", ...): _kernel_tri.c */
    Spec *sp = PyMem_Malloc(sizeof(Spec));
    if (!sp)
        return PyErr_NoMemory();
    if (read_spec(arg, sp)) {
        PyMem_Free(sp);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(sp, "bendolib._kernel.Spec", spec_destroy);
    if (!capsule)
        PyMem_Free(sp);
    return capsule;
}

static int read_int_tuple(PyObject *t, int64_t *out, int size, const char *what) {
    if (tuple_of(t, size, what))
        return -1;
    for (int i = 0; i < size; i++) {
        long long v;
        GET(t, i, v);
        out[i] = v;
    }
    return 0;
}

static int read_mask(PyObject *obj, mask_t *out) {
    if (!PyLong_Check(obj))
        return unsupported("a mask that is not an int");
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return unsupported("a mask beyond 64 tiles, or negative");
        }
        return -1;
    }
    *out = v;
    return 0;
}

/* state tuple: see bendolib._kernel_input.state_tuple */
static int read_state(const Spec *sp, PyObject *t, KState *st) {
    memset(st, 0, sizeof *st);
    if (tuple_of(t, 21, "state"))
        return -1;
    long long players, v;
    GET(t, 0, players);
    if (players != sp->players)
        return unsupported("the state's player count is not the spec's");
    PyObject *seed = PyTuple_GET_ITEM(t, 1);
    if (!PyLong_Check(seed))
        return unsupported("a seed that is not an int");
    st->seed = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return unsupported("a seed beyond 0..2**64 - 1");
    }
    GET(t, 2, st->round_number);
    if (st->round_number < 0 || st->round_number > ((int64_t)1 << 62))
        return unsupported("a round number out of range");
    PyObject *deck = PyTuple_GET_ITEM(t, 3);
    if (tuple_of(deck, -1, "deck"))
        return -1;
    st->ndeck = (int)PyTuple_GET_SIZE(deck);
    if (st->ndeck > MAXT)
        return unsupported("a deck beyond 64 tiles");
    for (int i = 0; i < st->ndeck; i++) {
        GET(deck, i, v);
        if (v < 0 || v >= sp->n)
            return unsupported("a deck index out of range");
        st->deck[i] = (int8_t)v;
    }
    GET(t, 4, st->stock_pos);
    if (st->stock_pos < 0 || st->stock_pos > st->ndeck)
        return unsupported("a stock position out of range");
    PyObject *hands = PyTuple_GET_ITEM(t, 5);
    if (tuple_of(hands, sp->players, "hands"))
        return -1;
    mask_t held = 0;
    for (int s = 0; s < sp->players; s++) {
        if (read_mask(PyTuple_GET_ITEM(hands, s), &st->hands[s]))
            return -1;
        if ((st->hands[s] & ~sp->full) || (st->hands[s] & held))
            return unsupported("a hand beyond the tile set, or hands sharing a tile");
        held |= st->hands[s];
    }
    GET(t, 6, st->current);
    if (st->current < 0 || st->current >= sp->players)
        return unsupported("a current player out of range");
    if (read_int_tuple(PyTuple_GET_ITEM(t, 7), st->scores, sp->players, "scores"))
        return -1;
    GET_IN(t, 8, st->opening, -1, sp->n - 1);
    if (read_mask(PyTuple_GET_ITEM(t, 9), &st->drawn))
        return -1;
    if (st->drawn & ~sp->full)
        return unsupported("drawn tiles beyond the tile set");
    GET_IN(t, 10, st->drawn_count, 0, MAXT);
    if (sp->max_per_turn && st->drawn_count > sp->max_per_turn)
        return unsupported("more tiles drawn this turn than the rules allow");
    GET(t, 11, st->direction);
    if (st->direction != 1 && st->direction != -1)
        return unsupported("a direction other than 1 or -1");
    PyObject *out = PyTuple_GET_ITEM(t, 12);
    if (tuple_of(out, -1, "out"))
        return -1;
    st->nout = (int)PyTuple_GET_SIZE(out);
    if (st->nout > sp->players)
        return unsupported("more seats out than players");
    for (int k = 0; k < st->nout; k++) {
        GET_IN(out, k, v, 0, sp->players - 1);
        for (int j = 0; j < k; j++)
            if (st->out[j] == v)
                return unsupported("a seat out twice");
        st->out[k] = (int8_t)v;
    }
    if (read_int_tuple(PyTuple_GET_ITEM(t, 13), st->play_points, sp->players, "play points"))
        return -1;
    GET_IN(t, 14, st->phase, PLAYING, GAME_OVER);
    if (st->phase == PLAYING && !st->hands[st->current])
        return unsupported("the player to move holds no tile"); /* never in play */
    GET_IN(t, 15, st->last_placer, -1, sp->players - 1);
    GET_IN(t, 16, st->match_winner, -1, sp->nsides - 1);
    GET_IN(t, 17, st->nplaced, 0, INT_MAX);
    PyObject *ends = PyTuple_GET_ITEM(t, 18);
    if (tuple_of(ends, -1, "ends"))
        return -1;
    st->nends = (int)PyTuple_GET_SIZE(ends);
    if (st->nends > MAXE)
        return unsupported("more than four open ends");
    for (int e = 0; e < st->nends; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long long value, free, cell, side;
        if (tuple_of(end, 4, "end"))
            return -1;
        GET(end, 0, value);
        GET(end, 1, free);
        GET(end, 2, cell);
        GET(end, 3, side);
        if (value < -FACE0 || value >= NFACE - FACE0 || free < 0 || free > 3)
            return unsupported("an end value out of the kernel's range");
        st->ends[e].value = (int8_t)value;
        st->ends[e].free = (uint8_t)free;
        st->ends[e].side = (int8_t)side;
        if (sp->bends) {
            if (cell < 0 || cell >= spiral_cells || side < 0 || side > 5)
                return unsupported("an end cell beyond the kernel's lattice");
            st->ends[e].cell = spiral[cell];
        }
    }
    PyObject *occupancy = PyTuple_GET_ITEM(t, 19);
    if (!PyBytes_Check(occupancy)) {
        PyErr_SetString(PyExc_TypeError, "kernel: occupancy must be bytes");
        return -1;
    }
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(occupancy);
    Py_ssize_t nbytes = PyBytes_GET_SIZE(occupancy);
    for (Py_ssize_t k = 0; k < nbytes; k++)
        for (int bit = 0; bit < 8; bit++)
            if ((bytes[k] >> bit) & 1) {
                long long position = k * 8 + bit;
                long long cell = position / 6;
                if (cell >= spiral_cells)
                    return unsupported("an occupied cell beyond the kernel's lattice");
                if (occupy(st, spiral[cell], (int)(position % 6)))
                    return unsupported("too many occupied cells");
            }
    PyObject *result = PyTuple_GET_ITEM(t, 20);
    if (result != Py_None) {
        if (tuple_of(result, 5, "result"))
            return -1;
        st->has_result = 1;
        GET(result, 0, st->r_blocked);
        PyObject *order = PyTuple_GET_ITEM(result, 1), *winners = PyTuple_GET_ITEM(result, 4);
        if (tuple_of(order, -1, "order") || tuple_of(winners, -1, "winners"))
            return -1;
        st->r_nout = (int)PyTuple_GET_SIZE(order);
        st->r_nwinners = (int)PyTuple_GET_SIZE(winners);
        if (st->r_nout > MAXP || st->r_nwinners > MAXP)
            return unsupported("a result beyond the kernel's range");
        for (int k = 0; k < st->r_nout; k++) {
            GET_IN(order, k, v, 0, sp->players - 1);
            st->r_order[k] = (int8_t)v;
        }
        for (int k = 0; k < st->r_nwinners; k++) {
            GET_IN(winners, k, v, 0, sp->players - 1);
            st->r_winners[k] = (int8_t)v;
        }
        if (read_int_tuple(PyTuple_GET_ITEM(result, 2), st->r_hand, sp->players, "hand points") ||
            read_int_tuple(PyTuple_GET_ITEM(result, 3), st->r_points, sp->players, "points"))
            return -1;
    }
    return 0;
}

static Spec *get_spec(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "bendolib._kernel.Spec");
}

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

/* an Outcome (a NamedTuple class) of the final state */
static PyObject *outcome(PyObject *cls, const Spec *sp, const KState *st, int moves,
                         PyObject *choices) {
    int players = sp->players;
    PyObject *items = PyTuple_New(10);
    if (!items)
        return NULL;
    PyTuple_SET_ITEM(items, 0, int64_tuple(st->scores, players));
    PyTuple_SET_ITEM(items, 1, PyLong_FromLong(st->phase));
    PyTuple_SET_ITEM(items, 2, PyLong_FromLong(st->match_winner));
    if (st->has_result) {
        PyTuple_SET_ITEM(items, 3, PyBool_FromLong(st->r_blocked));
        PyTuple_SET_ITEM(items, 4, int8_tuple(st->r_order, st->r_nout));
        PyTuple_SET_ITEM(items, 5, int64_tuple(st->r_hand, players));
        PyTuple_SET_ITEM(items, 6, int64_tuple(st->r_points, players));
        PyTuple_SET_ITEM(items, 7, int8_tuple(st->r_winners, st->r_nwinners));
    } else {
        PyTuple_SET_ITEM(items, 3, PyBool_FromLong(0));
        PyTuple_SET_ITEM(items, 4, PyTuple_New(0));
        PyTuple_SET_ITEM(items, 5, PyTuple_New(0));
        PyTuple_SET_ITEM(items, 6, PyTuple_New(0));
        PyTuple_SET_ITEM(items, 7, PyTuple_New(0));
    }
    PyTuple_SET_ITEM(items, 8, PyLong_FromLong(moves));
    Py_INCREF(choices);
    PyTuple_SET_ITEM(items, 9, choices);
    for (int i = 0; i < 10; i++)
        if (!PyTuple_GET_ITEM(items, i)) {
            Py_DECREF(items);
            return NULL;
        }
    PyObject *args = PyTuple_Pack(1, items);
    Py_DECREF(items);
    if (!args)
        return NULL;
    /* tuple.__new__(cls, items): the NamedTuple without its Python-level __new__ */
    PyObject *made = PyTuple_Type.tp_new((PyTypeObject *)cls, args, NULL);
    Py_DECREF(args);
    return made;
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
    *st = *b->root;
    Rng rng = {derive_seed2(b->seed, (uint64_t)i, 0, 1)};
    int moves = 0, err = 0;
    long forced = b->first ? b->first[i] : -1;
    while (b->until_match ? st->phase != GAME_OVER : st->phase == PLAYING) {
        int k;
        if (forced >= 0) {
            k = (int)forced;
            forced = -1;
            err = apply_move(sp, st, &b->root_moves[k]);
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
                int *more = PyMem_RawRealloc(*choices, grown * sizeof(int));
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

/* the triangle games (their spec, state, playouts, listing, perft and walk) */
#include "_kernel_tri.c"

/* run(spec, state, count, policy, seed, until_match, record, first, outcome_class): the
 * playouts, CHUNK at a time without the GIL (other threads run meanwhile), then their
 * outcomes built with it */
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
    if (first != Py_None && (!PyTuple_Check(first) || PyTuple_GET_SIZE(first) != count)) {
        PyErr_SetString(PyExc_TypeError, "kernel: first must be a tuple of count indices");
        return NULL;
    }
    KMove root_moves[MAXMOVES];
    List root_list = {root_moves, 0, 0};
    if (first != Py_None && list_moves(sp, &root, &root_list))
        return raise_for(-1), NULL;
    PyObject *results = NULL;
    long *forced = NULL;
    /* buffers for the playouts of one chunk, not always CHUNK states (1.2 MB): a small
     * call allocates what it uses (issue 24; no change in instructions counted, the
     * allocator reused the block) */
    Py_ssize_t chunk = count < CHUNK ? (count ? count : 1) : CHUNK;
    KState *finals = PyMem_Malloc(chunk * sizeof(KState));
    int *moves = PyMem_Malloc(chunk * sizeof(int));
    size_t *starts = PyMem_Malloc(chunk * sizeof(size_t));
    int *choices = NULL;
    size_t used = 0, capacity = 0;
    if (!finals || !moves || !starts) {
        PyErr_NoMemory();
        goto fail;
    }
    if (first != Py_None) {
        forced = PyMem_Malloc((count ? count : 1) * sizeof(long));
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
    Batch batch = {sp, &root, root_moves, forced, policy, until_match, record, seed};
    results = PyList_New(count);
    if (!results)
        goto fail;
    for (Py_ssize_t from = 0; from < count; from += CHUNK) {
        Py_ssize_t to = from + CHUNK < count ? from + CHUNK : count;
        int err = 0;
        used = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = from; i < to && !err; i++) {
            starts[i - from] = used;
            err = play_one(&batch, i, &finals[i - from], &choices, &used, &capacity,
                           &moves[i - from]);
        }
        Py_END_ALLOW_THREADS
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
            PyList_SET_ITEM(results, i, made);
        }
        if (gc_was_on)
            PyGC_Enable();
        if (PyErr_Occurred())
            goto fail;
    }
    PyMem_Free(finals);
    PyMem_Free(moves);
    PyMem_Free(starts);
    PyMem_Free(forced);
    PyMem_RawFree(choices);
    return results;
fail:
    PyMem_Free(finals);
    PyMem_Free(moves);
    PyMem_Free(starts);
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
        return raise_for(-1), NULL;
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
        return raise_for(-1), NULL;
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
    return raise_for(-1), NULL;
}

/* -- the step API's hot paths (bendolib.engine) -----------------------------------
 *
 * Compiled versions of the commonest cases of bendolib.engine's legal_moves and
 * apply (and of the placement on the built-in straight and bend geometries), working
 * on the engine's own Python values: they read and build the same GameState, Board,
 * End, Place and Placement instances, share the engine's memo tables (found in them,
 * or built there by the Python functions), and give exactly the values the Python
 * code gives.  Each returns None for anything else (the Python engine, which is the
 * specification, then does the work).  step_setup hands over the classes, tables and
 * Python helpers; the attrs slots are read and written at their offsets.
 */

#include <structmember.h>

enum { S_HANDS, S_BOARD, S_PLAYER, S_STOCK, S_DRAWN, S_DCOUNT, S_LAST, S_LOG, S_CONTEXT };
enum { C_RULES, C_PLAYERS, C_SEED, C_ROUND, C_DECK, C_SCORES, C_OPENING, C_DIRECTION, C_OUT,
       C_PLAYPOINTS, C_RESULTS, C_PHASE, C_WINNER, C_PAST, C_ORIGIN };
enum { B_PLACEMENTS, B_ENDS, B_OCC };
enum { E_VALUE, E_FREE, E_CELL, E_SIDE, E_LEFT, E_RIGHT };
enum { P_TILE, P_END, P_INWARD, P_SHOWS, P_TURN, P_POSITION };

#define MAXFIELDS 16
typedef struct {
    PyTypeObject *type;
    int n;
    Py_ssize_t off[MAXFIELDS];
} Layout;

static Layout L_state, L_context, L_board, L_end, L_place, L_placement, L_outcome, L_result;
#define FIELD(o, L, i) (*(PyObject **)((char *)(o) + (L).off[i]))

/* the Python helpers and tables, from step_setup */
static int step_ready = 0;
static PyObject *s_draw, *s_pass, *s_draw_type, *s_bend_type, *s_straight_type;
static PyObject *s_bend_at, *s_straight_at, *s_remember, *s_fits, *s_finish_round;
static PyObject *s_steps, *s_step, *s_slots, *s_slot, *s_ends_memo, *s_memo_end;
static PyObject *s_bend_placements, *s_straight_placements, *s_open_ends, *s_new_placement;
static PyObject *s_zero, *s_one_tuple_draw, *s_one_tuple_pass;
static long s_list_bend, s_list_straight, s_left, s_right, s_straight_turn, s_opening_end;
static PyObject *s_opening, *s_match_type, *s_bend_joints, *s_bend_closing, *s_memo_module, *s_closings_of;
static Layout L_position;

/* what the hot paths need of one rule set (the latest seen) */
typedef struct {
    PyObject *rules; /* strong reference; NULL when none */
    int ok;          /* a rule set these paths play */
    int listing, even_closing, geometry; /* geometry: 1 straight line, 2 bend lattice */
    int draws, voluntary, must_play, until_fits, one_each, pass_after_voluntary, first_out;
    int place_ok;    /* no effects, no play scoring */
    PyObject *tileset, *fit_masks, *face_mask, *memo, *by_id, *count_obj, *tiles, *turn_table;
    PyObject *scoring, *match, *sides[MAXP + 1]; /* sides: by player count, filled on use */
    int match_plain;  /* a Match: its winner is worked out here */
    long target;
    long points[64];
    long count;
} RulesInfo;

/* The latest rule set's facts, in a capsule that owns them: each call of step_legal or
 * step_apply holds a reference to the capsule it uses, so that another thread switching
 * to another rule set meanwhile (a Python callback can let it run) frees nothing in use. */
static PyObject *ri_current = NULL;

static int layout(Layout *L, PyObject *spec) {
    /* spec: (class, (field names in order)) */
    PyObject *type, *names;
    if (!PyArg_ParseTuple(spec, "OO!", &type, &PyTuple_Type, &names))
        return -1;
    if (!PyType_Check(type) || PyTuple_GET_SIZE(names) > MAXFIELDS) {
        PyErr_SetString(PyExc_TypeError, "step_setup: a class and at most 16 field names");
        return -1;
    }
    L->n = (int)PyTuple_GET_SIZE(names);
    for (int i = 0; i < L->n; i++) {
        PyObject *d = PyObject_GetAttr(type, PyTuple_GET_ITEM(names, i));
        if (!d)
            return -1;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "step_setup: %R is not a slot", PyTuple_GET_ITEM(names, i));
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX) {
            Py_DECREF(d);
            PyErr_SetString(PyExc_TypeError, "step_setup: not an object slot");
            return -1;
        }
        L->off[i] = m->offset;
        Py_DECREF(d);
    }
    Py_INCREF(type);
    L->type = (PyTypeObject *)type;
    return 0;
}

/* a new instance with every field set (new references taken) */
static PyObject *make(Layout *L, PyObject *const *values) {
    PyObject *o = L->type->tp_alloc(L->type, 0);
    if (!o)
        return NULL;
    for (int i = 0; i < L->n; i++) {
        Py_INCREF(values[i]);
        FIELD(o, *L, i) = values[i];
    }
    return o;
}

static PyObject *cfg(PyObject *config, const char *name) {
    PyObject *v = PyDict_GetItemString(config, name);
    if (!v)
        PyErr_Format(PyExc_KeyError, "step_setup: no %s", name);
    else
        Py_INCREF(v);
    return v;
}

static int cfg_long(PyObject *config, const char *name, long *out) {
    PyObject *v = cfg(config, name);
    if (!v)
        return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int tri_step_setup(PyObject *config); /* _kernel_tri_step.c */
static PyObject *tri_step_legal(PyObject *state, int *mine);
static PyObject *tri_step_apply(PyObject *const *args, int *mine);

static PyObject *k_step_setup(PyObject *self, PyObject *config) {
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "step_setup takes a dict");
        return NULL;
    }
    const char *layouts[] = {"GameState", "RoundContext", "Board", "End", "Place", "Placement",
                             "RoundOutcome", "RoundResult"};
    Layout *targets[] = {&L_state, &L_context, &L_board, &L_end, &L_place, &L_placement, &L_outcome, &L_result};
    for (int i = 0; i < 8; i++) {
        PyObject *spec = PyDict_GetItemString(config, layouts[i]);
        if (!spec) {
            PyErr_Format(PyExc_KeyError, "step_setup: no %s", layouts[i]);
            return NULL;
        }
        if (layout(targets[i], spec))
            return NULL;
    }
    if (L_state.n != 9 || L_context.n != 15 || L_board.n != 3 || L_end.n != 6 || L_place.n != 6 ||
        L_placement.n != 6 || L_outcome.n != 6 || L_result.n != 6) {
        PyErr_SetString(PyExc_TypeError, "step_setup: unexpected field counts");
        return NULL;
    }
#define SGET(var, name) if (!(var = cfg(config, name))) return NULL;
    SGET(s_draw, "DRAW") SGET(s_pass, "PASS") SGET(s_draw_type, "Draw")
    SGET(s_bend_type, "BendGeometry") SGET(s_straight_type, "StraightGeometry")
    SGET(s_bend_at, "bend_at") SGET(s_straight_at, "straight_at") SGET(s_remember, "remember")
    SGET(s_fits, "fits") SGET(s_finish_round, "finish_round")
    SGET(s_steps, "bend_steps") SGET(s_step, "bend_step") SGET(s_slots, "bend_slots")
    SGET(s_slot, "bend_slot") SGET(s_ends_memo, "bend_ends") SGET(s_memo_end, "bend_memo_end")
    SGET(s_bend_placements, "bend_placements") SGET(s_straight_placements, "straight_placements")
    SGET(s_open_ends, "straight_open_ends") SGET(s_new_placement, "new_placement")
    SGET(s_opening, "opening") SGET(s_match_type, "Match") SGET(s_bend_joints, "bend_joints")
    SGET(s_bend_closing, "bend_closing") SGET(s_memo_module, "memo") SGET(s_closings_of, "closings_of")
    {
        PyObject *spec = PyDict_GetItemString(config, "Position");
        if (!spec) {
            PyErr_SetString(PyExc_KeyError, "step_setup: no Position");
            return NULL;
        }
        if (layout(&L_position, spec))
            return NULL;
    }
#undef SGET
    if (cfg_long(config, "LIST_BEND", &s_list_bend) || cfg_long(config, "LIST_STRAIGHT", &s_list_straight) ||
        cfg_long(config, "LEFT", &s_left) || cfg_long(config, "RIGHT", &s_right) ||
        cfg_long(config, "STRAIGHT", &s_straight_turn) || cfg_long(config, "OPENING", &s_opening_end))
        return NULL;
    s_zero = PyLong_FromLong(0);
    s_one_tuple_draw = PyTuple_Pack(1, s_draw);
    s_one_tuple_pass = PyTuple_Pack(1, s_pass);
    if (!s_zero || !s_one_tuple_draw || !s_one_tuple_pass || tri_step_setup(config))
        return NULL;
    step_ready = 1;
    Py_RETURN_NONE;
}

/* a non-negative int of at most 64 bits; -1 (no error left) for anything else */
static inline int as_mask(PyObject *v, uint64_t *out) {
    if (!PyLong_CheckExact(v))
        return -1;
    uint64_t x = PyLong_AsUnsignedLongLong(v);
    if (x == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    *out = x;
    return 0;
}

/* an int that fits a long; -1 (no error left) for anything else */
static inline int as_long(PyObject *v, long *out) {
    if (!PyLong_CheckExact(v))
        return -1;
    int overflow;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    *out = x;
    return 0;
}

static int attr_truth(PyObject *o, const char *name) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

static int attr_is(PyObject *o, const char *name, const char *text) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int same = PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, text) == 0;
    Py_DECREF(v);
    return same;
}

static int attr_is_none(PyObject *o, const char *name) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (!v)
        return -1;
    int none = v == Py_None;
    Py_DECREF(v);
    return none;
}

static void ri_clear(RulesInfo *ri) {
    Py_CLEAR(ri->rules);
    Py_CLEAR(ri->tileset);
    Py_CLEAR(ri->fit_masks);
    Py_CLEAR(ri->face_mask);
    Py_CLEAR(ri->memo);
    Py_CLEAR(ri->by_id);
    Py_CLEAR(ri->count_obj);
    Py_CLEAR(ri->tiles);
    Py_CLEAR(ri->turn_table);
    Py_CLEAR(ri->scoring);
    Py_CLEAR(ri->match);
    for (int i = 0; i <= MAXP; i++)
        Py_CLEAR(ri->sides[i]);
    ri->match_plain = 0;
    ri->ok = 0;
}

static void ri_free(PyObject *capsule) {
    RulesInfo *ri = PyCapsule_GetPointer(capsule, "bendolib._kernel.RulesInfo");
    if (ri) {
        ri_clear(ri);
        PyMem_Free(ri);
    }
}

static RulesInfo *rules_facts(RulesInfo *ri, PyObject *rules);

/* the facts of ``rules`` and a new reference to the capsule that owns them (*owner);
 * NULL on an error */
static RulesInfo *rules_info(PyObject *rules, PyObject **owner) {
    if (ri_current) {
        RulesInfo *ri = PyCapsule_GetPointer(ri_current, "bendolib._kernel.RulesInfo");
        if (ri && ri->rules == rules) {
            Py_INCREF(ri_current);
            *owner = ri_current;
            return ri;
        }
    }
    RulesInfo *ri = PyMem_Calloc(1, sizeof(RulesInfo));
    if (!ri) {
        PyErr_NoMemory();
        return NULL;
    }
    if (!rules_facts(ri, rules)) {
        ri_clear(ri);
        PyMem_Free(ri);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(ri, "bendolib._kernel.RulesInfo", ri_free);
    if (!capsule) {
        ri_clear(ri);
        PyMem_Free(ri);
        return NULL;
    }
    Py_INCREF(capsule);
    Py_XSETREF(ri_current, capsule);
    *owner = capsule;
    return ri;
}

/* fill ``ri`` (zeroed) with the facts of ``rules``; NULL on an error */
static RulesInfo *rules_facts(RulesInfo *ri, PyObject *rules) {
    Py_INCREF(rules);
    ri->rules = rules;
    PyObject *geometry = NULL, *draw = NULL, *tiles = NULL;
    long listing;
    PyObject *v = PyObject_GetAttrString(rules, "listing");
    if (!v)
        goto fail;
    if (as_long(v, &listing)) {
        Py_DECREF(v);
        return ri; /* not ok */
    }
    Py_DECREF(v);
    ri->listing = (int)listing;
    if (listing != s_list_bend && listing != s_list_straight)
        return ri;
    if ((ri->even_closing = attr_truth(rules, "even_closing")) < 0)
        goto fail;
    if (!(geometry = PyObject_GetAttrString(rules, "geometry")))
        goto fail;
    ri->geometry = (PyObject *)Py_TYPE(geometry) == s_straight_type ? 1
                   : (PyObject *)Py_TYPE(geometry) == s_bend_type   ? 2
                                                                    : 0;
    Py_CLEAR(geometry);
    if (!(draw = PyObject_GetAttrString(rules, "draw")))
        goto fail;
    int t;
    if ((t = attr_truth(draw, "draws")) < 0) goto fail;
    ri->draws = t;
    if ((t = attr_truth(draw, "voluntary")) < 0) goto fail;
    ri->voluntary = t;
    if ((t = attr_truth(draw, "must_play")) < 0) goto fail;
    ri->must_play = t;
    if ((t = attr_is(draw, "when_stuck", "until_fits")) < 0) goto fail;
    ri->until_fits = t;
    if ((t = attr_is(draw, "when_blocked", "one_each")) < 0) goto fail;
    ri->one_each = t;
    if ((t = attr_is(draw, "after_voluntary", "pass")) < 0) goto fail;
    ri->pass_after_voluntary = t;
    int simple_draw = 1;
    if ((t = attr_is_none(draw, "max_per_turn")) < 0) goto fail;
    simple_draw &= t;
    v = PyObject_GetAttrString(draw, "batch");
    if (!v)
        goto fail;
    long batch;
    simple_draw &= !as_long(v, &batch) && batch == 1;
    Py_DECREF(v);
    Py_CLEAR(draw);
    int plain = simple_draw;
    if ((t = attr_is_none(rules, "effects")) < 0) goto fail;
    plain &= t;
    if ((t = attr_is_none(rules, "play_scoring")) < 0) goto fail;
    plain &= t;
    if ((t = attr_is_none(rules, "penalties")) < 0) goto fail;
    plain &= t;
    ri->place_ok = plain;
    if ((t = attr_is(rules, "finish", "first_out")) < 0) goto fail;
    ri->first_out = t;
    if (!(ri->tileset = PyObject_GetAttrString(rules, "tileset")))
        goto fail;
    if (!(ri->fit_masks = PyObject_GetAttrString(ri->tileset, "_fit_masks")) ||
        !(ri->face_mask = PyObject_GetAttrString(ri->tileset, "_face_mask")) ||
        !(ri->memo = PyObject_GetAttrString(ri->tileset, "_memo")) ||
        !(ri->by_id = PyObject_GetAttrString(ri->tileset, "_by_id")) ||
        !(tiles = PyObject_GetAttrString(ri->tileset, "tiles")))
        goto fail;
    if (!PyDict_CheckExact(ri->fit_masks) || !PyDict_CheckExact(ri->face_mask) ||
        !PyDict_CheckExact(ri->memo) || !PyDict_CheckExact(ri->by_id) || !PyTuple_Check(tiles)) {
        Py_DECREF(tiles);
        return ri;
    }
    ri->count = (long)PyTuple_GET_SIZE(tiles);
    ri->tiles = tiles;
    tiles = NULL;
    if (!(ri->turn_table = PyObject_GetAttrString(ri->tileset, "turn_table")))
        goto fail;
    if (!PyTuple_CheckExact(ri->turn_table) || PyTuple_GET_SIZE(ri->turn_table) != 2 * ri->count)
        return ri;
    if (!(ri->scoring = PyObject_GetAttrString(rules, "round_scoring")) ||
        !(ri->match = PyObject_GetAttrString(rules, "match")))
        goto fail;
    if ((PyObject *)Py_TYPE(ri->match) == s_match_type) {
        v = PyObject_GetAttrString(ri->match, "target");
        if (!v)
            goto fail;
        ri->match_plain = !as_long(v, &ri->target);
        Py_DECREF(v);
    }
    v = PyObject_GetAttrString(ri->tileset, "_points");
    if (!v)
        goto fail;
    int points_ok = PyTuple_Check(v) && PyTuple_GET_SIZE(v) == ri->count && ri->count <= 64;
    for (long i = 0; points_ok && i < ri->count; i++)
        points_ok = !as_long(PyTuple_GET_ITEM(v, i), &ri->points[i]);
    Py_DECREF(v);
    if (!points_ok)
        return ri;
    if (!(ri->count_obj = PyLong_FromLong(ri->count)))
        goto fail;
    ri->ok = ri->count <= 64;
    return ri;
fail:
    Py_XDECREF(geometry);
    Py_XDECREF(draw);
    Py_XDECREF(tiles);
    ri_clear(ri);
    return NULL;
}

/* ``mask & table.get(key, 0)`` read from a dict of ints (or of 4-tuples, item ``free``) */
static int masked_get(PyObject *table, PyObject *key, int item, uint64_t *out) {
    PyObject *v = PyDict_GetItemWithError(table, key);
    if (!v) {
        if (PyErr_Occurred())
            return -1;
        *out = 0;
        return 0;
    }
    if (item >= 0) {
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) <= item)
            return 1;
        v = PyTuple_GET_ITEM(v, item);
    }
    return as_mask(v, out) ? 1 : 0;
}

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

static inline int lowest_index(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
#else
    return __builtin_ctzll(x);
#endif
}

/* placing._bend_at for the one tile ``i`` at end ``e``: a new tuple, or NULL */
static PyObject *bend_at_one(RulesInfo *ri, PyObject *end, PyObject *eo, long value, long free_, int i) {
    PyObject *tile = PyTuple_GET_ITEM(ri->tiles, i);
    PyObject *a = PyObject_GetAttrString(tile, "a"), *b = a ? PyObject_GetAttrString(tile, "b") : NULL;
    PyObject *out = NULL, *left = NULL, *right = NULL;
    long av, turns;
    if (!b || as_long(a, &av))
        goto done;
    int flipped = av != value;
    if (as_long(PyTuple_GET_ITEM(ri->turn_table, 2 * i + flipped), &turns))
        goto done;
    long allowed = free_ & turns;
    PyObject *shows = flipped ? a : b;
    PyObject *made[2];
    int n = 0;
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
    PyObject *index = PyLong_FromUnsignedLongLong((uint64_t)1 << i);
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

/* placing._bend_placements: 0, -1 on an error, 1 when not handled */
static int bend_listing(RulesInfo *ri, PyObject *ends, uint64_t mask, Parts *p) {
    Py_ssize_t n = PyTuple_GET_SIZE(ends);
    for (Py_ssize_t e = 0; e < n; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        if (Py_TYPE(end) != L_end.type)
            return 1;
        long free_, value;
        if (as_long(FIELD(end, L_end, E_FREE), &free_) || as_long(FIELD(end, L_end, E_VALUE), &value))
            return 1;
        if (!free_)
            continue;
        if (free_ < 0 || free_ > 3)
            return 1;
        uint64_t fit;
        int r = masked_get(ri->fit_masks, FIELD(end, L_end, E_VALUE), (int)free_, &fit);
        if (r)
            return r;
        uint64_t cand = mask & fit;
        if (!cand)
            continue;
        PyObject *eo = PyLong_FromSsize_t(e);
        if (!eo)
            return -1;
        while (cand) {
            uint64_t low = cand & (0 - cand);
            cand ^= low;
            int i = lowest_index(low);
            PyObject *t = bend_memo(ri, end, eo, value, free_, i);
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
static int bend_closing_listing(RulesInfo *ri, PyObject *ends, uint64_t mask, PyObject *joints, Parts *p) {
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
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long free_, value;
        if (Py_TYPE(end) != L_end.type || as_long(FIELD(end, L_end, E_FREE), &free_) ||
            as_long(FIELD(end, L_end, E_VALUE), &value) || free_ < 0 || free_ > 3) {
            r = 1;
            break;
        }
        if (!free_)
            continue;
        uint64_t fit;
        if ((r = masked_get(ri->fit_masks, FIELD(end, L_end, E_VALUE), (int)free_, &fit)))
            break;
        uint64_t cand = mask & fit;
        if (!cand)
            continue;
        PyObject *eo = PyLong_FromSsize_t(e);
        if (!eo) {
            r = -1;
            break;
        }
        while (cand && !r) {
            uint64_t low = cand & (0 - cand);
            cand ^= low;
            int i = lowest_index(low);
            if (!joint_end[e]) {
                r = parts_add(p, bend_memo(ri, end, eo, value, free_, i));
                continue;
            }
            PyObject *bit = PyLong_FromUnsignedLongLong(low), *t = NULL;
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
static int straight_listing(RulesInfo *ri, PyObject *ends, uint64_t mask, Parts *p) {
    Py_ssize_t n = PyTuple_GET_SIZE(ends);
    for (Py_ssize_t e = 0; e < n; e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        if (Py_TYPE(end) != L_end.type)
            return 1;
        long free_, value;
        if (as_long(FIELD(end, L_end, E_FREE), &free_) || as_long(FIELD(end, L_end, E_VALUE), &value))
            return 1;
        if (!free_)
            continue;
        uint64_t faces;
        int r = masked_get(ri->face_mask, FIELD(end, L_end, E_VALUE), -1, &faces);
        if (r)
            return r;
        uint64_t cand = mask & faces;
        if (!cand)
            continue;
        PyObject *eo = PyLong_FromSsize_t(e);
        PyObject *c = PyLong_FromUnsignedLongLong(cand);
        PyObject *t = NULL;
        if (eo && c) {
            PyObject *key = PyTuple_Pack(3, c, eo, FIELD(end, L_end, E_VALUE));
            t = memo_or_build(ri->memo, key, s_straight_at, ri->tileset, eo, FIELD(end, L_end, E_VALUE), c);
        }
        Py_XDECREF(eo);
        Py_XDECREF(c);
        if ((r = parts_add(p, t)))
            return r;
    }
    return 0;
}

/* the state's context, rules facts and a few fields; 0 when handled */
typedef struct {
    PyObject *context, *rules, *board, *ends, *deck;
    RulesInfo *ri;
    PyObject *owner; /* a reference to the capsule owning ri, or NULL */
    long player, stock_pos, players, direction, opening;
    int empty;
    uint64_t hands[MAXP], drawn;
    int nhands;
} View;

/* 1 when ``o`` is of the layout's class with every slot set (an object unpickled from
 * an older version can miss one: a NULL slot) */
static int complete(PyObject *o, const Layout *L) {
    if (!o || Py_TYPE(o) != L->type)
        return 0;
    for (int i = 0; i < L->n; i++)
        if (!FIELD(o, *L, i))
            return 0;
    return 1;
}

/* 0: viewed; 1: not for these paths; -1: an error.  Every value these paths read is
 * checked here, once per call: the slots set, the seats, the stock position, the
 * direction, the masks within the tile set and the open ends (the Python engine, the
 * specification, decides for anything else) */
static int view_state(PyObject *state, View *v, int allow_open) {
    v->owner = NULL;
    if (!step_ready || !complete(state, &L_state))
        return 1;
    PyObject *context = FIELD(state, L_state, S_CONTEXT);
    if (!complete(context, &L_context))
        return 1;
    long phase, opening;
    if (as_long(FIELD(context, L_context, C_PHASE), &phase) || phase != 0 ||
        as_long(FIELD(context, L_context, C_OPENING), &opening) || (opening >= 0 && !allow_open))
        return 1;
    v->opening = opening;
    v->context = context;
    v->rules = FIELD(context, L_context, C_RULES);
    v->ri = rules_info(v->rules, &v->owner);
    if (!v->ri)
        return -1;
    if (!v->ri->ok)
        return 1;
    v->board = FIELD(state, L_state, S_BOARD);
    if (!complete(v->board, &L_board))
        return 1;
    PyObject *placements = FIELD(v->board, L_board, B_PLACEMENTS);
    v->ends = FIELD(v->board, L_board, B_ENDS);
    if (!PyTuple_CheckExact(placements) || !PyTuple_CheckExact(v->ends) ||
        (!PyTuple_GET_SIZE(placements) && !allow_open))
        return 1;
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(v->ends); e++)
        if (!complete(PyTuple_GET_ITEM(v->ends, e), &L_end))
            return 1;
    v->empty = !PyTuple_GET_SIZE(placements);
    PyObject *hands = FIELD(state, L_state, S_HANDS);
    if (!PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) > MAXP || !PyTuple_GET_SIZE(hands))
        return 1;
    v->nhands = (int)PyTuple_GET_SIZE(hands);
    uint64_t beyond = v->ri->count >= 64 ? 0 : ~(uint64_t)0 << v->ri->count, held = 0;
    for (int i = 0; i < v->nhands; i++) {
        if (as_mask(PyTuple_GET_ITEM(hands, i), &v->hands[i]) || (v->hands[i] & (beyond | held)))
            return 1;
        held |= v->hands[i];
    }
    if (as_long(FIELD(state, L_state, S_PLAYER), &v->player) || v->player < 0 || v->player >= v->nhands ||
        as_long(FIELD(state, L_state, S_STOCK), &v->stock_pos) ||
        as_mask(FIELD(state, L_state, S_DRAWN), &v->drawn) || (v->drawn & beyond) ||
        as_long(FIELD(context, L_context, C_DIRECTION), &v->direction) ||
        (v->direction != 1 && v->direction != -1))
        return 1;
    v->deck = FIELD(context, L_context, C_DECK);
    if (!PyTuple_CheckExact(v->deck) || v->stock_pos < 0 || v->stock_pos > PyTuple_GET_SIZE(v->deck))
        return 1;
    return 0;
}

/* two ends leading into one cell (where legal_moves looks for joints) */
static int maybe_joints(PyObject *ends) {
    if (PyTuple_GET_SIZE(ends) != 2 || !complete(PyTuple_GET_ITEM(ends, 0), &L_end) ||
        !complete(PyTuple_GET_ITEM(ends, 1), &L_end))
        return 1;
    PyObject *a = FIELD(PyTuple_GET_ITEM(ends, 0), L_end, E_LEFT);
    PyObject *b = FIELD(PyTuple_GET_ITEM(ends, 1), L_end, E_LEFT);
    if (a == Py_None || b == Py_None)
        return 1; /* legal_moves would fail here: leave it to it */
    if (Py_TYPE(a) == L_position.type && Py_TYPE(b) == L_position.type) {
        long qa, qb, ra, rb;
        if (!as_long(FIELD(a, L_position, 0), &qa) && !as_long(FIELD(b, L_position, 0), &qb) &&
            !as_long(FIELD(a, L_position, 1), &ra) && !as_long(FIELD(b, L_position, 1), &rb))
            return qa == qb && ra == rb;
    }
    PyObject *qa = PyObject_GetAttrString(a, "q"), *qb = PyObject_GetAttrString(b, "q");
    PyObject *ra = PyObject_GetAttrString(a, "r"), *rb = PyObject_GetAttrString(b, "r");
    int same = 1;
    if (qa && qb && ra && rb) {
        int eq = PyObject_RichCompareBool(qa, qb, Py_EQ);
        int er = eq == 1 ? PyObject_RichCompareBool(ra, rb, Py_EQ) : eq;
        same = eq != 0 && er != 0; /* an error: say yes, the Python engine looks */
    }
    PyErr_Clear();
    Py_XDECREF(qa);
    Py_XDECREF(qb);
    Py_XDECREF(ra);
    Py_XDECREF(rb);
    return same;
}

/* engine.legal_moves for a playing state on a non-empty board: new tuple, NULL */
static PyObject *legal_of(View *v, PyObject *state) {
    RulesInfo *ri = v->ri;
    uint64_t hand = v->hands[v->player];
    if (v->drawn)
        hand &= v->drawn;
    Parts p = {{0}, 0, 0};
    int r;
    if (ri->listing == s_list_straight)
        r = straight_listing(ri, v->ends, hand, &p);
    else if (ri->even_closing && maybe_joints(v->ends)) {
        PyObject *joints = PyObject_CallOneArg(s_bend_joints, v->ends);
        if (!joints)
            return NULL;
        if (PyObject_IsTrue(joints)) {
            r = bend_closing_listing(ri, v->ends, hand, joints, &p);
        } else {
            r = bend_listing(ri, v->ends, hand, &p);
        }
        Py_DECREF(joints);
    } else
        r = bend_listing(ri, v->ends, hand, &p);
    if (r) {
        parts_clear(&p);
        return NULL;
    }
    PyObject *moves;
    if (v->drawn) {
        if (!p.n || !p.total)
            moves = (Py_INCREF(s_one_tuple_draw), s_one_tuple_draw);
        else
            moves = parts_join(&p, ri->must_play ? NULL : s_pass);
    } else if (ri->draws && v->stock_pos < PyTuple_GET_SIZE(v->deck) && (ri->voluntary || !p.total)) {
        moves = parts_join(&p, s_draw);
    } else if (p.total) {
        moves = parts_join(&p, NULL);
    } else {
        moves = (Py_INCREF(s_one_tuple_pass), s_one_tuple_pass);
    }
    parts_clear(&p);
    return moves;
}

static PyObject *k_step_legal(PyObject *self, PyObject *state) {
    int mine;
    PyObject *tri = tri_step_legal(state, &mine);
    if (mine)
        return tri;
    View v;
    int r = view_state(state, &v, 0);
    PyObject *moves = r ? NULL : legal_of(&v, state);
    Py_XDECREF(v.owner);
    if (r < 0)
        return NULL;
    if (!moves && !PyErr_Occurred())
        Py_RETURN_NONE;
    return moves;
}

/* -- fits (placing._fits) for a board with tiles: 1, 0, -1 error, 2 not handled -- */
static int step_fits(View *v, PyObject *board, uint64_t mask) {
    RulesInfo *ri = v->ri;
    if (!mask)
        return 0;
    PyObject *ends = FIELD(board, L_board, B_ENDS);
    if (ri->listing == s_list_bend && ri->even_closing && maybe_joints(ends)) {
        PyObject *joints = PyObject_CallOneArg(s_bend_joints, ends);
        if (!joints)
            return -1;
        int some = PyObject_IsTrue(joints);
        if (some) {
            Parts p = {{0}, 0, 0};
            int r = bend_closing_listing(ri, ends, mask, joints, &p);
            Py_DECREF(joints);
            int any = p.total > 0;
            parts_clear(&p);
            return r < 0 ? -1 : r > 0 ? 2 : any;
        }
        Py_DECREF(joints);
        if (some < 0)
            return -1;
    }
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(ends); e++) {
        PyObject *end = PyTuple_GET_ITEM(ends, e);
        long free_;
        if (Py_TYPE(end) != L_end.type || as_long(FIELD(end, L_end, E_FREE), &free_) || free_ < 0 || free_ > 3)
            return 2;
        if (!free_)
            continue;
        uint64_t got;
        int r = ri->listing == s_list_straight
                    ? masked_get(ri->face_mask, FIELD(end, L_end, E_VALUE), -1, &got)
                    : masked_get(ri->fit_masks, FIELD(end, L_end, E_VALUE), (int)free_, &got);
        if (r)
            return r < 0 ? -1 : 2;
        if (mask & got)
            return 1;
    }
    return 0;
}

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
    long target, at, beyond, left_hits, right_hits, used, exit_slot;
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
    long free_ = ((used & left_hits) ? 0 : s_left) | ((used & right_hits) ? 0 : s_right);
    if (!(ends = PyTuple_New(n)))
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(old_ends, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(ends, i, item);
    }
    PyObject *fresh = memo_end(FIELD(move, L_place, P_SHOWS), free_, PyTuple_GET_ITEM(step, 0),
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
    PyObject *tile = FIELD(move, L_place, P_TILE);
    PyObject *id = PyLong_FromVoidPtr(tile);
    PyObject *kind = id ? PyLong_FromLong(2 * slot + (turn == s_right)) : NULL;
    PyObject *eo = FIELD(move, L_place, P_END);
    PyObject *key = kind ? PyTuple_Pack(5, id, FIELD(move, L_place, P_INWARD), FIELD(move, L_place, P_SHOWS),
                                        kind, eo)
                         : NULL;
    Py_XDECREF(id);
    Py_XDECREF(kind);
    PyObject *placement = key ? placement_of(s_bend_placements, key, tile, FIELD(move, L_place, P_INWARD),
                                             FIELD(move, L_place, P_SHOWS), turn_obj,
                                             PyTuple_GET_ITEM(step, 2), eo)
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
        PyObject *h = PyLong_FromUnsignedLongLong(v->hands[i]);
        if (!h) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, h);
    }
    return t;
}

/* GameState(hands, board, player, stock_pos, drawn, drawn_count, last_placer, log, context) */
static PyObject *new_state(PyObject *hands, PyObject *board, long player, long stock_pos, uint64_t drawn,
                           long drawn_count, PyObject *last_placer, PyObject *log, PyObject *context) {
    PyObject *p = PyLong_FromLong(player), *s = PyLong_FromLong(stock_pos);
    PyObject *d = PyLong_FromUnsignedLongLong(drawn), *c = PyLong_FromLong(drawn_count);
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
static PyObject *step_end_turn(View *v, PyObject *state, PyObject *hands, long stock_pos, uint64_t drawn,
                          long drawn_count, PyObject *log) {
    PyObject *last = FIELD(state, L_state, S_LAST);
    int blocked = 0;
    if (!(stock_pos < PyTuple_GET_SIZE(v->deck) && v->ri->draws)) {
        uint64_t all = 0;
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
    long players;
    if (as_long(FIELD(context, L_context, C_PLAYERS), &players) || players < 1 || players > MAXP ||
        !PyTuple_CheckExact(hands) || PyTuple_GET_SIZE(hands) != players)
        goto python;
    if (!ri->sides[players]) {
        ri->sides[players] = PyObject_CallMethod(ri->match, "sides", "l", players);
        if (!ri->sides[players])
            return NULL;
    }
    PyObject *sides = ri->sides[players];
    PyObject *hand_points = PyTuple_New(players), *outcome = NULL, *score = NULL, *points = NULL;
    PyObject *winners = NULL, *scores = NULL, *result = NULL, *results = NULL, *out = NULL;
    PyObject *new_context = NULL;
    if (!hand_points)
        return NULL;
    for (long p = 0; p < players; p++) {
        uint64_t h;
        if (as_mask(PyTuple_GET_ITEM(hands, p), &h))
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
    PyObject *outcome_values[6] = {sides, hand_points, FIELD(context, L_context, C_OUT), blocked_obj,
                                   FIELD(state, L_state, S_LAST), FIELD(context, L_context, C_PLAYPOINTS)};
    if (!(outcome = make(&L_outcome, outcome_values)))
        goto fail;
    if (!(score = PyObject_CallMethod(ri->scoring, "score", "O", outcome)))
        goto fail;
    if (!(points = PyObject_GetAttrString(score, "points")) || !(winners = PyObject_GetAttrString(score, "winners")))
        goto fail;
    PyObject *old_scores = FIELD(context, L_context, C_SCORES);
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
    PyObject *result_values[6] = {FIELD(context, L_context, C_ROUND), blocked_obj, FIELD(context, L_context, C_OUT),
                                  hand_points, points, winners};
    if (!(result = make(&L_result, result_values)))
        goto fail;
    if (!(results = tuple_plus(FIELD(context, L_context, C_RESULTS), result)))
        goto python_cleanup;
    /* the match's winner: Match.winner over the side totals */
    long winner = -1;
    Py_ssize_t nsides = PyTuple_GET_SIZE(sides);
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
    PyObject *phase = PyLong_FromLong(winner >= 0 ? 2 : 1), *match_winner = PyLong_FromLong(winner);
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
    if (!found || as_long(found, &index) || index < 0 || index >= 64)
        return NULL;
    uint64_t hand = v->hands[v->player] & ~((uint64_t)1 << index);
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
    int blocked = 0;
    if (!(v->stock_pos < PyTuple_GET_SIZE(v->deck) && ri->draws)) {
        uint64_t all = 0;
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
        drawn_count < 0 || drawn_count > 64)
        return NULL;
    uint64_t mask = (uint64_t)1 << index;
    long stock_pos = v->stock_pos + 1;
    uint64_t hand = v->hands[v->player] |= mask;
    uint64_t drawn = v->drawn | mask;
    drawn_count += 1;
    PyObject *hands = hands_tuple(v), *log = log_cell(state, s_draw), *out = NULL;
    if (!hands || !log)
        goto done;
    if (could_place && !v->drawn && ri->pass_after_voluntary) {
        out = step_end_turn(v, state, hands, stock_pos, drawn, drawn_count, log);
        goto done;
    }
    int keep = step_fits(v, v->board, hand & drawn);
    if (keep < 0 || keep > 1)
        goto done;
    if (!keep && ri->until_fits && stock_pos < size) {
        int f = step_fits(v, v->board, hand & ~drawn);
        if (f < 0 || f > 1)
            goto done;
        keep = !f;
        if (keep && ri->one_each) {
            uint64_t off_board = 0;
            for (int i = 0; i < v->nhands; i++)
                off_board |= v->hands[i];
            for (Py_ssize_t k = stock_pos; k < size; k++) {
                long j;
                if (as_long(PyTuple_GET_ITEM(v->deck, k), &j) || j < 0 || j >= ri->count)
                    goto done;
                off_board |= (uint64_t)1 << j;
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
/* the triangle games' step paths */
#include "_kernel_tri_step.c"

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
    Py_ssize_t n = PyTuple_GET_SIZE(moves);
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
                uint64_t drawn = v.drawn;
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

/* batched games (bendolib.vector): a file of its own */
#include "_kernel_batch.c"

static PyMethodDef methods[] = {
    {"compile", k_compile, METH_O, "compile(spec) -> a compiled rule set (capsule)"},
    {"run", k_run, METH_VARARGS,
     "run(spec, state, count, policy, seed, until_match, record, first, outcome) -> outcomes"},
    {"listing", k_listing, METH_VARARGS, "listing(spec, state) -> the legal moves as tuples"},
    {"perft", k_perft, METH_VARARGS, "perft(spec, state, depth) -> move sequences"},
    {"walk", k_walk, METH_VARARGS, "walk(spec, state, steps, stride) -> legal-move counts"},
    {"step_setup", k_step_setup, METH_O, "step_setup(config): the engine's classes, tables and helpers"},
    {"step_legal", k_step_legal, METH_O, "step_legal(state) -> legal_moves(state), or None"},
    {"step_apply", (PyCFunction)(void (*)(void))k_step_apply, METH_FASTCALL,
     "step_apply(state, move, listed_for, moves) -> apply(state, move), or None"},
    {"deal_hands", k_deal_hands, METH_VARARGS, "deal_hands(deck, players, size) -> the hand masks, or None"},
    {"deal_deck", k_deal_deck, METH_VARARGS,
     "deal_deck(seed, round_number, attempt, count) -> the shuffled tile indices of a deal"},
    BATCH_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "bendolib._kernel",
    "Whole playouts in compiled code (see bendolib.playouts).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    build_spiral();
    for (uint64_t b = 1; b < TABLED; b++)
        rests[b] = ((uint64_t)0 - b) % b;
    for (int s = 0; s < MAXP; s++)
        if (!(single_seat[s] = Py_BuildValue("(i)", s)))
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    UnsupportedError = PyErr_NewException("bendolib._kernel.UnsupportedError", PyExc_Exception, NULL);
    if (!UnsupportedError || PyModule_AddObject(m, "UnsupportedError", UnsupportedError)) {
        Py_XDECREF(UnsupportedError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(UnsupportedError);
    /* The interface version: bendolib/_kernel_abi.py's ABI must equal it, else a stale
       build (an editable install after a pull) is ignored rather than half used. */
    if (PyModule_AddIntConstant(m, "ABI", 3) ||
        PyModule_AddIntConstant(m, "MAX_TILES", MAXT) ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
