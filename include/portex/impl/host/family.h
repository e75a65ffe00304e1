/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the host family of device code (not API): the entries that the host backends
 * (serial, OpenMP, threads: target PX__TARGET_HOST) run, made from every kernel file by
 * whichever compiler compiles it. One family of portex/impl/targets.h.
 *
 * Its entries, by kind (portex/impl/abi.h):
 *   RANGE      px__host_range_fn: runs the policy it is given on the calling thread (all of
 *              the dispatch's, or the part a thread of OpenMP or threads is given),
 *              folding a reduction into *result; a scan's total goes to *result when it
 *              is not NULL;
 *   SCAN_PASS  px__host_scan_pass_fn (scans): a scan over the policy from *update, the body
 *              called with `final`, the running value left in *update: the parallel host
 *              backends scan in two passes over their parts;
 *   LEAGUE     px__host_league_fn (team kernels): runs the teams [run->league_begin,
 *              run->league_end) on the calling thread, each team one thread of one lane,
 *              folding a reduction into *result.
 *
 * Each entry calls a loop function of its own that takes the arguments and the policy (or
 * run) by value: the body sees by-value semantics, as on a GPU, the compiler knows that
 * the kernel's stores cannot change them, and it honours restrict spans (GCC applies a
 * restrict member of a struct to a by-value parameter only, so the loop function must not
 * be inlined into the entry).
 *
 * It also gives, once portex/team.h's types are in, the team-level primitives that no
 * device family defined for this compile: a team of one thread, whose loops cover every
 * index, in order. */
#ifndef PORTEX_IMPL_HOST_FAMILY_H
#define PORTEX_IMPL_HOST_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portex/export.h"
#include "portex/impl/abi.h"
#include "portex/impl/host/loops.h"
#include "portex/policy.h"

PX_EXTERN_C_BEGIN
typedef void (*px__host_range_fn)(const void *args, const px_policy *policy, void *result);
typedef void (*px__host_scan_pass_fn)(const void *args, const px_policy *policy, void *update,
                                      bool final);
typedef void (*px__host_league_fn)(const void *args, const px__team_run *run, void *result);
PX_EXTERN_C_END

#if defined(__GNUC__) || defined(__clang__)
#define PX__NOINLINE __attribute__((noinline))
#else
#define PX__NOINLINE
#endif

/* The loop function of kernel `name`; `ret` is void, or the value type of a reduction. */
#define PX__HOST_LOOP_FN(name, Args, ret) \
    PX__NOINLINE static ret px__loop_##name(const Args px__args, const px_policy px__p)

/* The family's generators (portex/impl/targets.h): a kernel's code, by shape, and the rows
   of its entries. */
#define PX__HOST_CODE(SHAPE, name, Args, R, T, op) PX__HOST_CODE_##SHAPE(name, Args, R, T, op)
#define PX__HOST_ROWS(SHAPE, name) PX__HOST_ROWS_##SHAPE(name)
#define PX__HOST_ROW(KIND, fn) {PX__TARGET_HOST, PX__ENTRY_##KIND, (px__entry_fn)fn},

/* ---- parallel_for ---------------------------------------------------------------------- */

