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
/* The lanes of PX_TEAM_ROW_FOR's current row: the team's for a row with a team of its own,
   the calling thread's otherwise. */
#define PX__ROW_VECTOR 3

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

/* ---- Rows of a px_teams_rows league (portex/impl/abi.h, px__team_rows_run) ---------------- */

/* How a team takes rows (px_team.row_mode): a team per row (a league without rows), a long
   row of a px_teams_rows league with every thread and lane, or a row per team thread. */
#define PX__ROWS_NONE 0
#define PX__ROWS_LONG 1
#define PX__ROWS_SHORT 2

/* Team league_rank begins, taking rows as `mode` says: its row lanes in the team's
   registers, so that the rows' loops read no memory for them. A family's launch that
   knows the mode at compile time (a launch of the short part only) lets the compiler drop
   the other modes' code, the team folds of long rows with it. */
PX_FUNCTION void px__team_enter_rows(px_team *t, int64_t league_rank, int mode)
{
    t->league_rank = league_rank;
    t->row_mode = mode;
    const bool whole = mode != PX__ROWS_SHORT;
    t->row_rank = whole ? t->team_rank * t->vector_length + t->vector_rank : t->vector_rank;
    t->row_lanes = whole ? t->team_size * t->vector_length : t->vector_length;
}

/* The same with the mode that league_rank has in its league. */
PX_FUNCTION void px__team_enter(px_team *t, int64_t league_rank)
{
    px__team_enter_rows(t, league_rank,
                        t->rows == NULL                ? PX__ROWS_NONE
                        : league_rank < t->rows->nlong ? PX__ROWS_LONG
                                                       : PX__ROWS_SHORT);
}

/* Whether the row's lanes are more than the calling thread's. */
PX_FUNCTION bool px__row_whole_team(const px_team *t) { return t->row_mode != PX__ROWS_SHORT; }

/* The rows the calling thread takes: from px__team_row_first to px__team_row_end by
   px__team_row_step. Recomputed at each use from the team and the rows' record (on CUDA in
   the launch's parameters): cheaper than holding them in registers across the row's body. */
PX_FUNCTION int64_t px__team_row_first(const px_team *t)
{
    if (t->row_mode == PX__ROWS_NONE) return t->league_rank;
    if (t->row_mode == PX__ROWS_LONG) return t->rows->long_rows[t->league_rank];
    return (t->league_rank - t->rows->nlong) * t->rows->per_team + t->team_rank;
}

PX_FUNCTION int64_t px__team_row_end(const px_team *t)
{
    if (t->row_mode != PX__ROWS_SHORT) return px__team_row_first(t) + 1;
    const px__team_rows_run *m = t->rows;
    const int64_t base = (t->league_rank - m->nlong) * m->per_team;
    return m->nrows - base < m->per_team ? m->nrows : base + m->per_team;
}

PX_FUNCTION int64_t px__team_row_step(const px_team *t)
{
    return t->row_mode == PX__ROWS_SHORT ? t->team_size : 1;
}

/* A long row met in the short part (its own team runs it). */
PX_FUNCTION bool px__team_row_skip(const px_team *t, int64_t r)
{
    const px__team_rows_run *m = t->rows;
    if (t->row_mode != PX__ROWS_SHORT || m->nlong == 0) return false;
    const int64_t len =
        m->offsets_i64
            ? ((const int64_t *)m->offsets)[r + 1] - ((const int64_t *)m->offsets)[r]
            : (int64_t)((const int32_t *)m->offsets)[r + 1] - ((const int32_t *)m->offsets)[r];
    return len > m->long_after;
}

PX_FUNCTION int64_t px__row_lane(const px_team *t) { return t->row_rank; }
PX_FUNCTION int64_t px__row_lanes(const px_team *t) { return t->row_lanes; }
PX_FUNCTION bool px__row_leader(const px_team *t) { return t->row_rank == 0; }

#endif /* PORTEX_IMPL_NESTED_H */
