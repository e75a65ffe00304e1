/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_random_cuda: filling 2^28 doubles with uniform random numbers on the GPU, in one
 * process: portex's PX_FOR over n / 2 indices, two doubles from block i of portex's
 * Philox4x32-10 each (bench/bench_random_kernels.c, compiled as CUDA), against cuRAND's
 * device API doing the same work (raw_random.cu: curand_init at output 4 i,
 * curand_uniform2_double). Both draw the same 32-bit outputs (portex's stream is cuRAND's);
 * the doubles differ, as their conversions do. Events on each variant's stream, medians of
 * N rounds (default 21; 3 with --quick), the first variant rotating; the row prints
 * cuRAND's time / portex's against the target >= 0.9. A diagnostic line times the same
 * draws stored in halves (index i's doubles at i and n/2 + i), what the store layout costs.
 *   bench_random_cuda [--quick] [--reps N]
 * Exit status: 0; 1 when a value is outside [0, 1) or the arrays hold too few distinct
 * values; 2 on an error; 77 without a usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <cuda_runtime_api.h>
#include <portex/cuda.h>

#include "bench_random_kernels.h"
#include "bench_util.h"
#include "raw_random.h"

typedef struct ctx {
    px_instance *inst;
    cudaStream_t px_stream, raw_stream;
    px_view *vx;
    double *x, *y; /* portex's, cuRAND's */
    int64_t n;
    cudaEvent_t e0, e1;
} ctx;

static double sample(int v, void *p)
{
    ctx *c = p;
    cudaStream_t s = v == 1 ? c->raw_stream : c->px_stream;
    float ms = 0;
    CU(cudaEventRecord(c->e0, s));
    if (v == 0) {
        br_fill_args a = {.seed = 20261127};
        CHECK(px_view_get_span(c->vx, &a.x));
        CHECK(px_parallel_for(c->inst, "fill", px_range(0, c->n / 2), PX_KERNEL(br_fill), &a));
    } else if (v == 2) {
        br_fill_halves_args a = {.seed = 20261127, .n = c->n / 2};
        CHECK(px_view_get_span(c->vx, &a.x));
        CHECK(px_parallel_for(c->inst, "fill (halves)", px_range(0, c->n / 2),
                              PX_KERNEL(br_fill_halves), &a));
    } else {
        CU(raw_curand_fill(c->y, c->n / 2, 20261127, s));
    }
    CU(cudaEventRecord(c->e1, s));
    CU(cudaEventSynchronize(c->e1));
    CU(cudaEventElapsedTime(&ms, c->e0, c->e1));
    return ms;
}

/* Every value in [0, 1) and the first 2^16 mostly distinct: a fill that wrote nothing or
   one value fails. */
static bool plausible(const double *dev, int64_t n)
{
    const int64_t m = n < 65536 ? n : 65536;
    double *h = malloc((size_t)m * sizeof *h);
    if (!h) exit(2);
    CU(cudaMemcpy(h, dev, (size_t)m * sizeof *h, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int64_t i = 0; i < m && ok; ++i) ok = h[i] >= 0 && h[i] < 1;
    qsort(h, (size_t)m, sizeof *h, cmp_double);
    int64_t distinct = 1;
    for (int64_t i = 1; i < m; ++i) distinct += h[i] != h[i - 1];
    free(h);
    return ok && distinct > m - m / 100;
}

int main(int argc, char **argv)
{
    int reps = 21;
    const bool quick = bench_options(argc, argv, &reps);
    if (quick) reps = 3;
    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_random_cuda")) return 77;
    ctx c = {.n = (int64_t)1 << (quick ? 22 : 28)};
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &c.inst));
    CHECK(px_instance_cuda_stream(c.inst, &c.px_stream));
    CU(cudaStreamCreateWithFlags(&c.raw_stream, cudaStreamNonBlocking));
    CU(cudaEventCreate(&c.e0));
    CU(cudaEventCreate(&c.e1));
    const px_view_desc d = bench_desc("x", px_device(0), PX_F64, 1, c.n, 0);
    CHECK(px_view_create(&c.vx, &d));
    px_span s;
    CHECK(px_view_span(c.vx, &s));
    c.x = s.data;
    CU(cudaMalloc((void **)&c.y, (size_t)c.n * sizeof *c.y));

    (void)sample(0, &c);
    (void)sample(1, &c);
    if (!plausible(c.x, c.n) || !plausible(c.y, c.n)) {
        printf("bench_random_cuda: a fill wrote implausible values\n");
        return 1;
    }
    (void)sample(2, &c);
    if (!plausible(c.x, c.n)) {
        printf("bench_random_cuda: the halves fill wrote implausible values\n");
        return 1;
    }
    double med[3];
    if (bench_rotate(3, 2, reps, sample, &c, med) != 0) return 2;
    const double bytes = 8.0 * (double)c.n;
    printf("bench_random_cuda: %lld uniform doubles\n", (long long)c.n);
    printf("| case              | cuRAND device API       | portex                  | ratio | "
           "target | met? |\n");
    printf("|-------------------|-------------------------|-------------------------|------:|------"
           "-:|------|\n");
    printf("| uniform f64 fill  | %8.3f ms, %6.0f GB/s | %8.3f ms, %6.0f GB/s | %5.3f | >= 0.90 | "
           "%-4s |\n",
           med[1], bytes / med[1] * 1e-6, med[0], bytes / med[0] * 1e-6, med[1] / med[0],
           med[1] / med[0] >= 0.9 ? "yes" : "NO");
    /* What the store layout costs: the same draws, each warp's stores consecutive. */
    printf("diagnostic: the same doubles laid out in halves (x[i], x[n/2 + i]): %.3f ms, ratio "
           "%.3f\n",
           med[2], med[1] / med[2]);
    CU(cudaFree(c.y));
    CHECK(px_view_release(&c.vx));
    CU(cudaEventDestroy(c.e0));
    CU(cudaEventDestroy(c.e1));
    CU(cudaStreamDestroy(c.raw_stream));
    CHECK(px_finalize());
    return 0;
}
