/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the module measures of a matrix's rows once, and the product algorithm it chooses
 * from that for each kind of instance. */
#include <math.h>

#include "csr.h"
#include "spmv_kernels.h"

/* Rows of similar length run best a row per lane group (PX_SPMV_ROWS: what px_team_rows
   tunes); skewed ones, where a warp of rows waits for its longest, over tiles of equal
   entries. On the host backends a team is one thread either way, and px_team_rows'
   shares of rows balance by entries: ROWS. The threshold is the row lengths' coefficient
   of variation measured on the benchmark matrices (docs/linalg.md). */
#define LA_SKEWED_CV 0.5

void la_csr_measure(px_csr *A, const int64_t *offsets)
{
    double sum = 0, sq = 0;
    int64_t max = 0;
    for (int64_t r = 0; r < A->nrows; ++r) {
        const int64_t n = offsets[r + 1] - offsets[r];
        sum += (double)n;
        sq += (double)n * (double)n;
        if (n > max) max = n;
    }
    A->max_row = max;
    A->mean_row = A->nrows > 0 ? sum / (double)A->nrows : 0;
    const double var = A->nrows > 0 ? sq / (double)A->nrows - A->mean_row * A->mean_row : 0;
    A->row_cv = A->mean_row > 0 ? sqrt(var > 0 ? var : 0) / A->mean_row : 0;
}

px_spmv_alg la_csr_choice(const px_csr *A, px_space inst_space)
{
    const bool gpu = inst_space.kind == PX_SPACE_DEVICE;
    return gpu && (A->row_cv > LA_SKEWED_CV || A->max_row > LA_TILE_ENTRIES) ? PX_SPMV_TILES
                                                                             : PX_SPMV_ROWS;
}
