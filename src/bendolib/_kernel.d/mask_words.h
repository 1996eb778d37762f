/*
 * The mask of the C++ builds (bendolib._kernel_huge, bendolib._kernel_vast): W 64-bit
 * words, Mask<W>, a value type whose operators (& | ^ ~ - << >> == != &= |=, a test in a
 * condition, an int converted to a mask) are those the kernel's parts use on the integer
 * masks of the other builds, so that the same parts compile unchanged.  kernel.h
 * includes this file under BENDOLIB_HUGE only, with mask_t = Mask<MASK_WORDS>:
 * _kernel_huge.cc builds 4 words (256 tiles), _kernel_vast.cc 16 (1,024 tiles).  The
 * operators are friends defined in the class (not templates of their own), so that an
 * int operand converts as it does for the integer masks (mask == 0, mask & 1).  A mask
 * reads from and writes to a Python int a word at a time (as_tiles, tiles_obj in
 * step_setup.c).
 */
#ifndef BENDOLIB_MASK_WORDS_H
#define BENDOLIB_MASK_WORDS_H

template <int W> struct Mask {
    uint64_t w[W];
    Mask() = default;
    /* an int as the integer masks read it: sign-extended (~(mask_t)0, 0 - x) */
    constexpr Mask(int v) : w{} {
        w[0] = (uint64_t)(int64_t)v;
        for (int i = 1; i < W; i++)
            w[i] = v < 0 ? ~0ULL : 0;
    }
    constexpr Mask(unsigned long long v) : w{} { w[0] = v; }
    constexpr Mask(unsigned long v) : w{} { w[0] = v; }
    explicit operator bool() const {
        uint64_t any = 0;
        for (int i = 0; i < W; i++)
            any |= w[i];
        return any != 0;
    }

    friend Mask operator&(Mask a, Mask b) {
        for (int i = 0; i < W; i++)
            a.w[i] &= b.w[i];
        return a;
    }
    friend Mask operator|(Mask a, Mask b) {
        for (int i = 0; i < W; i++)
            a.w[i] |= b.w[i];
        return a;
    }
    friend Mask operator^(Mask a, Mask b) {
        for (int i = 0; i < W; i++)
            a.w[i] ^= b.w[i];
        return a;
    }
    friend Mask operator~(Mask a) {
        for (int i = 0; i < W; i++)
            a.w[i] = ~a.w[i];
        return a;
    }
    friend Mask operator-(Mask a, Mask b) { /* modulo 2**(64 W), as unsigned ints */
        uint64_t borrow = 0;
        for (int i = 0; i < W; i++) {
            uint64_t x = a.w[i] - b.w[i], next = a.w[i] < b.w[i];
            next |= x < borrow;
            a.w[i] = x - borrow;
            borrow = next;
        }
        return a;
    }
    friend Mask operator<<(Mask a, int n) { /* 0 <= n < 64 W */
        Mask r = 0;
        int q = n >> 6, s = n & 63;
        for (int i = W - 1; i >= q; i--) {
            uint64_t v = a.w[i - q] << s;
            if (s && i - q > 0)
                v |= a.w[i - q - 1] >> (64 - s);
            r.w[i] = v;
        }
        return r;
    }
    friend Mask operator>>(Mask a, int n) { /* 0 <= n < 64 W */
        Mask r = 0;
        int q = n >> 6, s = n & 63;
        for (int i = 0; i + q < W; i++) {
            uint64_t v = a.w[i + q] >> s;
            if (s && i + q + 1 < W)
                v |= a.w[i + q + 1] << (64 - s);
            r.w[i] = v;
        }
        return r;
    }
    friend bool operator==(Mask a, Mask b) {
        uint64_t d = 0;
        for (int i = 0; i < W; i++)
            d |= a.w[i] ^ b.w[i];
        return d == 0;
    }
    friend bool operator!=(Mask a, Mask b) { return !(a == b); }
    friend Mask &operator&=(Mask &a, const Mask &b) {
        for (int i = 0; i < W; i++)
            a.w[i] &= b.w[i];
        return a;
    }
    friend Mask &operator|=(Mask &a, const Mask &b) {
        for (int i = 0; i < W; i++)
            a.w[i] |= b.w[i];
        return a;
    }
    friend Mask &operator^=(Mask &a, const Mask &b) {
        for (int i = 0; i < W; i++)
            a.w[i] ^= b.w[i];
        return a;
    }
    friend int popcount_mask(Mask x) {
        int n = 0;
        for (int i = 0; i < W; i++)
            n += popcount_word(x.w[i]);
        return n;
    }
    friend int lowest_bit(Mask x) { /* index of the lowest set bit; x != 0 */
        for (int i = 0; i < W - 1; i++)
            if (x.w[i])
                return 64 * i + lowest_word(x.w[i]);
        return 64 * (W - 1) + lowest_word(x.w[W - 1]);
    }
};

#endif
