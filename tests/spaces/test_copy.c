/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_deep_copy / _async / _query and px_fill / _async: data, the path taken and counted,
 * and every kind of mismatch. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const px_dtype builtin[] = {PX_U8, PX_I32, PX_I64, PX_U32, PX_U64, PX_F32, PX_F64};
#define NBUILTIN 7
static const size_t user_sizes[] = {3, 12, 24};
#define NUSER 3

/* A path of the CUDA backend. */
static bool path_is_cuda(px_copy_path p)
{
    return p == PX_COPY_CUDA_DMA || p == PX_COPY_CUDA_D2D || p == PX_COPY_CUDA_PAGEABLE ||
           p == PX_COPY_CUDA_STAGED || p == PX_COPY_CUDA_FILL || p == PX_COPY_CUDA_STRIDED ||
           p == PX_COPY_CUDA_STRIDED_STAGED;
}

/* ---- path names --------------------------------------------------------------------------- */

static const char *const path_names[] = {
#define NAME(name, desc) #name,
    PX_COPY_PATH_MAP(NAME)
#undef NAME
};
static const char *const path_descs[] = {
#define DESC(name, desc) desc,
    PX_COPY_PATH_MAP(DESC)
#undef DESC
};

START_TEST(path_strings)
{
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p) {
        ck_assert_str_eq(px_copy_path_string((px_copy_path)p), path_names[p]);
        ck_assert_str_eq(px_copy_path_description((px_copy_path)p), path_descs[p]);
    }
    ck_assert_ptr_nonnull(px_copy_path_string(PX_COPY_PATH_COUNT));
    ck_assert_ptr_nonnull(px_copy_path_string((px_copy_path)-1));
    ck_assert_ptr_nonnull(px_copy_path_description(PX_COPY_PATH_COUNT));
    ck_assert_ptr_nonnull(px_copy_path_description((px_copy_path)1000));
}
END_TEST

START_TEST(counts_start_at_zero)
{
    uint64_t c[PX_COPY_PATH_COUNT];
    memset(c, 0xff, sizeof c);
    TK_OK(px_copy_path_counts(c));
    for (int p = 0; p < PX_COPY_PATH_COUNT; ++p) ck_assert_uint_eq(c[p], 0);
    TK_FAIL(px_copy_path_counts(NULL), PX_ERR_INVALID_ARGUMENT, "px_copy_path_counts");
}
END_TEST

/* ---- contiguous copies ------------------------------------------------------------------- */

/* _i: dtype (built-in, then USER sizes) x synchronous/asynchronous */
START_TEST(copy_contiguous_roundtrip)
{
    int di = _i / 2;
    bool async = _i % 2;
    px_dtype dt = di < NBUILTIN ? builtin[di] : PX_USER;
    size_t es = di < NBUILTIN ? 0 : user_sizes[di - NBUILTIN];
    const int64_t ext[2] = {37, 53};
    px_instance *in = async ? tk_inst() : NULL;

    px_view *a = tk_view_ex("a", px_host(), dt, es, PX_LAYOUT_RIGHT, 2, ext, 0);
    tk_randomize(a, 100 + (uint64_t)_i);
    px_view *d = tk_view_ex("d", tk_space(), dt, es, PX_LAYOUT_RIGHT, 2, ext, 0);
    px_view *b = tk_view_ex("b", px_host(), dt, es, PX_LAYOUT_RIGHT, 2, ext, 0);

    px_copy_path p1 = TK_COPY(in, d, a, TK_ANY_PATH);
    px_copy_path p2 = TK_COPY(in, b, d, TK_ANY_PATH);
    if (tk_is_cuda()) {
        TK_ASSERT(path_is_cuda(p1) && p1 != PX_COPY_CUDA_FILL, "%s", px_copy_path_string(p1));
        TK_ASSERT(path_is_cuda(p2) && p2 != PX_COPY_CUDA_FILL, "%s", px_copy_path_string(p2));
    } else {
        ck_assert_int_eq(p1, PX_COPY_HOST_MEMCPY);
        ck_assert_int_eq(p2, PX_COPY_HOST_MEMCPY);
    }
    TK_SAME(a, b);
    TK_RELEASE(a, b, d);
}
END_TEST

