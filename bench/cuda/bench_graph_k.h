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

/* Kernels of k = 1, 2, 4 and 8 arguments, as a user passes them (one span each, in the
   kernel's Args): p[0](i) += 1 (k = 1) or p[0](i) += p[1](i) + ... + p[k-1](i). */
typedef struct bg_args1 {
    px_span_f64_1d_restrict p[1];
} bg_args1;
typedef struct bg_args2 {
    px_span_f64_1d_restrict p[2];
} bg_args2;
typedef struct bg_args4 {
    px_span_f64_1d_restrict p[4];
} bg_args4;
typedef struct bg_args8 {
    px_span_f64_1d_restrict p[8];
} bg_args8;
PX_DECLARE_KERNEL(bg_add1);
PX_DECLARE_KERNEL(bg_add2);
PX_DECLARE_KERNEL(bg_add4);
PX_DECLARE_KERNEL(bg_add8);

#endif
