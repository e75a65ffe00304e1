/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_random's kernel file (bench_random_kernels.h): compiled as C. */
#include "bench_random_kernels.h"

PX_FOR(br_fill, br_fill_args, a, i)
{
    br_fill_pair(a->seed, i, &PX_AT1(a->x, 2 * i), &PX_AT1(a->x, 2 * i + 1));
}

PX_FOR(br_fill_halves, br_fill_halves_args, a, i)
{
    br_fill_pair(a->seed, i, &PX_AT1(a->x, i), &PX_AT1(a->x, a->n + i));
}