/* 1-D of odd and prime sizes, rank 0 and rank 8. */
START_TEST(copy_sizes_and_ranks)
{
    static const int64_t ns[] = {1, 2, 1009, 65537};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        px_view *a = tk_view1("a", px_host(), PX_F64, ns[i]);
        tk_randomize(a, 7 + (uint64_t)i);
        px_view *d = tk_view1("d", tk_space(), PX_F64, ns[i]);
        px_view *b = tk_view1("b", px_host(), PX_F64, ns[i]);
        TK_COPY(NULL, d, a, TK_ANY_PATH);
        TK_COPY(NULL, b, d, TK_ANY_PATH);
        TK_SAME(a, b);
        TK_RELEASE(a, b, d);
    }
    /* rank 0 */
    px_view *a = tk_view("s", px_host(), PX_I64, 0, NULL);
    *(int64_t *)tk_data(a) = -123456789;
    px_view *d = tk_view("s", tk_space(), PX_I64, 0, NULL);
    px_view *b = tk_view("s", px_host(), PX_I64, 0, NULL);
    TK_COPY(NULL, d, a, TK_ANY_PATH);
    TK_COPY(NULL, b, d, TK_ANY_PATH);
    ck_assert_int_eq(*(int64_t *)tk_data(b), -123456789);
    px_view_release(&a);
    px_view_release(&b);
    px_view_release(&d);
    /* rank 8 */
    const int64_t e8[8] = {2, 3, 2, 1, 3, 2, 2, 3};
    a = tk_view("r8", px_host(), PX_U32, 8, e8);
    uint32_t *x = (uint32_t *)tk_data(a);
    for (int64_t i = 0; i < tk_info(a).size; ++i) x[i] = (uint32_t)(i * 2654435761u);
    d = tk_view("r8", tk_space(), PX_U32, 8, e8);
    b = tk_view("r8", px_host(), PX_U32, 8, e8);
    TK_COPY(NULL, d, a, TK_ANY_PATH);
    TK_COPY(NULL, b, d, TK_ANY_PATH);
    ck_assert_int_eq(memcmp(tk_data(a), tk_data(b), tk_info(a).bytes), 0);
    TK_RELEASE(a, b, d);
}
END_TEST

/* Nothing to move: no element, or the same memory. */
START_TEST(copy_none)
{
    int64_t n = 10, z = 0;
    px_view *v = tk_view1("v", tk_space(), PX_F64, n);
    TK_COPY(NULL, v, v, PX_COPY_NONE);
    px_view *alias = NULL;
    TK_OK(px_view_create_mirror_view(&alias, tk_space(), v));
    TK_COPY(NULL, alias, v, PX_COPY_NONE);
    TK_COPY(tk_inst(), v, alias, PX_COPY_NONE);
    px_view *e1 = tk_view1("e1", px_host(), PX_F64, z);
    px_view *e2 = tk_view1("e2", tk_space(), PX_F64, z);
    TK_COPY(NULL, e2, e1, PX_COPY_NONE);
    TK_COPY(NULL, e1, e2, PX_COPY_NONE);
    TK_RELEASE(alias, v, e1, e2);
}
END_TEST

/* Wrapped user memory as source and destination. */
START_TEST(copy_wrapped)
{
    enum { N = 1009 };
    static int32_t src[N], dst[N];
    tk_rng r = tk_rng_seed(3);
    for (int i = 0; i < N; ++i) {
        src[i] = (int32_t)tk_next(&r);
        dst[i] = 0;
    }
    int64_t n = N;
    px_view_desc d = tk_desc("wsrc", px_host(), PX_I32, 1, &n);
    px_view *ws = NULL, *wd = NULL;
    TK_OK(px_view_wrap(&ws, &d, src));
    d.label = "wdst";
    TK_OK(px_view_wrap(&wd, &d, dst));
    px_view *dev = tk_view1("dev", tk_space(), PX_I32, n);
    TK_COPY(NULL, dev, ws, TK_ANY_PATH);
    TK_COPY(NULL, wd, dev, TK_ANY_PATH);
    ck_assert_int_eq(memcmp(src, dst, sizeof src), 0);
    TK_RELEASE(ws, wd, dev);
}
END_TEST

/* ---- strided and layout-converting copies ----------------------------------------------------- */

