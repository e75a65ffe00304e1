/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — random numbers in kernels: the counter-based generator Philox4x32-10 (Salmon,
 * Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011), as
 * Random123 and cuRAND define it. There is no pool and no state in memory: a generator is
 * a small struct made where it is used from (seed, subsequence, offset), and the same
 * triple gives the same numbers on every backend, bit for bit. Typically each index of a
 * kernel takes its own subsequence:
 * @code
 *   PX_FOR(fill, fill_args, a, i) {
 *       px_philox g = px_philox_init(a->seed, (uint64_t)i, 0);   // subsequence i
 *       PX_AT1(a->x, i) = px_rand_uniform_f64(&g);                // in [0, 1)
 *   }
 * @endcode
 *
 * The raw 32-bit stream of px_philox_init(seed, subsequence, offset) and px_rand_u32 is
 * cuRAND's for curand_init(seed, subsequence, offset, &state) and curand(&state) with a
 * curandStatePhilox4_32_10_t: the key is the seed's two halves, the counter starts at
 * subsequence x 2^64 (its upper two words) and advances one block of four outputs at a
 * time, and offset skips that many outputs. Subsequences are 2^66 outputs apart, so
 * 2^64 indices each drawing fewer than 2^66 numbers never overlap.
 *
 * What each call takes from the stream (the conversions are exact: integer operations
 * and multiplications by powers of two, the same on every compiler and device):
 * @code{.unparsed}
 *   px_rand_u32            one output
 *   px_rand_u64            two: the first is the low half
 *   px_rand_uniform_f32    one: (x >> 8) * 2^-24, in [0, 1)
 *   px_rand_uniform_f64    two: the top 53 bits of (first << 32 | second) * 2^-53, in [0, 1)
 *   px_rand_range_u32      uniform in [0, n) without bias (Lemire's method): one output,
 *                          rarely more (the few values that would bias the result are
 *                          drawn again)
 *   px_rand_range_u64      the same in [0, n) for 64-bit n: two outputs per draw
 *   px_rand_range_i64      uniform in [lo, hi)
 *   px_rand_normal_f64     four: Box-Muller of u1 = (53 bits + 1) * 2^-53 in (0, 1] and
 *                          u2 = 53 bits * 2^-53: sqrt(-2 log u1) cos(2 pi u2)
 *   px_rand_normal2_f64    the same four, both of Box-Muller's values (cos, then sin)
 *   px_rand_normal_f32     px_rand_normal_f64 rounded to float
 * @endcode
 * The normals' log, sin and cos are portex's own (fdlibm's reduction, series evaluated
 * with fma only), not the C library's or CUDA's, which round differently: so normals too
 * are the same bits everywhere. They are within 2 units in the last place of the C
 * library's (tests/runtime/test_random.c measures it). On the host they call the C
 * library's fma and sqrt: link with -lm.
 * All are PX_FUNCTION: they compile in kernel files for every backend and in host code. */
#ifndef PORTEX_RANDOM_H
#define PORTEX_RANDOM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "portex/export.h"

/** A Philox4x32-10 stream: plain data, copied and passed by value like any struct. Make it
 * with px_philox_init; its fields are its position (the counter, the block of outputs the
 * counter gives and how many of them were taken). */
typedef struct px_philox {
    uint32_t key[2]; /**< the seed, low half first */
    uint32_t ctr[4]; /**< the counter, least significant word first */
    uint32_t out[4]; /**< the block the counter gives */
    uint32_t used;   /**< outputs of `out` already taken (0 to 4) */
} px_philox;

/** @cond PX_INTERNAL */
/* The high half of a 32 x 32-bit product. On a GPU, __umulhi: from a 64-bit product, nvcc
   computes the low half a second time beside the round's own low product (Philox's rounds
   took 24 more instructions a block of outputs, measured in SASS on sm_90). */
PX_FUNCTION uint32_t px__mulhi32(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/* The high half of a 64 x 64-bit product, from 32-bit halves (any compiler, any device). */
PX_FUNCTION uint64_t px__mulhi64(uint64_t a, uint64_t b)
{
    const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* Adds n blocks to the counter (a 128-bit add of a 64-bit n). */
PX_FUNCTION void px__philox_advance(px_philox *g, uint64_t n)
{
    uint64_t lo = ((uint64_t)g->ctr[1] << 32 | g->ctr[0]) + n;
    const int carry = lo < n;
    g->ctr[0] = (uint32_t)lo;
    g->ctr[1] = (uint32_t)(lo >> 32);
    if (carry && ++g->ctr[2] == 0) ++g->ctr[3];
}
/** @endcond */

/** The Philox4x32-10 bijection: `out` is the block of four 32-bit outputs that counter
 * `ctr` gives under `key` (Random123's philox4x32_10, cuRAND's curand_Philox4x32_10). */
PX_FUNCTION void px_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u; /* the golden ratio's bits */
            k1 += 0xBB67AE85u; /* sqrt(3) - 1's */
        }
        const uint32_t h0 = px__mulhi32(0xD2511F53u, c0), l0 = 0xD2511F53u * c0;
        const uint32_t h1 = px__mulhi32(0xCD9E8D57u, c2), l1 = 0xCD9E8D57u * c2;
        c0 = h1 ^ c1 ^ k0;
        c1 = l1;
        c2 = h0 ^ c3 ^ k1;
        c3 = l0;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/** The stream of `seed` at output `offset` of subsequence `subsequence` (cuRAND's
 * curand_init for Philox4_32_10: the same outputs). */
PX_FUNCTION px_philox px_philox_init(uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    px_philox g;
    g.key[0] = (uint32_t)seed;
    g.key[1] = (uint32_t)(seed >> 32);
    g.ctr[0] = 0;
    g.ctr[1] = 0;
    g.ctr[2] = (uint32_t)subsequence;
    g.ctr[3] = (uint32_t)(subsequence >> 32);
    g.used = (uint32_t)(offset & 3u);
    px__philox_advance(&g, offset >> 2);
    px_philox4x32_10(g.ctr, g.key, g.out);
    return g;
}

/** The next 32-bit output. The next block is computed when the first of its outputs is
 * drawn, so a generator whose last draw ends a block costs nothing more. */
PX_FUNCTION uint32_t px_rand_u32(px_philox *g)
{
    if (g->used >= 4) {
        g->used = 0;
        px__philox_advance(g, 1);
        px_philox4x32_10(g->ctr, g->key, g->out);
    }
    return g->out[g->used++];
}

/** The next 64 bits: two outputs, the first as the low half. */
PX_FUNCTION uint64_t px_rand_u64(px_philox *g)
{
    const uint64_t lo = px_rand_u32(g);
    return lo | (uint64_t)px_rand_u32(g) << 32;
}

/** Uniform in [0, 1) on the 2^24 multiples of 2^-24 below 1. */
PX_FUNCTION float px_rand_uniform_f32(px_philox *g)
{
    return (float)(px_rand_u32(g) >> 8) * 0x1p-24f;
}

/** Uniform in [0, 1) on the 2^53 multiples of 2^-53 below 1. */
PX_FUNCTION double px_rand_uniform_f64(px_philox *g)
{
    const uint64_t hi = px_rand_u32(g);
    const uint64_t bits = (hi << 32 | px_rand_u32(g)) >> 11;
    return (double)bits * 0x1p-53;
}

/** One uniform double in a call, for kernels that draw one value per index: the first
 * px_rand_uniform_f64 of px_philox_init(seed, subsequence, offset). */
PX_FUNCTION double px_rand_uniform_f64_at(uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    px_philox g = px_philox_init(seed, subsequence, offset);
    return px_rand_uniform_f64(&g);
}

/** @cond PX_INTERNAL */
PX_FUNCTION double px__f64_of_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* c[0] x^(n-1) + c[1] x^(n-2) + ... + c[n-1] by Horner's rule, each step one fma: the
   same roundings on every compiler and device. */
PX_FUNCTION double px__horner(double x, const double *c, int n)
{
    double p = c[0];
    for (int i = 1; i < n; ++i) p = fma(p, x, c[i]);
    return p;
}

/* log(u) for u in [2^-53, 1] (a normal double): u = m 2^e with m in [sqrt(1/2), sqrt(2)),
   log m = 2 atanh(s) for s = (m - 1) / (m + 1), |s| < 0.1716, as a series in s^2 to
   s^22 (the next term is below 2^-55 of the sum). Every multiply-add is an fma, so no
   compiler can fuse or split one differently on another device. */
PX_FUNCTION double px__log_unit(double u)
{
    uint64_t b;
    memcpy(&b, &u, sizeof b);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    double m = px__f64_of_bits((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    if (m > 1.4142135623730951) {
        m *= 0.5; /* exact */
        e += 1;
    }
    const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    const double atanh_series[] = {1.0 / 23, 1.0 / 21, 1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13,
                                   1.0 / 11, 1.0 / 9,  1.0 / 7,  1.0 / 5,  1.0 / 3};
    const double q = px__horner(s2, atanh_series, 11);
    const double t = 2.0 * s; /* exact */
    const double log_m = fma(t * s2, q, t);
    /* ln 2 in two parts (fdlibm's): e * hi is exact for |e| < 2^11. */
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    return fma((double)e, ln2_hi, fma((double)e, ln2_lo, log_m));
}

/* cos and sin of 2 pi t for t in [0, 1): t = k / 4 + r with |r| <= 1/8 (exact), then the
   Taylor series of sin and cos at x = 2 pi r, |x| <= pi / 4, to x^17 and x^16 (the next
   terms are below 2^-60), and the quadrant k. */
PX_FUNCTION void px__cossin_turns(double t, double *c, double *s)
{
    const int k = (int)(t * 4.0 + 0.5);
    const double r = t - (double)k * 0.25; /* exact: t is within a factor 2 of k / 4 */
    const double x = r * 6.28318530717958647693, x2 = x * x;
    /* sin x = x - x^3 (1/3! - x^2/5! + ...), cos x = 1 + x^2 (-1/2! + x^2/4! - ...) */
    const double sin_series[] = {
        -1.0 / 355687428096000.0, 1.0 / 1307674368000.0, -1.0 / 6227020800.0, 1.0 / 39916800.0,
        -1.0 / 362880.0,          1.0 / 5040.0,          -1.0 / 120.0,        1.0 / 6.0};
    const double cos_series[] = {
        1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
        1.0 / 40320.0,          -1.0 / 720.0,         1.0 / 24.0,        -1.0 / 2.0};
    const double sin_x = fma(-(x * x2), px__horner(x2, sin_series, 8), x);
    const double cos_x = fma(x2, px__horner(x2, cos_series, 8), 1.0);
    switch (k & 3) {
    case 0: *c = cos_x, *s = sin_x; break;
    case 1: *c = -sin_x, *s = cos_x; break;
    case 2: *c = -cos_x, *s = -sin_x; break;
    default: *c = sin_x, *s = -cos_x; break;
    }
}
/** @endcond */

/** Two standard normal values (Box-Muller): out[0] from the cosine, out[1] from the sine.
 * Draws four outputs. */
PX_FUNCTION void px_rand_normal2_f64(px_philox *g, double out[2])
{
    const uint64_t a = px_rand_u32(g), b = px_rand_u32(g);
    const double u1 = (double)(((a << 32 | b) >> 11) + 1) * 0x1p-53; /* (0, 1] */
    const double u2 = px_rand_uniform_f64(g);
    const double rho = sqrt(-2.0 * px__log_unit(u1));
    double c, s;
    px__cossin_turns(u2, &c, &s);
    out[0] = rho * c;
    out[1] = rho * s;
}

/** A standard normal value (the first of px_rand_normal2_f64's). Draws four outputs. */
PX_FUNCTION double px_rand_normal_f64(px_philox *g)
{
    double z[2];
    px_rand_normal2_f64(g, z);
    return z[0];
}

/** px_rand_normal_f64 rounded to float. Draws four outputs. */
PX_FUNCTION float px_rand_normal_f32(px_philox *g) { return (float)px_rand_normal_f64(g); }

/** Uniform in [0, n) without bias (Lemire's multiply-shift, drawing again the few values
 * that would favour some results); 0 when n is 0. */
PX_FUNCTION uint32_t px_rand_range_u32(px_philox *g, uint32_t n)
{
    if (n == 0) return 0;
    uint64_t m = (uint64_t)px_rand_u32(g) * n;
    if ((uint32_t)m < n) {
        const uint32_t reject_below = (0u - n) % n; /* 2^32 mod n */
        while ((uint32_t)m < reject_below) m = (uint64_t)px_rand_u32(g) * n;
    }
    return (uint32_t)(m >> 32);
}

/** Uniform in [0, n) for any 64-bit n, without bias; 0 when n is 0. */
PX_FUNCTION uint64_t px_rand_range_u64(px_philox *g, uint64_t n)
{
    if (n == 0) return 0;
    if (n <= 0xFFFFFFFFu) return px_rand_range_u32(g, (uint32_t)n);
    uint64_t x = px_rand_u64(g);
    uint64_t lo = x * n;
    if (lo < n) {
        const uint64_t reject_below = (0u - n) % n; /* 2^64 mod n */
        while (lo < reject_below) {
            x = px_rand_u64(g);
            lo = x * n;
        }
    }
    return px__mulhi64(x, n);
}

/** Uniform in [lo, hi) (any int64_t bounds, hi > lo); lo when hi <= lo. */
PX_FUNCTION int64_t px_rand_range_i64(px_philox *g, int64_t lo, int64_t hi)
{
    if (hi <= lo) return lo;
    const uint64_t span = (uint64_t)hi - (uint64_t)lo;
    return (int64_t)((uint64_t)lo + px_rand_range_u64(g, span));
}

#endif /* PORTEX_RANDOM_H */
