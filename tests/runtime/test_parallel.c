/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_parallel_for / _reduce / _reduce_view / _scan on the backend under test.
 * Suites: "for", "reduce", "scan", "dispatch" (errors of every dispatch function). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kernels.h"

static const int64_t sizes[] = {0, 1, 2, 1009, 65537};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* ---- helpers ---------------------------------------------------------------------------- */

/* A random f64 vector of n in HOST (x) and a copy in tk_space() (*dev). */
static px_view *rand_f64(tk_rng *r, int64_t n, double lo, double hi, px_view **dev)
{
    px_view *h = tk_view1("rand_f64", px_host(), PX_F64, n);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = tk_uniform(r, lo, hi);
    *dev = tk_on_space(h, "rand_f64_dev");
    return h;
}

/* As rand_f64 with integer values in [lo, hi]: arithmetic on them is exact (FMA or not). */
static px_view *rand_int_f64(tk_rng *r, int64_t n, int64_t lo, int64_t hi, px_view **dev)
{
    px_view *h = tk_view1("rand_int_f64", px_host(), PX_F64, n);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)tk_int(r, lo, hi);
    *dev = tk_on_space(h, "rand_int_f64_dev");
    return h;
}

static px_view *zeros(px_dtype dt, int rank, const int64_t *ext)
{
    return tk_view("zeros", tk_space(), dt, rank, ext);
}

static bool close_rel(double got, double want, double tol, double scale)
{
    return fabs(got - want) <= tol * (scale > 1.0 ? scale : 1.0);
}

/* ---- parallel_for ---------------------------------------------------------------------- */

START_TEST(for_axpy_1d)
{
    int64_t n = sizes[_i];
    tk_rng r = tk_rng_seed(11 + (uint64_t)n);
    px_view *dx, *dy;
    px_view *hx = rand_int_f64(&r, n, -1000, 1000, &dx);
    px_view *hy = rand_int_f64(&r, n, -1000, 1000, &dy);

    axpy_args a;
    a.a = 2.5;
    TK_OK(px_view_span_f64(dx, &a.x));
    TK_OK(px_view_span_f64(dy, &a.y));
    TK_OK(px_parallel_for(tk_inst(), "axpy", px_range(0, n), PX_KERNEL(axpy), &a));
    /* The arguments were copied: changing them now must not change the queued work. */
    a.a = -1000.0;
    a.x.data = NULL;
    TK_OK(px_instance_fence(tk_inst()));

    px_view *res = tk_to_host(dy);
    const double *x = (const double *)tk_data(hx), *y0 = (const double *)tk_data(hy);
    const double *y = (const double *)tk_data(res);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(y[i] == y0[i] + 2.5 * x[i], "y[%lld] = %g, want %g", (long long)i, y[i],
                  y0[i] + 2.5 * x[i]);
    px_view_release(&res);
    px_view_release(&hx);
    px_view_release(&hy);
    px_view_release(&dx);
    px_view_release(&dy);
}
END_TEST

