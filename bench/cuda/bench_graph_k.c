/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_graph, written as docs/kernels.md tells users to write kernels.
 * Compiled as CUDA (copied to a .cu by Meson); valid C11 as well. */
#include "bench_graph_k.h"

PX_FOR(bg_empty, bg_empty_args, args, i)
{
    (void)args;
    (void)i;
}

PX_FOR(bg_axpy, bg_axpy_args, args, i) { PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); }

PX_FOR_2D(bg_sweep, bg_sweep_args, args, i, j)
{
    PX_AT2(args->out, i, j) = 0.25 * (PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                                      PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1));
}

/* max is exact in any order: the residual does not depend on how the GPU groups it. */
PX_REDUCE_2D(bg_update, bg_update_args, args, i, j, double, max, acc)
{
    const double d = fabs(PX_AT2(args->a, i, j) - PX_AT2(args->b, i, j));
    if (d > *acc) *acc = d;
}

PX_FOR(bg_count, bg_count_args, args, i)
{
    PX_AT1(args->iters, i) += args->sweeps;
    if (PX_AT1(args->iters, i) >= args->cap) PX_AT1(args->residual, i) = 0.0;
}
