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

#endif /* BENCH_UTIL_H */