/* Only [b, e) is visited, each index once; on serial, in order. */
START_TEST(for_visit_1d_subrange)
{
    const int64_t n = 1009, b = 17, e = 1000;
    px_view *hits = zeros(PX_I32, 1, &n);
    visit_args a;
    memset(&a, 0, sizeof a);
    TK_OK(px_view_span_i32(hits, &a.hits));
    px_view *order = NULL, *counter = NULL;
    if (tk_in_order()) {
        int64_t one = 1;
        order = zeros(PX_I64, 1, &n);
        counter = zeros(PX_I64, 1, &one);
        TK_OK(px_view_span_i64(order, &a.order));
        TK_OK(px_view_span_i64(counter, &a.counter));
    }
    TK_OK(px_parallel_for(tk_inst(), NULL, px_range(b, e), PX_KERNEL(visit1), &a));
    /* Empty ranges run nothing. */
    TK_OK(px_parallel_for(tk_inst(), NULL, px_range(5, 5), PX_KERNEL(visit1), &a));
    TK_OK(px_parallel_for(tk_inst(), NULL, px_range(0, 0), PX_KERNEL(visit1), &a));
    TK_OK(px_instance_fence(tk_inst()));

    px_view *h = tk_to_host(hits);
    const int32_t *c = (const int32_t *)tk_data(h);
    for (int64_t i = 0; i < n; ++i)
        TK_ASSERT(c[i] == (i >= b && i < e), "hits[%lld] = %d", (long long)i, c[i]);
    if (order) {
        const int64_t *o = (const int64_t *)tk_data(order);
        for (int64_t i = b; i < e; ++i)
            TK_ASSERT(o[i] == i - b, "order[%lld] = %lld", (long long)i, (long long)o[i]);
        ck_assert_int_eq(((const int64_t *)tk_data(counter))[0], e - b);
        px_view_release(&order);
        px_view_release(&counter);
    }
    px_view_release(&h);
    px_view_release(&hits);
}
END_TEST

/* 2-D: tiles and both iterate orders; loop index _i picks the variant. */
static const int64_t tiles2[][2] = {{0, 0}, {4, 5}, {1, 1}, {7, 3}, {1000, 1000}, {1, 64}};
#define NTILES2 ((int)(sizeof tiles2 / sizeof tiles2[0]))

START_TEST(for_visit_2d)
{
    const int64_t ext[2] = {37, 53};
    const int64_t b0 = 3, e0 = 34, b1 = 0, e1 = 50;
    px_iterate it = (_i % 2) ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
    const int64_t *t = tiles2[_i / 2];

    px_view *hits = zeros(PX_I32, 2, ext);
    visit_args a;
    memset(&a, 0, sizeof a);
    TK_OK(px_view_span_i32(hits, &a.hits));
    px_view *order = NULL, *counter = NULL;
    bool check_order = tk_in_order() && t[0] == 0 && t[1] == 0;
    if (check_order) {
        int64_t one = 1;
        order = zeros(PX_I64, 2, ext);
        counter = zeros(PX_I64, 1, &one);
        TK_OK(px_view_span_i64(order, &a.order));
        TK_OK(px_view_span_i64(counter, &a.counter));
    }
    px_policy p = px_policy_iterate(px_policy_tile(px_mdrange2(b0, e0, b1, e1), t[0], t[1], 0), it);
    TK_OK(px_parallel_for(tk_inst(), "visit2", p, PX_KERNEL(visit2), &a));
    TK_OK(px_instance_fence(tk_inst()));

    px_view *h = tk_to_host(hits);
    const int32_t *c = (const int32_t *)tk_data(h);
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j) {
            int want = i >= b0 && i < e0 && j >= b1 && j < e1;
            TK_ASSERT(c[i * ext[1] + j] == want, "tile %lld,%lld %s: hits(%lld,%lld) = %d",
                      (long long)t[0], (long long)t[1], it ? "LEFT" : "RIGHT", (long long)i,
                      (long long)j, c[i * ext[1] + j]);
        }
    if (check_order) {
        const int64_t *o = (const int64_t *)tk_data(order);
        for (int64_t i = b0; i < e0; ++i)
            for (int64_t j = b1; j < e1; ++j) {
                int64_t want = it == PX_ITERATE_RIGHT ? (i - b0) * (e1 - b1) + (j - b1)
                                                      : (j - b1) * (e0 - b0) + (i - b0);
                TK_ASSERT(o[i * ext[1] + j] == want, "order(%lld,%lld) = %lld, want %lld",
                          (long long)i, (long long)j, (long long)o[i * ext[1] + j],
                          (long long)want);
            }
        px_view_release(&order);
        px_view_release(&counter);
    }
    px_view_release(&h);
    px_view_release(&hits);
}
END_TEST

