/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_copy: deep_copy between host and device memory against raw CUDA, in one process,
 * on the same buffers and the same stream (the instance's, through portex/cuda.h).
 *
 *   bench_copy [--quick] [--reps N] [--check]
 *
 * Cases (1 GiB, 64 MiB with --quick):
 *   pinned    px_deep_copy_async HOST_PINNED <-> DEVICE (path CUDA_DMA) against
 *             cudaMemcpyAsync, timed with events on the stream; also how long the portex
 *             call takes to return, against the copy's time.
 *   pageable  px_deep_copy_async HOST <-> DEVICE (path CUDA_STAGED: portex's pinned
 *             buffers, host threads) + px_instance_fence, against the driver's pageable
 *             cudaMemcpyAsync + cudaStreamSynchronize, host wall time; also how long each
 *             call blocks the caller before returning.
 *   8 bytes   px_deep_copy_async pinned -> device + px_instance_fence against
 *             cudaMemcpyAsync + cudaStreamSynchronize: the round trip to the GPU and back.
 *   bound     the machine's own memcpy bandwidth between pageable and pinned memory, both
 *             ways, with the staging's thread count, 8 threads and every core, measured in
 *             the same run (host_copy_bound.h). A staged copy can go no faster than that
 *             host part nor than the pinned DMA: the smaller of the two, same direction,
 *             is its bound, and the staged copy's bandwidth is given as a ratio to it.
 *
 * BENCH_COPY_CHUNK_SWEEP=1 (or a list of MiB, "4,8,16,32" by default) adds a sweep: the
 * staged copies both ways again with each chunk size (px_staging_set), against the bound,
 * to help choose the default.
 *
 * Each case runs once untimed per side first (the first staged copy builds the staging
 * pool), then N times (default 11, 5 with --quick) with raw and portex alternating which
 * goes first; medians. Before timing, the data is checked once (random bytes) in every
 * direction, at odd sizes and offsets, and the ordering of staged copies on the stream
 * (work queued before is seen, work queued after sees the copy, implicitly synchronising
 * driver calls during a staged copy do not deadlock). Exit status: 77 without a
 * GPU, 1 when data is wrong (or, with --check, when a target is missed), 2 on an error. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include <portex.h>
#include <portex/cuda.h>
#include "bench_util.h"
#include "host_copy_bound.h"

/* ---- Timing ------------------------------------------------------------------------------ */

static double gbps(size_t bytes, double ms) { return (double)bytes / (ms * 1e6); }

/* ---- The buffers ----------------------------------------------------------------------------- */

typedef struct bench {
    px_instance *inst;
    cudaStream_t s;
    size_t bytes;
    px_view *dev, *pin, *host_a, *host_b; /* PX_U8, `bytes` elements */
    unsigned char *d, *p, *a, *b;         /* their data */
    cudaEvent_t e0, e1;
} bench;

static px_view *new_view(const char *label, px_space space, size_t n, unsigned char **data)
{
    px_view *v;
    CHECK(px_view_create_1d_ex(&v, label, space, PX_U8, (int64_t)n, PX_VIEW_NO_INIT));
    px_view_info info;
    CHECK(px_view_info_get(v, &info));
    *data = info.data;
    return v;
}

/* [off, off + n) of a rank-1 view. */
static px_view *sub(px_view *v, size_t off, size_t n)
{
    px_slice s = px_slice_range((int64_t)off, (int64_t)(off + n));
    px_view *out;
    CHECK(px_view_subview(&out, v, &s, 1));
    return out;
}

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        memcpy(p + i, &z, 8);
    }
    for (; i < n; ++i) p[i] = (unsigned char)(i * 131u + 7u);
}

/* ---- Checks --------------------------------------------------------------------------------- */

static int failures;

static void expect_equal(const char *what, const unsigned char *got, const unsigned char *want,
                         size_t n)
{
    if (memcmp(got, want, n) == 0) return;
    size_t i = 0;
    while (got[i] == want[i]) ++i;
    fprintf(stderr, "DATA WRONG: %s: first difference at byte %zu of %zu (got %u, want %u)\n", what,
            i, n, got[i], want[i]);
    failures++;
}

static void expect_byte(const char *what, const unsigned char *got, unsigned char want, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want) {
            fprintf(stderr, "DATA WRONG: %s: byte %zu of %zu is %u, want %u\n", what, i, n, got[i],
                    want);
            failures++;
            return;
        }
}