/* A block of a 2-D view to a contiguous view, and back into a block of another view. */
START_TEST(copy_strided_subviews)
{
    const int64_t ext[2] = {37, 53};
    px_view *big = tk_view_ex("big", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, ext, 0);
    tk_randomize(big, 55);
    px_view *dbig = tk_on_space(big, "dbig");
    px_slice sl[2] = {px_slice_range(3, 30), px_slice_range(5, 50)};
    px_view *dsub = NULL;
    TK_OK(px_view_subview(&dsub, dbig, sl, 2));
    ck_assert(!tk_info(dsub).contiguous);

    /* sub -> contiguous (same space) */
    const int64_t sext[2] = {27, 45};
    px_view *dblock = tk_view_ex("dblock", tk_space(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, sext, 0);
    px_copy_path p = TK_COPY(NULL, dblock, dsub, TK_ANY_PATH);
    if (!tk_is_cuda()) ck_assert_int_eq(p, PX_COPY_HOST_STRIDED);
    px_view *hblock = tk_to_host(dblock);
    px_view *hsub = NULL;
    TK_OK(px_view_subview(&hsub, big, sl, 2));
    TK_SAME(hblock, hsub);

    /* contiguous -> a block of a zeroed view; the rest stays zero */
    px_view *dz = tk_view_ex("dz", tk_space(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, ext, 0);
    px_view *dzsub = NULL;
    TK_OK(px_view_subview(&dzsub, dz, sl, 2));
    p = TK_COPY(tk_inst(), dzsub, dblock, TK_ANY_PATH);
    if (!tk_is_cuda()) ck_assert_int_eq(p, PX_COPY_HOST_STRIDED);
    px_view *hz = tk_to_host(dz);
    const int64_t *z = (const int64_t *)tk_data(hz), *x = (const int64_t *)tk_data(big);
    for (int64_t i = 0; i < ext[0]; ++i)
        for (int64_t j = 0; j < ext[1]; ++j) {
            bool in = i >= 3 && i < 30 && j >= 5 && j < 50;
            int64_t want = in ? x[i * ext[1] + j] : 0;
            TK_ASSERT(z[i * ext[1] + j] == want, "(%lld,%lld)", (long long)i, (long long)j);
        }

    /* strided HOST -> strided HOST, rank dropped: column 7 of big into row 2 of a 53x37 view */
    const int64_t text[2] = {53, 37};
    px_view *t = tk_view_ex("t", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, text, 0);
    px_slice col[2] = {px_slice_all(), px_slice_index(7)};
    px_slice row[2] = {px_slice_index(2), px_slice_all()};
    px_view *c = NULL, *rw = NULL;
    TK_OK(px_view_subview(&c, big, col, 2));
    TK_OK(px_view_subview(&rw, t, row, 2));
    TK_COPY(NULL, rw, c, TK_ANY_PATH);
    const int64_t *tv = (const int64_t *)tk_data(t);
    for (int64_t i = 0; i < 37; ++i) ck_assert_int_eq(tv[2 * 37 + i], x[i * ext[1] + 7]);

    px_view *views[] = {big, dbig, dsub, dblock, hblock, hsub, dz, dzsub, hz, t, c, rw};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) px_view_release(&views[i]);
}
END_TEST

/* RIGHT <-> LEFT in every direction: element (i,j,k) equal. */
START_TEST(copy_layout_convert)
{
    const int64_t ext[3] = {5, 7, 9};
    px_view *r = tk_view_ex("r", px_host(), PX_F32, 0, PX_LAYOUT_RIGHT, 3, ext, 0);
    tk_randomize(r, 66);
    px_view *l = tk_view_ex("l", px_host(), PX_F32, 0, PX_LAYOUT_LEFT, 3, ext, 0);
    px_copy_path p = TK_COPY(NULL, l, r, TK_ANY_PATH);
    ck_assert_int_eq(p, PX_COPY_HOST_STRIDED);
    TK_SAME(l, r);
    /* host RIGHT -> space LEFT -> host RIGHT */
    px_view *dl = tk_view_ex("dl", tk_space(), PX_F32, 0, PX_LAYOUT_LEFT, 3, ext, 0);
    TK_COPY(NULL, dl, r, TK_ANY_PATH);
    px_view *r2 = tk_view_ex("r2", px_host(), PX_F32, 0, PX_LAYOUT_RIGHT, 3, ext, 0);
    TK_COPY(tk_inst(), r2, dl, TK_ANY_PATH);
    TK_SAME(r2, r);
    /* space LEFT -> space RIGHT */
    px_view *dr = tk_view_ex("dr", tk_space(), PX_F32, 0, PX_LAYOUT_RIGHT, 3, ext, 0);
    TK_COPY(NULL, dr, dl, TK_ANY_PATH);
    px_view *back = tk_to_host(dr);
    TK_SAME(back, r);
    px_view *views[] = {r, l, dl, r2, dr, back};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) px_view_release(&views[i]);
}
END_TEST

