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
 *       const int64_t r = team->league_rank;                    // one team per row
 *       double sum;
 *       PX_TEAM_VECTOR_REDUCE(team, k, PX_AT1(a->row, r), PX_AT1(a->row, r + 1), double, sum, acc, sum) {
 *           *acc += PX_AT1(a->val, k) * PX_AT1(a->x, PX_AT1(a->col, k));
 *       }
 *       PX_SINGLE_PER_TEAM(team) { PX_AT1(a->y, r) = sum; }
 *   }
 *
 *   px_parallel_for_team(inst, "spmv", px_teams(nrows, PX_AUTO, PX_AUTO), PX_KERNEL(spmv), &args);
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

/** A league of teams: the index space of a team dispatch. Small, passed by value; make it
 * with px_teams and px_team_policy_scratch, never fill it by hand. */
typedef struct px_team_policy {
    int64_t league_size;      /**< teams; the body sees league_rank in [0, league_size) */
    int32_t team_size;        /**< threads per team; PX_AUTO: the backend chooses */
    int32_t vector_length;    /**< lanes per thread, a power of two <= 32; PX_AUTO: chosen */
    size_t scratch_team[2];   /**< scratch bytes per team, by level */
    size_t scratch_thread[2]; /**< scratch bytes per thread of the team, by level */
    int32_t bad_level;        /**< a level px_team_policy_scratch refused, plus 1; 0: none */
} px_team_policy;

/** `league_size` teams of `team_size` threads with `vector_length` lanes each (PX_AUTO for
 * either: the backend chooses, from the kernel's needs and the device). No scratch. */
static inline px_team_policy px_teams(int64_t league_size, int32_t team_size, int32_t vector_length)
{
    px_team_policy p = {league_size, team_size, vector_length, {0, 0}, {0, 0}, 0};
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
} px_team;

/** What the library hands a team kernel's entry for one run (library internal; the
 * kernel macros read it). */
typedef struct px_team_run {
    int64_t league_begin;   /**< first team this call runs (host entries) */
    int64_t league_end;     /**< one past the last (host entries) */
    int64_t league_size;    /**< the league */
    int32_t team_size;      /**< host: 1; CUDA: the request (0: auto), the size used on return */
    int32_t vector_length;  /**< host: 1; CUDA: the request (0: auto), the length used on return */
    size_t scratch_team[2]; /**< per-team bytes by level, rounded to 16 */
    size_t scratch_thread[2]; /**< per-thread bytes by level, rounded to 16 */
    void *scratch[2];         /**< host: the calling thread's buffers, one team's worth */
    size_t shared_limit;      /**< CUDA: dynamic shared memory a block may have (opt-in) */
    int32_t refused;          /**< CUDA, on return: PX__TEAM_REFUSED_* or 0 */
    int64_t refused_limit;    /**< CUDA, on return: the limit that refused the launch */
} px_team_run;

/** @cond PX_INTERNAL */
#define PX__TEAM_REFUSED_THREADS 1   /* team_size * vector_length above the kernel's limit */
#define PX__TEAM_REFUSED_SHARED 2    /* level 0 and reduction slots above the shared memory */
#define PX__TEAM_REFUSED_OCCUPANCY 3 /* no block of that shape fits an SM */
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

/** @cond PX_INTERNAL */
/* Which threads a nested reduction or scan spans. */
#define PX__TEAM_THREAD 0
#define PX__THREAD_VECTOR 1
#define PX__TEAM_VECTOR 2

#ifdef __CUDACC__
#include "portex/team_cuda.h"
/* Folds v (T) over the threads `unit` names; every one of them gets the total. */
#define PX__TEAM_COMBINE(team, T, op, unit, v) \
    px_cuda::team::combine<T, PX__CUDA_JOIN(T, op), unit>(team, v)
/* A nested scan's pass `pass` (0: totals, device only; 1: final; 2: after): whether the
   pass loops, over [lo, hi) of [0, n); sv[0] runs, sv[1] is the total after pass 2. */
#define PX__TEAM_SCAN_STAGE(team, T, op, unit, pass, sv, n, lo, hi) \
    px_cuda::team::scan_stage<T, PX__CUDA_JOIN(T, op), unit>(team, (int)(pass), sv, n, &(lo), &(hi))
