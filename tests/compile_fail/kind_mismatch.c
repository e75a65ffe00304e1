/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A kernel dispatched by a call for another kind, where the kernel's kind is in sight
 * (check_compile_fail.py: each mistake must fail with the words after EXPECT; without one
 * the file compiles). Kernels and the host code that dispatches them, as in a one-file
 * program: compiled as C and, with CUDA, as CUDA C++; never built otherwise. */
#include "portex.h"

typedef struct cf_args {
    px_span_f64_1d x;
    px_span_i64_1d n;
} cf_args;

/* Declared only (defined nowhere: this file is only compiled), with and without a kind. */
PX_DECLARE_KERNEL(cf_elsewhere);
PX_DECLARE_KERNEL_REDUCE(cf_elsewhere_reduce);
PX_DECLARE_KERNEL_TEAM_FOR(cf_elsewhere_team);
/* Declared with its kind before it is defined, as a kernel file that includes its header. */
PX_DECLARE_KERNEL_FOR(cf_for);
PX_DECLARE_KERNEL(cf_reduce);

PX_FOR(cf_for, cf_args, a, i) { PX_AT1(a->x, i) = 1.0; }
PX_FOR_2D(cf_for2, cf_args, a, i, j) { PX_AT1(a->x, i) = (double)j; }
PX_REDUCE(cf_reduce, cf_args, a, i, double, sum, acc) { *acc += PX_AT1(a->x, i); }
PX_SCAN(cf_scan, cf_args, a, i, int64_t, sum, update, final)
{
    if (final) PX_AT1(a->n, i) = *update;
    *update += 1;
}
PX_TEAM_FOR(cf_team, cf_args, a, team)
{
    PX_SINGLE_PER_TEAM(team) { PX_AT1(a->x, team->league_rank) = 0.0; }
}
PX_TEAM_REDUCE(cf_team_reduce, cf_args, a, team, double, sum, acc)
{
    PX_SINGLE_PER_TEAM(team) { *acc += PX_AT1(a->x, team->league_rank); }
}

#if PX_TEST_MISTAKE == \
    1 /* EXPECT: kernel cf_lie is defined here as a for kernel (PX_FOR*) but declared as another kind */
PX_DECLARE_KERNEL_REDUCE(cf_lie);
PX_FOR(cf_lie, cf_args, a, i) { PX_AT1(a->x, i) = 2.0; }
#endif

