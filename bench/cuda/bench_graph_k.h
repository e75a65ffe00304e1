/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The portex kernels of bench_graph: argument structs and declarations, shared by the
 * kernel file (bench_graph_k.c, compiled as CUDA) and the C program. Valid C11 and CUDA
 * C++. */
#ifndef BENCH_GRAPH_K_H
#define BENCH_GRAPH_K_H

#include <portex.h>

typedef struct bg_empty_args {
    int unused; /* C has no empty structs */
} bg_empty_args;
PX_DECLARE_KERNEL(bg_empty); /* nothing: launch cost alone */

typedef struct bg_axpy_args {
    double a;
    px_span_f64_1d_restrict x, y;
} bg_axpy_args;
PX_DECLARE_KERNEL(bg_axpy); /* y(i) += a * x(i) */

/* One Jacobi sweep over the interior points: out = the mean of in's 4 neighbours. */
typedef struct bg_sweep_args {
    px_span_f64_right_restrict in, out;
} bg_sweep_args;
PX_DECLARE_KERNEL(bg_sweep);

/* max |a - b| over the interior (the size of the last sweep's update). */
typedef struct bg_update_args {
    px_span_f64_right a, b;
} bg_update_args;
PX_DECLARE_KERNEL(bg_update);

/* One index: iters[0] += sweeps; once iters[0] >= cap, residual[0] = 0, which ends the
 * loop (the graph's condition is residual > 0): both loops run exactly `cap` sweeps. */
typedef struct bg_count_args {
    int64_t sweeps, cap;
    px_span_i64_1d iters;
    px_span_f64_1d residual;
} bg_count_args;
PX_DECLARE_KERNEL(bg_count);

#endif