static void expect_path(const char *what, px_copy_path got, px_copy_path want)
{
    if (got == want) return;
    fprintf(stderr, "PATH: %s took %s, expected %s\n", what, px_copy_path_string(got),
            px_copy_path_string(want));
    failures++;
}

/* Staged copies of [off, off + n) both ways, each direction checked against the driver. */
static void check_staged_range(bench *B, size_t off, size_t n)
{
    char what[96];
    px_view *hd = sub(B->host_a, off, n), *dd = sub(B->dev, off, n), *hb = sub(B->host_b, off, n);
    px_copy_path path;
    /* Raw work goes on the instance's stream: the legacy stream does not order against it. */
    CU(cudaMemsetAsync(B->d + off, 0, n, B->s));
    CHECK(px_deep_copy_async(B->inst, dd, hd, &path));
    snprintf(what, sizeof what, "staged host->device of %zu bytes at offset %zu", n, off);
    expect_path(what, path, PX_COPY_CUDA_STAGED);
    CHECK(px_instance_fence(B->inst));
    CU(cudaMemcpy(B->b + off, B->d + off, n, cudaMemcpyDeviceToHost));
    expect_equal(what, B->b + off, B->a + off, n);
    memset(B->b + off, 0xEE, n);
    CHECK(px_deep_copy_async(B->inst, hb, dd, &path));
    snprintf(what, sizeof what, "staged device->host of %zu bytes at offset %zu", n, off);
    expect_path(what, path, PX_COPY_CUDA_STAGED);
    CHECK(px_instance_fence(B->inst));
    expect_equal(what, B->b + off, B->a + off, n);
    CHECK(px_view_release(&hd));
    CHECK(px_view_release(&dd));
    CHECK(px_view_release(&hb));
}

static void check_all(bench *B)
{
    const size_t n = B->bytes;
    px_copy_path path;
    /* Pinned DMA both ways. */
    memcpy(B->p, B->a, n);
    CHECK(px_deep_copy_async(B->inst, B->dev, B->pin, &path));
    expect_path("pinned host->device", path, PX_COPY_CUDA_DMA);
    CHECK(px_instance_fence(B->inst));
    CU(cudaMemcpy(B->b, B->d, n, cudaMemcpyDeviceToHost));
    expect_equal("pinned host->device", B->b, B->a, n);
    memset(B->p, 0xA5, n);
    CHECK(px_deep_copy_async(B->inst, B->pin, B->dev, &path));
    CHECK(px_instance_fence(B->inst));
    expect_equal("pinned device->host", B->p, B->a, n);

    /* Staged, whole buffers, and the ordering on the stream: work queued after the call
       (a raw copy out of device memory) must see the data... */
    CU(cudaMemsetAsync(B->d, 0, n, B->s));
    CHECK(px_deep_copy_async(B->inst, B->dev, B->host_a, &path));
    expect_path("staged host->device", path, PX_COPY_CUDA_STAGED);
    memset(B->p, 0xA5, n);
    CU(cudaMemcpyAsync(B->p, B->d, n, cudaMemcpyDeviceToHost, B->s));
    CHECK(px_instance_fence(B->inst));
    expect_equal("staged host->device, then a raw copy queued after it", B->p, B->a, n);
    /* ... and work queued before it (a memset) must be seen by it. */
    CU(cudaMemsetAsync(B->d, 0x5A, n, B->s));
    CHECK(px_deep_copy_async(B->inst, B->host_b, B->dev, &path));
    expect_path("staged device->host", path, PX_COPY_CUDA_STAGED);
    CHECK(px_instance_fence(B->inst));
    expect_byte("staged device->host after a memset queued before it", B->b, 0x5A, n);
    /* Two staged copies in a row through the same pageable buffer (D2H then H2D): the
       second must read what the first wrote. */
    CU(cudaMemcpyAsync(B->d, B->p, n, cudaMemcpyHostToDevice, B->s)); /* p holds a's bytes */
    CHECK(px_deep_copy_async(B->inst, B->host_b, B->dev, NULL));
    CU(cudaMemsetAsync(B->d, 0, n, B->s));
    CHECK(px_deep_copy_async(B->inst, B->dev, B->host_b, NULL));
    CU(cudaMemcpyAsync(B->p, B->d, n, cudaMemcpyDeviceToHost, B->s));
    CHECK(px_instance_fence(B->inst));
    expect_equal("staged device->host then host->device through one buffer", B->p, B->a, n);

    /* The blocking form. */
    memset(B->b, 0, n);
    CHECK(px_deep_copy(B->host_b, B->dev, &path));
    expect_path("px_deep_copy device->host", path, PX_COPY_CUDA_STAGED);
    expect_equal("px_deep_copy device->host", B->b, B->a, n);
    CU(cudaMemsetAsync(B->d, 0, n, B->s));
    CHECK(px_deep_copy(B->dev, B->host_a, &path));
    expect_path("px_deep_copy host->device", path, PX_COPY_CUDA_STAGED);
    CU(cudaMemcpy(B->b, B->d, n, cudaMemcpyDeviceToHost));
    expect_equal("px_deep_copy host->device", B->b, B->a, n);

    /* Calls that synchronise implicitly (cudaFree, cudaFreeHost), and portex's own device
       allocation and release, while staged copies are in flight: they wait for the copies
       (whose workers need nothing from this thread) and must not deadlock with them. */
    memset(B->b, 0, n);
    CHECK(px_deep_copy_async(B->inst, B->host_b, B->dev, NULL));
    void *tmp_d = NULL, *tmp_h = NULL;
    CU(cudaMalloc(&tmp_d, (size_t)1 << 20));
    CU(cudaHostAlloc(&tmp_h, (size_t)1 << 20, cudaHostAllocDefault));
    CU(cudaFree(tmp_d));
    CU(cudaFreeHost(tmp_h));
    unsigned char *tmp_data;
    px_view *tmp = new_view("tmp", px_device(0), (size_t)1 << 20, &tmp_data);
    CHECK(px_deep_copy_async(B->inst, B->dev, B->host_a, NULL));
    CHECK(px_view_release(&tmp));
    CHECK(px_instance_fence(B->inst));
    expect_equal("staged device->host across cudaFree, cudaFreeHost and a view's release", B->b,
                 B->a, n);

    /* Odd sizes and unaligned offsets: one byte, one chunk and a bit, a partial last chunk. */
    check_staged_range(B, 3, 1);
    check_staged_range(B, 5, 4097);
    check_staged_range(B, 7, (n > ((size_t)20 << 20) ? ((size_t)20 << 20) : n / 2) + 12345);
}

