/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* random_pi: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef RANDOM_PI_KERNELS_H
#define RANDOM_PI_KERNELS_H

#include <portex.h>

typedef struct pi_args {
    uint64_t seed;
    int points; /* points per index */
} pi_args;

/* Index i's points: from subsequence i of the seed, whatever backend runs it. */
PX_FUNCTION int64_t pi_hits_of(const pi_args *a, int64_t i)
{
    px_philox g = px_philox_init(a->seed, (uint64_t)i, 0);
    int64_t hits = 0;
    for (int k = 0; k < a->points; ++k) {
        const double x = px_rand_uniform_f64(&g), y = px_rand_uniform_f64(&g);
        hits += x * x + y * y < 1.0;
    }
    return hits;
}

PX_DECLARE_KERNEL(pi_hits); /* the points inside the quarter circle */

#endif
