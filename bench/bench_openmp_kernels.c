/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of bench_openmp, written as docs/kernels.md tells users to write kernels
 * (PX_AT* accessors). Always compiled as plain C, without OpenMP flags: the OpenMP backend
 * runs these host entries on its threads, so the kernel file needs no OpenMP of its own. */
#include "bench_openmp_kernels.h"

PX_FOR(bomp_triad, bomp_triad_args, args, i)
{
    PX_AT1(args->a, i) = PX_AT1(args->b, i) + args->s * PX_AT1(args->c, i);
}

PX_REDUCE(bomp_dot, bomp_dot_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i);
}

PX_FOR_2D(bomp_stencil, bomp_stencil_args, args, i, j)
{
    const double c = PX_AT2(args->in, i, j);
    const double neighbours = PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                              PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1);
    PX_AT2(args->out, i, j) = c + args->alpha * (neighbours - 4.0 * c);
}

PX_FOR(bomp_empty, bomp_empty_args, args, i)
{
    (void)args;
    (void)i;
}

PX_SCAN(bomp_scan, bomp_scan_args, args, i, int64_t, sum, update, final)
{
    *update += PX_AT1(args->in, i);
    if (final) PX_AT1(args->out, i) = *update;
}
