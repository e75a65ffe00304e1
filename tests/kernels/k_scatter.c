/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the kernels of test_scatter (valid C11 and CUDA C++; portex macros only).
 * What each does is in k_scatter.h. */
#include "k_scatter.h"

PX_FOR(sc_for, sc_args, a, i) { sc_add(a, i); }

PX_FOR_2D(sc_for_2d, sc_args, a, i, j) { sc_add(a, i * SC_COLS2 + j); }

PX_REDUCE(sc_reduce, sc_args, a, i, int64_t, sum, acc)
{
    sc_add(a, i);
    *acc += 1;
}

PX_SCAN(sc_scan, sc_args, a, i, int64_t, sum, update, final)
{
    if (final) sc_add(a, i);
    *update += 1;
}

PX_TEAM_FOR(sc_team, sc_args, a, team)
{
    PX_TEAM_VECTOR_FOR(team, k, 0, SC_PER_TEAM) { sc_add(a, team->league_rank * SC_PER_TEAM + k); }
}
