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
    px_span_i32_1d row;              /* nrows + 1 offsets into col and val (nnz < 2^31,
                                        as cuSPARSE's 32-bit CSR) */
    px_span_i32_1d col;
    px_span_f64_1d val, x;
    px_span_f64_1d_restrict y;
} spmv_args;

/* y[r] = sum over k in [row[r], row[r+1]) of val[k] * x[col[k]]: a team takes a block of
 * rows_per_team rows, one row per team thread, the row's entries over the thread's
 * vector lanes (a THREAD_VECTOR reduction), the way Kokkos' team SpMV does. */
PX_DECLARE_KERNEL(spmv_team);

/* The team shape for a matrix with `mean_nnz` entries per row on average: lanes ~ the
 * mean row length (a power of two, 1 to 32) so that few lanes idle on short rows, and
 * 256 threads x lanes per team (a CUDA block of 256: good occupancy on every recent GPU).
 * The host backends run teams as one thread; the shape only groups rows there. */
static inline px_team_policy spmv_policy(int64_t nrows, double mean_nnz, int64_t *rows_per_team)
{
    int32_t lanes = 1;
    while (lanes < 32 && lanes * 2 <= mean_nnz) lanes *= 2;
    const int32_t threads = 256 / lanes;
    *rows_per_team = threads;
    return px_teams((nrows + threads - 1) / threads, threads, lanes);
}

#endif
