/*
 * bendolib._kernel, what every part shares: the headers, the limits, the enums and
 * error codes, the bit operations, and the compiled rule set (Spec), the state
 * (KState, KEnd) and the move (KMove) the playing functions work on.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(BENDOLIB_SANITIZE)
/* scripts/sanitize's build: every block of the kernel's from malloc, which ASan watches,
 * while Python's small objects may stay in its own allocator (PYTHONMALLOC=pymalloc) */
#define PyMem_Malloc PyMem_RawMalloc
#define PyMem_Calloc PyMem_RawCalloc
#define PyMem_Realloc PyMem_RawRealloc
#define PyMem_Free PyMem_RawFree
#endif

#if defined(_MSC_VER)
#include <intrin.h>
#endif

/* Four builds of the same parts: bendolib._kernel (tile sets of at most 64 tiles, a mask
 * is one 64-bit word); compiled with BENDOLIB_WIDE by _kernel_wide.c,
 * bendolib._kernel_wide (at most 128 tiles: double-12's 91, a mask is an unsigned
 * __int128, which gcc and clang give every 64-bit target); and, the playout parts, the
 * chain games' step API and the deal (no triangle step API, batched games or small
 * calls), compiled as C++ with BENDOLIB_HUGE, a mask being mask_words.h's Mask of
 * MASK_WORDS 64-bit words: by _kernel_huge.cc, bendolib._kernel_huge (4 words, at most 256 tiles:
 * double-15's 136 to double-21's 253), and by _kernel_vast.cc, bendolib._kernel_vast (16
 * words, at most 1,024 tiles: double-22's 276 to double-43's 990, the library's limit).
 * Every part writes masks with mask_t, (mask_t)1 << i, popcount_mask and lowest_bit, and
 * tile indices with tile_t, so that the builds share them. */
#if defined(BENDOLIB_HUGE) /* C++: mask_t is mask_words.h's Mask, after the bits */
#if !defined(MASK_WORDS) || !defined(KBUILD)
#error "a C++ build names its mask's words (MASK_WORDS) and its module (KBUILD)"
#endif
#define MAXT (64 * MASK_WORDS)   /* tiles in the set */
#define MAXOCC (10 * MAXT / 4)   /* occupied cells */
#if MAXT <= 256
typedef uint8_t tile_t;          /* a tile index (0 .. 255) */
#else
typedef uint16_t tile_t;         /* a tile index (0 .. MAXT - 1) */
#endif
#define KNAME(x) "bendolib." KBUILD x
#elif defined(BENDOLIB_WIDE)
#ifndef __SIZEOF_INT128__
#error "the wide kernel needs unsigned __int128 (gcc or clang on a 64-bit target)"
#endif
typedef unsigned __int128 mask_t;
#define MAXT 128       /* tiles in the set */
#define MAXOCC 320     /* occupied cells */
typedef int8_t tile_t; /* a tile index */
#define KNAME(x) "bendolib._kernel_wide" x
#define KERNEL_INIT PyInit__kernel_wide
#else
typedef uint64_t mask_t;
#define MAXT 64        /* tiles in the set */
#define MAXOCC 160     /* occupied cells */
typedef int8_t tile_t; /* a tile index */
#define KNAME(x) "bendolib._kernel" x
#define KERNEL_INIT PyInit__kernel
#endif

/* an index into the occupancy list (KState.occ_first): a byte while MAXOCC fits in one */
#if MAXOCC > 255
typedef uint16_t occ_index_t;
#else
typedef uint8_t occ_index_t;
#endif

#define MAXP 8         /* players */
#define MAXE 4         /* open ends */
#define MAXMOVES 2048  /* legal moves of one position */
#define NFACE 64       /* faces -8 .. 55, stored at face + 8 */
#define FACE0 8
#define MAXEFF 8
/* The interface version, of every build: bendolib/_kernel_abi.py's ABI must equal it, else
 * a stale build (an editable install after a pull) is ignored rather than half used. */
