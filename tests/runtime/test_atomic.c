/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Atomics in kernels (portex/atomic.h). Every test body runs twice (the loop index _i):
 *   0: the kernels dispatched on the backend under test, views in its space, results
 *      read back through HOST mirrors;
 *   1: the same kernels' host entries called from AT_THREADS threads at once, each on a
 *      part of the range, on HOST views (what a parallel host backend does), so the host
 *      atomics meet real contention on any backend.
 * Histograms and scatter-adds (exact counts and sums), every operation of every type
 * with all indices on one element (tickets, min/max, claims by compare-exchange and
 * exchange, bit masks) with the values each fetch returned, and one fixed sequence per
 * type with known results (NaN, signed zeros, wrap-around), on the host and in a kernel.
 * Suite "atomic". */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "common.h"
#include "k_atomic.h"

enum { AT_THREADS = 4, RUN_DISPATCH = 0, RUN_HOST_THREADS = 1, RUN_MODES = 2 };

/* Indices per kernel: 2^20, enough for the threads of a loaded machine to overlap; 2^17
   under valgrind, which runs one thread at a time, and in sanitizer builds, which run
   every access many times slower. Float tickets and counts stay exact (below 2^24). */
static int64_t at_n(void)
{
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    return (int64_t)1 << 17;
#else
    return tk_under_valgrind() ? (int64_t)1 << 17 : (int64_t)1 << 20;
#endif
}

/* ---- Running a kernel ------------------------------------------------------------------- */

typedef struct at_part {
    const px_kernel *k;
    const void *args;
    int64_t begin, end;
    pthread_barrier_t *start;
} at_part;

static void *run_part(void *p_)
{
    const at_part *p = (const at_part *)p_;
    const px_policy pol = px_range(p->begin, p->end);
    pthread_barrier_wait(p->start); /* all threads start together */
    tk_host_range(p->k)(p->args, &pol, NULL);
    return NULL;
}

/* Runs k over [0, n) as mode says, and waits for it. */
static void run(int mode, const px_kernel *k, const void *args, int64_t n)
{
    if (mode == RUN_DISPATCH) {
        TK_OK(px_parallel_for(tk_inst(), k->name, px_range(0, n), k, args));
        TK_OK(px_instance_fence(tk_inst()));
        return;
    }
    pthread_barrier_t start;
    ck_assert_int_eq(pthread_barrier_init(&start, NULL, AT_THREADS), 0);
    pthread_t t[AT_THREADS];
    at_part parts[AT_THREADS];
    for (int p = 0; p < AT_THREADS; ++p) {
        parts[p].k = k;
        parts[p].args = args;
        parts[p].begin = n * p / AT_THREADS;
        parts[p].end = n * (p + 1) / AT_THREADS;
        parts[p].start = &start;
        ck_assert_int_eq(pthread_create(&t[p], NULL, run_part, &parts[p]), 0);
    }
    for (int p = 0; p < AT_THREADS; ++p) ck_assert_int_eq(pthread_join(t[p], NULL), 0);
    pthread_barrier_destroy(&start);
}

/* A view in the space of the run, holding `init` (host data of the view's size; NULL:
   zeros). */
static px_view *at_view(int mode, const char *label, px_dtype dt, int rank, const int64_t *ext,
                        const void *init)
{
    px_view *v = tk_view(label, mode == RUN_DISPATCH ? tk_space() : px_host(), dt, rank, ext);
    if (init) {
        px_view *h = tk_view(label, px_host(), dt, rank, ext);
        memcpy(tk_data(h), init, tk_info(h).bytes);
        TK_OK(px_deep_copy(v, h, NULL));
        px_view_release(&h);
    }
    return v;
}

static px_view *at_view1(int mode, const char *label, px_dtype dt, int64_t n, const void *init)
{
    return at_view(mode, label, dt, 1, &n, init);
}

/* The elements of v, read on the host; the caller frees them. */
static void *at_read(px_view *v)
{
    px_view *h = tk_readable(v);
    const px_view_info in = tk_info(h);
    void *out = malloc(in.bytes ? in.bytes : 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, in.data, in.bytes);
    px_view_release(&h);
    return out;
}

