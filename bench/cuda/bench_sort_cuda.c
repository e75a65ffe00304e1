/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_sort_cuda: px_sort and px_sort_segments on the GPU against CUB's radix sorts called
 * directly (raw_sort.cu: DoubleBuffer forms, temporary storage allocated once), in one
 * process, on the same stream: keys alone (u32, u64, f64 descending), key-value pairs
 * (u32+u32, u64+u64), and a stable segmented sort. Before each sort the unsorted input is
 * copied back in (not timed); events around the sort alone; medians of N rounds (default
 * 11; 3 with --quick), the first variant rotating. Both results are compared element by
 * element. Each row prints CUB's time / portex's against the target >= 0.95.
 *   bench_sort_cuda [--quick] [--reps N]
 * Exit status: 0; 1 when portex's result differs from CUB's; 2 on an error; 77 without a
 * usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <cuda_runtime_api.h>
#include <portex/cuda.h>

#include "bench_util.h"
#include "raw_sort.h"

typedef struct sort_case {
    const char *name;
    raw_sort_kind kind;
    px_dtype key, value; /* value PX_DTYPE_COUNT: none */
    unsigned flags;
    int log2n;
    int log2segments; /* 0: not segmented */
} sort_case;

typedef struct ctx {
    const sort_case *c;
    px_instance *inst;
    cudaStream_t s;
    int64_t n, segments;
    size_t ks, vs;
    void *k_orig, *v_orig;    /* the unsorted input */
    px_view *pk, *pv, *poff;  /* portex's */
    void *k[2], *v[2], *temp; /* CUB's */
    size_t temp_bytes;
    int sel;
    cudaEvent_t e0, e1;
} ctx;

static void *device_alloc(size_t bytes)
{
    void *p = NULL;
    CU(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

static void *span_data(px_view *v)
{
    px_span s;
    CHECK(px_view_span(v, &s));
    return s.data;
}

static double sample(int variant, void *p)
{
    ctx *c = p;
    const size_t kb = (size_t)c->n * c->ks, vb = (size_t)c->n * c->vs;
    void *k = variant == 0 ? span_data(c->pk) : c->k[0];
    CU(cudaMemcpyAsync(k, c->k_orig, kb, cudaMemcpyDeviceToDevice, c->s));
    if (c->vs)
        CU(cudaMemcpyAsync(variant == 0 ? span_data(c->pv) : c->v[0], c->v_orig, vb,
                           cudaMemcpyDeviceToDevice, c->s));
    float ms = 0;
    CU(cudaEventRecord(c->e0, c->s));
    if (variant == 0 && c->poff)
        CHECK(px_sort_segments(c->inst, c->pk, c->pv, c->poff, c->c->flags));
    else if (variant == 0)
        CHECK(px_sort(c->inst, c->pk, c->pv, c->c->flags));
    else
        CU(raw_sort(c->c->kind, c->k[0], c->k[1], c->v[0], c->v[1], c->n, c->segments,
                    c->poff ? span_data(c->poff) : NULL, c->temp, &c->temp_bytes, c->s, &c->sel));
    CU(cudaEventRecord(c->e1, c->s));
    CU(cudaEventSynchronize(c->e1));
    CU(cudaEventElapsedTime(&ms, c->e0, c->e1));
    return ms;
}

/* Random keys: uniform bits (doubles: uniform in [-1, 1)); values: the index. */
static void fill_input(ctx *c)
{
    const size_t kb = (size_t)c->n * c->ks;
    unsigned char *h = malloc(kb);
    if (!h) exit(2);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int64_t i = 0; i < c->n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (c->c->key == PX_F64) {
            const double d = (double)(x >> 11) * 0x1p-52 - 1.0;
            memcpy(h + (size_t)i * 8, &d, 8);
        } else {
            memcpy(h + (size_t)i * c->ks, &x, c->ks);
        }
    }
    CU(cudaMemcpy(c->k_orig, h, kb, cudaMemcpyHostToDevice));
    free(h);
    if (c->vs) {
        unsigned char *v = malloc((size_t)c->n * c->vs);
        if (!v) exit(2);
        for (int64_t i = 0; i < c->n; ++i) {
            const uint64_t w = (uint64_t)i;
            memcpy(v + (size_t)i * c->vs, &w, c->vs);
        }
        CU(cudaMemcpy(c->v_orig, v, (size_t)c->n * c->vs, cudaMemcpyHostToDevice));
        free(v);
    }
}

/* Segment boundaries: random lengths averaging n / segments, the last one ending at n. */
static px_view *make_offsets(int64_t n, int64_t segments)
{
    px_view *o = NULL;
    const px_view_desc d = bench_desc("offsets", px_device(0), PX_I64, 1, segments + 1, 0);
    CHECK(px_view_create(&o, &d));
    int64_t *h = malloc((size_t)(segments + 1) * sizeof *h);
    if (!h) exit(2);
    uint64_t x = 12345;
    h[0] = 0;
    for (int64_t s = 1; s < segments; ++s) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const int64_t len = (int64_t)(x % (uint64_t)(2 * n / segments));
        h[s] = h[s - 1] + len < n ? h[s - 1] + len : n;
    }
    h[segments] = n;
    CU(cudaMemcpy(span_data(o), h, (size_t)(segments + 1) * sizeof *h, cudaMemcpyHostToDevice));
    free(h);
    return o;
}

