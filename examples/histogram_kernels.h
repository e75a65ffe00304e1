/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* histogram: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef HISTOGRAM_KERNELS_H
#define HISTOGRAM_KERNELS_H

#include <math.h>
#include <portex.h>

typedef struct hist_args {
    uint64_t seed;
    double lo, width; /* bin b counts [lo + b width, lo + (b + 1) width); the ends take the rest */
    int64_t nbins;
    px_scatter_i64 counts; /* the scatter's handle: the kernel adds through it */
} hist_args;

/* Index i's value: a standard normal draw from subsequence i of the seed, the same on every
   backend. */
PX_FUNCTION double hist_value(const hist_args *a, int64_t i)
{
    px_philox g = px_philox_init(a->seed, (uint64_t)i, 0);
    return px_rand_normal_f64(&g);
}

PX_FUNCTION int64_t hist_bin(const hist_args *a, double x)
{
    const double b = floor((x - a->lo) / a->width);
    return b < 0 ? 0 : b >= (double)a->nbins ? a->nbins - 1 : (int64_t)b;
}

PX_DECLARE_KERNEL_FOR(histogram); /* counts[bin of value i] += 1 */

#endif
