/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernels of bench_openmp: argument structs and declarations, shared by the kernel file
 * and bench_openmp.c. The spans are the forms that tell the compiler what the plain
 * OpenMP loops' restrict pointers and unit strides tell it (px_span_*_1d_restrict,
 * px_span_f64_right_restrict). */
#ifndef BENCH_OPENMP_KERNELS_H
#define BENCH_OPENMP_KERNELS_H

#include <portex.h>

typedef struct bomp_triad_args {
    double s;
    px_span_f64_1d_restrict a, b, c;
} bomp_triad_args;
PX_DECLARE_KERNEL(bomp_triad); /* a(i) = b(i) + s * c(i) (STREAM triad) */

typedef struct bomp_dot_args {
    px_span_f64_1d_restrict x, y;
} bomp_dot_args;
PX_DECLARE_KERNEL(bomp_dot); /* sum of x(i) * y(i) */

typedef struct bomp_stencil_args {
    double alpha;
    px_span_f64_right_restrict in, out;
} bomp_stencil_args;
PX_DECLARE_KERNEL(bomp_stencil); /* 5-point heat step at interior (i, j) */

typedef struct bomp_empty_args {
    int unused;
} bomp_empty_args;
PX_DECLARE_KERNEL(bomp_empty); /* nothing: the cost of a dispatch */

typedef struct bomp_scan_args {
    px_span_i64_1d_restrict in, out;
} bomp_scan_args;
PX_DECLARE_KERNEL(bomp_scan); /* out(i) = in(0) + ... + in(i) (inclusive) */

#endif
