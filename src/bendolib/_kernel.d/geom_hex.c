/*
 * bendolib._kernel, the curved (hexagonal) lattice of the chain games: the spiral of
 * cells, the occupancy of a board (corners, occupy, free turns), opening a board,
 * stepping from an open end and placing a straight or bend tile on it.
 */

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

/* a cell's bit in KState.occ_bloom: about 8q + r mod 64 (distinct for nearby cells) */
#define OCC_HASH(cell) ((((cell) >> 5) + (cell)) & 63)

static inline uint8_t corners(const KState *st, uint16_t cell) {
    /* most lookups are of empty cells (the cells beyond the chain's ends): one bit test
     * instead of a scan of every occupied cell (issue 24: placing a tile was 20%; with
     * the closing table, -7.1% instructions per Basic playout); an occupied one is
     * found by its hash (occ_first), a scan only for a hash two cells share (issue 24:
     * the scans were ~7% of a Basic 4-player playout's time; see occupy) */
    int h = OCC_HASH(cell);
    if (!((st->occ_bloom >> h) & 1))
        return 0;
    int first = st->occ_first[h];
    if (st->occ_cell[first] == cell)
        return st->occ_mask[first];
    if (!((st->occ_multi >> h) & 1))
        return 0;
    for (int i = 0; i < st->nocc; i++)
        if (st->occ_cell[i] == cell)
            return st->occ_mask[i];
    return 0;
}

/* a cell not in the occupancy list yet appended to it with ``marks`` (its corners), the
 * hash bookkeeping below kept (every writer of the list goes through here or occupy);
 * the caller checks nocc < MAXOCC */
static inline void occupy_new(KState *st, uint16_t cell, uint8_t marks) {
    int h = OCC_HASH(cell);
    if ((st->occ_bloom >> h) & 1) {
        st->occ_multi |= (uint64_t)1 << h;
    } else {
        st->occ_first[h] = (occ_index_t)st->nocc;
        st->occ_multi &= ~((uint64_t)1 << h);
        st->occ_bloom |= (uint64_t)1 << h;
    }
    st->occ_cell[st->nocc] = cell;
    st->occ_mask[st->nocc++] = marks;
}

/* The occupancy list keeps, per hash of a cell, the index of the first cell with that hash
 * (valid while the hash's bit of occ_bloom is set: a board cleared by resetting occ_bloom
 * needs nothing else) and whether a second cell has it (occ_multi): -6.8% time per Basic
 * 4-player playout, -6.4% at 2 players, against the filter and a scan (interleaved runs). */
static int occupy(KState *st, uint16_t cell, int corner) {
    int h = OCC_HASH(cell), known = (st->occ_bloom >> h) & 1;
    if (known) {
        int first = st->occ_first[h];
        if (st->occ_cell[first] == cell) {
            st->occ_mask[first] |= (uint8_t)(1u << corner);
            return 0;
        }
        if ((st->occ_multi >> h) & 1)
            for (int i = 0; i < st->nocc; i++)
                if (st->occ_cell[i] == cell) {
                    st->occ_mask[i] |= (uint8_t)(1u << corner);
                    return 0;
                }
    }
    if (st->nocc >= MAXOCC)
        return E_UNSUPPORTED;
    occupy_new(st, cell, (uint8_t)(1u << corner));
    return 0;
}

/* free turns of an end leaving cell through side: the positions beyond not overlapped */
static inline uint8_t free_turns(const KState *st, uint16_t cell, int side) {
    /* COLLISION((side + 3) % 6) and COLLISION((side + 4) % 6), without the divisions */
    static const uint8_t BLOCKS_LEFT[6] = {COLLISION(3), COLLISION(4), COLLISION(5),
                                           COLLISION(0), COLLISION(1), COLLISION(2)};
    static const uint8_t BLOCKS_RIGHT[6] = {COLLISION(4), COLLISION(5), COLLISION(0),
                                            COLLISION(1), COLLISION(2), COLLISION(3)};
    uint8_t used = corners(st, (uint16_t)(cell + DELTA[side]));
    return (uint8_t)(((used & BLOCKS_LEFT[side]) ? 0 : LEFT) |
                     ((used & BLOCKS_RIGHT[side]) ? 0 : RIGHT));
}

/* -- what fits where ---------------------------------------------------------------- */

/* the tiles carrying the numbers v and w */
static inline mask_t pair_mask(const Spec *sp, int v, int w) {
    return v == w ? sp->face[v + FACE0] & sp->doubles : sp->face[v + FACE0] & sp->face[w + FACE0];
}

/* an end's position as one key, cell and side: (cell << 8) | side */
#define END_KEY(cell, side) (((uint32_t)(uint16_t)(cell) << 8) | (uint8_t)(side))

/* Reach.at[e] for end e of n ends (keys: their END_KEY).  Under the even-closure rule a
 * placement whose new end would face another open end must show that end's number: only
 * the tile carrying both numbers passes, one mask per end and turn instead of
 * closes_evenly() per candidate (issue 24: the closing check was 18% of a Basic playout) */
