/* A plain C port of Basic Bendominoes (bendolib's "basic" rule set, 2 to 4 players):
 * random playouts to the end of the round, the bound that bench/bound.py measures the
 * compiled kernel against.  Not part of the package; compiled by bench/bound.py with
 * gcc -O2.  The same deal (SplitMix64, derive_seed(seed, round 1, attempt)), the same
 * order of the legal moves and the same random draws as bendolib, so that check mode
 * can compare it move for move with bendolib.playouts.playouts(record=True).
 *
 *   basic check PLAYERS DEALS PLAYOUTS       one line per playout: deal i, playout j,
 *                                            moves, scores, choices
 *   basic many PLAYERS SEED COUNT            COUNT playouts from deal SEED: ns per playout
 *   basic fresh PLAYERS SEED COUNT           deal SEED+i, then playout 0 from it: ns each
 *
 * The board is a 64 x 64 array of corner masks (a round lays at most 28 tiles, so no
 * chain leaves it), cleared after each playout from the list of the cells it touched.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NT 28
#define LEFT 1
#define RIGHT 2
#define GOLDEN 0x9E3779B97F4A7C15ULL
#define W 64
#define ORIGIN (32 * W + 32)

/* the STANDARD set as bendolib's spec_tuple(BASIC, players) lists it:
 * (a, b, points, turn read from a, turn read from b) */
static const int TILES[NT][5] = {
    {0, 0, 0, 3, 3}, {0, 1, 1, 1, 2}, {0, 2, 2, 1, 2}, {0, 3, 3, 2, 1}, {0, 4, 4, 1, 2},
    {0, 5, 5, 2, 1}, {0, 6, 6, 2, 1}, {1, 1, 2, 3, 3}, {1, 2, 3, 1, 2}, {1, 3, 4, 1, 2},
    {1, 4, 5, 2, 1}, {1, 5, 6, 1, 2}, {1, 6, 7, 2, 1}, {2, 2, 4, 3, 3}, {2, 3, 5, 1, 2},
    {2, 4, 6, 1, 2}, {2, 5, 7, 2, 1}, {2, 6, 8, 1, 2}, {3, 3, 6, 3, 3}, {3, 4, 7, 1, 2},
    {3, 5, 8, 1, 2}, {3, 6, 9, 2, 1}, {4, 4, 8, 3, 3}, {4, 5, 9, 1, 2}, {4, 6, 10, 1, 2},
    {5, 5, 10, 3, 3}, {5, 6, 11, 1, 2}, {6, 6, 12, 3, 3}};

static const int DELTA[6] = {W, 1, 1 - W, -W, -1, W - 1}; /* (dq, dr) of each side */

static uint32_t fit[7][4];    /* tiles turning into free mask f from face v */
static uint32_t pair[7][7];   /* the tile with faces v and w */
static uint8_t collide[6];    /* corners c - 1, c, c + 1 */
static uint64_t rests[64];

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t derive(uint64_t seed, int n, uint64_t l1, uint64_t l2) {
    uint64_t v = mix64(mix64(seed) ^ ((l1 + 1) * GOLDEN));
    return n > 1 ? mix64(v ^ ((l2 + 1) * GOLDEN)) : v;
}

static inline int below(uint64_t *s, uint64_t bound) {
    for (;;) {
        *s += GOLDEN;
        uint64_t v = mix64(*s);
        if (rests[bound] == 0 || v < (uint64_t)0 - rests[bound])
            return (int)(v % bound);
    }
}

typedef struct {
    int value, free, side, cell;
} End;

typedef struct {
    int players, current, stock, opening;
    uint32_t hands[4], drawn;
    int8_t deck[NT];
    End ends[2];
    int placed;
    int touched[NT + 1], ntouched;
    int moves;
    int64_t scores[4];
} Game;

static uint8_t grid[W * W];

