/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "dot_kernels.h"

/* A reduction of doubles with the built-in join `sum`: the body adds element i's part to
 * *acc; portex combines the partial sums (in an order of its choosing on a GPU). */
PX_REDUCE(dot, dot_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i);
}