static const int64_t tiles3[][3] = {{0, 0, 0}, {2, 3, 4}, {1, 1, 1}, {100, 100, 100}, {3, 1, 8}};
#define NTILES3 ((int)(sizeof tiles3 / sizeof tiles3[0]))

START_TEST(for_visit_3d)
{
    const int64_t ext[3] = {5, 7, 11};
    const int64_t b[3] = {1, 0, 2}, e[3] = {5, 7, 9};
    px_iterate it = (_i % 2) ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
    const int64_t *t = tiles3[_i / 2];

    px_view *hits = zeros(PX_I32, 3, ext);
    visit_args a;
    memset(&a, 0, sizeof a);
    TK_OK(px_view_span_i32(hits, &a.hits));
    px_view *order = NULL, *counter = NULL;
    bool check_order = tk_in_order() && t[0] == 0;
    if (check_order) {
        int64_t one = 1;
        order = zeros(PX_I64, 3, ext);
        counter = zeros(PX_I64, 1, &one);
        TK_OK(px_view_span_i64(order, &a.order));
        TK_OK(px_view_span_i64(counter, &a.counter));
    }
    px_policy p = px_policy_iterate(
        px_policy_tile(px_mdrange3(b[0], e[0], b[1], e[1], b[2], e[2]), t[0], t[1], t[2]), it);
    TK_OK(px_parallel_for(tk_inst(), "visit3", p, PX_KERNEL(visit3), &a));
    TK_OK(px_instance_fence(tk_inst()));

    px_view *h = tk_to_host(hits);
    const int32_t *c = (const int32_t *)tk_data(h);
    int64_t n0 = e[0] - b[0], n1 = e[1] - b[1], n2 = e[2] - b[2];
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j)
            for (int64_t k = 0; k < ext[2]; ++k) {
                int in = i >= b[0] && i < e[0] && j >= b[1] && j < e[1] && k >= b[2] && k < e[2];
                int64_t at = (i * ext[1] + j) * ext[2] + k;
                TK_ASSERT(c[at] == in, "hits(%lld,%lld,%lld) = %d", (long long)i, (long long)j,
                          (long long)k, c[at]);
                if (check_order && in) {
                    int64_t o = ((const int64_t *)tk_data(order))[at];
                    int64_t want = it == PX_ITERATE_RIGHT
                                       ? ((i - b[0]) * n1 + (j - b[1])) * n2 + (k - b[2])
                                       : ((k - b[2]) * n1 + (j - b[1])) * n0 + (i - b[0]);
                    TK_ASSERT(o == want, "order %lld, want %lld", (long long)o, (long long)want);
                }
            }
    if (check_order) {
        ck_assert_int_eq(((const int64_t *)tk_data(counter))[0], n0 * n1 * n2);
        px_view_release(&order);
        px_view_release(&counter);
    }
    px_view_release(&h);
    px_view_release(&hits);
}
END_TEST

