/*
 * bendolib._kernel, the rules on structs: the end of a round and its scoring, the
 * match's end, dealing and the start, the next seat, applying a move (place, draw,
 * pass, effects) and the heaviest and greedy policies.
 */

/* -- the end of a round --------------------------------------------------------- */

static int64_t hand_points(const Spec *sp, mask_t hand) {
    int64_t total = 0;
    for (; hand; CLEAR_LOWEST(hand))
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

/* Match.winner under several="round_winner" (here and in tri.c): of the sides at the
 * target, the one that won the round just ended (round_sides, a mask), when several are
 * at the target and it is the only winner among them; else -1 (the highest total wins) */
static int round_winner_side(const int64_t *totals, int nsides, int64_t target,
                             unsigned round_sides) {
    int reached = 0, won = 0, side = -1;
    for (int i = 0; i < nsides; i++)
        if (totals[i] >= target) {
            reached++;
            if ((round_sides >> i) & 1) {
                won++;
                side = i;
            }
        }
    return reached > 1 && won == 1 ? side : -1;
}

/* the winning side of the match, or -1 while it goes on (Match.winner); NO_SUM when a
 * side's total leaves 64 bits.  round_sides: a mask of the sides that won the round just
 * ended (read under several="round_winner"; 0 from a placement under target_check
 * "at_once", as the engine's Match.winner is told no round's winners there) */
#define NO_SUM (-2)
static int match_winner(const Spec *sp, const KState *st, unsigned round_sides) {
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
    unsigned round_sides = 0;
    for (int k = 0; k < nwinners; k++)
        round_sides |= 1u << sp->side_of[winners[k]];
    int winner = match_winner(sp, st, round_sides);
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
    for (; mask; CLEAR_LOWEST(mask)) {
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
        if (HAS_BIT(st->hands[s], tile))
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
                st->hands[s] |= BIT(st->deck[pos++]);
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
    /* a step of +-1 wraps with a compare, not mod()'s two divisions (issue 24: 12%; with
     * the closing rule as masks: -4.7% instructions per Basic playout, callgrind) */
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
            st->hands[found] |= BIT(st->deck[st->stock_pos++]);
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
    mask_t hand = st->hands[player] &= ~BIT(m->tile);
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
                int winner = match_winner(sp, st, 0);
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
        mask |= BIT(st->deck[st->stock_pos++]);
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
                off |= BIT(st->deck[i]);
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
        mask_t rest = hand & ~BIT(m->tile);
        int options = 0;
        if (rest) {
            KState after;
            /* only the board matters here: copy it */
            after.nplaced = st->nplaced;
            after.nends = st->nends;
            after.nocc = st->nocc;
            after.occ_bloom = st->occ_bloom;
            after.occ_multi = st->occ_multi;
            memcpy(after.occ_first, st->occ_first, sizeof st->occ_first);
            after.reach_ok = 0; /* placing the tile computes it */
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
            options = popcount_mask(fitting(sp, &after, sp->full) & rest);
        }
        if (options > most) {
            best = k;
            most = options;
        }
    }
    return best;
}