static inline void end_reach(const Spec *sp, const KState *st, int e, int n, const uint32_t *keys,
                             Reach *out) {
    /* the cell and side facing the new end, by [side][turn == RIGHT], as step() gives them
     * (DELTA[side] + DELTA[exit], (exit + 3) % 6): a table instead of four modulos */
    static const int16_t AHEAD[6][2] = {{1, 255},    {-255, 256}, {-256, 1},
                                        {-1, -255},  {255, -256}, {256, -1}};
    static const int8_t BACK[6][2] = {{5, 1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 0}};
    const KEnd *end = &st->ends[e];
    int free = end->free, value = end->value;
    mask_t left = 0, right = 0;
    if (!sp->bends) {
        left = free ? sp->face[value + FACE0] : 0;
    } else {
        if (free & LEFT)
            left = sp->fit[value + FACE0][LEFT];
        if (free & RIGHT)
            right = sp->fit[value + FACE0][RIGHT];
        if (sp->even_closure && (left | right)) {
            int side = end->side;
            uint32_t ahead_left = END_KEY(end->cell + AHEAD[side][0], BACK[side][0]);
            uint32_t ahead_right = END_KEY(end->cell + AHEAD[side][1], BACK[side][1]);
            for (int i = 0; i < n; i++) {
                if (i == e)
                    continue;
                if (keys[i] == ahead_left)
                    left &= pair_mask(sp, value, st->ends[i].value);
                if (keys[i] == ahead_right)
                    right &= pair_mask(sp, value, st->ends[i].value);
            }
        }
    }
    out->at[e][0] = left;
    out->at[e][1] = right;
}

/* the masks of Reach for the board of st (a non-wild rule set, a tile on the board).
 * Two open ends, the chain games' case, unrolled, and the positions compared as keys:
 * ~1% of a Basic playout's time (interleaved runs; callgrind: -0.4% instructions). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void reach_compute_body(const Spec *sp, const KState *st, Reach *out) {
    int n = st->nends;
    uint32_t keys[MAXE];
    for (int i = 0; i < n; i++)
        keys[i] = END_KEY(st->ends[i].cell, st->ends[i].side);
    if (n == 2) {
        end_reach(sp, st, 0, 2, keys, out);
        end_reach(sp, st, 1, 2, keys, out);
        out->all = out->at[0][0] | out->at[0][1] | out->at[1][0] | out->at[1][1];
        return;
    }
    mask_t all = 0;
    for (int e = 0; e < n; e++) {
        end_reach(sp, st, e, n, keys, out);
        all |= out->at[e][0] | out->at[e][1];
    }
    out->all = all;
}

static void reach_compute(const Spec *sp, const KState *st, Reach *out) {
    reach_compute_body(sp, st, out);
}

/* KState.reach after a change of the board (the rule sets with wild faces list without) */
static inline void reach_refresh(const Spec *sp, KState *st) {
    if (sp->general)
        return;
    /* in line in placing a tile: -3% time per Basic 4-player playout (interleaved runs) */
    reach_compute_body(sp, st, &st->reach);
    st->reach_ok = 1;
}

/* st->reach, or the same computed into *local when st holds none (a state read in) */
static inline const Reach *reach_of(const Spec *sp, const KState *st, Reach *local) {
    if (st->reach_ok)
        return &st->reach;
    reach_compute(sp, st, local);
    return local;
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
        reach_refresh(sp, st);
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
    reach_refresh(sp, st);
    return 0;
}

/* the new end's cell and side when a tile turning `turn` is laid at end e */
static inline void step(const KEnd *end, int turn, uint16_t *target, int *corner, int *exit) {
    /* by [side][turn == RIGHT]: (side + 3, side + 2) and (side + 4, side + 4) mod 6 */
    static const int8_t CORNER[6][2] = {{3, 4}, {4, 5}, {5, 0}, {0, 1}, {1, 2}, {2, 3}};
    static const int8_t EXIT[6][2] = {{2, 4}, {3, 5}, {4, 0}, {5, 1}, {0, 2}, {1, 3}};
    int side = end->side, right = turn != LEFT;
    *target = (uint16_t)(end->cell + DELTA[side]);
    *corner = CORNER[side][right];
    *exit = EXIT[side][right];
}

/* lay a tile at end e (not an opening): the end now shows `shows` */
static int place_on_board(const Spec *sp, KState *st, int e, int turn, int shows) {
    st->nplaced++;
    if (!sp->bends) {
        st->ends[e].value = (int8_t)shows;
        st->ends[e].free = BOTH;
        reach_refresh(sp, st);
        return 0;
    }
    uint16_t target;
    int corner, exit;
    step(&st->ends[e], turn, &target, &corner, &exit);
#if MAXT > 128
    /* a cell packs q and r in a byte each: a chain of more tiles could leave -128..127
     * and wrap; refused two cells before (the cells looked at beyond an end, up to two
     * steps, stay in range), the playout left to the Python engine */
    if ((uint8_t)(target >> 8) < 2 || (uint8_t)(target >> 8) > 253 || (uint8_t)target < 2 ||
        (uint8_t)target > 253)
        return E_UNSUPPORTED;
#endif
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
    reach_refresh(sp, st);
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
