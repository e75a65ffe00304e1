/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_parallel, suite reduce: px_parallel_reduce with the built-in joins on every value
 * type, minloc and maxloc, custom joins, 2-D and 3-D ranges, tiles near INT64_MAX, and
 * px_parallel_reduce_view. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_parallel.h"

/* ---- parallel_reduce: built-in joins ------------------------------------------------------ */

enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX, NOPS };
static const char *const op_names[NOPS] = {"sum", "prod", "min", "max"};

/* One body per value type: random inputs that fit the op, a plain sequential reference. */
#define TK_RED_TEST(T, DT, SPANFN, KIND, MINID, MAXID)                                            \
    static void red_check_##T(int op, int64_t n)                                                  \
    {                                                                                             \
        const px_kernel *ks[NOPS] = {PX_KERNEL(red_sum_##T), PX_KERNEL(red_prod_##T),             \
                                     PX_KERNEL(red_min_##T), PX_KERNEL(red_max_##T)};             \
        tk_rng r = tk_rng_seed(1000u * (uint64_t)op + (uint64_t)n + sizeof(T) * 7u + KIND);       \
        px_view *h = tk_view1(#T, px_host(), DT, n);                                              \
        T *x = (T *)tk_data(h);                                                                   \
        for (int64_t i = 0; i < n; ++i) x[i] = (T)gen_##KIND(&r, op, sizeof(T));                  \
        if (op == OP_PROD && KIND == 1) { /* a few +-2 among +-1: the product fits */             \
            int many = sizeof(T) == 4 ? 16 : 40;                                                  \
            for (int k = 0; k < many && n > 0; ++k)                                               \
                x[tk_int(&r, 0, n - 1)] = (T)(tk_int(&r, 0, 1) ? 2 : -2);                         \
        }                                                                                         \
        px_view *dv = tk_on_space(h, #T "_dev");                                                  \
        red_args_##T a;                                                                           \
        TK_OK(SPANFN(dv, &a.x));                                                                  \
        T got;                                                                                    \
        memset(&got, 0x5a, sizeof got);                                                           \
        TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, n), ks[op], &a, &got));             \
        double ref_d = op == OP_PROD ? 1.0 : 0.0, scale = 0.0;                                    \
        T ref;                                                                                    \
        switch (op) {                                                                             \
        case OP_SUM: ref = (T)0; break;                                                           \
        case OP_PROD: ref = (T)1; break;                                                          \
        case OP_MIN: ref = MINID; break;                                                          \
        default: ref = MAXID; break;                                                              \
        }                                                                                         \
        for (int64_t i = 0; i < n; ++i) {                                                         \
            switch (op) {                                                                         \
            case OP_SUM:                                                                          \
                ref = (T)(ref + x[i]);                                                            \
                ref_d += (double)x[i];                                                            \
                scale += fabs((double)x[i]);                                                      \
                break;                                                                            \
            case OP_PROD:                                                                         \
                ref = (T)(ref * x[i]);                                                            \
                ref_d *= (double)x[i];                                                            \
                break;                                                                            \
            case OP_MIN:                                                                          \
                if (x[i] < ref) ref = x[i];                                                       \
                break;                                                                            \
            default:                                                                              \
                if (x[i] > ref) ref = x[i];                                                       \
                break;                                                                            \
            }                                                                                     \
        }                                                                                         \
        if (KIND == 0 && n > 0 && op == OP_SUM)                                                   \
            TK_ASSERT(close_rel((double)got, ref_d, sizeof(T) == 4 ? 1e-5 : 1e-12, scale),        \
                      "%s %s n=%lld: got %.17g want %.17g", #T, op_names[op], (long long)n,       \
                      (double)got, ref_d);                                                        \
        else if (KIND == 0 && n > 0 && op == OP_PROD)                                             \
            TK_ASSERT(fabs((double)got - ref_d) <= (sizeof(T) == 4 ? 5e-3 : 1e-10) * fabs(ref_d), \
                      "%s %s n=%lld: got %.17g want %.17g", #T, op_names[op], (long long)n,       \
                      (double)got, ref_d);                                                        \
        else                                                                                      \
            TK_ASSERT(memcmp(&got, &ref, sizeof got) == 0, "%s %s n=%lld: got %.17g want %.17g",  \
                      #T, op_names[op], (long long)n, (double)got, (double)ref);                  \
        px_view_release(&dv);                                                                     \
        px_view_release(&h);                                                                      \
    }

/* KIND 0: floating point; 1: signed; 2: unsigned. Values as double or 64-bit patterns. */
static double gen_0(tk_rng *r, int op, size_t size)
{
    switch (op) {
    case OP_SUM: return tk_uniform(r, -1.0, 1.0);
    case OP_PROD: return size == 4 ? tk_uniform(r, 0.999, 1.001) : tk_uniform(r, 0.99, 1.01);
    default: return tk_uniform(r, -1e3, 1e3);
    }
}
static int64_t gen_1(tk_rng *r, int op, size_t size)
{
    switch (op) {
    case OP_SUM:
        return size == 4 ? tk_int(r, -1000, 1000) : tk_int(r, -1000000000000, 1000000000000);
    case OP_PROD: return tk_int(r, 0, 1) ? 1 : -1;
    default: return size == 4 ? (int64_t)(int32_t)tk_next(r) : (int64_t)tk_next(r);
    }
}
static uint64_t gen_2(tk_rng *r, int op, size_t size)
{
    (void)size;
    /* Unsigned arithmetic wraps: any value, any order. Odd factors keep a product nonzero. */
    return op == OP_PROD ? tk_next(r) | 1u : tk_next(r);
}

TK_RED_TEST(float, PX_F32, px_view_span_f32, 0, INFINITY, -INFINITY)
TK_RED_TEST(double, PX_F64, px_view_span_f64, 0, (double)INFINITY, -(double)INFINITY)
TK_RED_TEST(int32_t, PX_I32, px_view_span_i32, 1, INT32_MAX, INT32_MIN)
TK_RED_TEST(int64_t, PX_I64, px_view_span_i64, 1, INT64_MAX, INT64_MIN)
TK_RED_TEST(uint32_t, PX_U32, px_view_span_u32, 2, UINT32_MAX, 0u)
TK_RED_TEST(uint64_t, PX_U64, px_view_span_u64, 2, UINT64_MAX, 0u)

typedef void (*red_check_fn)(int op, int64_t n);
static const red_check_fn red_checks[] = {red_check_float,    red_check_double,
                                          red_check_int32_t,  red_check_int64_t,
                                          red_check_uint32_t, red_check_uint64_t};
#define NREDTYPES 6

/* _i = ((type * NOPS) + op) * NSIZES + size */
START_TEST(reduce_builtin)
{
    int size = _i % NSIZES, op = (_i / NSIZES) % NOPS, type = _i / NSIZES / NOPS;
    red_checks[type](op, sizes[size]);
}
END_TEST

/* Reductions over a part of the view: [b, e) only. */
START_TEST(reduce_subrange)
{
    tk_rng r = tk_rng_seed(77);
    const int64_t n = 1009, b = 100, e = 911;
    px_view *dx;
    px_view *hx = rand_f64(&r, n, -5, 5, &dx);
    const double *x = (const double *)tk_data(hx);
    red_args_double a;
    TK_OK(px_view_span_f64(dx, &a.x));
    double sum = 0, scale = 0, mx = -INFINITY;
    for (int64_t i = b; i < e; ++i) {
        sum += x[i];
        scale += fabs(x[i]);
        if (x[i] > mx) mx = x[i];
    }
    double got = 0;
    TK_OK(
        px_parallel_reduce(tk_inst(), "part", px_range(b, e), PX_KERNEL(red_sum_double), &a, &got));
    TK_ASSERT(close_rel(got, sum, 1e-12, scale), "got %.17g want %.17g", got, sum);
    TK_OK(
        px_parallel_reduce(tk_inst(), "part", px_range(b, e), PX_KERNEL(red_max_double), &a, &got));
    ck_assert(got == mx);
    TK_RELEASE(hx, dx);
}
END_TEST

/* Millions of elements on a GPU (many blocks, more than one pass), fewer on the host. */
START_TEST(reduce_large)
{
    const int64_t n = tk_is_cuda() ? 4000037 : 100003;
    tk_rng r = tk_rng_seed(4242);
    px_view *h = tk_view1("big", px_host(), PX_I64, n);
    int64_t *x = (int64_t *)tk_data(h);
    int64_t sum = 0, mx = INT64_MIN, imx = -1;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = tk_int(&r, -1000000, 1000000);
        sum += x[i];
        if (x[i] > mx) {
            mx = x[i];
            imx = i;
        }
    }
    px_view *d = tk_on_space(h, "big");
    red_args_int64_t a;
    TK_OK(px_view_span_i64(d, &a.x));
    int64_t got = 0;
    TK_OK(
        px_parallel_reduce(tk_inst(), NULL, px_range(0, n), PX_KERNEL(red_sum_int64_t), &a, &got));
    ck_assert_int_eq(got, sum);
    px_valloc_i64 loc;
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, n), PX_KERNEL(red_maxloc_i64), &a, &loc));
    ck_assert_int_eq(loc.val, mx);
    ck_assert_int_eq(loc.loc, imx);
    TK_RELEASE(d, h);
}
END_TEST