static inline uint8_t free_turns(int cell, int side) {
    uint8_t used = grid[cell + DELTA[side]];
    return (uint8_t)(((used & collide[(side + 3) % 6]) ? 0 : LEFT) |
                     ((used & collide[(side + 4) % 6]) ? 0 : RIGHT));
}

static inline void occupy(Game *g, int cell, int corner) {
    if (!grid[cell])
        g->touched[g->ntouched++] = cell;
    grid[cell] |= (uint8_t)(1u << corner);
}

static inline int shows_of(int t, int value) { return TILES[t][0] == value ? TILES[t][1] : TILES[t][0]; }

static inline int turn_of(int t, int value) { return TILES[t][0] == value ? TILES[t][3] : TILES[t][4]; }

/* the value another end needs from a tile laid at end e turning `turn` (-1: none) */
static inline int facing(const Game *g, int e, int turn) {
    const End *end = &g->ends[e], *other = &g->ends[1 - e];
    int target = end->cell + DELTA[end->side];
    int exit = turn == LEFT ? (end->side + 2) % 6 : (end->side + 4) % 6;
    if (other->cell == target + DELTA[exit] && other->side == (exit + 3) % 6)
        return other->value;
    return -1;
}

/* the tiles of mask laid at end e turning `turn` (the even-closure rule applied) */
static inline uint32_t fitting_turn(const Game *g, int e, int turn, uint32_t mask) {
    const End *end = &g->ends[e];
    if (!(end->free & turn))
        return 0;
    uint32_t m = mask & fit[end->value][turn];
    if (!m)
        return 0;
    int need = facing(g, e, turn);
    return need < 0 ? m : m & pair[end->value][need];
}

static int fits(const Game *g, uint32_t mask) {
    if (!mask)
        return 0;
    if (!g->placed)
        return 1;
    for (int e = 0; e < 2; e++)
        if (fitting_turn(g, e, LEFT, mask) || fitting_turn(g, e, RIGHT, mask))
            return 1;
    return 0;
}

typedef struct {
    int8_t kind, end, tile, turn; /* kind 0 place, 1 draw, 2 pass */
} Move;

static int list_moves(const Game *g, Move *moves) {
    int n = 0;
    if (g->opening >= 0) {
        moves[n++] = (Move){0, -1, (int8_t)g->opening, RIGHT};
        return n;
    }
    uint32_t hand = g->hands[g->current];
    if (g->drawn)
        hand &= g->drawn;
    for (int e = 0; e < 2; e++) {
        const End *end = &g->ends[e];
        if (!end->free)
            continue;
        uint32_t l = fitting_turn(g, e, LEFT, hand), r = fitting_turn(g, e, RIGHT, hand);
        for (uint32_t m = l | r; m; m &= m - 1) {
            int t = __builtin_ctz(m);
            if ((l >> t) & 1)
                moves[n++] = (Move){0, (int8_t)e, (int8_t)t, LEFT};
            if ((r >> t) & 1)
                moves[n++] = (Move){0, (int8_t)e, (int8_t)t, RIGHT};
        }
    }
    if (g->drawn) {
        moves[n++] = (Move){(int8_t)(n ? 2 : 1), 0, 0, 0};
    } else if (g->stock < NT) {
        moves[n++] = (Move){1, 0, 0, 0};
    } else if (!n) {
        moves[n++] = (Move){2, 0, 0, 0};
    }
    return n;
}

static void finish(Game *g) {
    int64_t hp[4] = {0}, total = 0;
    for (int s = 0; s < g->players; s++) {
        for (uint32_t m = g->hands[s]; m; m &= m - 1)
            hp[s] += TILES[__builtin_ctz(m)][2];
        total += hp[s];
    }
    int winner = -1;
    for (int s = 0; s < g->players; s++)
        if (!g->hands[s])
            winner = s;
    if (winner < 0) { /* blocked: the single lowest hand wins */
        int64_t low = hp[0];
        int ties = 0;
        for (int s = 0; s < g->players; s++)
            if (hp[s] < low)
                low = hp[s];
        for (int s = 0; s < g->players; s++)
            if (hp[s] == low) {
                winner = s;
                ties++;
            }
        if (ties > 1)
            winner = -1;
    }
    if (winner >= 0)
        g->scores[winner] += total - hp[winner];
}

