/*
 * bendolib._kernel_huge's mask: 256 bits as four 64-bit words, a C++ value type whose
 * operators (& | ^ ~ - << >> == != &= |=, a test in a condition, an int converted to a
 * mask) are those the kernel's parts use on the integer masks of the other builds, so
 * that the same parts compile unchanged (kernel.h includes this file under
 * BENDOLIB_HUGE only; _kernel_huge.cc builds it as C++).
 */
#ifndef BENDOLIB_MASK256_H
#define BENDOLIB_MASK256_H

#define MASK_WORDS 4

struct mask_t {
    uint64_t w[MASK_WORDS];
    mask_t() = default;
    /* an int as the integer masks read it: sign-extended (~(mask_t)0, 0 - x) */
    constexpr mask_t(int v)
        : w{(uint64_t)(int64_t)v, v < 0 ? ~0ULL : 0, v < 0 ? ~0ULL : 0, v < 0 ? ~0ULL : 0} {}
    constexpr mask_t(unsigned long long v) : w{v, 0, 0, 0} {}
    constexpr mask_t(unsigned long v) : w{v, 0, 0, 0} {}
    explicit operator bool() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
};

static inline mask_t operator&(mask_t a, mask_t b) {
    for (int i = 0; i < MASK_WORDS; i++)
        a.w[i] &= b.w[i];
    return a;
}

static inline mask_t operator|(mask_t a, mask_t b) {
    for (int i = 0; i < MASK_WORDS; i++)
        a.w[i] |= b.w[i];
    return a;
}

static inline mask_t operator^(mask_t a, mask_t b) {
    for (int i = 0; i < MASK_WORDS; i++)
        a.w[i] ^= b.w[i];
    return a;
}

static inline mask_t operator~(mask_t a) {
    for (int i = 0; i < MASK_WORDS; i++)
        a.w[i] = ~a.w[i];
    return a;
}

static inline mask_t operator-(mask_t a, mask_t b) { /* modulo 2**256, as unsigned ints */
    uint64_t borrow = 0;
    for (int i = 0; i < MASK_WORDS; i++) {
        uint64_t x = a.w[i] - b.w[i], next = a.w[i] < b.w[i];
        next |= x < borrow;
        a.w[i] = x - borrow;
        borrow = next;
    }
    return a;
}

static inline mask_t operator<<(mask_t a, int n) { /* 0 <= n < 256 */
    mask_t r = 0;
    int q = n >> 6, s = n & 63;
    for (int i = MASK_WORDS - 1; i >= q; i--) {
        uint64_t v = a.w[i - q] << s;
        if (s && i - q > 0)
            v |= a.w[i - q - 1] >> (64 - s);
        r.w[i] = v;
    }
    return r;
}

static inline mask_t operator>>(mask_t a, int n) { /* 0 <= n < 256 */
    mask_t r = 0;
    int q = n >> 6, s = n & 63;
    for (int i = 0; i + q < MASK_WORDS; i++) {
        uint64_t v = a.w[i + q] >> s;
        if (s && i + q + 1 < MASK_WORDS)
            v |= a.w[i + q + 1] << (64 - s);
        r.w[i] = v;
    }
    return r;
}

static inline bool operator==(mask_t a, mask_t b) {
    uint64_t d = 0;
    for (int i = 0; i < MASK_WORDS; i++)
        d |= a.w[i] ^ b.w[i];
    return d == 0;
}

static inline bool operator!=(mask_t a, mask_t b) { return !(a == b); }
static inline mask_t &operator&=(mask_t &a, mask_t b) { return a = a & b; }
static inline mask_t &operator|=(mask_t &a, mask_t b) { return a = a | b; }

static inline int popcount_mask(mask_t x) {
    int n = 0;
    for (int i = 0; i < MASK_WORDS; i++)
        n += popcount_word(x.w[i]);
    return n;
}

static inline int lowest_bit(mask_t x) { /* index of the lowest set bit; x != 0 */
    for (int i = 0; i < MASK_WORDS - 1; i++)
        if (x.w[i])
            return 64 * i + lowest_word(x.w[i]);
    return 64 * (MASK_WORDS - 1) + lowest_word(x.w[MASK_WORDS - 1]);
}

#endif
