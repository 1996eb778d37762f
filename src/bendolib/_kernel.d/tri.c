/*
 * bendolib._kernel, the triangle games (Triangle Dominoes, Triominoes): whole playouts in
 * compiled code.  #included by _kernel.c after playout.c (it uses kernel.h's bits, rng.c's
 * generator, boundary.c's readers and playout.c's result builders); its entry points are
 * reached from boundary.c's compile and run.c's run, listing, perft and walk when the
 * spec is a triangle one.
 *
 * The specification is the Python engine on the triangle geometry
 * (bendolib.geometry.triangles, bendolib.rules.triangles, bendolib.engine) driven by
 * bendolib._playouts_reference: the same moves, listed in the same order, with the same
 * SplitMix64 draws.  bendolib._kernel_tri_input makes the flat spec and state tuples and
 * sends every rule set with a part or a parameter this file does not know to the engine.
 * Every build compiles it (kernel.h: up to 64 triangles, 128 in the wide build, 256 in
 * the huge one, compiled as C++; the vast build is never sent one): hands are mask_t,
 * tile indices tile_t, and the code keeps to the common subset of C and C++.
 *
 * The board: lattice points (i, j) with |i|, |j| < TW / 2 in a TW x TW grid, point index
 * (i + TW/2) * TW + (j + TW/2), cell index point * 2 + down, so the formulas of
 * bendolib.geometry.trilattice hold with STRIDE = TW.  Per point, the number shown there
 * (-1: none) and the flags of its two cells (filled, site).  A tile laid farther than TLIM
 * from the origin makes the playout UnsupportedError (the engine replays the call).  The
 * sites (free cells with an open edge) are kept in the order of their first open edge, as
 * TriangleBoard.sites; a site's corner pattern packs (number + 1) in 4 bits a corner.
 */

#define TW 64
#define TMID (TW / 2)
#define TLIM (TMID - 4)
#define TPOINTS (TW * TW)
#define TMAXSITES 512
#define TMAXMOVES 8192
#define TPATTERNS 4096
#define TORIGIN ((TMID * TW + TMID) * 2)
#define TRI_CAPSULE KNAME(".TriSpec")

enum { F_UP = 1, F_DOWN = 2, F_SITE_UP = 4, F_SITE_DOWN = 8 };
enum { TSCORE_MOST_PLAY = 1, TSCORE_TRIOMINOES = 2, TSCORE_CHAIN = 3 };
enum { TSTART_HIGHEST_TRIPLE = 1, TSTART_FIXED = 2 };

typedef struct {
    int players, n, top, finish_last, hand_size;
    int8_t face[MAXT][3];
    int32_t points[MAXT];
    mask_t triples, full;
    int start_kind, start_opens, start_seat, start_redeal;
    int ntriples, nfallback;
    tile_t triple_order[MAXT], fallback_order[2 * MAXT];
    int when_stuck, voluntary, must_play, batch, max_per_turn, draw_and_pass, one_each, draws;
    int penalties, per_draw, pass_after_draws, pass_when_empty;
    int play, opening_bonus, zero_triple_bonus, bridge_bonus, hexagon_bonus[3];
    int scoring, out_bonus, lowest_collects;
    int nsides, side_of[MAXP], side_size[MAXP], side_seats[MAXP][MAXP];
    int64_t target;
    int at_once, round_winner;      /* Match.target_check "at_once", several "round_winner" */
    int zero_instead, zero_tile;    /* HighestTriple.zero_instead; the 0-0-0 tile, or -1 */
    /* the fits of each corner pattern: a mask, and the (tile, rotation) pairs in order */
    mask_t fitmask[TPATTERNS];
    uint16_t fitstart[TPATTERNS + 1];
    uint8_t fit_tile[MAXT * 3 * 8], fit_rot[MAXT * 3 * 8];
    /* a chain game's round scoring (TSCORE_CHAIN): the chain kernel's score_round reads it */
    Spec chain;
} TSpec;

typedef struct {
    int8_t kind;
    tile_t tile;
    int8_t rot;
    uint16_t cell;
} TMove;

typedef struct {
    mask_t hands[MAXP];
    mask_t drawn;
    tile_t deck[MAXT];
    int ndeck, stock_pos, current, drawn_count, last_placer, opening, direction, phase;
    int match_winner;
    int64_t round_number;
    uint64_t seed;
    int64_t scores[MAXP], play_points[MAXP];
    int8_t out[MAXP];
    int nout, nplaced, nsites;
    int err; /* E_UNSUPPORTED: an event left to the Python engine (a scorer that raises) */
    /* the latest finished round */
    int has_result, r_blocked, r_nout, r_nwinners;
    int8_t r_order[MAXP], r_winners[MAXP];
    int64_t r_hand[MAXP], r_points[MAXP];
    uint16_t sites[TMAXSITES];
    int8_t num[TPOINTS];
    uint8_t flags[TPOINTS];
} TState;

/* -- the lattice (bendolib.geometry.trilattice with STRIDE = TW) ------------------- */

static inline void t_corners(int cell, int *c) {
    int p = cell >> 1;
    if (cell & 1) {
        c[0] = p + 1;
        c[1] = p + TW + 1;
        c[2] = p + TW;
    } else {
        c[0] = p;
        c[1] = p + 1;
        c[2] = p + TW;
    }
}

static inline void t_neighbors(int cell, int *nb) {
    int p = cell >> 1;
    if (cell & 1) {
        nb[0] = (p + 1) * 2;
        nb[1] = (p + TW) * 2;
        nb[2] = p * 2;
    } else {
        nb[0] = (p - TW) * 2 + 1;
        nb[1] = p * 2 + 1;
        nb[2] = (p - 1) * 2 + 1;
    }
}

static inline void t_around(int point, int *c) {
    c[0] = point * 2;
    c[1] = (point - TW) * 2 + 1;
    c[2] = (point - TW) * 2;
    c[3] = (point - TW - 1) * 2 + 1;
    c[4] = (point - 1) * 2;
    c[5] = (point - 1) * 2 + 1;
}

static inline int t_filled(const TState *st, int cell) {
    return (st->flags[cell >> 1] >> (cell & 1)) & 1;
}

static inline int t_is_site(const TState *st, int cell) {
    return (st->flags[cell >> 1] >> (2 + (cell & 1))) & 1;
}

static inline int t_pattern(const TState *st, int cell) {
    int c[3];
    t_corners(cell, c);
    return (st->num[c[0]] + 1) | ((st->num[c[1]] + 1) << 4) | ((st->num[c[2]] + 1) << 8);
}

/* the numbers at a cell's corners 0, 1, 2 when tile lies there turned rot steps */
static inline void t_turned(const TSpec *sp, int tile, int rot, int *shown) {
    for (int k = 0; k < 3; k++)
        shown[k] = sp->face[tile][((k - rot) % 3 + 3) % 3];
}

