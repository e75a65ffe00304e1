/* The portex kernels of bench_kernels_cuda: argument structs and declarations, shared by
 * the kernel file (kernels_cuda_k.c, compiled as CUDA) and the C program. Valid C11 and
 * CUDA C++. */
#ifndef KERNELS_CUDA_K_H
#define KERNELS_CUDA_K_H

#include <portex.h>

typedef struct kc_triad_args {
    double s;
    px_span_f64 a, b, c;
} kc_triad_args;
PX_DECLARE_KERNEL(kc_triad);      /* a(i) = b(i) + s * c(i) */

typedef struct kc_dot_args {
    px_span_f64 x, y;
} kc_dot_args;
PX_DECLARE_KERNEL(kc_dot);        /* sum of x(i) * y(i) */

typedef struct kc_scale2d_args {
    double s;
    px_span_f64 in, out;
} kc_scale2d_args;
PX_DECLARE_KERNEL(kc_scale2d);    /* out(i, j) = s * in(i, j) */

typedef struct kc_scan_args {
    px_span_i64 in, out;
} kc_scan_args;
PX_DECLARE_KERNEL(kc_scan);       /* out(i) = in(0) + ... + in(i) */

typedef struct kc_empty_args {
    int unused;                   /* C has no empty structs */
} kc_empty_args;
PX_DECLARE_KERNEL(kc_empty);      /* nothing: dispatch cost alone */

#endif