/* A 2-D kernel writing through the strides of LAYOUT_LEFT and LAYOUT_RIGHT views. */
START_TEST(for_layouts_2d)
{
    const int64_t ext[2] = {13, 29};
    px_view_desc d = tk_desc("idx", tk_space(), PX_F64, 2, ext);
    d.layout = _i ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    ij_args a;
    TK_OK(px_view_span_f64(v, &a.out));
    px_policy p = px_mdrange2(0, ext[0], 0, ext[1]);
    if (_i) p = px_policy_iterate(p, PX_ITERATE_LEFT);
    TK_OK(px_parallel_for(tk_inst(), NULL, p, PX_KERNEL(index2), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(v);
    px_view_info hi = tk_info(h);
    ck_assert_int_eq(hi.layout, d.layout);
    const double *x = (const double *)hi.data;
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j) {
            double want = 1000.0 * (double)i + (double)j;
            double got = _i ? x[i + j * ext[0]] : x[i * ext[1] + j];
            TK_ASSERT(got == want, "(%lld,%lld) = %g", (long long)i, (long long)j, got);
        }
    px_view_release(&h);
    px_view_release(&v);
}
END_TEST

/* A large 2-D index space of prime extents (many blocks on a GPU). */
START_TEST(for_large_2d)
{
    const int64_t ext[2] = {tk_is_cuda() ? 1031 : 257, tk_is_cuda() ? 1021 : 263};
    px_view *v = tk_view("big2", tk_space(), PX_F64, 2, ext);
    ij_args a;
    TK_OK(px_view_span_f64(v, &a.out));
    TK_OK(
        px_parallel_for(tk_inst(), NULL, px_mdrange2(0, ext[0], 0, ext[1]), PX_KERNEL(index2), &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(v);
    const double *x = (const double *)tk_data(h);
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j)
            TK_ASSERT(x[i * ext[1] + j] == 1000.0 * (double)i + (double)j, "(%lld,%lld) = %g",
                      (long long)i, (long long)j, x[i * ext[1] + j]);
    px_view_release(&h);
    px_view_release(&v);
}
END_TEST

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
    px_view_release(&hx);
    px_view_release(&dx);
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
    px_view_release(&d);
    px_view_release(&h);
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
    px_view_release(&hx);
    px_view_release(&dx);
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
    px_view_release(&hre);
    px_view_release(&him);
    px_view_release(&dre);
    px_view_release(&dim);
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
    px_view_release(&h);
    px_view_release(&d);
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
    px_view_release(&h);
    px_view_release(&d);
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

    px_view_release(&ush);
    px_view_release(&us);
    px_view_release(&back);
    px_view_release(&res);
    px_view_release(&hres);
    px_view_release(&hx);
    px_view_release(&dx);
}
END_TEST

/* ---- scan ------------------------------------------------------------------------------------- */

/* _i = size index * 4 + variant (bit 0: inclusive, bit 1: with total) */
START_TEST(scan_i64)
{
    int64_t n = sizes[_i / 4];
    bool incl = _i & 1, with_total = (_i & 2) != 0;
    tk_rng r = tk_rng_seed(505 + (uint64_t)_i);
    px_view *hin = tk_view1("in", px_host(), PX_I64, n);
    int64_t *in = (int64_t *)tk_data(hin);
    for (int64_t i = 0; i < n; ++i) in[i] = tk_int(&r, -1000000, 1000000);
    px_view *hout = tk_view1("out", px_host(), PX_I64, n);
    int64_t *out0 = (int64_t *)tk_data(hout);
    for (int64_t i = 0; i < n; ++i) out0[i] = -12345;
    px_view *din = tk_on_space(hin, "in"), *dout = tk_on_space(hout, "out");

    scan_i64_args a;
    TK_OK(px_view_span_i64(din, &a.in));
    TK_OK(px_view_span_i64(dout, &a.out));
    int64_t total = -99;
    const px_kernel *k = incl ? PX_KERNEL(scan_incl_i64) : PX_KERNEL(scan_excl_i64);
    TK_OK(px_parallel_scan(tk_inst(), "scan", px_range(0, n), k, &a, with_total ? &total : NULL));
    if (!with_total) TK_OK(px_instance_fence(tk_inst()));

    px_view *back = tk_to_host(dout);
    const int64_t *out = (const int64_t *)tk_data(back);
    int64_t run = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (incl) run += in[i];
        TK_ASSERT(out[i] == run, "%s n=%lld: out[%lld] = %lld, want %lld", incl ? "incl" : "excl",
                  (long long)n, (long long)i, (long long)out[i], (long long)run);
        if (!incl) run += in[i];
    }
    if (with_total)
        ck_assert_int_eq(total, run);
    else
        ck_assert_int_eq(total, -99);
    px_view_release(&back);
    px_view_release(&din);
    px_view_release(&dout);
    px_view_release(&hin);
    px_view_release(&hout);
}
END_TEST

