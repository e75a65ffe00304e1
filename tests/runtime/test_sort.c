/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Sorting views (portex/sort.h) on the backend under test, against a reference made here:
 * qsort of (order key, original index) pairs, where the order key is the documented order
 * (numbers; -0.0 equal to +0.0; NaNs by sign beyond the infinities) as an unsigned integer.
 * Every key type, both orders, keys alone and with values of 1, 8 and 12 bytes (moved
 * directly and through a permutation), equal keys kept in order, sizes around the host's
 * parallel and insertion thresholds, into other views, permutations, segments with gaps,
 * the blocking form, and the refusals. Suite "sort". */
#include <math.h>
#include <stdlib.h>

#include "common.h"

static const px_dtype key_types[] = {PX_U8, PX_I32, PX_I64, PX_U32, PX_U64, PX_F32, PX_F64};

/* ---- The reference ------------------------------------------------------------------------ */

/* The order of key k (elem bytes at p) as an unsigned integer, ascending. */
static uint64_t order_key(px_dtype t, const void *p)
{
    switch (t) {
    case PX_U8: return *(const uint8_t *)p;
    case PX_U32: return *(const uint32_t *)p;
    case PX_U64: return *(const uint64_t *)p;
    case PX_I32: return (uint64_t)((int64_t) * (const int32_t *)p + 2147483648LL);
    case PX_I64: return (uint64_t)(*(const int64_t *)p) ^ ((uint64_t)1 << 63);
    case PX_F32: {
        uint32_t b;
        memcpy(&b, p, 4);
        if (b == 0x80000000u) b = 0;
        return (b >> 31) ? (uint32_t)~b : (b | 0x80000000u);
    }
    case PX_F64: {
        uint64_t b;
        memcpy(&b, p, 8);
        if (b == (uint64_t)1 << 63) b = 0;
        return (b >> 63) ? ~b : (b | (uint64_t)1 << 63);
    }
    default: ck_abort_msg("not a key type"); return 0;
    }
}

typedef struct ref_item {
    uint64_t key;
    int64_t index;
} ref_item;

static int by_key_then_index(const void *a, const void *b)
{
    const ref_item *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* perm[i]: the index of the i-th key in the stable order (within [lo, hi) only). */
static void reference(px_dtype t, const unsigned char *keys, int64_t lo, int64_t hi,
                      bool descending, int64_t *perm)
{
    const size_t ks = px_dtype_size(t);
    const int64_t n = hi - lo;
    ref_item *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (int64_t i = 0; i < n; ++i) {
        const uint64_t k = order_key(t, keys + (size_t)(lo + i) * ks);
        r[i].key = descending ? ~k : k;
        r[i].index = lo + i;
    }
    qsort(r, (size_t)n, sizeof *r, by_key_then_index);
    for (int64_t i = 0; i < n; ++i) perm[lo + i] = r[i].index;
    free(r);
}

/* ---- Inputs ------------------------------------------------------------------------------- */

/* n keys of type t: random bits, or (few) one of 5 values, so that ties are common; floats
   get signed zeros, infinities and NaNs of both signs among them. */
static unsigned char *make_keys(px_dtype t, int64_t n, bool few, uint64_t seed)
{
    const size_t ks = px_dtype_size(t);
    unsigned char *k = tk_rand_buf((size_t)n * ks + 1, seed);
    tk_rng r = tk_rng_seed(seed ^ 0x5eed);
    for (int64_t i = 0; i < n; ++i) {
        unsigned char *p = k + (size_t)i * ks;
        if (t == PX_F64) {
            static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.5, -2.5};
            const double v =
                tk_int(&r, 0, 3) == 0 ? special[tk_int(&r, 0, 7)] : tk_uniform(&r, -1e3, 1e3);
            memcpy(p, &v, 8);
        } else if (t == PX_F32) {
            static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY,
                                            NAN,  -NAN,  1.5f,     -2.5f};
            const float v = tk_int(&r, 0, 3) == 0 ? special[tk_int(&r, 0, 7)]
                                                  : (float)tk_uniform(&r, -1e3, 1e3);
            memcpy(p, &v, 4);
        }
        if (few) {
            const uint64_t v = (uint64_t)tk_int(&r, 0, 4) * 0x0101010101010101ull;
            memcpy(p, &v, ks);
            if (t == PX_F32 || t == PX_F64) memset(p, 0, ks);
            if ((t == PX_F32 || t == PX_F64) && (i & 1)) p[ks - 1] = 0x80; /* -0.0 */
        }
    }
    return k;
}