static int t_in_range(int cell) {
    int p = cell >> 1, i = p / TW - TMID, j = p % TW - TMID;
    return i >= -TLIM && i <= TLIM && j >= -TLIM && j <= TLIM;
}

/* lay tile in cell (listed, so it fits): numbers, flags, the sites' order (play) */
static int t_lay(const TSpec *sp, TState *st, int cell, int tile, int rot) {
    if (!t_in_range(cell))
        return E_UNSUPPORTED;
    int c[3], shown[3], nb[3];
    t_corners(cell, c);
    t_turned(sp, tile, rot, shown);
    for (int k = 0; k < 3; k++)
        st->num[c[k]] = (int8_t)shown[k];
    int p = cell >> 1, down = cell & 1;
    st->flags[p] = (uint8_t)((st->flags[p] | (1 << down)) & ~(4 << down));
    int w = 0;
    for (int k = 0; k < st->nsites; k++)
        if (st->sites[k] != cell)
            st->sites[w++] = st->sites[k];
    st->nsites = w;
    t_neighbors(cell, nb);
    for (int k = 0; k < 3; k++)
        if (!t_filled(st, nb[k]) && !t_is_site(st, nb[k])) {
            if (st->nsites >= TMAXSITES)
                return E_UNSUPPORTED;
            st->flags[nb[k] >> 1] |= (uint8_t)(4 << (nb[k] & 1));
            st->sites[st->nsites++] = (uint16_t)nb[k];
        }
    st->nplaced++;
    return 0;
}

/* some tile of mask fits (engine._fits) */
static int t_fits(const TSpec *sp, const TState *st, mask_t mask) {
    if (!mask)
        return 0;
    if (!st->nplaced)
        return 1;
    for (int k = 0; k < st->nsites; k++)
        if (mask & sp->fitmask[t_pattern(st, st->sites[k])])
            return 1;
    return 0;
}

/* what a tile laid in cell scores in play with cell counted filled (TriangleScoring) */
static int64_t t_score(const TSpec *sp, const TState *st, int cell, int tile) {
    int64_t points = sp->points[tile];
    if (!st->nplaced) {
        if ((sp->triples >> tile) & 1) {
            points += sp->opening_bonus;
            if (!sp->face[tile][0] && !sp->face[tile][1] && !sp->face[tile][2])
                points += sp->zero_triple_bonus;
        }
        return points;
    }
    int c[3], nb[3], around[6];
    t_corners(cell, c);
    int hexagons = 0;
    for (int k = 0; k < 3; k++) {
        t_around(c[k], around);
        int all = 1;
        for (int a = 0; a < 6 && all; a++)
            all = around[a] == cell || t_filled(st, around[a]);
        hexagons += all;
    }
    if (hexagons)
        return points + sp->hexagon_bonus[hexagons - 1];
    t_neighbors(cell, nb);
    int shared = -1, count = 0;
    for (int k = 0; k < 3; k++)
        if (t_filled(st, nb[k])) {
            shared = k;
            count++;
        }
    if (count != 1)
        return points;
    t_around(c[(shared + 2) % 3], around);
    for (int a = 0; a < 6; a++)
        if (around[a] != cell && t_filled(st, around[a]))
            return points + sp->bridge_bonus;
    return points;
}

/* the tiles of the whole set that fit the board once tile lies in cell (greedy's look) */
static mask_t t_fitting_after(const TSpec *sp, TState *st, int cell, int tile, int rot) {
    int c[3], shown[3], nb[3];
    int8_t old[3];
    t_corners(cell, c);
    t_turned(sp, tile, rot, shown);
    for (int k = 0; k < 3; k++)
        old[k] = st->num[c[k]];
    for (int k = 0; k < 3; k++)
        st->num[c[k]] = (int8_t)shown[k];
    mask_t all = 0;
    for (int k = 0; k < st->nsites; k++)
        if (st->sites[k] != cell)
            all |= sp->fitmask[t_pattern(st, st->sites[k])];
    t_neighbors(cell, nb);
    for (int k = 0; k < 3; k++)
        if (!t_filled(st, nb[k]) && !t_is_site(st, nb[k]) && nb[k] != cell) {
            int dup = 0;
            for (int m = 0; m < k; m++)
                dup |= nb[m] == nb[k];
            if (!dup)
                all |= sp->fitmask[t_pattern(st, nb[k])];
        }
    for (int k = 2; k >= 0; k--)
        st->num[c[k]] = old[k];
    return all;
}

/* -- listing (engine.legal_moves) ------------------------------------------------- */

typedef struct {
    TMove *moves;
    int count;
} TList;

static inline int t_push(TList *list, int kind, int cell, int tile, int rot) {
    if (list->count >= TMAXMOVES)
        return E_UNSUPPORTED;
    TMove *m = &list->moves[list->count++];
    m->kind = (int8_t)kind;
    m->cell = (uint16_t)cell;
    m->tile = (tile_t)tile;
    m->rot = (int8_t)rot;
    return 0;
}

/* the placements of the tiles of mask, by site, tile index, rotation */
static int t_list_places(const TSpec *sp, const TState *st, mask_t mask, TList *list) {
    if (!st->nplaced) {
        for (mask_t m = mask; m; m &= m - 1)
            if (t_push(list, K_PLACE, TORIGIN, lowest_bit(m), 0))
                return E_UNSUPPORTED;
        return 0;
    }
    for (int k = 0; k < st->nsites; k++) {
        int site = st->sites[k], pat = t_pattern(st, site);
        if (!(mask & sp->fitmask[pat]))
            continue;
        for (int f = sp->fitstart[pat]; f < sp->fitstart[pat + 1]; f++)
            if ((mask >> sp->fit_tile[f]) & 1)
                if (t_push(list, K_PLACE, site, sp->fit_tile[f], sp->fit_rot[f]))
                    return E_UNSUPPORTED;
    }
    return 0;
}

static int t_list_moves(const TSpec *sp, const TState *st, TList *list) {
    list->count = 0;
    if (st->phase != PLAYING)
        return st->phase == ROUND_OVER ? t_push(list, K_NEXT, 0, 0, 0) : 0;
    if (st->opening >= 0) {
        if (t_push(list, K_PLACE, TORIGIN, st->opening, 0))
            return E_UNSUPPORTED;
        /* HighestTriple.alternatives: 0-0-0 may open instead of another triple */
        int zero = sp->zero_tile;
        if (sp->zero_instead && zero >= 0 && zero != st->opening &&
            ((sp->triples >> st->opening) & 1) && ((st->hands[st->current] >> zero) & 1))
            return t_push(list, K_PLACE, TORIGIN, zero, 0);
        return 0;
    }
    mask_t hand = st->hands[st->current];
    if (st->drawn)
        hand &= st->drawn;
    if (t_list_places(sp, st, hand, list))
        return E_UNSUPPORTED;
    int places = list->count;
    if (st->drawn) {
        if (!places)
            return t_push(list, K_DRAW, 0, 0, 0);
        if (sp->must_play)
            return 0;
        return t_push(list, K_PASS, 0, 0, 0);
    }
    if (sp->draws && st->stock_pos < st->ndeck && (sp->voluntary || !places))
        return t_push(list, K_DRAW, 0, 0, 0);
    if (!places)
        return t_push(list, K_PASS, 0, 0, 0);
    return 0;
}

