/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_team_rows (k_team_rows.h). */
#include "k_team_rows.h"

#include "portex/atomic.h"

PX_FUNCTION int64_t tk_off(const tk_rows_args *a, int64_t r)
{
    return a->wide ? PX_AT1(a->off64, r) : PX_AT1(a->off32, r);
}

PX_TEAM_FOR(tk_rows_spmv, tk_rows_args, a, team)
{
    PX_TEAM_ROW_FOR(team, r)
    {
        const int64_t b = tk_off(a, r), e = tk_off(a, r + 1);
        double sum;
        PX_ROW_VECTOR_REDUCE(team, k, b, e, double, sum, acc, sum)
        {
            *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
        }
        int64_t cnt;
        PX_ROW_VECTOR_REDUCE(team, k, b, e, int64_t, sum, acc, cnt) { *acc += k * 3 + 1; }
        PX_ROW_VECTOR_FOR(team, k, b, e) { px_atomic_add(&PX_AT1(a->hits, k), 1 + r); }
        PX_SINGLE_PER_ROW(team)
        {
            PX_AT1(a->y, r) = sum;
            PX_AT1(a->n, r) = cnt;
            PX_AT1(a->seen, r) += 1;
        }
    }
}

PX_TEAM_REDUCE(tk_rows_total, tk_rows_args, a, team, int64_t, sum, total)
{
    PX_TEAM_ROW_FOR(team, r)
    {
        int64_t len;
        PX_ROW_VECTOR_REDUCE(team, k, tk_off(a, r), tk_off(a, r + 1), int64_t, sum, acc, len)
        {
            (void)k;
            *acc += 1;
        }
        PX_SINGLE_PER_ROW(team) { *total += (r + 1) * len + 7; }
    }
}
