/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernel file: the kernels of test_graph (valid C11 and CUDA C++; portex macros only). */
#include "k_graph.h"

PX_FOR(g_set, g_set_args, args, i) { PX_AT1(args->y, i) = args->v; }

PX_FOR(g_axpb, g_axpb_args, args, i)
{
    PX_AT1(args->y, i) = args->a * PX_AT1(args->x, i) + args->b;
}

PX_FOR(g_add, g_add_args, args, i) { PX_AT1(args->z, i) = PX_AT1(args->x, i) + PX_AT1(args->y, i); }

PX_FOR(g_inc, g_inc_args, args, i) { PX_AT1(args->v, i) += args->d; }

PX_FOR(g_count, g_count_args, args, i)
{
    if (i == 0) {
        const int64_t c = PX_AT1(args->counter, 0) + 1;
        PX_AT1(args->counter, 0) = c;
        px_cond_set(args->cond, c < args->limit ? 1u : 0u);
    }
}

PX_FOR(g_cond_nonzero, g_cond_args, args, i)
{
    if (i == 0) px_cond_set(args->cond, PX_AT1(args->v, 0) != 0 ? 1u : 0u);
}

PX_REDUCE(g_sum, g_sum_args, args, i, double, sum, acc) { *acc += PX_AT1(args->x, i); }

PX_SCAN(g_scan_excl, g_scan_args, args, i, int64_t, sum, update, final)
{
    if (final) PX_AT1(args->out, i) = *update;
    *update += PX_AT1(args->in, i);
}
