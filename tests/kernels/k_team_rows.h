/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_team_rows (k_team_rows.c, compiled as C, or as CUDA C++ when CUDA is on):
 * leagues over rows of a px_team_rows, and the same kernels under a team per row. */
#ifndef PX_TESTS_K_TEAM_ROWS_H
#define PX_TESTS_K_TEAM_ROWS_H

#include "portex/kernel.h"
#include "portex/team.h"
#include "portex/view.h"

/* Rows r of [off[r], off[r + 1]) entries (int32 offsets in off32 when wide is 0, int64 in
 * off64 otherwise), each entry k with column col[k] and value val[k]:
 *   y[r] = sum of val[k] * x[col[k]]        (a PX_ROW_VECTOR_REDUCE of doubles)
 *   n[r] = sum of (k * 3 + 1)               (of int64_t: exact, whatever the order)
 *   seen[r] += 1                            (once per row: PX_SINGLE_PER_ROW)
 *   hits[k] += 1 + r                        (each entry once: PX_ROW_VECTOR_FOR, atomic) */
typedef struct tk_rows_args {
    int32_t wide;
    px_span_i32_1d off32;
    px_span_i64_1d off64;
    px_span_i32_1d col;
    px_span_f64_1d val, x, y;
    px_span_i64_1d n, seen, hits;
} tk_rows_args;
PX_DECLARE_KERNEL_TEAM_FOR(tk_rows_spmv);

/* The same rows folded into one value: the sum over rows of (row index + 1) * (entries of
 * the row) + 7 * rows, added once per row from a PX_SINGLE_PER_ROW block. */
PX_DECLARE_KERNEL_TEAM_REDUCE(tk_rows_total);

#endif