/* -- the end of a round ------------------------------------------------------------ */

static int64_t t_hand_points(const TSpec *sp, mask_t hand) {
    int64_t total = 0;
    for (; hand; hand &= hand - 1)
        total += sp->points[lowest_bit(hand)];
    return total;
}

/* Match.winner; round_sides: a mask of the sides that won the round just ended (read under
 * several="round_winner"; 0 from a placement under target_check="at_once") */
static int t_match_winner(const TSpec *sp, const TState *st, unsigned round_sides) {
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
    if (sp->round_winner) {
        int side = round_winner_side(totals, sp->nsides, sp->target, round_sides);
        if (side >= 0)
            return side;
    }
    int leader = -1;
    for (int i = 0; i < sp->nsides; i++)
        if (totals[i] == best) {
            if (leader >= 0)
                return -1;
            leader = i;
        }
    return leader;
}

static void t_finish_round(const TSpec *sp, TState *st, int blocked) {
    int players = sp->players;
    int64_t hp[MAXP], points[MAXP] = {0}, total = 0;
    int8_t winners[MAXP];
    int nwinners = 0;
    for (int s = 0; s < players; s++) {
        hp[s] = t_hand_points(sp, st->hands[s]);
        total += hp[s];
    }
    if (sp->scoring == TSCORE_CHAIN) {
        /* the chain kernel's score_round on the few fields it reads of a state */
        KState ks;
        ks.nout = st->nout;
        memcpy(ks.out, st->out, sizeof ks.out);
        ks.last_placer = st->last_placer;
        memcpy(ks.play_points, st->play_points, sizeof ks.play_points);
        if (score_round(&sp->chain, &ks, blocked, hp, points, winners, &nwinners)) {
            st->err = E_UNSUPPORTED;
            return;
        }
    } else if (sp->scoring == TSCORE_MOST_PLAY) {
        int64_t best = st->play_points[0];
        for (int s = 1; s < players; s++)
            if (st->play_points[s] > best)
                best = st->play_points[s];
        for (int s = 0; s < players; s++)
            if (st->play_points[s] == best)
                winners[nwinners++] = (int8_t)s;
    } else if (st->nout) {
        int w = st->out[0];
        points[w] = sp->out_bonus + total - hp[w];
        winners[nwinners++] = (int8_t)w;
    } else {
        int64_t low = hp[0];
        for (int s = 1; s < players; s++)
            if (hp[s] < low)
                low = hp[s];
        int lowest = -1, nlow = 0;
        for (int s = 0; s < players; s++)
            if (hp[s] == low) {
                if (lowest < 0)
                    lowest = s;
                nlow++;
            }
        if (nlow == 1)
            winners[nwinners++] = (int8_t)lowest;
        if (!sp->lowest_collects) {
            for (int s = 0; s < players; s++)
                points[s] = -hp[s];
        } else if (nlow == 1) {
            points[lowest] = total - 2 * low;
        }
    }
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
    memcpy(st->r_winners, winners, (size_t)nwinners);
    unsigned round_sides = 0;
    for (int k = 0; k < nwinners; k++)
        round_sides |= 1u << sp->side_of[winners[k]];
    int winner = t_match_winner(sp, st, round_sides);
    st->phase = winner >= 0 ? GAME_OVER : ROUND_OVER;
    st->match_winner = winner;
    st->drawn = 0;
    st->drawn_count = 0;
}

/* the match won in play (Match.target_check "at_once", engine._stop_match) */
static void t_stop_match(const TSpec *sp, TState *st, int player, int winner) {
    if (!st->hands[player])
        st->out[st->nout++] = (int8_t)player;
    for (int s = 0; s < sp->players; s++) {
        st->r_hand[s] = t_hand_points(sp, st->hands[s]);
        st->r_points[s] = 0;
    }
    st->has_result = 1;
    st->r_blocked = 0;
    st->r_nout = st->nout;
    memcpy(st->r_order, st->out, sizeof st->out);
    st->r_nwinners = 1;
    st->r_winners[0] = (int8_t)player;
    st->phase = GAME_OVER;
    st->match_winner = winner;
    st->current = player;
    st->last_placer = player;
    st->drawn = 0;
    st->drawn_count = 0;
}

/* -- applying moves ----------------------------------------------------------------- */

static int t_next_seat(const TSpec *sp, const TState *st, int seat) {
    for (int k = 0; k < sp->players; k++) {
        seat = mod(seat + st->direction, sp->players);
        if (st->hands[seat])
            break;
    }
    return seat;
}

static mask_t t_all_hands(const TSpec *sp, const TState *st) {
    mask_t all = 0;
    for (int s = 0; s < sp->players; s++)
        all |= st->hands[s];
    return all;
}

static int t_blocked(const TSpec *sp, const TState *st) {
    if (st->stock_pos < st->ndeck && sp->draws)
        return 0;
    return !t_fits(sp, st, t_all_hands(sp, st));
}

static void t_end_turn(const TSpec *sp, TState *st) {
    if (t_blocked(sp, st)) {
        t_finish_round(sp, st, 1);
        return;
    }
    st->current = t_next_seat(sp, st, st->current);
    st->drawn = 0;
    st->drawn_count = 0;
}

#define SCORE_LIMIT ((int64_t)1 << 62)

static int t_place(const TSpec *sp, TState *st, const TMove *m) {
    int player = st->current, tile = m->tile;
    int64_t gained = sp->play ? t_score(sp, st, m->cell, tile) : 0;
    int err = t_lay(sp, st, m->cell, tile, m->rot);
    if (err)
        return err;
    mask_t hand = st->hands[player] &= ~((mask_t)1 << tile);
    st->opening = -1;
    st->last_placer = player;
    st->drawn = 0;
    st->drawn_count = 0;
    if (gained) {
        st->scores[player] += gained;
        st->play_points[player] += gained;
        if (sp->at_once) {
            int winner = t_match_winner(sp, st, 0);
            if (winner >= 0) {
                t_stop_match(sp, st, player, winner);
                return 0;
            }
        }
    }
    if (hand) {
        if (t_blocked(sp, st)) {
            t_finish_round(sp, st, 1);
            return 0;
        }
        int seat = mod(player + st->direction, sp->players);
        if (!st->hands[seat])
            seat = t_next_seat(sp, st, seat);
        st->current = seat;
        return 0;
    }
    st->out[st->nout++] = (int8_t)player;
    if (!sp->finish_last) {
        t_finish_round(sp, st, 0);
        return 0;
    }
    int holding = 0;
    for (int s = 0; s < sp->players; s++)
        holding += st->hands[s] != 0;
    if (holding <= 1) {
        t_finish_round(sp, st, 0);
        return 0;
    }
    t_end_turn(sp, st);
    return 0;
}

