/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* PX_AT2 to PX_AT6 on a 1-D span (check_compile_fail.py: each mistake must fail
 * with the words after EXPECT; without one the file compiles). Compiled as C and, with
 * CUDA, as CUDA C++; never built otherwise. */
#include "portex.h"

typedef struct cf_rank_args {
    px_span_f64_1d x;
    px_span_f64_1d_restrict xr;
    px_span_f64_right m;
    px_span_f64 s;
} cf_rank_args;

PX_FOR(cf_rank, cf_rank_args, args, i)
{
    /* Every form on the spans it is for. */
    PX_AT1(args->x, i) = PX_AT2(args->m, i, 0) + PX_AT3(args->s, i, 0, 0) +
                         PX_AT4(args->s, i, 0, 0, 0) + PX_AT5(args->s, i, 0, 0, 0, 0) +
                         PX_AT6(args->s, i, 0, 0, 0, 0, 0);
#if PX_TEST_MISTAKE == 1 /* EXPECT: PX_AT2 on a 1-D span (px_span_*_1d): PX_AT2 needs a 2-D span */
    PX_AT1(args->x, i) += PX_AT2(args->x, i, 0);
#elif PX_TEST_MISTAKE == \
    2 /* EXPECT: PX_AT3 on a 1-D span (px_span_*_1d): PX_AT3 needs a 3-D span */
    PX_AT3(args->xr, i, 0, 0) = 1.0;
#elif PX_TEST_MISTAKE == \
    3 /* EXPECT: PX_AT4 on a 1-D span (px_span_*_1d): PX_AT4 needs a 4-D span */
    PX_AT1(args->x, i) += PX_AT4(args->x, 0, i, 0, 0);
#elif PX_TEST_MISTAKE == \
    5 /* EXPECT: PX_AT5 on a 1-D span (px_span_*_1d): PX_AT5 needs a 5-D span */
    PX_AT1(args->x, i) += PX_AT5(args->x, 0, i, 0, 0, 0);
#elif PX_TEST_MISTAKE == \
    6 /* EXPECT: PX_AT6 on a 1-D span (px_span_*_1d): PX_AT6 needs a 6-D span */
    PX_AT6(args->xr, i, 0, 0, 0, 0, 0) = 1.0;
#endif
}

/* In a team kernel too. */
PX_TEAM_FOR(cf_rank_team, cf_rank_args, args, team)
{
    PX_TEAM_THREAD_FOR(team, i, 0, args->x.extent[0])
    {
        PX_AT1(args->x, i) = PX_AT2(args->m, i, 1);
#if PX_TEST_MISTAKE == 4 /* EXPECT: PX_AT2 on a 1-D span (px_span_*_1d): PX_AT2 needs a 2-D span */
        PX_AT2(args->xr, i, 1) = 0.0;
#endif
    }
}
