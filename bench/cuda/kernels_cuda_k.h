/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The portex kernels of bench_kernels_cuda: argument structs and declarations, shared by
 * the kernel file (kernels_cuda_k.c, compiled as CUDA) and the C program. Valid C11 and
 * CUDA C++. The spans tell the compiler what the raw baselines' pointers tell it: unit
 * stride (contiguous spans for plain pointers), and restrict where the raw kernel has
 * __restrict__ (triad, scale2d; CUB's dot and scan take plain pointers). */
#ifndef KERNELS_CUDA_K_H
#define KERNELS_CUDA_K_H

#include <portex.h>

typedef struct kc_triad_args {
    double s;
    px_span_f64_1d_restrict a, b, c;
} kc_triad_args;
PX_DECLARE_KERNEL(kc_triad); /* a(i) = b(i) + s * c(i) */

typedef struct kc_dot_args {
    px_span_f64_1d x, y;
} kc_dot_args;
PX_DECLARE_KERNEL(kc_dot); /* sum of x(i) * y(i) */

typedef struct kc_scale2d_args {
    double s;
    px_span_f64_right_restrict in, out;
} kc_scale2d_args;
PX_DECLARE_KERNEL(kc_scale2d); /* out(i, j) = s * in(i, j) */

typedef struct kc_scan_args {
    px_span_i64_1d in, out;
} kc_scan_args;
PX_DECLARE_KERNEL(kc_scan); /* out(i) = in(0) + ... + in(i) */

/* The same scan through strided spans (a run-time stride per access), for comparison. */
typedef struct kc_scan_strided_args {
    px_span_i64 in, out;
} kc_scan_strided_args;
PX_DECLARE_KERNEL(kc_scan_strided);

typedef struct kc_empty_args {
    int unused; /* C has no empty structs */
} kc_empty_args;
PX_DECLARE_KERNEL(kc_empty); /* nothing: dispatch cost alone */

#endif
