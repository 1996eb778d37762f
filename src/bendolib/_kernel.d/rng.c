/*
 * bendolib._kernel, the random generator: SplitMix64 with the draws of bendolib._rng
 * (seed derivation, next value, an unbiased integer below a bound).
 */

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
