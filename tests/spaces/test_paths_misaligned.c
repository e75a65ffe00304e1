/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Wrapped memory at addresses that are not aligned for its elements: copies and fills
 * keep to the view's bytes and leave the bytes around them. Suite "misaligned": pageable
 * host memory (every backend); "misaligned_cuda": pageable, pinned and device memory to
 * and from a GPU. */
#include <stdlib.h>

#include "common.h"

/* ---- misaligned wrapped memory --------------------------------------------------------------- */

/* Bytes [0, off) and [off + len, total) of two buffers are equal. */
static void edges_kept(const unsigned char *now, const unsigned char *was, size_t off, size_t len,
                       size_t total, int line)
{
    TK_ASSERT(memcmp(now, was, off) == 0, "line %d: bytes before the view changed", line);
    TK_ASSERT(memcmp(now + off + len, was + off + len, total - off - len) == 0,
              "line %d: bytes after the view changed", line);
}
#define EDGES_KEPT(now, was, off, len, total) \
    edges_kept((now), (was), (off), (len), (total), __LINE__)

/* The host buffers both suites wrap at odd addresses: a and b of N + 16 random bytes, da and
   db of M + 2 doubles' worth of random bytes (from r), and b and db as they were (b0, db0). */
enum { N = 1000003, M = 59 * 71 };
typedef struct buffers {
    unsigned char *a, *b, *b0, *db0;
    double *da, *db;
} buffers;

static buffers buffers_make(uint64_t seed_a, uint64_t seed_b, tk_rng *r)
{
    buffers x;
    x.a = tk_rand_buf(N + 16, seed_a);
    x.b = tk_rand_buf(N + 16, seed_b);
    x.b0 = tk_dup_buf(x.b, N + 16);
    x.da = malloc((M + 2) * sizeof(double));
    x.db = malloc((M + 2) * sizeof(double));
    ck_assert_ptr_nonnull(x.da);
    ck_assert_ptr_nonnull(x.db);
    tk_random_bytes(r, x.da, (M + 2) * sizeof(double));
    tk_random_bytes(r, x.db, (M + 2) * sizeof(double));
    x.db0 = tk_dup_buf((unsigned char *)x.db, (M + 2) * sizeof(double));
    return x;
}

static void buffers_free(buffers *x)
{
    free(x->a);
    free(x->b);
    free(x->b0);
    free(x->da);
    free(x->db);
    free(x->db0);
}

/* _i: form. Host side (both backends): U8 at malloc + 1 to malloc + 3, 8-byte elements at
   odd offsets into double buffers with differing layouts, a fill at an odd offset. */
START_TEST(misaligned_host)
{
    px_instance *in = _i ? tk_inst() : NULL;
    tk_rng r = tk_rng_seed(4200 + (uint64_t)_i);
    buffers x = buffers_make(4000 + (uint64_t)_i, 4100, &r);
    unsigned char *a = x.a, *b = x.b, *b0 = x.b0, *db0 = x.db0;
    double *da = x.da, *db = x.db;
    const int64_t n = N;
    px_view *wa = tk_wrap("a+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, a + 1);
    px_view *wb = tk_wrap("b+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, b + 3);
    TK_COPY(in, wb, wa, PX_COPY_HOST_MEMCPY);
    ck_assert_int_eq(memcmp(b + 3, a + 1, N), 0);
    EDGES_KEPT(b, b0, 3, N, N + 16);

    /* 8-byte elements at double buffer + 5 (RIGHT) and + 3 (LEFT). */
    const int64_t e[2] = {59, 71};
    px_view *ua = tk_wrap("da+5", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)da + 5);
    px_view *ub = tk_wrap("db+3", px_host(), PX_USER, 8, PX_LAYOUT_LEFT, 2, e, (char *)db + 3);
    TK_COPY(in, ub, ua, PX_COPY_HOST_STRIDED);
    TK_SAME(ub, ua);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * sizeof(double));

    /* A fill of 8-byte elements at db + 3 leaves the bytes around it. */
    memcpy(db, db0, (M + 2) * sizeof(double));
    const int64_t m = M;
    px_view *fb =
        tk_wrap("fill db+3", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)db + 3);
    unsigned char v8[8];
    tk_random_bytes(&r, v8, 8);
    TK_FILL(in, fb, v8, PX_COPY_HOST_FILL);
    TK_ALL_ARE(fb, v8);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * sizeof(double));

    TK_RELEASE(wa, wb, ua, ub, fb);
    buffers_free(&x);
}
END_TEST