static px_view *upload(const char *label, px_dtype t, size_t es, int64_t n, const void *data)
{
    px_view *h = tk_view_ex(label, px_host(), t, es, PX_LAYOUT_RIGHT, 1, &n, 0);
    if (n > 0) memcpy(tk_data(h), data, (size_t)n * es);
    px_view *v = tk_on_space(h, label);
    TK_RELEASE(h);
    return v;
}

/* v (any space) holds, at element i, element perm[i] of `orig` (elements of es bytes). */
static void expect_permuted(px_view *v, const unsigned char *orig, const int64_t *perm, int64_t n,
                            size_t es, const char *what)
{
    px_view *h = tk_to_host(v);
    const unsigned char *got = tk_data(h);
    int64_t bad = -1; /* one assertion per view: Check records each one it passes */
    for (int64_t i = 0; i < n && bad < 0; ++i)
        if (memcmp(got + (size_t)i * es, orig + (size_t)perm[i] * es, es) != 0) bad = i;
    ck_assert_msg(bad < 0, "%s: element %lld of %lld is not the reference's (element %lld)", what,
                  (long long)bad, (long long)n, (long long)(bad < 0 ? 0 : perm[bad]));
    TK_RELEASE(h);
}

/* ---- Whole sorts ---------------------------------------------------------------------------- */

static const int64_t sizes[] = {0, 1, 2, 31, 33, 100, 257, 5000, 70001};

/* Keys of type t, alone and with 8-byte values (their indices) and 12-byte ones. */
static void sort_case(px_dtype t, int64_t n, bool few, bool desc, uint64_t seed)
{
    const size_t ks = px_dtype_size(t);
    const unsigned flags = desc ? PX_SORT_DESCENDING : PX_SORT_ASCENDING;
    unsigned char *keys = make_keys(t, n, few, seed);
    int64_t *perm = malloc((size_t)(n + 1) * sizeof *perm);
    ck_assert_ptr_nonnull(perm);
    reference(t, keys, 0, n, desc, perm);

    px_view *k = upload("keys", t, ks, n, keys);
    TK_OK(px_sort(tk_inst(), k, NULL, flags));
    TK_OK(px_instance_fence(tk_inst()));
    expect_permuted(k, keys, perm, n, ks, "keys alone");
    TK_RELEASE(k);

    int64_t *idx = malloc((size_t)(n + 1) * sizeof *idx);
    unsigned char *wide = tk_rand_buf((size_t)n * 12 + 1, seed + 1);
    for (int64_t i = 0; i < n; ++i) idx[i] = i;
    px_view *k2 = upload("keys", t, ks, n, keys);
    px_view *v8 = upload("values", PX_I64, 8, n, idx);
    TK_OK(px_sort(tk_inst(), k2, v8, flags));
    px_view *k3 = upload("keys", t, ks, n, keys);
    px_view *v12 = upload("values12", PX_USER, 12, n, wide);
    TK_OK(px_sort(tk_inst(), k3, v12, flags));
    TK_OK(px_instance_fence(tk_inst()));
    expect_permuted(k2, keys, perm, n, ks, "keys with values");
    expect_permuted(v8, (const unsigned char *)idx, perm, n, 8, "8-byte values");
    expect_permuted(k3, keys, perm, n, ks, "keys with 12-byte values");
    expect_permuted(v12, wide, perm, n, 12, "12-byte values");
    TK_RELEASE(k2, v8, k3, v12);
    free(idx);
    free(wide);
    free(perm);
    free(keys);
}

START_TEST(sort_every_key_type)
{
    const px_dtype t = key_types[_i];
    uint64_t seed = 100 + (uint64_t)_i;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (int few = 0; few < 2; ++few)
            for (int desc = 0; desc < 2; ++desc) sort_case(t, sizes[s], few, desc, ++seed);
}
END_TEST

/* A larger sort of each width, to reach CUB's onesweep passes and every host thread. */
START_TEST(sort_large)
{
    const int64_t n = tk_under_valgrind() ? 100000 : 1 << 19;
    sort_case(PX_U32, n, false, false, 7);
    sort_case(PX_F64, n, false, true, 8);
    sort_case(PX_I64, n, true, false, 9);
}
END_TEST

/* Sorted copies leave their inputs alone; an output that is its input sorts in place;
   1-byte values move too. */
