/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_atomic (k_atomic.c): argument structs, declarations, and the values the
 * kernels compute from their index (shared with the test, which recomputes them).
 * Included by the kernel file (compiled as C, or as CUDA C++ when CUDA is on) and by the
 * C test; it must stay valid in both languages. Every kernel runs over [0, n). */
#ifndef PX_TESTS_K_ATOMIC_H
#define PX_TESTS_K_ATOMIC_H

#include <math.h>

#include "portex/kernel.h"
#include "portex/view.h"

/* A well-mixed 64-bit hash of an index (splitmix64's finalizer). */
PX_FUNCTION uint64_t at_hash(int64_t i)
{
    uint64_t x = (uint64_t)i + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The value index i offers to min and max: spread over much of the type's range, never
   its extremes (the targets start there); floats are NaN at index nan_at. */
PX_FUNCTION int32_t at_value_i32(int64_t i, int64_t nan_at)
{
    (void)nan_at;
    return (int32_t)((int64_t)(at_hash(i) % 4000000001ull) - 2000000000);
}
PX_FUNCTION uint32_t at_value_u32(int64_t i, int64_t nan_at)
{
    (void)nan_at;
    return (uint32_t)(1u + at_hash(i) % 4294967294ull);
}
PX_FUNCTION int64_t at_value_i64(int64_t i, int64_t nan_at)
{
    (void)nan_at;
    return (int64_t)(at_hash(i) >> 1) - (int64_t)(at_hash(i + 7) >> 2) - 1;
}
PX_FUNCTION uint64_t at_value_u64(int64_t i, int64_t nan_at)
{
    (void)nan_at;
    return 1u + at_hash(i) % 18446744073709551614ull;
}
PX_FUNCTION float at_value_f32(int64_t i, int64_t nan_at)
{
    if (i == nan_at) return NAN;
    return (float)((int64_t)(at_hash(i) % 2000001u) - 1000000) * 0.125f;
}
PX_FUNCTION double at_value_f64(int64_t i, int64_t nan_at)
{
    if (i == nan_at) return (double)NAN;
    return (double)((int64_t)(at_hash(i) % 2000000001u) - 1000000000) * 0.0625;
}

/* The bin of index i in the histograms. */
PX_FUNCTION int64_t at_bin(int64_t i, int64_t nbins)
{
    return (int64_t)(at_hash(i) % (uint64_t)nbins);
}

/* ---- One fixed sequence of operations per type, with known results --------------------------
   at_seq_<s>(w) works on w[0..7] and logs results in w[AT_LOG + k]. The test runs it on
   the host and in a kernel (n = 1) and checks both logs against the expected values. */
enum { AT_LOG = 8, AT_SEQ_LEN = 40 };

#define AT_SEQ_COMMON(T, w)                                                       \
    px_atomic_store(&w[0], (T)10);                                                \
    w[AT_LOG + 0] = px_atomic_fetch_add(&w[0], (T)5);              /* 10 -> 15 */ \
    w[AT_LOG + 1] = px_atomic_fetch_sub(&w[0], (T)3);              /* 15 -> 12 */ \
    w[AT_LOG + 2] = px_atomic_fetch_min(&w[0], (T)20);             /* 12 stays */ \
    w[AT_LOG + 3] = px_atomic_fetch_min(&w[0], (T)4);              /* 12 -> 4 */  \
    w[AT_LOG + 4] = px_atomic_fetch_max(&w[0], (T)2);              /* 4 stays */  \
    w[AT_LOG + 5] = px_atomic_fetch_max(&w[0], (T)9);              /* 4 -> 9 */   \
    w[AT_LOG + 6] = px_atomic_exchange(&w[0], (T)6);               /* 9 -> 6 */   \
    w[AT_LOG + 7] = px_atomic_compare_exchange(&w[0], (T)5, (T)1); /* 6 stays */  \
    w[AT_LOG + 8] = px_atomic_compare_exchange(&w[0], (T)6, (T)1); /* 6 -> 1 */   \
    w[AT_LOG + 9] = px_atomic_load(&w[0]);                         /* 1 */        \
    px_atomic_add(&w[0], (T)7);                                    /* 8 */        \
    px_atomic_sub(&w[0], (T)2);                                    /* 6 */        \
    px_atomic_min(&w[0], (T)3);                                    /* 3 */        \
    px_atomic_max(&w[0], (T)4);                                    /* 4 */        \
    w[AT_LOG + 10] = px_atomic_load(&w[0]);

/* Integers: bit operations, wrap-around at the type's limits (lo, hi), and min/max of
   (T)-5 and friends, which compare as signed or unsigned by the type. */
#define AT_SEQ_INT(s, T, lo, hi)                                             \
    PX_FUNCTION void at_seq_##s(T *w)                                        \
    {                                                                        \
        AT_SEQ_COMMON(T, w)                                                  \
        px_atomic_store(&w[1], (T)12);                                       \
        w[AT_LOG + 11] = px_atomic_fetch_and(&w[1], (T)10); /* 12 -> 8 */    \
        w[AT_LOG + 12] = px_atomic_fetch_or(&w[1], (T)3);   /* 8 -> 11 */    \
        w[AT_LOG + 13] = px_atomic_fetch_xor(&w[1], (T)6);  /* 11 -> 13 */   \
        px_atomic_and(&w[1], (T)7);                         /* 5 */          \
        px_atomic_or(&w[1], (T)16);                         /* 21 */         \
        px_atomic_xor(&w[1], (T)1);                         /* 20 */         \
        w[AT_LOG + 14] = px_atomic_load(&w[1]);                              \
        px_atomic_store(&w[2], (T)(hi));                                     \
        w[AT_LOG + 15] = px_atomic_fetch_add(&w[2], (T)1); /* hi -> lo */    \
        w[AT_LOG + 16] = px_atomic_load(&w[2]);                              \
        w[AT_LOG + 17] = px_atomic_fetch_sub(&w[2], (T)1); /* lo -> hi */    \
        w[AT_LOG + 18] = px_atomic_load(&w[2]);                              \
        px_atomic_store(&w[3], (T)-5);                                       \
        w[AT_LOG + 19] = px_atomic_fetch_min(&w[3], (T)3);                   \
        w[AT_LOG + 20] = px_atomic_fetch_max(&w[3], (T)-2);                  \
        w[AT_LOG + 21] = px_atomic_load(&w[3]);                              \
        px_atomic_store(&w[4], (T)(lo));                                     \
        w[AT_LOG + 22] = px_atomic_fetch_max(&w[4], (T)(hi)); /* lo -> hi */ \
        w[AT_LOG + 23] = px_atomic_fetch_min(&w[4], (T)(lo)); /* hi -> lo */ \
        w[AT_LOG + 24] = px_atomic_load(&w[4]);                              \
    }

/* Floating point: NaN stored, NaN offered, signed zeros, bitwise compare-exchange. */
#define AT_SEQ_FLOAT(s, T)                                                              \
    PX_FUNCTION void at_seq_##s(T *w)                                                   \
    {                                                                                   \
        const T nan_ = (T)NAN, one = (T)1, zero = (T)0, mzero = -(T)0;                  \
        AT_SEQ_COMMON(T, w)                                                             \
        px_atomic_store(&w[1], nan_);                                                   \
        w[AT_LOG + 11] = px_atomic_fetch_min(&w[1], one); /* NaN stays */               \
        w[AT_LOG + 12] = px_atomic_fetch_max(&w[1], one); /* NaN stays */               \
        w[AT_LOG + 13] = px_atomic_load(&w[1]);                                         \
        px_atomic_store(&w[2], (T)3);                                                   \
        w[AT_LOG + 14] = px_atomic_fetch_min(&w[2], nan_); /* 3 stays */                \
        w[AT_LOG + 15] = px_atomic_fetch_max(&w[2], nan_); /* 3 stays */                \
        w[AT_LOG + 16] = px_atomic_load(&w[2]);                                         \
        px_atomic_store(&w[3], zero);                                                   \
        w[AT_LOG + 17] = px_atomic_fetch_min(&w[3], mzero);              /* +0 stays */ \
        w[AT_LOG + 18] = px_atomic_fetch_max(&w[3], mzero);              /* +0 stays */ \
        w[AT_LOG + 19] = px_atomic_compare_exchange(&w[3], mzero, (T)7); /* no match */ \
        w[AT_LOG + 20] = px_atomic_load(&w[3]);                          /* +0 */       \
        w[AT_LOG + 21] = px_atomic_compare_exchange(&w[3], zero, (T)7);  /* +0 -> 7 */  \
        w[AT_LOG + 22] = px_atomic_load(&w[3]);                                         \
        px_atomic_store(&w[4], nan_);                                                   \
        w[AT_LOG + 23] = px_atomic_compare_exchange(&w[4], nan_, (T)2); /* same bits */ \
        w[AT_LOG + 24] = px_atomic_load(&w[4]);                         /* 2 */         \
        px_atomic_store(&w[5], nan_);                                                   \
        w[AT_LOG + 25] = px_atomic_fetch_add(&w[5], one); /* ends; NaN stays */         \
        w[AT_LOG + 26] = px_atomic_load(&w[5]);                                         \
        w[AT_LOG + 27] = px_atomic_exchange(&w[5], mzero); /* NaN -> -0 */              \
        w[AT_LOG + 28] = px_atomic_load(&w[5]);                                         \
    }

AT_SEQ_INT(i32, int32_t, INT32_MIN, INT32_MAX)
AT_SEQ_INT(u32, uint32_t, 0u, UINT32_MAX)
AT_SEQ_INT(i64, int64_t, INT64_MIN, INT64_MAX)
AT_SEQ_INT(u64, uint64_t, 0u, UINT64_MAX)
AT_SEQ_FLOAT(f32, float)
AT_SEQ_FLOAT(f64, double)

/* Index 0 runs at_seq_<s> on each span's first AT_SEQ_LEN elements. */
typedef struct at_seq_args {
    px_span_i32_1d i32;
    px_span_u32_1d u32;
    px_span_i64_1d i64;
    px_span_u64_1d u64;
    px_span_f32_1d f32;
    px_span_f64_1d f64;
} at_seq_args;
PX_DECLARE_KERNEL(at_seq);

/* ---- Histograms: every index adds to one of nbins bins -------------------------------------
   c32(b) += 1 (px_atomic_add), u32(b) += 1 (px_atomic_fetch_add, result unused),
   s64(b) += i, u64(b) -= 1 (from 0: wraps around), f32(b) += 1, f64(b) += i. */
typedef struct at_hist_args {
    px_span_i32_1d c32;
    px_span_u32_1d u32;
    px_span_i64_1d s64;
    px_span_u64_1d u64;
    px_span_f32_1d f32;
    px_span_f64_1d f64;
    int64_t nbins;
} at_hist_args;
PX_DECLARE_KERNEL(at_hist);

/* ---- Scatter-add: y(idx(i)) += x(i), z(idx(i)) -= x(i) (as float) -------------------------- */
typedef struct at_scatter_args {
    px_span_i64_1d idx;
    px_span_f64_1d x, y;
    px_span_f32_1d z;
} at_scatter_args;
PX_DECLARE_KERNEL(at_scatter);

/* Per element type T (suffix s), on elements every index hits:
 *
 * at_tickets_s: t = fetch_add(&counter(0), 1) and seen(0, t) += 1;
 *               t = fetch_sub(&counter(1), 1) and seen(1, t - 1) += 1;
 *               a ticket outside [0, n) adds 1 to bad(0) instead.
 * at_minmax_s:  on ext (6 elements) with v = at_value_s(i, nan_at):
 *               rets(0, i) = fetch_min(&ext(0), v), rets(1, i) = fetch_max(&ext(1), v),
 *               min(&ext(2), v), max(&ext(3), v), min(&ext(4), v), max(&ext(5), v)
 *               (the test starts 4 and 5 at NaN for float and double).
 * at_claim_s:   slot = i % nslots; cas(i) = compare_exchange(&owner(slot), empty, i):
 *               one index per slot wins; xchg(i) = exchange(&last(slot), i); and
 *               copy(i) = load(cas(i)) stored with px_atomic_store.
 * at_bits_s:    integers only, bit b = i % (bits of T):
 *               rets(0, i) = fetch_or(&m(0), bit), rets(1, i) = fetch_and(&m(1), ~bit),
 *               rets(2, i) = fetch_xor(&m(2), bit); or(&m(3), bit), and(&m(4), ~bit),
 *               xor(&m(5), bit). */
#define AT_DECLARE(s, T)                               \
    typedef struct at_tickets_args_##s {               \
        px_span_##s##_1d counter;                      \
        px_span_i32_right seen;                        \
        px_span_i32_1d bad;                            \
        int64_t n;                                     \
    } at_tickets_args_##s;                             \
    PX_DECLARE_KERNEL(at_tickets_##s);                 \
    typedef struct at_minmax_args_##s {                \
        px_span_##s##_1d ext;                          \
        px_span_##s##_right rets;                      \
        int64_t nan_at;                                \
    } at_minmax_args_##s;                              \
    PX_DECLARE_KERNEL(at_minmax_##s);                  \
    typedef struct at_claim_args_##s {                 \
        px_span_##s##_1d owner, last, cas, xchg, copy; \
        T empty;                                       \
        int64_t nslots;                                \
    } at_claim_args_##s;                               \
    PX_DECLARE_KERNEL(at_claim_##s);

#define AT_DECLARE_INT(s, T)          \
    AT_DECLARE(s, T)                  \
    typedef struct at_bits_args_##s { \
        px_span_##s##_1d m;           \
        px_span_##s##_right rets;     \
    } at_bits_args_##s;               \
    PX_DECLARE_KERNEL(at_bits_##s);

AT_DECLARE_INT(i32, int32_t)
AT_DECLARE_INT(u32, uint32_t)
AT_DECLARE_INT(i64, int64_t)
AT_DECLARE_INT(u64, uint64_t)
AT_DECLARE(f32, float)
AT_DECLARE(f64, double)

#endif /* PX_TESTS_K_ATOMIC_H */