/* the penalty of a draw or pass (DrawPenalties.cost): drew, the turn over, the stock left */
static int64_t t_cost(const TSpec *sp, int drew, int turn_over, int stock_empty, int drew_before) {
    int64_t cost = drew ? sp->per_draw : 0;
    if (turn_over) {
        if (stock_empty)
            cost += sp->pass_when_empty;
        else if (drew || drew_before)
            cost += sp->pass_after_draws;
        else
            cost += sp->pass_when_empty;
    }
    return cost;
}

static void t_charge(const TSpec *sp, TState *st, int64_t cost) {
    st->scores[st->current] -= cost;
    st->play_points[st->current] -= cost;
}

/* engine._draw (with engine._penalised's charge before the turn passes on) */
static int t_draw(const TSpec *sp, TState *st) {
    int player = st->current;
    mask_t before = st->drawn;
    mask_t hand0 = before ? st->hands[player] & before : st->hands[player];
    int could_place = t_fits(sp, st, hand0);
    int limit = sp->batch;
    if (sp->max_per_turn && sp->max_per_turn - st->drawn_count < limit)
        limit = sp->max_per_turn - st->drawn_count;
    int taken = 0;
    mask_t mask = 0;
    while (taken < limit && st->stock_pos < st->ndeck) {
        mask |= (mask_t)1 << st->deck[st->stock_pos++];
        taken++;
    }
    mask_t hand = st->hands[player] |= mask;
    st->drawn |= mask;
    st->drawn_count += taken;
    int keep;
    if (could_place && !before && sp->draw_and_pass) {
        keep = 0;
    } else {
        keep = t_fits(sp, st, hand & st->drawn);
        if (!keep && sp->when_stuck == UNTIL_FITS && st->stock_pos < st->ndeck) {
            int more = !sp->max_per_turn || st->drawn_count < sp->max_per_turn;
            keep = more && !t_fits(sp, st, hand & ~st->drawn);
            if (keep && sp->one_each) {
                mask_t off = t_all_hands(sp, st);
                for (int k = st->stock_pos; k < st->ndeck; k++)
                    off |= (mask_t)1 << st->deck[k];
                keep = t_fits(sp, st, off);
            }
        }
    }
    if (sp->penalties)
        t_charge(sp, st, t_cost(sp, 1, !keep, st->stock_pos >= st->ndeck, before != 0));
    if (!keep)
        t_end_turn(sp, st);
    return 0;
}

static int t_pass(const TSpec *sp, TState *st) {
    if (sp->penalties)
        t_charge(sp, st, t_cost(sp, 0, 1, st->stock_pos >= st->ndeck, st->drawn != 0));
    t_end_turn(sp, st);
    return 0;
}

static void t_clear_board(TState *st) {
    memset(st->num, -1, sizeof st->num);
    memset(st->flags, 0, sizeof st->flags);
    st->nplaced = 0;
    st->nsites = 0;
}

/* the tile of the first order listed that is dealt, or -1 */
static int t_first_dealt(const tile_t *order, int n, mask_t dealt) {
    for (int k = 0; k < n; k++)
        if ((dealt >> order[k]) & 1)
            return order[k];
    return -1;
}

/* HighestTriple.choose / FixedSeat.choose: 1 for a redeal */
static int t_choose_start(const TSpec *sp, const TState *st, int *player, int *opening) {
    if (sp->start_kind == TSTART_FIXED) {
        *player = sp->start_seat;
        *opening = -1;
        return 0;
    }
    mask_t dealt = t_all_hands(sp, st);
    int tile = t_first_dealt(sp->triple_order, sp->ntriples, dealt);
    if (tile < 0) {
        if (sp->start_redeal)
            return 1;
        tile = t_first_dealt(sp->fallback_order, sp->nfallback, dealt);
        if (tile < 0)
            return 1;
    }
    for (int s = 0; s < sp->players; s++)
        if ((st->hands[s] >> tile) & 1)
            *player = s;
    *opening = sp->start_opens ? tile : -1;
    return 0;
}