/* Views of the same element size but another dtype copy bytes. */
START_TEST(copy_same_elem_size_other_dtype)
{
    int64_t n = 1009;
    px_view *a = tk_view1("a", px_host(), PX_I64, n);
    tk_randomize(a, 9);
    px_view *d = tk_view1("d", tk_space(), PX_U64, n);
    px_view *b = tk_view1("b", px_host(), PX_F64, n);
    TK_COPY(NULL, d, a, TK_ANY_PATH);
    TK_COPY(NULL, b, d, TK_ANY_PATH);
    ck_assert_int_eq(memcmp(tk_data(a), tk_data(b), (size_t)n * 8), 0);
    TK_RELEASE(a, b, d);
}
END_TEST

/* ---- overlapping views ------------------------------------------------------------------------- */

/* The tag of an element: its index in the whole view, in its first bytes (up to 8). */
static uint64_t tag_of(const unsigned char *e, size_t es)
{
    uint64_t t = 0;
    memcpy(&t, e, es < 8 ? es : 8);
    return t;
}

/* A whole view of tk_space() whose element k holds the tag k. */
static px_view *tagged(px_dtype dt, size_t es, int64_t rows, int64_t cols)
{
    const int64_t e[2] = {rows, cols};
    px_view *h = tk_view_ex("tags", px_host(), dt, es, PX_LAYOUT_RIGHT, 2, e, 0);
    unsigned char *p = tk_data(h);
    for (int64_t k = 0; k < rows * cols; ++k) memcpy(p + (size_t)k * es, &k, es < 8 ? es : 8);
    px_view *w = tk_on_space(h, "whole");
    TK_RELEASE(h);
    return w;
}

/* Copies src into dst, two views of whole's memory that overlap. Portex may refuse, naming
 * the function and changing nothing; else dst must hold what src held before, and nothing
 * else of whole may change. Returns whether the copy was made. */
static bool overlapping_copy(px_instance *inst, px_view *whole, px_view *dst, px_view *src,
                             const char *what)
{
    px_view *w0 = tk_to_host(whole), *d0 = tk_to_host(dst), *s0 = tk_to_host(src);
    const char *func = inst ? "px_deep_copy_async" : "px_deep_copy";
    px_copy_path p = PX_COPY_PATH_COUNT, q = PX_COPY_PATH_COUNT;
    const px_status qst = px_deep_copy_query(dst, src, &q);
    uint64_t before[PX_COPY_PATH_COUNT];
    tk_counts(before);
    px_clear_error();
    const px_status st = inst ? px_deep_copy_async(inst, dst, src, &p) : px_deep_copy(dst, src, &p);
    if (st == PX_OK && inst) TK_OK(px_instance_fence(inst));
    /* What the query says is what the copy does, and what it counts. */
    if (st == PX_OK) {
        TK_ASSERT(qst == PX_OK && p == q, "%s, %s: the copy took %s, the query said %s", what, func,
                  px_copy_path_string(p),
                  qst == PX_OK ? px_copy_path_string(q) : px_status_name(qst));
        tk_counted(before, p, 1, __LINE__);
    }
    px_view *w1 = tk_to_host(whole);
    const px_view_info i0 = tk_info(w0), i1 = tk_info(w1), id = tk_info(d0);
    if (st != PX_OK) {
        TK_ASSERT(tk_error_from(func), "%s, %s: %s: '%s' does not name %s", what, func,
                  px_status_name(st), px_last_error(), func);
        TK_ASSERT(memcmp(i0.data, i1.data, i0.bytes) == 0, "%s, %s: refused but changed memory",
                  what, func);
    } else {
        px_view *d1 = tk_to_host(dst);
        const px_view_info a = tk_info(d1), b = tk_info(s0);
        for (int64_t k = 0; k < a.size; ++k)
            TK_ASSERT(
                tag_of(tk_elem(&a, k), a.elem_size) == tag_of(tk_elem(&b, k), b.elem_size),
                "%s, %s (path %s): destination element %lld holds tag %llu, the source held %llu",
                what, func, px_copy_path_string(p), (long long)k,
                (unsigned long long)tag_of(tk_elem(&a, k), a.elem_size),
                (unsigned long long)tag_of(tk_elem(&b, k), b.elem_size));
        for (int64_t k = 0; k < i0.size; ++k) {
            if (memcmp(tk_elem(&i0, k), tk_elem(&i1, k), i0.elem_size) == 0) continue;
            bool in_dst = false;
            for (int64_t j = 0; j < id.size && !in_dst; ++j)
                in_dst = tag_of(tk_elem(&id, j), id.elem_size) == (uint64_t)k;
            TK_ASSERT(in_dst, "%s, %s: element %lld outside the destination changed", what, func,
                      (long long)k);
        }
        TK_RELEASE(d1);
    }
    TK_RELEASE(w0, d0, s0, w1);
    return st == PX_OK;
}

