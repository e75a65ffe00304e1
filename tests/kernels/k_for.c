/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: parallel_for kernels of the tests (valid C11 and CUDA C++). */
#include "kernels.h"

PX_FOR(axpy, axpy_args, args, i) { PX_AT1(args->y, i) += args->a * PX_AT1(args->x, i); }

PX_FOR(visit1, visit_args, args, i)
{
    PX_AT1(args->hits, i) += 1;
    if (args->order.data) PX_AT1(args->order, i) = args->counter.data[0]++;
}

PX_FOR_2D(visit2, visit_args, args, i, j)
{
    PX_AT2(args->hits, i, j) += 1;
    if (args->order.data) PX_AT2(args->order, i, j) = args->counter.data[0]++;
}

PX_FOR_3D(visit3, visit_args, args, i, j, k)
{
    PX_AT3(args->hits, i, j, k) += 1;
    if (args->order.data) PX_AT3(args->order, i, j, k) = args->counter.data[0]++;
}

PX_FOR_4D(visit4, visit_args, args, i, j, k, l)
{
    PX_AT4(args->hits, i, j, k, l) += 1;
    if (args->order.data) PX_AT4(args->order, i, j, k, l) = args->counter.data[0]++;
}

PX_FOR_5D(visit5, visit_args, args, i, j, k, l, m)
{
    PX_AT5(args->hits, i, j, k, l, m) += 1;
    if (args->order.data) PX_AT5(args->order, i, j, k, l, m) = args->counter.data[0]++;
}

PX_FOR_6D(visit6, visit_args, args, i, j, k, l, m, n)
{
    PX_AT6(args->hits, i, j, k, l, m, n) += 1;
    if (args->order.data) PX_AT6(args->order, i, j, k, l, m, n) = args->counter.data[0]++;
}

PX_REDUCE_4D(nd_sum4, visit_args, args, i, j, k, l, int64_t, sum, acc)
{
    (void)args;
    *acc += nd_term(i, j, k, l, 0, 0);
}

PX_REDUCE_5D(nd_sum5, visit_args, args, i, j, k, l, m, int64_t, sum, acc)
{
    (void)args;
    *acc += nd_term(i, j, k, l, m, 0);
}

PX_REDUCE_6D(nd_sum6, visit_args, args, i, j, k, l, m, n, int64_t, sum, acc)
{
    (void)args;
    *acc += nd_term(i, j, k, l, m, n);
}

PX_FOR_2D(index2, ij_args, args, i, j) { PX_AT2(args->out, i, j) = 1000.0 * (double)i + (double)j; }