START_TEST(sort_into_other_views)
{
    const int64_t n = 3001;
    unsigned char *keys = make_keys(PX_I32, n, true, 21);
    unsigned char *vals = tk_rand_buf((size_t)n, 22);
    int64_t perm[3001];
    reference(PX_I32, keys, 0, n, true, perm);
    px_view *k = upload("keys", PX_I32, 4, n, keys), *v = upload("values", PX_U8, 1, n, vals);
    px_view *ko = tk_view1("keys_out", tk_space(), PX_I32, n);
    px_view *vo = tk_view1("values_out", tk_space(), PX_U8, n);
    TK_OK(px_sort_into(tk_inst(), ko, vo, k, v, PX_SORT_DESCENDING));
    TK_OK(px_instance_fence(tk_inst()));
    expect_permuted(ko, keys, perm, n, 4, "keys_out");
    expect_permuted(vo, vals, perm, n, 1, "values_out");
    int64_t same[3001];
    for (int64_t i = 0; i < n; ++i) same[i] = i;
    expect_permuted(k, keys, same, n, 4, "keys (an input)");
    expect_permuted(v, vals, same, n, 1, "values (an input)");

    /* keys in place through px_sort_into, values into another view */
    TK_OK(px_sort_into(tk_inst(), k, vo, k, v, PX_SORT_DESCENDING));
    TK_OK(px_instance_fence(tk_inst()));
    expect_permuted(k, keys, perm, n, 4, "keys sorted in place");
    expect_permuted(vo, vals, perm, n, 1, "values_out again");
    TK_RELEASE(k, v, ko, vo);
    free(keys);
    free(vals);
}
END_TEST

START_TEST(sort_permutation_i32_i64)
{
    const int64_t n = 70001;
    unsigned char *keys = make_keys(PX_F32, n, false, 31);
    int64_t *perm = malloc((size_t)n * sizeof *perm);
    int32_t *perm32 = malloc((size_t)n * sizeof *perm32);
    reference(PX_F32, keys, 0, n, false, perm);
    for (int64_t i = 0; i < n; ++i) perm32[i] = (int32_t)perm[i];
    px_view *k = upload("keys", PX_F32, 4, n, keys);
    px_view *p64 = tk_view1("perm64", tk_space(), PX_I64, n);
    px_view *p32 = tk_view1("perm32", tk_space(), PX_I32, n);
    TK_OK(px_sort_permutation(tk_inst(), p64, k, 0));
    TK_OK(px_sort_permutation(tk_inst(), p32, k, PX_SORT_ASCENDING));
    TK_OK(px_instance_fence(tk_inst()));
    int64_t *same = malloc((size_t)n * sizeof *same);
    for (int64_t i = 0; i < n; ++i) same[i] = i;
    expect_permuted(p64, (const unsigned char *)perm, same, n, 8, "i64 permutation");
    expect_permuted(p32, (const unsigned char *)perm32, same, n, 4, "i32 permutation");
    expect_permuted(k, keys, same, n, 4, "keys (left as they are)");
    TK_RELEASE(k, p64, p32);
    free(same);
    free(perm);
    free(perm32);
    free(keys);
}
END_TEST

/* ---- Segments -------------------------------------------------------------------------------- */

/* Segments with gaps between them, empty ones, tiny ones and one large (40 segments), or
   many short ones (1200: more than 2^8, so more than one byte of segment number), i32 and
   i64 offsets, with and without values. */
static void segments_case_of(px_dtype t, px_dtype offset_type, bool desc, bool values,
                             uint64_t seed, int many)
{
    enum { N = 90000, MAX_SEGS = 1200 };
    const int SEGS = many ? MAX_SEGS : 40;
    const size_t ks = px_dtype_size(t);
    unsigned char *keys = make_keys(t, N, (seed & 1) != 0, seed);
    int64_t off[MAX_SEGS + 1];
    tk_rng r = tk_rng_seed(seed);
    off[0] = 7;
    for (int s = 1; s <= SEGS; ++s) {
        const int64_t len = many         ? tk_int(&r, 0, 60)
                            : s == 20    ? 70000
                            : s % 5 == 0 ? 0
                                         : tk_int(&r, 1, 300);
        off[s] = off[s - 1] + len;
    }
    ck_assert_int_lt(off[SEGS], N);
    int64_t *perm = malloc(N * sizeof *perm);
    for (int64_t i = 0; i < N; ++i) perm[i] = i;
    for (int s = 0; s < SEGS; ++s) reference(t, keys, off[s], off[s + 1], desc, perm);
    /* Elements in no segment (the 7 in front, the tail) stay where they are. */
    int32_t off32[MAX_SEGS + 1];
    for (int s = 0; s <= SEGS; ++s) off32[s] = (int32_t)off[s];
    px_view *o = offset_type == PX_I32 ? upload("offsets", PX_I32, 4, SEGS + 1, off32)
                                       : upload("offsets", PX_I64, 8, SEGS + 1, off);
    px_view *k = upload("keys", t, ks, N, keys);
    int64_t *idx = malloc(N * sizeof *idx);
    for (int64_t i = 0; i < N; ++i) idx[i] = i;
    px_view *v = values ? upload("values", PX_I64, 8, N, idx) : NULL;
    TK_OK(px_sort_segments(tk_inst(), k, v, o, desc ? PX_SORT_DESCENDING : 0));
    TK_OK(px_instance_fence(tk_inst()));
    expect_permuted(k, keys, perm, N, ks, "segmented keys");
    if (v) expect_permuted(v, (const unsigned char *)idx, perm, N, 8, "segmented values");
    TK_RELEASE(o, k, v);
    free(idx);
    free(perm);
    free(keys);
}

