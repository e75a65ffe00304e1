/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Copy paths between every pair of memory spaces of the backend under test: the path
 * px_deep_copy_query predicts, the one each form (blocking, asynchronous) takes and counts,
 * and the data after it, for contiguous views, differing layouts and strided subviews;
 * fills; sizes from none to a million elements. The serial run has HOST only; the CUDA run
 * HOST, HOST_PINNED and DEVICE(0). */
#include "common.h"

static px_space space_of(px_space_kind k)
{
    px_space s = {k, 0};
    return s;
}
/* The path of a copy between contiguous views of the same layout in spaces a and b. */
static px_copy_path flat_path(px_space a, px_space b)
{
    const bool ha = a.kind != PX_SPACE_DEVICE, hb = b.kind != PX_SPACE_DEVICE;
    if (ha && hb) return PX_COPY_HOST_MEMCPY;
    if (!ha && !hb) return PX_COPY_CUDA_D2D;
    const px_space h = ha ? a : b;
    return h.kind == PX_SPACE_HOST_PINNED ? PX_COPY_CUDA_DMA : PX_COPY_CUDA_STAGED;
}

/* The spaces of the backend under test: HOST only for serial. */
static int nspaces(void) { return tk_is_cuda() ? 3 : 1; }
/* ---- 1. every pair of spaces ------------------------------------------------------------- */

static const struct pair_spec {
    px_space_kind a, b;
    px_copy_path flat, strided;
} pairs[] = {
    /* host pairs first: the serial run has the first one only */
    {PX_SPACE_HOST, PX_SPACE_HOST, PX_COPY_HOST_MEMCPY, PX_COPY_HOST_STRIDED},
    {PX_SPACE_HOST, PX_SPACE_HOST_PINNED, PX_COPY_HOST_MEMCPY, PX_COPY_HOST_STRIDED},
    {PX_SPACE_HOST_PINNED, PX_SPACE_HOST, PX_COPY_HOST_MEMCPY, PX_COPY_HOST_STRIDED},
    {PX_SPACE_HOST_PINNED, PX_SPACE_HOST_PINNED, PX_COPY_HOST_MEMCPY, PX_COPY_HOST_STRIDED},
    {PX_SPACE_HOST_PINNED, PX_SPACE_DEVICE, PX_COPY_CUDA_DMA, PX_COPY_CUDA_STRIDED},
    {PX_SPACE_DEVICE, PX_SPACE_HOST_PINNED, PX_COPY_CUDA_DMA, PX_COPY_CUDA_STRIDED},
    {PX_SPACE_HOST, PX_SPACE_DEVICE, PX_COPY_CUDA_STAGED, PX_COPY_CUDA_STRIDED_STAGED},
    {PX_SPACE_DEVICE, PX_SPACE_HOST, PX_COPY_CUDA_STAGED, PX_COPY_CUDA_STRIDED_STAGED},
    {PX_SPACE_DEVICE, PX_SPACE_DEVICE, PX_COPY_CUDA_D2D, PX_COPY_CUDA_STRIDED},
};
#define NPAIRS ((int)(sizeof pairs / sizeof pairs[0]))

/* _i: pair x (blocking, asynchronous on the backend's instance). From a to b and back:
   contiguous (flat path); RIGHT <-> LEFT and strided subviews on either side and both
   (strided path); the data checked after every copy. */
