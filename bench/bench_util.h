/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What every benchmark program shares: stopping on an error (exit 2), the common options,
 * a monotonic clock, medians. Plain C; the including file defines _POSIX_C_SOURCE (clock_gettime) first. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <portex.h>

/* CHECK(call): a portex call that fails stops the benchmark with exit status 2. */
#define PX_CHECK_EXIT_STATUS 2
#include "../common/px_check.h"

/* A plain loop in a function of its own, not inlined into its caller: as a portex kernel's
   host loop is, so that both are compiled alike. */
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE
#endif
/* How the benchmark was compiled, printed beside its figures (Meson passes -DBENCH_BUILD). */
#ifndef BENCH_BUILD
#define BENCH_BUILD "unknown build"
#endif

/* The options of a benchmark that takes no others: --quick (a smoke run) and --reps N
   (*reps keeps the caller's default without it). Anything else prints the usage and ends
   the program with status 2. Returns whether --quick was given. */
static inline bool bench_options(int argc, char **argv, int *reps)
{
    bool quick = false;
    for (int k = 1; k < argc; ++k) {
        if (!strcmp(argv[k], "--quick")) {
            quick = true;
        } else if (!strcmp(argv[k], "--reps") && k + 1 < argc) {
            *reps = atoi(argv[++k]);
        } else {
            fprintf(stderr, "usage: %s [--quick] [--reps N]\n", argv[0]);
            exit(2);
        }
    }
    return quick;
}

/* CUDA runtime calls, for the files that include cuda_runtime_api.h first. */
#ifdef CUDART_VERSION
#define CU(call)                                                          \
    do {                                                                  \
        cudaError_t cu_e_ = (call);                                       \
        if (cu_e_ != cudaSuccess) {                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorString(cu_e_));                           \
            exit(2);                                                      \
        }                                                                 \
    } while (0)
#endif

/* The description of a view of e0 elements (rank 1) or e0 x e1 (rank 2) in `space`. */
static inline px_view_desc bench_desc(const char *label, px_space space, px_dtype dtype, int rank,
                                      int64_t e0, int64_t e1)
{
    return (px_view_desc){
        .label = label, .space = space, .dtype = dtype, .rank = rank, .extent = {e0, e1}};
}

/* A host view of e0 elements (rank 1) or e0 x e1 (rank 2) over the caller's array. */
static inline px_view *bench_host_wrap(const char *label, px_dtype dtype, int rank, int64_t e0,
                                       int64_t e1, void *data)
{
    const px_view_desc d = bench_desc(label, px_host(), dtype, rank, e0, e1);
    px_view *v;
    CHECK(px_view_wrap(&v, &d, data));
    return v;
}

/* After px_init: whether portex has a usable GPU. Where it has none, says so and finalizes
   portex: the caller returns 77 (skipped). */
static inline bool bench_cuda_usable(const char *name)
{
    if (px_exec_space_check(PX_EXEC_CUDA) == PX_OK) return true;
    printf("%s: no usable GPU (%s): skipped\n", name, px_last_error());
    CHECK(px_finalize());
    return false;
}

/* One row (0 < i < nx - 1) of an explicit step of the 2-D heat equation, in a plain loop: the
   reference the benchmarks time against portex's stencil (examples/heat2d.c's kernel). */
static inline void bench_heat_row(int64_t i, int64_t ny, double alpha, const double *restrict in,
                                  double *restrict out)
{
    for (int64_t j = 1; j < ny - 1; ++j) {
        const double c = in[i * ny + j];
        const double neighbours =
            in[(i - 1) * ny + j] + in[(i + 1) * ny + j] + in[i * ny + j - 1] + in[i * ny + j + 1];
        out[i * ny + j] = c + alpha * (neighbours - 4.0 * c);
    }
}

static inline double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static inline int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v. */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One timed sample of variant i: its time per call. */
typedef double (*bench_sample_fn)(int i, void *ctx);

/* `warm` untimed rounds, then `reps` rounds in which each of the nv variants is sampled
 * once, the variant that goes first rotating (so none always runs after the same one);
 * med[i] is variant i's median. Returns 0, or -1 when memory runs out. */
static inline int bench_rotate(int nv, int warm, int reps, bench_sample_fn sample, void *ctx,
                               double *med)
{
    double *t = (double *)malloc((size_t)nv * (size_t)reps * sizeof *t);
    if (!t) return -1;
    for (int w = 0; w < warm; ++w)
        for (int k = 0; k < nv; ++k) (void)sample(k, ctx);
    for (int r = 0; r < reps; ++r)
        for (int k = 0; k < nv; ++k) {
            const int i = (r + k) % nv;
            t[i * reps + r] = sample(i, ctx);
        }
    for (int k = 0; k < nv; ++k) med[k] = median(t + k * reps, reps);
    free(t);
    return 0;
}

/* Two ways of doing the same work, sample(0, ctx) (the baseline) and sample(1, ctx) (the
 * one measured against it), each returning its time: `warm` untimed rounds, then `reps`
 * rounds in which the two run back to back, alternating which goes first. Medians and
 * minima of each, and the median of the per-round ratios sample 1 / sample 0 (a slow phase
 * of a shared machine hits both sides of a round alike). */
typedef struct bench_pair {
    double base, test; /* medians */
    double base_min, test_min;
    double ratio; /* median over rounds of test / base */
} bench_pair;

static inline bench_pair bench_paired(bench_sample_fn sample, void *ctx, int warm, int reps)
{
    double *t = (double *)malloc(3 * (size_t)reps * sizeof *t);
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    double *t0 = t, *t1 = t + reps, *tr = t + 2 * reps;
    for (int w = 0; w < warm; ++w) {
        (void)sample(0, ctx);
        (void)sample(1, ctx);
    }
    for (int r = 0; r < reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            const int i = (r + k) % 2;
            const double x = sample(i, ctx);
            if (i)
                t1[r] = x;
            else
                t0[r] = x;
        }
        tr[r] = t1[r] / t0[r];
    }
    bench_pair p;
    p.base = median(t0, reps); /* sorts: [0] is the minimum */
    p.test = median(t1, reps);
    p.base_min = t0[0];
    p.test_min = t1[0];
    p.ratio = median(tr, reps);
    free(t);
    return p;
}

#endif /* BENCH_UTIL_H */