/* ---- Cases ---------------------------------------------------------------------------------- */

typedef struct side {
    double total_ms; /* median */
    double call_ms;  /* median time until the call returned */
} side;

typedef struct pair {
    side raw, px;
} pair;

/* What the rounds of a comparison measured, by side (0: raw, 1: portex): the total time
   and the time until the call returned. */
typedef struct samples {
    double *total[2], *call[2];
    int reps;
} samples;

static samples samples_new(int reps)
{
    samples s = {{NULL, NULL}, {NULL, NULL}, reps};
    for (int k = 0; k < 2; ++k) {
        s.total[k] = malloc((size_t)reps * sizeof(double));
        s.call[k] = malloc((size_t)reps * sizeof(double));
        if (!s.total[k] || !s.call[k]) exit(2);
    }
    return s;
}

/* Round r's times of one side; the warm-up round (r < 0) is not kept. */
static void samples_put(samples *s, int r, int px, double total, double call)
{
    if (r < 0) return;
    s->total[px][r] = total;
    s->call[px][r] = call;
}

/* Each side's medians; the samples are freed. */
static pair samples_medians(samples *s)
{
    pair out = {{median(s->total[0], s->reps), median(s->call[0], s->reps)},
                {median(s->total[1], s->reps), median(s->call[1], s->reps)}};
    for (int k = 0; k < 2; ++k) {
        free(s->total[k]);
        free(s->call[k]);
    }
    return out;
}

