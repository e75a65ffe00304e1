/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — hierarchical parallelism: teams of threads with vector lanes and scratch.
 *
 * A team policy is a league of teams; each team has team_size threads of vector_length
 * lanes and scratch memory of two levels, shared by the team (level 0: small and fast,
 * CUDA shared memory; level 1: large, a slice of device memory). A team kernel's body runs
 * once per team and thread (and lane): nested loops share the team's work out.
 *
 * @code
 *   typedef struct spmv_args { px_span_i64 row; px_span_i32 col; px_span_f64 val, x, y; } spmv_args;
 *
 *   PX_TEAM_FOR(spmv, spmv_args, a, team) {
 *       PX_TEAM_ROW_FOR(team, r) {                              // the rows this thread takes
 *           double sum;
 *           PX_ROW_VECTOR_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), double, sum, acc, sum) {
 *               *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
 *           }
 *           PX_SINGLE_PER_ROW(team) { PX_AT1(a->y, r) = sum; }
 *       }
 *   }
 *
 *   px_team_rows *rows;                                         // the league, shaped from
 *   px_team_rows_create(inst, row_view, &rows);                 // the row lengths, once
 *   px_parallel_for_team(inst, "spmv", px_teams_rows(rows), PX_KERNEL(spmv), &args);
 * @endcode
 *
 * Execution model. The body runs on every thread and lane of its team, each with the same
 * `team` except for team_rank and vector_rank; code outside the nested loops runs on all of
 * them (write results from a PX_SINGLE_PER_TEAM or PX_SINGLE_PER_THREAD block). The nested
 * loops share their range out:
 *   - PX_TEAM_THREAD_FOR: over the team's threads (each thread's lanes run the same index);
 *   - PX_THREAD_VECTOR_FOR: over the calling thread's vector lanes;
 *   - PX_TEAM_VECTOR_FOR: over every thread and lane of the team.
 * The _REDUCE forms fold each index's contribution into *acc and give every thread the
 * total in `result`; the _SCAN forms are Kokkos-style scans (see PX_SCAN in portex/kernel.h:
 * the body adds to *update and stores the running value when `final`) and give the total.
 * Team-level operations (PX_TEAM_BARRIER and the TEAM_THREAD and TEAM_VECTOR reductions
 * and scans) must be reached by every thread of the team: never inside a single block, a
 * nested loop or a branch that depends on team_rank or vector_rank. THREAD_VECTOR
 * reductions and scans must be reached by every lane of the calling thread (they may sit
 * in a PX_TEAM_THREAD_FOR body).
 *
 * Backends (docs/teams.md): CUDA runs a team as a block (vector lanes are parts of a
 * warp, threadIdx.x; team threads threadIdx.y), level 0 in dynamic shared memory. Serial
 * and OpenMP run each team on one thread (team_size and vector_length as seen by the body
 * are 1, whatever the policy asked for), the nested loops in order; OpenMP shares the
 * league out among its threads. A body written for the model above gives the same results
 * everywhere.
 *
 * The value types of nested reductions and scans are at most PX_TEAM_VALUE_MAX bytes;
 * joins are those of portex/kernel.h (built-in or PX_JOIN/PX_IDENTITY). Nested ranges
 * take int64_t bounds; end - begin plus team_size * vector_length must fit an int64_t.
 * A nested loop's body may `continue`; `break` ends the current index only. */
#ifndef PORTEX_TEAM_H
#define PORTEX_TEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portex/core.h"
#include "portex/export.h"
#include "portex/instance.h"
#include "portex/kernel.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** "Let the backend choose": a team size or vector length of px_teams. */
#define PX_AUTO 0
/** The largest value type, in bytes, of a nested reduction or scan. */
#define PX_TEAM_VALUE_MAX 64
/** The most threads (team_size * vector_length) a team may have. */
#define PX_TEAM_MAX_THREADS 1024
/** The most vector lanes per thread (one warp on CUDA). */
#define PX_TEAM_MAX_VECTOR 32
/** The most level-1 scratch bytes one team may ask for, on every backend. */
#define PX_TEAM_SCRATCH1_MAX ((size_t)1 << 30)
/** The most level-0 scratch bytes one team may ask for on the host backends (CUDA: the
 * device's shared memory per block, less what team reductions reserve; see
 * px_team_scratch_max). */
