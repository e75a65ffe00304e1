/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of the benchmark: the kernels written as the examples and docs/kernels.md
 * tell users to write them (PX_AT* accessors), so that the figures are what users get.
 * The bodies are the same for both span forms; only the argument types differ.
 * Compiled as C, or as CUDA when the CUDA backend is on. */
#include "bench_kernels.h"

#define BENCH_AXPY(name, Args) \
    PX_FOR(name, Args, args, i) { PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); }

#define BENCH_DOT(name, Args)                            \
    PX_REDUCE(name, Args, args, i, double, sum, acc)     \
    {                                                    \
        *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i); \
    }

#define BENCH_STENCIL(name, Args)                                                           \
    PX_FOR_2D(name, Args, args, i, j)                                                       \
    {                                                                                       \
        const double c = PX_AT2(args->in, i, j);                                            \
        const double neighbours = PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) + \
                                  PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1);  \
        PX_AT2(args->out, i, j) = c + args->alpha * (neighbours - 4.0 * c);                 \
    }

BENCH_AXPY(bench_axpy, bench_axpy_args)
BENCH_AXPY(bench_axpy_1d, bench_axpy_1d_args)
BENCH_DOT(bench_dot, bench_dot_args)
BENCH_DOT(bench_dot_1d, bench_dot_1d_args)
BENCH_STENCIL(bench_stencil, bench_stencil_args)
BENCH_STENCIL(bench_stencil_right, bench_stencil_right_args)
