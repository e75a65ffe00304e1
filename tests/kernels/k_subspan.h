/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Kernels of test_spans that slice spans on the device (portex/subspan.h): rows into 1-D
 * spans, columns into strided spans, blocks and stepped ranges, each summed. Valid C11 and
 * CUDA C++. */
#ifndef PX_TESTS_K_SUBSPAN_H
#define PX_TESTS_K_SUBSPAN_H

#include "portex/kernel.h"
#include "portex/subspan.h"

/* m: rows x cols (LAYOUT_RIGHT); out: one sum per index. */
typedef struct ss_args {
    px_span_f64_right m;
    px_span_f64_1d out;
    int64_t block; /* ss_block_sums: the side of a square block */
} ss_args;

PX_DECLARE_KERNEL(ss_row_sums);   /* out(i) = sum of row i (PX_SLICE into a _1d span) */
PX_DECLARE_KERNEL(ss_col_sums);   /* out(j) = sum of column j (PX_SLICE into a strided span) */
PX_DECLARE_KERNEL(ss_block_sums); /* out(b) = sum of block b along the diagonal (two PX_SUBSPANs) */
PX_DECLARE_KERNEL(ss_even_sums);  /* out(i) = sum of row i's even columns (PX_SUBSPAN_STEP) */

#endif