START_TEST(pair_paths)
{
    const struct pair_spec *ps = &pairs[_i / 2];
    const px_space a = space_of(ps->a), b = space_of(ps->b);
    px_instance *in = _i % 2 ? tk_inst() : NULL;
    const uint64_t seed = 1000 + 64 * (uint64_t)_i;

    /* Contiguous, an odd count. */
    const int64_t n = 100003;
    px_view *A = tk_view1("A", a, PX_U32, n), *B = tk_view1("B", b, PX_U32, n);
    px_view *A2 = tk_view1("A2", a, PX_U32, n);
    tk_fill_random(A, seed);
    tk_fill_random(B, seed + 1);
    tk_fill_random(A2, seed + 2);
    TK_COPY(in, B, A, ps->flat);
    TK_SAME(B, A);
    TK_COPY(in, A2, B, ps->flat);
    TK_SAME(A2, A);

    /* Differing layouts, 12-byte elements: RIGHT in a, LEFT in b, and back. */
    const int64_t e[2] = {129, 65};
    px_view *AR = tk_view_random("AR", a, PX_USER, 12, PX_LAYOUT_RIGHT, 2, e, seed + 3);
    px_view *BL = tk_view_random("BL", b, PX_USER, 12, PX_LAYOUT_LEFT, 2, e, seed + 4);
    px_view *AR2 = tk_view_random("AR2", a, PX_USER, 12, PX_LAYOUT_RIGHT, 2, e, seed + 5);
    px_view *AL = tk_view_random("AL", a, PX_USER, 12, PX_LAYOUT_LEFT, 2, e, seed + 6);
    TK_COPY(in, BL, AR, ps->strided);
    TK_SAME(BL, AR);
    TK_COPY(in, AR2, BL, ps->strided);
    TK_SAME(AR2, AR);
    TK_COPY(in, AL, BL, ps->flat); /* LEFT to LEFT: one flat copy again */
    TK_SAME(AL, AR);

    /* Strided subviews: a block of a to contiguous b, contiguous a into a block of b, and
       a block of b into a block of a. Outside the blocks nothing changes. */
    const int64_t big[2] = {97, 83}, blk[2] = {87, 72};
    px_view *Abig = tk_view_random("Abig", a, PX_I64, 0, PX_LAYOUT_RIGHT, 2, big, seed + 7);
    px_view *Bbig = tk_view_random("Bbig", b, PX_I64, 0, PX_LAYOUT_RIGHT, 2, big, seed + 8);
    px_view *Zbig = tk_view_random("Zbig", a, PX_I64, 0, PX_LAYOUT_LEFT, 2, big, seed + 9);
    px_view *BC = tk_view_random("BC", b, PX_I64, 0, PX_LAYOUT_RIGHT, 2, blk, seed + 10);
    px_view *AC = tk_view_random("AC", a, PX_I64, 0, PX_LAYOUT_RIGHT, 2, blk, seed + 11);
    px_view *Asub = tk_sub2(Abig, 3, 90, 5, 77), *Bsub = tk_sub2(Bbig, 7, 94, 2, 74);
    px_view *Zsub = tk_sub2(Zbig, 10, 97, 11, 83);
    ck_assert(!tk_info(Asub).contiguous && !tk_info(Bsub).contiguous && !tk_info(Zsub).contiguous);
    TK_COPY(in, BC, Asub, ps->strided);
    TK_SAME(BC, Asub);
    px_view *Bsnap = tk_to_host(Bbig);
    TK_COPY(in, Bsub, AC, ps->strided);
    TK_BLOCK_IN(Bbig, Bsnap, AC, 7, 2);
    px_view *Zsnap = tk_to_host(Zbig);
    TK_COPY(in, Zsub, Bsub, ps->strided);
    TK_BLOCK_IN(Zbig, Zsnap, AC, 10, 11);

    TK_RELEASE(A, B, A2, AR, BL, AR2, AL, Abig, Bbig, Zbig, BC, AC, Asub, Bsub, Zsub, Bsnap, Zsnap);
}
END_TEST

/* _i: space (HOST, HOST_PINNED, DEVICE) x form. Whole view, a value of equal bytes, a
   strided and a contiguous subview (nothing else changes), 12-byte elements. */