/* Tiled policies right below INT64_MAX: every index once, and the dispatch returns. A
 * tile loop that steps past INT64_MAX overflows and, in practice, never ends: the watchdog
 * then fails the test. Portex may instead refuse such a policy, naming the call. */
static void expect_count(const px_policy *p, const px_kernel *k, int64_t want)
{
    count_args a = {0};
    int64_t got = -1;
    tk_watch("reduce of rank %d, begin %lld %lld %lld, tiles %lld %lld %lld, iterate %d",
             (int)p->rank, (long long)p->begin[0], (long long)p->begin[1], (long long)p->begin[2],
             (long long)p->tile[0], (long long)p->tile[1], (long long)p->tile[2], (int)p->iterate);
    px_clear_error();
    const px_status st = px_parallel_reduce(tk_inst(), NULL, *p, k, &a, &got);
    if (st != PX_OK) {
        TK_ASSERT(tk_error_from("px_parallel_reduce"), "%s: '%s'", px_status_name(st),
                  px_last_error());
        return;
    }
    TK_ASSERT(got == want, "%lld indices visited, expected %lld (tiles %lld %lld %lld)",
              (long long)got, (long long)want, (long long)p->tile[0], (long long)p->tile[1],
              (long long)p->tile[2]);
}

START_TEST(reduce_tiles_near_int64_max)
{
    static const int64_t tiles[] = {4, 3, 1000, INT64_MAX - 1, INT64_MAX};
    const int64_t top = INT64_MAX;
    tk_watchdog_start(5);
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t)
        for (int it = 0; it < 2; ++it) {
            const int64_t T = tiles[t];
            const px_iterate order = it ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
            px_policy p =
                px_policy_iterate(px_policy_tile(px_mdrange2(top - 2, top, 0, 1), T, T, 0), order);
            expect_count(&p, PX_KERNEL(count2), 2);
            p = px_policy_iterate(px_policy_tile(px_mdrange2(-3, 2, top - 3, top), T, T, 0), order);
            expect_count(&p, PX_KERNEL(count2), 15);
            p = px_policy_iterate(
                px_policy_tile(px_mdrange3(top - 1, top, top - 3, top, 5, 7), T, T, T), order);
            expect_count(&p, PX_KERNEL(count3), 6);
            /* Next to INT64_MIN a tile cannot step past the end. */
            p = px_policy_iterate(
                px_policy_tile(px_mdrange2(INT64_MIN, INT64_MIN + 3, 0, 2), T, T, 0), order);
            expect_count(&p, PX_KERNEL(count2), 6);
        }
    tk_watchdog_stop();
}
END_TEST