/* Pinned DMA, timed by events on the stream. */
static pair time_pinned(bench *B, int to_device, int reps)
{
    samples sm = samples_new(reps);
    void *dst = to_device ? (void *)B->d : (void *)B->p;
    const void *src = to_device ? (const void *)B->p : (const void *)B->d;
    px_view *vdst = to_device ? B->dev : B->pin, *vsrc = to_device ? B->pin : B->dev;
    const enum cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    for (int r = -1; r < reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            const int do_px = (r + k) % 2 != 0; /* alternate which side goes first */
            float ms = 0.0f;
            CU(cudaEventRecord(B->e0, B->s));
            const double t0 = now_ms();
            if (do_px)
                CHECK(px_deep_copy_async(B->inst, vdst, vsrc, NULL));
            else
                CU(cudaMemcpyAsync(dst, src, B->bytes, kind, B->s));
            const double call = now_ms() - t0;
            CU(cudaEventRecord(B->e1, B->s));
            CU(cudaEventSynchronize(B->e1));
            CU(cudaEventElapsedTime(&ms, B->e0, B->e1));
            samples_put(&sm, r, do_px, ms, call);
        }
    }
    return samples_medians(&sm);
}

/* Pageable memory: the driver's copy against the staged one, host wall time until the
   stream (instance) is done. */
static pair time_pageable(bench *B, int to_device, int reps)
{
    samples sm = samples_new(reps);
    void *dst = to_device ? (void *)B->d : (void *)B->b;
    const void *src = to_device ? (const void *)B->a : (const void *)B->d;
    px_view *vdst = to_device ? B->dev : B->host_b, *vsrc = to_device ? B->host_a : B->dev;
    const enum cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    for (int r = -1; r < reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            const int do_px = (r + k) % 2 != 0;
            const double t0 = now_ms();
            if (do_px)
                CHECK(px_deep_copy_async(B->inst, vdst, vsrc, NULL));
            else
                CU(cudaMemcpyAsync(dst, src, B->bytes, kind, B->s));
            const double call = now_ms() - t0;
            if (do_px)
                CHECK(px_instance_fence(B->inst));
            else
                CU(cudaStreamSynchronize(B->s));
            const double total = now_ms() - t0;
            samples_put(&sm, r, do_px, total, call);
        }
    }
    return samples_medians(&sm);
}

/* 8 bytes pinned -> device and wait: microseconds. */
static pair time_small(bench *B, int reps)
{
    samples sm = samples_new(reps);
    px_view *d8 = sub(B->dev, 0, 8), *p8 = sub(B->pin, 0, 8);
    for (int r = -50; r < reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            const int do_px = (r + k) % 2 != 0;
            const double t0 = now_ms();
            if (do_px) {
                CHECK(px_deep_copy_async(B->inst, d8, p8, NULL));
                CHECK(px_instance_fence(B->inst));
            } else {
                CU(cudaMemcpyAsync(B->d, B->p, 8, cudaMemcpyHostToDevice, B->s));
                CU(cudaStreamSynchronize(B->s));
            }
            samples_put(&sm, r, do_px, (now_ms() - t0) * 1e3, 0.0);
        }
    }
    CHECK(px_view_release(&d8));
    CHECK(px_view_release(&p8));
    return samples_medians(&sm); /* in microseconds; no call times */
}

/* Staged copies alone (no driver copy in between): host wall time to the fence. */
static side time_staged(bench *B, int to_device, int reps)
{
    double *tt = malloc((size_t)reps * sizeof(double)), *tc = malloc((size_t)reps * sizeof(double));
    if (!tt || !tc) exit(2);
    px_view *vdst = to_device ? B->dev : B->host_b, *vsrc = to_device ? B->host_a : B->dev;
    for (int r = -1; r < reps; ++r) {
        const double t0 = now_ms();
        CHECK(px_deep_copy_async(B->inst, vdst, vsrc, NULL));
        const double call = now_ms() - t0;
        CHECK(px_instance_fence(B->inst));
        if (r < 0) continue;
        tt[r] = now_ms() - t0;
        tc[r] = call;
    }
    side out = {median(tt, reps), median(tc, reps)};
    free(tt);
    free(tc);
    return out;
}

/* BENCH_COPY_CHUNK_SWEEP: "1" for 4, 8, 16 and 32 MiB, or a comma-separated list of MiB. */
static int sweep_sizes(const char *spec, size_t *mib, int max)
{
    static const size_t dflt[] = {4, 8, 16, 32};
    int n = 0;
    if (!strcmp(spec, "1")) {
        for (; n < 4; ++n) mib[n] = dflt[n];
        return n;
    }
    const char *p = spec;
    while (*p && n < max) {
        char *end = NULL;
        const unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < 1 || v > 4096) {
            fprintf(stderr, "BENCH_COPY_CHUNK_SWEEP: '%s' is not 1 or a list of MiB (1 to 4096)\n",
                    spec);
            exit(2);
        }
        mib[n++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            fprintf(stderr, "BENCH_COPY_CHUNK_SWEEP: '%s' is not 1 or a list of MiB (1 to 4096)\n",
                    spec);
            exit(2);
        }
    }
    return n;
}

