/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The portex kernels of bench_graph: argument structs and declarations, shared by the
 * kernel file (bench_graph_k.c, compiled as CUDA) and the C program. Valid C11 and CUDA
 * C++. The Jacobi solve runs the example's kernels (examples/graph_jacobi_kernels.h). */
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

#endif
