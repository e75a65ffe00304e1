/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_peer: a copy from DEVICE(0) to DEVICE(1), 1 GiB, portex against raw CUDA in one
 * process.
 *
 *   bench_peer [--quick] [--reps N]
 *
 * Two cases, each one row: the copy queued on GPU 0 (push) and on GPU 1 (pull).
 *   portex: px_deep_copy_async between two views (portex's pools) on that GPU's default
 *           instance: path CUDA_PEER, ordered after the pending work of both GPUs;
 *   raw:    what a CUDA program writes: cudaMalloc'd buffers, cudaDeviceEnablePeerAccess
 *           both ways, cudaMemcpyPeerAsync on a non-blocking stream of that GPU.
 * Each run is timed with CUDA events recorded just before and after the copy on the
 * stream that runs it (portex's through portex/cuda.h), so host work counts where it
 * delays the GPU; the host time of the px_deep_copy_async call is reported apart. Three
 * untimed runs, then N timed ones (default 21), the two sides alternating which goes
 * first; the table gives medians (GB/s = 10^9 bytes per second) and their ratio.
 * Two rows for information: raw cudaMemcpyPeerAsync between portex's buffers (pool
 * memory), and, measured last, raw with peer access disabled (the driver stages the copy
 * through host memory); peer access is enabled again afterwards.
 *
 * Then copies of host memory to GPU 0 and GPU 1, alone and both at once, pinned (DMA: what
 * the hardware allows) and pageable (staged): the staged ones at once must take under 0.8x
 * the two alone one after the other (they share the host's memory bandwidth and the
 * staging pool, but neither waits for the other).
 *
 * Target: portex >= 0.95x raw (396 GB/s over NVLink on two H200s). Every copy's data is
 * checked once. Exit status: 77 with fewer than two GPUs, 1 when data is wrong, 2 on an
 * error; a missed target is reported, not an error. --quick: 64 MiB, 5 runs. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include <portex.h>
#include <portex/cuda.h>
#include "bench_util.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* One way of running the copy, on one stream. */
typedef struct way {
    int dev; /* the stream's device */
    cudaStream_t stream;
    cudaEvent_t start, stop;
    px_instance *inst;  /* portex, or NULL for raw */
    px_view *dst, *src; /* portex */
    void *rdst;         /* raw */
    const void *rsrc;
    size_t bytes;
} way;

/* One copy; returns GPU milliseconds, and the host microseconds of the call. */
static double run(const way *w, double *host_us)
{
    CU(cudaSetDevice(w->dev));
    CU(cudaEventRecord(w->start, w->stream));
    const double t0 = now_us();
    if (w->inst) {
        px_copy_path path = PX_COPY_NONE;
        CHECK(px_deep_copy_async(w->inst, w->dst, w->src, &path));
        if (path != PX_COPY_CUDA_PEER) {
            fprintf(stderr, "bench_peer: path %s, expected CUDA_PEER\n", px_copy_path_string(path));
            exit(2);
        }
    } else {
        CU(cudaMemcpyPeerAsync(w->rdst, 1, w->rsrc, 0, w->bytes, w->stream));
    }
    const double t1 = now_us();
    CU(cudaEventRecord(w->stop, w->stream));
    CU(cudaEventSynchronize(w->stop));
    float ms = 0;
    CU(cudaEventElapsedTime(&ms, w->start, w->stop));
    if (host_us) *host_us = t1 - t0;
    return (double)ms;
}

static double gbs(size_t bytes, double ms) { return (double)bytes / (ms * 1e-3) / 1e9; }

/* Medians of `reps` runs of a and b (b may be NULL), alternating which goes first. */
static void time_pair(const way *a, const way *b, int reps, double *a_ms, double *b_ms,
                      double *a_host_us)
{
    double *ta = malloc((size_t)reps * sizeof *ta), *tb = malloc((size_t)reps * sizeof *tb);
    double *th = malloc((size_t)reps * sizeof *th);
    if (!ta || !tb || !th) exit(2);
    for (int w = 0; w < 3; ++w) {
        run(a, NULL);
        if (b) run(b, NULL);
    }
    for (int r = 0; r < reps; ++r) {
        if (b && r % 2) tb[r] = run(b, NULL);
        ta[r] = run(a, &th[r]);
        if (b && r % 2 == 0) tb[r] = run(b, NULL);
    }
    *a_ms = median(ta, reps);
    if (b) *b_ms = median(tb, reps);
    if (a_host_us) *a_host_us = median(th, reps);
    free(ta);
    free(tb);
    free(th);
}

static void peer_access(bool enable)
{
    for (int d = 0; d < 2; ++d) {
        int can = 0;
        CU(cudaDeviceCanAccessPeer(&can, d, 1 - d));
        if (!can) continue;
        CU(cudaSetDevice(d));
        const cudaError_t e =
            enable ? cudaDeviceEnablePeerAccess(1 - d, 0) : cudaDeviceDisablePeerAccess(1 - d);
        if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled)
            (void)cudaGetLastError();
        else
            CU(e);
    }
}

