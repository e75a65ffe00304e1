/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_view, test case mirror_span_memory: mirrors (new, or the view itself in its own
 * space), typed spans and their checks, and memory statistics per space. */

#include <stdio.h>
#include <stdlib.h>

#include "test_view.h"

/* ---- mirrors ----------------------------------------------------------------------------------- */

START_TEST(mirror_always_new)
{
    const int64_t e[3] = {3, 4, 5};
    px_view_desc d = tk_desc("src", tk_space(), PX_F32, 3, e);
    d.layout = PX_LAYOUT_LEFT;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    px_view *m = NULL;
    TK_OK(px_view_create_mirror(&m, px_host(), v));
    ck_assert_ptr_ne(m, v);
    px_view_info vi = tk_info(v), mi = tk_info(m);
    ck_assert_ptr_ne(mi.data, vi.data);
    ck_assert_int_eq(mi.space.kind, PX_SPACE_HOST);
    ck_assert_int_eq(mi.rank, 3);
    for (int k = 0; k < 3; ++k) ck_assert_int_eq(mi.extent[k], e[k]);
    ck_assert_int_eq(mi.dtype, PX_F32);
    ck_assert_int_eq(mi.layout, PX_LAYOUT_LEFT);
    expect_strides(&mi, PX_LAYOUT_LEFT);
    ck_assert(mi.contiguous && mi.managed);
    ck_assert_int_eq(mi.use_count, 1);
    ck_assert_int_eq(vi.use_count, 1);
    px_view_release(&m);

    /* Mirror of a strided subview: contiguous, LAYOUT_RIGHT. */
    px_slice sl[3] = {px_slice_range(1, 3), px_slice_index(2), px_slice_range(0, 5)};
    px_view *sub = NULL;
    TK_OK(px_view_subview(&sub, v, sl, 3));
    TK_OK(px_view_create_mirror(&m, tk_space(), sub));
    mi = tk_info(m);
    ck_assert_int_eq(mi.rank, 2);
    ck_assert_int_eq(mi.extent[0], 2);
    ck_assert_int_eq(mi.extent[1], 5);
    ck_assert(mi.contiguous);
    ck_assert_int_eq(mi.layout, tk_info(sub).layout == PX_LAYOUT_STRIDE ? PX_LAYOUT_RIGHT
                                                                        : tk_info(sub).layout);
    ck_assert_ptr_ne(mi.data, tk_info(sub).data);
    px_view_release(&m);

    /* USER elements keep their size. */
    int64_t n = 9;
    px_view_desc ud = tk_desc("user", tk_space(), PX_USER, 1, &n);
    ud.elem_size = USER_SIZE;
    px_view *u = NULL;
    TK_OK(px_view_create(&u, &ud));
    TK_OK(px_view_create_mirror(&m, px_host(), u));
    ck_assert_uint_eq(tk_info(m).elem_size, USER_SIZE);
    ck_assert_int_eq(tk_info(m).dtype, PX_USER);
    TK_RELEASE(m, u, sub, v);
}
END_TEST

START_TEST(mirror_view_same_space_is_src)
{
    int64_t n = 17;
    px_view *v = tk_view("mv", tk_space(), PX_F64, 1, &n);
    px_view *m = NULL;
    TK_OK(px_view_create_mirror_view(&m, tk_space(), v));
    ck_assert_ptr_eq(m, v);
    ck_assert_int_eq(tk_info(v).use_count, 2);
    px_view_release(&m);
    ck_assert_int_eq(tk_info(v).use_count, 1);

    /* HOST mirror view: src on serial; a new HOST view on CUDA. */
    TK_OK(px_view_create_mirror_view(&m, px_host(), v));
    if (tk_is_cuda()) {
        ck_assert_ptr_ne(m, v);
        ck_assert_int_eq(tk_info(m).space.kind, PX_SPACE_HOST);
        ck_assert_int_eq(tk_info(v).use_count, 1);
    } else {
        ck_assert_ptr_eq(m, v);
    }
    ck_assert_int_eq(tk_info(m).extent[0], 17);
    px_view_release(&m);

    /* Another space: a new view when it is available, else its reason. */
    px_status avail = px_space_check(px_host_pinned());
    px_status st = px_view_create_mirror_view(&m, px_host_pinned(), v);
    if (avail == PX_OK) {
        ck_assert_int_eq(st, PX_OK);
        ck_assert_ptr_ne(m, v);
        ck_assert_int_eq(tk_info(m).space.kind, PX_SPACE_HOST_PINNED);
        px_view_release(&m);
    } else {
        TK_ASSERT(st == avail, "mirror_view in an unavailable space: %s, want %s",
                  px_status_name(st), px_status_name(avail));
        ck_assert_ptr_null(m);
    }
    px_view_release(&v);
}
END_TEST