static int t_deal_round(const TSpec *sp, TState *st, int64_t round_number) {
    if (sp->start_kind == TSTART_FIXED && sp->start_seat >= sp->players)
        return E_UNSUPPORTED;
    if ((int64_t)sp->players * sp->hand_size > sp->n)
        return E_UNSUPPORTED;
    for (int attempt = 0; attempt < 1000; attempt++) {
        Rng rng = {derive_seed2(st->seed, (uint64_t)round_number, (uint64_t)attempt, 2)};
        int n = sp->n;
        for (int i = 0; i < n; i++)
            st->deck[i] = (tile_t)i;
        for (int i = n - 1; i > 0; i--) {
            int j = rng_below(&rng, (uint64_t)(i + 1));
            tile_t t = st->deck[i];
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
        int player = 0, opening = -1;
        if (t_choose_start(sp, st, &player, &opening))
            continue;
        t_clear_board(st);
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

static int t_apply(const TSpec *sp, TState *st, const TMove *m) {
    switch (m->kind) {
    case K_PLACE:
        return t_place(sp, st, m);
    case K_DRAW:
        return t_draw(sp, st);
    case K_PASS:
        return t_pass(sp, st);
    default:
        return t_deal_round(sp, st, st->round_number + 1);
    }
}

/* -- policies ----------------------------------------------------------------------- */

static int t_heaviest(const TSpec *sp, const TList *list) {
    int best = -1;
    int32_t points = -1;
    for (int k = 0; k < list->count; k++)
        if (list->moves[k].kind == K_PLACE && sp->points[list->moves[k].tile] > points) {
            best = k;
            points = sp->points[list->moves[k].tile];
        }
    if (best >= 0)
        return best;
    for (int k = 0; k < list->count; k++)
        if (list->moves[k].kind == K_DRAW)
            return k;
    return 0;
}

static int t_greedy(const TSpec *sp, TState *st, const TList *list) {
    int64_t top_now = INT64_MIN;
    int32_t top_points = -1;
    int first = -1, ties = 0;
    for (int k = 0; k < list->count; k++) {
        const TMove *m = &list->moves[k];
        if (m->kind != K_PLACE)
            continue;
        int64_t now = sp->play ? t_score(sp, st, m->cell, m->tile) : 0;
        int32_t points = sp->points[m->tile];
        if (now > top_now || (now == top_now && points > top_points)) {
            top_now = now;
            top_points = points;
            first = k;
            ties = 1;
        } else if (now == top_now && points == top_points) {
            ties++;
        }
    }
    if (first >= 0 && ties == 1)
        return first;
    if (first >= 0) {
        mask_t hand = st->hands[st->current];
        int best = first, most = -1;
        for (int k = first; k < list->count; k++) {
            const TMove *m = &list->moves[k];
            if (m->kind != K_PLACE)
                continue;
            int64_t now = sp->play ? t_score(sp, st, m->cell, m->tile) : 0;
            if (now != top_now || sp->points[m->tile] != top_points)
                continue;
            mask_t rest = hand & ~((mask_t)1 << m->tile);
            int options = 0;
            if (rest)
                options = popcount_mask(t_fitting_after(sp, st, m->cell, m->tile, m->rot) & rest);
            if (options > most) {
                best = k;
                most = options;
            }
        }
        return best;
    }
    for (int k = 0; k < list->count; k++)
        if (list->moves[k].kind == K_DRAW)
            return k;
    return 0;
}

/* -- import from Python --------------------------------------------------------------- */

static void tri_spec_destroy(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, TRI_CAPSULE));
}

/* the fit tables: every (tile, rotation) reading once, under its 8 patterns */
static void t_build_fits(TSpec *sp) {
    static uint16_t count[TPATTERNS];
    memset(count, 0, sizeof count);
    memset(sp->fitmask, 0, sizeof sp->fitmask);
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            int at = 0;
            for (int p = 0; p < TPATTERNS; p++) {
                sp->fitstart[p] = (uint16_t)at;
                at += count[p];
                count[p] = 0;
            }
            sp->fitstart[TPATTERNS] = (uint16_t)at;
        }
        for (int i = 0; i < sp->n; i++) {
            int seen[3][3], nseen = 0;
            for (int rot = 0; rot < 3; rot++) {
                int shown[3], dup = 0;
                t_turned(sp, i, rot, shown);
                for (int s = 0; s < nseen; s++)
                    dup |= seen[s][0] == shown[0] && seen[s][1] == shown[1] && seen[s][2] == shown[2];
                if (dup)
                    continue;
                memcpy(seen[nseen++], shown, sizeof shown);
                for (int free = 0; free < 8; free++) {
                    int pat = 0;
                    for (int k = 0; k < 3; k++)
                        pat |= ((free >> k) & 1 ? 0 : shown[k] + 1) << (4 * k);
                    if (pass) {
                        int at = sp->fitstart[pat] + count[pat];
                        sp->fit_tile[at] = (uint8_t)i;
                        sp->fit_rot[at] = (uint8_t)rot;
                        sp->fitmask[pat] |= (mask_t)1 << i;
                    }
                    count[pat]++;
                }
            }
        }
    }
}

static int t_read_order(PyObject *t, tile_t *out, int cap, int n, int *count) {
    if (tuple_of(t, -1, "order"))
        return -1;
    *count = (int)PyTuple_GET_SIZE(t);
    if (*count > cap)
        return unsupported("a start order beyond the kernel's range");
    for (int k = 0; k < *count; k++) {
        long long v;
        GET(t, k, v);
        if (v < 0 || v >= n)
            return unsupported("a start order's tile out of range");
        out[k] = (tile_t)v;
    }
    return 0;
}

/* spec tuple: see bendolib._kernel_tri_input.tri_spec_tuple */
static int tri_read_spec(PyObject *t, TSpec *sp) {
    memset(sp, 0, sizeof *sp);
    if (tuple_of(t, 11, "triangle spec"))
        return -1;
    PyObject *head = PyTuple_GET_ITEM(t, 1), *tiles = PyTuple_GET_ITEM(t, 2),
             *start = PyTuple_GET_ITEM(t, 3), *draw = PyTuple_GET_ITEM(t, 4),
             *pen = PyTuple_GET_ITEM(t, 5), *play = PyTuple_GET_ITEM(t, 6),
             *scoring = PyTuple_GET_ITEM(t, 7), *sides = PyTuple_GET_ITEM(t, 8),
             *match = PyTuple_GET_ITEM(t, 9), *chain = PyTuple_GET_ITEM(t, 10);
    if (tuple_of(head, 5, "head") || tuple_of(tiles, -1, "tiles") || tuple_of(start, 7, "start") ||
        tuple_of(draw, 7, "draw") || tuple_of(pen, 4, "penalties") || tuple_of(play, 7, "play") ||
        tuple_of(scoring, 3, "scoring") || tuple_of(sides, -1, "sides") ||
        tuple_of(match, 3, "match"))
        return -1;
    GET(head, 0, sp->players);
    GET(head, 1, sp->n);
    GET(head, 2, sp->top);
    GET(head, 3, sp->finish_last);
    GET(head, 4, sp->hand_size);
    if (sp->players < 1 || sp->players > MAXP || sp->n < 1 || sp->n > MAXT ||
        sp->n != PyTuple_GET_SIZE(tiles) || sp->hand_size < 1 || sp->top < 0 || sp->top > 14)
        return unsupported("players, tiles or numbers out of the kernel's range");
    for (int i = 0; i < sp->n; i++) {
        PyObject *tile = PyTuple_GET_ITEM(tiles, i);
        long long f[3], points;
        if (tuple_of(tile, 4, "tile"))
            return -1;
        for (int k = 0; k < 3; k++) {
            GET(tile, k, f[k]);
            if (f[k] < 0 || f[k] > 14)
                return unsupported("a triangle number out of the kernel's range");
            sp->face[i][k] = (int8_t)f[k];
        }
        GET(tile, 3, points);
        sp->points[i] = (int32_t)points;
        if (f[0] == f[1] && f[1] == f[2])
            sp->triples |= (mask_t)1 << i;
    }
    sp->full = sp->n == MAXT ? ~(mask_t)0 : (((mask_t)1 << sp->n) - 1);
    sp->zero_tile = -1;
    for (int i = 0; i < sp->n && sp->zero_tile < 0; i++)
        if (!sp->face[i][0] && !sp->face[i][1] && !sp->face[i][2])
            sp->zero_tile = i;
    t_build_fits(sp);
    GET(start, 0, sp->start_kind);
    GET(start, 1, sp->start_opens);
    GET(start, 2, sp->start_seat);
    GET(start, 3, sp->start_redeal);
    GET(start, 6, sp->zero_instead);
    if (sp->start_kind != TSTART_HIGHEST_TRIPLE && sp->start_kind != TSTART_FIXED)
        return unsupported("a start the kernel does not know");
    if (t_read_order(PyTuple_GET_ITEM(start, 4), sp->triple_order, MAXT, sp->n, &sp->ntriples) ||
        t_read_order(PyTuple_GET_ITEM(start, 5), sp->fallback_order, 2 * MAXT, sp->n,
                     &sp->nfallback))
        return -1;
    GET(draw, 0, sp->when_stuck);
    GET(draw, 1, sp->voluntary);
    GET(draw, 2, sp->must_play);
    GET(draw, 3, sp->batch);
    GET(draw, 4, sp->max_per_turn);
    GET(draw, 5, sp->draw_and_pass);
    GET(draw, 6, sp->one_each);
    if (sp->when_stuck < NEVER || sp->when_stuck > UNTIL_FITS || sp->batch < 1 ||
        sp->max_per_turn < 0)
        return unsupported("a draw the kernel does not know");
    sp->draws = sp->when_stuck != NEVER;
    sp->draw_and_pass = sp->draw_and_pass && sp->voluntary;
    GET(pen, 0, sp->penalties);
    GET(pen, 1, sp->per_draw);
    GET(pen, 2, sp->pass_after_draws);
    GET(pen, 3, sp->pass_when_empty);
    GET(play, 0, sp->play);
    GET(play, 1, sp->opening_bonus);
    GET(play, 2, sp->zero_triple_bonus);
    GET(play, 3, sp->bridge_bonus);
    for (int k = 0; k < 3; k++)
        GET(play, 4 + k, sp->hexagon_bonus[k]);
    GET(scoring, 0, sp->scoring);
    GET(scoring, 1, sp->out_bonus);
    GET(scoring, 2, sp->lowest_collects);
    if (sp->scoring != TSCORE_MOST_PLAY && sp->scoring != TSCORE_TRIOMINOES &&
        sp->scoring != TSCORE_CHAIN)
        return unsupported("a round scoring the kernel does not know");
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
    GET(match, 1, sp->at_once);
    GET(match, 2, sp->round_winner);
    if (tuple_of(chain, 2, "chain scoring"))
        return -1;
    if (sp->scoring == TSCORE_CHAIN) {
        /* the fields of a chain Spec that score_round reads */
        Spec *c = &sp->chain;
        PyObject *cs = PyTuple_GET_ITEM(chain, 0), *places = PyTuple_GET_ITEM(chain, 1);
        if (tuple_of(cs, 7, "scoring") || tuple_of(places, -1, "places"))
            return -1;
        c->players = sp->players;
        GET(cs, 0, c->scoring);
        GET(cs, 1, c->lowest_side);
        GET(cs, 2, c->locker_loses);
        GET(cs, 3, c->minus_own);
        GET(cs, 4, c->out_wins);
        GET(cs, 5, c->takes_all);
        GET(cs, 6, c->win_points);
        if (c->scoring < SCORE_WINNER_TAKES || c->scoring > SCORE_HIGHEST_PLAY)
            return unsupported("an unknown round scoring");
        if (PyTuple_GET_SIZE(places) > 2 + MAXP || PyTuple_GET_SIZE(places) == 1)
            return unsupported("too many place points");
        for (Py_ssize_t k = 2; k < PyTuple_GET_SIZE(places); k++)
            GET(places, k, c->place_points[k - 2]);
        if (PyTuple_GET_SIZE(places)) {
            GET(places, 0, c->share);
            GET(places, 1, c->round_up);
        }
        c->nsides = sp->nsides;
        memcpy(c->side_of, sp->side_of, sizeof c->side_of);
        memcpy(c->side_size, sp->side_size, sizeof c->side_size);
        memcpy(c->side_seats, sp->side_seats, sizeof c->side_seats);
    }
    return 0;
}

