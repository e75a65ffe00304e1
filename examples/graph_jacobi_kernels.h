/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_jacobi: the kernels' arguments and declarations, shared by the kernel file and
 * main. Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef GRAPH_JACOBI_KERNELS_H
#define GRAPH_JACOBI_KERNELS_H

#include <portex.h>

/* One Jacobi sweep over the interior points: out = the mean of in's 4 neighbours. */
typedef struct jacobi_sweep_args {
    px_span_f64_right_restrict in, out; /* 2-D, row-major, two different views */
} jacobi_sweep_args;
PX_DECLARE_KERNEL(jacobi_sweep);

/* The size of the last update: max |a - b| over the interior (reduction, join max). */
typedef struct jacobi_update_args {
    px_span_f64_right a, b;
} jacobi_update_args;
PX_DECLARE_KERNEL(jacobi_update);

/* One index: counts the sweeps of a pass (iters[0] += sweeps) and, once the count
 * reaches max_iters, sets residual[0] to 0 so that the loop stops there. */
typedef struct jacobi_count_args {
    int64_t sweeps, max_iters;
    px_span_i64_1d iters;
    px_span_f64_1d residual;
} jacobi_count_args;
PX_DECLARE_KERNEL(jacobi_count);

#endif