#define PX__TEAM_BARRIER_IMPL(team) px_cuda::team::barrier(team)
#else
/* One thread runs the team: its loops cover every index, so there is nothing to fold. */
#define PX__TEAM_COMBINE(team, T, op, unit, v) ((void)(team), (void)(v))
#define PX__TEAM_SCAN_STAGE(team, T, op, unit, pass, sv, n, lo, hi)                            \
    ((void)(team), (pass) == 1   ? (px_identity_##op##_##T(&(sv)[0]), (lo) = 0, (hi) = (n), 1) \
                   : (pass) == 2 ? ((sv)[1] = (sv)[0], 0)                                      \
                                 : 0)
#define PX__TEAM_BARRIER_IMPL(team) ((void)(team))
#endif

/* The first pass of a nested scan: the totals pass runs on CUDA devices only. */
#if defined(__CUDA_ARCH__)
#define PX__TEAM_SCAN_FIRST 0
#else
#define PX__TEAM_SCAN_FIRST 1
#endif
/** @endcond */

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

/** @cond PX_INTERNAL */
/* A strided loop over [begin, end): first offset `first`, step `step`; `i` (int64_t) is the
   index in the block that follows, run once per index by a loop whose condition reads i
   (so that a body that ignores i draws no "unused" warning; i < INT64_MAX there, as
   i < end). px__<p>b, n, k, e are the loop's own, by prefix p. On a GPU a thread's share
   of a nested loop is a few steps (a row's entries over its lanes), each usually a load:
   unrolled (each copy keeping its own exit test), the compiler may start the loads of
   several steps before the first returns (the SpMV example's one-lane rows ran 16 %
   faster on an H100 with this and restrict spans). */
#if defined(__CUDA_ARCH__)
#define PX__TEAM_UNROLL _Pragma("unroll 4")
#else
#define PX__TEAM_UNROLL
#endif
#define PX__TEAM_STRIDED(p, i, begin, end, first, step)                                     \
    PX__TEAM_UNROLL                                                                         \
    for (int64_t px__##p##b = (begin), px__##p##n = (end)-px__##p##b, px__##p##k = (first); \
         px__##p##k < px__##p##n; px__##p##k += (step))                                     \
        for (int64_t i = px__##p##b + px__##p##k, px__##p##e = i + 1; i < px__##p##e;       \
             px__##p##e = i)
/** @endcond */

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

/** @cond PX_INTERNAL */
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

/* Chunks of the range, in order, one per unit (thread, lane); two passes on CUDA; the
   total handed out after the passes, as for reductions. */
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
/** @endcond */

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

/* ---- Team kernels ------------------------------------------------------------------------ */

/** @cond PX_INTERNAL */
#ifdef __CUDACC__
#define PX__CUDA_TEAM_PTR(name) px__cuda_team_##name
#define PX__CUDA_TEAM_FOR(name, Args)                                                          \
    PX__CUDA_BODY(name, (const Args *a, const px_team *t), (a, t))                             \
    static int px__cuda_team_##name(const px_cuda_launch *l_, const void *a_, px_team_run *r_) \
    {                                                                                          \
        return px_cuda::team::launch_for<Args, px__cu_##name>(l_, *(const Args *)a_, r_);      \
    }
#define PX__CUDA_TEAM_REDUCE(name, Args, T, op)                                                \
    PX__CUDA_BODY(name, (const Args *a, const px_team *t, T *v), (a, t, v))                    \
    static int px__cuda_team_##name(const px_cuda_launch *l_, const void *a_, px_team_run *r_) \
    {                                                                                          \
        return px_cuda::team::launch_reduce<Args, T, px__cu_##name, PX__CUDA_JOIN(T, op)>(     \
            l_, *(const Args *)a_, r_);                                                        \
    }
#else
#define PX__CUDA_TEAM_PTR(name) 0
#define PX__CUDA_TEAM_FOR(name, Args)
#define PX__CUDA_TEAM_REDUCE(name, Args, T, op)
#endif

/* The team the host entries hand the body: one thread, one lane, the run's buffers. */
static inline px_team px__team_host(const px_team_run *r)
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
    return t;
}

/* KIND: FOR or REDUCE (the descriptor's kind; the marker's is TEAM_FOR or TEAM_REDUCE). */
#define PX__TEAM_DESCRIPTOR(name, KIND, Args, vsize, identity, join)      \
    PX__DEFINE_KIND(name, TEAM_##KIND)                                    \
    PX_EXTERN_C const px_kernel px_kernel_##name = {PX_KERNEL_MAGIC,      \
                                                    #name,                \
                                                    PX_KERNEL_##KIND,     \
                                                    1,                    \
                                                    sizeof(Args),         \
                                                    vsize,                \
                                                    0,                    \
                                                    0,                    \
                                                    identity,             \
                                                    join,                 \
                                                    0,                    \
                                                    1,                    \
                                                    px__host_team_##name, \
                                                    PX__CUDA_TEAM_PTR(name)};
/** @endcond */

/** As PX_DECLARE_KERNEL (portex/kernel.h), for a PX_TEAM_FOR kernel: a dispatch of it that
 * takes another kind does not compile. */
#define PX_DECLARE_KERNEL_TEAM_FOR(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_TEAM_FOR)
/** As PX_DECLARE_KERNEL_TEAM_FOR, for a PX_TEAM_REDUCE kernel. */
#define PX_DECLARE_KERNEL_TEAM_REDUCE(name) PX__DECLARE_KERNEL_OF_KIND(name, PX__KIND_TEAM_REDUCE)

/** Defines the team kernel `name`, whose body follows the macro: `args` is a
 * `const Args *` to the dispatch's copy of the arguments, `team` a `const px_team *`. Run it
 * with px_parallel_for_team (or px_graph_add_for_team). */
#define PX_TEAM_FOR(name, Args, args, team)                                                     \
    PX__BODY(name)(const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team);              \
    PX__NOINLINE static void px__team_loop_##name(const Args px__args, const px_team_run px__r) \
    {                                                                                           \
        px_team px__t = px__team_host(&px__r);                                                  \
        for (int64_t l_ = px__r.league_begin; l_ < px__r.league_end; ++l_) {                    \
            px__t.league_rank = l_;                                                             \
            px__body_##name(&px__args, &px__t);                                                 \
        }                                                                                       \
    }                                                                                           \
    static void px__host_team_##name(const void *a_, const px_team_run *r_, void *res_)         \
    {                                                                                           \
        (void)res_;                                                                             \
        px__team_loop_##name(*(const Args *)a_, *r_);                                           \
    }                                                                                           \
    PX__CUDA_TEAM_FOR(name, Args)                                                               \
    PX__TEAM_DESCRIPTOR(name, FOR, Args, 0, 0, 0)                                               \
    PX__BODY(name)(const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team)

/** Defines the team reduction kernel `name`: the body folds its contribution into *acc, a
 * T, with the join `op` (as PX_REDUCE). Each thread of a team has its own *acc, and every
 * thread's counts once (on CUDA its lane 0's: vector lanes run the same code, so add what
 * lanes computed through a THREAD_VECTOR or TEAM_VECTOR reduction, or in a
 * PX_SINGLE_PER_TEAM block for a per-team value). Run it with px_parallel_reduce_team. */
#define PX_TEAM_REDUCE(name, Args, args, team, T, op, acc)                                   \
    PX__BODY(name)                                                                           \
    (const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team, T *PX_RESTRICT acc);     \
    PX__JOIN_USES_BEGIN                                                                      \
    PX__HOST_JOIN(name, T, op)                                                               \
    PX__NOINLINE static T px__team_loop_##name(const Args px__args, const px_team_run px__r) \
    {                                                                                        \
        T px__acc;                                                                           \
        px_identity_##op##_##T(&px__acc);                                                    \
        px_team px__t = px__team_host(&px__r);                                               \
        for (int64_t l_ = px__r.league_begin; l_ < px__r.league_end; ++l_) {                 \
            px__t.league_rank = l_;                                                          \
            px__body_##name(&px__args, &px__t, &px__acc);                                    \
        }                                                                                    \
        return px__acc;                                                                      \
    }                                                                                        \
    static void px__host_team_##name(const void *a_, const px_team_run *r_, void *res_)      \
    {                                                                                        \
        *(T *)res_ = px__team_loop_##name(*(const Args *)a_, *r_);                           \
    }                                                                                        \
    PX__JOIN_USES_END                                                                        \
    PX__CUDA_TEAM_REDUCE(name, Args, T, op)                                                  \
    PX__TEAM_DESCRIPTOR(name, REDUCE, Args, sizeof(T), px__identity_##name, px__join_##name) \
    PX__BODY(name)                                                                           \
    (const Args *PX_RESTRICT args, const px_team *PX_RESTRICT team, T *PX_RESTRICT acc)

#endif /* PORTEX_TEAM_H */
