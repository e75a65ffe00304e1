/* Copy paths between every pair of memory spaces: the path px_deep_copy_query predicts, the
 * one each form takes and counts, and the data after it; fills; sizes from 0 to over 4 GiB;
 * misaligned wrapped memory; what px_pointer_space says and px_host_register changes;
 * the staging configuration; stream capture; ordering of staged copies on one instance;
 * staged and DMA copies from several host threads at once.
 *
 * The serial run has the cases of HOST memory (paths, fills, sizes, misaligned wrapping,
 * configuration limits, bad input); the CUDA run has every case, over HOST, HOST_PINNED
 * and DEVICE(0). Built with TK_HAVE_CUDA (and CUDA's runtime) when CUDA is compiled in. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

#ifdef TK_HAVE_CUDA
#  include <cuda_runtime_api.h>

#  include "portex/cuda.h"

#  define CU_OK(expr)                                                                      \
      do {                                                                                 \
          cudaError_t cu_e_ = (expr);                                                      \
          TK_ASSERT(cu_e_ == cudaSuccess, "%s: %s", #expr, cudaGetErrorString(cu_e_));     \
      } while (0)
#endif

/* ---- views ------------------------------------------------------------------------------ */

static px_space space_of(px_space_kind k)
{
    px_space s = {k, 0};
    return s;
}

static px_view *mk(const char *label, px_space sp, px_dtype dt, size_t es, px_layout lay, int rank,
                   const int64_t *ext, unsigned flags)
{
    px_view_desc d = tk_desc(label, sp, dt, rank, ext);
    d.elem_size = dt == PX_USER ? es : 0;
    d.layout = lay;
    d.flags = flags;
    px_view *v = NULL;
    TK_OK(px_view_create(&v, &d));
    ck_assert_ptr_nonnull(v);
    return v;
}

static px_view *mk1(const char *label, px_space sp, px_dtype dt, size_t es, int64_t n)
{
    return mk(label, sp, dt, es, PX_LAYOUT_RIGHT, 1, &n, 0);
}

static px_view *wrap(const char *label, px_space sp, px_dtype dt, size_t es, px_layout lay,
                     int rank, const int64_t *ext, void *data)
{
    px_view_desc d = tk_desc(label, sp, dt, rank, ext);
    d.elem_size = dt == PX_USER ? es : 0;
    d.layout = lay;
    px_view *v = NULL;
    TK_OK(px_view_wrap(&v, &d, data));
    ck_assert_ptr_nonnull(v);
    return v;
}

static px_view *sub2(px_view *v, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
    px_slice sl[2] = {px_slice_range(r0, r1), px_slice_range(c0, c1)};
    px_view *s = NULL;
    TK_OK(px_view_subview(&s, v, sl, 2));
    return s;
}

static void release_all(px_view **v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (v[i]) TK_OK(px_view_release(&v[i]));
}
#define RELEASE(...)                                                                       \
    do {                                                                                   \
        px_view *rel_[] = {__VA_ARGS__};                                                   \
        release_all(rel_, sizeof rel_ / sizeof rel_[0]);                                   \
    } while (0)

static bool on_host(const px_view *v) { return tk_info(v).space.kind != PX_SPACE_DEVICE; }

/* Address of element number `flat` (in LAYOUT_RIGHT order of the extents) of a view. */
static unsigned char *at(const px_view_info *in, int64_t flat)
{
    int64_t off = 0;
    for (int d = in->rank - 1; d >= 0; --d) {
        const int64_t e = in->extent[d];
        off += (flat % e) * in->stride[d];
        flat /= e;
    }
    return (unsigned char *)in->data + off * (int64_t)in->elem_size;
}

/* Random bytes in every element of a HOST or HOST_PINNED view (any strides). */
static void randomize(px_view *v, uint64_t seed)
{
    px_view_info in = tk_info(v);
    tk_rng r = tk_rng_seed(seed);
    if (in.contiguous) {
        tk_random_bytes(&r, in.data, in.bytes);
        return;
    }
    for (int64_t i = 0; i < in.size; ++i) tk_random_bytes(&r, at(&in, i), in.elem_size);
}

/* Random contents in a view of any space (a DEVICE view gets them through a HOST view). */
static void fill_random(px_view *v, uint64_t seed)
{
    if (on_host(v)) {
        randomize(v, seed);
        return;
    }
    px_view *h = NULL;
    TK_OK(px_view_create_mirror(&h, px_host(), v));
    randomize(h, seed);
    TK_OK(px_deep_copy(v, h, NULL));
    TK_OK(px_view_release(&h));
}

/* v itself (one more reference) when the host can read it, else a HOST copy. */
static px_view *readable(px_view *v)
{
    if (on_host(v)) {
        TK_OK(px_view_retain(v));
        return v;
    }
    return tk_to_host(v);
}

/* Two host-readable views hold the same elements. */
static void same_host(const px_view *a, const px_view *b, int line)
{
    px_view_info ia = tk_info(a), ib = tk_info(b);
    TK_ASSERT(ia.rank == ib.rank && ia.elem_size == ib.elem_size && ia.size == ib.size,
              "line %d: '%s' and '%s' differ in shape", line, ia.label, ib.label);
    for (int d = 0; d < ia.rank; ++d)
        TK_ASSERT(ia.extent[d] == ib.extent[d], "line %d: extent %d differs", line, d);
    bool flat = ia.contiguous && ib.contiguous;
    for (int d = 0; d < ia.rank && flat; ++d)
        if (ia.extent[d] > 1 && ia.stride[d] != ib.stride[d]) flat = false;
    if (flat && memcmp(ia.data, ib.data, ia.bytes) == 0) return;
    for (int64_t i = 0; i < ia.size; ++i)
        TK_ASSERT(memcmp(at(&ia, i), at(&ib, i), ia.elem_size) == 0,
                  "line %d: element %lld of '%s' and '%s' differs (of %lld)", line, (long long)i,
                  ia.label, ib.label, (long long)ia.size);
}

/* Views of any spaces hold the same elements. */
static void same_any(px_view *a, px_view *b, int line)
{
    px_view *ha = readable(a), *hb = readable(b);
    same_host(ha, hb, line);
    RELEASE(ha, hb);
}
#define SAME(a, b) same_any((a), (b), __LINE__)

/* A 2-D view `big` (any space) holds `block` at (r0, c0) and `before` everywhere else. */
static void block_in(px_view *big, px_view *before, px_view *block, int64_t r0, int64_t c0, int line)
{
    px_view *hb = readable(big), *hs = readable(before), *hk = readable(block);
    px_view_info ib = tk_info(hb), is = tk_info(hs), ik = tk_info(hk);
    const size_t es = ib.elem_size;
    for (int64_t i = 0; i < ib.extent[0]; ++i)
        for (int64_t j = 0; j < ib.extent[1]; ++j) {
            const bool in = i >= r0 && i < r0 + ik.extent[0] && j >= c0 && j < c0 + ik.extent[1];
            const unsigned char *got = at(&ib, i * ib.extent[1] + j);
            const unsigned char *want = in ? at(&ik, (i - r0) * ik.extent[1] + (j - c0))
                                           : at(&is, i * is.extent[1] + j);
            TK_ASSERT(memcmp(got, want, es) == 0, "line %d: (%lld,%lld) %s the block is wrong",
                      line, (long long)i, (long long)j, in ? "inside" : "outside");
        }
    RELEASE(hb, hs, hk);
}
#define BLOCK_IN(big, before, block, r0, c0) block_in((big), (before), (block), (r0), (c0), __LINE__)

/* ---- paths and counters ----------------------------------------------------------------- */

static void counts(uint64_t c[PX_COPY_PATH_COUNT]) { TK_OK(px_copy_path_counts(c)); }

/* Exactly `times` more of path `p` since `before`, nothing else. */
static void counted(const uint64_t *before, px_copy_path p, uint64_t times, int line)
{
    uint64_t after[PX_COPY_PATH_COUNT];
    counts(after);
    for (int k = 0; k < PX_COPY_PATH_COUNT; ++k) {
        const uint64_t want = before[k] + ((int)p == k ? times : 0);
        TK_ASSERT(after[k] == want, "line %d: count of %s went %llu -> %llu, expected %llu", line,
                  px_copy_path_string((px_copy_path)k), (unsigned long long)before[k],
                  (unsigned long long)after[k], (unsigned long long)want);
    }
}