START_TEST(scan_large)
{
    const int64_t n = tk_is_cuda() ? 4000037 : 100003;
    tk_rng r = tk_rng_seed(5151);
    px_view *hin = tk_view1("in", px_host(), PX_I64, n);
    int64_t *in = (int64_t *)tk_data(hin);
    for (int64_t i = 0; i < n; ++i) in[i] = tk_int(&r, -1000, 1000);
    px_view *din = tk_on_space(hin, "in");
    px_view *dout = tk_view1("out", tk_space(), PX_I64, n);
    scan_i64_args a;
    TK_OK(px_view_span_i64(din, &a.in));
    TK_OK(px_view_span_i64(dout, &a.out));
    int64_t total = 0;
    TK_OK(px_parallel_scan(tk_inst(), NULL, px_range(0, n), PX_KERNEL(scan_excl_i64), &a, &total));
    px_view *back = tk_to_host(dout);
    const int64_t *out = (const int64_t *)tk_data(back);
    int64_t run = 0;
    for (int64_t i = 0; i < n; ++i) {
        TK_ASSERT(out[i] == run, "out[%lld] = %lld, want %lld", (long long)i, (long long)out[i],
                  (long long)run);
        run += in[i];
    }
    ck_assert_int_eq(total, run);
    px_view_release(&back);
    px_view_release(&din);
    px_view_release(&dout);
    px_view_release(&hin);
}
END_TEST

/* A scan over [b, e): only those elements are written, sums start at b. */
START_TEST(scan_subrange_and_max)
{
    const int64_t n = 1009, b = 10, e = 1000;
    tk_rng r = tk_rng_seed(606);
    px_view *hin = tk_view1("in", px_host(), PX_I32, n);
    int32_t *in = (int32_t *)tk_data(hin);
    for (int64_t i = 0; i < n; ++i) in[i] = (int32_t)tk_int(&r, -100000, 100000);
    px_view *hout = tk_view1("out", px_host(), PX_I32, n);
    int32_t *o0 = (int32_t *)tk_data(hout);
    for (int64_t i = 0; i < n; ++i) o0[i] = 77;
    px_view *din = tk_on_space(hin, "in"), *dout = tk_on_space(hout, "out");
    scan_i32_args a;
    TK_OK(px_view_span_i32(din, &a.in));
    TK_OK(px_view_span_i32(dout, &a.out));
    int32_t total = 0;
    TK_OK(px_parallel_scan(tk_inst(), NULL, px_range(b, e), PX_KERNEL(scan_max_i32), &a, &total));
    px_view *back = tk_to_host(dout);
    const int32_t *out = (const int32_t *)tk_data(back);
    int32_t run = INT32_MIN;
    for (int64_t i = 0; i < n; ++i) {
        if (i < b || i >= e) {
            TK_ASSERT(out[i] == 77, "out[%lld] = %d written outside the range", (long long)i,
                      out[i]);
            continue;
        }
        if (in[i] > run) run = in[i];
        TK_ASSERT(out[i] == run, "out[%lld] = %d, want %d", (long long)i, out[i], run);
    }
    ck_assert_int_eq(total, run);
    /* Empty: the identity of max. */
    TK_OK(px_parallel_scan(tk_inst(), NULL, px_range(4, 4), PX_KERNEL(scan_max_i32), &a, &total));
    ck_assert_int_eq(total, INT32_MIN);
    px_view_release(&back);
    px_view_release(&din);
    px_view_release(&dout);
    px_view_release(&hin);
    px_view_release(&hout);
}
END_TEST