static PyObject *tri_compile(PyObject *arg) {
    TSpec *sp = (TSpec *)PyMem_Malloc(sizeof(TSpec));
    if (!sp)
        return PyErr_NoMemory();
    if (tri_read_spec(arg, sp)) {
        PyMem_Free(sp);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(sp, TRI_CAPSULE, tri_spec_destroy);
    if (!capsule)
        PyMem_Free(sp);
    return capsule;
}

/* the cell index of lattice cell (i, j, down), or -1 beyond the kernel's grid */
static int t_cell_of(long long i, long long j, long long down) {
    if (i < -TLIM || i > TLIM || j < -TLIM || j > TLIM || down < 0 || down > 1)
        return -1;
    return (int)(((i + TMID) * TW + (j + TMID)) * 2 + down);
}

/* *cell: the cell named by the tuple p's first three items (x, y, down) */
static int t_read_cell(PyObject *p, int *cell, const char *beyond) {
    long long i, j, down;
    GET(p, 0, i);
    GET(p, 1, j);
    GET(p, 2, down);
    *cell = t_cell_of(i, j, down);
    return *cell < 0 ? unsupported(beyond) : 0;
}

/* state tuple: see bendolib._kernel_tri_input.tri_state_tuple */
static int tri_read_state(const TSpec *sp, PyObject *t, TState *st) {
    memset(st, 0, offsetof(TState, num));
    t_clear_board(st);
    if (tuple_of(t, 20, "triangle state"))
        return -1;
    long long players, v;
    GET(t, 0, players);
    if (players != sp->players)
        return unsupported("the state's player count is not the spec's");
    st->seed = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, 1));
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
        return unsupported("a deck beyond the kernel's tiles");
    for (int i = 0; i < st->ndeck; i++) {
        GET(deck, i, v);
        if (v < 0 || v >= sp->n)
            return unsupported("a deck index out of range");
        st->deck[i] = (tile_t)v;
    }
    GET(t, 4, st->stock_pos);
    if (st->stock_pos < 0 || st->stock_pos > st->ndeck)
        return unsupported("a stock position out of range");
    PyObject *hands = PyTuple_GET_ITEM(t, 5);
    if (tuple_of(hands, sp->players, "hands"))
        return -1;
    for (int s = 0; s < sp->players; s++) {
        if (read_mask(PyTuple_GET_ITEM(hands, s), &st->hands[s]))
            return -1;
        if (st->hands[s] & ~sp->full)
            return unsupported("a hand with tiles beyond the set");
    }
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
        if (v < 0 || v >= sp->players)
            return unsupported("a seat out of range");
        st->out[k] = (int8_t)v;
    }
    if (read_int_tuple(PyTuple_GET_ITEM(t, 13), st->play_points, sp->players, "play points"))
        return -1;
    /* Scores and play points within 2**62: a playout adds at most a few thousand points a
       round, so its sums cannot overflow 64 bits (issue 22 K6); larger ones are left to
       the Python engine. */
    for (int s = 0; s < sp->players; s++)
        if (st->scores[s] > SCORE_LIMIT || st->scores[s] < -SCORE_LIMIT ||
            st->play_points[s] > SCORE_LIMIT || st->play_points[s] < -SCORE_LIMIT)
            return unsupported("a score beyond 2**62");
    GET(t, 14, st->phase);
    GET(t, 15, st->last_placer);
    GET(t, 16, st->match_winner);
    if (st->opening < -1 || st->opening >= sp->n || st->last_placer < -1 ||
        st->last_placer >= sp->players || st->phase < PLAYING || st->phase > GAME_OVER)
        return unsupported("an opening tile, last placer or phase out of range");
    PyObject *placements = PyTuple_GET_ITEM(t, 17), *sites = PyTuple_GET_ITEM(t, 18);
    if (tuple_of(placements, -1, "placements") || tuple_of(sites, -1, "sites"))
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(placements); k++) {
        PyObject *p = PyTuple_GET_ITEM(placements, k);
        long long c[3];
        int cell, corner[3];
        if (tuple_of(p, 6, "placement") ||
            t_read_cell(p, &cell, "a tile beyond the kernel's lattice"))
            return -1;
        t_corners(cell, corner);
        for (int m = 0; m < 3; m++) {
            GET(p, 3 + m, c[m]);
            if (c[m] < 0 || c[m] > 14)
                return unsupported("a number out of the kernel's range");
            st->num[corner[m]] = (int8_t)c[m];
        }
        st->flags[cell >> 1] |= (uint8_t)(1 << (cell & 1));
        st->nplaced++;
    }
    st->nsites = (int)PyTuple_GET_SIZE(sites);
    if (st->nsites > TMAXSITES)
        return unsupported("more open cells than the kernel holds");
    for (int k = 0; k < st->nsites; k++) {
        PyObject *site = PyTuple_GET_ITEM(sites, k);
        int cell;
        if (tuple_of(site, 3, "site") ||
            t_read_cell(site, &cell, "an open cell beyond the kernel's lattice"))
            return -1;
        st->sites[k] = (uint16_t)cell;
        st->flags[cell >> 1] |= (uint8_t)(4 << (cell & 1));
    }
    PyObject *result = PyTuple_GET_ITEM(t, 19);
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