#define PX_TEAM_SCRATCH0_HOST_MAX ((size_t)1 << 20)

/** A league shaped by the library over the rows of a CSR-like structure (px_team_rows_create). */
typedef struct px_team_rows px_team_rows;

/** A league of teams: the index space of a team dispatch. Small, passed by value; make it
 * with px_teams or px_teams_rows and px_team_policy_scratch, never fill it by hand. */
typedef struct px_team_policy {
    int64_t league_size;      /**< teams; the body sees league_rank in [0, league_size) */
    int32_t team_size;        /**< threads per team; PX_AUTO: the backend chooses */
    int32_t vector_length;    /**< lanes per thread, a power of two <= 32; PX_AUTO: chosen */
    size_t scratch_team[2];   /**< scratch bytes per team, by level */
    size_t scratch_thread[2]; /**< scratch bytes per thread of the team, by level */
    int32_t bad_level;        /**< a level px_team_policy_scratch refused, plus 1; -1:
                                   px_teams_rows was given NULL; 0: none */
    const px_team_rows *rows; /**< px_teams_rows: the rows that shape the league; else NULL */
} px_team_policy;

/** `league_size` teams of `team_size` threads with `vector_length` lanes each (PX_AUTO for
 * either: the backend chooses, from the kernel's needs and the device). No scratch. */
static inline px_team_policy px_teams(int64_t league_size, int32_t team_size, int32_t vector_length)
{
    px_team_policy p = {league_size, team_size, vector_length, {0, 0}, {0, 0}, 0, NULL};
    return p;
}

/** The league of `rows` (px_team_rows_create): its size and team shape are the ones the
 * library chose for the rows' lengths and the instance's backend; a kernel walks it with
 * PX_TEAM_ROW_FOR. Add scratch with px_team_policy_scratch as for any policy. With rows
 * NULL, dispatch refuses the policy. */
static inline px_team_policy px_teams_rows(const px_team_rows *rows)
{
    px_team_policy p = px_teams(0, PX_AUTO, PX_AUTO);
    p.rows = rows;
    if (rows == NULL) p.bad_level = -1;
    return p;
}

/** p with `per_team` bytes of scratch per team and `per_thread` more per thread of the
 * team at `level` (0 or 1; another level makes dispatch refuse the policy). Each part is
 * rounded up to a multiple of 16 bytes: a team's scratch at a level is
 * round16(per_team) + round16(per_thread) * team_size bytes, 16-byte aligned. */
static inline px_team_policy px_team_policy_scratch(px_team_policy p, int level, size_t per_team,
                                                    size_t per_thread)
{
    if (level == 0 || level == 1) {
        p.scratch_team[level] = per_team;
        p.scratch_thread[level] = per_thread;
    } else {
        p.bad_level = level < 0 || level > 1000 ? 1001 : level + 1;
    }
    return p;
}

/** A team as its kernel's body sees it (`team`, a const pointer). Read its members; the
 * scratch pointers are valid during the body only, and their content does not survive
 * from one team to the next. */
