/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_random's kernel: uniform doubles from portex's Philox4x32-10, two per index (one
   block of four outputs each). Valid C11 and CUDA C++. */
#ifndef BENCH_RANDOM_KERNELS_H
#define BENCH_RANDOM_KERNELS_H

#include <portex.h>

typedef struct br_fill_args {
    uint64_t seed;
    px_span_f64_1d_restrict x; /* 2 n doubles for n indices */
} br_fill_args;
PX_DECLARE_KERNEL(br_fill);
/* The same doubles laid out in halves: index i's two at i and n + i (x holds 2 n), so that
   a warp's stores each cover consecutive doubles (bench_random_cuda's diagnostic row). */
typedef struct br_fill_halves_args {
    uint64_t seed;
    int64_t n; /* indices */
    px_span_f64_1d_restrict x;
} br_fill_halves_args;
PX_DECLARE_KERNEL(br_fill_halves);

/* Index i's two doubles: block i of subsequence 0. */
PX_FUNCTION void br_fill_pair(uint64_t seed, int64_t i, double *a, double *b)
{
    px_philox g = px_philox_init(seed, 0, 4 * (uint64_t)i);
    *a = px_rand_uniform_f64(&g);
    *b = px_rand_uniform_f64(&g);
}

#endif
