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
