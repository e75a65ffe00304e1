/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "heat2d_kernels.h"

PX_FOR_2D(heat_step, heat_args, args, i, j)
{
    const double c = PX_AT2(args->in, i, j);
    const double neighbours = PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                              PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1);
    PX_AT2(args->out, i, j) = c + args->alpha * (neighbours - 4.0 * c);
}