START_TEST(scan_f64)
{
    int64_t n = sizes[_i];
    tk_rng r = tk_rng_seed(707 + (uint64_t)n);
    px_view *din, *dout;
    px_view *hin = rand_f64(&r, n, -1, 1, &din);
    px_view *hout = rand_f64(&r, n, -1, 1, &dout);
    const double *in = (const double *)tk_data(hin);
    scan_f64_args a;
    TK_OK(px_view_span_f64(din, &a.in));
    TK_OK(px_view_span_f64(dout, &a.out));
    double total = 0;
    TK_OK(px_parallel_scan(tk_inst(), NULL, px_range(0, n), PX_KERNEL(scan_incl_f64), &a, &total));
    px_view *back = tk_to_host(dout);
    const double *out = (const double *)tk_data(back);
    double run = 0, scale = 0;
    for (int64_t i = 0; i < n; ++i) {
        run += in[i];
        scale += fabs(in[i]);
        TK_ASSERT(close_rel(out[i], run, 1e-12, scale), "out[%lld] = %.17g want %.17g",
                  (long long)i, out[i], run);
    }
    TK_ASSERT(close_rel(total, run, 1e-12, scale), "total %.17g want %.17g", total, run);
    px_view_release(&back);
    px_view_release(&din);
    px_view_release(&dout);
    px_view_release(&hin);
    px_view_release(&hout);
}
END_TEST

/* ---- dispatch errors -------------------------------------------------------------------------- */

typedef struct dispatch_fixture {
    px_view *x, *y;
    axpy_args a;
    red_args_double ra;
} dispatch_fixture;

static void df_make(dispatch_fixture *f)
{
    int64_t n = 10;
    f->x = zeros(PX_F64, 1, &n);
    f->y = zeros(PX_F64, 1, &n);
    f->a.a = 1;
    TK_OK(px_view_span_f64(f->x, &f->a.x));
    TK_OK(px_view_span_f64(f->y, &f->a.y));
    f->ra.x = f->a.x;
}

static void df_free(dispatch_fixture *f)
{
    px_view_release(&f->x);
    px_view_release(&f->y);
}