START_TEST(mirror_bad_input)
{
    int64_t n = 4;
    px_view *v = tk_view("mb", tk_space(), PX_F64, 1, &n);
    px_view *m = NULL;
    px_space bad = {PX_SPACE_KIND_COUNT, 0};
    TK_FAIL(px_view_create_mirror(NULL, px_host(), v), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror");
    TK_FAIL(px_view_create_mirror(&m, px_host(), NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror");
    TK_FAIL(px_view_create_mirror(&m, bad, v), PX_ERR_INVALID_ARGUMENT, "px_view_create_mirror");
    TK_FAIL(px_view_create_mirror_view(NULL, px_host(), v), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror_view");
    TK_FAIL(px_view_create_mirror_view(&m, px_host(), NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror_view");
    TK_FAIL(px_view_create_mirror_view(&m, bad, v), PX_ERR_INVALID_ARGUMENT,
            "px_view_create_mirror_view");
    ck_assert_ptr_null(m);
    ck_assert_int_eq(tk_info(v).use_count, 1);
    px_view_release(&v);
}
END_TEST

/* ---- spans ------------------------------------------------------------------------------------- */

/* The typed span functions by index of `builtin`; every typed span has px_span's layout. */
static px_status typed_span(int t, const px_view *v, px_span *out)
{
    switch (t) {
    case 0: return px_view_span_u8(v, (px_span_u8 *)(void *)out);
    case 1: return px_view_span_i32(v, (px_span_i32 *)(void *)out);
    case 2: return px_view_span_i64(v, (px_span_i64 *)(void *)out);
    case 3: return px_view_span_u32(v, (px_span_u32 *)(void *)out);
    case 4: return px_view_span_u64(v, (px_span_u64 *)(void *)out);
    case 5: return px_view_span_f32(v, (px_span_f32 *)(void *)out);
    default: return px_view_span_f64(v, (px_span_f64 *)(void *)out);
    }
}
static const char *const typed_span_name[NBUILTIN] = {
    "px_view_span_u8",  "px_view_span_i32", "px_view_span_i64", "px_view_span_u32",
    "px_view_span_u64", "px_view_span_f32", "px_view_span_f64",
};

/* Every typed span on every dtype: the matching one fills the struct, the others refuse. */
START_TEST(spans_typed_and_checked)
{
    int di = _i;
    px_dtype dt = di < NBUILTIN ? builtin[di] : PX_USER;
    const int64_t e[3] = {3, 5, 2};
    px_view_desc d = tk_desc("span_label", tk_space(), dt, 3, e);
    d.elem_size = dt == PX_USER ? USER_SIZE : 0;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    px_view_info in = tk_info(v);

    px_span any;
    memset(&any, 0xab, sizeof any);
    TK_OK(px_view_span(v, &any));
    ck_assert_ptr_eq(any.data, in.data);
    ck_assert_int_eq(any.rank, 3);
    for (int k = 0; k < 3; ++k) {
        ck_assert_int_eq(any.extent[k], e[k]);
        ck_assert_int_eq(any.stride[k], in.stride[k]);
    }

    for (int t = 0; t < NBUILTIN; ++t) {
        px_span s; /* every typed span has the layout of px_span */
        memset(&s, 0, sizeof s);
        if (t == di) {
            TK_OK(typed_span(t, v, &s));
            ck_assert_ptr_eq(s.data, in.data);
            ck_assert_int_eq(s.rank, 3);
            for (int k = 0; k < 3; ++k) {
                ck_assert_int_eq(s.extent[k], e[k]);
                ck_assert_int_eq(s.stride[k], in.stride[k]);
            }
        } else {
            TK_FAIL(typed_span(t, v, &s), PX_ERR_TYPE_MISMATCH, typed_span_name[t]);
        }
        TK_FAIL(typed_span(t, v, NULL), PX_ERR_INVALID_ARGUMENT, typed_span_name[t]);
        TK_FAIL(typed_span(t, NULL, &s), PX_ERR_INVALID_ARGUMENT, typed_span_name[t]);
    }
    TK_FAIL(px_view_span(v, NULL), PX_ERR_INVALID_ARGUMENT, "px_view_span");
    TK_FAIL(px_view_span(NULL, &any), PX_ERR_INVALID_ARGUMENT, "px_view_span");
    px_view_release(&v);
}
END_TEST

/* Spans of a rank-0 view and a subview: rank and offsets carried over. */
START_TEST(spans_subview_and_rank0)
{
    px_view *g = grid(PX_LAYOUT_LEFT);
    px_slice sl[2] = {px_slice_range(1, 4), px_slice_index(5)};
    px_view *s = NULL;
    TK_OK(px_view_subview(&s, g, sl, 2));
    px_span_i32 sp;
    TK_OK(px_view_span_i32(s, &sp));
    ck_assert_int_eq(sp.rank, 1);
    ck_assert_int_eq(sp.extent[0], 3);
    ck_assert_int_eq(sp.stride[0], 1);
    for (int i = 0; i < 3; ++i) ck_assert_int_eq(PX_AT1(sp, i), 100 * (i + 1) + 5);

    px_slice pt[2] = {px_slice_index(0), px_slice_index(0)};
    px_view *p = NULL;
    TK_OK(px_view_subview(&p, g, pt, 2));
    TK_OK(px_view_span_i32(p, &sp));
    ck_assert_int_eq(sp.rank, 0);
    ck_assert_int_eq(sp.data[0], 0);
    TK_RELEASE(p, s, g);
}
END_TEST

/* ---- memory statistics ---------------------------------------------------------------------------- */

START_TEST(memory_stats)
{
    px_space sp = tk_space();
    px_memory_stats m0, m1, m2, m3;
    TK_OK(px_space_memory(sp, &m0));

    int64_t n1 = 1009, n2 = 65537;
    px_view *a = tk_view1("a", sp, PX_F64, n1);
    TK_OK(px_space_memory(sp, &m1));
    ck_assert_uint_eq(m1.bytes_in_use, m0.bytes_in_use + 8 * (size_t)n1);
    ck_assert_uint_eq(m1.allocations, m0.allocations + 1);
    ck_assert_uint_ge(m1.high_water, m1.bytes_in_use);

    px_view *b = tk_view1("b", sp, PX_U8, n2);
    TK_OK(px_space_memory(sp, &m2));
    ck_assert_uint_eq(m2.bytes_in_use, m1.bytes_in_use + (size_t)n2);
    ck_assert_uint_eq(m2.allocations, m1.allocations + 1);
    ck_assert_uint_ge(m2.high_water, m2.bytes_in_use);

    /* retain/subview/mirror_view in the same space allocate nothing */
    px_view *alias = NULL;
    TK_OK(px_view_create_mirror_view(&alias, sp, a));
    TK_OK(px_space_memory(sp, &m3));
    ck_assert_uint_eq(m3.bytes_in_use, m2.bytes_in_use);
    ck_assert_uint_eq(m3.allocations, m2.allocations);
    px_view_release(&alias);

    px_view_release(&b);
    TK_OK(px_space_memory(sp, &m3));
    ck_assert_uint_eq(m3.bytes_in_use, m1.bytes_in_use);
    ck_assert_uint_eq(m3.high_water, m2.high_water); /* high water stays */
    px_view_release(&a);
    TK_OK(px_space_memory(sp, &m3));
    ck_assert_uint_eq(m3.bytes_in_use, m0.bytes_in_use);
    ck_assert_uint_ge(m3.high_water, m0.bytes_in_use + 8 * (size_t)n1 + (size_t)n2);
    ck_assert_uint_eq(m3.allocations, m2.allocations);

    /* Views of another space do not count here. */
    if (tk_is_cuda()) {
        px_memory_stats h0, h1;
        TK_OK(px_space_memory(px_host(), &h0));
        px_view *d = tk_view1("dev", sp, PX_F64, 100);
        TK_OK(px_space_memory(px_host(), &h1));
        ck_assert_uint_eq(h1.bytes_in_use, h0.bytes_in_use);
        px_view_release(&d);
    }

    px_space bad = {PX_SPACE_KIND_COUNT, 0};
    TK_FAIL(px_space_memory(bad, &m0), PX_ERR_INVALID_ARGUMENT, "px_space_memory");
    TK_FAIL(px_space_memory(sp, NULL), PX_ERR_INVALID_ARGUMENT, "px_space_memory");
}
END_TEST

/* px_space_memory answers for the spaces px_space_check knows, and refuses the others
 * as it does: a host space has device 0 only. */
START_TEST(memory_stats_bad_space)
{
    static const px_space bad[] = {{PX_SPACE_HOST, 1},
                                   {PX_SPACE_HOST, 63},
                                   {PX_SPACE_HOST_PINNED, 2},
                                   {PX_SPACE_HOST, -1},
                                   {PX_SPACE_DEVICE, 64}};
    px_memory_stats ms;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        TK_FAIL(px_space_check(bad[k]), PX_ERR_INVALID_ARGUMENT, "px_space_check");
        ck_assert(!px_space_available(bad[k]));
        TK_FAIL(px_space_memory(bad[k], &ms), PX_ERR_INVALID_ARGUMENT, "px_space_memory");
    }
}
END_TEST

void view_mirror_cases(void)
{
    TCase *tc = tk_case("view", "mirror_span_memory");
    TK_ADD(tc, mirror_always_new, mirror_view_same_space_is_src, mirror_bad_input,
           spans_subview_and_rank0, memory_stats, memory_stats_bad_space);
    tcase_add_loop_test(tc, spans_typed_and_checked, 0, NDTYPES);
}
