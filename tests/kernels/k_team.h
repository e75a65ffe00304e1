/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Team kernels of test_team (k_team.c, compiled as C, or as CUDA C++ when CUDA is on). */
#ifndef PX_TESTS_K_TEAM_H
#define PX_TESTS_K_TEAM_H

#include "portex/kernel.h"
#include "portex/team.h"
#include "portex/view.h"

/* A pair folded by a custom join: sum and count, and the largest value seen. */
typedef struct tk_stat {
    int64_t sum;
    int64_t count;
    int64_t max;
} tk_stat;
/* An affine map x -> a x + b (wrapping uint64_t); maps compose in order: associative, not
   commutative, so a scan that reorders shows it. */
typedef struct tk_affine {
    uint64_t a;
    uint64_t b;
} tk_affine;

/* ---- Nested loops -------------------------------------------------------------------------- */

/* For team r of the league:
 *   thread loop i in [ib, ib + ni) and, nested, vector loop j in [0, nj):
 *       tv[(r * ni + (i - ib)) * nj + j] += 1 + r * 1000003 + i * 1009 + j
 *   team-vector loop k in [0, nk):       w[r * nk + k] += 1 + r * 7919 + k
 *   the team as it ran (single per team): shape[r * 4 + 0..3] = team_size, vector_length,
 *   league_size, league_rank */
typedef struct tk_nested_args {
    int64_t ib, ni, nj, nk;
    px_span_i64 tv, w, shape;
} tk_nested_args;
PX_DECLARE_KERNEL(tk_team_nested);

/* ---- Nested reductions ------------------------------------------------------------------- */

/* Team r, with x (int64) and y (double) of n elements each:
 *   out[r * 8 + 0] = sum of x[i] over thread loop i in [0, len(r)), len(r) = (r * 37) % (n + 1)
 *   out[r * 8 + 1] = max of x over team-vector loop [0, len(r))
 *   out[r * 8 + 2..4] = tk_stat (custom join) of x over thread loop [0, len(r))
 *   out[r * 8 + 5] = minloc (px_valloc_i64) index of x over team-vector loop [0, len(r))
 *   out[r * 8 + 6] = 1 when every thread and lane saw the same totals, else 0
 *   tvsum[r * nrow + i] = sum over vector loop j in [0, ncol) of x[(i * ncol + j) % n] (per thread i)
 *   tvstat[(r * nrow + i) * 3 + 0..2] = tk_stat (custom join) of the same values
 *   dsum[r] = sum over team-vector loop of y[i], i in [0, len(r)) */
typedef struct tk_nred_args {
    int64_t n, nrow, ncol;
    px_span_i64 x;
    px_span_f64 y;
    px_span_i64 out, tvsum, tvstat;
    px_span_f64 dsum;
} tk_nred_args;
PX_DECLARE_KERNEL(tk_team_nested_reduce);

/* ---- Nested scans ------------------------------------------------------------------------ */

/* Team r over x (int64, n elements), len(r) = (r * 53) % (n + 1):
 *   excl[r * n + i] = sum of x[0..i) (thread scan), for i < len(r)
 *   incl[r * n + i] = sum of x[0..i] (team-vector scan), for i < len(r)
 *   aff[r * n + i]  = composition of maps f_0..f_i applied to 1, f_k = (2k + 3, x[k]) (thread
 *                     scan, custom join, inclusive), for i < len(r)
 *   vex[(r * nrow + t) * ncol + j] = sum of x[(t + m) % n] for m < j (vector scan, in thread t)
 *   vaff[(r * nrow + t) * ncol + j] = composition of g_0..g_j applied to 1, g_m = (m + 2,
 *                       x[(t + m) % n]) (vector scan, custom join, inclusive)
 *   vtot[(r * nrow + t) * 2 + 0..1] = the two vector scans' totals (the sum; the
 *                       composition of all ncol maps applied to 1)
 *   tot[r * 6 + 0..5] = totals: thread scan, team-vector scan, affine (.b), 1 if every
 *                       thread and lane saw them else 0, team-vector affine scan of the
 *                       maps (i + 5, x[i]) over [0, len(r)) (.b, then .a) */
typedef struct tk_nscan_args {
    int64_t n, nrow, ncol;
    px_span_i64 x;
    px_span_i64 excl, incl, vex, vtot, tot;
    px_span_u64 aff, vaff;
} tk_nscan_args;
PX_DECLARE_KERNEL(tk_team_nested_scan);

/* ---- Barriers and scratch ---------------------------------------------------------------- */

/* Team r copies in[r * m .. r * m + m) into its scratch of `level` (m int64), waits at a
 * barrier, then out[r * m + i] = s[m - 1 - i] * 3 + s[(i + 1) % m]; for each thread-loop
 * index i the thread writes i, i + 1, ..., i + tn - 1 into its own scratch of that level
 * (tn int64) and thr[r * m + i] = their sum, read back from there. */
typedef struct tk_scratch_args {
    int32_t level;
    int64_t m, tn;
    px_span_i64 in, out, thr;
} tk_scratch_args;
PX_DECLARE_KERNEL(tk_team_scratch);

/* Touches the team's scratch of `level`, `bytes` long: byte p = (p * 7 + r) & 0xff at
 * positions p = min(k * step, bytes - 1), k in [0, bytes / step + 1), then after a barrier
 * sums those bytes back: sum[r]; sizes[r * 2 + 0..1] = scratch_size, thread_scratch_size. */
typedef struct tk_touch_args {
    int32_t level;
    int64_t bytes, step;
    px_span_i64 sum, sizes;
} tk_touch_args;
PX_DECLARE_KERNEL(tk_team_touch);

/* ---- Team reductions --------------------------------------------------------------------- */

/* Sum over teams r of x[i] for i in [r * m, r * m + m) (thread loop), int64. */
typedef struct tk_tsum_args {
    int64_t m;
    px_span_i64 x;
} tk_tsum_args;
PX_DECLARE_KERNEL(tk_team_sum);
/* tk_stat (custom join) over teams of x[i] for i in [r * m, r * m + m) (team-vector reduce,
 * added once per team). */
PX_DECLARE_KERNEL(tk_team_stat);
/* Sum over teams of league_rank + 1 (once per team): a league of any size. */
typedef struct tk_count_args {
    int64_t unused;
} tk_count_args;
PX_DECLARE_KERNEL(tk_team_count);
/* slots[r % n] += r + 1 once per team r (atomically): a parallel_for that covers a league. */
typedef struct tk_mark_args {
    int64_t n;
    px_span_i64 slots;
} tk_mark_args;
PX_DECLARE_KERNEL(tk_team_mark);
/* Sum over teams r of y[r % n] (double, once per team). */
typedef struct tk_dsum_args {
    int64_t n;
    px_span_f64 y;
} tk_dsum_args;
PX_DECLARE_KERNEL(tk_team_dsum);

#endif /* PX_TESTS_K_TEAM_H */