/* Whether the n words at GPU 1 address `dev` equal `want` (through a pinned bounce). */
static bool same(const void *dev, const uint64_t *want, size_t bytes, uint64_t *bounce)
{
    CU(cudaSetDevice(1));
    CU(cudaMemcpy(bounce, dev, bytes, cudaMemcpyDefault));
    return memcmp(bounce, want, bytes) == 0;
}

/* Copies from host memory in `host` to GPU 0 and to GPU 1, each on its GPU's default
   instance: alone, then both issued at once (each call returns once its copy is queued).
   Medians of reps wall times (issue to fence). Pinned memory (DMA) gives what the links
   and the host's memory allow; pageable memory (staged) shares the staging pool's threads
   and buffers besides, but neither copy waits for the other's GPU: at once takes less
   than the two one after the other. Returns at-once / (sum of alone); 0 when the data is
   wrong. */
static double host_to_gpus_at_once(size_t bytes, int reps, px_space host, px_copy_path expect)
{
    const int64_t n = (int64_t)(bytes / sizeof(uint64_t));
    px_view *h[2], *d[2];
    px_instance *inst[2];
    for (int g = 0; g < 2; ++g) {
        CHECK(px_view_create(&h[g], &(px_view_desc){.label = "host",
                                                    .space = host,
                                                    .dtype = PX_U64,
                                                    .rank = 1,
                                                    .extent = {n},
                                                    .flags = PX_VIEW_NO_INIT}));
        CHECK(px_view_create(&d[g], &(px_view_desc){.label = "staged dst",
                                                    .space = px_device(g),
                                                    .dtype = PX_U64,
                                                    .rank = 1,
                                                    .extent = {n},
                                                    .flags = PX_VIEW_NO_INIT}));
        CHECK(px_instance_default(PX_EXEC_CUDA, g, &inst[g]));
        px_view_info info;
        CHECK(px_view_info_get(h[g], &info));
        uint64_t *p = info.data;
        for (int64_t i = 0; i < n; ++i) p[i] = (uint64_t)(i + g) * 0x9e3779b97f4a7c15u;
    }
    double *t[3];
    for (int k = 0; k < 3; ++k)
        if ((t[k] = malloc((size_t)reps * sizeof(double))) == NULL) exit(2);
    for (int r = -2; r < reps; ++r) { /* two untimed rounds */
        for (int k = 0; k < 3; ++k) { /* GPU 0 alone, GPU 1 alone, both */
            const double t0 = now_us();
            for (int g = 0; g < 2; ++g) {
                if (k != 2 && k != g) continue;
                px_copy_path path = PX_COPY_NONE;
                CHECK(px_deep_copy_async(inst[g], d[g], h[g], &path));
                if (path != expect) {
                    fprintf(stderr, "bench_peer: host copy took path %s, expected %s\n",
                            px_copy_path_string(path), px_copy_path_string(expect));
                    exit(2);
                }
            }
            for (int g = 0; g < 2; ++g)
                if (k == 2 || k == g) CHECK(px_instance_fence(inst[g]));
            if (r >= 0) t[k][r] = now_us() - t0;
        }
    }
    const double alone0 = median(t[0], reps), alone1 = median(t[1], reps),
                 both = median(t[2], reps);
    bool ok = true;
    for (int g = 0; g < 2; ++g) {
        px_view *back;
        CHECK(px_view_create(&back, &(px_view_desc){.label = "back",
                                                    .space = px_host(),
                                                    .dtype = PX_U64,
                                                    .rank = 1,
                                                    .extent = {n},
                                                    .flags = PX_VIEW_NO_INIT}));
        CHECK(px_deep_copy(back, d[g], NULL));
        px_view_info a, b;
        CHECK(px_view_info_get(back, &a));
        CHECK(px_view_info_get(h[g], &b));
        ok = ok && memcmp(a.data, b.data, bytes) == 0;
        CHECK(px_view_release(&back));
        CHECK(px_view_release(&h[g]));
        CHECK(px_view_release(&d[g]));
    }
    printf("%s %s -> DEVICE, %.0f MiB each, median of %d: GPU 0 alone %.1f GB/s (%.2f ms), "
           "GPU 1 alone %.1f GB/s (%.2f ms), both at once %.2f ms = %.2fx the sum of the two "
           "alone, %.2fx the "
           "longer; data %s\n",
           px_copy_path_string(expect), px_space_kind_string(host.kind), (double)bytes / (1 << 20),
           reps, gbs(bytes, alone0 * 1e-3), alone0 * 1e-3, gbs(bytes, alone1 * 1e-3), alone1 * 1e-3,
           both * 1e-3, both / (alone0 + alone1), both / (alone0 > alone1 ? alone0 : alone1),
           ok ? "checked, OK" : "WRONG");
    for (int k = 0; k < 3; ++k) free(t[k]);
    return ok ? both / (alone0 + alone1) : 0.0;
}

