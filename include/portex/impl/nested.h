/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* portex — the machinery of the nested loops of team kernels (not API), whatever the
 * family: the public macros of portex/team.h expand to these, which call the team-level
 * primitives a family gives for the compile at hand (portex/impl/targets.h):
 *   PX__TEAM_COMBINE(team, T, op, unit, v)   folds *v over the threads `unit` names,
 *                                            every one of them getting the total;
 *   PX__TEAM_SCAN_STAGE(team, T, op, unit, pass, sv, n, lo, hi)
 *                                            a nested scan's pass `pass` (0: totals, where
 *                                            the family needs them; 1: final; 2: after):
 *                                            whether the pass loops, over [lo, hi) of
 *                                            [0, n); sv[0] runs, sv[1] is the total after
 *                                            pass 2;
 *   PX__TEAM_SCAN_FIRST                      the first pass a nested scan runs (0 or 1);
 *   PX__TEAM_BARRIER_IMPL(team)              the team's barrier;
 *   PX__TEAM_UNROLL                          a pragma before each nested loop, or nothing.
 * portex/team.h includes it before the families' team parts, which read the units below. */
#ifndef PORTEX_IMPL_NESTED_H
#define PORTEX_IMPL_NESTED_H

#include <stdbool.h>
#include <stdint.h>

#include "portex/impl/checks.h" /* PX__STATIC_ASSERT */

/* Which threads a nested reduction or scan spans. */
#define PX__TEAM_THREAD 0
#define PX__THREAD_VECTOR 1
#define PX__TEAM_VECTOR 2

/* A strided loop over [begin, end): first offset `first`, step `step`; `i` (int64_t) is the
   index in the block that follows, run once per index by a loop whose condition reads i
   (so that a body that ignores i draws no "unused" warning; i < INT64_MAX there, as
   i < end). px__<p>b, n, k, e are the loop's own, by prefix p. */
#define PX__TEAM_STRIDED(p, i, begin, end, first, step)                                     \
    PX__TEAM_UNROLL                                                                         \
    for (int64_t px__##p##b = (begin), px__##p##n = (end)-px__##p##b, px__##p##k = (first); \
         px__##p##k < px__##p##n; px__##p##k += (step))                                     \
        for (int64_t i = px__##p##b + px__##p##k, px__##p##e = i + 1; i < px__##p##e;       \
             px__##p##e = i)

/* The outer loop runs once: its increment, after the passes, hands out the result (where
   compilers see that it always runs). */
#define PX__TEAM_REDUCE(p, unit, loop, team, i, begin, end, T, op, acc, result)                 \
    for (T px__##p##v, *acc = (px_identity_##op##_##T(&px__##p##v), &px__##p##v); acc;          \
         (result) = px__##p##v, acc = (T *)0)                                                   \
        for (int px__##p##s = 0; px__##p##s < 2; ++px__##p##s)                                  \
            if (px__##p##s == 1) {                                                              \
                PX__STATIC_ASSERT(sizeof(T) <= PX_TEAM_VALUE_MAX,                               \
                                  "a nested reduction's value type exceeds PX_TEAM_VALUE_MAX"); \
                PX__TEAM_COMBINE(team, T, op, unit, &px__##p##v);                               \
            } else                                                                              \
                loop(team, i, begin, end)

/* Chunks of the range, in order, one per unit (thread, lane), in two passes where the
   family has a totals pass (PX__TEAM_SCAN_FIRST 0); the total handed out after the
   passes, as for reductions. */
#define PX__TEAM_SCAN(p, unit, team, i, begin, end, T, op, update, final, total)                  \
    for (T px__##p##v[2], *update = (px_identity_##op##_##T(&px__##p##v[0]),                      \
                                     px_identity_##op##_##T(&px__##p##v[1]), px__##p##v);         \
         update; (total) = px__##p##v[1], update = (T *)0)                                        \
        for (int64_t px__##p##b = (begin), px__##p##n = (end)-px__##p##b, px__##p##lo = 0,        \
                     px__##p##hi = 0, px__##p##s = PX__TEAM_SCAN_FIRST;                           \
             px__##p##s < 3; ++px__##p##s)                                                        \
            if (!PX__TEAM_SCAN_STAGE(team, T, op, unit, px__##p##s, px__##p##v, px__##p##n,       \
                                     px__##p##lo, px__##p##hi)) {                                 \
            } else                                                                                \
                for (int64_t px__##p##k = px__##p##lo; px__##p##k < px__##p##hi; ++px__##p##k)    \
                    for (int64_t i = px__##p##b + px__##p##k, px__##p##e = i + 1; i < px__##p##e; \
                         px__##p##e = i)                                                          \
                        for (bool final = px__##p##s == 1, px__##p##f = !final;                   \
                             px__##p##f != final; px__##p##f = final)

#endif /* PORTEX_IMPL_NESTED_H */
