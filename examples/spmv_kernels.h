/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spmv: the CSR sparse matrix-vector product y = A x as a team kernel over a league the
 * library shapes from the row pointer (px_team_rows), shared by the example's main and the
 * benchmarks. Included by C and (with CUDA on) by CUDA C++. */
#ifndef SPMV_KERNELS_H
#define SPMV_KERNELS_H

#include <portex.h>

/* A in CSR form (row offsets, column indices, values), x and y. Restrict spans: no two
   share memory, so a GPU may read A and x through its read-only path; 1-D unit-stride
   spans, the smallest kernel parameter. 32-bit offsets and indices (nnz < 2^31), as
   cuSPARSE's CUSPARSE_INDEX_32I. */
typedef struct spmv_args {
    px_span_i32_1d_restrict row; /* nrows + 1 offsets into col and val */
    px_span_i32_1d_restrict col;
    px_span_f64_1d_restrict val, x;
    px_span_f64_1d_restrict y;
} spmv_args;

/* y[r] = sum over k in [row[r], row[r+1]) of val[k] * x[col[k]], for every row the team
 * takes (PX_TEAM_ROW_FOR), the row's entries over its lanes. Dispatch it over
 * px_teams_rows of the row pointer's px_team_rows. */
PX_DECLARE_KERNEL_TEAM_FOR(spmv);

#endif
