/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The CSR sparse matrix-vector product y = A x as team kernels shaped by hand: the lanes
 * a row gets and the long rows split off chosen by the caller (bench_team's lane sweep,
 * against which the shapes px_team_rows chooses are measured; examples/spmv_kernels.c is
 * the documented way). Included by C and (with CUDA on) by CUDA C++. */
#ifndef SPMV_LANES_K_H
#define SPMV_LANES_K_H

#include <portex.h>

/* A in CSR form (row offsets, column indices, values), x and y; rows_per_team rows per
 * team. 1-D unit-stride spans: the smallest kernel parameter. */
typedef struct lanes_args {
    int64_t nrows;
    int64_t rows_per_team;
    int64_t max_len; /* lanes_team leaves rows longer than this to lanes_long
                                        (0: no limit) */
    /* Restrict spans: no two of them share memory, so a GPU may read A and x through its
       read-only path. */
    px_span_i32_1d_restrict row; /* nrows + 1 offsets into col and val (nnz < 2^31,
                                        as cuSPARSE's 32-bit CSR) */
    px_span_i32_1d_restrict col;
    px_span_f64_1d_restrict val, x;
    px_span_f64_1d_restrict y;
    px_span_i32_1d_restrict long_rows; /* lanes_long: the rows longer than max_len */
} lanes_args;

/* y[r] = sum over k in [row[r], row[r+1]) of val[k] * x[col[k]]: a team takes a block of
 * rows_per_team rows, one row per team thread, the row's entries over the thread's
 * vector lanes (a THREAD_VECTOR reduction), the way Kokkos' team SpMV does. */
PX_DECLARE_KERNEL(lanes_team);
/* y[r] for r = long_rows[league_rank]: a team per row, the entries over every thread and
 * lane of the team (a TEAM_VECTOR reduction). Power-law matrices have a few rows thousands
 * long: on a thread's lanes each would take thousands of dependent loads while the rest of
 * its team waited, so they are found once (csr_long_rows) and given whole teams. */
PX_DECLARE_KERNEL(lanes_long);

/* The team shape of lanes_team with `lanes` vector lanes a thread (a power of two, 1 to 32)
 * run on `exec` (sets a->rows_per_team and a->max_len): 256 threads x lanes a team (a CUDA
 * block of 256: good occupancy on every recent GPU), a row a thread. On CUDA rows past 32
 * lane-steps go to lanes_long. The host backends run a team as one thread, so no row keeps
 * other threads waiting and none is split off (a second dispatch would only add a
 * parallel region); the shape only groups rows there. */
static inline px_team_policy lanes_policy(lanes_args *a, int32_t lanes, px_exec_space exec)
{
    const int32_t threads = 256 / lanes;
    a->rows_per_team = threads;
    a->max_len = exec == PX_EXEC_CUDA ? 32 * lanes : 0;
    return px_teams((a->nrows + threads - 1) / threads, threads, lanes);
}

/* The teams of lanes_long: 8 threads of 32 lanes (a CUDA block of 256, lanes over
 * consecutive entries). */
static inline px_team_policy lanes_long_policy(int64_t nlong) { return px_teams(nlong, 8, 32); }

/* y = A x: lanes_team over every row up to max_len long, then lanes_long over the rest
 * (none: one dispatch). Both asynchronous, on inst. */
static inline px_status lanes_dispatch(px_instance *inst, px_team_policy policy, int64_t nlong,
                                       const lanes_args *args)
{
    px_status st = px_parallel_for_team(inst, "spmv", policy, PX_KERNEL(lanes_team), args);
    if (st == PX_OK && nlong > 0)
        st = px_parallel_for_team(inst, "lanes_long", lanes_long_policy(nlong),
                                  PX_KERNEL(lanes_long), args);
    return st;
}

#endif
