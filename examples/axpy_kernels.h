/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* axpy: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef AXPY_KERNELS_H
#define AXPY_KERNELS_H

#include <portex.h>

typedef struct axpy_args {
    double a;
    px_span_f64_1d x, y; /* spans: plain structs (pointer, extents, strides) passed by value */
} axpy_args;

PX_DECLARE_KERNEL(axpy); /* y(i) = a * x(i) + y(i) */

#endif
