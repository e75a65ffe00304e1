/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* PX_BOUNDS_CHECK on the serial backend: a bad index in a kernel is recorded, element 0
 * is used instead, and the next dispatch or fence returns PX_ERR_INVALID_ARGUMENT naming
 * it. Built with -DPX_BOUNDS_CHECK; registered for the serial backend only. */
#include <stdio.h>

#include "common.h"
#include "k_bounds.h"

#ifndef PX_BOUNDS_CHECK
#error "test_bounds must be compiled with PX_BOUNDS_CHECK"
#endif

/* Dispatch, then fence: the violation is reported by one of the two. */
static px_status dispatch_and_fence(px_policy p, const px_kernel *k, const shift_args *a)
{
    px_clear_error();
    px_status st = px_parallel_for(tk_inst(), "shifted", p, k, a);
    if (st != PX_OK) return st;
    return px_instance_fence(tk_inst());
}

static bool names_reporter(void)
{
    return strstr(px_last_error(), "px_parallel_for") ||
           strstr(px_last_error(), "px_instance_fence");
}

START_TEST(bounds_1d)
{
    const int64_t n = 11;
    px_view *x = tk_view1("x", px_host(), PX_F64, n);
    px_view *y = tk_view1("y", px_host(), PX_F64, n);
    double *xd = (double *)tk_data(x), *yd = (double *)tk_data(y);
    tk_rng r = tk_rng_seed(1);
    for (int64_t i = 0; i < n; ++i) xd[i] = tk_uniform(&r, 1, 2);
    shift_args a;
    TK_OK(px_view_span_f64(x, &a.x));
    TK_OK(px_view_span_f64(y, &a.y));

    /* In range: fine. */
    a.shift = 0;
    TK_OK(dispatch_and_fence(px_range(0, n), PX_KERNEL(bounds_shift), &a));
    for (int64_t i = 0; i < n; ++i) ck_assert(yd[i] == xd[i]);

    /* One past the end, at i = n - 1. */
    a.shift = 1;
    px_status st = dispatch_and_fence(px_range(0, n), PX_KERNEL(bounds_shift), &a);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "%s: %s", px_status_name(st), px_last_error());
    TK_ASSERT(names_reporter(), "'%s' names neither px_parallel_for nor px_instance_fence",
              px_last_error());
    TK_ERROR_HAS("11"); /* the bad index (and the extent) */
    for (int64_t i = 0; i + 1 < n; ++i) ck_assert(yd[i] == xd[i + 1]);
    ck_assert(yd[n - 1] == xd[0]); /* element 0 instead */

    /* Reported once: the next fence is clean. */
    TK_OK(px_instance_fence(tk_inst()));
    a.shift = 0;
    TK_OK(dispatch_and_fence(px_range(0, n), PX_KERNEL(bounds_shift), &a));

    /* Negative. */
    a.shift = -3;
    st = dispatch_and_fence(px_range(0, n), PX_KERNEL(bounds_shift), &a);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "%s: %s", px_status_name(st), px_last_error());
    TK_ERROR_HAS("-"); /* a negative index (-3, -2 and -1 are all bad) */
    TK_OK(px_instance_fence(tk_inst()));

    TK_RELEASE(x, y);
}
END_TEST

START_TEST(bounds_2d_second_index)
{
    const int64_t ext[2] = {3, 7};
    px_view *x = tk_view("x", px_host(), PX_F64, 2, ext);
    px_view *y = tk_view("y", px_host(), PX_F64, 2, ext);
    shift_args a;
    TK_OK(px_view_span_f64(x, &a.x));
    TK_OK(px_view_span_f64(y, &a.y));
    a.shift = 5;
    px_status st = dispatch_and_fence(px_mdrange2(0, 3, 0, 7), PX_KERNEL(bounds_shift2), &a);
    TK_ASSERT(st == PX_ERR_INVALID_ARGUMENT, "%s: %s", px_status_name(st), px_last_error());
    ck_assert(names_reporter());
    TK_OK(px_instance_fence(tk_inst()));
    a.shift = 0;
    TK_OK(dispatch_and_fence(px_mdrange2(0, 3, 0, 7), PX_KERNEL(bounds_shift2), &a));
    TK_RELEASE(x, y);
}
END_TEST

int main(void)
{
    TK_ADD(tk_case("bounds", "bounds"), bounds_1d, bounds_2d_second_index);
    return tk_run();
}
