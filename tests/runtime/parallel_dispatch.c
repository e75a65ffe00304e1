/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_parallel, suite dispatch: what every dispatch function refuses (a kernel of the
 * wrong kind or rank, NULL arguments, a bad result view, a backend the kernel was not
 * compiled for), each naming the public call. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_parallel.h"

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
    /* Ranks past 6, and 4-D index spaces of more than INT64_MAX indices. */
    px_policy p7 = px_mdrange2(0, 1, 0, 1);
    p7.rank = 7;
    TK_FAIL(px_parallel_for(in, NULL, p7, PX_KERNEL(visit2), &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    TK_ERROR_HAS("policy.rank is 7");
    const int64_t big = (int64_t)1 << 20;
    TK_FAIL(px_parallel_for(in, NULL, px_mdrange4(0, big, 0, big, 0, big, 0, big),
                            PX_KERNEL(visit4), &f.a),
            PX_ERR_INVALID_ARGUMENT, "px_parallel_for");
    TK_ERROR_HAS("more than INT64_MAX");
    /* A descriptor that is not one. */
    px_kernel bad = px_kernel_axpy;
    bad.magic = 0;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    /* Of a kernel file compiled against an older header ("PXK1" to "PXK5"): told to
       recompile it. */
    for (uint32_t old = 0x50584b31u; old <= 0x50584b35u; ++old) {
        bad.magic = old;
        TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
                "px_parallel_for");
        TK_ERROR_HAS("recompile");
        TK_ERROR_HAS("axpy");
    }
    /* A damaged table of entries. */
    bad = px_kernel_axpy;
    bad.entry_count = -1;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    TK_ERROR_HAS("entries");
    bad.entry_count = 1;
    bad.entries = NULL;
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &bad, &f.a), PX_ERR_INVALID_ARGUMENT,
            "px_parallel_for");
    TK_ERROR_HAS("entries");
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

    /* Every kernel has an entry for the backend under test, found by its target. */
    ck_assert_int_eq(tk_entries_of(&px_kernel_axpy, tk_target(), PX__ENTRY_RANGE), 1);
    ck_assert_int_eq(tk_entries_of(&px_kernel_scan_incl_f64, tk_target(), PX__ENTRY_RANGE), 1);
    px__kernel_entry rows[TK_MAX_ENTRIES];
    px_kernel k = tk_without_entries(px_kernel_axpy, rows);
    TK_FAIL(px_parallel_for(in, NULL, px_range(0, 10), &k, &f.a), PX_ERR_NOT_COMPILED,
            "px_parallel_for");
    TK_ERROR_HAS("axpy");
    TK_ERROR_HAS(be);

    px_kernel kr = tk_without_entries(px_kernel_red_sum_double, rows);
    double v = 0;
    TK_FAIL(px_parallel_reduce(in, "my_sum", px_range(0, 10), &kr, &f.ra, &v), PX_ERR_NOT_COMPILED,
            "px_parallel_reduce");
    TK_ERROR_HAS("red_sum_double");
    TK_ERROR_HAS(be);

    px_kernel ks = tk_without_entries(px_kernel_scan_incl_f64, rows);
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
        ck_assert_int_eq(tk_entries_of(PX_KERNEL(host_only_set), PX__TARGET_CUDA, PX__ENTRY_RANGE),
                         0);
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

void parallel_dispatch_cases(void)
{
    TK_ADD(tk_case("dispatch", "dispatch"), dispatch_wrong_kind_or_rank, dispatch_null_arguments,
           dispatch_reduce_view_bad_result, dispatch_not_compiled);
}
