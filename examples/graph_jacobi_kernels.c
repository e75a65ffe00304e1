/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "graph_jacobi_kernels.h"

PX_FOR_2D(jacobi_sweep, jacobi_sweep_args, args, i, j)
{
    PX_AT2(args->out, i, j) = 0.25 * (PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                                      PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1));
}

/* max is exact in any order: the residual does not depend on how the GPU groups it. */
PX_REDUCE_2D(jacobi_update, jacobi_update_args, args, i, j, double, max, acc)
{
    const double d = fabs(PX_AT2(args->a, i, j) - PX_AT2(args->b, i, j));
    if (d > *acc) *acc = d;
}

PX_FOR(jacobi_count, jacobi_count_args, args, i)
{
    PX_AT1(args->iters, i) += args->sweeps;
    if (PX_AT1(args->iters, i) >= args->max_iters) PX_AT1(args->residual, i) = 0.0;
}