/* Equal bits, or both NaN (arithmetic on a NaN may give another NaN's bits). */
static bool same_f32(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
static bool same_f64(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* ---- Histograms and scatter-adds -------------------------------------------------------- */

START_TEST(atomic_histogram)
{
    const int mode = _i;
    const int64_t n = at_n(), nbins = 7;
    at_hist_args a;
    memset(&a, 0, sizeof a);
    a.nbins = nbins;
    px_view *v[6] = {
        at_view1(mode, "c32", PX_I32, nbins, NULL), at_view1(mode, "u32", PX_U32, nbins, NULL),
        at_view1(mode, "s64", PX_I64, nbins, NULL), at_view1(mode, "u64", PX_U64, nbins, NULL),
        at_view1(mode, "f32", PX_F32, nbins, NULL), at_view1(mode, "f64", PX_F64, nbins, NULL)};
    TK_OK(px_view_get_span(v[0], &a.c32));
    TK_OK(px_view_get_span(v[1], &a.u32));
    TK_OK(px_view_get_span(v[2], &a.s64));
    TK_OK(px_view_get_span(v[3], &a.u64));
    TK_OK(px_view_get_span(v[4], &a.f32));
    TK_OK(px_view_get_span(v[5], &a.f64));
    run(mode, PX_KERNEL(at_hist), &a, n);

    int64_t count[7] = {0}, sum[7] = {0};
    for (int64_t i = 0; i < n; ++i) {
        const int64_t b = at_bin(i, nbins);
        ++count[b];
        sum[b] += i;
    }
    int32_t *c32 = at_read(v[0]);
    uint32_t *u32 = at_read(v[1]);
    int64_t *s64 = at_read(v[2]);
    uint64_t *u64 = at_read(v[3]);
    float *f32 = at_read(v[4]);
    double *f64 = at_read(v[5]);
    int64_t total = 0;
    for (int64_t b = 0; b < nbins; ++b) {
        total += count[b];
        TK_ASSERT(count[b] > n / nbins / 2, "bin %lld holds %lld of %lld", (long long)b,
                  (long long)count[b], (long long)n);
        TK_ASSERT(c32[b] == count[b], "c32[%lld] = %d, want %lld", (long long)b, c32[b],
                  (long long)count[b]);
        TK_ASSERT(u32[b] == (uint32_t)count[b], "u32[%lld] = %u", (long long)b, u32[b]);
        TK_ASSERT(s64[b] == sum[b], "s64[%lld] = %lld, want %lld", (long long)b, (long long)s64[b],
                  (long long)sum[b]);
        TK_ASSERT(u64[b] == (uint64_t)0 - (uint64_t)count[b], "u64[%lld] = %llu", (long long)b,
                  (unsigned long long)u64[b]);
        TK_ASSERT(f32[b] == (float)count[b], "f32[%lld] = %.9g", (long long)b, (double)f32[b]);
        TK_ASSERT(f64[b] == (double)sum[b], "f64[%lld] = %.17g", (long long)b, f64[b]);
    }
    ck_assert_int_eq(total, n);
    free(c32), free(u32), free(s64), free(u64), free(f32), free(f64);
    tk_release_all(v, 6);
}
END_TEST

START_TEST(atomic_scatter_add)
{
    const int mode = _i;
    const int64_t n = at_n(), m = 37;
    tk_rng r = tk_rng_seed(42 + (uint64_t)mode);
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)n);
    double *x = malloc(sizeof(double) * (size_t)n), y0[37], want[37];
    float z0[37];
    ck_assert(idx && x);
    for (int64_t k = 0; k < m; ++k) {
        y0[k] = (double)k + 0.5;
        z0[k] = -(float)k;
        want[k] = 0;
    }
    for (int64_t i = 0; i < n; ++i) {
        idx[i] = tk_int(&r, 0, m - 1);
        x[i] = (double)tk_int(&r, -8, 8); /* integers: every partial sum is exact (< 2^24) */
        want[idx[i]] += x[i];
    }
    at_scatter_args a;
    px_view *vi = at_view1(mode, "idx", PX_I64, n, idx), *vx = at_view1(mode, "x", PX_F64, n, x);
    px_view *vy = at_view1(mode, "y", PX_F64, m, y0), *vz = at_view1(mode, "z", PX_F32, m, z0);
    TK_OK(px_view_get_span(vi, &a.idx));
    TK_OK(px_view_get_span(vx, &a.x));
    TK_OK(px_view_get_span(vy, &a.y));
    TK_OK(px_view_get_span(vz, &a.z));
    run(mode, PX_KERNEL(at_scatter), &a, n);

    double *y = at_read(vy);
    float *z = at_read(vz);
    for (int64_t k = 0; k < m; ++k) {
        TK_ASSERT(y[k] == y0[k] + want[k], "y[%lld] = %.17g, want %.17g", (long long)k, y[k],
                  y0[k] + want[k]);
        TK_ASSERT(z[k] == z0[k] - (float)want[k], "z[%lld] = %.9g, want %.9g", (long long)k,
                  (double)z[k], (double)(z0[k] - (float)want[k]));
    }
    free(y), free(z), free(idx), free(x);
    TK_RELEASE(vi, vx, vy, vz);
}
END_TEST