/* ---- minloc / maxloc ----------------------------------------------------------------------- */

/* Values from a small set so that ties are everywhere: the smallest index must win. */
#define TK_LOC_TEST(sfx, T, DT, SPANFN)                                                            \
    static void loc_check_##sfx(int64_t n, int64_t b, bool all_equal)                              \
    {                                                                                              \
        tk_rng r = tk_rng_seed(31 + (uint64_t)n + (uint64_t)b + sizeof(T));                        \
        px_view *h = tk_view1(#sfx, px_host(), DT, n);                                             \
        T *x = (T *)tk_data(h);                                                                    \
        for (int64_t i = 0; i < n; ++i) x[i] = all_equal ? (T)3 : (T)(tk_int(&r, -20, 20));        \
        px_view *dv = tk_on_space(h, #sfx "_dev");                                                 \
        red_args_##T a;                                                                            \
        TK_OK(SPANFN(dv, &a.x));                                                                   \
        px_valloc_##sfx mn, mx;                                                                    \
        memset(&mn, 0x5a, sizeof mn);                                                              \
        memset(&mx, 0x5a, sizeof mx);                                                              \
        TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(b, n), PX_KERNEL(red_minloc_##sfx), &a, \
                                 &mn));                                                            \
        TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(b, n), PX_KERNEL(red_maxloc_##sfx), &a, \
                                 &mx));                                                            \
        int64_t imin = -1, imax = -1;                                                              \
        for (int64_t i = b; i < n; ++i) {                                                          \
            if (imin < 0 || x[i] < x[imin]) imin = i;                                              \
            if (imax < 0 || x[i] > x[imax]) imax = i;                                              \
        }                                                                                          \
        if (imin < 0) { /* empty: the identities */                                                \
            ck_assert_int_eq(mn.loc, INT64_MAX);                                                   \
            ck_assert_int_eq(mx.loc, INT64_MAX);                                                   \
        } else {                                                                                   \
            TK_ASSERT(mn.val == x[imin] && mn.loc == imin,                                         \
                      #sfx " minloc n=%lld: got (%g, %lld) want (%g, %lld)", (long long)n,         \
                      (double)mn.val, (long long)mn.loc, (double)x[imin], (long long)imin);        \
            TK_ASSERT(mx.val == x[imax] && mx.loc == imax,                                         \
                      #sfx " maxloc n=%lld: got (%g, %lld) want (%g, %lld)", (long long)n,         \
                      (double)mx.val, (long long)mx.loc, (double)x[imax], (long long)imax);        \
        }                                                                                          \
        px_view_release(&dv);                                                                      \
        px_view_release(&h);                                                                       \
    }