#define KERNEL_ABI 5
#define MAXSTEPS 200000 /* moves of one playout (a match of many rounds included) */
#if MAXT > 256
#define RADIUS 120     /* spiral cells known to the importer: chains of up to 1,024 tiles */
#else
#define RADIUS 48      /* spiral cells known to the importer */
#endif

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

static inline int popcount_word(uint64_t x) {
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

static inline int lowest_word(uint64_t x) { /* index of the lowest set bit; x != 0 */
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

#if defined(BENDOLIB_HUGE)
#include "mask_words.h"
typedef Mask<MASK_WORDS> mask_t;
/* BIT(i), HAS_BIT(m, i) and CLEAR_LOWEST(m): a word each rather than every word (the vast
 * build's sixteen); the integer builds' are the expressions they stand for */
static inline mask_t mask_bit(int i) {
    mask_t r = 0;
    r.w[i >> 6] = (uint64_t)1 << (i & 63);
    return r;
}
static inline void clear_lowest(mask_t &m) {
    for (int i = 0; i < MASK_WORDS; i++)
        if (m.w[i]) {
            m.w[i] &= m.w[i] - 1;
            return;
        }
}
#define BIT(i) mask_bit(i)
#define HAS_BIT(m, i) ((int)(((m).w[(i) >> 6] >> ((i) & 63)) & 1))
#define CLEAR_LOWEST(m) clear_lowest(m)
#elif defined(BENDOLIB_WIDE)
static inline int popcount_mask(mask_t x) {
    return popcount_word((uint64_t)x) + popcount_word((uint64_t)(x >> 64));
}

static inline int lowest_bit(mask_t x) { /* index of the lowest set bit; x != 0 */
    uint64_t low = (uint64_t)x;
    return low ? lowest_word(low) : 64 + lowest_word((uint64_t)(x >> 64));
}
#else
#define popcount_mask popcount_word
#define lowest_bit lowest_word
#endif
#define popcount64 popcount_mask /* its name before the wide build: a mask's popcount */
#if !defined(BENDOLIB_HUGE)
#define BIT(i) ((mask_t)1 << (i))          /* the mask of tile i */
#define HAS_BIT(m, i) (((m) >> (i)) & 1)   /* whether mask m holds tile i */
#define CLEAR_LOWEST(m) ((m) &= (m) - 1)   /* m without its lowest tile */
#endif

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
    int round_winner; /* Match.several "round_winner": a shared target to the round's winner */
} Spec;

/* -- states ---------------------------------------------------------------------- */

typedef struct {
    int8_t value;
    uint8_t free;
    int8_t side;
    uint16_t cell;
} KEnd;

typedef struct {
    int8_t kind, end;
    tile_t tile;
    int8_t inward, shows, turn;
} KMove;

/* the tiles that may be laid at each open end: turning left (at[e][0]) or right
 * (at[e][1]) on the curved lattice, at[e][0] alone on a straight chain; the end's free
 * turns and the even-closure rule applied; `all` their union.  For the rule sets without
 * wild faces (Spec.general 0): kept in KState.reach by every change of the board, so that
 * listing a position and fitting a hand are mask operations (see reach_compute) */
typedef struct {
    mask_t at[MAXE][2];
    mask_t all;
} Reach;

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
    int nout, nplaced, nends, nocc;
    KEnd ends[MAXE];
    uint16_t occ_cell[MAXOCC];
    uint8_t occ_mask[MAXOCC];
    uint64_t occ_bloom; /* bit OCC_HASH(cell) of every occupied cell (corners' fast miss) */
    uint64_t occ_multi; /* bit h: cells of two positions with that hash (a scan needed) */
    occ_index_t occ_first[64]; /* by hash, where its bit of occ_bloom is set: the first cell's index */
    Reach reach;        /* valid when reach_ok (0 in a state read in: see reach_of) */
    int reach_ok;
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