START_TEST(dispatch_wrong_kind_or_rank)
{
    dispatch_fixture f;
    df_make(&f);
    px_instance *in = tk_inst();
    double v = 0;
    int64_t t = 0;
    /* A reduce kernel given to px_parallel_for and so on. */
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), PX_KERNEL(scan_incl_f64), &f.ra),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), PX_KERNEL(axpy), &f.a, &v),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), PX_KERNEL(scan_incl_i64), &f.a, &t),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(px_parallel_scan(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, &v),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    TK_FAIL(px_parallel_scan(in, NULL, px_range(0, 10), PX_KERNEL(axpy), &f.a, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    TK_FAIL(px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(axpy), &f.a, f.x),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    /* The policy's rank must be the kernel's. */
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), PX_KERNEL(visit2), &f.a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_for(in, NULL, px_mdrange2(0, 2, 0, 5), PX_KERNEL(axpy), &f.a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_for(in, NULL, px_mdrange2(0, 2, 0, 5), PX_KERNEL(visit3), &f.a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), PX_KERNEL(red2_sum), &f.ra, &v),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(
        px_parallel_reduce(in, NULL, px_mdrange3(0, 1, 0, 1, 0, 1), PX_KERNEL(red2_sum), &f.ra, &v),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(
        px_parallel_scan(in, NULL, px_mdrange2(0, 2, 0, 5), PX_KERNEL(scan_incl_f64), &f.ra, &v),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    /* Policies that are no policy: rank 0 or 4, negative tiles. */
    px_policy p = px_range(0, 10);
    p.rank = 0;
    TK_FAIL(px_parallel_for(in, NULL, p, PX_KERNEL(axpy), &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    p.rank = 4;
    TK_FAIL(px_parallel_for(in, NULL, p, PX_KERNEL(axpy), &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    p = px_policy_iterate(px_mdrange2(0, 2, 0, 5), (px_iterate)5);
    TK_FAIL(px_parallel_for(in, NULL, p, PX_KERNEL(visit2), &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    p = px_policy_tile(px_mdrange2(0, 2, 0, 5), -1, 2, 0);
    TK_FAIL(px_parallel_for(in, NULL, p, PX_KERNEL(visit2), &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    /* Nothing ran: x and y are still zero. */
    px_view *hy = tk_to_host(f.y);
    for (int i = 0; i < 10; ++i) ck_assert(((double *)tk_data(hy))[i] == 0.0);
    px_view_release(&hy);
    df_free(&f);
}
END_TEST

START_TEST(dispatch_null_arguments)
{
    dispatch_fixture f;
    df_make(&f);
    px_instance *in = tk_inst();
    double v = 0;
    TK_FAIL(px_parallel_for(NULL, NULL, px_range(0, 10), PX_KERNEL(axpy), &f.a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), NULL, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), PX_KERNEL(axpy), NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_FAIL(px_parallel_reduce(NULL, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, &v),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), NULL, &f.ra, &v), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_reduce");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), NULL, &v),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(px_parallel_reduce(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce");
    TK_FAIL(
        px_parallel_reduce_view(NULL, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, f.x),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    TK_FAIL(px_parallel_reduce_view(in, NULL, px_range(0, 10), NULL, &f.ra, f.x),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    TK_FAIL(
        px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, NULL),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    TK_FAIL(px_parallel_scan(NULL, NULL, px_range(0, 10), PX_KERNEL(scan_incl_f64), &f.ra, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    TK_FAIL(px_parallel_scan(in, NULL, px_range(0, 10), NULL, &f.ra, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_scan");
    TK_FAIL(px_parallel_scan(in, NULL, px_range(0, 10), PX_KERNEL(scan_incl_f64), NULL, NULL),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_scan");
    /* A descriptor that is not one. */
    px_kernel bad = px_kernel_axpy;
    bad.magic = 0;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    /* One of a kernel file compiled against an older header: told to recompile it. */
    bad.magic = 0x50584b31u;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    TK_ERROR_HAS("recompile");
    df_free(&f);
}
END_TEST

START_TEST(dispatch_reduce_view_bad_result)
{
    dispatch_fixture f;
    df_make(&f);
    px_instance *in = tk_inst();
    /* No element. */
    int64_t zero = 0;
    px_view *empty = zeros(PX_F64, 1, &zero);
    TK_FAIL(
        px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, empty),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    /* Elements of another size than the value's. */
    int64_t one = 1;
    px_view *small = zeros(PX_F32, 1, &one);
    TK_FAIL2(
        px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, small),
        PX_ERR_INVALID_ARGUMENT, PX_ERR_TYPE_MISMATCH, "px_parallel_reduce_view");
    /* Not contiguous: a column of a 3x4 view. */
    int64_t ext[2] = {3, 4};
    px_view *m = zeros(PX_F64, 2, ext);
    px_slice sl[2] = {px_slice_all(), px_slice_index(1)};
    px_view *col = NULL;
    TK_OK(px_view_subview(&col, m, sl, 2));
    ck_assert(!tk_info(col).contiguous);
    TK_FAIL(
        px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, col),
        PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
    /* On CUDA, pageable host memory is no place for an asynchronous result. */
    if (tk_is_cuda()) {
        px_view *h = tk_view1("h", px_host(), PX_F64, 1);
        TK_FAIL(
            px_parallel_reduce_view(in, NULL, px_range(0, 10), PX_KERNEL(red_sum_double), &f.ra, h),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_reduce_view");
        px_view_release(&h);
    }
    px_view_release(&col);
    px_view_release(&m);
    px_view_release(&small);
    px_view_release(&empty);
    df_free(&f);
}
END_TEST

/* A kernel without an entry for the backend under test returns PX_ERR_NOT_COMPILED and names
 * the kernel and the backend. */
START_TEST(dispatch_not_compiled)
{
    dispatch_fixture f;
    df_make(&f);
    px_instance *in = tk_inst();
    const char *be = px_exec_space_string(tk_exec());

    px_kernel k = px_kernel_axpy;
    if (tk_is_cuda())
        k.cuda = NULL;
    else
        k.host = NULL;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &k, &f.a), PX_ERR_NOT_COMPILED,
            "px_parallel_for");
    TK_ERROR_HAS("axpy");
    TK_ERROR_HAS(be);

    px_kernel kr = px_kernel_red_sum_double;
    if (tk_is_cuda())
        kr.cuda = NULL;
    else
        kr.host = NULL;
    double v = 0;
    TK_FAIL(px_parallel_reduce(in, "my_sum", px_range(0, 10), &kr, &f.ra, &v), PX_ERR_NOT_COMPILED,
            "px_parallel_reduce");
    TK_ERROR_HAS("red_sum_double");
    TK_ERROR_HAS(be);

    px_kernel ks = px_kernel_scan_incl_f64;
    if (tk_is_cuda())
        ks.cuda = NULL;
    else
        ks.host = NULL;
    scan_f64_args sa;
    sa.in = f.a.x;
    sa.out = f.a.y;
    TK_FAIL(px_parallel_scan(in, NULL, px_range(0, 10), &ks, &sa, NULL), PX_ERR_NOT_COMPILED,
            "px_parallel_scan");
    TK_ERROR_HAS("scan_incl_f64");

    /* A kernel file compiled as C only: runs on serial, has no CUDA entry. */
    host_only_args ha;
    ha.y = f.a.y;
    ha.v = 4.5;
    if (tk_is_cuda()) {
        ck_assert(PX_KERNEL(host_only_set)->cuda == NULL);
        TK_FAIL(px_parallel_for(in, "host_only", px_range(0, 10), PX_KERNEL(host_only_set), &ha),
                PX_ERR_NOT_COMPILED, "px_parallel_for");
        TK_ERROR_HAS("host_only_set");
        TK_ERROR_HAS("cuda");
    } else {
        TK_OK(px_parallel_for(in, "host_only", px_range(0, 10), PX_KERNEL(host_only_set), &ha));
        px_view *hy = tk_to_host(f.y);
        for (int i = 0; i < 10; ++i) ck_assert(((double *)tk_data(hy))[i] == 4.5);
        px_view_release(&hy);
    }
    df_free(&f);
}
END_TEST

/* ---- suites ------------------------------------------------------------------------------------ */

int main(void)
{
    TCase *tc = tk_case("for", "for");
    tcase_add_loop_test(tc, for_axpy_1d, 0, NSIZES);
    tcase_add_loop_test(tc, for_visit_2d, 0, 2 * NTILES2);
    tcase_add_loop_test(tc, for_visit_3d, 0, 2 * NTILES3);
    tcase_add_loop_test(tc, for_layouts_2d, 0, 2);
    TK_ADD(tc, for_visit_1d_subrange, for_large_2d);

    tc = tk_case("reduce", "reduce");
    tcase_add_loop_test(tc, reduce_builtin, 0, NREDTYPES * NOPS * NSIZES);
    tcase_add_loop_test(tc, reduce_minloc_maxloc, 0, 4);
    tcase_add_loop_test(tc, reduce_custom_struct, 0, NSIZES);
    tcase_add_loop_test(tc, reduce_custom_complex, 0, NSIZES);
    tcase_add_loop_test(tc, reduce_view_basic, 0, NSIZES);
    TK_ADD(tc, reduce_subrange, reduce_large, reduce_minloc_identity, reduce_2d, reduce_3d,
           reduce_tiles_near_int64_max);

    tc = tk_case("scan", "scan");
    tcase_add_loop_test(tc, scan_i64, 0, 4 * NSIZES);
    tcase_add_loop_test(tc, scan_f64, 0, NSIZES);
    TK_ADD(tc, scan_subrange_and_max, scan_large);

    TK_ADD(tk_case("dispatch", "dispatch"), dispatch_wrong_kind_or_rank, dispatch_null_arguments,
           dispatch_reduce_view_bad_result, dispatch_not_compiled);
    return tk_run();
}