#ifdef TK_HAVE_CUDA

/* ---- CUDA: misaligned wrapped memory ------------------------------------------------------- */

/* _i: form. Wrapped pageable, pinned and device memory at odd addresses, to and from the
   device: contiguous (STAGED, DMA, D2D), differing layouts (STRIDED_STAGED, STRIDED), and a
   device fill of 8-byte elements at an odd address. */
START_TEST(misaligned_device)
{
    px_instance *in = _i ? tk_inst() : NULL;
    const int64_t n = N;
    const uint64_t seed = 7000 + 100 * (uint64_t)_i;
    tk_rng r = tk_rng_seed(seed + 2);
    buffers x = buffers_make(seed, seed + 1, &r);
    unsigned char *a = x.a, *b = x.b, *b0 = x.b0, *db0 = x.db0;
    double *da = x.da, *db = x.db;

    /* Pageable U8 at +1 and +3. */
    px_view *wa = tk_wrap("a+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, a + 1);
    px_view *wb = tk_wrap("b+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, b + 3);
    px_view *d = tk_view1("d", px_device(0), PX_U8, n);
    TK_COPY(in, d, wa, PX_COPY_CUDA_STAGED);
    TK_COPY(in, wb, d, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp(b + 3, a + 1, N), 0);
    EDGES_KEPT(b, b0, 3, N, N + 16);

    /* Doubles at +5 and +3 as 8-byte USER elements and as bytes. */
    const int64_t m = M, m8 = 8 * (int64_t)M;
    const int64_t e[2] = {59, 71};
    px_view *ua = tk_wrap("da+5", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)da + 5);
    px_view *ub = tk_wrap("db+3", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, (char *)db + 3);
    px_view *du = tk_view_ex("du", px_device(0), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &m, 0);
    TK_COPY(in, du, ua, PX_COPY_CUDA_STAGED);
    TK_COPY(in, ub, du, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp((char *)db + 3, (char *)da + 5, M * 8), 0);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);
    memcpy(db, db0, (M + 2) * 8);
    px_view *ba =
        tk_wrap("da+5 bytes", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &m8, (char *)da + 5);
    px_view *bb =
        tk_wrap("db+3 bytes", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &m8, (char *)db + 3);
    px_view *db8 = tk_view1("db8", px_device(0), PX_U8, m8);
    TK_COPY(in, db8, ba, PX_COPY_CUDA_STAGED);
    TK_COPY(in, bb, db8, PX_COPY_CUDA_STAGED);
    ck_assert_int_eq(memcmp((char *)db + 3, (char *)da + 5, M * 8), 0);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);

    /* Differing layouts: pageable RIGHT at +5 -> device LEFT -> pageable RIGHT at +3. */
    memcpy(db, db0, (M + 2) * 8);
    px_view *ra = tk_wrap("da+5 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)da + 5);
    px_view *rb = tk_wrap("db+3 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, (char *)db + 3);
    px_view *dl = tk_view_ex("dl", px_device(0), PX_USER, 8, PX_LAYOUT_LEFT, 2, e, 0);
    TK_COPY(in, dl, ra, PX_COPY_CUDA_STRIDED_STAGED);
    TK_SAME(dl, ra);
    TK_COPY(in, rb, dl, PX_COPY_CUDA_STRIDED_STAGED);
    TK_SAME(rb, ra);
    EDGES_KEPT((unsigned char *)db, db0, 3, M * 8, (M + 2) * 8);

    /* Pinned memory at +1 and +3 (wrapped as HOST: the view takes HOST_PINNED): DMA; and
       8-byte elements at pinned + 5 with differing layouts: the copy kernel. */
    const int64_t np = n + 16;
    px_view *P = tk_view1("P", px_host_pinned(), PX_U8, np),
            *P2 = tk_view1("P2", px_host_pinned(), PX_U8, np);
    tk_randomize(P, seed + 3);
    tk_randomize(P2, seed + 4);
    unsigned char *p = tk_data(P), *p2 = tk_data(P2);
    unsigned char *p20 = tk_dup_buf(p2, N + 16);
    px_view *wp = tk_wrap("P+1", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, p + 1);
    px_view *wp2 = tk_wrap("P2+3", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, p2 + 3);
    ck_assert_int_eq(tk_info(wp).space.kind, PX_SPACE_HOST_PINNED);
    ck_assert_int_eq(tk_info(wp2).space.kind, PX_SPACE_HOST_PINNED);
    TK_COPY(in, d, wp, PX_COPY_CUDA_DMA);
    TK_COPY(in, wp2, d, PX_COPY_CUDA_DMA);
    ck_assert_int_eq(memcmp(p2 + 3, p + 1, N), 0);
    EDGES_KEPT(p2, p20, 3, N, N + 16);
    memcpy(p2, p20, N + 16);
    px_view *pr = tk_wrap("P+5 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, p + 5);
    px_view *pr2 = tk_wrap("P2+3 2d", px_host(), PX_USER, 8, PX_LAYOUT_RIGHT, 2, e, p2 + 3);
    TK_COPY(in, dl, pr, PX_COPY_CUDA_STRIDED);
    TK_SAME(dl, pr);
    TK_COPY(in, pr2, dl, PX_COPY_CUDA_STRIDED);
    TK_SAME(pr2, pr);
    EDGES_KEPT(p2, p20, 3, M * 8, N + 16);

    /* Device memory at +3 and +1: staged in, D2D across, and a fill of 8-byte elements at
       +3 that leaves the bytes around it. */
    px_view *D = tk_view1("D", px_device(0), PX_U8, np),
            *D2 = tk_view1("D2", px_device(0), PX_U8, np);
    tk_fill_random(D, seed + 5);
    tk_fill_random(D2, seed + 6);
    px_view *D0 = tk_to_host(D), *D20 = tk_to_host(D2);
    unsigned char *dd = tk_info(D).data, *dd2 = tk_info(D2).data;
    px_view *wd = tk_wrap("D+3", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, dd + 3);
    px_view *wd2 = tk_wrap("D2+1", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, dd2 + 1);
    ck_assert_int_eq(tk_info(wd).space.kind, PX_SPACE_DEVICE);
    TK_COPY(in, wd, wa, PX_COPY_CUDA_STAGED);
    TK_COPY(in, wd2, wd, PX_COPY_CUDA_D2D);
    px_view *hD = tk_to_host(D), *hD2 = tk_to_host(D2);
    ck_assert_int_eq(memcmp((unsigned char *)tk_data(hD) + 3, a + 1, N), 0);
    ck_assert_int_eq(memcmp((unsigned char *)tk_data(hD2) + 1, a + 1, N), 0);
    EDGES_KEPT(tk_data(hD), tk_data(D0), 3, N, N + 16);
    EDGES_KEPT(tk_data(hD2), tk_data(D20), 1, N, N + 16);
    const int64_t nf = (int64_t)(N / 8);
    px_view *fd = tk_wrap("D+3 fill", px_device(0), PX_USER, 8, PX_LAYOUT_RIGHT, 1, &nf, dd + 3);
    unsigned char v8[8];
    tk_random_bytes(&r, v8, 8);
    TK_FILL(in, fd, v8, PX_COPY_CUDA_FILL);
    px_view *hF = tk_to_host(D);
    const unsigned char *f = tk_data(hF);
    for (int64_t i = 0; i < nf; ++i)
        TK_ASSERT(memcmp(f + 3 + 8 * i, v8, 8) == 0, "filled element %lld", (long long)i);
    EDGES_KEPT(f, tk_data(hD), 3, (size_t)nf * 8, N + 16);

    TK_RELEASE(wa, wb, d, ua, ub, du, ba, bb, db8, ra, rb, dl, P, P2, wp, wp2, pr, pr2, D, D2, D0,
               D20, wd, wd2, hD, hD2, fd, hF);
    buffers_free(&x);
    free(p20);
}
END_TEST


#endif /* TK_HAVE_CUDA */

int main(void)
{
    tcase_add_loop_test(tk_case("misaligned", "host"), misaligned_host, 0, 2);
#ifdef TK_HAVE_CUDA
    TCase *tc = tk_case("misaligned_cuda", "device");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, misaligned_device, 0, 2);
    tk_require("misaligned_cuda", tk_need_cuda);
#endif
    return tk_run();
}
