/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_parallel, suite for: px_parallel_for over 1-D to 6-D ranges, tiles, both iteration
 * orders and layouts; every index visited once. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_parallel.h"

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
    TK_RELEASE(res, hx, hy, dx, dy);
}
END_TEST

/* The views a visit kernel writes over `ext` (rank 1 to 3): hits, how often each index
   came; with `in_order`, also the order they came in and their counter. */
typedef struct visit_views {
    px_view *hits, *order, *counter;
    visit_args a;
} visit_views;

static visit_views visit_views_make(int rank, const int64_t *ext, bool in_order)
{
    visit_views v;
    memset(&v, 0, sizeof v);
    v.hits = zeros(PX_I32, rank, ext);
    TK_OK(px_view_span_i32(v.hits, &v.a.hits));
    if (in_order) {
        const int64_t one = 1;
        v.order = zeros(PX_I64, rank, ext);
        v.counter = zeros(PX_I64, 1, &one);
        TK_OK(px_view_span_i64(v.order, &v.a.order));
        TK_OK(px_view_span_i64(v.counter, &v.a.counter));
    }
    return v;
}

/* Only [b, e) is visited, each index once; on serial, in order. */
START_TEST(for_visit_1d_subrange)
{
    const int64_t n = 1009, b = 17, e = 1000;
    visit_views v = visit_views_make(1, &n, tk_in_order());
    px_view *hits = v.hits, *order = v.order, *counter = v.counter;
    visit_args a = v.a;
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
        TK_RELEASE(order, counter);
    }
    TK_RELEASE(h, hits);
}
END_TEST

/* 2-D: tiles and both iterate orders; loop index _i picks the variant. */
START_TEST(for_visit_2d)
{
    const int64_t ext[2] = {37, 53};
    const int64_t b0 = 3, e0 = 34, b1 = 0, e1 = 50;
    px_iterate it = (_i % 2) ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
    const int64_t *t = tiles2[_i / 2];

    const bool check_order = tk_in_order() && t[0] == 0 && t[1] == 0;
    visit_views v = visit_views_make(2, ext, check_order);
    px_view *hits = v.hits, *order = v.order, *counter = v.counter;
    visit_args a = v.a;
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
        TK_RELEASE(order, counter);
    }
    TK_RELEASE(h, hits);
}
END_TEST

START_TEST(for_visit_3d)
{
    const int64_t ext[3] = {5, 7, 11};
    const int64_t b[3] = {1, 0, 2}, e[3] = {5, 7, 9};
    px_iterate it = (_i % 2) ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
    const int64_t *t = tiles3[_i / 2];

    const bool check_order = tk_in_order() && t[0] == 0;
    visit_views v = visit_views_make(3, ext, check_order);
    px_view *hits = v.hits, *order = v.order, *counter = v.counter;
    visit_args a = v.a;
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
        TK_RELEASE(order, counter);
    }
    TK_RELEASE(h, hits);
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
    TK_RELEASE(h, v);
}
END_TEST

/* Ranks 4 to 6 (case _i: rank 4 + _i / 4, LEFT on odd cases, a tile on two dimensions in
   cases 2 and 3 of each rank): every index of a sub-box visited once, none outside, in
   iteration order on an in-order backend; and a reduction over the same box. */
START_TEST(for_visit_nd)
{
    const int rank = 4 + _i / 4;
    const px_iterate it = (_i % 2) ? PX_ITERATE_LEFT : PX_ITERATE_RIGHT;
    const bool tiled = _i % 4 >= 2;
    const int64_t ext[6] = {4, 3, 5, 2, 3, 4};
    const int64_t b[6] = {1, 0, 1, 0, 1, 0}, e[6] = {4, 3, 4, 2, 3, 3};
    const bool check_order = tk_in_order() && !tiled;
    visit_views v = visit_views_make(rank, ext, check_order);
    px_policy p = px_policy_iterate(px_mdrange(rank, b, e), it);
    if (tiled) p = px_policy_tile_dim(px_policy_tile_dim(p, 0, 2), rank - 1, 2);
    const px_kernel *k[3] = {PX_KERNEL(visit4), PX_KERNEL(visit5), PX_KERNEL(visit6)};
    const px_kernel *sum[3] = {PX_KERNEL(nd_sum4), PX_KERNEL(nd_sum5), PX_KERNEL(nd_sum6)};
    TK_OK(px_parallel_for(tk_inst(), "visit_nd", p, k[rank - 4], &v.a));
    int64_t got = 0;
    TK_OK(px_parallel_reduce(tk_inst(), "sum_nd", p, sum[rank - 4], &v.a, &got));
    TK_OK(px_instance_fence(tk_inst()));

    px_view *h = tk_to_host(v.hits);
    const int32_t *c = (const int32_t *)tk_data(h);
    const int64_t *o = check_order ? (const int64_t *)tk_data(v.order) : NULL;
    int64_t count = 1, total = 0, want_sum = 0;
    for (int d = 0; d < rank; ++d) count *= ext[d];
    for (int64_t at = 0; at < count; ++at) {
        int64_t x[6] = {0, 0, 0, 0, 0, 0}, rest = at; /* row-major position at */
        for (int d = rank - 1; d >= 0; --d) {
            x[d] = rest % ext[d];
            rest /= ext[d];
        }
        bool in = true;
        for (int d = 0; d < rank; ++d) in = in && x[d] >= b[d] && x[d] < e[d];
        TK_ASSERT(c[at] == (in ? 1 : 0), "rank %d: hits at %lld = %d", rank, (long long)at, c[at]);
        if (!in) continue;
        total += 1;
        want_sum += nd_term(x[0], x[1], x[2], x[3], x[4], x[5]);
        if (o) { /* the iteration's position of x: its last index fastest, or its first */
            int64_t want = 0;
            for (int j = 0; j < rank; ++j) {
                const int d = it == PX_ITERATE_RIGHT ? j : rank - 1 - j;
                want = want * (e[d] - b[d]) + (x[d] - b[d]);
            }
            TK_ASSERT(o[at] == want, "rank %d: order at %lld = %lld, want %lld", rank,
                      (long long)at, (long long)o[at], (long long)want);
        }
    }
    ck_assert_int_gt(total, 0);
    ck_assert_int_eq(got, want_sum);
    if (check_order) TK_RELEASE(v.order, v.counter);
    TK_RELEASE(h, v.hits);
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
    TK_RELEASE(h, v);
}
END_TEST

void parallel_for_cases(void)
{
    TCase *tc = tk_case("for", "for");
    tcase_add_loop_test(tc, for_axpy_1d, 0, NSIZES);
    tcase_add_loop_test(tc, for_visit_2d, 0, 2 * NTILES2);
    tcase_add_loop_test(tc, for_visit_3d, 0, 2 * NTILES3);
    tcase_add_loop_test(tc, for_layouts_2d, 0, 2);
    tcase_add_loop_test(tc, for_visit_nd, 0, 12);
    TK_ADD(tc, for_visit_1d_subrange, for_large_2d);
}