/* the turn passes on; 1 when the round is over (blocked) */
static int end_turn(Game *g) {
    g->drawn = 0;
    if (g->stock >= NT) {
        uint32_t all = 0;
        for (int s = 0; s < g->players; s++)
            all |= g->hands[s];
        if (!fits(g, all)) {
            finish(g);
            return 1;
        }
    }
    g->current = g->current + 1 == g->players ? 0 : g->current + 1;
    return 0;
}

static void place(Game *g, int e, int t, int turn) {
    End *end = &g->ends[e];
    int shows = shows_of(t, end->value);
    int target = end->cell + DELTA[end->side];
    int corner = turn == LEFT ? (end->side + 3) % 6 : (end->side + 4) % 6;
    int exit = turn == LEFT ? (end->side + 2) % 6 : (end->side + 4) % 6;
    occupy(g, target, corner);
    end->value = shows;
    end->cell = target;
    end->side = exit;
    end->free = free_turns(target, exit);
    End *other = &g->ends[1 - e];
    if (other->free && other->cell + DELTA[other->side] == target)
        other->free = free_turns(other->cell, other->side);
}

static void open_with(Game *g, int t) {
    int x = TILES[t][0], y = TILES[t][1]; /* read so that the tile turns right */
    if (x != y && !(TILES[t][3] & RIGHT)) {
        x = TILES[t][1];
        y = TILES[t][0];
    }
    occupy(g, ORIGIN, 0);
    g->ends[0] = (End){x, 0, 5, ORIGIN};
    g->ends[1] = (End){y, 0, 0, ORIGIN};
    g->ends[0].free = free_turns(ORIGIN, 5);
    g->ends[1].free = free_turns(ORIGIN, 0);
}

/* apply move m; 1 when the round is over */
static int apply(Game *g, const Move *m) {
    int p = g->current;
    if (m->kind == 0) {
        if (m->end < 0)
            open_with(g, m->tile);
        else
            place(g, m->end, m->tile, m->turn);
        g->placed++;
        g->opening = -1;
        g->hands[p] &= ~(1u << m->tile);
        if (!g->hands[p]) {
            finish(g);
            return 1;
        }
        return end_turn(g);
    }
    if (m->kind == 2)
        return end_turn(g);
    uint32_t before = g->hands[p], got = 1u << g->deck[g->stock++];
    int could = !g->drawn && fits(g, before); /* a voluntary draw: draw and pass */
    g->hands[p] |= got;
    g->drawn |= got;
    if (could || !fits(g, g->hands[p] & g->drawn))
        return end_turn(g);
    return 0;
}

static int deal(Game *g, int players, uint64_t seed) {
    int size = players == 2 ? 7 : players == 3 ? 6 : 5;
    for (int attempt = 0; attempt < 1000; attempt++) {
        uint64_t s = derive(seed, 2, 1, (uint64_t)attempt);
        for (int i = 0; i < NT; i++)
            g->deck[i] = (int8_t)i;
        for (int i = NT - 1; i > 0; i--) {
            int j = below(&s, (uint64_t)(i + 1));
            int8_t x = g->deck[i];
            g->deck[i] = g->deck[j];
            g->deck[j] = x;
        }
        uint32_t dealt = 0;
        for (int p = 0; p < players; p++) {
            g->hands[p] = 0;
            for (int k = 0; k < size; k++)
                g->hands[p] |= 1u << g->deck[p * size + k];
            dealt |= g->hands[p];
        }
        int best = -1; /* the highest double dealt: its holder opens with it */
        for (int d = 6; d >= 0 && best < 0; d--)
            if (dealt & pair[d][d])
                best = __builtin_ctz(pair[d][d]);
        if (best < 0) { /* no double: the highest tile (most points, then top face) */
            int points = -1, top = -1;
            for (uint32_t m = dealt; m; m &= m - 1) {
                int t = __builtin_ctz(m), hi = TILES[t][1];
                if (TILES[t][2] > points || (TILES[t][2] == points && hi > top)) {
                    best = t;
                    points = TILES[t][2];
                    top = hi;
                }
            }
        }
        for (int p = 0; p < players; p++)
            if ((g->hands[p] >> best) & 1)
                g->current = p;
        g->players = players;
        g->opening = best;
        g->stock = players * size;
        g->drawn = 0;
        g->placed = 0;
        g->ntouched = 0;
        memset(g->scores, 0, sizeof g->scores);
        return 0;
    }
    return -1;
}