static void chunk_sweep(bench *B, const char *spec, int reps, double bound_h2d, double bound_d2h)
{
    size_t mib[16];
    const int n = sweep_sizes(spec, mib, 16);
    px_staging_config orig;
    CHECK(px_staging_get(&orig));
    printf("\nchunk sweep (BENCH_COPY_CHUNK_SWEEP=%s): px_staging_set chunk_bytes with %d buffers "
           "and %d threads; "
           "%d runs each after a warm-up, medians; bound H2D %.2f GB/s, D2H %.2f GB/s\n",
           spec, orig.buffers, orig.threads, reps, bound_h2d, bound_d2h);
    printf("| chunk (MiB) | H2D (GB/s) | H2D / bound | D2H (GB/s) | D2H / bound | H2D call (ms) | "
           "D2H call (ms) |\n");
    printf("|------------:|-----------:|------------:|-----------:|------------:|--------------:|--"
           "------------:|\n");
    for (int k = 0; k < n; ++k) {
        CHECK(px_instance_fence(B->inst));
        const px_staging_config c = {mib[k] << 20, 0, 0};
        CHECK(px_staging_set(&c));
        const side h = time_staged(B, 1, reps), d = time_staged(B, 0, reps);
        const double hg = gbps(B->bytes, h.total_ms), dg = gbps(B->bytes, d.total_ms);
        printf("| %11zu | %10.2f | %11.3f | %10.2f | %11.3f | %13.3f | %13.3f |\n", mib[k], hg,
               hg / bound_h2d, dg, dg / bound_d2h, h.call_ms, d.call_ms);
    }
    CHECK(px_instance_fence(B->inst));
    CHECK(px_staging_set(&orig));
}

/* ---- Report --------------------------------------------------------------------------------- */

typedef struct row {
    char name[48];
    double raw, px, ratio;
    char target[32];
    int met;
} row;

static int nrows;
static row rows[16];