/* -- results and entry points ------------------------------------------------------ */

/* what an Outcome needs of a final state */
typedef struct {
    int64_t scores[MAXP], r_hand[MAXP], r_points[MAXP];
    int phase, match_winner, has_result, r_blocked, r_nout, r_nwinners;
    int8_t r_order[MAXP], r_winners[MAXP];
} TFinal;

static void t_final(const TState *st, TFinal *f) {
    memcpy(f->scores, st->scores, sizeof f->scores);
    memcpy(f->r_hand, st->r_hand, sizeof f->r_hand);
    memcpy(f->r_points, st->r_points, sizeof f->r_points);
    memcpy(f->r_order, st->r_order, sizeof f->r_order);
    memcpy(f->r_winners, st->r_winners, sizeof f->r_winners);
    f->phase = st->phase;
    f->match_winner = st->match_winner;
    f->has_result = st->has_result;
    f->r_blocked = st->r_blocked;
    f->r_nout = st->r_nout;
    f->r_nwinners = st->r_nwinners;
}

static PyObject *t_outcome(PyObject *cls, int players, const TFinal *f, int moves,
                           PyObject *choices) {
    PyObject *items = PyTuple_New(10);
    if (!items)
        return NULL;
    PyTuple_SET_ITEM(items, 0, int64_tuple(f->scores, players));
    PyTuple_SET_ITEM(items, 1, PyLong_FromLong(f->phase));
    PyTuple_SET_ITEM(items, 2, PyLong_FromLong(f->match_winner));
    if (f->has_result) {
        PyTuple_SET_ITEM(items, 3, PyBool_FromLong(f->r_blocked));
        PyTuple_SET_ITEM(items, 4, int8_tuple(f->r_order, f->r_nout));
        PyTuple_SET_ITEM(items, 5, int64_tuple(f->r_hand, players));
        PyTuple_SET_ITEM(items, 6, int64_tuple(f->r_points, players));
        PyTuple_SET_ITEM(items, 7, int8_tuple(f->r_winners, f->r_nwinners));
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
    PyObject *made = PyTuple_Type.tp_new((PyTypeObject *)cls, args, NULL);
    Py_DECREF(args);
    return made;
}

typedef struct {
    const TSpec *sp;
    const TState *root;
    const TMove *root_moves;
    const long *first;
    int policy, until_match, record;
    uint64_t seed;
} TBatch;

/* playout i of the batch in *st (a scratch state); touches no Python object */
static int t_play_one(const TBatch *b, Py_ssize_t i, TState *st, TMove *buffer, int **choices,
                      size_t *used, size_t *capacity, int *moves_out) {
    const TSpec *sp = b->sp;
    TList list = {buffer, 0};
    memcpy(st, b->root, sizeof *st);
    Rng rng = {derive_seed2(b->seed, (uint64_t)i, 0, 1)};
    int moves = 0, err = 0;
    long forced = b->first ? b->first[i] : -1;
    while (b->until_match ? st->phase != GAME_OVER : st->phase == PLAYING) {
        int k;
        if (forced >= 0) {
            k = (int)forced;
            forced = -1;
            err = t_apply(sp, st, &b->root_moves[k]);
        } else {
            if ((err = t_list_moves(sp, st, &list)))
                break;
            if (!list.count) {
                err = E_UNSUPPORTED;
                break;
            }
            if (b->policy == POLICY_RANDOM)
                k = list.count > 1 ? rng_below(&rng, (uint64_t)list.count) : 0;
            else if (b->policy == POLICY_HEAVIEST)
                k = t_heaviest(sp, &list);
            else
                k = t_greedy(sp, st, &list);
            err = t_apply(sp, st, &buffer[k]);
        }
        if (!err)
            err = st->err;
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

static TSpec *tri_spec(PyObject *capsule) {
    return (TSpec *)PyCapsule_GetPointer(capsule, TRI_CAPSULE);
}

static int tri_is_spec(PyObject *args) {
    return PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0 &&
           PyCapsule_IsValid(PyTuple_GET_ITEM(args, 0), TRI_CAPSULE);
}

/* run(...) for a triangle spec: as k_run */
static PyObject *tri_run(PyObject *args) {
    PyObject *capsule, *state_tuple, *first, *cls;
    Py_ssize_t count;
    int policy, until_match, record;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOniKppOO", &capsule, &state_tuple, &count, &policy, &seed,
                          &until_match, &record, &first, &cls))
        return NULL;
    TSpec *sp = tri_spec(capsule);
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
    if (first != Py_None && (!PyTuple_Check(first) || PyTuple_GET_SIZE(first) != count)) {
        PyErr_SetString(PyExc_TypeError, "kernel: first must be a tuple of count indices");
        return NULL;
    }
    PyObject *results = NULL;
    long *forced = NULL;
    int *choices = NULL;
    size_t used = 0, capacity = 0;
    TState *root = (TState *)PyMem_Malloc(sizeof(TState));
    TState *work = (TState *)PyMem_Malloc(sizeof(TState));
    TMove *root_moves = (TMove *)PyMem_Malloc(TMAXMOVES * sizeof(TMove));
    TMove *buffer = (TMove *)PyMem_Malloc(TMAXMOVES * sizeof(TMove));
    TFinal *finals = (TFinal *)PyMem_Malloc(CHUNK * sizeof(TFinal));
    int *moves = (int *)PyMem_Malloc(CHUNK * sizeof(int));
    size_t *starts = (size_t *)PyMem_Malloc(CHUNK * sizeof(size_t));
    /* (declared before the first goto: the huge build compiles this as C++) */
    TList root_list = {root_moves, 0};
    TBatch batch = {sp, root, root_moves, NULL, policy, until_match, record, seed};
    if (!root || !work || !root_moves || !buffer || !finals || !moves || !starts) {
        PyErr_NoMemory();
        goto fail;
    }
    if (tri_read_state(sp, state_tuple, root))
        goto fail;
    if (first != Py_None) {
        if (t_list_moves(sp, root, &root_list)) {
            raise_for(-1);
            goto fail;
        }
        forced = (long *)PyMem_Malloc((count ? count : 1) * sizeof(long));
        if (!forced) {
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            /* as the chain kernel: an index beyond a C long is out of range, never an
               OverflowError (issue 22 K8) */
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
    batch.first = forced;
    results = PyList_New(count);
    if (!results)
        goto fail;
    for (Py_ssize_t from = 0; from < count; from += CHUNK) {
        Py_ssize_t to = from + CHUNK < count ? from + CHUNK : count;
        int err = 0;
        used = 0;
        /* without the GIL but for a single playout, as run.c's run_from */
        PyThreadState *saved = to - from > 1 ? PyEval_SaveThread() : NULL;
        for (Py_ssize_t i = from; i < to && !err; i++) {
            starts[i - from] = used;
            err = t_play_one(&batch, i, work, buffer, &choices, &used, &capacity, &moves[i - from]);
            if (!err)
                t_final(work, &finals[i - from]);
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
            PyObject *made = t_outcome(cls, sp->players, &finals[i - from], moves[i - from],
                                       recorded);
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
    goto done;
fail:
    Py_CLEAR(results);
done:
    PyMem_Free(root);
    PyMem_Free(work);
    PyMem_Free(root_moves);
    PyMem_Free(buffer);
    PyMem_Free(finals);
    PyMem_Free(moves);
    PyMem_Free(starts);
    PyMem_Free(forced);
    PyMem_RawFree(choices);
    return results;
}

/* a move as listing() gives it: (kind, i, j, down, tile, rotation) */
static PyObject *t_move_tuple(const TMove *m) {
    if (m->kind != K_PLACE)
        return Py_BuildValue("(iiiiii)", m->kind, 0, 0, 0, 0, 0);
    int p = m->cell >> 1;
    return Py_BuildValue("(iiiiii)", m->kind, p / TW - TMID, p % TW - TMID, m->cell & 1, m->tile,
                         m->rot);
}

/* a triangle spec's state and a move buffer, read from (capsule, state, ...) */
static int t_begin(PyObject *capsule, PyObject *state_tuple, TSpec **sp, TState **st,
                   TMove **buffer) {
    *st = NULL;
    *buffer = NULL;
    if (!(*sp = tri_spec(capsule)))
        return -1;
    *st = (TState *)PyMem_Malloc(sizeof(TState));
    *buffer = (TMove *)PyMem_Malloc(TMAXMOVES * sizeof(TMove));
    if (!*st || !*buffer) {
        PyErr_NoMemory();
        return -1;
    }
    return tri_read_state(*sp, state_tuple, *st);
}

static PyObject *tri_listing(PyObject *args) {
    PyObject *capsule, *state_tuple, *out = NULL;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &state_tuple))
        return NULL;
    TSpec *sp;
    TState *st;
    TMove *buffer;
    TList list = {NULL, 0};
    if (t_begin(capsule, state_tuple, &sp, &st, &buffer))
        goto done;
    list.moves = buffer;
    if (t_list_moves(sp, st, &list)) {
        raise_for(-1);
        goto done;
    }
    out = PyTuple_New(list.count);
    if (!out)
        goto done;
    for (int k = 0; k < list.count; k++) {
        PyObject *m = t_move_tuple(&buffer[k]);
        if (!m) {
            Py_CLEAR(out);
            goto done;
        }
        PyTuple_SET_ITEM(out, k, m);
    }
done:
    PyMem_Free(st);
    PyMem_Free(buffer);
    return out;
}

static int t_perft(const TSpec *sp, const TState *st, int depth, long long *total) {
    TMove *buffer = (TMove *)PyMem_RawMalloc(TMAXMOVES * sizeof(TMove));
    TState *child = (TState *)PyMem_RawMalloc(sizeof(TState));
    int err = !buffer || !child ? E_NO_MEMORY : 0;
    TList list = {buffer, 0};
    if (!err)
        err = t_list_moves(sp, st, &list);
    if (!err && depth <= 1)
        *total += list.count;
    else
        for (int k = 0; k < list.count && !err; k++) {
            memcpy(child, st, sizeof *child);
            if (!(err = t_apply(sp, child, &buffer[k])) && !(err = child->err))
                err = t_perft(sp, child, depth - 1, total);
        }
    PyMem_RawFree(buffer);
    PyMem_RawFree(child);
    return err;
}

static PyObject *tri_perft(PyObject *args) {
    PyObject *capsule, *state_tuple, *out = NULL;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &capsule, &state_tuple, &depth))
        return NULL;
    TSpec *sp;
    TState *st;
    TMove *buffer;
    long long total = 0;
    int err;
    if (t_begin(capsule, state_tuple, &sp, &st, &buffer))
        goto done;
    err = t_perft(sp, st, depth, &total);
    if (err == E_NO_MEMORY)
        PyErr_NoMemory();
    else if (err)
        raise_for(err);
    else
        out = PyLong_FromLongLong(total);
done:
    PyMem_Free(st);
    PyMem_Free(buffer);
    return out;
}

static PyObject *tri_walk(PyObject *args) {
    PyObject *capsule, *state_tuple, *counts = NULL;
    int steps, stride;
    if (!PyArg_ParseTuple(args, "OOii", &capsule, &state_tuple, &steps, &stride))
        return NULL;
    TSpec *sp;
    TState *st;
    TMove *buffer;
    TList list = {NULL, 0};
    if (t_begin(capsule, state_tuple, &sp, &st, &buffer))
        goto done;
    if (!(counts = PyList_New(0)))
        goto done;
    list.moves = buffer;
    for (int k = 0; k < steps; k++) {
        if (t_list_moves(sp, st, &list) || (list.count &&
            (t_apply(sp, st, &buffer[(long long)stride * k % list.count]) || st->err))) {
            raise_for(-1);
            Py_CLEAR(counts);
            goto done;
        }
        if (!list.count)
            break;
        PyObject *n = PyLong_FromLong(list.count);
        if (!n || PyList_Append(counts, n)) {
            Py_XDECREF(n);
            Py_CLEAR(counts);
            goto done;
        }
        Py_DECREF(n);
    }
done:
    PyMem_Free(st);
    PyMem_Free(buffer);
    return counts;
}
