/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_spans' slicing kernels (k_subspan.h). */
#include "k_subspan.h"

PX_FOR(ss_row_sums, ss_args, a, i)
{
    px_span_f64_1d row;
    PX_SLICE(row, a->m, 0, i);
    double s = 0;
    for (int64_t j = 0; j < row.extent[0]; ++j) s += PX_AT1(row, j);
    PX_AT1(a->out, i) = s;
}

PX_FOR(ss_col_sums, ss_args, a, j)
{
    px_span_f64 col;
    PX_SLICE(col, a->m, 1, j);
    double s = 0;
    for (int64_t i = 0; i < col.extent[0]; ++i) s += PX_AT1(col, i);
    PX_AT1(a->out, j) = s;
}

PX_FOR(ss_block_sums, ss_args, a, b)
{
    px_span_f64_right rows, block;
    PX_SUBSPAN(rows, a->m, 0, b * a->block, (b + 1) * a->block);
    PX_SUBSPAN(block, rows, 1, b * a->block, (b + 1) * a->block);
    double s = 0;
    for (int64_t i = 0; i < block.extent[0]; ++i)
        for (int64_t j = 0; j < block.extent[1]; ++j) s += PX_AT2(block, i, j);
    PX_AT1(a->out, b) = s;
}

PX_FOR(ss_even_sums, ss_args, a, i)
{
    px_span_f64 even;
    PX_SUBSPAN_STEP(even, a->m, 1, 0, a->m.extent[1], 2);
    double s = 0;
    for (int64_t j = 0; j < even.extent[1]; ++j) s += PX_AT2(even, i, j);
    PX_AT1(a->out, i) = s;
}