typedef struct px_team {
    int64_t league_rank;           /**< this team, in [0, league_size) */
    int64_t league_size;           /**< teams in the league */
    int32_t team_rank;             /**< this thread, in [0, team_size) */
    int32_t team_size;             /**< threads of the team as it runs (1 on host backends) */
    int32_t vector_rank;           /**< this lane, in [0, vector_length) */
    int32_t vector_length;         /**< lanes per thread as it runs (1 on host backends) */
    void *scratch[2];              /**< the team's shared scratch, by level (NULL: none) */
    void *thread_scratch[2];       /**< this thread's own scratch, by level (NULL: none) */
    size_t scratch_size[2];        /**< bytes at scratch[level] */
    size_t thread_scratch_size[2]; /**< bytes at thread_scratch[level] */
    void *reduce_slots;            /**< library internal (CUDA: shared memory of team reductions) */
    const px__team_rows_run *rows; /**< library internal (the league's rows; NULL: none) */
    int32_t row_mode;              /**< library internal (PX__ROWS_*: how this team takes rows) */
    int32_t row_rank;              /**< library internal (this lane among its row's lanes) */
    int32_t row_lanes;             /**< library internal (the lanes on this team's rows) */
} px_team;

/** @cond PX_INTERNAL */
/* Shared memory of CUDA team reductions and scans: one slot per warp. */
#define PX__TEAM_REDUCE_BYTES ((size_t)32 * PX_TEAM_VALUE_MAX)
#define PX__TEAM_ROUND16(b) (((b) + 15) / 16 * 16)
/** @endcond */

/* (A select rather than an index: a level known only at run time then keeps the team in
   registers on CUDA.) */
/** The team's shared scratch of `level` (0 or 1); NULL when the policy asked for none. */
PX_FUNCTION void *px_team_scratch(const px_team *team, int level)
{
    return level & 1 ? team->scratch[1] : team->scratch[0];
}
/** The calling thread's own scratch of `level`; NULL when the policy asked for none. */
PX_FUNCTION void *px_thread_scratch(const px_team *team, int level)
{
    return level & 1 ? team->thread_scratch[1] : team->thread_scratch[0];
}

/* ---- Dispatch ---------------------------------------------------------------------------- */

/** A PX_TEAM_FOR kernel over the league of `policy` on inst. Asynchronous as
 * px_parallel_for. Refused (PX_ERR_INVALID_ARGUMENT, naming the sizes) when a team's
 * scratch at a level exceeds px_team_scratch_max, when team_size * vector_length exceeds
 * PX_TEAM_MAX_THREADS or the kernel's own limit on CUDA, or when vector_length is not a
 * power of two <= 32. */
PX_API px_status px_parallel_for_team(px_instance *inst, const char *label, px_team_policy policy,
                                      const px_kernel *kernel, const void *args);

/** A PX_TEAM_REDUCE kernel into `result`, host memory of its value type; waits for this
 * instance only. An empty league gives the join's identity. */
PX_API px_status px_parallel_reduce_team(px_instance *inst, const char *label,
                                         px_team_policy policy, const px_kernel *kernel,
                                         const void *args, void *result);

/** As px_parallel_reduce_team, into element 0 of the view `result` (the rules of
 * px_parallel_reduce_view); stays asynchronous. */
PX_API px_status px_parallel_reduce_team_view(px_instance *inst, const char *label,
                                              px_team_policy policy, const px_kernel *kernel,
                                              const void *args, px_view *result);

/** The most scratch bytes one team may have at `level` (0 or 1) on inst: its backend's
 * limit (on CUDA level 0: the device's shared memory per block, opt-in, less
 * PX__TEAM_REDUCE_BYTES; on the host PX_TEAM_SCRATCH0_HOST_MAX; level 1:
 * PX_TEAM_SCRATCH1_MAX everywhere). */
PX_API px_status px_team_scratch_max(px_instance *inst, int level, size_t *bytes);

/* ---- Rows: leagues shaped by the library ----------------------------------------------- */

