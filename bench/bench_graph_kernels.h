/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernels of bench_graph (serial backend): argument structs and declarations, shared by
 * the kernel file (bench_graph_kernels.c: C, or CUDA when the CUDA backend is on) and the C
 * program. Valid C11 and CUDA C++. */
#ifndef BENCH_GRAPH_KERNELS_H
#define BENCH_GRAPH_KERNELS_H

#include <portex.h>

typedef struct bgs_axpy_args {
    double a;
    px_span_f64_1d_restrict x, y;
} bgs_axpy_args;
PX_DECLARE_KERNEL(bgs_axpy); /* y(i) += a * x(i) */

/* Near-empty: one store, so that the call is not optimised away. */
typedef struct bgs_touch_args {
    px_span_i64_1d count;
} bgs_touch_args;
PX_DECLARE_KERNEL(bgs_touch); /* count(i) += 1 */

#endif