/* Two subviews of one view, shifted along a dimension, and a square view with its
 * transpose over the same memory, copied into each other in both forms: refused, or copied
 * as if through a copy of the source; both forms alike. */
START_TEST(copy_overlapping_views)
{
    static const struct {
        const char *what;
        int64_t dr0, dc0, sr0, sc0, rows, cols; /* blocks of a 4 x 8 view */
    } shifts[] = {
        {"columns shifted right", 0, 1, 0, 0, 3, 7},
        {"columns shifted left", 0, 0, 0, 1, 3, 7},
        {"rows and columns shifted", 1, 2, 0, 0, 3, 5},
        {"whole rows shifted down", 1, 0, 0, 0, 3, 8},
    };
    for (int user = 0; user < 2; ++user)
        for (size_t c = 0; c < sizeof shifts / sizeof shifts[0]; ++c) {
            bool done[2];
            for (int form = 0; form < 2; ++form) {
                px_view *w = tagged(user ? PX_USER : PX_I64, user ? 3 : 8, 4, 8);
                px_view *dst = tk_sub2(w, shifts[c].dr0, shifts[c].dr0 + shifts[c].rows,
                                       shifts[c].dc0, shifts[c].dc0 + shifts[c].cols);
                px_view *src = tk_sub2(w, shifts[c].sr0, shifts[c].sr0 + shifts[c].rows,
                                       shifts[c].sc0, shifts[c].sc0 + shifts[c].cols);
                done[form] = overlapping_copy(form ? tk_inst() : NULL, w, dst, src, shifts[c].what);
                TK_RELEASE(dst, src, w);
            }
            TK_ASSERT(done[0] == done[1], "%s: the blocking copy was %s, the asynchronous one %s",
                      shifts[c].what, done[0] ? "made" : "refused", done[1] ? "made" : "refused");
        }
    /* Contiguous rows from a strided view of the same memory: element (i, j) of the source
       at offset i + 3 j, of the destination at 8 + 8 i + j. */
    bool made[2];
    for (int form = 0; form < 2; ++form) {
        px_view *w = tagged(PX_I64, 8, 4, 8);
        px_view *dst = tk_sub2(w, 1, 4, 0, 8), *src = NULL;
        px_view_desc d = tk_desc("strided source", tk_space(), PX_I64, 2, (const int64_t[]){3, 8});
        d.layout = PX_LAYOUT_STRIDE;
        d.stride[0] = 1;
        d.stride[1] = 3;
        TK_OK(px_view_wrap(&src, &d, tk_info(w).data));
        made[form] =
            overlapping_copy(form ? tk_inst() : NULL, w, dst, src, "strided source into rows");
        TK_RELEASE(src, dst, w);
    }
    TK_ASSERT(made[0] == made[1],
              "strided source: the blocking copy was %s, the asynchronous one %s",
              made[0] ? "made" : "refused", made[1] ? "made" : "refused");
    /* In place: a 5 x 5 view into its transpose (the same memory, the other layout). */
    bool done[2];
    for (int form = 0; form < 2; ++form) {
        px_view *w = tagged(PX_I64, 8, 5, 5);
        px_view *t = tk_wrap("transpose", tk_space(), PX_I64, 0, PX_LAYOUT_LEFT, 2,
                             tk_info(w).extent, tk_info(w).data);
        done[form] = overlapping_copy(form ? tk_inst() : NULL, w, t, w, "transpose in place");
        TK_RELEASE(t, w);
    }
    TK_ASSERT(done[0] == done[1], "transpose: the blocking copy was %s, the asynchronous one %s",
              done[0] ? "made" : "refused", done[1] ? "made" : "refused");
}
END_TEST

