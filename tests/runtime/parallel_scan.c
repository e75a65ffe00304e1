/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_parallel, suite scan: px_parallel_scan, inclusive and exclusive, with and without
 * the total, over part of a range and near the largest sizes. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_parallel.h"

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
    TK_RELEASE(back, din, dout, hin, hout);
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
    TK_RELEASE(back, din, dout, hin);
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
    TK_RELEASE(back, din, dout, hin, hout);
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
    TK_RELEASE(back, din, dout, hin, hout);
}
END_TEST

void parallel_scan_cases(void)
{
    TCase *tc = tk_case("scan", "scan");
    tcase_add_loop_test(tc, scan_i64, 0, 4 * NSIZES);
    tcase_add_loop_test(tc, scan_f64, 0, NSIZES);
    TK_ADD(tc, scan_subrange_and_max, scan_large);
}
