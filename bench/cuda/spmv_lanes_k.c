/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: kernels only. Compiled as C, or as CUDA when the CUDA backend is on
 * (docs/kernels.md), so it is written in the common subset of C11 and C++. */
#include "spmv_lanes_k.h"

PX_TEAM_FOR(lanes_team, lanes_args, a, team)
{
    const int64_t first = team->league_rank * a->rows_per_team;
    const int64_t last = first + a->rows_per_team < a->nrows ? first + a->rows_per_team : a->nrows;
    PX_TEAM_THREAD_FOR(team, r, first, last)
    {
        if (a->max_len > 0 && PX_AT1(a->row, r + 1) - PX_AT1(a->row, r) > a->max_len) continue;
        double sum;
        /* Every lane of this thread reaches the reduction: it sits in the thread loop. */
        PX_THREAD_VECTOR_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), double, sum, acc,
                                sum)
        {
            *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
        }
        PX_SINGLE_PER_THREAD(team) { PX_AT1(a->y, r) = sum; }
    }
}

PX_TEAM_FOR(lanes_long, lanes_args, a, team)
{
    const int64_t r = PX_AT1(a->long_rows, team->league_rank);
    double sum;
    /* Every thread reaches the reduction: nothing above depends on team_rank or lanes. */
    PX_TEAM_VECTOR_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), double, sum, acc, sum)
    {
        *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
    }
    PX_SINGLE_PER_TEAM(team) { PX_AT1(a->y, r) = sum; }
}
