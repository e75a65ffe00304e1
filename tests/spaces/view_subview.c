/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_view, test case subview: ranges and indices of every rank, subviews that outlive
 * their parent, offsets near the largest strides, and bad slices. */

#include <stdio.h>
#include <stdlib.h>

#include "test_view.h"

/* ---- subviews ---------------------------------------------------------------------------------- */

START_TEST(subview_ranges)
{
    px_layout lay = _i ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
    px_view *g = grid(lay);
    px_view_info gi = tk_info(g);
    px_slice sl[2] = {px_slice_range(1, 4), px_slice_range(2, PX_END)};
    px_view *s = NULL;
    TK_OK(px_view_subview(&s, g, sl, 2));
    px_view_info si = tk_info(s);
    ck_assert_int_eq(si.rank, 2);
    ck_assert_int_eq(si.extent[0], 3);
    ck_assert_int_eq(si.extent[1], 5);
    ck_assert_int_eq(si.stride[0], gi.stride[0]);
    ck_assert_int_eq(si.stride[1], gi.stride[1]);
    ck_assert_int_eq(si.size, 15);
    ck_assert_uint_eq(si.bytes, 15 * 4);
    ck_assert(!si.contiguous);
    ck_assert_str_eq(si.label, "grid(sub)");
    ck_assert_int_eq(si.dtype, PX_I32);
    ck_assert_ptr_eq(si.data, (char *)gi.data + 4 * (1 * gi.stride[0] + 2 * gi.stride[1]));
    px_span_i32 sp;
    TK_OK(px_view_span_i32(s, &sp));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j) ck_assert_int_eq(PX_AT2(sp, i, j), 100 * (i + 1) + (j + 2));
    /* Writes go to the parent's memory. */
    PX_AT2(sp, 2, 4) = -1;
    px_span_i32 gp;
    TK_OK(px_view_span_i32(g, &gp));
    ck_assert_int_eq(PX_AT2(gp, 3, 6), -1);

    /* All of it: same extents, same data. */
    px_slice all[2] = {px_slice_all(), px_slice_all()};
    px_view *s2 = NULL;
    TK_OK(px_view_subview(&s2, g, all, 2));
    ck_assert_ptr_eq(tk_info(s2).data, gi.data);
    ck_assert(tk_info(s2).contiguous);
    ck_assert_int_eq(tk_info(s2).extent[1], 7);

    /* An empty range is legal. */
    px_slice em[2] = {px_slice_range(3, 3), px_slice_all()};
    px_view *s3 = NULL;
    TK_OK(px_view_subview(&s3, g, em, 2));
    ck_assert_int_eq(tk_info(s3).extent[0], 0);
    ck_assert_int_eq(tk_info(s3).size, 0);

    TK_RELEASE(s, s2, s3, g);
}
END_TEST

/* The subview of g by {s0, s1}, rank 1: n elements `stride` apart (contiguous or not),
   first, first + step, first + 2 step, ... */
static void check_rank1(px_view *g, px_slice s0, px_slice s1, int64_t n, int64_t stride,
                        bool contiguous, int32_t first, int32_t step)
{
    const px_slice sl[2] = {s0, s1};
    px_view *v = NULL;
    TK_OK(px_view_subview(&v, g, sl, 2));
    const px_view_info vi = tk_info(v);
    ck_assert_int_eq(vi.rank, 1);
    ck_assert_int_eq(vi.extent[0], n);
    ck_assert_int_eq(vi.stride[0], stride);
    ck_assert(vi.contiguous == contiguous);
    px_span_i32 sp;
    TK_OK(px_view_span_i32(v, &sp));
    for (int i = 0; i < n; ++i) ck_assert_int_eq(PX_AT1(sp, i), first + step * i);
    TK_RELEASE(v);
}