/* The query says `want`, the copy (blocking with inst NULL, else asynchronous on inst and
   then a fence) takes and reports `want`, and only its counter goes up, by one. */
static void xfer(px_instance *inst, px_view *dst, px_view *src, px_copy_path want, int line)
{
    px_copy_path q = PX_COPY_PATH_COUNT, p = PX_COPY_PATH_COUNT;
    TK_OK(px_deep_copy_query(dst, src, &q));
    TK_ASSERT(q == want, "line %d: query of '%s' <- '%s' says %s, expected %s", line,
              tk_info(dst).label, tk_info(src).label, px_copy_path_string(q),
              px_copy_path_string(want));
    uint64_t before[PX_COPY_PATH_COUNT];
    counts(before);
    if (inst) {
        TK_OK(px_deep_copy_async(inst, dst, src, &p));
        TK_OK(px_instance_fence(inst));
    } else {
        TK_OK(px_deep_copy(dst, src, &p));
    }
    TK_ASSERT(p == want, "line %d: copy '%s' <- '%s' took %s, expected %s", line,
              tk_info(dst).label, tk_info(src).label, px_copy_path_string(p),
              px_copy_path_string(want));
    counted(before, want, 1, line);
}
#define XFER(inst, dst, src, want) xfer((inst), (dst), (src), (want), __LINE__)

/* As xfer for a fill of `value`. */
static void fill(px_instance *inst, px_view *dst, const void *value, px_copy_path want, int line)
{
    uint64_t before[PX_COPY_PATH_COUNT];
    counts(before);
    px_copy_path p = PX_COPY_PATH_COUNT;
    if (inst) {
        TK_OK(px_fill_async(inst, dst, value, &p));
        TK_OK(px_instance_fence(inst));
    } else {
        TK_OK(px_fill(dst, value, &p));
    }
    TK_ASSERT(p == want, "line %d: fill of '%s' took %s, expected %s", line, tk_info(dst).label,
              px_copy_path_string(p), px_copy_path_string(want));
    counted(before, want, 1, line);
}
#define FILL(inst, dst, value, want) fill((inst), (dst), (value), (want), __LINE__)

/* Every element of v (any space) is `value`. */
static void all_are(px_view *v, const void *value, int line)
{
    px_view *h = readable(v);
    px_view_info in = tk_info(h);
    for (int64_t i = 0; i < in.size; ++i)
        TK_ASSERT(memcmp(at(&in, i), value, in.elem_size) == 0, "line %d: element %lld of '%s'",
                  line, (long long)i, in.label);
    RELEASE(h);
}
#define ALL_ARE(v, value) all_are((v), (value), __LINE__)

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

/* ---- fixture: the staging configuration is global; every test leaves it as it found it -- */

static px_staging_config saved_cfg;
static bool saved_cfg_ok;

static void paths_setup(void)
{
    tk_setup();
    saved_cfg_ok = px_staging_get(&saved_cfg) == PX_OK;
    px_clear_error();
}

static void paths_teardown(void)
{
    if (saved_cfg_ok) {
        TK_OK(px_fence_all());
        TK_OK(px_staging_set(&saved_cfg));
    }
    tk_teardown();
}

static TCase *paths_tcase(const char *name, int timeout)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, paths_setup, paths_teardown);
    tcase_set_timeout(tc, timeout);
    return tc;
}

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
    px_view *A = mk1("A", a, PX_U32, 0, n), *B = mk1("B", b, PX_U32, 0, n);
    px_view *A2 = mk1("A2", a, PX_U32, 0, n);
    fill_random(A, seed);
    fill_random(B, seed + 1);
    fill_random(A2, seed + 2);
    XFER(in, B, A, ps->flat);
    SAME(B, A);
    XFER(in, A2, B, ps->flat);
    SAME(A2, A);

    /* Differing layouts, 12-byte elements: RIGHT in a, LEFT in b, and back. */
    const int64_t e[2] = {129, 65};
    px_view *AR = mk("AR", a, PX_USER, 12, PX_LAYOUT_RIGHT, 2, e, 0);
    px_view *BL = mk("BL", b, PX_USER, 12, PX_LAYOUT_LEFT, 2, e, 0);
    px_view *AR2 = mk("AR2", a, PX_USER, 12, PX_LAYOUT_RIGHT, 2, e, 0);
    px_view *AL = mk("AL", a, PX_USER, 12, PX_LAYOUT_LEFT, 2, e, 0);
    fill_random(AR, seed + 3);
    fill_random(BL, seed + 4);
    fill_random(AR2, seed + 5);
    fill_random(AL, seed + 6);
    XFER(in, BL, AR, ps->strided);
    SAME(BL, AR);
    XFER(in, AR2, BL, ps->strided);
    SAME(AR2, AR);
    XFER(in, AL, BL, ps->flat); /* LEFT to LEFT: one flat copy again */
    SAME(AL, AR);

    /* Strided subviews: a block of a to contiguous b, contiguous a into a block of b, and
       a block of b into a block of a. Outside the blocks nothing changes. */
    const int64_t big[2] = {97, 83}, blk[2] = {87, 72};
    px_view *Abig = mk("Abig", a, PX_I64, 0, PX_LAYOUT_RIGHT, 2, big, 0);
    px_view *Bbig = mk("Bbig", b, PX_I64, 0, PX_LAYOUT_RIGHT, 2, big, 0);
    px_view *Zbig = mk("Zbig", a, PX_I64, 0, PX_LAYOUT_LEFT, 2, big, 0);
    px_view *BC = mk("BC", b, PX_I64, 0, PX_LAYOUT_RIGHT, 2, blk, 0);
    px_view *AC = mk("AC", a, PX_I64, 0, PX_LAYOUT_RIGHT, 2, blk, 0);
    fill_random(Abig, seed + 7);
    fill_random(Bbig, seed + 8);
    fill_random(Zbig, seed + 9);
    fill_random(BC, seed + 10);
    fill_random(AC, seed + 11);
    px_view *Asub = sub2(Abig, 3, 90, 5, 77), *Bsub = sub2(Bbig, 7, 94, 2, 74);
    px_view *Zsub = sub2(Zbig, 10, 97, 11, 83);
    ck_assert(!tk_info(Asub).contiguous && !tk_info(Bsub).contiguous && !tk_info(Zsub).contiguous);
    XFER(in, BC, Asub, ps->strided);
    SAME(BC, Asub);
    px_view *Bsnap = tk_to_host(Bbig);
    XFER(in, Bsub, AC, ps->strided);
    BLOCK_IN(Bbig, Bsnap, AC, 7, 2);
    px_view *Zsnap = tk_to_host(Zbig);
    XFER(in, Zsub, Bsub, ps->strided);
    BLOCK_IN(Zbig, Zsnap, AC, 10, 11);

    RELEASE(A, B, A2, AR, BL, AR2, AL, Abig, Bbig, Zbig, BC, AC, Asub, Bsub, Zsub, Bsnap, Zsnap);
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
    px_view *V = mk("V", s, PX_I64, 0, PX_LAYOUT_RIGHT, 2, e, 0);
    fill_random(V, tk_next(&r));
    int64_t val = (int64_t)(tk_next(&r) | 1);
    FILL(in, V, &val, want);
    ALL_ARE(V, &val);
    const uint64_t same_bytes = 0xa5a5a5a5a5a5a5a5ull;
    FILL(in, V, &same_bytes, want);
    ALL_ARE(V, &same_bytes);

    fill_random(V, tk_next(&r));
    px_view *snap = tk_to_host(V);
    px_view *cols = sub2(V, 2, 50, 3, 40);
    ck_assert(!tk_info(cols).contiguous);
    int64_t v2 = (int64_t)(tk_next(&r) | 2);
    FILL(in, cols, &v2, want);
    px_view *blk = mk("blk", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, (const int64_t[]){48, 37}, 0);
    TK_OK(px_fill(blk, &v2, NULL));
    BLOCK_IN(V, snap, blk, 2, 3);

    px_view *snap2 = tk_to_host(V);
    px_view *rows = sub2(V, 10, 20, 0, 47);
    ck_assert(tk_info(rows).contiguous);
    int64_t v3 = (int64_t)(tk_next(&r) | 4);
    FILL(in, rows, &v3, want);
    px_view *blk2 = mk("blk2", px_host(), PX_I64, 0, PX_LAYOUT_RIGHT, 2, (const int64_t[]){10, 47}, 0);
    TK_OK(px_fill(blk2, &v3, NULL));
    BLOCK_IN(V, snap2, blk2, 10, 0);

    px_view *U = mk1("U", s, PX_USER, 12, 10007);
    fill_random(U, tk_next(&r));
    unsigned char v12[12];
    tk_random_bytes(&r, v12, sizeof v12);
    FILL(in, U, v12, want);
    ALL_ARE(U, v12);

    RELEASE(V, snap, cols, blk, snap2, rows, blk2, U);
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
            px_view *ea = mk1("ea", a, PX_U64, 0, zero), *eb = mk1("eb", b, PX_U64, 0, zero);
            XFER(in, eb, ea, PX_COPY_NONE);
            XFER(in, ea, eb, PX_COPY_NONE);
            const uint64_t v = 0x1234567890abcdefull;
            FILL(in, eb, &v, PX_COPY_NONE);
            /* one element, and an odd count of bytes */
            px_view *oa = mk1("oa", a, PX_U64, 0, 1), *ob = mk1("ob", b, PX_U64, 0, 1);
            px_view *oa2 = mk1("oa2", a, PX_U64, 0, 1);
            fill_random(oa, seed + 1);
            fill_random(ob, seed + 2);
            fill_random(oa2, seed + 3);
            XFER(in, ob, oa, flat_path(a, b));
            XFER(in, oa2, ob, flat_path(b, a));
            SAME(oa2, oa);
            const int64_t odd = 1000003;
            px_view *la = mk1("la", a, PX_U8, 0, odd), *lb = mk1("lb", b, PX_U8, 0, odd);
            px_view *la2 = mk1("la2", a, PX_U8, 0, odd);
            fill_random(la, seed + 4);
            fill_random(lb, seed + 5);
            fill_random(la2, seed + 6);
            XFER(in, lb, la, flat_path(a, b));
            SAME(lb, la);
            XFER(in, la2, lb, flat_path(b, a));
            SAME(la2, la);
            RELEASE(ea, eb, oa, ob, oa2, la, lb, la2);
        }
}
END_TEST