/* portex's sorted keys and values equal CUB's. */
static bool same_result(ctx *c)
{
    const size_t kb = (size_t)c->n * c->ks, vb = (size_t)c->n * c->vs;
    unsigned char *a = malloc(kb + vb), *b = malloc(kb + vb);
    if (!a || !b) exit(2);
    CU(cudaMemcpy(a, span_data(c->pk), kb, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(b, c->k[c->sel], kb, cudaMemcpyDeviceToHost));
    if (vb) {
        CU(cudaMemcpy(a + kb, span_data(c->pv), vb, cudaMemcpyDeviceToHost));
        CU(cudaMemcpy(b + kb, c->v[c->sel], vb, cudaMemcpyDeviceToHost));
    }
    const bool same = memcmp(a, b, kb + vb) == 0;
    free(a);
    free(b);
    return same;
}

static int run_case(const sort_case *sc, px_instance *inst, bool quick, int reps)
{
    ctx c = {.c = sc, .inst = inst};
    CHECK(px_instance_cuda_stream(inst, &c.s));
    c.n = (int64_t)1 << (quick ? 20 : sc->log2n);
    c.segments = sc->log2segments ? (int64_t)1 << (quick ? 8 : sc->log2segments) : -1;
    c.ks = px_dtype_size(sc->key);
    c.vs = sc->value == PX_DTYPE_COUNT ? 0 : px_dtype_size(sc->value);
    const size_t kb = (size_t)c.n * c.ks, vb = (size_t)c.n * c.vs;
    c.k_orig = device_alloc(kb);
    c.v_orig = c.vs ? device_alloc(vb) : NULL;
    for (int i = 0; i < 2; ++i) {
        c.k[i] = device_alloc(kb);
        c.v[i] = c.vs ? device_alloc(vb) : NULL;
    }
    px_view_desc d = bench_desc("keys", px_device(0), sc->key, 1, c.n, 0);
    CHECK(px_view_create(&c.pk, &d));
    if (c.vs) {
        d = bench_desc("values", px_device(0), sc->value, 1, c.n, 0);
        CHECK(px_view_create(&c.pv, &d));
    }
    if (c.segments > 0) c.poff = make_offsets(c.n, c.segments);
    fill_input(&c);
    CU(raw_sort(sc->kind, NULL, NULL, NULL, NULL, c.n, c.segments,
                c.poff ? span_data(c.poff) : NULL, NULL, &c.temp_bytes, c.s, &c.sel));
    c.temp = device_alloc(c.temp_bytes);
    CU(cudaEventCreate(&c.e0));
    CU(cudaEventCreate(&c.e1));

    (void)sample(0, &c);
    (void)sample(1, &c);
    if (!same_result(&c)) {
        printf("bench_sort_cuda: %s: portex's result differs from CUB's\n", sc->name);
        return 1;
    }
    double med[2];
    if (bench_rotate(2, 1, reps, sample, &c, med) != 0) return 2;
    const double ratio = med[1] / med[0];
    const double gkeys = (double)c.n * 1e-6;
    printf(
        "| %-24s | %5.1f M | %8.3f ms, %6.0f Mkeys/s | %8.3f ms, %6.0f Mkeys/s | %5.3f | >= 0.95 "
        "| %-4s |\n",
        sc->name, gkeys, med[1], gkeys / med[1] * 1e3, med[0], gkeys / med[0] * 1e3, ratio,
        ratio >= 0.95 ? "yes" : "NO");
    fflush(stdout);
    CU(cudaEventDestroy(c.e0));
    CU(cudaEventDestroy(c.e1));
    CU(cudaFree(c.temp));
    CU(cudaFree(c.k_orig));
    if (c.v_orig) CU(cudaFree(c.v_orig));
    for (int i = 0; i < 2; ++i) {
        CU(cudaFree(c.k[i]));
        if (c.v[i]) CU(cudaFree(c.v[i]));
    }
    CHECK(px_view_release(&c.pk));
    if (c.pv) CHECK(px_view_release(&c.pv));
    if (c.poff) CHECK(px_view_release(&c.poff));
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 11;
    const bool quick = bench_options(argc, argv, &reps);
    if (quick) reps = 3;
    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_sort_cuda")) return 77;
    px_instance *inst = NULL;
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &inst));
    static const sort_case cases[] = {
        {"u32 keys", RAW_U32, PX_U32, PX_DTYPE_COUNT, 0, 28, 0},
        {"u64 keys", RAW_U64, PX_U64, PX_DTYPE_COUNT, 0, 27, 0},
        {"f64 keys, descending", RAW_F64_DESC, PX_F64, PX_DTYPE_COUNT, PX_SORT_DESCENDING, 27, 0},
        {"u32 keys + u32 values", RAW_U32_U32, PX_U32, PX_U32, 0, 27, 0},
        {"u64 keys + u64 values", RAW_U64_U64, PX_U64, PX_U64, 0, 26, 0},
        {"u32 keys, 2^14 segments", RAW_SEG_U32, PX_U32, PX_DTYPE_COUNT, 0, 24, 14},
    };
    printf("bench_sort_cuda: px_sort against CUB's DeviceRadixSort / DeviceSegmentedSort\n");
    printf("| case                     | keys    | CUB                            | portex         "
           "                | ratio | target  | met? |\n");
    printf("|--------------------------|--------:|--------------------------------|----------------"
           "----------------|------:|---------|------|\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int st = run_case(&cases[i], inst, quick, reps);
        if (st) return st;
    }
    CHECK(px_finalize());
    return 0;
}
