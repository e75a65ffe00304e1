/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_kernels_cuda: written as docs/kernels.md tells users to write
 * kernels (PX_AT* accessors), so that the figures are what users get. Compiled as CUDA
 * (copied to a .cu by Meson); valid C11 as well. */
#include "kernels_cuda_k.h"

PX_FOR(kc_triad, kc_triad_args, args, i)
{
    PX_AT1(args->a, i) = PX_AT1(args->b, i) + args->s * PX_AT1(args->c, i);
}

PX_REDUCE(kc_dot, kc_dot_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i);
}

PX_FOR_2D(kc_scale2d, kc_scale2d_args, args, i, j)
{
    PX_AT2(args->out, i, j) = args->s * PX_AT2(args->in, i, j);
}

/* Inclusive: the store comes after this element's contribution. */
PX_SCAN(kc_scan, kc_scan_args, args, i, int64_t, sum, update, final)
{
    *update += PX_AT1(args->in, i);
    if (final) PX_AT1(args->out, i) = *update;
}

PX_SCAN(kc_scan_strided, kc_scan_strided_args, args, i, int64_t, sum, update, final)
{
    *update += PX_AT1(args->in, i);
    if (final) PX_AT1(args->out, i) = *update;
}

PX_FOR(kc_empty, kc_empty_args, args, i)
{
    (void)args;
    (void)i;
}