static void segments_case(px_dtype t, px_dtype offset_type, bool desc, bool values, uint64_t seed)
{
    segments_case_of(t, offset_type, desc, values, seed, 0);
}

START_TEST(sort_segments_with_gaps)
{
    segments_case(PX_I32, PX_I32, false, true, 41);
    segments_case(PX_F64, PX_I64, true, true, 42);
    segments_case(PX_U64, PX_I64, false, false, 43);
    segments_case(PX_U8, PX_I32, true, false, 44);
    /* Keys alone, 4 and 8 bytes, few and many segments: CUDA sorts these without indices. */
    segments_case(PX_F32, PX_I64, true, false, 45);
    segments_case_of(PX_I32, PX_I32, false, false, 46, 1);
    segments_case_of(PX_F64, PX_I64, true, false, 47, 1);
    segments_case_of(PX_U32, PX_I64, false, true, 48, 1);
}
END_TEST

/* No segments at all, and only empty ones: nothing moves. */
START_TEST(sort_segments_none_and_empty)
{
    const int64_t n = 50;
    unsigned char *keys = make_keys(PX_I64, n, false, 51);
    px_view *k = upload("keys", PX_I64, 8, n, keys);
    const int64_t none[1] = {0}, empty[3] = {10, 10, 10};
    px_view *o1 = upload("offsets", PX_I64, 8, 1, none);
    px_view *o2 = upload("offsets", PX_I64, 8, 3, empty);
    TK_OK(px_sort_segments(tk_inst(), k, NULL, o1, 0));
    TK_OK(px_sort_segments(tk_inst(), k, NULL, o2, 0));
    TK_OK(px_instance_fence(tk_inst()));
    int64_t same[50];
    for (int64_t i = 0; i < n; ++i) same[i] = i;
    expect_permuted(k, keys, same, n, 8, "keys outside every segment");
    TK_RELEASE(k, o1, o2);
    free(keys);
}
END_TEST

/* The host backends read the offsets and refuse bad ones before sorting anything. */
START_TEST(sort_segments_bad_offsets_on_host)
{
    if (tk_is_cuda()) TK_SKIP("the GPU reads the offsets on CUDA: they are not checked there");
    const int64_t n = 100;
    unsigned char *keys = make_keys(PX_U32, n, false, 61);
    px_view *k = upload("keys", PX_U32, 4, n, keys);
    const int64_t down[3] = {0, 50, 40}, past[2] = {0, 101}, negative[2] = {-1, 10};
    const int64_t *bad[] = {down, past, negative};
    const int64_t count[] = {3, 2, 2};
    int64_t same[100];
    for (int64_t i = 0; i < n; ++i) same[i] = i;
    for (int b = 0; b < 3; ++b) {
        px_view *o = upload("offsets", PX_I64, 8, count[b], bad[b]);
        TK_FAIL(px_sort_segments(tk_inst(), k, NULL, o, 0), PX_ERR_INVALID_ARGUMENT,
                "px_sort_segments");
        expect_permuted(k, keys, same, n, 4, "keys after a refused sort");
        TK_RELEASE(o);
    }
    TK_RELEASE(k);
    free(keys);
}
END_TEST

/* ---- The blocking form, the refusals ------------------------------------------------------- */

