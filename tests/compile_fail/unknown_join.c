/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A reduction or scan whose join does not exist (check_compile_fail.py: each mistake must
 * fail with the words after EXPECT; without one the file compiles). Compiled as C and, with
 * CUDA, as CUDA C++; never built otherwise. */
#include "portex.h"

typedef struct cf_join_args {
    px_span_f64_1d x;
    px_span_i64_1d n;
} cf_join_args;

/* A join of the file's own. */
typedef struct cf_range {
    double lo, hi;
} cf_range;
PX_JOIN(range, cf_range, d, s)
{
    if (s->lo < d->lo) d->lo = s->lo;
    if (s->hi > d->hi) d->hi = s->hi;
}
PX_IDENTITY(range, cf_range, v)
{
    v->lo = INFINITY;
    v->hi = -INFINITY;
}

PX_REDUCE(cf_sum, cf_join_args, args, i, double, sum, acc) { *acc += PX_AT1(args->x, i); }

PX_REDUCE(cf_bounds, cf_join_args, args, i, cf_range, range, acc)
{
    cf_range r;
    r.lo = r.hi = PX_AT1(args->x, i);
    px_join_range_cf_range(acc, &r);
}

PX_SCAN(cf_psum, cf_join_args, args, i, int64_t, sum, update, final)
{
    if (final) PX_AT1(args->n, i) = *update;
    *update += 1;
}

PX_TEAM_REDUCE(cf_team_max, cf_join_args, args, team, double, max, acc)
{
    PX_SINGLE_PER_TEAM(team) { *acc = PX_AT1(args->x, team->league_rank); }
}

#if PX_TEST_MISTAKE == \
    1 /* EXPECT: unknown join summ for value type double (no px_join_summ_double) */
PX_REDUCE(cf_bad, cf_join_args, args, i, double, summ, acc) { *acc += PX_AT1(args->x, i); }
#elif PX_TEST_MISTAKE == 2 /* EXPECT: unknown join minloc for value type double */
PX_REDUCE_2D(cf_bad, cf_join_args, args, i, j, double, minloc, acc)
{
    *acc += PX_AT1(args->x, i + j);
}
#elif PX_TEST_MISTAKE == 3 /* EXPECT: unknown join sums for value type int64_t */
PX_SCAN(cf_bad, cf_join_args, args, i, int64_t, sums, update, final)
{
    if (final) PX_AT1(args->n, i) = *update;
    *update += 1;
}
#elif PX_TEST_MISTAKE == 4 /* EXPECT: unknown join rnage for value type cf_range */
PX_TEAM_REDUCE(cf_bad, cf_join_args, args, team, cf_range, rnage, acc)
{
    PX_SINGLE_PER_TEAM(team) { acc->lo = acc->hi = PX_AT1(args->x, team->league_rank); }
}
#elif PX_TEST_MISTAKE == 5 /* EXPECT: unknown join range for value type double */
PX_REDUCE_3D(cf_bad, cf_join_args, args, i, j, k, double, range, acc)
{
    *acc += PX_AT1(args->x, i + j + k);
}
#endif