/** What px_team_rows_create measured and chose. */
typedef struct px_team_rows_info {
    int64_t rows;          /**< rows (the offsets' extent less one) */
    int64_t entries;       /**< offsets[rows] - offsets[0] */
    int64_t max_entries;   /**< the longest row's entries */
    int64_t league_size;   /**< teams of a dispatch */
    int32_t team_size;     /**< threads a team, as the teams run */
    int32_t vector_length; /**< lanes a thread, as the teams run */
    int64_t rows_per_team; /**< rows a team takes, a row per thread, outside the long rows */
    int64_t long_rows;     /**< rows given a whole team each (the first long_rows teams) */
    int64_t long_after;    /**< a row of more entries than this is long; -1: no row is */
} px_team_rows_info;

/** Measures the rows of `offsets` (a rank-1 view of int32 or int64: row r's entries are
 * [offsets[r], offsets[r + 1]), nondecreasing; a CSR matrix's row pointer) once and chooses
 * the league that runs them fast on inst's backend: the lanes a row gets, the rows a team
 * takes, and which rows are long enough to get a team of their own (docs/teams.md, "Rows").
 * The offsets must be readable by inst's kernels (its memory space, or one its backend
 * reads) and stay alive and unchanged while the result is used: the kernels read them.
 * Waits for inst (the offsets are read back once). Keeps a reference to the offsets and,
 * on a GPU, the long rows' indices (8 bytes each) in device memory of inst's device, until
 * px_team_rows_release. */
PX_API px_status px_team_rows_create(px_instance *inst, px_view *offsets, px_team_rows **rows);

/** What rows measured and chose (for logs and tests). */
PX_API px_status px_team_rows_info_get(const px_team_rows *rows, px_team_rows_info *info);

/** Frees rows and sets *rows to NULL (NULL or *rows NULL: nothing to do). No graph may use
 * them any longer, and the dispatches that did must have finished (fence their instances
 * first). */
PX_API px_status px_team_rows_release(px_team_rows **rows);

PX_EXTERN_C_END

/** @cond PX_INTERNAL */
/* The team dispatches, each under a macro of its own name that checks the kernel's kind at
   compile time where PX_KERNEL's type says it (portex/kernel.h, PX_KERNEL), then calls the
   function (a function-like macro does not expand in its own expansion). The arguments
   before the kernel hold no unparenthesized comma; those after it may (__VA_ARGS__). The
   library's own sources define the functions: no macro there. */