px_status cf_dispatch(px_instance *inst, const cf_args *a, px_view *result);
px_status cf_dispatch(px_instance *inst, const cf_args *a, px_view *result)
{
    const px_policy r = px_range(0, 8);
    const px_team_policy t = px_teams(8, PX_AUTO, PX_AUTO);
    double v = 0;
    int64_t total = 0;
    /* Each kind where it belongs, and any kernel through a pointer or declared without a
       kind: those are dispatch's to refuse at run time. */
    const px_kernel *k = PX_KERNEL(cf_reduce);
    const px_kernel *kinds[] = {PX_KERNEL(cf_for), PX_KERNEL(cf_team)};
    px_status st = px_parallel_for(inst, "for", r, PX_KERNEL(cf_for), a);
    if (st == PX_OK)
        st = px_parallel_for(inst, "for2", px_mdrange2(0, 2, 0, 2), PX_KERNEL(cf_for2), a);
    if (st == PX_OK) st = px_parallel_reduce(inst, "reduce", r, PX_KERNEL(cf_reduce), a, &v);
    if (st == PX_OK)
        st = px_parallel_reduce_view(inst, "reduce", r, PX_KERNEL(cf_reduce), a, result);
    if (st == PX_OK) st = px_parallel_scan(inst, "scan", r, PX_KERNEL(cf_scan), a, &total);
    if (st == PX_OK) st = px_parallel_for_team(inst, "team", t, PX_KERNEL(cf_team), a);
    if (st == PX_OK)
        st = px_parallel_reduce_team(inst, "team", t, PX_KERNEL(cf_team_reduce), a, &v);
    if (st == PX_OK)
        st = px_parallel_reduce_team_view(inst, "team", t, PX_KERNEL(cf_team_reduce), a, result);
    if (st == PX_OK)
        st = px_parallel_reduce(inst, "elsewhere", r, PX_KERNEL(cf_elsewhere_reduce), a, &v);
    if (st == PX_OK)
        st = px_parallel_for_team(inst, "elsewhere", t, PX_KERNEL(cf_elsewhere_team), a);
    if (st == PX_OK) st = px_parallel_for(inst, "unknown kind", r, PX_KERNEL(cf_elsewhere), a);
    if (st == PX_OK)
        st = px_parallel_reduce(inst, "unknown kind", r, PX_KERNEL(cf_elsewhere), a, &v);
    if (st == PX_OK) st = px_parallel_for(inst, "pointer", r, k, a);
    if (st == PX_OK) st = px_parallel_for(inst, "pointer", r, kinds[v > 0], a);
    if (st == PX_OK)
        st = px_parallel_for(inst, "choice", r, v > 0 ? PX_KERNEL(cf_for) : PX_KERNEL(cf_for2), a);
    if (st == PX_OK) st = (px_parallel_for)(inst, "the function", r, PX_KERNEL(cf_reduce), a);
#if PX_TEST_MISTAKE == \
    2 /* EXPECT: px_parallel_for: kernel PX_KERNEL(cf_reduce) is a reduce kernel (PX_REDUCE*), not a for kernel (PX_FOR*) */
    if (st == PX_OK) st = px_parallel_for(inst, "mistake", r, PX_KERNEL(cf_reduce), a);
#elif PX_TEST_MISTAKE == \
    3 /* EXPECT: px_parallel_reduce: kernel PX_KERNEL(cf_for) is a for kernel (PX_FOR*), not a reduce kernel (PX_REDUCE*) */
    if (st == PX_OK) st = px_parallel_reduce(inst, "mistake", r, PX_KERNEL(cf_for), a, &v);
#elif PX_TEST_MISTAKE == \
    4 /* EXPECT: px_parallel_for_team: kernel PX_KERNEL(cf_for2) is a for kernel (PX_FOR*), not a team kernel (PX_TEAM_FOR) */
    if (st == PX_OK) st = px_parallel_for_team(inst, "mistake", t, PX_KERNEL(cf_for2), a);
#elif PX_TEST_MISTAKE == \
    5 /* EXPECT: px_parallel_for: kernel PX_KERNEL(cf_team) is a team kernel (PX_TEAM_FOR), not a for kernel (PX_FOR*) */
    if (st == PX_OK) st = px_parallel_for(inst, "mistake", r, PX_KERNEL(cf_team), a);
#elif PX_TEST_MISTAKE == \
    6 /* EXPECT: px_parallel_scan: kernel PX_KERNEL(cf_reduce) is a reduce kernel (PX_REDUCE*), not a scan kernel (PX_SCAN) */
    if (st == PX_OK) st = px_parallel_scan(inst, "mistake", r, PX_KERNEL(cf_reduce), a, &v);
#elif PX_TEST_MISTAKE == \
    7 /* EXPECT: px_parallel_reduce: kernel PX_KERNEL(cf_scan) is a scan kernel (PX_SCAN), not a reduce kernel (PX_REDUCE*) */
    if (st == PX_OK) st = px_parallel_reduce(inst, "mistake", r, PX_KERNEL(cf_scan), a, &total);
#elif PX_TEST_MISTAKE == \
    8 /* EXPECT: px_parallel_reduce_view: kernel PX_KERNEL(cf_team_reduce) is a team reduce kernel (PX_TEAM_REDUCE), not a reduce kernel (PX_REDUCE*) */
    if (st == PX_OK)
        st = px_parallel_reduce_view(inst, "mistake", r, PX_KERNEL(cf_team_reduce), a, result);
#elif PX_TEST_MISTAKE == \
    9 /* EXPECT: px_parallel_reduce_team: kernel PX_KERNEL(cf_reduce) is a reduce kernel (PX_REDUCE*), not a team reduce kernel (PX_TEAM_REDUCE) */
    if (st == PX_OK) st = px_parallel_reduce_team(inst, "mistake", t, PX_KERNEL(cf_reduce), a, &v);
#elif PX_TEST_MISTAKE == \
    10 /* EXPECT: px_parallel_reduce_team_view: kernel PX_KERNEL(cf_team) is a team kernel (PX_TEAM_FOR), not a team reduce kernel (PX_TEAM_REDUCE) */
    if (st == PX_OK)
        st = px_parallel_reduce_team_view(inst, "mistake", t, PX_KERNEL(cf_team), a, result);
#elif PX_TEST_MISTAKE == \
    11 /* EXPECT: px_parallel_for: kernel PX_KERNEL(cf_elsewhere_reduce) is a reduce kernel */
    if (st == PX_OK) st = px_parallel_for(inst, "mistake", r, PX_KERNEL(cf_elsewhere_reduce), a);
#elif PX_TEST_MISTAKE == \
    12 /* EXPECT: px_parallel_reduce_team: kernel PX_KERNEL(cf_elsewhere_team) is a team kernel (PX_TEAM_FOR) */
    if (st == PX_OK)
        st = px_parallel_reduce_team(inst, "mistake", t, PX_KERNEL(cf_elsewhere_team), a, &v);
#elif PX_TEST_MISTAKE == 13 /* EXPECT: px_parallel_scan: kernel PX_KERNEL(cf_for) is a for kernel */
    if (st == PX_OK) st = px_parallel_scan(inst, "mistake", r, PX_KERNEL(cf_for), a, NULL);
#endif
    return st;
}
