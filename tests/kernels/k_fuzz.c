/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file of test_fuzz (always C); see k_fuzz.h. */
#include "k_fuzz.h"

PX_FOR(fz_for1, fz_args, a, i)
{
    a->calls[0] += 1;
    a->sum[0] += fz_hash(i, 0, 0);
}

PX_FOR_2D(fz_for2, fz_args, a, i, j)
{
    a->calls[0] += 1;
    a->sum[0] += fz_hash(i, j, 0);
}

PX_FOR_3D(fz_for3, fz_args, a, i, j, k)
{
    a->calls[0] += 1;
    a->sum[0] += fz_hash(i, j, k);
}

PX_REDUCE(fz_reduce1, fz_args, a, i, uint64_t, sum, acc)
{
    (void)a;
    *acc += fz_hash(i, 0, 0);
}

PX_REDUCE_2D(fz_reduce2, fz_args, a, i, j, uint64_t, sum, acc)
{
    (void)a;
    *acc += fz_hash(i, j, 0);
}

PX_REDUCE_3D(fz_reduce3, fz_args, a, i, j, k, uint64_t, sum, acc)
{
    (void)a;
    *acc += fz_hash(i, j, k);
}

PX_SCAN(fz_scan, fz_args, a, i, uint64_t, sum, update, final)
{
    if (final) {
        a->calls[0] += 1;
        a->sum[0] += *update;
    }
    *update += fz_hash(i, 0, 0);
}
