/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Span forms: the getter for every span type (px_view_get_span), its element type and
 * layout checks, the accessors of each form on the host and in kernels of the backend
 * under test, and the getter's C++ form (through the kernel file, C++ when CUDA is on).
 * Suite "spans". */
#include "common.h"
#include "k_spans.h"
#include "k_subspan.h"

/* ---- The getter ------------------------------------------------------------------------- */

/* One getter for every dtype and every form; the wrong element type is refused. */
#define SP_CHECK_TYPE(sfx, DT, WRONG)                                                \
    do {                                                                             \
        px_view *v = tk_view1(#sfx, px_host(), DT, 5);                               \
        px_view *w = tk_view1("wrong", px_host(), WRONG, 5);                         \
        px_span_##sfx s;                                                             \
        px_span_##sfx##_right r;                                                     \
        px_span_##sfx##_left l;                                                      \
        px_span_##sfx##_1d o;                                                        \
        px_span_##sfx##_restrict sr;                                                 \
        px_span_##sfx##_right_restrict rr;                                           \
        px_span_##sfx##_left_restrict lr;                                            \
        px_span_##sfx##_1d_restrict orr;                                             \
        TK_OK(px_view_get_span(v, &s));                                              \
        TK_OK(px_view_get_span(v, &r));                                              \
        TK_OK(px_view_get_span(v, &l));                                              \
        TK_OK(px_view_get_span(v, &o));                                              \
        TK_OK(px_view_get_span(v, &sr));                                             \
        TK_OK(px_view_get_span(v, &rr));                                             \
        TK_OK(px_view_get_span(v, &lr));                                             \
        TK_OK(px_view_get_span(v, &orr));                                            \
        ck_assert_ptr_eq(o.data, tk_data(v));                                        \
        ck_assert_ptr_eq(orr.data, tk_data(v));                                      \
        ck_assert_int_eq(o.extent[0], 5);                                            \
        TK_FAIL(px_view_get_span(w, &s), PX_ERR_TYPE_MISMATCH, "px_view_get_span");  \
        TK_FAIL(px_view_get_span(w, &rr), PX_ERR_TYPE_MISMATCH, "px_view_get_span"); \
        TK_FAIL(px_view_get_span(w, &o), PX_ERR_TYPE_MISMATCH, "px_view_get_span");  \
        ck_assert_ptr_null(o.data);                                                  \
        px_view_release(&v);                                                         \
        px_view_release(&w);                                                         \
    } while (0)

START_TEST(spans_every_type)
{
    SP_CHECK_TYPE(u8, PX_U8, PX_F64);
    SP_CHECK_TYPE(i32, PX_I32, PX_U32);
    SP_CHECK_TYPE(i64, PX_I64, PX_U64);
    SP_CHECK_TYPE(u32, PX_U32, PX_I32);
    SP_CHECK_TYPE(u64, PX_U64, PX_F64);
    SP_CHECK_TYPE(f32, PX_F32, PX_I32);
    SP_CHECK_TYPE(f64, PX_F64, PX_I64);
    /* The untyped span takes any element type. */
    px_view *v = tk_view1("any", px_host(), PX_I32, 3);
    px_span any;
    TK_OK(px_view_get_span(v, &any));
    ck_assert_ptr_eq(any.data, tk_data(v));
    px_view_release(&v);
}
END_TEST

/* The form 1-D spans have: smaller than the others, which keep px_span's size. */
START_TEST(spans_sizes)
{
    ck_assert_uint_lt(sizeof(px_span_f64_1d), sizeof(px_span_f64));
    ck_assert_uint_eq(sizeof(px_span_f64_1d_restrict), sizeof(px_span_f64_1d));
    ck_assert_uint_eq(sizeof(px_span_f64_right), sizeof(px_span_f64));
    ck_assert_uint_eq(sizeof(px_span_f64_left_restrict), sizeof(px_span_f64));
    ck_assert_uint_eq(sizeof(px_span_u8), sizeof(px_span));
}
END_TEST

static px_view *view2(px_layout layout, int64_t e0, int64_t e1)
{
    const int64_t ext[2] = {e0, e1};
    px_view_desc d = tk_desc("m", px_host(), PX_F64, 2, ext);
    d.layout = layout;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    return v;
}

static px_view *sub(px_view *v, px_slice a, px_slice b)
{
    const px_slice s[2] = {a, b};
    px_view *out = NULL;
    TK_OK(px_view_subview(&out, v, s, 2));
    return out;
}

/* Each layout is checked against the view's strides; the message names the dimension. */
START_TEST(spans_layout_checks)
{
    px_view *r = view2(PX_LAYOUT_RIGHT, 3, 4), *l = view2(PX_LAYOUT_LEFT, 3, 4);
    px_span_f64 s;
    px_span_f64_right sr;
    px_span_f64_left sl;
    px_span_f64_1d s1;

    TK_OK(px_view_get_span(r, &sr));
    ck_assert_int_eq(sr.stride[0], 4);
    ck_assert_int_eq(sr.stride[1], 1);
    ck_assert_int_eq(sr.rank, 2);
    TK_FAIL(px_view_get_span(r, &sl), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_ERROR_HAS("dimension 0");
    TK_ERROR_HAS("stride 4");
    ck_assert_ptr_null(sl.data);
    TK_FAIL(px_view_get_span(r, &s1), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_ERROR_HAS("rank 2");
    TK_OK(px_view_get_span(l, &sl));
    ck_assert_int_eq(sl.stride[0], 1);
    ck_assert_int_eq(sl.stride[1], 3);
    TK_FAIL(px_view_get_span(l, &sr), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_ERROR_HAS("dimension 1");
    TK_ERROR_HAS("px_span_f64");

    /* Subviews: a row of a right view is 1-D contiguous, a column is not; a block of
       whole-stride rows keeps the last index contiguous. */
    px_view *row = sub(r, px_slice_index(1), px_slice_all());
    px_view *col = sub(r, px_slice_all(), px_slice_index(2));
    px_view *blk = sub(r, px_slice_range(1, 3), px_slice_range(1, 3));
    TK_OK(px_view_get_span(row, &s1));
    ck_assert_int_eq(s1.extent[0], 4);
    ck_assert_ptr_eq(s1.data, (double *)tk_data(r) + 4);
    TK_FAIL(px_view_get_span(col, &s1), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_ERROR_HAS("stride 4");
    TK_OK(px_view_get_span(col, &s));
    TK_OK(px_view_get_span(blk, &sr));
    ck_assert_int_eq(sr.stride[0], 4);
    ck_assert_int_eq(sr.extent[1], 2);
    TK_FAIL(px_view_get_span(blk, &sl), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");

    /* A dimension of extent 1 has unit stride whatever its stride: it takes index 0 only. */
    px_view *one = sub(r, px_slice_range(0, 3), px_slice_range(2, 3));
    TK_OK(px_view_get_span(one, &sr));
    ck_assert_int_eq(sr.stride[1], 1);
    px_view_release(&one);

    /* Rank 0: nothing to index with a unit stride; no 1-D span. */
    px_view_desc d0 = tk_desc("scalar", px_host(), PX_F64, 0, NULL);
    px_view *v0 = NULL;
    TK_OK(px_view_create(&v0, &d0));
    TK_OK(px_view_get_span(v0, &sr));
    TK_FAIL(px_view_get_span(v0, &s1), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");

    /* Bad arguments. */
    TK_FAIL(px_view_get_span(NULL, &s), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_FAIL(px__kabi_view_get_span(r, PX_F64, PX__SPAN_RIGHT, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_view_get_span");
    TK_FAIL(px__kabi_view_get_span(r, PX_F64, 9, &s), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_FAIL(px__kabi_view_get_span(r, PX_DTYPE_COUNT + 1, PX__SPAN_RIGHT, &s),
            PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_FAIL(px__kabi_view_get_span(r, -1, PX__SPAN_RIGHT, &s), PX_ERR_INVALID_ARGUMENT,
            "px_view_get_span");

    TK_RELEASE(v0, row, col, blk, r, l);
}
END_TEST

/* The getter's C++ form, through the kernel file (C++ when CUDA is on, C otherwise). */
START_TEST(spans_getter_cxx)
{
    px_view *u8 = tk_view1("u8", px_host(), PX_U8, 4), *f32 = tk_view1("f32", px_host(), PX_F32, 4);
    px_view *u64 = tk_view1("u64", px_host(), PX_U64, 4);
    px_view *i32 = view2(PX_LAYOUT_RIGHT, 2, 3), *u32l = NULL;
    const int64_t ext[2] = {2, 3};
    px_view_desc d = tk_desc("u32l", px_host(), PX_U32, 2, ext);
    d.layout = PX_LAYOUT_LEFT;
    TK_OK(px_view_create(&u32l, &d));
    px_view_release(&i32);
    d.label = "i32";
    d.dtype = PX_I32;
    d.layout = PX_LAYOUT_RIGHT;
    TK_OK(px_view_create(&i32, &d));

    px_span any;
    px_span_u8 su8;
    px_span_i32_right si32;
    px_span_u32_left_restrict su32;
    px_span_f32_1d sf32;
    px_span_u64_1d_restrict su64;
    TK_OK(sp_get_any(f32, &any));
    TK_OK(sp_get_u8(u8, &su8));
    TK_OK(sp_get_i32_right(i32, &si32));
    TK_OK(sp_get_u32_left_restrict(u32l, &su32));
    TK_OK(sp_get_f32_1d(f32, &sf32));
    TK_OK(sp_get_u64_1d_restrict(u64, &su64));
    ck_assert_ptr_eq(sf32.data, tk_data(f32));
    ck_assert_int_eq(si32.stride[0], 3);
    ck_assert_int_eq(su32.stride[1], 2);
    TK_FAIL(sp_get_u8(f32, &su8), PX_ERR_TYPE_MISMATCH, "px_view_get_span");
    TK_FAIL(sp_get_f32_1d(u64, &sf32), PX_ERR_TYPE_MISMATCH, "px_view_get_span");
    TK_FAIL(sp_get_u64_1d_restrict(f32, &su64), PX_ERR_TYPE_MISMATCH, "px_view_get_span");
    TK_FAIL(sp_get_u32_left_restrict(i32, &su32), PX_ERR_TYPE_MISMATCH, "px_view_get_span");
    d.dtype = PX_U32;
    d.label = "u32r";
    px_view *u32r = NULL;
    TK_OK(px_view_create(&u32r, &d));
    TK_FAIL(sp_get_u32_left_restrict(u32r, &su32), PX_ERR_INVALID_ARGUMENT, "px_view_get_span");
    TK_RELEASE(u32r, u8, f32, u64, i32, u32l);
}
END_TEST

/* ---- The accessors, in C on the host ------------------------------------------------------ */

START_TEST(spans_accessors_host)
{
    const int64_t e[4] = {3, 4, 5, 2};
    for (int left = 0; left < 2; ++left) {
        px_view_desc d = tk_desc("a4", px_host(), PX_I64, 4, e);
        d.layout = left ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
        px_view *v = NULL;
        TK_OK(px_view_create(&v, &d));
        px_span_i64 s;
        px_span_i64_right r;
        px_span_i64_left_restrict l;
        TK_OK(px_view_get_span(v, &s));
        if (left)
            TK_OK(px_view_get_span(v, &l));
        else
            TK_OK(px_view_get_span(v, &r));
        for (int64_t i = 0; i < e[0]; ++i)
            for (int64_t j = 0; j < e[1]; ++j)
                for (int64_t k = 0; k < e[2]; ++k)
                    for (int64_t m = 0; m < e[3]; ++m) {
                        const int64_t want = 1000 * i + 100 * j + 10 * k + m;
                        if (left)
                            PX_AT4(l, i, j, k, m) = want;
                        else
                            PX_AT4(r, i, j, k, m) = want;
                        ck_assert_int_eq(PX_AT4(s, i, j, k, m), want);
                    }
        px_view_release(&v);
    }
    px_view *x = tk_view1("x", px_host(), PX_U32, 9);
    px_span_u32_1d_restrict x1;
    px_span_u32_right xr;
    TK_OK(px_view_get_span(x, &x1));
    TK_OK(px_view_get_span(x, &xr));
    for (int64_t i = 0; i < 9; ++i) PX_AT1(x1, i) = (uint32_t)(3 * i);
    for (int64_t i = 0; i < 9; ++i) ck_assert_uint_eq(PX_AT1(xr, i), 3 * i);
    ck_assert_uint_eq(((uint32_t *)tk_data(x))[8], 24);
    px_view_release(&x);
}
END_TEST

/* ---- The accessors in kernels, on the backend under test ---------------------------------- */

typedef struct sp1_kernels {
    const char *name;
    const px_kernel *fill, *axpy;
} sp1_kernels;

/* Every 1-D form: a fill and an axpy over [2, n - 1) of two views. */
START_TEST(spans_kernels_1d)
{
    const sp1_kernels ks[] = {
        {"strided", PX_KERNEL(sp_fill1_strided), PX_KERNEL(sp_axpy_strided)},
        {"right", PX_KERNEL(sp_fill1_right), PX_KERNEL(sp_axpy_right)},
        {"left", PX_KERNEL(sp_fill1_left), PX_KERNEL(sp_axpy_left)},
        {"1d", PX_KERNEL(sp_fill1_1d), PX_KERNEL(sp_axpy_1d)},
        {"1d_restrict", PX_KERNEL(sp_fill1_1d_restrict), PX_KERNEL(sp_axpy_1d_restrict)},
    };
    const sp1_kernels *k = &ks[_i];
    const int64_t n = 1000;
    px_view *x = tk_view1("x", tk_space(), PX_F64, n), *y = tk_view1("y", tk_space(), PX_F64, n);
    /* The argument structs differ only in their span types: fill each through its own. */
    union {
        sp1_args_strided s;
        sp1_args_right r;
        sp1_args_left l;
        sp1_args_1d o;
        sp1_args_1d_restrict orr;
    } a;
    memset(&a, 0, sizeof a);
/* x and y through the spans of member m of the union, a = 0.5. */
#define SP1_SET(m)                          \
    do {                                    \
        TK_OK(px_view_get_span(x, &a.m.x)); \
        TK_OK(px_view_get_span(y, &a.m.y)); \
        a.m.a = 0.5;                        \
    } while (0)
    switch (_i) {
    case 0: SP1_SET(s); break;
    case 1: SP1_SET(r); break;
    case 2: SP1_SET(l); break;
    case 3: SP1_SET(o); break;
    default: SP1_SET(orr); break;
    }
#undef SP1_SET
    /* x = 7 i + 1 (fill writes y: run it with x and y swapped), then y = 7 i + 1 and
       y += 0.5 x over [2, n - 1). */
    sp1_args_strided sw;
    TK_OK(px_view_get_span(y, &sw.x));
    TK_OK(px_view_get_span(x, &sw.y));
    TK_OK(px_parallel_for(tk_inst(), NULL, px_range(0, n), PX_KERNEL(sp_fill1_strided), &sw));
    TK_OK(px_parallel_for(tk_inst(), k->name, px_range(0, n), k->fill, &a));
    TK_OK(px_parallel_for(tk_inst(), k->name, px_range(2, n - 1), k->axpy, &a));
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(y);
    const double *v = (const double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) {
        const double base = 7.0 * (double)i + 1.0;
        const double want = i >= 2 && i < n - 1 ? 1.5 * base : base;
        TK_ASSERT(v[i] == want, "%s: y[%lld] = %g, want %g", k->name, (long long)i, v[i], want);
    }
    TK_RELEASE(h, x, y);
}
END_TEST

typedef struct spn_kernels {
    const char *name;
    px_layout layout;
    const px_kernel *fill2, *fill3, *fill4, *sum2, *sum3;
} spn_kernels;

#define SPN(sfx, layout)                                                                  \
    {                                                                                     \
#sfx, layout, PX_KERNEL(sp_fill2_##sfx), PX_KERNEL(sp_fill3_##sfx),               \
            PX_KERNEL(sp_fill4_##sfx), PX_KERNEL(sp_sum2_##sfx), PX_KERNEL(sp_sum3_##sfx) \
    }
static const spn_kernels spn[] = {
    SPN(strided, PX_LAYOUT_RIGHT),         SPN(strided, PX_LAYOUT_LEFT),
    SPN(right, PX_LAYOUT_RIGHT),           SPN(left, PX_LAYOUT_LEFT),
    SPN(strided_restrict, PX_LAYOUT_LEFT), SPN(right_restrict, PX_LAYOUT_RIGHT),
    SPN(left_restrict, PX_LAYOUT_LEFT),
};

/* Fills rank `rank` of out with its kernel (on a subview that drops the first and last
   index of every dimension but the contiguous one, so that strides are not extents),
   sums it back with the reduction (ranks 2 and 3), and checks every element. */
static void spn_check(const spn_kernels *k, int rank)
{
    const int64_t full[4] = {6, 5, 7, 4};
    px_view_desc d = tk_desc("full", tk_space(), PX_I64, rank, full);
    d.layout = k->layout;
    px_view *whole = NULL, *v = NULL;
    TK_OK(px_view_create(&whole, &d));
    px_slice sl[4];
    int64_t ext[4];
    const int unit = k->layout == PX_LAYOUT_RIGHT ? rank - 1 : 0;
    for (int dd = 0; dd < rank; ++dd) {
        sl[dd] = dd == unit ? px_slice_all() : px_slice_range(1, full[dd] - 1);
        ext[dd] = dd == unit ? full[dd] : full[dd] - 2;
    }
    TK_OK(px_view_subview(&v, whole, sl, rank));
    /* Every spn_args_* has the same form: fill through the generic getter of each. */
    union {
        spn_args_strided s;
        spn_args_right r;
        spn_args_left l;
        spn_args_strided_restrict sr;
        spn_args_right_restrict rr;
        spn_args_left_restrict lr;
    } a;
    memset(&a, 0, sizeof a);
    if (!strcmp(k->name, "strided"))
        TK_OK(px_view_get_span(v, &a.s.out));
    else if (!strcmp(k->name, "right"))
        TK_OK(px_view_get_span(v, &a.r.out));
    else if (!strcmp(k->name, "left"))
        TK_OK(px_view_get_span(v, &a.l.out));
    else if (!strcmp(k->name, "strided_restrict"))
        TK_OK(px_view_get_span(v, &a.sr.out));
    else if (!strcmp(k->name, "right_restrict"))
        TK_OK(px_view_get_span(v, &a.rr.out));
    else
        TK_OK(px_view_get_span(v, &a.lr.out));
    a.s.in = a.s.out; /* the same bits in every member of the union */
    a.s.n3 = rank == 4 ? ext[3] : 0;
    px_policy p = rank == 2 ? px_mdrange2(0, ext[0], 0, ext[1])
                            : px_mdrange3(0, ext[0], 0, ext[1], 0, ext[2]);
    if (k->layout == PX_LAYOUT_LEFT) p = px_policy_iterate(p, PX_ITERATE_LEFT);
    const px_kernel *fill = rank == 2 ? k->fill2 : rank == 3 ? k->fill3 : k->fill4;
    TK_OK(px_parallel_for(tk_inst(), k->name, p, fill, &a));
    int64_t want_sum = 0;
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j)
            for (int64_t m = 0; m < (rank > 2 ? ext[2] : 1); ++m)
                for (int64_t l = 0; l < (rank > 3 ? ext[3] : 1); ++l)
                    want_sum += 1000 * i + 100 * j + 10 * m + l;
    if (rank < 4) {
        int64_t sum = -1;
        TK_OK(px_parallel_reduce(tk_inst(), k->name, p, rank == 2 ? k->sum2 : k->sum3, &a, &sum));
        TK_ASSERT(sum == want_sum, "%s rank %d: sum %lld, want %lld", k->name, rank, (long long)sum,
                  (long long)want_sum);
    }
    /* Element by element, through the full view's host copy (the border stays 0). */
    px_view *h = tk_to_host(whole);
    px_span_i64 hs;
    TK_OK(px_view_get_span(h, &hs));
    for (int64_t i = 0; i < full[0]; ++i)
        for (int64_t j = 0; j < full[1]; ++j)
            for (int64_t m = 0; m < (rank > 2 ? full[2] : 1); ++m)
                for (int64_t l = 0; l < (rank > 3 ? full[3] : 1); ++l) {
                    const int64_t at[4] = {i, j, m, l};
                    int64_t want = 0;
                    bool inside = true;
                    for (int dd = 0; dd < rank; ++dd) {
                        const int64_t o = dd == unit ? at[dd] : at[dd] - 1;
                        if (o < 0 || o >= ext[dd]) inside = false;
                        want += (dd == 0 ? 1000 : dd == 1 ? 100 : dd == 2 ? 10 : 1) * o;
                    }
                    if (!inside) want = 0;
                    const int64_t got = PX_AT4(hs, i, j, m, l);
                    TK_ASSERT(got == want, "%s rank %d: (%lld,%lld,%lld,%lld) = %lld, want %lld",
                              k->name, rank, (long long)i, (long long)j, (long long)m, (long long)l,
                              (long long)got, (long long)want);
                }
    TK_RELEASE(h, v, whole);
}

/* 5-D and 6-D spans: PX_AT5 and PX_AT6 on the host, then in a kernel of the backend under
   test for each layout (strided over a subview, right, left), checked element by element. */
static int64_t sp6_want(const int64_t *x)
{
    return 100000 * x[0] + 10000 * x[1] + 1000 * x[2] + 100 * x[3] + 10 * x[4] + x[5];
}

/* The index x of point f of a 6-D box of extents e, the last index fastest; false past
   the box. */
static bool sp6_index(int64_t f, const int64_t e[6], int64_t x[6])
{
    for (int d = 5; d >= 0; --d) {
        x[d] = f % e[d];
        f /= e[d];
    }
    return f == 0;
}

START_TEST(spans_rank5_rank6)
{
    const int64_t e[6] = {2, 3, 4, 2, 3, 2};
    /* Host: every layout's accessor against the strided one. */
    for (int left = 0; left < 2; ++left) {
        px_view_desc d = tk_desc("a6", px_host(), PX_I64, 6, e);
        d.layout = left ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
        px_view *v = NULL;
        TK_OK(px_view_create(&v, &d));
        px_span_i64 s;
        px_span_i64_right r;
        px_span_i64_left l;
        TK_OK(px_view_get_span(v, &s));
        if (left)
            TK_OK(px_view_get_span(v, &l));
        else
            TK_OK(px_view_get_span(v, &r));
        int64_t x[6];
        for (int64_t f = 0; sp6_index(f, e, x); ++f) {
            const int64_t want = sp6_want(x);
            if (left)
                PX_AT6(l, x[0], x[1], x[2], x[3], x[4], x[5]) = want;
            else
                PX_AT6(r, x[0], x[1], x[2], x[3], x[4], x[5]) = want;
            ck_assert_int_eq(PX_AT6(s, x[0], x[1], x[2], x[3], x[4], x[5]), want);
        }
        TK_RELEASE(v);
    }
    /* Kernels. */
    for (int form = 0; form < 3; ++form) {
        const px_layout lay = form == 2 ? PX_LAYOUT_LEFT : PX_LAYOUT_RIGHT;
        px_view_desc d = tk_desc("out6", tk_space(), PX_I64, 6, e);
        d.layout = lay;
        px_view_desc d5 = tk_desc("in5", tk_space(), PX_I64, 5, e);
        d5.layout = lay;
        px_view *out = NULL, *in5 = NULL, *big = NULL;
        if (form == 0) {
            /* strided: the inner part of a larger view */
            const int64_t eb[6] = {e[0] + 1, e[1] + 2, e[2], e[3] + 1, e[4], e[5] + 3};
            px_view_desc db = tk_desc("big6", tk_space(), PX_I64, 6, eb);
            TK_OK(px_view_create(&big, &db));
            const px_slice sl[6] = {{1, 1 + e[0], false}, {2, 2 + e[1], false},
                                    {0, e[2], false},     {1, 1 + e[3], false},
                                    {0, e[4], false},     {3, 3 + e[5], false}};
            TK_OK(px_view_subview(&out, big, sl, 6));
        } else {
            TK_OK(px_view_create(&out, &d));
        }
        TK_OK(px_view_create(&in5, &d5));
        const px_policy p = px_mdrange3(0, e[0], 0, e[1], 0, e[2]);
        if (form == 0) {
            sp6_args_strided a = {.n3 = e[3], .n4 = e[4], .n5 = e[5]};
            TK_OK(px_view_get_span(out, &a.out));
            TK_OK(px_view_get_span(in5, &a.in5));
            TK_OK(px_parallel_for(tk_inst(), "fill6", p, PX_KERNEL(sp_fill6_strided), &a));
        } else if (form == 1) {
            sp6_args_right a = {.n3 = e[3], .n4 = e[4], .n5 = e[5]};
            TK_OK(px_view_get_span(out, &a.out));
            TK_OK(px_view_get_span(in5, &a.in5));
            TK_OK(px_parallel_for(tk_inst(), "fill6", p, PX_KERNEL(sp_fill6_right), &a));
        } else {
            sp6_args_left a = {.n3 = e[3], .n4 = e[4], .n5 = e[5]};
            TK_OK(px_view_get_span(out, &a.out));
            TK_OK(px_view_get_span(in5, &a.in5));
            TK_OK(px_parallel_for(tk_inst(), "fill6", px_policy_iterate(p, PX_ITERATE_LEFT),
                                  PX_KERNEL(sp_fill6_left), &a));
        }
        TK_OK(px_instance_fence(tk_inst()));
        px_view *h = tk_to_host(out), *h5 = tk_to_host(in5);
        px_span_i64 hs, h5s;
        TK_OK(px_view_get_span(h, &hs));
        TK_OK(px_view_get_span(h5, &h5s));
        int64_t x[6];
        for (int64_t f = 0; sp6_index(f, e, x); ++f) {
            TK_ASSERT(PX_AT6(hs, x[0], x[1], x[2], x[3], x[4], x[5]) == sp6_want(x),
                      "form %d: element %lld", form, (long long)sp6_want(x));
            if (x[5] == 0)
                TK_ASSERT(PX_AT5(h5s, x[0], x[1], x[2], x[3], x[4]) == sp6_want(x),
                          "form %d: 5-D element %lld", form, (long long)sp6_want(x));
        }
        TK_RELEASE(h, h5, out, in5, big);
    }
}
END_TEST

START_TEST(spans_kernels_nd)
{
    const int nk = (int)(sizeof spn / sizeof spn[0]);
    spn_check(&spn[_i % nk], 2 + _i / nk);
}
END_TEST

/* Spans sliced in kernels (portex/subspan.h): m(i, j) = 100 i + j, 12 x 10; rows, columns,
   diagonal blocks of 3 x 3 and even columns summed on the backend, against the sums here. */
START_TEST(spans_sliced_in_kernels)
{
    enum { R = 12, C = 10, B = 3 };
    const int64_t ext[2] = {R, C};
    px_view *hm = tk_view("m", px_host(), PX_F64, 2, ext);
    double *m = tk_data(hm);
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) m[i * C + j] = (double)(100 * i + j);
    px_view *dm = tk_on_space(hm, "m");
    px_view *out = tk_view1("out", tk_space(), PX_F64, R);
    ss_args a = {.block = B};
    TK_OK(px_view_get_span(dm, &a.m));
    TK_OK(px_view_get_span(out, &a.out));
    const px_kernel *k[4] = {PX_KERNEL(ss_row_sums), PX_KERNEL(ss_col_sums),
                             PX_KERNEL(ss_block_sums), PX_KERNEL(ss_even_sums)};
    const int64_t count[4] = {R, C, R / B < C / B ? R / B : C / B, R};
    for (int which = 0; which < 4; ++which) {
        TK_OK(px_parallel_for(tk_inst(), "slices", px_range(0, count[which]), k[which], &a));
        px_view *h = tk_to_host(out);
        const double *got = tk_data(h);
        for (int64_t x = 0; x < count[which]; ++x) {
            double want = 0;
            for (int64_t i = 0; i < R; ++i)
                for (int64_t j = 0; j < C; ++j) {
                    const bool in = which == 0   ? i == x
                                    : which == 1 ? j == x
                                    : which == 2 ? i / B == x && j / B == x
                                                 : i == x && j % 2 == 0;
                    want += in ? m[i * C + j] : 0;
                }
            TK_ASSERT(got[x] == want, "kernel %d, index %lld: %g, want %g", which, (long long)x,
                      got[x], want);
        }
        TK_RELEASE(h);
    }
    TK_RELEASE(hm, dm, out);
}
END_TEST

static Suite *spans_suite(void)
{
    Suite *s = suite_create("spans");
    TCase *tc = tk_tcase("spans");
    tcase_add_test(tc, spans_every_type);
    tcase_add_test(tc, spans_sizes);
    tcase_add_test(tc, spans_layout_checks);
    tcase_add_test(tc, spans_getter_cxx);
    tcase_add_test(tc, spans_accessors_host);
    tcase_add_test(tc, spans_rank5_rank6);
    tcase_add_test(tc, spans_sliced_in_kernels);
    tcase_add_loop_test(tc, spans_kernels_1d, 0, 5);
    tcase_add_loop_test(tc, spans_kernels_nd, 0, 3 * (int)(sizeof spn / sizeof spn[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const tk_suite_fn suites[] = {spans_suite};
    return tk_main(suites, 1);
}
