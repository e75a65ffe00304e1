/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The parts of test_parallel, a file per suite (parallel_for.c: for, parallel_reduce.c:
 * reduce, parallel_scan.c: scan, parallel_dispatch.c: dispatch), each registering its
 * test cases; test_parallel.c's main runs them. What the parts share: the sizes and tile
 * shapes the loop tests go through, random inputs and the comparisons of results. */
#ifndef PX_TESTS_TEST_PARALLEL_H
#define PX_TESTS_TEST_PARALLEL_H

#include <math.h>

#include "common.h"
#include "kernels.h"

void parallel_for_cases(void);
void parallel_reduce_cases(void);
void parallel_scan_cases(void);
void parallel_dispatch_cases(void);

/* The sizes of the 1-D loop tests: empty, one and two elements, a prime, past 2^16. */
static const int64_t sizes[] = {0, 1, 2, 1009, 65537};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* A random f64 vector of n in HOST (x) and a copy in tk_space() (*dev). */
static inline px_view *rand_f64(tk_rng *r, int64_t n, double lo, double hi, px_view **dev)
{
    px_view *h = tk_view1("rand_f64", px_host(), PX_F64, n);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = tk_uniform(r, lo, hi);
    *dev = tk_on_space(h, "rand_f64_dev");
    return h;
}

/* As rand_f64 with integer values in [lo, hi]: arithmetic on them is exact (FMA or not). */
static inline px_view *rand_int_f64(tk_rng *r, int64_t n, int64_t lo, int64_t hi, px_view **dev)
{
    px_view *h = tk_view1("rand_int_f64", px_host(), PX_F64, n);
    double *x = (double *)tk_data(h);
    for (int64_t i = 0; i < n; ++i) x[i] = (double)tk_int(r, lo, hi);
    *dev = tk_on_space(h, "rand_int_f64_dev");
    return h;
}

static inline px_view *zeros(px_dtype dt, int rank, const int64_t *ext)
{
    return tk_view("zeros", tk_space(), dt, rank, ext);
}

static inline bool close_rel(double got, double want, double tol, double scale)
{
    return fabs(got - want) <= tol * (scale > 1.0 ? scale : 1.0);
}

/* 2-D and 3-D tile shapes: zeros (the default), one element, uneven, larger than the range. */
static const int64_t tiles2[][2] = {{0, 0}, {4, 5}, {1, 1}, {7, 3}, {1000, 1000}, {1, 64}};
#define NTILES2 ((int)(sizeof tiles2 / sizeof tiles2[0]))
static const int64_t tiles3[][3] = {{0, 0, 0}, {2, 3, 4}, {1, 1, 1}, {100, 100, 100}, {3, 1, 8}};
#define NTILES3 ((int)(sizeof tiles3 / sizeof tiles3[0]))

#endif /* PX_TESTS_TEST_PARALLEL_H */