static void add_row(const char *name, double raw, double px, double ratio, const char *target,
                    int met)
{
    row *r = &rows[nrows++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->raw = raw;
    r->px = px;
    r->ratio = ratio;
    snprintf(r->target, sizeof r->target, "%s", target);
    r->met = met;
}

int main(int argc, char **argv)
{
    int quick = 0, reps = 0, check = 0;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[k], "--check")) {
            check = 1;
        } else if (!strcmp(argv[k], "--reps") && k + 1 < argc) {
            reps = atoi(argv[++k]);
        } else {
            fprintf(stderr, "usage: %s [--quick] [--reps N] [--check]\n", argv[0]);
            return 2;
        }
    }
    if (reps <= 0) reps = quick ? 5 : 11;
    if (reps < 3) reps = 3;
    const int small_reps = quick ? 300 : 2000;

    CHECK(px_init(NULL));
    if (px_exec_space_check(PX_EXEC_CUDA) != PX_OK) {
        printf("bench_copy: skipped, no GPU (%s)\n", px_last_error());
        CHECK(px_finalize());
        return 77;
    }

    bench B;
    memset(&B, 0, sizeof B);
    B.bytes = quick ? ((size_t)64 << 20) : ((size_t)1 << 30);
    px_instance_desc idesc = {.exec = PX_EXEC_CUDA, .device = 0, .label = "bench_copy"};
    CHECK(px_instance_create(&B.inst, &idesc));
    CHECK(px_instance_cuda_stream(B.inst, &B.s));
    CU(cudaEventCreate(&B.e0));
    CU(cudaEventCreate(&B.e1));
    B.dev = new_view("dev", px_device(0), B.bytes, &B.d);
    B.pin = new_view("pin", px_host_pinned(), B.bytes, &B.p);
    B.host_a = new_view("host_a", px_host(), B.bytes, &B.a);
    B.host_b = new_view("host_b", px_host(), B.bytes, &B.b);
    fill_random(B.a, B.bytes, 12345); /* every page of the pageable buffers touched */
    memset(B.b, 0, B.bytes);

    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, 0));
    px_staging_config sc;
    CHECK(px_staging_get(&sc));
    printf("bench_copy: %s, %zu MiB per copy, %d runs each after a warm-up, medians; staging: "
           "%d x %zu MiB pinned buffers, %d threads\n\n",
           prop.name, B.bytes >> 20, reps, sc.buffers, sc.chunk_bytes >> 20, sc.threads);

    const double t_check = now_ms();
    check_all(&B);
    printf("data checks: %s (%.1f s)\n\n", failures ? "FAILED" : "passed",
           (now_ms() - t_check) * 1e-3);

    char target[32];
    pair h = time_pinned(&B, 1, reps), d = time_pinned(&B, 0, reps);
    add_row("pinned H2D (GB/s)", gbps(B.bytes, h.raw.total_ms), gbps(B.bytes, h.px.total_ms),
            h.raw.total_ms / h.px.total_ms, ">= 0.98x", h.raw.total_ms / h.px.total_ms >= 0.98);
    add_row("pinned D2H (GB/s)", gbps(B.bytes, d.raw.total_ms), gbps(B.bytes, d.px.total_ms),
            d.raw.total_ms / d.px.total_ms, ">= 0.98x", d.raw.total_ms / d.px.total_ms >= 0.98);
    add_row("pinned H2D call returns (ms)", h.raw.call_ms, h.px.call_ms,
            h.px.call_ms / h.px.total_ms, "< 1% of copy", h.px.call_ms < 0.01 * h.px.total_ms);
    add_row("pinned D2H call returns (ms)", d.raw.call_ms, d.px.call_ms,
            d.px.call_ms / d.px.total_ms, "< 1% of copy", d.px.call_ms < 0.01 * d.px.total_ms);

    /* The host part's own bound, this run: memcpy between the pageable and the pinned
       buffers with the staging's thread count, 8 threads and every core. */
    int counts[3] = {sc.threads, 8, hcb_cores()}, ncounts = 0;
    double to_pinned[3], from_pinned[3];
    for (int k = 0; k < 3; ++k) {
        int seen = 0;
        for (int j = 0; j < ncounts; ++j) seen |= counts[j] == counts[k];
        if (!seen) counts[ncounts++] = counts[k];
    }
    const int mreps = quick ? 3 : 5;
    printf("host memcpy between pageable and pinned memory, this run (%zu MiB, median of %d):\n",
           B.bytes >> 20, mreps);
    printf("| threads | pageable -> pinned (GB/s) | pinned -> pageable (GB/s) |\n");
    printf("|--------:|--------------------------:|--------------------------:|\n");
    for (int k = 0; k < ncounts; ++k) {
        to_pinned[k] = hcb_bandwidth(B.a, B.p, B.bytes, counts[k], mreps);
        from_pinned[k] = hcb_bandwidth(B.p, B.b, B.bytes, counts[k], mreps);
        if (to_pinned[k] <= 0.0 || from_pinned[k] <= 0.0) {
            fprintf(stderr, "could not start %d threads for the memcpy bound\n", counts[k]);
            exit(2);
        }
        printf("| %7d | %25.2f | %25.2f |%s\n", counts[k], to_pinned[k], from_pinned[k],
               counts[k] == sc.threads ? " the staging's thread count" : "");
    }
    /* counts[0] is the staging's thread count. */
    const double dma_h2d = gbps(B.bytes, h.raw.total_ms), dma_d2h = gbps(B.bytes, d.raw.total_ms);
    const double bound_h2d = to_pinned[0] < dma_h2d ? to_pinned[0] : dma_h2d;
    const double bound_d2h = from_pinned[0] < dma_d2h ? from_pinned[0] : dma_d2h;
    printf("staged copy bound = min(memcpy with %d threads, pinned DMA): H2D %.2f GB/s (%s), D2H "
           "%.2f GB/s (%s)\n\n",
           sc.threads, bound_h2d, to_pinned[0] < dma_h2d ? "memcpy" : "DMA", bound_d2h,
           from_pinned[0] < dma_d2h ? "memcpy" : "DMA");

    pair ph = time_pageable(&B, 1, reps), pd = time_pageable(&B, 0, reps);
    const double ph_px = gbps(B.bytes, ph.px.total_ms), pd_px = gbps(B.bytes, pd.px.total_ms);
    snprintf(target, sizeof target, ">= 1.5x, >= 25 GB/s");
    add_row("pageable H2D (GB/s)", gbps(B.bytes, ph.raw.total_ms), ph_px,
            ph.raw.total_ms / ph.px.total_ms, target,
            ph.raw.total_ms / ph.px.total_ms >= 1.5 && ph_px >= 25.0);
    add_row("pageable D2H (GB/s)", gbps(B.bytes, pd.raw.total_ms), pd_px,
            pd.raw.total_ms / pd.px.total_ms, target,
            pd.raw.total_ms / pd.px.total_ms >= 1.5 && pd_px >= 25.0);
    /* Against the bound: 0.9x, and 40 GB/s where the bound allows it (0.9x bound >= 40). */
    const int h_allows = 0.9 * bound_h2d >= 40.0, d_allows = 0.9 * bound_d2h >= 40.0;
    add_row("staged H2D / bound (GB/s)", bound_h2d, ph_px, ph_px / bound_h2d,
            h_allows ? ">= 0.9x, >= 40 GB/s" : ">= 0.9x (bound < 44)",
            ph_px >= 0.9 * bound_h2d && (!h_allows || ph_px >= 40.0));
    add_row("staged D2H / bound (GB/s)", bound_d2h, pd_px, pd_px / bound_d2h,
            d_allows ? ">= 0.9x, >= 40 GB/s" : ">= 0.9x (bound < 44)",
            pd_px >= 0.9 * bound_d2h && (!d_allows || pd_px >= 40.0));
    add_row("pageable H2D call blocks (ms)", ph.raw.call_ms, ph.px.call_ms,
            ph.px.call_ms / ph.px.total_ms, "portex < 1% of copy",
            ph.px.call_ms < 0.01 * ph.px.total_ms);
    add_row("pageable D2H call blocks (ms)", pd.raw.call_ms, pd.px.call_ms,
            pd.px.call_ms / pd.px.total_ms, "portex < 1% of copy",
            pd.px.call_ms < 0.01 * pd.px.total_ms);

    pair s8 = time_small(&B, small_reps);
    add_row("8 B pinned H2D + fence (us)", s8.raw.total_ms, s8.px.total_ms,
            s8.px.total_ms / s8.raw.total_ms, "<= 1.10x", s8.px.total_ms / s8.raw.total_ms <= 1.10);

    int missed = 0;
    printf("| %-30s | %10s | %10s | %7s | %-20s | %-4s |\n", "case", "raw", "portex", "ratio",
           "target", "met?");
    printf("|--------------------------------|-----------:|-----------:|--------:|-----------------"
           "-----|------|\n");
    for (int k = 0; k < nrows; ++k) {
        printf("| %-30s | %10.3f | %10.3f | %7.3f | %-20s | %-4s |\n", rows[k].name, rows[k].raw,
               rows[k].px, rows[k].ratio, rows[k].target, rows[k].met ? "yes" : "NO");
        missed += !rows[k].met;
    }
    printf(
        "\nratio: GB/s rows portex/raw; \"call\" rows portex call time / portex copy time; 8 B row "
        "portex/raw.\nraw pageable = cudaMemcpyAsync on pageable memory + cudaStreamSynchronize; "
        "portex pageable = px_deep_copy_async (CUDA_STAGED) + px_instance_fence.\n"
        "bound rows: raw = the staged copy's bound (the smaller of the host memcpy with the "
        "staging's thread "
        "count and the pinned DMA, same direction, this run), portex = the staged copy, ratio = "
        "portex/bound.\n");
    printf("data: %s; targets missed: %d\n", failures ? "WRONG (see above)" : "right", missed);

    const char *sweep = getenv("BENCH_COPY_CHUNK_SWEEP");
    if (sweep && *sweep && strcmp(sweep, "0") != 0)
        chunk_sweep(&B, sweep, reps, bound_h2d, bound_d2h);

    CU(cudaEventDestroy(B.e0));
    CU(cudaEventDestroy(B.e1));
    CHECK(px_view_release(&B.dev));
    CHECK(px_view_release(&B.pin));
    CHECK(px_view_release(&B.host_a));
    CHECK(px_view_release(&B.host_b));
    CHECK(px_instance_destroy(&B.inst));
    CHECK(px_finalize());
    if (failures) return 1;
    return check && missed ? 1 : 0;
}