static void clear(Game *g) {
    for (int i = 0; i < g->ntouched; i++)
        grid[g->touched[i]] = 0;
    g->ntouched = 0;
}

/* playout `index` of `root` into *g (the grid left clean); choices kept when given */
static void playout(const Game *root, Game *g, uint64_t seed, uint64_t index, int *choices) {
    Move moves[64];
    *g = *root;
    uint64_t s = derive(seed, 1, index, 0);
    int n = 0, over = 0;
    while (!over) {
        int count = list_moves(g, moves);
        int k = count > 1 ? below(&s, (uint64_t)count) : 0;
        if (choices)
            choices[n] = k;
        n++;
        over = apply(g, &moves[k]);
    }
    g->moves = n;
    clear(g);
}

static void setup(void) {
    for (int t = 0; t < NT; t++) {
        int a = TILES[t][0], b = TILES[t][1];
        pair[a][b] = pair[b][a] = 1u << t;
        for (int f = 1; f < 4; f++) {
            if (TILES[t][3] & f)
                fit[a][f] |= 1u << t;
            if (TILES[t][4] & f)
                fit[b][f] |= 1u << t;
        }
    }
    for (int c = 0; c < 6; c++)
        collide[c] = (uint8_t)((1u << ((c + 5) % 6)) | (1u << c) | (1u << ((c + 1) % 6)));
    for (uint64_t b = 1; b < 64; b++)
        rests[b] = ((uint64_t)0 - b) % b;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: basic check|many|fresh PLAYERS SEED|DEALS COUNT\n");
        return 2;
    }
    setup();
    int players = atoi(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    long count = atol(argv[4]);
    Game root, g;
    int64_t sink = 0;
    if (!strcmp(argv[1], "check")) {
        int choices[256];
        for (uint64_t d = 0; d < seed; d++) {
            if (deal(&root, players, d))
                return 1;
            for (long j = 0; j < count; j++) {
                playout(&root, &g, d, (uint64_t)j, choices);
                printf("%llu %ld %d", (unsigned long long)d, j, g.moves);
                for (int p = 0; p < players; p++)
                    printf(" %lld", (long long)g.scores[p]);
                for (int k = 0; k < g.moves; k++)
                    printf(" %d", choices[k]);
                printf("\n");
            }
        }
        return 0;
    }
    int fresh = !strcmp(argv[1], "fresh");
    int64_t *results = malloc((size_t)count * 4 * sizeof(int64_t));
    double start = now();
    if (!fresh && deal(&root, players, seed))
        return 1;
    for (long i = 0; i < count; i++) {
        if (fresh && deal(&root, players, seed + (uint64_t)i))
            return 1;
        playout(&root, &g, fresh ? seed + (uint64_t)i : seed, fresh ? 0 : (uint64_t)i, NULL);
        memcpy(&results[4 * i], g.scores, sizeof g.scores); /* the result kept, as bendolib's */
    }
    double took = now() - start;
    for (long i = 0; i < 4 * count; i++)
        sink += results[i];
    printf("%.1f %lld\n", took * 1e9 / (double)count, (long long)sink);
    free(results);
    return 0;
}
