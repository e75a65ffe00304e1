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

PX_FOR(bg_add1, bg_args1, args, i) { PX_AT1(args->p[0], i) += 1.0; }

PX_FOR(bg_add2, bg_args2, args, i) { PX_AT1(args->p[0], i) += PX_AT1(args->p[1], i); }

PX_FOR(bg_add4, bg_args4, args, i)
{
    double s = 0;
    for (int k = 1; k < 4; ++k) s += PX_AT1(args->p[k], i);
    PX_AT1(args->p[0], i) += s;
}

PX_FOR(bg_add8, bg_args8, args, i)
{
    double s = 0;
    for (int k = 1; k < 8; ++k) s += PX_AT1(args->p[k], i);
    PX_AT1(args->p[0], i) += s;
}
