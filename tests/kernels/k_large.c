/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_large (a kernel file: C, or CUDA when CUDA is on). */
#include "k_large.h"

PX_FOR(large_fill, large_args, args, i) { args->x.data[i] = (uint8_t)((7 * i + 3) & 0xff); }

PX_REDUCE(large_sum, large_args, args, i, uint64_t, sum, acc) { *acc += args->x.data[i]; }

PX_SCAN(large_scan, large_args, args, i, int64_t, sum, update, final)
{
    if (final) args->out.data[i] = *update;
    *update += args->x.data[i];
}

/* Over [0, n - 1): each step of the scan, and x itself, checked in one pass. */
PX_REDUCE(large_check, large_args, args, i, int64_t, sum, acc)
{
    const int64_t x = args->x.data[i];
    *acc += (args->out.data[i + 1] - args->out.data[i] != x) + (x != ((7 * i + 3) & 0xff));
}
