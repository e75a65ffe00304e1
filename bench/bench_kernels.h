/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The benchmark's kernels: argument structs and declarations, shared by the kernel file
 * and bench_serial.c. Valid C11 and CUDA C++. Each kernel comes twice: with strided spans
 * (px_span_f64: any layout, a run-time stride per index) and with the spans that carry
 * what the plain loops know (unit stride known at compile time, restrict). */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H

#include <portex.h>

typedef struct bench_axpy_args {
    double a;
    px_span_f64 x, y;
} bench_axpy_args;
PX_DECLARE_KERNEL(bench_axpy); /* y(i) += a * x(i) */

typedef struct bench_axpy_1d_args {
    double a;
    px_span_f64_1d_restrict x, y;
} bench_axpy_1d_args;
PX_DECLARE_KERNEL(bench_axpy_1d);

typedef struct bench_dot_args {
    px_span_f64 x, y;
} bench_dot_args;
PX_DECLARE_KERNEL(bench_dot); /* sum of x(i) * y(i) */

typedef struct bench_dot_1d_args {
    px_span_f64_1d_restrict x, y;
} bench_dot_1d_args;
PX_DECLARE_KERNEL(bench_dot_1d);

typedef struct bench_stencil_args {
    double alpha;
    px_span_f64 in, out;
} bench_stencil_args;
PX_DECLARE_KERNEL(bench_stencil); /* 5-point heat step at interior (i, j) */

typedef struct bench_stencil_right_args {
    double alpha;
    px_span_f64_right_restrict in, out;
} bench_stencil_right_args;
PX_DECLARE_KERNEL(bench_stencil_right);

#endif