TK_LOC_TEST(f32, float, PX_F32, px_view_span_f32)
TK_LOC_TEST(f64, double, PX_F64, px_view_span_f64)
TK_LOC_TEST(i32, int32_t, PX_I32, px_view_span_i32)
TK_LOC_TEST(i64, int64_t, PX_I64, px_view_span_i64)

START_TEST(reduce_minloc_maxloc)
{
    typedef void (*fn)(int64_t, int64_t, bool);
    static const fn checks[] = {loc_check_f32, loc_check_f64, loc_check_i32, loc_check_i64};
    fn f = checks[_i];
    for (int s = 0; s < NSIZES; ++s) f(sizes[s], 0, false);
    f(1009, 3, false); /* loc is the absolute index */
    f(65537, 0, true); /* all tied: the first index */
    f(1009, 500, true);
    f(7, 7, false); /* empty sub-range */
}
END_TEST

START_TEST(reduce_minloc_identity)
{
    int64_t zero = 0;
    px_view *v = zeros(PX_F64, 1, &zero);
    red_args_double a;
    TK_OK(px_view_span_f64(v, &a.x));
    px_valloc_f64 mn, mx;
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, 0), PX_KERNEL(red_minloc_f64), &a, &mn));
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, 0), PX_KERNEL(red_maxloc_f64), &a, &mx));
    ck_assert(isinf(mn.val) && mn.val > 0 && mn.loc == INT64_MAX);
    ck_assert(isinf(mx.val) && mx.val < 0 && mx.loc == INT64_MAX);
    px_view_release(&v);
}
END_TEST

/* ---- custom joins -------------------------------------------------------------------------- */

START_TEST(reduce_custom_struct)
{
    int64_t n = sizes[_i];
    tk_rng r = tk_rng_seed(5 + (uint64_t)n);
    px_view *dx;
    px_view *hx = rand_f64(&r, n, -1, 1, &dx);
    const double *x = (const double *)tk_data(hx);
    red_args_double a;
    TK_OK(px_view_span_f64(dx, &a.x));
    tk_stats got;
    got.sum = -99;
    got.count = -99;
    TK_OK(px_parallel_reduce(tk_inst(), "stats", px_range(0, n), PX_KERNEL(red_stats), &a, &got));
    double sum = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i)
        if (x[i] > 0) {
            sum += x[i];
            ++count;
        }
    ck_assert_int_eq(got.count, count);
    TK_ASSERT(close_rel(got.sum, sum, 1e-12, sum), "sum %.17g want %.17g", got.sum, sum);
    TK_RELEASE(hx, dx);
}
END_TEST