/* ---- Tickets: fetch_add and fetch_sub on one element hand out each value once ------------ */

#define AT_TICKETS(s, T, DT)                                                              \
    do {                                                                                  \
        const int64_t n = at_n(), two_n[2] = {2, n};                                      \
        const T start[2] = {(T)0, (T)n};                                                  \
        at_tickets_args_##s a;                                                            \
        a.n = n;                                                                          \
        px_view *c = at_view1(mode, "counter", DT, 2, start);                             \
        px_view *seen = at_view(mode, "seen", PX_I32, 2, two_n, NULL);                    \
        px_view *bad = at_view1(mode, "bad", PX_I32, 1, NULL);                            \
        TK_OK(px_view_get_span(c, &a.counter));                                           \
        TK_OK(px_view_get_span(seen, &a.seen));                                           \
        TK_OK(px_view_get_span(bad, &a.bad));                                             \
        run(mode, PX_KERNEL(at_tickets_##s), &a, n);                                      \
        T *hc = at_read(c);                                                               \
        int32_t *hs = at_read(seen), *hb = at_read(bad);                                  \
        TK_ASSERT(hb[0] == 0, #s ": %d tickets outside [0, n)", hb[0]);                   \
        TK_ASSERT(hc[0] == (T)n && hc[1] == (T)0, #s ": counters end at %.17g and %.17g", \
                  (double)hc[0], (double)hc[1]);                                          \
        for (int64_t t = 0; t < 2 * n; ++t)                                               \
            TK_ASSERT(hs[t] == 1, #s ": %s ticket %lld handed out %d times",              \
                      t < n ? "fetch_add" : "fetch_sub", (long long)(t % n), hs[t]);      \
        free(hc), free(hs), free(hb);                                                     \
        TK_RELEASE(c, seen, bad);                                                         \
    } while (0)

START_TEST(atomic_tickets)
{
    const int mode = _i;
    AT_TICKETS(i32, int32_t, PX_I32);
    AT_TICKETS(u32, uint32_t, PX_U32);
    AT_TICKETS(i64, int64_t, PX_I64);
    AT_TICKETS(u64, uint64_t, PX_U64);
    AT_TICKETS(f32, float, PX_F32);
    AT_TICKETS(f64, double, PX_F64);
}
END_TEST

/* ---- min and max on one element ------------------------------------------------------------ */

/* 2^17 indices: every returned value is looked up among the values offered, which costs
   more than the kernel. */
#define AT_MINMAX_N ((int64_t)1 << 17)

/* ext starts at {hi, lo, hi, lo, x4, x5} (x4, x5: NaN for floats); every index offers
   at_value(i). The targets end at the true extremes (NaN offered: ignored; NaN stored:
   kept); every fetch returned the start or a value some index offered; exactly one
   returned the start (the first to run that offered a number). */
#define AT_MINMAX(s, T, DT, lo, hi, x4, x5, is_nan)                                             \
    do {                                                                                        \
        const int64_t n = AT_MINMAX_N, two_n[2] = {2, n}, nan_at = n / 3;                       \
        const T start[6] = {hi, lo, hi, lo, x4, x5};                                            \
        at_minmax_args_##s a;                                                                   \
        a.nan_at = nan_at;                                                                      \
        px_view *e = at_view1(mode, "ext", DT, 6, start);                                       \
        px_view *rets = at_view(mode, "rets", DT, 2, two_n, NULL);                              \
        TK_OK(px_view_get_span(e, &a.ext));                                                     \
        TK_OK(px_view_get_span(rets, &a.rets));                                                 \
        run(mode, PX_KERNEL(at_minmax_##s), &a, n);                                             \
        T *vals = malloc(sizeof(T) * (size_t)n);                                                \
        ck_assert_ptr_nonnull(vals);                                                            \
        int64_t nv = 0;                                                                         \
        for (int64_t i = 0; i < n; ++i) {                                                       \
            const T v = at_value_##s(i, nan_at);                                                \
            if (!(is_nan(v))) vals[nv++] = v;                                                   \
        }                                                                                       \
        qsort(vals, (size_t)nv, sizeof(T), cmp_##s);                                            \
        const T mn = vals[0], mx = vals[nv - 1];                                                \
        TK_ASSERT(mn > (lo) && mx < (hi), #s ": the values reach the starts");                  \
        T *he = at_read(e), *hr = at_read(rets);                                                \
        TK_ASSERT(he[0] == mn && he[2] == mn, #s ": min ends at %.17g and %.17g, want %.17g",   \
                  (double)he[0], (double)he[2], (double)mn);                                    \
        TK_ASSERT(he[1] == mx && he[3] == mx, #s ": max ends at %.17g and %.17g, want %.17g",   \
                  (double)he[1], (double)he[3], (double)mx);                                    \
        if (is_nan(start[4])) {                                                                 \
            TK_ASSERT(is_nan(he[4]) && is_nan(he[5]), #s ": a stored NaN was replaced");        \
        } else {                                                                                \
            TK_ASSERT(he[4] == mn && he[5] == mx, #s ": void min/max end wrong");               \
        }                                                                                       \
        for (int k = 0; k < 2; ++k) {                                                           \
            int64_t starts = 0;                                                                 \
            for (int64_t i = 0; i < n; ++i) {                                                   \
                const T got = hr[k * n + i];                                                    \
                if (got == start[k]) {                                                          \
                    starts += i != nan_at || !is_nan(at_value_##s(i, nan_at));                  \
                    continue;                                                                   \
                }                                                                               \
                TK_ASSERT(bsearch(&got, vals, (size_t)nv, sizeof(T), cmp_##s) != NULL,          \
                          #s ": fetch_%s of index %lld returned %.17g, which no index offered", \
                          k ? "max" : "min", (long long)i, (double)got);                        \
            }                                                                                   \
            TK_ASSERT(starts == 1, #s ": %lld fetch_%s calls returned the start value",         \
                      (long long)starts, k ? "max" : "min");                                    \
        }                                                                                       \
        free(vals), free(he), free(hr);                                                         \
        TK_RELEASE(e, rets);                                                                    \
    } while (0)

#define AT_CMP(s, T)                                    \
    static int cmp_##s(const void *a_, const void *b_)  \
    {                                                   \
        const T a = *(const T *)a_, b = *(const T *)b_; \
        return (a > b) - (a < b);                       \
    }
AT_CMP(i32, int32_t)
AT_CMP(u32, uint32_t)
AT_CMP(i64, int64_t)
AT_CMP(u64, uint64_t)
AT_CMP(f32, float)
AT_CMP(f64, double)

#define AT_NEVER_NAN(v) ((void)(v), false)

START_TEST(atomic_min_max)
{
    const int mode = _i;
    AT_MINMAX(i32, int32_t, PX_I32, INT32_MIN, INT32_MAX, INT32_MAX, INT32_MIN, AT_NEVER_NAN);
    AT_MINMAX(u32, uint32_t, PX_U32, 0u, UINT32_MAX, UINT32_MAX, 0u, AT_NEVER_NAN);
    AT_MINMAX(i64, int64_t, PX_I64, INT64_MIN, INT64_MAX, INT64_MAX, INT64_MIN, AT_NEVER_NAN);
    AT_MINMAX(u64, uint64_t, PX_U64, 0u, UINT64_MAX, UINT64_MAX, 0u, AT_NEVER_NAN);
    AT_MINMAX(f32, float, PX_F32, -INFINITY, INFINITY, NAN, NAN, isnan);
    AT_MINMAX(f64, double, PX_F64, -(double)INFINITY, (double)INFINITY, (double)NAN, (double)NAN,
              isnan);
}
END_TEST

/* ---- Claims: compare_exchange lets one index per slot win; exchange chains them ---------- */

/* 8 indices per slot. cas: the winner saw `empty`, every other index saw the winner;
   xchg: the values returned and the last one stored are `empty` and the slot's indices,
   each once; copy (load + store) equals cas bit for bit. */
#define AT_CLAIM(s, T, DT, EMPTY)                                                                 \
    do {                                                                                          \
        const int64_t n = at_n(), nslots = n / 8;                                                 \
        const T empty = EMPTY;                                                                    \
        T *init = malloc(sizeof(T) * (size_t)nslots);                                             \
        ck_assert_ptr_nonnull(init);                                                              \
        for (int64_t k = 0; k < nslots; ++k) init[k] = empty;                                     \
        at_claim_args_##s a;                                                                      \
        a.empty = empty;                                                                          \
        a.nslots = nslots;                                                                        \
        px_view *v[5] = {at_view1(mode, "owner", DT, nslots, init),                               \
                         at_view1(mode, "last", DT, nslots, init),                                \
                         at_view1(mode, "cas", DT, n, NULL), at_view1(mode, "xchg", DT, n, NULL), \
                         at_view1(mode, "copy", DT, n, NULL)};                                    \
        TK_OK(px_view_get_span(v[0], &a.owner));                                                  \
        TK_OK(px_view_get_span(v[1], &a.last));                                                   \
        TK_OK(px_view_get_span(v[2], &a.cas));                                                    \
        TK_OK(px_view_get_span(v[3], &a.xchg));                                                   \
        TK_OK(px_view_get_span(v[4], &a.copy));                                                   \
        run(mode, PX_KERNEL(at_claim_##s), &a, n);                                                \
        T *owner = at_read(v[0]), *last = at_read(v[1]), *cas = at_read(v[2]);                    \
        T *xchg = at_read(v[3]), *copy = at_read(v[4]);                                           \
        TK_ASSERT(memcmp(cas, copy, sizeof(T) * (size_t)n) == 0, #s ": load/store copy differs"); \
        for (int64_t k = 0; k < nslots; ++k) {                                                    \
            int64_t winners = 0, keys[9];                                                         \
            for (int64_t j = 0; j < 8; ++j) {                                                     \
                const int64_t i = k + j * nslots;                                                 \
                if (cas[i] == empty) {                                                            \
                    ++winners;                                                                    \
                    TK_ASSERT(owner[k] == (T)i, #s ": slot %lld: index %lld won, owner %.17g",    \
                              (long long)k, (long long)i, (double)owner[k]);                      \
                } else {                                                                          \
                    TK_ASSERT(cas[i] == owner[k],                                                 \
                              #s ": slot %lld: index %lld saw %.17g, owner %.17g", (long long)k,  \
                              (long long)i, (double)cas[i], (double)owner[k]);                    \
                }                                                                                 \
                keys[j] = xchg[i] == empty ? -1 : (int64_t)xchg[i];                               \
            }                                                                                     \
            TK_ASSERT(winners == 1, #s ": slot %lld has %lld winners", (long long)k,              \
                      (long long)winners);                                                        \
            keys[8] = last[k] == empty ? -1 : (int64_t)last[k];                                   \
            qsort(keys, 9, sizeof keys[0], cmp_i64_key);                                          \
            for (int64_t j = 0; j < 9; ++j)                                                       \
                TK_ASSERT(keys[j] == (j == 0 ? -1 : k + (j - 1) * nslots),                        \
                          #s ": slot %lld: exchange chain broken at %lld (%lld)", (long long)k,   \
                          (long long)j, (long long)keys[j]);                                      \
        }                                                                                         \
        free(init), free(owner), free(last), free(cas), free(xchg), free(copy);                   \
        tk_release_all(v, 5);                                                                     \
    } while (0)

static int cmp_i64_key(const void *a_, const void *b_)
{
    const int64_t a = *(const int64_t *)a_, b = *(const int64_t *)b_;
    return (a > b) - (a < b);
}

START_TEST(atomic_claim)
{
    const int mode = _i;
    AT_CLAIM(i32, int32_t, PX_I32, -1);
    AT_CLAIM(u32, uint32_t, PX_U32, UINT32_MAX);
    AT_CLAIM(i64, int64_t, PX_I64, -1);
    AT_CLAIM(u64, uint64_t, PX_U64, UINT64_MAX);
    AT_CLAIM(f32, float, PX_F32, -1.0f);
    AT_CLAIM(f64, double, PX_F64, -1.0);
}
END_TEST

/* ---- Bit masks: and, or, xor on one element ------------------------------------------------ */

/* Index i works on bit i % B (B: the bits of T) over n = at_n() + 5 indices, so the low 5
   bits are hit once more than the others (an odd number of times). or: each bit's first
   setter saw it clear; and: each bit's first clearer saw it set; xor: the c indices on a
   bit saw it set floor(c / 2) times, and it ends set iff c is odd. */
#define AT_BITS(s, T, UT, DT)                                                                     \
    do {                                                                                          \
        const int64_t n = at_n() + 5, three_n[2] = {3, n}, B = 8 * (int64_t)sizeof(T);            \
        const T ones = (T) ~(UT)0;                                                                \
        const T start[6] = {0, ones, 0, 0, ones, 0};                                              \
        at_bits_args_##s a;                                                                       \
        px_view *m = at_view1(mode, "m", DT, 6, start);                                           \
        px_view *rets = at_view(mode, "rets", DT, 2, three_n, NULL);                              \
        TK_OK(px_view_get_span(m, &a.m));                                                         \
        TK_OK(px_view_get_span(rets, &a.rets));                                                   \
        run(mode, PX_KERNEL(at_bits_##s), &a, n);                                                 \
        T *hm = at_read(m), *hr = at_read(rets);                                                  \
        UT want_xor = 0;                                                                          \
        for (int64_t b = 0; b < B; ++b) {                                                         \
            const UT bit = (UT)((UT)1 << b);                                                      \
            int64_t c = 0, or_clear = 0, and_set = 0, xor_set = 0;                                \
            for (int64_t i = b; i < n; i += B) {                                                  \
                ++c;                                                                              \
                or_clear += ((UT)hr[i] & bit) == 0;                                               \
                and_set += ((UT)hr[n + i] & bit) != 0;                                            \
                xor_set += ((UT)hr[2 * n + i] & bit) != 0;                                        \
            }                                                                                     \
            if (c % 2) want_xor |= bit;                                                           \
            TK_ASSERT(or_clear == 1, #s ": bit %lld: %lld fetch_or saw it clear", (long long)b,   \
                      (long long)or_clear);                                                       \
            TK_ASSERT(and_set == 1, #s ": bit %lld: %lld fetch_and saw it set", (long long)b,     \
                      (long long)and_set);                                                        \
            TK_ASSERT(xor_set == c / 2, #s ": bit %lld: fetch_xor saw it set %lld times of %lld", \
                      (long long)b, (long long)xor_set, (long long)c);                            \
        }                                                                                         \
        TK_ASSERT(want_xor == 0x1f, #s ": the test's own xor expectation");                       \
        TK_ASSERT(hm[0] == ones && hm[3] == ones, #s ": or ends at %llx, %llx",                   \
                  (unsigned long long)(UT)hm[0], (unsigned long long)(UT)hm[3]);                  \
        TK_ASSERT(hm[1] == 0 && hm[4] == 0, #s ": and ends at %llx, %llx",                        \
                  (unsigned long long)(UT)hm[1], (unsigned long long)(UT)hm[4]);                  \
        TK_ASSERT((UT)hm[2] == want_xor && (UT)hm[5] == want_xor, #s ": xor ends at %llx, %llx",  \
                  (unsigned long long)(UT)hm[2], (unsigned long long)(UT)hm[5]);                  \
        free(hm), free(hr);                                                                       \
        TK_RELEASE(m, rets);                                                                      \
    } while (0)

START_TEST(atomic_bits)
{
    const int mode = _i;
    AT_BITS(i32, int32_t, uint32_t, PX_I32);
    AT_BITS(u32, uint32_t, uint32_t, PX_U32);
    AT_BITS(i64, int64_t, uint64_t, PX_I64);
    AT_BITS(u64, uint64_t, uint64_t, PX_U64);
}
END_TEST

/* ---- One sequence with known results, per type ---------------------------------------------- */

/* The log of at_seq_<s> for an integer type with limits lo, hi. */
#define AT_WANT_INT(T, lo, hi)                                                                  \
    {                                                                                           \
        10, 15, 12, 12, 4, 4, 9, 6, 6, 1, 4, 12, 8, 11, 20, (T)(hi), (T)(lo), (T)(lo), (T)(hi), \
            (T)-5, ((T)-5 < (T)3 ? (T)-5 : (T)3),                                               \
            ((T)-5 < (T)3 ? ((T)-5 > (T)-2 ? (T)-5 : (T)-2) : ((T)3 > (T)-2 ? (T)3 : (T)-2)),   \
            (T)(lo), (T)(hi), (T)(lo)                                                           \
    }

/* Checks a log against the expected values; `same` compares two elements. */
#define AT_CHECK_LOG(s, T, log, want, nwant, same, where)                                         \
    for (int k = 0; k < (nwant); ++k)                                                             \
        TK_ASSERT(same((log)[AT_LOG + k], (want)[k]), #s " (%s): result %d is %.17g, want %.17g", \
                  where, k, (double)(log)[AT_LOG + k], (double)(want)[k]);

#define AT_SAME_INT(a, b) ((a) == (b))

START_TEST(atomic_sequence)
{
    const int mode = _i;
    /* On the host, directly (the C forms: _Generic). */
    int32_t i32[AT_SEQ_LEN] = {0};
    uint32_t u32[AT_SEQ_LEN] = {0};
    int64_t i64[AT_SEQ_LEN] = {0};
    uint64_t u64[AT_SEQ_LEN] = {0};
    float f32[AT_SEQ_LEN] = {0};
    double f64[AT_SEQ_LEN] = {0};
    at_seq_i32(i32);
    at_seq_u32(u32);
    at_seq_i64(i64);
    at_seq_u64(u64);
    at_seq_f32(f32);
    at_seq_f64(f64);

    const int32_t w_i32[] = AT_WANT_INT(int32_t, INT32_MIN, INT32_MAX);
    const uint32_t w_u32[] = AT_WANT_INT(uint32_t, 0u, UINT32_MAX);
    const int64_t w_i64[] = AT_WANT_INT(int64_t, INT64_MIN, INT64_MAX);
    const uint64_t w_u64[] = AT_WANT_INT(uint64_t, 0u, UINT64_MAX);
    ck_assert_int_eq(w_i32[20], -5);  /* signed: min(-5, 3) */
    ck_assert_int_eq(w_i32[21], -2);  /* then max(-5, -2) */
    ck_assert_uint_eq(w_u32[20], 3u); /* unsigned: (T)-5 is large */
    ck_assert_uint_eq(w_u32[21], (uint32_t)-2);
    const int nint = (int)(sizeof w_i32 / sizeof w_i32[0]);
    const float w_f32[] = {10, 15, 12,   12,   4,    4,    9,    6, 6,   1, 4,   NAN, NAN, NAN,  3,
                           3,  3,  0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 7, NAN, 2, NAN, NAN, NAN, -0.0f};
    const double w_f64[] = {10, 15, 12,  12,  4,   4,   9,   6, 6,   1, 4,   NAN, NAN, NAN, 3,
                            3,  3,  0.0, 0.0, 0.0, 0.0, 0.0, 7, NAN, 2, NAN, NAN, NAN, -0.0};
    const int nflt = (int)(sizeof w_f32 / sizeof w_f32[0]);
    ck_assert_int_eq(AT_LOG + nflt, 37);
    AT_CHECK_LOG(i32, int32_t, i32, w_i32, nint, AT_SAME_INT, "host");
    AT_CHECK_LOG(u32, uint32_t, u32, w_u32, nint, AT_SAME_INT, "host");
    AT_CHECK_LOG(i64, int64_t, i64, w_i64, nint, AT_SAME_INT, "host");
    AT_CHECK_LOG(u64, uint64_t, u64, w_u64, nint, AT_SAME_INT, "host");
    AT_CHECK_LOG(f32, float, f32, w_f32, nflt, same_f32, "host");
    AT_CHECK_LOG(f64, double, f64, w_f64, nflt, same_f64, "host");
    /* +0 stayed +0 (same_* compares bits): -0.0 did not replace it in min or max. */
    ck_assert(!signbit(f32[AT_LOG + 20]) && !signbit(f64[AT_LOG + 20]));

    /* In a kernel of the run (on CUDA: device code; the C++ overloads). */
    at_seq_args a;
    px_view *v[6] = {at_view1(mode, "i32", PX_I32, AT_SEQ_LEN, NULL),
                     at_view1(mode, "u32", PX_U32, AT_SEQ_LEN, NULL),
                     at_view1(mode, "i64", PX_I64, AT_SEQ_LEN, NULL),
                     at_view1(mode, "u64", PX_U64, AT_SEQ_LEN, NULL),
                     at_view1(mode, "f32", PX_F32, AT_SEQ_LEN, NULL),
                     at_view1(mode, "f64", PX_F64, AT_SEQ_LEN, NULL)};
    TK_OK(px_view_get_span(v[0], &a.i32));
    TK_OK(px_view_get_span(v[1], &a.u32));
    TK_OK(px_view_get_span(v[2], &a.i64));
    TK_OK(px_view_get_span(v[3], &a.u64));
    TK_OK(px_view_get_span(v[4], &a.f32));
    TK_OK(px_view_get_span(v[5], &a.f64));
    run(mode, PX_KERNEL(at_seq), &a, 1);
    int32_t *k_i32 = at_read(v[0]);
    uint32_t *k_u32 = at_read(v[1]);
    int64_t *k_i64 = at_read(v[2]);
    uint64_t *k_u64 = at_read(v[3]);
    float *k_f32 = at_read(v[4]);
    double *k_f64 = at_read(v[5]);
    AT_CHECK_LOG(i32, int32_t, k_i32, w_i32, nint, AT_SAME_INT, "kernel");
    AT_CHECK_LOG(u32, uint32_t, k_u32, w_u32, nint, AT_SAME_INT, "kernel");
    AT_CHECK_LOG(i64, int64_t, k_i64, w_i64, nint, AT_SAME_INT, "kernel");
    AT_CHECK_LOG(u64, uint64_t, k_u64, w_u64, nint, AT_SAME_INT, "kernel");
    AT_CHECK_LOG(f32, float, k_f32, w_f32, nflt, same_f32, "kernel");
    AT_CHECK_LOG(f64, double, k_f64, w_f64, nflt, same_f64, "kernel");
    free(k_i32), free(k_u32), free(k_i64), free(k_u64), free(k_f32), free(k_f64);
    tk_release_all(v, 6);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("atomic", "atomic");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, atomic_histogram, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_scatter_add, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_tickets, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_min_max, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_claim, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_bits, 0, RUN_MODES);
    tcase_add_loop_test(tc, atomic_sequence, 0, RUN_MODES);
    return tk_run();
}