START_TEST(subview_indices_drop_rank)
{
    px_view *g = grid(PX_LAYOUT_RIGHT);
    /* A row: rank 1, contiguous. */
    check_rank1(g, px_slice_index(2), px_slice_all(), 7, 1, true, 200, 1);
    /* A column: rank 1, stride 7, not contiguous. */
    check_rank1(g, px_slice_range(1, PX_END), px_slice_index(6), 4, 7, false, 106, 100);

    /* Both indices: rank 0, one element. */
    px_slice one[2] = {px_slice_index(4), px_slice_index(3)};
    px_view *e = NULL;
    TK_OK(px_view_subview(&e, g, one, 2));
    px_view_info ei = tk_info(e);
    ck_assert_int_eq(ei.rank, 0);
    ck_assert_int_eq(ei.size, 1);
    ck_assert_int_eq(*(int32_t *)ei.data, 403);

    /* A subview of a rank-0 view: no slices, the same element. */
    px_view *e2 = NULL;
    TK_OK(px_view_subview(&e2, e, NULL, 0));
    ck_assert_int_eq(tk_info(e2).rank, 0);
    ck_assert_ptr_eq(tk_info(e2).data, ei.data);

    TK_RELEASE(e2, e, g);
}
END_TEST

/* A subview of a subview keeps the memory alive after everything above it is released
 * (valgrind checks the reads). Works in the backend's space too. */
START_TEST(subview_nested_outlives_parent)
{
    const int64_t e[3] = {4, 6, 8};
    px_view *h = tk_view("cube", px_host(), PX_I64, 3, e);
    int64_t *x = (int64_t *)tk_data(h);
    for (int64_t i = 0; i < 4 * 6 * 8; ++i) x[i] = i * 7 + 1;
    px_view *v = tk_on_space(h, "cube");
    px_memory_stats ms0, ms1;
    TK_OK(px_space_memory(tk_space(), &ms0));

    px_slice s1[3] = {px_slice_range(1, 4), px_slice_all(), px_slice_range(2, 7)};
    px_view *a = NULL;
    TK_OK(px_view_subview(&a, v, s1, 3)); /* 3 x 6 x 5 */
    px_slice s2[3] = {px_slice_index(1), px_slice_range(1, 5), px_slice_range(1, 4)};
    px_view *b = NULL;
    TK_OK(px_view_subview(&b, a, s2, 3)); /* 4 x 3, at (2, 1.., 3..) of v */
    ck_assert_str_eq(tk_info(b).label, "cube(sub)(sub)");
    TK_OK(px_space_memory(tk_space(), &ms1));
    ck_assert_uint_eq(ms1.bytes_in_use, ms0.bytes_in_use); /* subviews allocate nothing */
    ck_assert_uint_eq(ms1.allocations, ms0.allocations);

    TK_OK(px_view_release(&v));
    TK_OK(px_view_release(&a));
    px_view_info bi = tk_info(b);
    ck_assert_int_eq(bi.rank, 2);
    ck_assert_int_eq(bi.extent[0], 4);
    ck_assert_int_eq(bi.extent[1], 3);
    TK_OK(px_space_memory(tk_space(), &ms1));
    ck_assert_uint_eq(ms1.bytes_in_use, ms0.bytes_in_use); /* still alive */

    px_view *bh = tk_to_host(b);
    px_span_i64 s;
    TK_OK(px_view_span_i64(bh, &s));
    for (int64_t j = 0; j < 4; ++j)
        for (int64_t k = 0; k < 3; ++k) {
            int64_t want = x[(2 * 6 + (1 + j)) * 8 + (2 + 1 + k)];
            ck_assert_int_eq(PX_AT2(s, j, k), want);
        }
    px_view_release(&bh);
    px_view_release(&b);
    TK_OK(px_space_memory(tk_space(), &ms1));
    ck_assert_uint_eq(ms1.bytes_in_use, ms0.bytes_in_use - 4 * 6 * 8 * 8);
    px_view_release(&h);
}
END_TEST

/* A view made, or refused with PX_ERR_OVERFLOW naming px_view_create (its strides reach
 * far beyond its elements); NULL when refused. */
static px_view *view_or_overflow(const px_view_desc *d)
{
    px_view *v = NULL;
    px_clear_error();
    const px_status st = px_view_create(&v, d);
    TK_ASSERT(st == PX_OK || (st == PX_ERR_OVERFLOW && tk_error_from("px_view_create")), "%s: '%s'",
              px_status_name(st), px_last_error());
    return v;
}

/* Subviews whose first element would lie past the memory: an empty range at the end of a
 * dimension of one element and a huge stride, and an index of a strided view without
 * elements. Portex may refuse such strides when the view is made; where it makes the view,
 * the subviews are valid and empty, and computed without overflow (signed overflow shows
 * in the sanitizer build). */