int main(int argc, char **argv)
{
    bool quick = false;
    int reps = 21;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_peer [--quick] [--reps N]\n");
            return 2;
        }
    }
    if (quick) reps = 5;
    if (reps < 3) reps = 3;
    const size_t bytes = quick ? (size_t)64 << 20 : (size_t)1 << 30;
    const int64_t n = (int64_t)(bytes / sizeof(uint64_t));

    CHECK(px_init(NULL));
    int gpus = 0;
    if (px_exec_space_available(PX_EXEC_CUDA))
        CHECK(px_exec_space_device_count(PX_EXEC_CUDA, &gpus));
    if (gpus < 2) {
        printf("bench_peer: needs two GPUs, this machine has %d: skipped\n", gpus);
        CHECK(px_finalize());
        return 77;
    }
    int can01 = 0, can10 = 0;
    CU(cudaDeviceCanAccessPeer(&can01, 0, 1));
    CU(cudaDeviceCanAccessPeer(&can10, 1, 0));
    peer_access(true);

    /* portex's side: views in each GPU's pool, the source filled from pinned memory. */
    px_view *host, *src, *dst;
    CHECK(px_view_create_1d_ex(&host, "pattern", px_host_pinned(), PX_U64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&src, "src", px_device(0), PX_U64, n, PX_VIEW_NO_INIT));
    CHECK(px_view_create_1d_ex(&dst, "dst", px_device(1), PX_U64, n, PX_VIEW_NO_INIT));
    px_view_info hi, si, di;
    CHECK(px_view_info_get(host, &hi));
    CHECK(px_view_info_get(src, &si));
    CHECK(px_view_info_get(dst, &di));
    uint64_t *pattern = hi.data;
    for (int64_t i = 0; i < n; ++i) pattern[i] = (uint64_t)i * 0x9e3779b97f4a7c15u ^ 0x5eedu;
    CHECK(px_deep_copy(src, host, NULL));
    uint64_t *bounce = NULL;
    CU(cudaMallocHost((void **)&bounce, bytes));

    /* The raw side: cudaMalloc'd buffers, its own streams. */
    void *rsrc = NULL, *rdst = NULL;
    cudaStream_t rs[2];
    cudaEvent_t ev[2][2];
    for (int d = 0; d < 2; ++d) {
        CU(cudaSetDevice(d));
        CU(cudaStreamCreateWithFlags(&rs[d], cudaStreamNonBlocking));
        CU(cudaEventCreate(&ev[d][0]));
        CU(cudaEventCreate(&ev[d][1]));
    }
    CU(cudaSetDevice(0));
    CU(cudaMalloc(&rsrc, bytes));
    CU(cudaMemcpy(rsrc, pattern, bytes, cudaMemcpyDefault));
    CU(cudaSetDevice(1));
    CU(cudaMalloc(&rdst, bytes));

    printf("bench_peer: DEVICE(0) -> DEVICE(1), %.3f GiB, median of %d runs; peer access 0->1 %s, "
           "1->0 %s\n",
           (double)bytes / (1 << 30), reps, can01 ? "yes" : "no", can10 ? "yes" : "no");
    printf("\n%-24s %12s %12s %8s %16s\n", "case", "portex GB/s", "raw GB/s", "ratio",
           "portex host us");

    bool met = true, ok = true;
    const char *names[2] = {"push (GPU 0's stream)", "pull (GPU 1's stream)"};
    for (int d = 0; d < 2; ++d) {
        px_instance *inst;
        CHECK(px_instance_default(PX_EXEC_CUDA, d, &inst));
        cudaStream_t ps;
        CHECK(px_instance_cuda_stream(inst, &ps));
        const way px = {d, ps, ev[d][0], ev[d][1], inst, dst, src, NULL, NULL, bytes};
        const way raw = {d, rs[d], ev[d][0], ev[d][1], NULL, NULL, NULL, rdst, rsrc, bytes};
        CU(cudaSetDevice(1));
        CU(cudaMemset(di.data, 0, bytes));
        CU(cudaMemset(rdst, 0, bytes));
        CU(cudaDeviceSynchronize());
        double pms = 0, rms = 0, host_us = 0;
        time_pair(&px, &raw, reps, &pms, &rms, &host_us);
        const double ratio = gbs(bytes, pms) / gbs(bytes, rms);
        met = met && ratio >= 0.95;
        printf("%-24s %12.1f %12.1f %7.3fx %16.1f\n", names[d], gbs(bytes, pms), gbs(bytes, rms),
               ratio, host_us);
        ok = ok && same(di.data, pattern, bytes, bounce) && same(rdst, pattern, bytes, bounce);
    }

    /* For information: the raw copy between portex's buffers. */
    const way pool = {0, rs[0], ev[0][0], ev[0][1], NULL, NULL, NULL, di.data, si.data, bytes};
    double pool_ms = 0;
    CU(cudaSetDevice(1));
    CU(cudaMemset(di.data, 0, bytes));
    CU(cudaDeviceSynchronize());
    time_pair(&pool, NULL, reps, &pool_ms, NULL, NULL);
    ok = ok && same(di.data, pattern, bytes, bounce);
    printf("\nraw cudaMemcpyPeerAsync between portex's buffers (pool memory), push: %.1f GB/s\n",
           gbs(bytes, pool_ms));

    /* For information: without peer access (measured last, then enabled again). */
    if (can01 || can10) {
        peer_access(false);
        const way off = {0, rs[0], ev[0][0], ev[0][1], NULL, NULL, NULL, rdst, rsrc, bytes};
        double off_ms = 0;
        CU(cudaSetDevice(1));
        CU(cudaMemset(rdst, 0, bytes));
        CU(cudaDeviceSynchronize());
        time_pair(&off, NULL, reps < 5 ? reps : 5, &off_ms, NULL, NULL);
        ok = ok && same(rdst, pattern, bytes, bounce);
        peer_access(true);
        printf("raw cudaMemcpyPeerAsync with peer access disabled (staged by the driver), push: "
               "%.1f GB/s\n",
               gbs(bytes, off_ms));
    } else {
        printf(
            "no peer access between the two GPUs: the rows above are the driver's staged copies\n");
    }

    /* Staged copies on both GPUs at once: they must not wait for each other (at once
       under 0.8x the two one after the other). */
    const size_t host_bytes = quick ? (size_t)64 << 20 : (size_t)512 << 20;
    printf("\n");
    const double dma =
        host_to_gpus_at_once(host_bytes, quick ? 3 : 7, px_host_pinned(), PX_COPY_CUDA_DMA);
    const double at_once =
        host_to_gpus_at_once(host_bytes, quick ? 3 : 7, px_host(), PX_COPY_CUDA_STAGED);
    ok = ok && dma > 0.0;
    ok = ok && at_once > 0.0;
    const bool independent = at_once > 0.0 && at_once < 0.8;

    printf("\nbench_peer: target portex >= 0.95x raw (396 GB/s over NVLink on two H200s): %s; "
           "staged copies on the "
           "two GPUs at once %s each other; data %s\n",
           met ? "met" : "NOT met", independent ? "do not wait for" : "WAIT FOR",
           ok ? "checked, OK" : "WRONG");

    for (int d = 0; d < 2; ++d) {
        CU(cudaSetDevice(d));
        CU(cudaStreamDestroy(rs[d]));
        CU(cudaEventDestroy(ev[d][0]));
        CU(cudaEventDestroy(ev[d][1]));
    }
    CU(cudaSetDevice(0));
    CU(cudaFree(rsrc));
    CU(cudaSetDevice(1));
    CU(cudaFree(rdst));
    CU(cudaFreeHost(bounce));
    CHECK(px_view_release(&host));
    CHECK(px_view_release(&src));
    CHECK(px_view_release(&dst));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
