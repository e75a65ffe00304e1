/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* dot: the kernel's arguments and declaration, shared by the kernel file and main.
 * Included by C and (with CUDA on) by CUDA C++: keep it valid in both. */
#ifndef DOT_KERNELS_H
#define DOT_KERNELS_H

#include <portex.h>

typedef struct dot_args {
    px_span_f64_1d x, y;
} dot_args;

PX_DECLARE_KERNEL(dot); /* the sum over i of x(i) * y(i) */

#endif