START_TEST(sort_blocking_default_instance)
{
    const int64_t n = 4000;
    unsigned char *keys = make_keys(PX_U64, n, false, 71);
    int64_t perm[4000];
    reference(PX_U64, keys, 0, n, false, perm);
    px_view *k = upload("keys", PX_U64, 8, n, keys);
    TK_OK(px_sort(NULL, k, NULL, 0));
    expect_permuted(k, keys, perm, n, 8, "keys sorted by the blocking form");
    TK_RELEASE(k);
    free(keys);
}
END_TEST

START_TEST(sort_refusals)
{
    const int64_t n = 16, ext2[2] = {4, 4};
    px_view *k = tk_view1("keys", tk_space(), PX_I32, n);
    px_view *v = tk_view1("values", tk_space(), PX_I64, n);
    px_view *shorter = tk_view1("shorter", tk_space(), PX_I64, n - 1);
    px_view *two = tk_view("two", tk_space(), PX_I32, 2, ext2);
    px_view *user = tk_view_ex("user", tk_space(), PX_USER, 4, PX_LAYOUT_RIGHT, 1, &n, 0);
    px_view *f = tk_view1("f32perm", tk_space(), PX_F32, n);
    px_view *o = tk_view1("offsets", tk_space(), PX_F64, 2);
    px_view *ko = tk_view1("keys_out", tk_space(), PX_I64, n);

    TK_FAIL(px_sort(tk_inst(), NULL, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_FAIL(px_sort(tk_inst(), two, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_ERROR_HAS("rank-1");
    TK_FAIL(px_sort(tk_inst(), user, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_ERROR_HAS("built-in");
    TK_FAIL(px_sort(tk_inst(), k, shorter, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_FAIL(px_sort(tk_inst(), k, k, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_ERROR_HAS("overlap");
    TK_FAIL(px_sort(tk_inst(), k, v, 4), PX_ERR_INVALID_ARGUMENT, "px_sort");
    TK_ERROR_HAS("flags");
    TK_FAIL(px_sort_into(tk_inst(), ko, NULL, k, NULL, 0), PX_ERR_INVALID_ARGUMENT, "px_sort_into");
    TK_FAIL(px_sort_into(tk_inst(), NULL, NULL, k, NULL, 0), PX_ERR_INVALID_ARGUMENT,
            "px_sort_into");
    TK_FAIL(px_sort_into(tk_inst(), k, NULL, k, v, 0), PX_ERR_INVALID_ARGUMENT, "px_sort_into");
    TK_FAIL(px_sort_permutation(tk_inst(), f, k, 0), PX_ERR_INVALID_ARGUMENT,
            "px_sort_permutation");
    TK_FAIL(px_sort_permutation(tk_inst(), NULL, k, 0), PX_ERR_INVALID_ARGUMENT,
            "px_sort_permutation");
    TK_FAIL(px_sort_segments(tk_inst(), k, NULL, o, 0), PX_ERR_INVALID_ARGUMENT,
            "px_sort_segments");
    TK_FAIL(px_sort_segments(tk_inst(), k, NULL, NULL, 0), PX_ERR_INVALID_ARGUMENT,
            "px_sort_segments");
    if (tk_is_cuda()) {
        /* Values on the host beside keys on the GPU. */
        px_view *hv = tk_view1("host values", px_host(), PX_I64, n);
        TK_FAIL(px_sort(tk_inst(), k, hv, 0), PX_ERR_INVALID_ARGUMENT, "px_sort");
        TK_ERROR_HAS("share a space");
        TK_RELEASE(hv);
    }

    /* Not while the instance is captured into a graph. */
    px_graph *g = NULL;
    TK_OK(px_graph_capture_begin(tk_inst(), PX_CAPTURE_THREAD_LOCAL));
    TK_FAIL(px_sort(tk_inst(), k, NULL, 0), PX_ERR_CAPTURING, "px_sort");
    TK_ERROR_HAS("a sort is not allowed while instance");
    TK_OK(px_graph_capture_end(tk_inst(), &g));
    TK_OK(px_graph_destroy(&g));
    TK_RELEASE(k, v, shorter, two, user, f, o, ko);
}
END_TEST

int main(void)
{
    TCase *tc = tk_case("sort", "sort");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, sort_every_key_type, 0, (int)(sizeof key_types / sizeof key_types[0]));
    TK_ADD(tc, sort_large, sort_into_other_views, sort_permutation_i32_i64, sort_segments_with_gaps,
           sort_segments_none_and_empty, sort_segments_bad_offsets_on_host,
           sort_blocking_default_instance, sort_refusals);
    return tk_run();
}
