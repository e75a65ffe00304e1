/* What every benchmark program shares: stopping on an error (exit 2), a monotonic clock,
 * medians. Plain C; the including file defines _POSIX_C_SOURCE (clock_gettime) first. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <portex.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        px_status check_st_ = (call);                                                      \
        if (check_st_ != PX_OK) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, px_status_name(check_st_), \
                    px_last_error());                                                      \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

/* CUDA runtime calls, for the files that include cuda_runtime_api.h first. */
#ifdef CUDART_VERSION
#  define CU(call)                                                                         \
    do {                                                                                   \
        cudaError_t cu_e_ = (call);                                                        \
        if (cu_e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(cu_e_));                                            \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)
#endif

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
static inline int bench_rotate(int nv, int warm, int reps, bench_sample_fn sample, void *ctx, double *med)
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

#endif /* BENCH_UTIL_H */
