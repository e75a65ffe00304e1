/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Staging of pageable memory (path CUDA_STAGED): the configuration's limits (suite
 * "staging", every backend: without the CUDA backend the calls are refused); on a GPU
 * (suite "staging_cuda") staged copies of every size, after the pool is reshaped, in order
 * on one instance behind work that has not run, and from several host threads at once;
 * and copies over 4 GiB (suite "staging_4gib", where the memory is there). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

#ifdef TK_HAVE_CUDA
#include "common_cuda.h"
#endif

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

static TCase *staging_case(const char *suite, const char *name, int timeout)
{
    TCase *tc = tk_case_bare(suite, name);
    tcase_add_checked_fixture(tc, paths_setup, paths_teardown);
    tcase_set_timeout(tc, timeout);
    return tc;
}

/* ---- staging configuration (both backends; the values need the CUDA backend compiled in) -- */

static bool staging_compiled(void)
{
    return px_exec_space_check(PX_EXEC_CUDA) != PX_ERR_UNSUPPORTED;
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
        {((size_t)64 << 10) - 1, 0, 0},
        {1, 0, 0},
        {0, 1, 0},
        {0, -2, 0},
        {0, 0, 65},
        {0, 0, -1},
        {4096, 1, 65},
    };
    static const char *const field[] = {"chunk_bytes", "chunk_bytes", "buffers",    "buffers",
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
    /* (threads: the cores of the machine, at most 16, with a topology; 8 without, as here) */
    const size_t chunk = (size_t)tk_env_ll("PX_STAGING_CHUNK_MB", 1, 1ll << 40, 32) << 20;
    const int buffers = (int)tk_env_ll("PX_STAGING_BUFFERS", 2, 65536, 12);
    const int threads = (int)tk_env_ll("PX_STAGING_THREADS", 1, 64, 8);
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
        px_view *h = tk_view_ex("h", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        px_view *d =
            tk_view_ex("d", px_device(0), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        px_view *h2 =
            tk_view_ex("h2", px_host(), PX_U8, 0, PX_LAYOUT_RIGHT, 1, &n, PX_VIEW_NO_INIT);
        tk_randomize(h, 6000 + k + 10 * (uint64_t)_i);
        tk_randomize(h2, 6100 + k);
        TK_COPY(in, d, h, PX_COPY_CUDA_STAGED);
        TK_COPY(in, h2, d, PX_COPY_CUDA_STAGED);
        TK_SAME(h2, h);
        TK_RELEASE(h, d, h2);
    }
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

static uint64_t pattern(uint64_t i)
{
    return ((i + 1) * 0x9e3779b97f4a7c15ull) ^ 0x5bd1e9955bd1e995ull;
}

#define BIG_N (((int64_t)9 << 26) + 4099) /* 4.5 GiB of uint64 and some */

/* Requirement of the suite: a GPU with room for two copies of 4.5 GiB, and the host too. */
static const char *need_room_for_4gib(void)
{
    static char why[160];
    const char *no_cuda = tk_need_cuda();
    if (no_cuda) return no_cuda;
    const size_t bytes = (size_t)BIG_N * 8;
    size_t dfree = 0, dtotal = 0;
    if (cudaMemGetInfo(&dfree, &dtotal) != cudaSuccess) dfree = 0;
    const size_t hfree = host_available_bytes();
    snprintf(why, sizeof why,
             "too little memory for 2 x 4.5 GiB: %zu MiB free on the device, %zu MiB on the host",
             dfree >> 20, hfree >> 20);
    return dfree < 2 * bytes + ((size_t)1 << 30) || hfree < 2 * bytes + ((size_t)4 << 30) ? why
                                                                                          : NULL;
}

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
   random ones. */
START_TEST(copy_over_4gib)
{
    const int64_t n = BIG_N;
    px_view *A = try_mk1("A 4.5G", px_host(), n), *B = try_mk1("B 4.5G", px_host(), n);
    px_view *D1 = try_mk1("D1 4.5G", px_device(0), n), *D2 = try_mk1("D2 4.5G", px_device(0), n);
    if (!A || !B || !D1 || !D2) {
        TK_RELEASE(A, B, D1, D2);
        TK_SKIP("an allocation of %zu bytes failed", (size_t)n * 8);
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

    TK_COPY(tk_inst(), D1, A, PX_COPY_CUDA_STAGED);
    TK_COPY(NULL, D2, D1, PX_COPY_CUDA_D2D);
    TK_COPY(NULL, B, D2, PX_COPY_CUDA_STAGED);
    for (int64_t k = 0; k < np; ++k)
        TK_ASSERT(b[pos[k]] == pattern((uint64_t)pos[k]), "element %lld (byte %lld) wrong",
                  (long long)pos[k], (long long)pos[k] * 8);
    free(pos);
    TK_RELEASE(A, B, D1, D2);
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
            px_view *h = tk_view1("h", px_host(), PX_U8, sizes[j]),
                    *d = tk_view1("d", px_device(0), PX_U8, sizes[j]);
            px_view *h2 = tk_view1("h2", px_host(), PX_U8, sizes[j]);
            tk_randomize(h, 10000 + 10 * (uint64_t)k + (uint64_t)j);
            tk_randomize(h2, 10100 + 10 * (uint64_t)k + (uint64_t)j);
            TK_COPY(in, d, h, PX_COPY_CUDA_STAGED);
            TK_COPY(NULL, h2, d, PX_COPY_CUDA_STAGED);
            TK_SAME(h2, h);
            TK_RELEASE(h, d, h2);
        }
        px_memory_stats ms;
        TK_OK(px_space_memory(px_host_pinned(), &ms));
        lib[k] = ms.library_bytes;
        /* A copy uses at most 3 buffers: the pool holds that many. */
        const size_t used = (size_t)(cfgs[k].buffers < 3 ? cfgs[k].buffers : 3);
        TK_ASSERT(lib[k] >= cfgs[k].chunk_bytes * used,
                  "HOST_PINNED library_bytes %zu, less than the pool", lib[k]);
    }
    /* The pool was made again with the new shape: every buffer with its page of flags (those
       of the old shape are given back at px_finalize). */
    const size_t page = 4096;
    const size_t pool_growth = 3 * (((size_t)16 << 20) + page);
    TK_ASSERT(lib[1] - lib[0] == pool_growth, "pinned library bytes %zu -> %zu", lib[0], lib[1]);
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
    px_instance *in = tk_instance_on(PX_EXEC_CUDA, 0, "ordered");
    px_copy_path p = PX_COPY_PATH_COUNT;
#define ASYNC_STAGED(dst, src)                           \
    do {                                                 \
        p = PX_COPY_PATH_COUNT;                          \
        TK_OK(px_deep_copy_async(in, (dst), (src), &p)); \
        ck_assert_int_eq(p, PX_COPY_CUDA_STAGED);        \
    } while (0)

    /* host A -> device -> host B, no fence in between. Sizes over the pool. */
    const int64_t R = 2053, C = 4099; /* 64 MiB and some of uint64 */
    const int64_t e[2] = {R, C};
    px_view *A = tk_view_ex("A", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *A2 = tk_view_ex("A2", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *B = tk_view_ex("B", px_host(), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    px_view *D = tk_view_ex("D", px_device(0), PX_U64, 0, PX_LAYOUT_RIGHT, 2, e, PX_VIEW_NO_INIT);
    tk_randomize(A, 12000);
    tk_randomize(A2, 12001);
    tk_randomize(B, 12002);
    uint64_t before[PX_COPY_PATH_COUNT];
    tk_counts(before);
    ASYNC_STAGED(D, A);
    ASYNC_STAGED(B, D);
    TK_OK(px_instance_fence(in));
    TK_SAME(B, A);
    tk_counted(before, PX_COPY_CUDA_STAGED, 2, __LINE__);

    /* Two copies into the same device view: the later one wins. */
    tk_randomize(B, 12003);
    ASYNC_STAGED(D, A);
    ASYNC_STAGED(D, A2);
    ASYNC_STAGED(B, D);
    TK_OK(px_instance_fence(in));
    TK_SAME(B, A2);

    /* Copy in, fill rows (contiguous) then columns (strided) on the device, copy out: each
       fill after the copy, the second over the first, the copy out after both. */
    tk_randomize(B, 12004);
    const uint64_t v1 = 0x1111222233334444ull, v2 = 0x5555666677778888ull;
    px_view *rows = tk_sub2(D, 100, 900, 0, C), *cols = tk_sub2(D, 0, R, 1000, 1500);
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
            const uint64_t want = (j >= 1000 && j < 1500) ? v2
                                  : (i >= 100 && i < 900) ? v1
                                                          : a[i * C + j];
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
        tk_randomize(B, 12005);
        px_view *B0 = tk_to_host(B);
        CU_OK(cudaLaunchHostFunc(s, blocker_fn, &bk));
        ASYNC_STAGED(D, A2);
        ASYNC_STAGED(B, D);
        const int held = atomic_load(&bk.state);
        const px_status busy =
            px_staging_set(&(px_staging_config){0, 0, saved_cfg.threads == 1 ? 2 : 1});
        const bool b_untouched = memcmp(tk_data(B), tk_data(B0), tk_info(B).bytes) == 0;
        atomic_store(&bk.release, 1);
        TK_OK(px_instance_fence(in));
        TK_ASSERT(held == 0 || held == 1, "the staged copies waited for earlier work (state %d)",
                  held);
        TK_ASSERT(busy == PX_ERR_BUSY, "px_staging_set with copies in flight returned %s",
                  px_status_name(busy));
        TK_ASSERT(b_untouched,
                  "the destination was written before the instance's earlier work ran");
        ck_assert_int_eq(atomic_load(&bk.state), 2);
        cfg_is(&saved_cfg, __LINE__);
        TK_SAME(B, A2);
        TK_RELEASE(B0);
    }
#undef ASYNC_STAGED
    TK_RELEASE(A, A2, B, D, rows, cols);
    TK_OK(px_instance_destroy(&in));
}
END_TEST

/* ---- CUDA: host threads ---------------------------------------------------------------------- */

enum { NTHREADS = 4, TITERS = 16 };
#define TCAP (((int64_t)20 << 20) + 8192)

typedef struct worker {
    int id;
    uint64_t staged, dma, driver; /* driver: staged copies that found every buffer busy */
    tk_werr err;
} worker;

/* One copy, blocking or on `in`, that must take path `want`; counted in *counter. A
   staged copy may take the driver's path instead when every staging buffer is held by
   the other threads' copies and the pool is at its bound (documented): counted apart. */
static void w_copy(worker *w, px_instance *in, bool blocking, px_view *dst, px_view *src,
                   px_copy_path want, uint64_t *counter)
{
    px_copy_path p = PX_COPY_PATH_COUNT;
    if (blocking)
        TK_W_OK(&w->err, px_deep_copy(dst, src, &p));
    else
        TK_W_OK(&w->err, px_deep_copy_async(in, dst, src, &p));
    const bool fell_back = want == PX_COPY_CUDA_STAGED && p == PX_COPY_CUDA_PAGEABLE;
    TK_W_CHECK(&w->err, p == want || fell_back, "a copy took %s, expected %s",
               px_copy_path_string(p), px_copy_path_string(want));
    if (!w->err.failed) ++*(fell_back ? &w->driver : counter);
}

/* A new 1-D view of TCAP bytes and its data pointer (NULL for DEVICE). */
static px_view *w_view(worker *w, const char *label, px_space space, unsigned char **data)
{
    const int64_t cap = TCAP;
    px_view_desc d = tk_desc(label, space, PX_U8, 1, &cap);
    d.flags = PX_VIEW_NO_INIT;
    px_view *v = NULL;
    px_view_info info;
    memset(&info, 0, sizeof info);
    TK_W_OK(&w->err, px_view_create(&v, &d));
    TK_W_OK(&w->err, px_view_info_get(v, &info));
    if (data) *data = info.data;
    return v;
}

static px_view *w_sub(worker *w, px_view *v, int64_t off, int64_t n)
{
    px_view *s = NULL;
    TK_W_OK(&w->err, px_view_subview(&s, v, &(px_slice){off, off + n, false}, 1));
    return s;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    px_instance *in = NULL;
    px_instance_desc idesc;
    memset(&idesc, 0, sizeof idesc);
    idesc.exec = PX_EXEC_CUDA;
    idesc.label = "worker";
    TK_W_OK(&w->err, px_instance_create(&in, &idesc));
    unsigned char *hs = NULL, *hd = NULL, *hp = NULL;
    px_view *src = w_view(w, "src", px_host(), &hs), *dst = w_view(w, "dst", px_host(), &hd);
    px_view *pin = w_view(w, "pin", px_host_pinned(), &hp);
    px_view *dev = w_view(w, "dev", px_device(0), NULL),
            *dev2 = w_view(w, "dev2", px_device(0), NULL);
    tk_rng r = tk_rng_seed(13000 + (uint64_t)w->id);
    if (!w->err.failed) {
        tk_random_bytes(&r, hs, (size_t)TCAP);
        tk_random_bytes(&r, hd, (size_t)TCAP);
    }

    for (int it = 0; it < TITERS && !w->err.failed; ++it) {
        /* A size from 1 byte to 16 MiB, log-uniform; offsets up to 4 KiB, odd ones too. */
        const int64_t top = (int64_t)1 << tk_int(&r, 0, 24);
        const int64_t n = tk_int(&r, 1, top);
        const int64_t os = tk_int(&r, 0, 4095), od = tk_int(&r, 0, 4095), o = tk_int(&r, 0, 4095);
        tk_random_bytes(&r, hs + os, (size_t)n);
        const unsigned char before = od > 0 ? hd[od - 1] : 0, after = hd[od + n];
        px_view *s_src = w_sub(w, src, os, n), *s_dst = w_sub(w, dst, od, n);
        px_view *s_pin = w_sub(w, pin, o, n), *s_dev = w_sub(w, dev, o, n);
        px_view *s_dev2 = w_sub(w, dev2, od, n);
        const bool blocking = it % 2;
        w_copy(w, in, false, s_dev, s_src, PX_COPY_CUDA_STAGED, &w->staged);
        w_copy(w, in, blocking, s_pin, s_dev, PX_COPY_CUDA_DMA, &w->dma);
        w_copy(w, in, false, s_dev2, s_pin, PX_COPY_CUDA_DMA, &w->dma);
        w_copy(w, in, blocking, s_dst, s_dev2, PX_COPY_CUDA_STAGED, &w->staged);
        TK_W_OK(&w->err, px_instance_fence(in));
        TK_W_CHECK(&w->err, memcmp(hp + o, hs + os, (size_t)n) == 0,
                   "iteration %d: pinned copy of %lld bytes wrong", it, (long long)n);
        TK_W_CHECK(&w->err, memcmp(hd + od, hs + os, (size_t)n) == 0,
                   "iteration %d: copy of %lld bytes wrong", it, (long long)n);
        TK_W_CHECK(&w->err, (od == 0 || hd[od - 1] == before) && hd[od + n] == after,
                   "iteration %d: bytes next to the destination changed", it);
        px_view *subs[] = {s_src, s_dst, s_pin, s_dev, s_dev2};
        for (size_t k = 0; k < sizeof subs / sizeof subs[0]; ++k)
            if (subs[k]) TK_W_OK(&w->err, px_view_release(&subs[k]));
    }
    if (in) (void)px_instance_fence(in);
    px_view *all[] = {src, dst, pin, dev, dev2};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        if (all[k]) (void)px_view_release(&all[k]);
    if (in) TK_W_OK(&w->err, px_instance_destroy(&in));
    return NULL;
}

START_TEST(threads_concurrent_copies)
{
    uint64_t before[PX_COPY_PATH_COUNT], after[PX_COPY_PATH_COUNT];
    tk_counts(before);
    pthread_t th[NTHREADS];
    worker w[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].id = t;
        ck_assert_int_eq(pthread_create(&th[t], NULL, worker_main, &w[t]), 0);
    }
    uint64_t staged = 0, dma = 0, driver = 0;
    for (int t = 0; t < NTHREADS; ++t) {
        ck_assert_int_eq(pthread_join(th[t], NULL), 0);
        staged += w[t].staged;
        dma += w[t].dma;
        driver += w[t].driver;
    }
    for (int t = 0; t < NTHREADS; ++t)
        TK_ASSERT(!w[t].err.failed, "thread %d: %s", t, w[t].err.msg);
    ck_assert_uint_eq(staged + driver, 2 * NTHREADS * TITERS);
    TK_ASSERT(staged > driver, "only %llu of %llu pageable copies were staged",
              (unsigned long long)staged, (unsigned long long)(staged + driver));
    ck_assert_uint_eq(dma, 2 * NTHREADS * TITERS);
    tk_counts(after);
    for (int k = 0; k < PX_COPY_PATH_COUNT; ++k) {
        const uint64_t want = before[k] + (k == PX_COPY_CUDA_STAGED     ? staged
                                           : k == PX_COPY_CUDA_DMA      ? dma
                                           : k == PX_COPY_CUDA_PAGEABLE ? driver
                                                                        : 0);
        TK_ASSERT(after[k] == want, "count of %s: %llu, expected %llu",
                  px_copy_path_string((px_copy_path)k), (unsigned long long)after[k],
                  (unsigned long long)want);
    }
}
END_TEST

#endif /* TK_HAVE_CUDA */

int main(void)
{
    TK_ADD(staging_case("staging", "config", 30), staging_config);
#ifdef TK_HAVE_CUDA
    TCase *tc = staging_case("staging_cuda", "staged", 60);
    tcase_add_loop_test(tc, staged_sizes, 0, 2);
    TK_ADD(tc, staging_reconfigured, staged_ordering, threads_concurrent_copies);
    tk_require("staging_cuda", tk_need_cuda);
    TK_ADD(staging_case("staging_4gib", "over_4gib", 120), copy_over_4gib);
    tk_require("staging_4gib", need_room_for_4gib);
#endif
    return tk_run();
}