/* The loop nest of a rank-R for (R: 1 to 6) around the body. */
#define PX__HOST_RUN_FOR1(name) PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_))
#define PX__HOST_RUN_FOR2(name) PX__HOST_LOOP2(&px__p, i_, j_, px__body_##name(&px__args, i_, j_))
#define PX__HOST_RUN_FOR3(name) \
    PX__HOST_LOOP3(&px__p, i_, j_, k_, px__body_##name(&px__args, i_, j_, k_))
#define PX__HOST_RUN_FOR4(name) \
    PX__HOST_LOOP4(&px__p, i_, j_, k_, l_, px__body_##name(&px__args, i_, j_, k_, l_))
#define PX__HOST_RUN_FOR5(name) \
    PX__HOST_LOOP5(&px__p, i_, j_, k_, l_, m_, px__body_##name(&px__args, i_, j_, k_, l_, m_))
#define PX__HOST_RUN_FOR6(name)                    \
    PX__HOST_LOOP6(&px__p, i_, j_, k_, l_, m_, n_, \
                   px__body_##name(&px__args, i_, j_, k_, l_, m_, n_))

#define PX__HOST_CODE_FOR(name, Args, R, T, op)                                \
    PX__HOST_LOOP_FN(name, Args, void) { PX__HOST_RUN_FOR##R(name) }           \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_) \
    {                                                                          \
        (void)r_;                                                              \
        px__loop_##name(*(const Args *)a_, *p_);                               \
    }
#define PX__HOST_ROWS_FOR(name) PX__HOST_ROW(RANGE, px__host_##name)

/* ---- parallel_reduce ------------------------------------------------------------------- */

#define PX__HOST_RUN_REDUCE1(name) \
    PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_, &px__acc))
#define PX__HOST_RUN_REDUCE2(name) \
    PX__HOST_LOOP2(&px__p, i_, j_, px__body_##name(&px__args, i_, j_, &px__acc))
#define PX__HOST_RUN_REDUCE3(name) \
    PX__HOST_LOOP3(&px__p, i_, j_, k_, px__body_##name(&px__args, i_, j_, k_, &px__acc))
#define PX__HOST_RUN_REDUCE4(name) \
    PX__HOST_LOOP4(&px__p, i_, j_, k_, l_, px__body_##name(&px__args, i_, j_, k_, l_, &px__acc))
#define PX__HOST_RUN_REDUCE5(name)             \
    PX__HOST_LOOP5(&px__p, i_, j_, k_, l_, m_, \
                   px__body_##name(&px__args, i_, j_, k_, l_, m_, &px__acc))
#define PX__HOST_RUN_REDUCE6(name)                 \
    PX__HOST_LOOP6(&px__p, i_, j_, k_, l_, m_, n_, \
                   px__body_##name(&px__args, i_, j_, k_, l_, m_, n_, &px__acc))

#define PX__HOST_CODE_REDUCE(name, Args, R, T, op)                             \
    PX__HOST_LOOP_FN(name, Args, T)                                            \
    {                                                                          \
        T px__acc;                                                             \
        px_identity_##op##_##T(&px__acc);                                      \
        PX__HOST_RUN_REDUCE##R(name) return px__acc;                           \
    }                                                                          \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_) \
    {                                                                          \
        *(T *)r_ = px__loop_##name(*(const Args *)a_, *p_);                    \
    }
#define PX__HOST_ROWS_REDUCE(name) PX__HOST_ROW(RANGE, px__host_##name)

/* ---- parallel_scan (1-D) --------------------------------------------------------------- */

#define PX__HOST_CODE_SCAN(name, Args, R, T, op)                                                 \
    PX__NOINLINE static T px__loop_##name(const Args px__args, const px_policy px__p, T px__acc, \
                                          bool px__final)                                        \
    {                                                                                            \
        PX__HOST_LOOP1(&px__p, i_, px__body_##name(&px__args, i_, &px__acc, px__final))          \
        return px__acc;                                                                          \
    }                                                                                            \
    static void px__host_scan_##name(const void *a_, const px_policy *p_, void *u_, bool f_)     \
    {                                                                                            \
        *(T *)u_ = px__loop_##name(*(const Args *)a_, *p_, *(const T *)u_, f_);                  \
    }                                                                                            \
    static void px__host_##name(const void *a_, const px_policy *p_, void *r_)                   \
    {                                                                                            \
        T px__start;                                                                             \
        px_identity_##op##_##T(&px__start);                                                      \
        const T px__total = px__loop_##name(*(const Args *)a_, *p_, px__start, true);            \
        if (r_) *(T *)r_ = px__total;                                                            \
    }
#define PX__HOST_ROWS_SCAN(name) \
    PX__HOST_ROW(RANGE, px__host_##name) PX__HOST_ROW(SCAN_PASS, px__host_scan_##name)

#endif /* PORTEX_IMPL_HOST_FAMILY_H */

/* ---- Team kernels (with portex/team.h) ----------------------------------------------------- */

#if defined(PX__TEAM_DECLARED) && !defined(PORTEX_IMPL_HOST_FAMILY_TEAM)
#define PORTEX_IMPL_HOST_FAMILY_TEAM

/* The team a LEAGUE entry hands the body: one thread, one lane, the run's buffers. */
static inline px_team px__team_host(const px__team_run *r)
{
    px_team t;
    t.league_rank = 0;
    t.league_size = r->league_size;
    t.team_rank = 0;
    t.team_size = 1;
    t.vector_rank = 0;
    t.vector_length = 1;
    for (int l = 0; l < 2; ++l) {
        char *base = (char *)r->scratch[l];
        const bool any = r->scratch_team[l] + r->scratch_thread[l] > 0;
        t.scratch[l] = any && r->scratch_team[l] ? base : NULL;
        t.thread_scratch[l] = any && r->scratch_thread[l] ? base + r->scratch_team[l] : NULL;
        t.scratch_size[l] = r->scratch_team[l];
        t.thread_scratch_size[l] = r->scratch_thread[l];
    }
    t.reduce_slots = NULL;
    t.rows = (const px__team_rows_run *)r->rows;
    t.row_mode = PX__ROWS_NONE;
    t.row_rank = 0;
    t.row_lanes = 1;
    return t;
}

#define PX__HOST_CODE_TEAM_FOR(name, Args, R, T, op)                                             \
    PX__NOINLINE static void px__team_loop_##name(const Args px__args, const px__team_run px__r) \
    {                                                                                            \
        px_team px__t = px__team_host(&px__r);                                                   \
        for (int64_t l_ = px__r.league_begin; l_ < px__r.league_end; ++l_) {                     \
            px__team_enter(&px__t, l_);                                                          \
            px__body_##name(&px__args, &px__t);                                                  \
        }                                                                                        \
    }                                                                                            \
    static void px__host_team_##name(const void *a_, const px__team_run *r_, void *res_)         \
    {                                                                                            \
        (void)res_;                                                                              \
        px__team_loop_##name(*(const Args *)a_, *r_);                                            \
    }
#define PX__HOST_ROWS_TEAM_FOR(name) PX__HOST_ROW(LEAGUE, px__host_team_##name)

#define PX__HOST_CODE_TEAM_REDUCE(name, Args, R, T, op)                                       \
    PX__NOINLINE static T px__team_loop_##name(const Args px__args, const px__team_run px__r) \
    {                                                                                         \
        T px__acc;                                                                            \
        px_identity_##op##_##T(&px__acc);                                                     \
        px_team px__t = px__team_host(&px__r);                                                \
        for (int64_t l_ = px__r.league_begin; l_ < px__r.league_end; ++l_) {                  \
            px__team_enter(&px__t, l_);                                                       \
            px__body_##name(&px__args, &px__t, &px__acc);                                     \
        }                                                                                     \
        return px__acc;                                                                       \
    }                                                                                         \
    static void px__host_team_##name(const void *a_, const px__team_run *r_, void *res_)      \
    {                                                                                         \
        *(T *)res_ = px__team_loop_##name(*(const Args *)a_, *r_);                            \
    }
#define PX__HOST_ROWS_TEAM_REDUCE(name) PX__HOST_ROW(LEAGUE, px__host_team_##name)

/* The team-level primitives (portex/impl/nested.h) of a team of one thread, where no
   device family compiling this pass gave its own: its loops cover every index, so there
   is nothing to fold, to wait for, or to scan but in order. */
#ifndef PX__TEAM_COMBINE
#define PX__TEAM_COMBINE(team, T, op, unit, v) ((void)(team), (void)(v))
#define PX__TEAM_SCAN_STAGE(team, T, op, unit, pass, sv, n, lo, hi)                            \
    ((void)(team), (pass) == 1   ? (px_identity_##op##_##T(&(sv)[0]), (lo) = 0, (hi) = (n), 1) \
                   : (pass) == 2 ? ((sv)[1] = (sv)[0], 0)                                      \
                                 : 0)
#define PX__TEAM_BARRIER_IMPL(team) ((void)(team))
#endif
#ifndef PX__TEAM_SCAN_FIRST
#define PX__TEAM_SCAN_FIRST 1
#endif
#ifndef PX__TEAM_UNROLL
#define PX__TEAM_UNROLL
#endif

#endif /* PX__TEAM_DECLARED */
