/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "spmv_kernels.h"

PX_TEAM_FOR(spmv, spmv_args, a, team)
{
    PX_TEAM_ROW_FOR(team, r)
    {
        double sum;
        PX_ROW_VECTOR_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), double, sum, acc,
                             sum)
        {
            *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
        }
        PX_SINGLE_PER_ROW(team) { PX_AT1(a->y, r) = sum; }
    }
}
