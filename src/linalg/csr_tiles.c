/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* PX_SPMV_TILES' table: consecutive rows grouped into tiles of at most LA_TILE_ENTRIES
 * entries and LA_TILE_ROWS rows, a longer row a tile of its own; and the choice between
 * the algorithms, from the rows' lengths. */
#include <math.h>
#include <stdlib.h>

#include "csr.h"
#include "spmv_kernels.h"

/* The tiles, greedy from the first row: a row joins the tile while the tile stays within
   both bounds. Returns the number of tiles; starts (when not NULL) receives each one's
   first row and first entry (a tile's kernel reads both at once) and, last, nrows and
   nnz. */
static int64_t group_rows(const int64_t *offsets, int64_t nrows, int64_t *starts,
                          int64_t *long_rows)
{
    int64_t tiles = 0, longs = 0, r = 0;
    while (r < nrows) {
        const int64_t first = offsets[r];
        if (starts) {
            starts[2 * tiles] = r;
            starts[2 * tiles + 1] = first;
        }
        int64_t end = r + 1;
        if (offsets[end] - first > LA_TILE_ENTRIES)
            ++longs;
        else
            while (end < nrows && end - r < LA_TILE_ROWS &&
                   offsets[end + 1] - first <= LA_TILE_ENTRIES)
                ++end;
        ++tiles;
        r = end;
    }
    if (starts) {
        starts[2 * tiles] = nrows;
        starts[2 * tiles + 1] = offsets[nrows];
    }
    *long_rows = longs;
    return tiles;
}

/* la_upload of n indices from `wide`, narrowed in place for 32-bit indices (every value
   fits: rows and entries of such a matrix are below 2^31). */
static px_status index_view(px_instance *inst, const px_csr *A, const char *label, int64_t *wide,
                            int64_t n, px_view **out)
{
    if (A->index_type == PX_I32) {
        int32_t *narrow = (int32_t *)wide;
        for (int64_t i = 0; i < n; ++i) narrow[i] = (int32_t)wide[i];
    }
    return la_upload(inst, A->space, label, A->index_type, n, wide, out);
}

/* The chunks of the long rows past their first LA_LONG_CHUNK entries, as (row, first
   entry) pairs into pairs (when not NULL); returns how many. */
static int64_t long_chunks(const int64_t *offsets, int64_t nrows, int64_t *pairs)
{
    int64_t n = 0;
    for (int64_t r = 0; r < nrows; ++r)
        for (int64_t k = offsets[r] + LA_LONG_CHUNK; k < offsets[r + 1]; k += LA_LONG_CHUNK, ++n)
            if (pairs) {
                pairs[2 * n] = r;
                pairs[2 * n + 1] = k;
            }
    return n;
}

px_status la_tiles_build(px_instance *inst, px_csr *A, const int64_t *offsets)
{
    const int64_t tiles = group_rows(offsets, A->nrows, NULL, &A->long_rows);
    const int64_t chunks = long_chunks(offsets, A->nrows, NULL);
    const int64_t n = tiles + 1 > chunks ? 2 * (tiles + 1) : 2 * chunks;
    int64_t *host = (int64_t *)malloc((size_t)n * sizeof *host);
    if (!host)
        return px_set_error(PX_ERR_OUT_OF_MEMORY, "px_csr_create",
                            "out of host memory for %lld tiles", (long long)tiles);
    A->tiles = tiles;
    A->chunks = chunks;
    group_rows(offsets, A->nrows, host, &A->long_rows);
    px_status st = index_view(inst, A, "px_csr tiles", host, 2 * (tiles + 1), &A->tile);
    /* The copy above reads `host` on inst: wait before reusing it. */
    if (st == PX_OK && chunks > 0) st = px_instance_fence(inst);
    if (st == PX_OK) {
        long_chunks(offsets, A->nrows, host);
        st = index_view(inst, A, "px_csr long-row chunks", host, 2 * chunks, &A->chunk);
    }
    if (st == PX_OK) st = px_instance_fence(inst);
    free(host);
    return st;
}

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
