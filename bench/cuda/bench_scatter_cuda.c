/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_scatter_cuda: scatter-adds on the GPU, in one process: portex's kernels adding
 * through a scatter (bench/bench_scatter_kernels.c compiled as CUDA; PX_SCATTER_AUTO, which
 * is atomics on a GPU, and px_scatter_contribute, which then has nothing to do) against the
 * same work in raw CUDA kernels with atomicAdd (raw_scatter.cu):
 *
 *   histogram, 16 bins        2^26 uniform doubles counted in 16 int32 bins (contention)
 *   histogram, 65536 bins     the same values in 65536 bins
 *   assembly 2-D, quads       a 4096 x 4096 mesh, each quad adding into its 4 nodes
 *   assembly 3-D, hexahedra   a 256^3 mesh, each hexahedron adding into its 8 nodes
 *
 * Results are compared first (integers exactly, doubles to 1e-9 relative). Events on each
 * variant's stream, medians of N rounds (default 21; 3 with --quick, which shrinks the
 * sizes), the first variant rotating; each row prints raw time / portex time against the
 * target >= 0.97. Diagnostic lines time the histograms three more ways, to find where a gap
 * comes from: the raw kernel with its input a plain pointer (no __restrict__, so no
 * ld.global.nc, as portex's span is read); the raw kernel adding into portex's target (a
 * view from portex's pool, not a cudaMalloc of its own); portex's kernel without
 * px_scatter_contribute; and, for the 65536 bins, the raw kernel into cudaMalloc memory at
 * several distances past a 2 MiB boundary (atomics into a target 4-16 KiB past a 64 KiB
 * boundary took 10 % longer on an H200: portex's pool now starts large allocations on one).
 *   bench_scatter_cuda [--quick] [--reps N]
 * Exit status: 0; 1 when the results differ; 2 on an error; 77 without a usable GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
#include <portex/cuda.h>

#include "bench_scatter_kernels.h"
#include "bench_util.h"
#include "raw_scatter.h"

typedef struct ctx {
    px_instance *inst;
    cudaStream_t px_stream, raw_stream;
    cudaEvent_t e0, e1;
    const bs_case *c;
    px_scatter *s;
    px_view *vin, *target;
    void *raw;        /* the raw kernels' target */
    int32_t *px_data; /* portex's target's memory: diagnostic 3 adds into it */
    size_t target_bytes;
    int64_t nin;
    bs_hist_args h;
    bs_fem_args f;
} ctx;

static double sample(int v, void *p)
{
    ctx *x = p;
    cudaStream_t st = v == 0 || v == 4 ? x->px_stream : x->raw_stream;
    float ms = 0;
    CU(cudaEventRecord(x->e0, st));
    if (v == 2) { /* the diagnostics: the raw histogram with plain loads */
        CU(raw_scatter_hist_plain_loads(x->h.x.data, x->nin, x->h.nbins, x->raw, st));
    } else if (v == 3) { /* the raw histogram into portex's target */
        CU(raw_scatter_hist(x->h.x.data, x->nin, x->h.nbins, x->px_data, st));
    } else if (v == 4) { /* portex's kernel alone */
        CHECK((px_parallel_for)(x->inst, "scatter", px_range(0, x->nin), PX_KERNEL(bs_hist_scatter),
                                &x->h));
    } else if (v == 0) {
        const px_kernel *k = x->c->kind == BS_HIST   ? PX_KERNEL(bs_hist_scatter)
                             : x->c->kind == BS_FEM2 ? PX_KERNEL(bs_fem2_scatter)
                                                     : PX_KERNEL(bs_fem3_scatter);
        const void *args = x->c->kind == BS_HIST ? (const void *)&x->h : (const void *)&x->f;
        CHECK((px_parallel_for)(x->inst, "scatter", px_range(0, x->nin), k, args));
        CHECK(px_scatter_contribute(x->inst, x->s));
    } else if (x->c->kind == BS_HIST) {
        CU(raw_scatter_hist(x->h.x.data, x->nin, x->h.nbins, x->raw, st));
    } else {
        CU(raw_scatter_fem(x->f.w.data, x->f.nx, x->f.ny, x->f.nz, x->c->kind == BS_FEM2 ? 2 : 3,
                           x->raw, st));
    }
    CU(cudaEventRecord(x->e1, st));
    CU(cudaEventSynchronize(x->e1));
    CU(cudaEventElapsedTime(&ms, x->e0, x->e1));
    return ms;
}

/* The raw histogram's time into 8 targets 2 MiB apart in one cudaMalloc allocation, each
   `shift` bytes past the 2 MiB boundary: how much the target's place alone is worth. */
static void placements(ctx *x, size_t shift, double *lo, double *hi)
{
    const size_t step = (size_t)2 << 20, bytes = 9 * step;
    char *p = NULL;
    CU(cudaMalloc((void **)&p, bytes));
    CU(cudaMemset(p, 0, bytes));
    *lo = 1e30;
    *hi = 0;
    for (int k = 0; k < 8; ++k) {
        double t[5];
        for (int r = 0; r < 5; ++r) {
            float ms = 0;
            CU(cudaEventRecord(x->e0, x->raw_stream));
            CU(raw_scatter_hist(x->h.x.data, x->nin, x->h.nbins,
                                (int32_t *)(void *)(p + shift + k * step), x->raw_stream));
            CU(cudaEventRecord(x->e1, x->raw_stream));
            CU(cudaEventSynchronize(x->e1));
            CU(cudaEventElapsedTime(&ms, x->e0, x->e1));
            t[r] = ms;
        }
        const double med = median(t, 5);
        *lo = med < *lo ? med : *lo;
        *hi = med > *hi ? med : *hi;
    }
    CU(cudaFree(p));
}

static void setup(ctx *x, const bs_case *c)
{
    x->c = c;
    int64_t ntarget;
    if (c->kind == BS_HIST) {
        x->nin = c->n;
        ntarget = c->nbins;
    } else {
        const int64_t e = c->n, nz = c->kind == BS_FEM3 ? e : 1;
        x->nin = e * e * nz;
        ntarget = (e + 1) * (e + 1) * (c->kind == BS_FEM3 ? e + 1 : 1);
        x->f.nx = x->f.ny = e;
        x->f.nz = nz;
    }
    /* Inputs: splitmix64 doubles in [0, 1), made on the host. */
    double *h = malloc((size_t)x->nin * sizeof *h);
    if (!h) exit(2);
    uint64_t seed = 20261127;
    for (int64_t i = 0; i < x->nin; ++i) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        h[i] = (double)(z >> 11) * 0x1.0p-53;
    }
    CHECK(px_view_create_1d(&x->vin, "in", px_device(0), PX_F64, x->nin));
    px_view *hv = bench_host_wrap("in (host)", PX_F64, 1, x->nin, 0, h);
    CHECK(px_deep_copy(x->vin, hv, NULL));
    CHECK(px_view_release(&hv));
    free(h);
    const px_dtype dt = c->kind == BS_HIST ? PX_I32 : PX_F64;
    CHECK(px_view_create_1d(&x->target, "target", px_device(0), dt, ntarget));
    x->target_bytes = (size_t)ntarget * px_dtype_size(dt);
    px_span t;
    CHECK(px_view_span(x->target, &t));
    x->px_data = t.data;
    CU(cudaMalloc(&x->raw, x->target_bytes));
    CU(cudaMemset(x->raw, 0, x->target_bytes));
    CHECK(px_scatter_create(&x->s, x->inst, x->target, PX_SCATTER_AUTO));
    px_span_f64_1d in;
    CHECK(px_view_get_span(x->vin, &in));
    if (c->kind == BS_HIST) {
        x->h.x = in;
        x->h.nbins = c->nbins;
        CHECK(px_scatter_get_span(x->s, &x->h.counts));
    } else {
        x->f.w = in;
        CHECK(px_scatter_get_span(x->s, &x->f.nodes));
    }
}

static void teardown(ctx *x)
{
    CHECK(px_scatter_destroy(&x->s));
    CHECK(px_view_release(&x->target));
    CHECK(px_view_release(&x->vin));
    CU(cudaFree(x->raw));
}

/* One run of each from zero: the same elements. */
static bool same_result(ctx *x)
{
    CHECK(px_scatter_reset(x->inst, x->s));
    CU(cudaMemset(x->raw, 0, x->target_bytes));
    CHECK(px_instance_fence(x->inst));
    (void)sample(0, x);
    (void)sample(1, x);
    px_span t;
    CHECK(px_view_span(x->target, &t));
    unsigned char *a = malloc(x->target_bytes), *b = malloc(x->target_bytes);
    if (!a || !b) exit(2);
    CU(cudaMemcpy(a, t.data, x->target_bytes, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(b, x->raw, x->target_bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    if (x->c->kind == BS_HIST) {
        ok = memcmp(a, b, x->target_bytes) == 0;
    } else {
        const double *p = (const double *)(void *)a, *q = (const double *)(void *)b;
        for (size_t i = 0; i < x->target_bytes / sizeof *p && ok; ++i)
            ok = fabs(p[i] - q[i]) <= 1e-9 * fabs(q[i]) + 1e-300;
    }
    free(a);
    free(b);
    return ok;
}

int main(int argc, char **argv)
{
    int reps = 21;
    const bool quick = bench_options(argc, argv, &reps);
    if (quick) reps = 3;
    CHECK(px_init(NULL));
    if (!bench_cuda_usable("bench_scatter_cuda")) return 77;
    const bs_case cases[] = {
        {"histogram, 16 bins", BS_HIST, (int64_t)1 << (quick ? 20 : 26), 16, false},
        {"histogram, 65536 bins", BS_HIST, (int64_t)1 << (quick ? 20 : 26), 65536, false},
        {"assembly 2-D, quads", BS_FEM2, quick ? 256 : 4096, 0, false},
        {"assembly 3-D, hexahedra", BS_FEM3, quick ? 32 : 256, 0, false},
    };
    ctx x;
    memset(&x, 0, sizeof x);
    CHECK(px_instance_default(PX_EXEC_CUDA, 0, &x.inst));
    CHECK(px_instance_cuda_stream(x.inst, &x.px_stream));
    CU(cudaStreamCreateWithFlags(&x.raw_stream, cudaStreamNonBlocking));
    CU(cudaEventCreate(&x.e0));
    CU(cudaEventCreate(&x.e1));
    printf("bench_scatter_cuda: portex scatter (PX_SCATTER_AUTO) against raw CUDA atomicAdd\n");
    printf("| case                    | raw CUDA ms | portex ms | strategy | raw / portex | "
           "target  | met? |\n");
    printf("|-------------------------|------------:|----------:|----------|-------------:|"
           "---------|------|\n");
    bool ok = true;
    typedef struct diagnostic {
        const char *name;
        double ms[3], ratio[3];
    } diagnostic;
    diagnostic diag[sizeof cases / sizeof cases[0]];
    int ndiag = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        setup(&x, &cases[k]);
        if (!same_result(&x)) {
            printf("bench_scatter_cuda: %s: portex's result differs from raw CUDA's\n",
                   cases[k].name);
            ok = false;
        }
        px_scatter_info info;
        CHECK(px_scatter_info_get(x.s, &info));
        double med[5];
        const int nv = cases[k].kind == BS_HIST ? 5 : 2;
        if (bench_rotate(nv, 2, reps, sample, &x, med) != 0) return 2;
        const double r = med[1] / med[0];
        printf("| %-23s | %11.3f | %9.3f | %-8s | %12.3f | >= 0.97 | %-4s |\n", cases[k].name,
               med[1], med[0], px_scatter_strategy_string(info.strategy), r,
               r >= 0.97 ? "yes" : "NO");
        if (nv == 5 && cases[k].nbins > 16) {
            printf("diagnostic: %s, portex's target %zu bytes past a 64 KiB boundary\n",
                   cases[k].name, (size_t)((uintptr_t)x.px_data % ((size_t)64 << 10)));
            const size_t shifts[] = {0, 256, 4096, 16384, 65536};
            for (size_t k2 = 0; k2 < sizeof shifts / sizeof shifts[0]; ++k2) {
                double lo, hi;
                placements(&x, shifts[k2], &lo, &hi);
                printf("diagnostic: %s, the raw kernel into cudaMalloc memory %zu bytes past "
                       "2 MiB boundaries: %.3f-%.3f ms\n",
                       cases[k].name, shifts[k2], lo, hi);
            }
        }
        if (nv == 5)
            diag[ndiag++] = (diagnostic){cases[k].name,
                                         {med[2], med[3], med[4]},
                                         {med[1] / med[2], med[1] / med[3], med[1] / med[4]}};
        teardown(&x);
    }
    const char *what[3] = {"the raw kernel with plain loads (no __restrict__)",
                           "the raw kernel into portex's target",
                           "portex's kernel without px_scatter_contribute"};
    for (int k = 0; k < ndiag; ++k)
        for (int d = 0; d < 3; ++d)
            printf("diagnostic: %s, %s: %.3f ms, raw / that %.3f\n", diag[k].name, what[d],
                   diag[k].ms[d], diag[k].ratio[d]);
    CU(cudaEventDestroy(x.e0));
    CU(cudaEventDestroy(x.e1));
    CU(cudaStreamDestroy(x.raw_stream));
    CHECK(px_finalize());
    return ok ? 0 : 1;
}
