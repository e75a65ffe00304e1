/* spmv: the CSR sparse matrix-vector product y = A x as a team kernel, shared by the
 * example's main and the benchmarks. Included by C and (with CUDA on) by CUDA C++. */
#ifndef SPMV_KERNELS_H
#define SPMV_KERNELS_H

#include <portex.h>

/* A in CSR form (row offsets, column indices, values), x and y; rows_per_team rows per
 * team. 1-D unit-stride spans: the smallest kernel parameter. */
typedef struct spmv_args {
    int64_t nrows;
    int64_t rows_per_team;
    int64_t max_len;                 /* spmv_team leaves rows longer than this to spmv_long
                                        (0: no limit) */
    px_span_i32_1d row;              /* nrows + 1 offsets into col and val (nnz < 2^31,
                                        as cuSPARSE's 32-bit CSR) */
    px_span_i32_1d col;
    px_span_f64_1d val, x;
    px_span_f64_1d_restrict y;
    px_span_i32_1d long_rows;        /* spmv_long: the rows longer than max_len */
} spmv_args;

/* y[r] = sum over k in [row[r], row[r+1]) of val[k] * x[col[k]]: a team takes a block of
 * rows_per_team rows, one row per team thread, the row's entries over the thread's
 * vector lanes (a THREAD_VECTOR reduction), the way Kokkos' team SpMV does. */
PX_DECLARE_KERNEL(spmv_team);
/* y[r] for r = long_rows[league_rank]: a team per row, the entries over every thread and
 * lane of the team (a TEAM_VECTOR reduction). Power-law matrices have a few rows thousands
 * long: on a thread's lanes each would take thousands of dependent loads while the rest of
 * its team waited, so they are found once (csr_long_rows) and given whole teams. */
PX_DECLARE_KERNEL(spmv_long);

/* The team shape of spmv_team for a's matrix with `mean_nnz` entries per row on average,
 * run on `exec` (sets a->rows_per_team and a->max_len): lanes the mean row length rounded
 * up to a power of two (1 to 32), so that a typical row takes one pass of the lanes, its
 * loads all in flight at once (a second pass, with few lanes busy, would wait a second
 * memory latency); 256 threads x lanes per team (a CUDA block of 256: good occupancy on
 * every recent GPU). On CUDA rows past 32
 * lane-steps go to spmv_long. The host backends run a team as one thread, so no row keeps
 * other threads waiting and none is split off (a second dispatch would only add a
 * parallel region); the shape only groups rows there. */
static inline px_team_policy spmv_policy(spmv_args *a, double mean_nnz, px_exec_space exec)
{
    int32_t lanes = 1;
    while (lanes < 32 && lanes < mean_nnz) lanes *= 2;
    const int32_t threads = 256 / lanes;
    a->rows_per_team = threads;
    a->max_len = exec == PX_EXEC_CUDA ? 32 * lanes : 0;
    return px_teams((a->nrows + threads - 1) / threads, threads, lanes);
}

/* The teams of spmv_long: 8 threads of 32 lanes (a CUDA block of 256, lanes over
 * consecutive entries). */
static inline px_team_policy spmv_long_policy(int64_t nlong)
{
    return px_teams(nlong, 8, 32);
}

/* y = A x: spmv_team over every row up to max_len long, then spmv_long over the rest
 * (none: one dispatch). Both asynchronous, on inst. */
static inline px_status spmv_dispatch(px_instance *inst, px_team_policy policy, int64_t nlong,
                                      const spmv_args *args)
{
    px_status st = px_parallel_for_team(inst, "spmv", policy, PX_KERNEL(spmv_team), args);
    if (st == PX_OK && nlong > 0)
        st = px_parallel_for_team(inst, "spmv_long", spmv_long_policy(nlong), PX_KERNEL(spmv_long), args);
    return st;
}

#endif