START_TEST(reduce_custom_complex)
{
    int64_t n = sizes[_i];
    tk_rng r = tk_rng_seed(9 + (uint64_t)n);
    px_view *hre = tk_view1("re", px_host(), PX_F64, n);
    px_view *him = tk_view1("im", px_host(), PX_F64, n);
    double *re = (double *)tk_data(hre), *im = (double *)tk_data(him);
    double pr = 1, pi = 0;
    for (int64_t i = 0; i < n; ++i) {
        double th = tk_uniform(&r, 0, 6.283185307179586);
        re[i] = cos(th);
        im[i] = sin(th);
        double a = pr * re[i] - pi * im[i], b = pr * im[i] + pi * re[i];
        pr = a;
        pi = b;
    }
    px_view *dre = tk_on_space(hre, "re"), *dim = tk_on_space(him, "im");
    cplx_args a;
    TK_OK(px_view_span_f64(dre, &a.re));
    TK_OK(px_view_span_f64(dim, &a.im));
    tk_cplx got;
    got.re = got.im = -99;
    TK_OK(px_parallel_reduce(tk_inst(), NULL, px_range(0, n), PX_KERNEL(red_cprod), &a, &got));
    TK_ASSERT(fabs(got.re - pr) < 1e-8 && fabs(got.im - pi) < 1e-8,
              "n=%lld: got %.17g%+.17gi want %.17g%+.17gi", (long long)n, got.re, got.im, pr, pi);
    TK_RELEASE(hre, him, dre, dim);
}
END_TEST

/* ---- multi-dimensional reductions ---------------------------------------------------------- */

START_TEST(reduce_2d)
{
    const int64_t ext[2] = {37, 53};
    tk_rng r = tk_rng_seed(202);
    px_view *h = tk_view("a2", px_host(), PX_F64, 2, ext);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < ext[0] * ext[1]; ++i) x[i] = tk_uniform(&r, -1, 1);
    px_view *d = tk_on_space(h, "a2_dev");
    red_args_double a;
    TK_OK(px_view_span_f64(d, &a.x));
    for (int v = 0; v < 2 * NTILES2; ++v) {
        const int64_t *t = tiles2[v / 2];
        int64_t b0 = v % 3, e0 = ext[0] - v % 5, b1 = v % 4, e1 = ext[1] - 1;
        px_policy p = px_policy_tile(px_mdrange2(b0, e0, b1, e1), t[0], t[1], 0);
        if (v % 2) p = px_policy_iterate(p, PX_ITERATE_LEFT);
        double ref = 0, scale = 0, got = -1;
        for (int64_t i = b0; i < e0; ++i)
            for (int64_t j = b1; j < e1; ++j) {
                ref += x[i * ext[1] + j];
                scale += fabs(x[i * ext[1] + j]);
            }
        TK_OK(px_parallel_reduce(tk_inst(), "r2", p, PX_KERNEL(red2_sum), &a, &got));
        TK_ASSERT(close_rel(got, ref, 1e-12, scale), "variant %d: got %.17g want %.17g", v, got,
                  ref);
    }
    double got = -1;
    TK_OK(px_parallel_reduce(tk_inst(), "r2", px_mdrange2(0, 0, 0, ext[1]), PX_KERNEL(red2_sum), &a,
                             &got));
    ck_assert(got == 0.0);
    TK_RELEASE(h, d);
}
END_TEST

START_TEST(reduce_3d)
{
    const int64_t ext[3] = {7, 11, 13};
    tk_rng r = tk_rng_seed(303);
    px_view *h = tk_view("a3", px_host(), PX_I64, 3, ext);
    int64_t *x = (int64_t *)tk_data(h);
    for (int64_t i = 0; i < ext[0] * ext[1] * ext[2]; ++i) x[i] = tk_int(&r, -1000000, 1000000);
    px_view *d = tk_on_space(h, "a3_dev");
    red_args_int64_t a;
    TK_OK(px_view_span_i64(d, &a.x));
    for (int v = 0; v < 2 * NTILES3; ++v) {
        const int64_t *t = tiles3[v / 2];
        int64_t b[3] = {v % 2, 1, v % 3}, e[3] = {ext[0], ext[1] - v % 4, ext[2] - 1};
        px_policy p =
            px_policy_tile(px_mdrange3(b[0], e[0], b[1], e[1], b[2], e[2]), t[0], t[1], t[2]);
        if (v % 2) p = px_policy_iterate(p, PX_ITERATE_LEFT);
        int64_t ref = 0, got = -1;
        for (int64_t i = b[0]; i < e[0]; ++i)
            for (int64_t j = b[1]; j < e[1]; ++j)
                for (int64_t k = b[2]; k < e[2]; ++k) ref += x[(i * ext[1] + j) * ext[2] + k];
        TK_OK(px_parallel_reduce(tk_inst(), "r3", p, PX_KERNEL(red3_sum), &a, &got));
        TK_ASSERT(got == ref, "variant %d: got %lld want %lld", v, (long long)got, (long long)ref);
    }
    TK_RELEASE(h, d);
}
END_TEST