/* ---- misaligned wrapped memory --------------------------------------------------------------- */

/* Bytes [0, off) and [off + len, total) of two buffers are equal. */
static void edges_kept(const unsigned char *now, const unsigned char *was, size_t off, size_t len,
                       size_t total, int line)
{
    TK_ASSERT(memcmp(now, was, off) == 0, "line %d: bytes before the view changed", line);
    TK_ASSERT(memcmp(now + off + len, was + off + len, total - off - len) == 0,
              "line %d: bytes after the view changed", line);
}
#define EDGES_KEPT(now, was, off, len, total) edges_kept((now), (was), (off), (len), (total), __LINE__)

static unsigned char *rand_buf(size_t n, uint64_t seed)
{
    unsigned char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    tk_rng r = tk_rng_seed(seed);
    tk_random_bytes(&r, p, n);
    return p;
}

static unsigned char *dup_buf(const unsigned char *p, size_t n)
{
    unsigned char *q = malloc(n);
    ck_assert_ptr_nonnull(q);
    memcpy(q, p, n);
    return q;
}

/* _i: form. Host side (both backends): U8 at malloc + 1 to malloc + 3, 8-byte elements at
   odd offsets into double buffers with differing layouts, a fill at an odd offset. */
START_TEST(misaligned_host)
{
    px_instance *in = _i ? tk_inst() : NULL;
    const size_t N = 1000003;
    unsigned char *a = rand_buf(N + 16, 4000 + (uint64_t)_i), *b = rand_buf(N + 16, 4100);
    unsigned char *b0 = dup_buf(b, N + 16);
    const int64_t n = (int64_t)N;
    px_view *wa = wrap("a+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, a + 1);
    px_view *wb = wrap("b+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, b + 3);
    XFER(in, wb, wa, PX_COPY_HOST_MEMCPY);
    ck_assert_int_eq(memcmp(b + 3, a + 1, N), 0);
    EDGES_KEPT(b, b0, 3, N, N + 16);

    /* 8-byte elements at double buffer + 5 (RIGHT) and + 3 (LEFT). */
    const int64_t e[2] = {59, 71};
    const size_t M = 59 * 71;
    double *da = malloc((M + 2) * sizeof(double)), *db = malloc((M + 2) * sizeof(double));
    ck_assert_ptr_nonnull(da);
    ck_assert_ptr_nonnull(db);
    tk_rng r = tk_rng_seed(4200 + (uint64_t)_i);
    tk_random_bytes(&r, da, (M + 2) * sizeof(double));
    tk_random_bytes(&r, db, (M + 2) * sizeof(double));
    unsigned char *db0 = dup_buf((unsigned char *)db, (M + 2) * sizeof(double));
    px_view *ua = wrap("da+5", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)da + 5);
    px_view *ub = wrap("db+3", px_host(), PX_USER, 8, PX_LAYOUT_LEFT, 2, e, (char *)db + 3);
    XFER(in, ub, ua, PX_COPY_HOST_STRIDED);
    SAME(ub, ua);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * sizeof(double));

    /* A fill of 8-byte elements at db + 3 leaves the bytes around it. */
    memcpy(db, db0, (M + 2) * sizeof(double));
    const int64_t m = (int64_t)M;
    px_view *fb = wrap("fill db+3", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)db + 3);
    unsigned char v8[8];
    tk_random_bytes(&r, v8, 8);
    FILL(in, fb, v8, PX_COPY_HOST_FILL);
    ALL_ARE(fb, v8);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * sizeof(double));

    RELEASE(wa, wb, ua, ub, fb);
    free(a);
    free(b);
    free(b0);
    free(da);
    free(db);
    free(db0);
}
END_TEST

/* ---- staging configuration (both backends; the values need the CUDA backend compiled in) -- */

static bool staging_compiled(void)
{
    return px_exec_space_available(PX_EXEC_CUDA) != PX_ERR_UNSUPPORTED;
}

/* The value of a whole-number environment variable within [lo, hi], else dflt. */
static long long env_or(const char *name, long long lo, long long hi, long long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end = NULL;
    const long long x = strtoll(v, &end, 10);
    return (end && *end == '\0' && x >= lo && x <= hi) ? x : dflt;
}

static void cfg_is(const px_staging_config *want, int line)
{
    px_staging_config c;
    memset(&c, 0xff, sizeof c);
    TK_OK(px_staging_get(&c));
    TK_ASSERT(c.chunk_bytes == want->chunk_bytes && c.buffers == want->buffers &&
                  c.threads == want->threads,
              "line %d: staging is {%zu, %d, %d}, expected {%zu, %d, %d}", line, c.chunk_bytes,
              c.buffers, c.threads, want->chunk_bytes, want->buffers, want->threads);
}
#define CFG_IS(...) cfg_is(&(px_staging_config){__VA_ARGS__}, __LINE__)