START_TEST(fill_paths)
{
    const px_space s = space_of((px_space_kind)(_i / 2));
    px_instance *in = _i % 2 ? tk_inst() : NULL;
    const px_copy_path want = s.kind == PX_SPACE_DEVICE ? PX_COPY_CUDA_FILL : PX_COPY_HOST_FILL;
    tk_rng r = tk_rng_seed(2000 + (uint64_t)_i);

    const int64_t e[2] = {61, 47};
    px_view *V = tk_view_random("V", s, PX_I64, 0, PX_LAYOUT_RIGHT, 2, e, tk_next(&r));
    int64_t val = (int64_t)(tk_next(&r) | 1);
    TK_FILL(in, V, &val, want);
    TK_ALL_ARE(V, &val);
    const uint64_t same_bytes = 0xa5a5a5a5a5a5a5a5ull;
    TK_FILL(in, V, &same_bytes, want);
    TK_ALL_ARE(V, &same_bytes);

    px_view *snap = tk_to_host(V);
    px_view *cols = tk_sub2(V, 2, 50, 3, 40);
    ck_assert(!tk_info(cols).contiguous);
    int64_t v2 = (int64_t)(tk_next(&r) | 2);
    TK_FILL(in, cols, &v2, want);
    px_view *blk =
        tk_view_ex("blk", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, (const int64_t[]){48, 37}, 0);
    TK_OK(px_fill(blk, &v2, NULL));
    TK_BLOCK_IN(V, snap, blk, 2, 3);

    px_view *snap2 = tk_to_host(V);
    px_view *rows = tk_sub2(V, 10, 20, 0, 47);
    ck_assert(tk_info(rows).contiguous);
    int64_t v3 = (int64_t)(tk_next(&r) | 4);
    TK_FILL(in, rows, &v3, want);
    px_view *blk2 =
        tk_view_ex("blk2", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, (const int64_t[]){10, 47}, 0);
    TK_OK(px_fill(blk2, &v3, NULL));
    TK_BLOCK_IN(V, snap2, blk2, 10, 0);

    px_view *U = tk_view_random("U", s, PX_USER, 12, PX_LAYOUT_RIGHT, 1, (const int64_t[]){10007},
                                tk_next(&r));
    unsigned char v12[12];
    tk_random_bytes(&r, v12, sizeof v12);
    TK_FILL(in, U, v12, want);
    TK_ALL_ARE(U, v12);

    TK_RELEASE(V, snap, cols, blk, snap2, rows, blk2, U);
}
END_TEST

/* ---- sizes --------------------------------------------------------------------------------- */

/* _i: form. Every pair of the backend's spaces: no element is NONE (copy and fill), one
   element and 1000003 elements take the flat path and arrive. */
START_TEST(sizes_every_pair)
{
    px_instance *in = _i ? tk_inst() : NULL;
    const int64_t zero = 0;
    for (int i = 0; i < nspaces(); ++i)
        for (int j = 0; j < nspaces(); ++j) {
            const px_space a = space_of((px_space_kind)i), b = space_of((px_space_kind)j);
            const uint64_t seed = 3000 + 100 * (uint64_t)(i * 3 + j) + 10 * (uint64_t)_i;
            px_view *ea = tk_view1("ea", a, PX_U64, zero), *eb = tk_view1("eb", b, PX_U64, zero);
            TK_COPY(in, eb, ea, PX_COPY_NONE);
            TK_COPY(in, ea, eb, PX_COPY_NONE);
            const uint64_t v = 0x1234567890abcdefull;
            TK_FILL(in, eb, &v, PX_COPY_NONE);
            /* one element, and an odd count of bytes */
            px_view *oa = tk_view1("oa", a, PX_U64, 1), *ob = tk_view1("ob", b, PX_U64, 1);
            px_view *oa2 = tk_view1("oa2", a, PX_U64, 1);
            tk_fill_random(oa, seed + 1);
            tk_fill_random(ob, seed + 2);
            tk_fill_random(oa2, seed + 3);
            TK_COPY(in, ob, oa, flat_path(a, b));
            TK_COPY(in, oa2, ob, flat_path(b, a));
            TK_SAME(oa2, oa);
            const int64_t odd = 1000003;
            px_view *la = tk_view1("la", a, PX_U8, odd), *lb = tk_view1("lb", b, PX_U8, odd);
            px_view *la2 = tk_view1("la2", a, PX_U8, odd);
            tk_fill_random(la, seed + 4);
            tk_fill_random(lb, seed + 5);
            tk_fill_random(la2, seed + 6);
            TK_COPY(in, lb, la, flat_path(a, b));
            TK_SAME(lb, la);
            TK_COPY(in, la2, lb, flat_path(b, a));
            TK_SAME(la2, la);
            TK_RELEASE(ea, eb, oa, ob, oa2, la, lb, la2);
        }
}
END_TEST


int main(void)
{
    const int npairs = tk_is_cuda() ? NPAIRS : 1;
    TCase *tc = tk_case("paths_pairs", "pairs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, pair_paths, 0, 2 * npairs);
    tcase_add_loop_test(tc, fill_paths, 0, 2 * nspaces());
    tcase_add_loop_test(tc, sizes_every_pair, 0, 2);
    return tk_run();
}