/* ---- reduce_view ------------------------------------------------------------------------- */

START_TEST(reduce_view_basic)
{
    int64_t n = sizes[_i];
    tk_rng r = tk_rng_seed(404 + (uint64_t)n);
    px_view *dx;
    px_view *hx = rand_f64(&r, n, -1, 1, &dx);
    const double *x = (const double *)tk_data(hx);
    double ref = 0, scale = 0;
    for (int64_t i = 0; i < n; ++i) {
        ref += x[i];
        scale += fabs(x[i]);
    }
    /* Three elements, poisoned: only element 0 may change. */
    px_view *hres = tk_view1("res", px_host(), PX_F64, 3);
    double *hr = (double *)tk_data(hres);
    hr[0] = hr[1] = hr[2] = -7.25;
    px_view *res = tk_on_space(hres, "res_dev");

    red_args_double a;
    TK_OK(px_view_span_f64(dx, &a.x));
    TK_OK(px_parallel_reduce_view(tk_inst(), "rv", px_range(0, n), PX_KERNEL(red_sum_double), &a,
                                  res));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *back = tk_to_host(res);
    const double *g = (const double *)tk_data(back);
    TK_ASSERT(close_rel(g[0], ref, 1e-12, scale), "got %.17g want %.17g", g[0], ref);
    ck_assert(g[1] == -7.25 && g[2] == -7.25);

    /* On CUDA, pinned host memory is a valid result too. */
    if (tk_is_cuda()) {
        px_view *pin = tk_view1("pinned_res", px_host_pinned(), PX_F64, 1);
        TK_OK(px_parallel_reduce_view(tk_inst(), NULL, px_range(0, n), PX_KERNEL(red_sum_double),
                                      &a, pin));
        TK_OK(px_instance_fence(tk_inst()));
        double pg = *(const double *)tk_data(pin);
        TK_ASSERT(close_rel(pg, ref, 1e-12, scale), "pinned: got %.17g want %.17g", pg, ref);
        px_view_release(&pin);
    }

    /* A struct value into a USER view of its size. */
    px_view_desc ud = tk_desc("stats", tk_space(), PX_USER, 1, (int64_t[]){1});
    ud.elem_size = sizeof(tk_stats);
    px_view *us = NULL;
    TK_OK(px_view_create(&us, &ud));
    TK_OK(px_parallel_reduce_view(tk_inst(), NULL, px_range(0, n), PX_KERNEL(red_stats), &a, us));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *ush = tk_to_host(us);
    const tk_stats *st = (const tk_stats *)tk_data(ush);
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += x[i] > 0;
    ck_assert_int_eq(st->count, count);

    TK_RELEASE(ush, us, back, res, hres, hx, dx);
}
END_TEST

void parallel_reduce_cases(void)
{
    TCase *tc = tk_case("reduce", "reduce");
    tcase_add_loop_test(tc, reduce_builtin, 0, NREDTYPES * NOPS * NSIZES);
    tcase_add_loop_test(tc, reduce_minloc_maxloc, 0, 4);
    tcase_add_loop_test(tc, reduce_custom_struct, 0, NSIZES);
    tcase_add_loop_test(tc, reduce_custom_complex, 0, NSIZES);
    tcase_add_loop_test(tc, reduce_view_basic, 0, NSIZES);
    TK_ADD(tc, reduce_subrange, reduce_large, reduce_minloc_identity, reduce_2d, reduce_3d,
           reduce_tiles_near_int64_max);
}
