/* Kernel file of the benchmark: the kernels written as the examples and docs/kernels.md
 * tell users to write them (PX_AT* accessors), so that the figures are what users get.
 * Compiled as C, or as CUDA when the CUDA backend is on. */
#include "bench_kernels.h"

PX_FOR(bench_axpy, bench_axpy_args, args, i)
{
    PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i);
}

PX_REDUCE(bench_dot, bench_dot_args, args, i, double, sum, acc)
{
    *acc += PX_AT1(args->x, i) * PX_AT1(args->y, i);
}

PX_FOR_2D(bench_stencil, bench_stencil_args, args, i, j)
{
    const double c = PX_AT2(args->in, i, j);
    const double neighbours = PX_AT2(args->in, i - 1, j) + PX_AT2(args->in, i + 1, j) +
                              PX_AT2(args->in, i, j - 1) + PX_AT2(args->in, i, j + 1);
    PX_AT2(args->out, i, j) = c + args->alpha * (neighbours - 4.0 * c);
}