START_TEST(staging_config)
{
    px_staging_config c = {(size_t)1 << 20, 4, 2};
    /* Bad values are refused before anything else, with or without CUDA. */
    TK_FAIL(px_staging_set(NULL), PX_ERR_INVALID_ARGUMENT, "px_staging_set");
    TK_FAIL(px_staging_get(NULL), PX_ERR_INVALID_ARGUMENT, "px_staging_get");
    const px_staging_config bad[] = {
        {((size_t)64 << 10) - 1, 0, 0}, {1, 0, 0},  {0, 1, 0},  {0, -2, 0},
        {0, 0, 65},                     {0, 0, -1}, {4096, 1, 65},
    };
    static const char *const field[] = {"chunk_bytes", "chunk_bytes", "buffers", "buffers",
                                        "threads",     "threads",     "chunk_bytes"};
    const bool have = staging_compiled();
    px_staging_config before;
    if (have) TK_OK(px_staging_get(&before));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        TK_FAIL(px_staging_set(&bad[k]), PX_ERR_INVALID_ARGUMENT, "px_staging_set");
        TK_ERROR_HAS(field[k]);
        if (have) cfg_is(&before, __LINE__);
    }
    if (!have) {
        TK_FAIL(px_staging_get(&c), PX_ERR_UNSUPPORTED, "px_staging_get");
        TK_FAIL(px_staging_set(&c), PX_ERR_UNSUPPORTED, "px_staging_set");
        return;
    }

    /* Defaults, unless the environment overrides them. */
    const size_t chunk = (size_t)env_or("PX_STAGING_CHUNK_MB", 1, 1ll << 40, 16) << 20;
    const int buffers = (int)env_or("PX_STAGING_BUFFERS", 2, 65536, 16);
    const int threads = (int)env_or("PX_STAGING_THREADS", 1, 64, 8);
    CFG_IS(chunk, buffers, threads);

    /* Round trips; zeros keep the current value; the limits themselves are accepted. */
    TK_OK(px_staging_set(&(px_staging_config){(size_t)256 << 10, 3, 2}));
    CFG_IS((size_t)256 << 10, 3, 2);
    TK_OK(px_staging_set(&(px_staging_config){0, 0, 0}));
    CFG_IS((size_t)256 << 10, 3, 2);
    TK_OK(px_staging_set(&(px_staging_config){0, 5, 0}));
    CFG_IS((size_t)256 << 10, 5, 2);
    TK_OK(px_staging_set(&(px_staging_config){(size_t)3 << 20, 0, 7}));
    CFG_IS((size_t)3 << 20, 5, 7);
    TK_OK(px_staging_set(&(px_staging_config){(size_t)64 << 10, 2, 64}));
    CFG_IS((size_t)64 << 10, 2, 64);
    TK_OK(px_staging_set(&(px_staging_config){0, 0, 1}));
    CFG_IS((size_t)64 << 10, 2, 1);

    /* buffers x chunk_bytes must fit in size_t; nothing changes when it does not. */
    TK_FAIL(px_staging_set(&(px_staging_config){SIZE_MAX / 2, 4, 0}), PX_ERR_OVERFLOW,
            "px_staging_set");
    CFG_IS((size_t)64 << 10, 2, 1);

    TK_OK(px_staging_set(&(px_staging_config){chunk, buffers, threads}));
    CFG_IS(chunk, buffers, threads);
}
END_TEST

/* ---- pointer classification: bad input (both backends) -------------------------------------- */