START_TEST(subview_huge_stride_offsets)
{
    const int64_t e[2] = {3, 1};
    px_view_desc d = tk_desc("huge_stride", px_host(), PX_F64, 2, e);
    d.layout = PX_LAYOUT_STRIDE;
    d.stride[0] = 1;
    d.stride[1] = INT64_MAX; /* never stepped over: one element in that dimension */
    px_view *v = view_or_overflow(&d), *s = NULL;
    if (v) {
        px_slice end_range[2] = {px_slice_range(1, 3), px_slice_range(1, 1)};
        TK_OK(px_view_subview(&s, v, end_range, 2));
        ck_assert_int_eq(tk_info(s).size, 0);
        TK_RELEASE(s, v);
    }

    const int64_t e0[2] = {0, (int64_t)1 << 62};
    d = tk_desc("empty_strided", px_host(), PX_F64, 2, e0);
    d.layout = PX_LAYOUT_STRIDE;
    d.stride[0] = 1;
    d.stride[1] = 4;
    v = view_or_overflow(&d);
    if (v) {
        px_slice last[2] = {px_slice_all(), px_slice_index(((int64_t)1 << 62) - 1)};
        TK_OK(px_view_subview(&s, v, last, 2));
        ck_assert_int_eq(tk_info(s).size, 0);
        TK_RELEASE(s, v);
    }
}
END_TEST

/* px_slice_index(i) is {i, i + 1, true}: for i = INT64_MAX that sum overflows (signed
 * overflow in the header's inline helper, shown by the sanitizer build). Such an index is
 * past any extent, so px_view_subview must refuse it. */
START_TEST(slice_index_int64_max)
{
    volatile int64_t big = INT64_MAX; /* a value known at run time, as in a program */
    const px_slice s = px_slice_index(big);
    ck_assert(s.index);
    ck_assert_int_eq(s.begin, INT64_MAX);
    px_view *v = tk_view1("v", px_host(), PX_I32, 4), *sub = NULL;
    TK_FAIL(px_view_subview(&sub, v, &s, 1), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    ck_assert_ptr_null(sub);
    TK_RELEASE(v);
}
END_TEST

START_TEST(subview_bad_input)
{
    px_view *g = grid(PX_LAYOUT_RIGHT);
    px_view *s = NULL;
    px_slice ok[2] = {px_slice_all(), px_slice_all()};
    TK_FAIL(px_view_subview(NULL, g, ok, 2), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    TK_FAIL(px_view_subview(&s, NULL, ok, 2), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    TK_FAIL(px_view_subview(&s, g, NULL, 2), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    TK_FAIL(px_view_subview(&s, g, ok, 1), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    px_slice three[3] = {px_slice_all(), px_slice_all(), px_slice_all()};
    TK_FAIL(px_view_subview(&s, g, three, 3), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
    TK_FAIL(px_view_subview(&s, g, ok, -1), PX_ERR_INVALID_ARGUMENT, "px_view_subview");

    px_slice bad[][2] = {
        {px_slice_range(-1, 3), px_slice_all()}, /* begin < 0 */
        {px_slice_range(0, 6), px_slice_all()},  /* end > extent */
        {px_slice_range(4, 2), px_slice_all()},  /* begin > end */
        {px_slice_all(), px_slice_index(7)},     /* index == extent */
        {px_slice_index(-1), px_slice_all()},    /* negative index */
        {px_slice_all(), px_slice_range(8, PX_END)},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        TK_FAIL(px_view_subview(&s, g, bad[i], 2), PX_ERR_INVALID_ARGUMENT, "px_view_subview");
        ck_assert_ptr_null(s);
    }
    ck_assert_int_eq(tk_info(g).use_count, 1);
    px_view_release(&g);
}
END_TEST

void view_subview_cases(void)
{
    TCase *tc = tk_case("view", "subview");
    tcase_add_loop_test(tc, subview_ranges, 0, 2);
    TK_ADD(tc, subview_indices_drop_rank, subview_nested_outlives_parent,
           subview_huge_stride_offsets, slice_index_int64_max, subview_bad_input);
}
