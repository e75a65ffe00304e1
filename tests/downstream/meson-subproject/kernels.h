/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The kernels' arguments and declarations, shared by the kernel file and main.c. Included
 * by C and, where portex has CUDA, by CUDA C++: valid in both (docs/kernels.md). */
#ifndef DOWNSTREAM_KERNELS_H
#define DOWNSTREAM_KERNELS_H

#include <portex.h>

typedef struct odd_args {
    px_span_i64_1d x;
} odd_args;

PX_DECLARE_KERNEL(odd_fill); /* x(i) = 2i + 1 */
PX_DECLARE_KERNEL(odd_sum);  /* the sum of x(i) */

#endif