START_TEST(pointer_bad_input)
{
    px_space s = px_device(3);
    unsigned char *m = rand_buf(4096, 5000);
    TK_OK(px_pointer_space(m, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    ck_assert_int_eq(s.device, 0);
    static int static_var = 42;
    s = px_device(1);
    TK_OK(px_pointer_space(&static_var, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);

    TK_FAIL(px_pointer_space(NULL, &s), PX_ERR_INVALID_ARGUMENT, "px_pointer_space");
    TK_FAIL(px_pointer_space(m, NULL), PX_ERR_INVALID_ARGUMENT, "px_pointer_space");
    TK_FAIL(px_host_register(NULL, 4096), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_register(m, 0), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_unregister(NULL), PX_ERR_INVALID_ARGUMENT, "px_host_unregister");
    if (px_exec_space_available(PX_EXEC_CUDA) != PX_OK) {
        /* No GPU (or no CUDA backend): nothing can be page-locked. */
        TK_FAIL2(px_host_register(m, 4096), PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED, "px_host_register");
        TK_FAIL2(px_host_unregister(m), PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED, "px_host_unregister");
    }

    /* Wrapping: NULL data only for a view without elements. */
    const int64_t n = 16, z = 0;
    px_view_desc d = tk_desc("w", px_host(), PX_U8, 1, &n);
    px_view *v = (px_view *)&s; /* any non-NULL value: a failed wrap must clear it */
    TK_FAIL(px_view_wrap(&v, &d, NULL), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    d.extent[0] = z;
    TK_OK(px_view_wrap(&v, &d, NULL));
    ck_assert_int_eq(tk_info(v).size, 0);
    TK_OK(px_view_release(&v));
    /* A view wrapped over malloc memory is HOST even when HOST_PINNED is asked for: the
       space follows the memory. */
    d.extent[0] = n;
    d.space = px_host_pinned();
    if (px_space_available(px_host_pinned()) == PX_OK) {
        TK_OK(px_view_wrap(&v, &d, m));
        ck_assert_int_eq(tk_info(v).space.kind, PX_SPACE_HOST);
        TK_OK(px_view_release(&v));
    }
    px_clear_error();
    free(m);
}
END_TEST

#ifdef TK_HAVE_CUDA

/* ---- CUDA: staged sizes --------------------------------------------------------------------- */

/* _i: form. Pageable <-> device: one byte, under the 64 KiB minimum chunk, under the
   configured chunk, and over the whole staging pool. */
START_TEST(staged_sizes)
{
    px_instance *in = _i ? tk_inst() : NULL;
    px_staging_config c;
    TK_OK(px_staging_get(&c));
    const size_t pool = c.chunk_bytes * (size_t)c.buffers;
    size_t big = (size_t)100 << 20;
    if (big <= pool) big = pool + ((size_t)1 << 20);
    const size_t sizes[] = {1, 1000, ((size_t)64 << 10) - 1, c.chunk_bytes / 2 + 3, big + 12345};
    ck_assert_uint_lt(sizes[3], c.chunk_bytes);
    ck_assert_uint_gt(sizes[4], pool);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        const int64_t n = (int64_t)sizes[k];
        px_view *h = mk("h", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        px_view *d = mk("d", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        px_view *h2 = mk("h2", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        randomize(h, 6000 + k + 10 * (uint64_t)_i);
        randomize(h2, 6100 + k);
        XFER(in, d, h, PX_COPY_CUDA_STAGED);
        XFER(in, h2, d, PX_COPY_CUDA_STAGED);
        SAME(h2, h);
        RELEASE(h, d, h2);
    }
}
END_TEST

/* ---- CUDA: misaligned wrapped memory ------------------------------------------------------- */

/* _i: form. Wrapped pageable, pinned and device memory at odd addresses, to and from the
   device: contiguous (STAGED, DMA, D2D), differing layouts (STRIDED_STAGED, STRIDED), and a
   device fill of 8-byte elements at an odd address. */
START_TEST(misaligned_device)
{
    px_instance *in = _i ? tk_inst() : NULL;
    const size_t N = 1000003;
    const int64_t n = (int64_t)N;
    const uint64_t seed = 7000 + 100 * (uint64_t)_i;
    unsigned char *a = rand_buf(N + 16, seed), *b = rand_buf(N + 16, seed + 1);
    unsigned char *b0 = dup_buf(b, N + 16);

    /* Pageable U8 at +1 and +3. */
    px_view *wa = wrap("a+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, a + 1);
    px_view *wb = wrap("b+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, b + 3);
    px_view *d = mk1("d", px_device(0), PX_U8, 0, n);
    XFER(in, d, wa, PX_COPY_CUDA_STAGED);
    XFER(in, wb, d, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp(b + 3, a + 1, N), 0);
    EDGES_KEPT(b, b0, 3, N, N + 16);

    /* Doubles at +5 and +3 as 8-byte USER elements and as bytes. */
    const size_t M = 59 * 71;
    const int64_t m = (int64_t)M, m8 = (int64_t)(8 * M);
    const int64_t e[2] = {59, 71};
    double *da = malloc((M + 2) * 8), *db = malloc((M + 2) * 8);
    ck_assert_ptr_nonnull(da);
    ck_assert_ptr_nonnull(db);
    tk_rng r = tk_rng_seed(seed + 2);
    tk_random_bytes(&r, da, (M + 2) * 8);
    tk_random_bytes(&r, db, (M + 2) * 8);
    unsigned char *db0 = dup_buf((unsigned char *)db, (M + 2) * 8);
    px_view *ua = wrap("da+5", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)da + 5);
    px_view *ub = wrap("db+3", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)db + 3);
    px_view *du = mk1("du", px_device(0), PX_USER, 8, m);
    XFER(in, du, ua, PX_COPY_CUDA_STAGED);
    XFER(in, ub, du, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp((char *)db + 3, (char *)da + 5, M * 8), 0);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);
    memcpy(db, db0, (M + 2) * 8);
    px_view *ba = wrap("da+5 bytes", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &m8, (char *)da + 5);
    px_view *bb = wrap("db+3 bytes", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &m8, (char *)db + 3);
    px_view *db8 = mk1("db8", px_device(0), PX_U8, 0, m8);
    XFER(in, db8, ba, PX_COPY_CUDA_STAGED);
    XFER(in, bb, db8, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp((char *)db + 3, (char *)da + 5, M * 8), 0);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);

    /* Differing layouts: pageable RIGHT at +5 -> device LEFT -> pageable RIGHT at +3. */
    memcpy(db, db0, (M + 2) * 8);
    px_view *ra = wrap("da+5 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)da + 5);
    px_view *rb = wrap("db+3 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)db + 3);
    px_view *dl = mk("dl", px_device(0), PX_USER, 8, PX_LAYOUT_LEFT, 2, e, 0);
    XFER(in, dl, ra, PX_COPY_CUDA_STRIDED_STAGED);
    SAME(dl, ra);
    XFER(in, rb, dl, PX_COPY_CUDA_STRIDED_STAGED);
    SAME(rb, ra);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);

    /* Pinned memory at +1 and +3 (wrapped as HOST: the view takes HOST_PINNED): DMA; and
       8-byte elements at pinned + 5 with differing layouts: the copy kernel. */
    const int64_t np = n + 16;
    px_view *P = mk1("P", px_host_pinned(), PX_U8, 0, np), *P2 = mk1("P2", px_host_pinned(), PX_U8, 0, np);
    randomize(P, seed + 3);
    randomize(P2, seed + 4);
    unsigned char *p = tk_data(P), *p2 = tk_data(P2);
    unsigned char *p20 = dup_buf(p2, N + 16);
    px_view *wp = wrap("P+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, p + 1);
    px_view *wp2 = wrap("P2+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, p2 + 3);
    ck_assert_int_eq(tk_info(wp).space.kind, PX_SPACE_HOST_PINNED);
    ck_assert_int_eq(tk_info(wp2).space.kind, PX_SPACE_HOST_PINNED);
    XFER(in, d, wp, PX_COPY_CUDA_DMA);
    XFER(in, wp2, d, PX_COPY_CUDA_DMA);
    ck_assert_int_eq(memcmp(p2 + 3, p + 1, N), 0);
    EDGES_KEPT(p2, p20, 3, N, N + 16);
    memcpy(p2, p20, N + 16);
    px_view *pr = wrap("P+5 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, p + 5);
    px_view *pr2 = wrap("P2+3 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, p2 + 3);
    XFER(in, dl, pr, PX_COPY_CUDA_STRIDED);
    SAME(dl, pr);
    XFER(in, pr2, dl, PX_COPY_CUDA_STRIDED);
    SAME(pr2, pr);
    EDGES_KEPT(p2, p20, 3, M * 8, N + 16);

    /* Device memory at +3 and +1: staged in, D2D across, and a fill of 8-byte elements at
       +3 that leaves the bytes around it. */
    px_view *D = mk1("D", px_device(0), PX_U8, 0, np), *D2 = mk1("D2", px_device(0), PX_U8, 0, np);
    fill_random(D, seed + 5);
    fill_random(D2, seed + 6);
    px_view *D0 = tk_to_host(D), *D20 = tk_to_host(D2);
    unsigned char *dd = tk_info(D).data, *dd2 = tk_info(D2).data;
    px_view *wd = wrap("D+3", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, dd + 3);
    px_view *wd2 = wrap("D2+1", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, dd2 + 1);
    ck_assert_int_eq(tk_info(wd).space.kind, PX_SPACE_DEVICE);
    XFER(in, wd, wa, PX_COPY_CUDA_STAGED);
    XFER(in, wd2, wd, PX_COPY_CUDA_D2D);
    px_view *hD = tk_to_host(D), *hD2 = tk_to_host(D2);
    ck_assert_int_eq(memcmp((unsigned char *)tk_data(hD) + 3, a + 1, N), 0);
    ck_assert_int_eq(memcmp((unsigned char *)tk_data(hD2) + 1, a + 1, N), 0);
    EDGES_KEPT(tk_data(hD), tk_data(D0), 3, N, N + 16);
    EDGES_KEPT(tk_data(hD2), tk_data(D20), 1, N, N + 16);
    const int64_t nf = (int64_t)(N / 8);
    px_view *fd = wrap("D+3 fill", px_device(0), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &nf, dd + 3);
    unsigned char v8[8];
    tk_random_bytes(&r, v8, 8);
    FILL(in, fd, v8, PX_COPY_CUDA_FILL);
    px_view *hF = tk_to_host(D);
    const unsigned char *f = tk_data(hF);
    for (int64_t i = 0; i < nf; ++i)
        TK_ASSERT(memcmp(f + 3 + 8 * i, v8, 8) == 0, "filled element %lld", (long long)i);
    EDGES_KEPT(f, tk_data(hD), 3, (size_t)nf * 8, N + 16);

    RELEASE(wa, wb, d, ua, ub, du, ba, bb, db8, ra, rb, dl, P, P2, wp, wp2, pr, pr2, D, D2, D0,
            D20, wd, wd2, hD, hD2, fd, hF);
    free(a);
    free(b);
    free(b0);
    free(da);
    free(db);
    free(db0);
    free(p20);
}
END_TEST

/* ---- CUDA: over 4 GiB -------------------------------------------------------------------------- */

static size_t host_available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    return (size_t)kb << 10;
}

static uint64_t pattern(uint64_t i) { return ((i + 1) * 0x9e3779b97f4a7c15ull) ^ 0x5bd1e9955bd1e995ull; }

/* A view, or NULL (and the error cleared) when the memory is not there. */
static px_view *try_mk1(const char *label, px_space sp, int64_t n)
{
    px_view_desc d = tk_desc(label, sp, PX_U64, 1, &n);
    d.flags = PX_VIEW_NO_INIT;
    px_view *v = NULL;
    const px_status st = px_view_create(&v, &d);
    if (st == PX_ERR_OUT_OF_MEMORY) {
        px_clear_error();
        return NULL;
    }
    TK_OK(st);
    return v;
}

/* 4.5 GiB pageable -> device (staged, asynchronous) -> device (D2D) -> pageable (staged,
   blocking); a sample of positions checked, around 2 and 4 GiB, both ends, and 2^20
   random ones. Skipped where the memory is not there. */
START_TEST(copy_over_4gib)
{
    const int64_t n = ((int64_t)9 << 26) + 4099; /* 4.5 GiB of uint64 and some */
    const size_t bytes = (size_t)n * 8;
    size_t dfree = 0, dtotal = 0;
    CU_OK(cudaMemGetInfo(&dfree, &dtotal));
    const size_t hfree = host_available_bytes();
    if (dfree < 2 * bytes + ((size_t)1 << 30) || hfree < 2 * bytes + ((size_t)4 << 30)) {
        fprintf(stderr, "copy_over_4gib: skipped (%zu MiB free on the device, %zu MiB on the host)\n",
                dfree >> 20, hfree >> 20);
        return;
    }
    px_view *A = try_mk1("A 4.5G", px_host(), n), *B = try_mk1("B 4.5G", px_host(), n);
    px_view *D1 = try_mk1("D1 4.5G", px_device(0), n), *D2 = try_mk1("D2 4.5G", px_device(0), n);
    if (!A || !B || !D1 || !D2) {
        fprintf(stderr, "copy_over_4gib: skipped (an allocation of %zu bytes failed)\n", bytes);
        px_view *all[] = {A, B, D1, D2};
        release_all(all, 4);
        return;
    }
    uint64_t *a = tk_data(A), *b = tk_data(B);
    for (int64_t i = 0; i < n; ++i) a[i] = pattern((uint64_t)i);
    /* The positions checked, poisoned in B first. */
    enum { NRAND = 1 << 20, EDGE = 4096 };
    int64_t *pos = malloc(sizeof(int64_t) * (NRAND + 8 * EDGE));
    ck_assert_ptr_nonnull(pos);
    int64_t np = 0;
    const int64_t centers[] = {EDGE, (int64_t)1 << 28, (int64_t)1 << 29, n - EDGE};
    for (int c = 0; c < 4; ++c)
        for (int64_t k = -EDGE; k < EDGE; ++k) pos[np++] = centers[c] + k;
    tk_rng r = tk_rng_seed(8000);
    for (int k = 0; k < NRAND; ++k) pos[np++] = tk_int(&r, 0, n - 1);
    for (int64_t k = 0; k < np; ++k) b[pos[k]] = ~pattern((uint64_t)pos[k]);

    XFER(tk_inst(), D1, A, PX_COPY_CUDA_STAGED);
    XFER(NULL, D2, D1, PX_COPY_CUDA_D2D);
    XFER(NULL, B, D2, PX_COPY_CUDA_STAGED);
    for (int64_t k = 0; k < np; ++k)
        TK_ASSERT(b[pos[k]] == pattern((uint64_t)pos[k]), "element %lld (byte %lld) wrong",
                  (long long)pos[k], (long long)pos[k] * 8);
    free(pos);
    RELEASE(A, B, D1, D2);
}
END_TEST

/* ---- CUDA: pointer classification and registration ------------------------------------------ */

START_TEST(pointer_classification)
{
    px_space s;
    const int64_t n = 4099;
    px_view *pin = mk1("pin", px_host_pinned(), PX_U8, 0, n), *dev = mk1("dev", px_device(0), PX_U8, 0, n);
    unsigned char *pp = tk_data(pin), *dp = tk_info(dev).data;
    TK_OK(px_pointer_space(pp, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(pp + n - 1, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(dp, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_DEVICE);
    ck_assert_int_eq(s.device, 0);
    TK_OK(px_pointer_space(dp + 7, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_DEVICE);
    ck_assert_int_eq(s.device, 0);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess); /* no CUDA error left pending */

    /* Register a malloc'ed buffer: pinned, then pageable again. */
    const size_t bytes = ((size_t)3 << 20) + 5;
    const int64_t nb = (int64_t)bytes;
    unsigned char *buf = rand_buf(bytes, 9000), *orig = dup_buf(buf, bytes);
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    TK_OK(px_host_register(buf, bytes));
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    TK_OK(px_pointer_space(buf + bytes - 1, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST_PINNED);
    /* Already page-locked: registered, or allocated pinned. */
    TK_FAIL(px_host_register(buf, bytes), PX_ERR_INVALID_ARGUMENT, "px_host_register");
    TK_FAIL(px_host_register(pp, (size_t)n), PX_ERR_INVALID_ARGUMENT, "px_host_register");

    px_view *w = wrap("registered", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    ck_assert_int_eq(tk_info(w).space.kind, PX_SPACE_HOST_PINNED);
    ck_assert(!tk_info(w).managed);
    px_view *d = mk1("d", px_device(0), PX_U8, 0, nb);
    for (int form = 0; form < 2; ++form) {
        px_instance *in = form ? tk_inst() : NULL;
        XFER(in, d, w, PX_COPY_CUDA_DMA);
        randomize(w, 9001 + (uint64_t)form);
        XFER(in, w, d, PX_COPY_CUDA_DMA);
        ck_assert_int_eq(memcmp(buf, orig, bytes), 0);
    }
    TK_OK(px_view_release(&w));
    TK_OK(px_host_unregister(buf));
    TK_OK(px_pointer_space(buf, &s));
    ck_assert_int_eq(s.kind, PX_SPACE_HOST);
    TK_FAIL(px_host_unregister(buf), PX_ERR_INVALID_ARGUMENT, "px_host_unregister");
    /* Wrapped again: pageable, whichever host space is asked for. */
    px_view *w2 = wrap("unregistered", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    px_view *w3 = wrap("unregistered as pinned", px_host_pinned(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &nb, buf);
    ck_assert_int_eq(tk_info(w2).space.kind, PX_SPACE_HOST);
    ck_assert_int_eq(tk_info(w3).space.kind, PX_SPACE_HOST);
    fill_random(d, 9003);
    XFER(NULL, w2, d, PX_COPY_CUDA_STAGED);
    SAME(w2, d);
    randomize(w3, 9004);
    XFER(tk_inst(), d, w3, PX_COPY_CUDA_STAGED);
    SAME(d, w3);

    /* Device memory claimed as host, and host memory claimed as device, are refused. */
    px_view_desc wd = tk_desc("claims", px_host(), PX_U8, 1, &n);
    px_view *v = NULL;
    TK_FAIL(px_view_wrap(&v, &wd, dp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    TK_ERROR_HAS("DEVICE");
    wd.space = px_host_pinned();
    TK_FAIL(px_view_wrap(&v, &wd, dp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    wd.space = px_device(0);
    TK_FAIL(px_view_wrap(&v, &wd, buf), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    TK_FAIL(px_view_wrap(&v, &wd, pp), PX_ERR_INVALID_ARGUMENT, "px_view_wrap");
    ck_assert_ptr_null(v);
    TK_OK(px_view_wrap(&v, &wd, dp));
    ck_assert_int_eq(tk_info(v).space.kind, PX_SPACE_DEVICE);
    TK_OK(px_view_release(&v));

    RELEASE(pin, dev, d, w2, w3);
    free(buf);
    free(orig);
}
END_TEST

/* ---- CUDA: copies after the staging configuration changes ----------------------------------- */

START_TEST(staging_reconfigured)
{
    px_instance *in = tk_inst();
    const px_staging_config cfgs[] = {
        {(size_t)64 << 10, 2, 1},
        {(size_t)16 << 20, 4, 8},
    };
    size_t lib[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        TK_OK(px_staging_set(&cfgs[k]));
        cfg_is(&cfgs[k], __LINE__);
        /* Many chunks through few buffers, a copy of more than one chunk, and a small one. */
        const int64_t sizes[] = {((int64_t)5 << 20) + 12347, ((int64_t)40 << 20) + 1, 100001};
        for (int j = 0; j < 3; ++j) {
            px_view *h = mk1("h", px_host(), PX_U8, 0, sizes[j]), *d = mk1("d", px_device(0), PX_U8, 0, sizes[j]);
            px_view *h2 = mk1("h2", px_host(), PX_U8, 0, sizes[j]);
            randomize(h, 10000 + 10 * (uint64_t)k + (uint64_t)j);
            randomize(h2, 10100 + 10 * (uint64_t)k + (uint64_t)j);
            XFER(in, d, h, PX_COPY_CUDA_STAGED);
            XFER(NULL, h2, d, PX_COPY_CUDA_STAGED);
            SAME(h2, h);
            RELEASE(h, d, h2);
        }
        px_memory_stats ms;
        TK_OK(px_space_memory(px_host_pinned(), &ms));
        lib[k] = ms.library_bytes;
        TK_ASSERT(lib[k] >= cfgs[k].chunk_bytes * (size_t)cfgs[k].buffers,
                  "HOST_PINNED library_bytes %zu, less than the pool", lib[k]);
    }
    /* The pool was made again with the new shape: every buffer with its page of flags. */
    const size_t page = 4096;
    const size_t pool_growth = 4 * (((size_t)16 << 20) + page) - 2 * (((size_t)64 << 10) + page);
    TK_ASSERT(lib[1] - lib[0] == pool_growth, "pinned library bytes %zu -> %zu", lib[0], lib[1]);
}
END_TEST

/* ---- CUDA: capture ---------------------------------------------------------------------------- */

START_TEST(capture_refuses_pageable)
{
    px_instance *in = NULL;
    px_instance_desc idesc;
    memset(&idesc, 0, sizeof idesc);
    idesc.exec = PX_EXEC_CUDA;
    idesc.label = "captured";
    TK_OK(px_instance_create(&in, &idesc));
    cudaStream_t s = NULL;
    TK_OK(px_instance_cuda_stream(in, &s));

    const int64_t n = 262147;
    const int64_t e[2] = {509, 515};
    px_view *pa = mk1("pinA", px_host_pinned(), PX_U64, 0, n), *pb = mk1("pinB", px_host_pinned(), PX_U64, 0, n);
    px_view *dev = mk1("dev", px_device(0), PX_U64, 0, n), *host = mk1("host", px_host(), PX_U64, 0, n);
    px_view *hl = mk("hostL", px_host(), PX_U64, 0, PX_LAYOUT_LEFT, 2, e, 0);
    px_view *dr = mk("devR", px_device(0), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, 0);
    randomize(pa, 11000);
    randomize(pb, 11001);
    randomize(host, 11002);
    randomize(hl, 11003);
    px_view *pb0 = tk_to_host(pb);

    uint64_t before[PX_COPY_PATH_COUNT];
    counts(before);
    px_copy_path p = PX_COPY_PATH_COUNT;
    CU_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    /* Pageable memory: refused, naming the fix. */
    TK_FAIL(px_deep_copy_async(in, dev, host, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    TK_FAIL(px_deep_copy_async(in, host, dev, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    TK_FAIL(px_deep_copy_async(in, dr, hl, &p), PX_ERR_CAPTURE_PAGEABLE, "px_deep_copy_async");
    TK_ERROR_HAS("HOST_PINNED");
    /* Host paths cannot be held by a graph either, and touch nothing. */
    TK_FAIL(px_deep_copy_async(in, pb, pa, &p), PX_ERR_CAPTURING, "px_deep_copy_async");
    const uint64_t v = 0x0102030405060708ull;
    TK_FAIL(px_fill_async(in, pb, &v, &p), PX_ERR_CAPTURING, "px_fill_async");
    /* The query still answers. */
    TK_OK(px_deep_copy_query(dev, host, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_STAGED);
    /* Pinned memory is captured. */
    TK_OK(px_deep_copy_async(in, dev, pa, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_DMA);
    TK_OK(px_deep_copy_async(in, pb, dev, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_DMA);
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    CU_OK(cudaStreamIsCapturing(s, &cs));
    ck_assert_int_eq(cs, cudaStreamCaptureStatusActive); /* the refusals left it intact */
    cudaGraph_t g = NULL;
    CU_OK(cudaStreamEndCapture(s, &g));
    ck_assert_ptr_nonnull(g);
    counted(before, PX_COPY_CUDA_DMA, 2, __LINE__);
    SAME(pb, pb0); /* captured, not run */

    cudaGraphExec_t ge = NULL;
    CU_OK(cudaGraphInstantiate(&ge, g, 0));
    CU_OK(cudaGraphLaunch(ge, s));
    TK_OK(px_instance_fence(in));
    SAME(pb, pa);
    /* Launched again, the graph reads the pinned memory as it is then. */
    randomize(pa, 11004);
    CU_OK(cudaGraphLaunch(ge, s));
    TK_OK(px_instance_fence(in));
    SAME(pb, pa);
    CU_OK(cudaGraphExecDestroy(ge));
    CU_OK(cudaGraphDestroy(g));

    /* The stream is usable as before: staged copies both ways. */
    px_view *host2 = mk1("host2", px_host(), PX_U64, 0, n);
    randomize(host2, 11005);
    XFER(in, dev, host, PX_COPY_CUDA_STAGED);
    XFER(in, host2, dev, PX_COPY_CUDA_STAGED);
    SAME(host2, host);
    XFER(in, dr, hl, PX_COPY_CUDA_STRIDED_STAGED);
    SAME(dr, hl);

    RELEASE(pa, pb, dev, host, hl, dr, pb0, host2);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* ---- CUDA: ordering of asynchronous staged copies ---------------------------------------------- */

/* A host function that holds a stream until released (or 10 s pass). */
typedef struct blocker {
    atomic_int release;
    atomic_int state; /* 0 not started, 1 holding, 2 released, 3 timed out */
} blocker;

static void CUDART_CB blocker_fn(void *arg)
{
    blocker *b = arg;
    atomic_store(&b->state, 1);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (atomic_load(&b->release)) {
            atomic_store(&b->state, 2);
            return;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 10) {
            atomic_store(&b->state, 3);
            return;
        }
        const struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
    }
}

START_TEST(staged_ordering)
{
    px_instance *in = NULL;
    px_instance_desc idesc;
    memset(&idesc, 0, sizeof idesc);
    idesc.exec = PX_EXEC_CUDA;
    idesc.label = "ordered";
    TK_OK(px_instance_create(&in, &idesc));
    px_copy_path p = PX_COPY_PATH_COUNT;
#define ASYNC_STAGED(dst, src)                                                             \
    do {                                                                                   \
        p = PX_COPY_PATH_COUNT;                                                            \
        TK_OK(px_deep_copy_async(in, (dst), (src), &p));                                   \
        ck_assert_int_eq(p, PX_COPY_CUDA_STAGED);                                          \
    } while (0)

    /* host A -> device -> host B, no fence in between. Sizes over the pool. */
    const int64_t R = 2053, C = 4099; /* 64 MiB and some of uint64 */
    const int64_t e[2] = {R, C};
    px_view *A = mk("A", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *A2 = mk("A2", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *B = mk("B", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *D = mk("D", px_device(0), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    randomize(A, 12000);
    randomize(A2, 12001);
    randomize(B, 12002);
    uint64_t before[PX_COPY_PATH_COUNT];
    counts(before);
    ASYNC_STAGED(D, A);
    ASYNC_STAGED(B, D);
    TK_OK(px_instance_fence(in));
    SAME(B, A);
    counted(before, PX_COPY_CUDA_STAGED, 2, __LINE__);

    /* Two copies into the same device view: the later one wins. */
    randomize(B, 12003);
    ASYNC_STAGED(D, A);
    ASYNC_STAGED(D, A2);
    ASYNC_STAGED(B, D);
    TK_OK(px_instance_fence(in));
    SAME(B, A2);

    /* Copy in, fill rows (contiguous) then columns (strided) on the device, copy out: each
       fill after the copy, the second over the first, the copy out after both. */
    randomize(B, 12004);
    const uint64_t v1 = 0x1111222233334444ull, v2 = 0x5555666677778888ull;
    px_view *rows = sub2(D, 100, 900, 0, C), *cols = sub2(D, 0, R, 1000, 1500);
    ASYNC_STAGED(D, A);
    TK_OK(px_fill_async(in, rows, &v1, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_FILL);
    TK_OK(px_fill_async(in, cols, &v2, &p));
    ck_assert_int_eq(p, PX_COPY_CUDA_FILL);
    ASYNC_STAGED(B, D);
    TK_OK(px_instance_fence(in));
    const uint64_t *a = tk_data(A), *b = tk_data(B);
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) {
            const uint64_t want = (j >= 1000 && j < 1500) ? v2 : (i >= 100 && i < 900) ? v1 : a[i * C + j];
            TK_ASSERT(b[i * C + j] == want, "(%lld,%lld) after copy, fills, copy", (long long)i,
                      (long long)j);
        }

    /* Queued behind work that has not run: the calls return at once, the destination is
       untouched until then, and the pool cannot be reshaped meanwhile. */
    {
        cudaStream_t s = NULL;
        TK_OK(px_instance_cuda_stream(in, &s));
        blocker bk;
        atomic_init(&bk.release, 0);
        atomic_init(&bk.state, 0);
        randomize(B, 12005);
        px_view *B0 = tk_to_host(B);
        CU_OK(cudaLaunchHostFunc(s, blocker_fn, &bk));
        ASYNC_STAGED(D, A2);
        ASYNC_STAGED(B, D);
        const int held = atomic_load(&bk.state);
        const px_status busy = px_staging_set(&(px_staging_config){0, 0, saved_cfg.threads == 1 ? 2 : 1});
        const bool b_untouched = memcmp(tk_data(B), tk_data(B0), tk_info(B).bytes) == 0;
        atomic_store(&bk.release, 1);
        TK_OK(px_instance_fence(in));
        TK_ASSERT(held == 0 || held == 1, "the staged copies waited for earlier work (state %d)", held);
        TK_ASSERT(busy == PX_ERR_BUSY, "px_staging_set with copies in flight returned %s",
                  px_status_name(busy));
        TK_ASSERT(b_untouched, "the destination was written before the instance's earlier work ran");
        ck_assert_int_eq(atomic_load(&bk.state), 2);
        cfg_is(&saved_cfg, __LINE__);
        SAME(B, A2);
        RELEASE(B0);
    }
#undef ASYNC_STAGED
    RELEASE(A, A2, B, D, rows, cols);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* ---- CUDA: host threads ---------------------------------------------------------------------- */

enum { NTHREADS = 4, TITERS = 16 };
#define TCAP (((int64_t)20 << 20) + 8192)

typedef struct worker {
    int id;
    uint64_t staged, dma;
    char err[512];
} worker;

#define W_FAIL(...)                                                                        \
    do {                                                                                   \
        int w_n_ = snprintf(w->err, sizeof w->err, "thread %d: ", w->id);                  \
        snprintf(w->err + w_n_, sizeof w->err - (size_t)w_n_, __VA_ARGS__);               \
        goto out;                                                                          \
    } while (0)
#define W_TRY(expr)                                                                        \
    do {                                                                                   \
        px_status w_st_ = (expr);                                                          \
        if (w_st_ != PX_OK) W_FAIL("%s: %s: %s", #expr, px_status_name(w_st_), px_last_error()); \
    } while (0)
#define W_COPY(blocking, dst, src, want, counter)                                          \
    do {                                                                                   \
        px_copy_path w_p_ = PX_COPY_PATH_COUNT;                                            \
        if (blocking)                                                                      \
            W_TRY(px_deep_copy((dst), (src), &w_p_));                                      \
        else                                                                               \
            W_TRY(px_deep_copy_async(in, (dst), (src), &w_p_));                            \
        if (w_p_ != (want))                                                                \
            W_FAIL("%s <- %s took %s, expected %s", #dst, #src, px_copy_path_string(w_p_),  \
                   px_copy_path_string(want));                                             \
        ++w->counter;                                                                      \
    } while (0)

static void *worker_main(void *arg)
{
    worker *w = arg;
    px_instance *in = NULL;
    px_view *src = NULL, *dst = NULL, *pin = NULL, *dev = NULL, *dev2 = NULL;
    px_view *s_src = NULL, *s_dst = NULL, *s_pin = NULL, *s_dev = NULL, *s_dev2 = NULL;
    px_instance_desc idesc;
    memset(&idesc, 0, sizeof idesc);
    idesc.exec = PX_EXEC_CUDA;
    idesc.label = "worker";
    W_TRY(px_instance_create(&in, &idesc));
    const int64_t cap = TCAP;
    px_view_desc d = tk_desc("src", px_host(), PX_U8, 1, &cap);
    d.flags = PX_VIEW_NO_INIT;
    W_TRY(px_view_create(&src, &d));
    d.label = "dst";
    W_TRY(px_view_create(&dst, &d));
    d.label = "pin";
    d.space = px_host_pinned();
    W_TRY(px_view_create(&pin, &d));
    d.label = "dev";
    d.space = px_device(0);
    W_TRY(px_view_create(&dev, &d));
    d.label = "dev2";
    W_TRY(px_view_create(&dev2, &d));
    tk_rng r = tk_rng_seed(13000 + (uint64_t)w->id);
    unsigned char *hs = NULL, *hd = NULL, *hp = NULL;
    px_view_info info;
    W_TRY(px_view_info_get(src, &info));
    hs = info.data;
    W_TRY(px_view_info_get(dst, &info));
    hd = info.data;
    W_TRY(px_view_info_get(pin, &info));
    hp = info.data;
    tk_random_bytes(&r, hs, (size_t)cap);
    tk_random_bytes(&r, hd, (size_t)cap);

    for (int it = 0; it < TITERS; ++it) {
        /* A size from 1 byte to 16 MiB, log-uniform; offsets up to 4 KiB, odd ones too. */
        const int64_t top = (int64_t)1 << tk_int(&r, 0, 24);
        const int64_t n = tk_int(&r, 1, top);
        const int64_t os = tk_int(&r, 0, 4095), od = tk_int(&r, 0, 4095), o = tk_int(&r, 0, 4095);
        tk_random_bytes(&r, hs + os, (size_t)n);
        const unsigned char before = od > 0 ? hd[od - 1] : 0, after = hd[od + n];
        W_TRY(px_view_subview(&s_src, src, &(px_slice){os, os + n, false}, 1));
        W_TRY(px_view_subview(&s_dst, dst, &(px_slice){od, od + n, false}, 1));
        W_TRY(px_view_subview(&s_pin, pin, &(px_slice){o, o + n, false}, 1));
        W_TRY(px_view_subview(&s_dev, dev, &(px_slice){o, o + n, false}, 1));
        W_TRY(px_view_subview(&s_dev2, dev2, &(px_slice){od, od + n, false}, 1));
        const bool blocking = it % 2;
        W_COPY(false, s_dev, s_src, PX_COPY_CUDA_STAGED, staged);
        W_COPY(blocking, s_pin, s_dev, PX_COPY_CUDA_DMA, dma);
        W_COPY(false, s_dev2, s_pin, PX_COPY_CUDA_DMA, dma);
        W_COPY(blocking, s_dst, s_dev2, PX_COPY_CUDA_STAGED, staged);
        W_TRY(px_instance_fence(in));
        if (memcmp(hp + o, hs + os, (size_t)n) != 0) W_FAIL("iteration %d: pinned copy of %lld bytes wrong", it, (long long)n);
        if (memcmp(hd + od, hs + os, (size_t)n) != 0) W_FAIL("iteration %d: copy of %lld bytes wrong", it, (long long)n);
        if ((od > 0 && hd[od - 1] != before) || hd[od + n] != after)
            W_FAIL("iteration %d: bytes next to the destination changed", it);
        W_TRY(px_view_release(&s_src));
        W_TRY(px_view_release(&s_dst));
        W_TRY(px_view_release(&s_pin));
        W_TRY(px_view_release(&s_dev));
        W_TRY(px_view_release(&s_dev2));
    }
out:
    if (in) (void)px_instance_fence(in);
    px_view *all[] = {s_src, s_dst, s_pin, s_dev, s_dev2, src, dst, pin, dev, dev2};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        if (all[k]) (void)px_view_release(&all[k]);
    if (in && px_instance_destroy(&in) != PX_OK && !w->err[0])
        snprintf(w->err, sizeof w->err, "thread %d: px_instance_destroy: %s", w->id, px_last_error());
    return NULL;
}

START_TEST(threads_concurrent_copies)
{
    uint64_t before[PX_COPY_PATH_COUNT], after[PX_COPY_PATH_COUNT];
    counts(before);
    pthread_t th[NTHREADS];
    worker w[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].id = t;
        ck_assert_int_eq(pthread_create(&th[t], NULL, worker_main, &w[t]), 0);
    }
    uint64_t staged = 0, dma = 0;
    for (int t = 0; t < NTHREADS; ++t) {
        ck_assert_int_eq(pthread_join(th[t], NULL), 0);
        staged += w[t].staged;
        dma += w[t].dma;
    }
    for (int t = 0; t < NTHREADS; ++t) TK_ASSERT(w[t].err[0] == '\0', "%s", w[t].err);
    ck_assert_uint_eq(staged, 2 * NTHREADS * TITERS);
    ck_assert_uint_eq(dma, 2 * NTHREADS * TITERS);
    counts(after);
    for (int k = 0; k < PX_COPY_PATH_COUNT; ++k) {
        const uint64_t want = before[k] + (k == PX_COPY_CUDA_STAGED ? staged : k == PX_COPY_CUDA_DMA ? dma : 0);
        TK_ASSERT(after[k] == want, "count of %s: %llu, expected %llu",
                  px_copy_path_string((px_copy_path)k), (unsigned long long)after[k],
                  (unsigned long long)want);
    }
}
END_TEST

#endif /* TK_HAVE_CUDA */

/* ---- suite ----------------------------------------------------------------------------------- */

static Suite *paths_suite(void)
{
    const bool cuda = tk_is_cuda();
    Suite *s = suite_create("paths");
    TCase *tc = paths_tcase("pairs", 60);
    tcase_add_loop_test(tc, pair_paths, 0, 2 * (cuda ? NPAIRS : 1));
    tcase_add_loop_test(tc, fill_paths, 0, 2 * nspaces());
    tcase_add_loop_test(tc, sizes_every_pair, 0, 2);
    tcase_add_loop_test(tc, misaligned_host, 0, 2);
    suite_add_tcase(s, tc);
    tc = paths_tcase("pointers_and_staging", 30);
    tcase_add_test(tc, staging_config);
    tcase_add_test(tc, pointer_bad_input);
    suite_add_tcase(s, tc);
#ifdef TK_HAVE_CUDA
    if (cuda) {
        tc = paths_tcase("cuda", 60);
        tcase_add_loop_test(tc, staged_sizes, 0, 2);
        tcase_add_loop_test(tc, misaligned_device, 0, 2);
        tcase_add_test(tc, pointer_classification);
        tcase_add_test(tc, staging_reconfigured);
        tcase_add_test(tc, capture_refuses_pageable);
        tcase_add_test(tc, staged_ordering);
        tcase_add_test(tc, threads_concurrent_copies);
        tcase_add_test(tc, copy_over_4gib);
        suite_add_tcase(s, tc);
    }
#endif
    return s;
}

int main(void)
{
    const tk_suite_fn suites[] = {paths_suite};
    return tk_main(suites, 1);
}