/* ---- mismatches and bad input ------------------------------------------------------------------ */

START_TEST(copy_mismatch)
{
    int64_t n100 = 100, n99 = 99;
    px_view *a = tk_view1("a", tk_space(), PX_F64, n100);
    px_view *b = tk_view1("b", px_host(), PX_F64, n99);
    px_copy_path p = PX_COPY_HOST_FILL;
    uint64_t before[PX_COPY_PATH_COUNT], after[PX_COPY_PATH_COUNT];
    TK_OK(px_copy_path_counts(before));

    TK_FAIL(px_deep_copy(a, b, &p), PX_ERR_EXTENTS_MISMATCH, "px_deep_copy");
    TK_ERROR_HAS("100");
    TK_ERROR_HAS("99");
    TK_FAIL(px_deep_copy_async(tk_inst(), a, b, &p), PX_ERR_EXTENTS_MISMATCH, "px_deep_copy_async");
    TK_FAIL(px_deep_copy_query(a, b, &p), PX_ERR_EXTENTS_MISMATCH, "px_deep_copy_query");

    /* Same size, other shape. */
    const int64_t e46[2] = {4, 6}, e64[2] = {6, 4};
    px_view *m46 = tk_view("m46", tk_space(), PX_I32, 2, e46);
    px_view *m64 = tk_view("m64", px_host(), PX_I32, 2, e64);
    TK_FAIL(px_deep_copy(m46, m64, NULL), PX_ERR_EXTENTS_MISMATCH, "px_deep_copy");

    /* Other rank, same number of elements. */
    int64_t n24 = 24;
    px_view *v24 = tk_view1("v24", px_host(), PX_I32, n24);
    TK_FAIL2(px_deep_copy(m46, v24, NULL), PX_ERR_EXTENTS_MISMATCH, PX_ERR_INVALID_ARGUMENT,
             "px_deep_copy");
    TK_FAIL2(px_deep_copy_query(v24, m46, &p), PX_ERR_EXTENTS_MISMATCH, PX_ERR_INVALID_ARGUMENT,
             "px_deep_copy_query");

    /* Other element size. */
    const int64_t e46b[2] = {4, 6};
    px_view *f46 = tk_view("f46", px_host(), PX_F64, 2, e46b);
    TK_FAIL(px_deep_copy(m46, f46, NULL), PX_ERR_TYPE_MISMATCH, "px_deep_copy");
    TK_FAIL(px_deep_copy_async(tk_inst(), f46, m46, NULL), PX_ERR_TYPE_MISMATCH,
            "px_deep_copy_async");
    TK_FAIL(px_deep_copy_query(f46, m46, &p), PX_ERR_TYPE_MISMATCH, "px_deep_copy_query");
    px_view_desc ud = tk_desc("u46", px_host(), PX_USER, 2, e46b);
    ud.elem_size = 5;
    px_view *u46 = NULL;
    TK_OK(px_view_create(&u46, &ud));
    TK_FAIL(px_deep_copy(u46, m46, NULL), PX_ERR_TYPE_MISMATCH, "px_deep_copy");

    /* NULL and released handles. */
    px_view *gone = NULL;
    TK_FAIL(px_deep_copy(NULL, b, NULL), PX_ERR_INVALID_ARGUMENT, "px_deep_copy");
    TK_FAIL(px_deep_copy(a, gone, NULL), PX_ERR_INVALID_ARGUMENT, "px_deep_copy");
    TK_FAIL(px_deep_copy_async(NULL, a, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_deep_copy_async");
    TK_FAIL(px_deep_copy_async(tk_inst(), NULL, a, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_async");
    TK_FAIL(px_deep_copy_async(tk_inst(), a, NULL, NULL), PX_ERR_INVALID_ARGUMENT,
            "px_deep_copy_async");
    TK_FAIL(px_deep_copy_query(NULL, a, &p), PX_ERR_INVALID_ARGUMENT, "px_deep_copy_query");
    TK_FAIL(px_deep_copy_query(a, NULL, &p), PX_ERR_INVALID_ARGUMENT, "px_deep_copy_query");
    TK_FAIL(px_deep_copy_query(a, a, NULL), PX_ERR_INVALID_ARGUMENT, "px_deep_copy_query");

    /* Failures are not counted and move nothing. */
    TK_OK(px_copy_path_counts(after));
    for (int k = 0; k < PX_COPY_PATH_COUNT; ++k) ck_assert_uint_eq(after[k], before[k]);

    px_view *views[] = {a, b, m46, m64, v24, f46, u46};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) px_view_release(&views[i]);
}
END_TEST

/* ---- fill -------------------------------------------------------------------------------------- */

/* _i: dtype (built-in, then USER sizes) x synchronous/asynchronous */
START_TEST(fill_every_dtype)
{
    int di = _i / 2;
    bool async = _i % 2;
    px_dtype dt = di < NBUILTIN ? builtin[di] : PX_USER;
    size_t es = di < NBUILTIN ? px_dtype_size(dt) : user_sizes[di - NBUILTIN];
    const int64_t ext[2] = {13, 17};
    px_view *v = tk_view_ex("fill", tk_space(), dt, es, PX_LAYOUT_RIGHT, 2, ext, 0);
    unsigned char value[32];
    tk_rng r = tk_rng_seed(900 + (uint64_t)_i);
    tk_random_bytes(&r, value, sizeof value);
    if (dt == PX_F64) {
        double x = -3.0625;
        memcpy(value, &x, 8);
    }

    TK_FILL(async ? tk_inst() : NULL, v, value,
            tk_is_cuda() ? PX_COPY_CUDA_FILL : PX_COPY_HOST_FILL);
    ck_assert_uint_eq(tk_info(v).elem_size, es);
    TK_ALL_ARE(v, value);
    px_view_release(&v);
}
END_TEST

/* Fill of a strided subview changes only its elements. */
START_TEST(fill_subview)
{
    const int64_t ext[3] = {4, 5, 6};
    px_view *v = tk_view_ex("v", tk_space(), PX_I32, 0, PX_LAYOUT_LEFT, 3, ext, 0);
    px_slice sl[3] = {px_slice_range(1, 3), px_slice_index(2), px_slice_range(1, 6)};
    px_view *s = NULL;
    TK_OK(px_view_subview(&s, v, sl, 3));
    int32_t val = 0x5eed1234;
    TK_OK(px_fill(s, &val, NULL));
    int32_t val2 = -77;
    px_view *pt = NULL;
    px_slice one[3] = {px_slice_index(3), px_slice_index(4), px_slice_index(5)};
    TK_OK(px_view_subview(&pt, v, one, 3));
    TK_OK(px_fill_async(tk_inst(), pt, &val2, NULL)); /* rank 0 */
    TK_OK(px_instance_fence(tk_inst()));
    px_view *h = tk_to_host(v);
    px_view_info hi = tk_info(h);
    for (int64_t i = 0; i < 4; ++i)
        for (int64_t j = 0; j < 5; ++j)
            for (int64_t k = 0; k < 6; ++k) {
                int32_t got;
                memcpy(&got, tk_elem(&hi, (i * 5 + j) * 6 + k), 4);
                int32_t want = (i >= 1 && i < 3 && j == 2 && k >= 1) ? val
                               : (i == 3 && j == 4 && k == 5)        ? val2
                                                                     : 0;
                TK_ASSERT(got == want, "(%lld,%lld,%lld) = %d", (long long)i, (long long)j,
                          (long long)k, got);
            }
    TK_RELEASE(h, pt, s, v);
}
END_TEST

START_TEST(fill_bad_input)
{
    int64_t n = 8;
    px_view *v = tk_view1("v", tk_space(), PX_F64, n);
    double x = 1;
    px_view *gone = NULL;
    TK_FAIL(px_fill(NULL, &x, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill");
    TK_FAIL(px_fill(gone, &x, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill");
    TK_FAIL(px_fill(v, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill");
    TK_FAIL(px_fill_async(NULL, v, &x, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill_async");
    TK_FAIL(px_fill_async(tk_inst(), NULL, &x, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill_async");
    TK_FAIL(px_fill_async(tk_inst(), v, NULL, NULL), PX_ERR_INVALID_ARGUMENT, "px_fill_async");
    /* No element: nothing to do. */
    int64_t z = 0;
    px_view *e = tk_view1("e", tk_space(), PX_F64, z);
    px_copy_path p = PX_COPY_HOST_FILL;
    TK_OK(px_fill(e, &x, &p));
    ck_assert_int_eq(p, PX_COPY_NONE);
    TK_RELEASE(e, v);
}
END_TEST

/* Work on one instance is ordered: fill, then copy of the filled view, then fill again. */
START_TEST(async_ordering)
{
    const int64_t n = tk_is_cuda() ? (1 << 22) : (1 << 16);
    px_view *a = tk_view1("a", tk_space(), PX_F64, n);
    px_view *b = tk_view1("b", tk_space(), PX_F64, n);
    px_view *h = tk_view1("h", px_host(), PX_F64, n);
    px_instance *in = tk_instance("ordered");
    double one = 1.5, two = -2.25;
    TK_OK(px_fill_async(in, a, &one, NULL));
    TK_OK(px_deep_copy_async(in, b, a, NULL));
    TK_OK(px_fill_async(in, a, &two, NULL));
    TK_OK(px_deep_copy_async(in, h, b, NULL));
    TK_OK(px_instance_fence(in));
    const double *x = (const double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i)
        if (x[i] != 1.5) ck_abort_msg("h[%lld] = %g", (long long)i, x[i]);
    TK_OK(px_deep_copy(h, a, NULL)); /* the blocking form sees every instance's work */
    for (int64_t i = 0; i < n; ++i)
        if (x[i] != -2.25) ck_abort_msg("h[%lld] = %g", (long long)i, x[i]);
    TK_OK(px_instance_destroy(&in));
    TK_RELEASE(a, b, h);
}
END_TEST

/* ---- CUDA only --------------------------------------------------------------------------------- */

/* The named paths between pinned, pageable and device memory. */
START_TEST(cuda_paths)
{
    int64_t n = 65537;
    px_view *pin = tk_view1("pin", px_host_pinned(), PX_F64, n);
    px_view *dev = tk_view1("dev", px_device(0), PX_F64, n);
    px_view *dev2 = tk_view1("dev2", px_device(0), PX_F64, n);
    px_view *host = tk_view1("host", px_host(), PX_F64, n);
    tk_randomize(pin, 77);
    TK_COPY(NULL, dev, pin, PX_COPY_CUDA_DMA);
    TK_COPY(tk_inst(), dev2, dev, PX_COPY_CUDA_D2D);
    TK_COPY(NULL, host, dev2, PX_COPY_CUDA_STAGED);
    TK_SAME(host, pin);
    /* Pinned memory is host memory: filled on the host. */
    double v = 0.5;
    px_copy_path fp = PX_COPY_NONE;
    TK_OK(px_fill(pin, &v, &fp));
    ck_assert_int_eq(fp, PX_COPY_HOST_FILL);
    ck_assert(((const double *)tk_data(pin))[n - 1] == 0.5);
    TK_RELEASE(pin, dev, dev2, host);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("copy", "copy");
    tcase_add_loop_test(tc, copy_contiguous_roundtrip, 0, 2 * (NBUILTIN + NUSER));
    TK_ADD(tc, path_strings, counts_start_at_zero, copy_sizes_and_ranks, copy_none, copy_wrapped,
           copy_strided_subviews, copy_layout_convert, copy_same_elem_size_other_dtype,
           copy_mismatch, async_ordering, copy_overlapping_views);
    tc = tk_case("copy", "fill");
    tcase_add_loop_test(tc, fill_every_dtype, 0, 2 * (NBUILTIN + NUSER));
    TK_ADD(tc, fill_subview, fill_bad_input);

    TK_ADD(tk_case("copy_cuda", "cuda"), cuda_paths);
    tk_require("copy_cuda", tk_need_cuda);
    return tk_run();
}
