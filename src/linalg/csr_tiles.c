/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* PX_SPMV_TILES' tables: consecutive rows grouped into tiles of at most LA_TILE_ENTRIES
 * entries and LA_TILE_ROWS rows, a longer row a tile of its own, and the long rows' later
 * chunks. */
#include <stdlib.h>
#include <string.h>

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
   fits: rows and entries of such a matrix are below 2^31). Element i's 4 bytes go where
   elements up to i / 2 were, all read by then; memcpy, so that no compiler may reorder
   the int32 stores before the int64 loads. */
static px_status index_view(px_instance *inst, const px_csr *A, const char *label, int64_t *wide,
                            int64_t n, px_view **out)
{
    if (A->index_type == PX_I32)
        for (int64_t i = 0; i < n; ++i) {
            const int32_t v = (int32_t)wide[i];
            memcpy((char *)wide + 4 * i, &v, sizeof v);
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

px_status la_tiles_build(const char *func, px_instance *inst, px_csr *A, const int64_t *offsets)
{
    A->tiles = group_rows(offsets, A->nrows, NULL, &A->long_rows);
    A->chunks = long_chunks(offsets, A->nrows, NULL);
    int64_t *tiles = (int64_t *)malloc((size_t)(A->tiles + 1) * 2 * sizeof *tiles);
    int64_t *chunks =
        (int64_t *)malloc((size_t)(A->chunks > 0 ? A->chunks : 1) * 2 * sizeof *chunks);
    px_status st = PX_OK;
    if (!tiles || !chunks)
        st = px_set_error(PX_ERR_OUT_OF_MEMORY, func, "out of host memory for %lld tiles",
                          (long long)A->tiles);
    if (st == PX_OK) {
        group_rows(offsets, A->nrows, tiles, &A->long_rows);
        long_chunks(offsets, A->nrows, chunks);
        st = index_view(inst, A, "px_csr tiles", tiles, 2 * (A->tiles + 1), &A->tile);
    }
    if (st == PX_OK)
        st = index_view(inst, A, "px_csr long-row chunks", chunks, 2 * A->chunks, &A->chunk);
    /* The copies read the buffers on inst: wait before freeing them, failed or not. */
    const px_status fenced = px_instance_fence(inst);
    if (st == PX_OK) st = fenced;
    free(tiles);
    free(chunks);
    return st;
}
