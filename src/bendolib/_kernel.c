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

static inline uint8_t corners(const KState *st, uint16_t cell) {
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
                sum += sp->place_points[k];
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

/* the winning side of the match, or -1 while it goes on (Match.winner) */
static int match_winner(const Spec *sp, const KState *st) {
    int64_t totals[MAXP], best = 0;
    for (int i = 0; i < sp->nsides; i++) {
        totals[i] = 0;
        for (int k = 0; k < sp->side_size[i]; k++)
            totals[i] += st->scores[sp->side_seats[i][k]];
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
        st->scores[s] += points[s];
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
    for (int k = 0; k < sp->players; k++) {
        seat = mod(seat + st->direction, sp->players);
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
            st->scores[player] += total;
            st->play_points[player] += total;
            if (sp->end_in_play) {
                int winner = match_winner(sp, st);
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

static int get_long(PyObject *seq, Py_ssize_t i, long long *out) {
    PyObject *item = PyTuple_GetItem(seq, i);
    if (!item)
        return -1;
    *out = PyLong_AsLongLong(item);
    if (*out == -1 && PyErr_Occurred())
        return -1;
    return 0;
}

static int unsupported(const char *why) {
    PyErr_SetString(UnsupportedError, why);
    return -1;
}

#define GET(seq, i, var)                                                                   \
    do {                                                                                   \
        long long _v;                                                                      \
        if (get_long((seq), (i), &_v))                                                     \
            return -1;                                                                     \
        var = _v;                                                                          \
    } while (0)

static int tuple_of(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj) || (size >= 0 && PyTuple_GET_SIZE(obj) != size)) {
        PyErr_Format(PyExc_TypeError, "kernel: %s must be a tuple of %zd", what, size);
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
        GET(tile, 2, points);
        GET(tile, 3, ta);
        GET(tile, 4, tb);
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
    GET(start, 0, sp->start_kind);
    GET(start, 1, sp->start_tile);
    GET(start, 2, sp->start_redeal);
    GET(start, 3, sp->start_opens);
    GET(start, 4, sp->start_seat);
    GET(start, 5, sp->start_split);
    GET(draw, 0, sp->when_stuck);
    GET(draw, 1, sp->voluntary);
    GET(draw, 2, sp->must_play);
    GET(draw, 3, sp->batch);
    GET(draw, 4, sp->max_per_turn);
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
    GET(match, 1, sp->multiple);
    sp->neffects = (int)PyTuple_GET_SIZE(effects);
    if (sp->neffects > MAXEFF)
        return unsupported("too many effects");
    for (int k = 0; k < sp->neffects; k++) {
        PyObject *effect = PyTuple_GET_ITEM(effects, k);
        if (tuple_of(effect, 3, "effect"))
            return -1;
        GET(effect, 0, sp->effect_face[k]);
        GET(effect, 1, sp->effect_kind[k]);
        GET(effect, 2, sp->effect_count[k]);
    }
    GET(flags, 0, sp->even_closure);
    GET(flags, 1, sp->drain_blocked);
    GET(flags, 2, sp->draw_and_pass);
    GET(flags, 3, sp->end_in_play);
    GET(deal, 0, sp->hand_size);
    GET(deal, 1, sp->table_tiles);
    if (sp->table_tiles > 2 || sp->batch < 1 || (sp->even_closure && !sp->bends))
        return unsupported("a deal or draw the kernel does not know");
    return 0;
}

static PyObject *k_compile(PyObject *self, PyObject *arg) {
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
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return unsupported("a mask beyond 64 tiles");
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
    st->seed = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred())
        return -1;
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
    for (int s = 0; s < sp->players; s++)
        if (read_mask(PyTuple_GET_ITEM(hands, s), &st->hands[s]))
            return -1;
    GET(t, 6, st->current);
    if (st->current < 0 || st->current >= sp->players)
        return unsupported("a current player out of range");
    if (read_int_tuple(PyTuple_GET_ITEM(t, 7), st->scores, sp->players, "scores"))
        return -1;
    GET(t, 8, st->opening);
    if (read_mask(PyTuple_GET_ITEM(t, 9), &st->drawn))
        return -1;
    GET(t, 10, st->drawn_count);
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
        GET(out, k, v);
        st->out[k] = (int8_t)v;
    }
    if (read_int_tuple(PyTuple_GET_ITEM(t, 13), st->play_points, sp->players, "play points"))
        return -1;
    GET(t, 14, st->phase);
    GET(t, 15, st->last_placer);
    GET(t, 16, st->match_winner);
    GET(t, 17, st->nplaced);
    if (st->opening >= sp->n || st->last_placer >= sp->players)
        return unsupported("an opening tile or last placer out of range");
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
            GET(order, k, v);
            st->r_order[k] = (int8_t)v;
        }
        for (int k = 0; k < st->r_nwinners; k++) {
            GET(winners, k, v);
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

/* run(spec, state, count, policy, seed, until_match, record, first, outcome_class): the
 * playouts, CHUNK at a time without the GIL (other threads run meanwhile), then their
 * outcomes built with it */
static PyObject *k_run(PyObject *self, PyObject *args) {
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
    KState *finals = PyMem_Malloc(CHUNK * sizeof(KState));
    int *moves = PyMem_Malloc(CHUNK * sizeof(int));
    size_t *starts = PyMem_Malloc(CHUNK * sizeof(size_t));
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
            forced[i] = PyLong_AsLong(PyTuple_GET_ITEM(first, i));
            if (forced[i] == -1 && PyErr_Occurred())
                goto fail;
            if (forced[i] < 0 || forced[i] >= root_list.count) {
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
    PyObject *capsule, *state_tuple;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &state_tuple, &depth))
        return NULL;
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
        if (apply_move(sp, &st, &buffer[(long long)stride * k % list.count]))
            goto fail;
    }
    return counts;
fail:
    Py_DECREF(counts);
    return raise_for(-1), NULL;
}

static PyMethodDef methods[] = {
    {"compile", k_compile, METH_O, "compile(spec) -> a compiled rule set (capsule)"},
    {"run", k_run, METH_VARARGS,
     "run(spec, state, count, policy, seed, until_match, record, first, outcome) -> outcomes"},
    {"listing", k_listing, METH_VARARGS, "listing(spec, state) -> the legal moves as tuples"},
    {"perft", k_perft, METH_VARARGS, "perft(spec, state, depth) -> move sequences"},
    {"walk", k_walk, METH_VARARGS, "walk(spec, state, steps, stride) -> legal-move counts"},
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
    if (PyModule_AddIntConstant(m, "MAX_TILES", MAXT) ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