#ifndef PX_BUILDING_LIBRARY
#define px_parallel_for_team(inst, label, policy, kernel, ...)                                 \
    px_parallel_for_team(inst, label, policy,                                                  \
                         PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_for_team", TEAM_FOR), \
                         __VA_ARGS__)
#define px_parallel_reduce_team(inst, label, policy, kernel, ...) \
    px_parallel_reduce_team(                                      \
        inst, label, policy,                                      \
        PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_reduce_team", TEAM_REDUCE), __VA_ARGS__)
#define px_parallel_reduce_team_view(inst, label, policy, kernel, ...)                   \
    px_parallel_reduce_team_view(                                                        \
        inst, label, policy,                                                             \
        PX__KERNEL_EXPECT(kernel, #kernel, "px_parallel_reduce_team_view", TEAM_REDUCE), \
        __VA_ARGS__)
#endif
/** @endcond */

/* ---- Team-level operations inside kernel bodies -------------------------------------------- */

/* The nested loops' machinery, then each family's part of team kernels: its code for them
   and the team-level primitives of this compile (portex/impl/targets.h). */
#define PX__TEAM_DECLARED 1
#include "portex/impl/nested.h"
#include "portex/impl/targets.h"

/** Waits until every thread of the team has reached it; their writes to scratch (and to
 * memory) before it are seen by every thread after it. A statement. */
#define PX_TEAM_BARRIER(team) PX__TEAM_BARRIER_IMPL(team)

/** The block that follows runs once per team (thread 0, lane 0). It must not hold team-level
 * operations. */
#define PX_SINGLE_PER_TEAM(team)                                 \
    if (!((team)->team_rank == 0 && (team)->vector_rank == 0)) { \
    } else

/** The block that follows runs once per thread of the team (lane 0). */
#define PX_SINGLE_PER_THREAD(team)  \
    if ((team)->vector_rank != 0) { \
    } else

/** The block that follows runs for each int64_t index `i` in [begin, end), the indices
 * shared out among the team's threads (each thread's lanes run the same indices). */
#define PX_TEAM_THREAD_FOR(team, i, begin, end) \
    PX__TEAM_STRIDED(t, i, begin, end, (team)->team_rank, (team)->team_size)

/** The block that follows runs for each index `i` in [begin, end), the indices shared out
 * among the calling thread's vector lanes. */
#define PX_THREAD_VECTOR_FOR(team, i, begin, end) \
    PX__TEAM_STRIDED(v, i, begin, end, (team)->vector_rank, (team)->vector_length)

/** The block that follows runs for each index `i` in [begin, end), the indices shared out
 * among every thread and lane of the team. */
#define PX_TEAM_VECTOR_FOR(team, i, begin, end)                                               \
    PX__TEAM_STRIDED(w, i, begin, end,                                                        \
                     (int64_t)(team)->team_rank *(team)->vector_length + (team)->vector_rank, \
                     (int64_t)(team)->team_size * (team)->vector_length)

/** As PX_TEAM_THREAD_FOR, folding each index's contribution into *acc (a T *, from the
 * join `op`'s identity) with the join `op`; after the loop every thread and lane of the
 * team has the team's total in `result` (an lvalue of type T). */
#define PX_TEAM_THREAD_REDUCE(team, i, begin, end, T, op, acc, result)                        \
    PX__TEAM_REDUCE(tr, PX__TEAM_THREAD, PX_TEAM_THREAD_FOR, team, i, begin, end, T, op, acc, \
                    result)

/** As PX_THREAD_VECTOR_FOR, folding into *acc; every lane of the calling thread gets the
 * thread's total in `result`. */
#define PX_THREAD_VECTOR_REDUCE(team, i, begin, end, T, op, acc, result)                          \
    PX__TEAM_REDUCE(vr, PX__THREAD_VECTOR, PX_THREAD_VECTOR_FOR, team, i, begin, end, T, op, acc, \
                    result)

/** As PX_TEAM_VECTOR_FOR, folding into *acc; every thread and lane gets the team's total
 * in `result`. */
#define PX_TEAM_VECTOR_REDUCE(team, i, begin, end, T, op, acc, result)                        \
    PX__TEAM_REDUCE(wr, PX__TEAM_VECTOR, PX_TEAM_VECTOR_FOR, team, i, begin, end, T, op, acc, \
                    result)

/** A scan over [begin, end) shared out among the team's threads: the block that follows
 * adds index i's contribution to *update (a T *) with the join `op` and stores the running
 * value when `final` (a bool) is true, as a PX_SCAN body; it may run twice per index
 * (final false, then true). Indices are scanned in order; every thread and lane gets the
 * total in `total` (an lvalue of type T). */
#define PX_TEAM_THREAD_SCAN(team, i, begin, end, T, op, update, final, total) \
    PX__TEAM_SCAN(ts, PX__TEAM_THREAD, team, i, begin, end, T, op, update, final, total)

/** As PX_TEAM_THREAD_SCAN over the calling thread's vector lanes; every lane gets the total. */
#define PX_THREAD_VECTOR_SCAN(team, i, begin, end, T, op, update, final, total) \
    PX__TEAM_SCAN(vs, PX__THREAD_VECTOR, team, i, begin, end, T, op, update, final, total)

/** As PX_TEAM_THREAD_SCAN over every thread and lane of the team. */
#define PX_TEAM_VECTOR_SCAN(team, i, begin, end, T, op, update, final, total) \
    PX__TEAM_SCAN(ws, PX__TEAM_VECTOR, team, i, begin, end, T, op, update, final, total)

/* ---- Rows of a px_teams_rows league ----------------------------------------------------- */

/** The block that follows runs for each row `r` (int64_t) this thread takes in a
 * px_teams_rows league: a row per team thread in general, its lanes over the row's
 * entries; a long row with every thread and lane of the team. Under a policy of
 * px_teams, the row is league_rank, with every thread and lane of the team (a team per
 * row). Inside, loop over the row's entries with PX_ROW_VECTOR_FOR or PX_ROW_VECTOR_REDUCE
 * and write the row's result from a PX_SINGLE_PER_ROW block. Reached by every thread;
 * `continue` skips the rest of the row. */
#define PX_TEAM_ROW_FOR(team, r)                                           \
    for (int64_t r = px__team_row_first(team); r < px__team_row_end(team); \
         r += px__team_row_step(team))                                     \
        if (px__team_row_skip(team, r)) {                                  \
        } else

/** The block that follows runs for each index `i` in [begin, end), shared out among the
 * lanes that work on the current row of PX_TEAM_ROW_FOR. */
#define PX_ROW_VECTOR_FOR(team, i, begin, end) \
    PX__TEAM_STRIDED(rv, i, begin, end, px__row_lane(team), px__row_lanes(team))

/** As PX_ROW_VECTOR_FOR, folding each index's contribution into *acc (a T *) with the join
 * `op`; every lane of the row gets the row's total in `result`. Reached by every lane of
 * the row (directly inside PX_TEAM_ROW_FOR's block, not in a branch on the lane). */
#define PX_ROW_VECTOR_REDUCE(team, i, begin, end, T, op, acc, result) \
    PX__TEAM_REDUCE(rr, PX__ROW_VECTOR, PX_ROW_VECTOR_FOR, team, i, begin, end, T, op, acc, result)

/** The block that follows runs once per row of PX_TEAM_ROW_FOR (one lane of the row). */
#define PX_SINGLE_PER_ROW(team)  \
    if (!px__row_leader(team)) { \
    } else

/* ---- Team kernels ------------------------------------------------------------------------ */

/** As PX_DECLARE_KERNEL (portex/kernel.h), for a PX_TEAM_FOR kernel: a dispatch of it that
 * takes another kind does not compile. */
#define PX_DECLARE_KERNEL_TEAM_FOR(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_TEAM_FOR)
/** As PX_DECLARE_KERNEL_TEAM_FOR, for a PX_TEAM_REDUCE kernel. */
#define PX_DECLARE_KERNEL_TEAM_REDUCE(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_TEAM_REDUCE)

/** Defines the team kernel `name`, whose body follows the macro: `args` is a
 * `const Args *` to the dispatch's copy of the arguments, `team` a `const px_team *`. Run it
 * with px_parallel_for_team (or px_graph_add_for_team). */
#define PX_TEAM_FOR(name, Args, args, team)                                        \
    PX__BODY(name)(const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team); \
    PX__DEFINE_TEAM_FOR(name, Args)                                                \
    PX__BODY(name)(const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team)

/** Defines the team reduction kernel `name`: the body folds its contribution into *acc, a
 * T, with the join `op` (as PX_REDUCE). Each thread of a team has its own *acc, and every
 * thread's counts once (on CUDA its lane 0's: vector lanes run the same code, so add what
 * lanes computed through a THREAD_VECTOR or TEAM_VECTOR reduction, or in a
 * PX_SINGLE_PER_TEAM block for a per-team value). Run it with px_parallel_reduce_team. */
#define PX_TEAM_REDUCE(name, Args, args, team, T, op, acc)                               \
    PX__BODY(name)                                                                       \
    (const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team, T *PX_RESTRICT acc); \
    PX__DEFINE_TEAM_REDUCE(name, Args, T, op)                                            \
    PX__BODY(name)                                                                       \
    (const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team, T *PX_RESTRICT acc)

#endif /* PORTEX_TEAM_H */
