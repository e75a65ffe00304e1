/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The sparse matrix-vector product's kernels, one per algorithm, value type (f32, f64) and
 * index type (i32, i64): la_spmv_<alg>_<value>_<index>. Included by C and, with CUDA on,
 * by CUDA C++. */
#ifndef PX_LINALG_SPMV_KERNELS_H
#define PX_LINALG_SPMV_KERNELS_H

#include <portex.h>

/* PX_SPMV_TILES: a tile holds at most LA_TILE_ENTRIES entries and LA_TILE_ROWS rows, and
   runs on a team of LA_TILE_TEAM threads, each of which loads LA_TILE_BATCH entries at once
   (their loads in flight together) and sums a run of as many consecutive products. A row
   of more entries than a tile is a tile of its own, summed by the whole team: its first
   LA_LONG_CHUNK entries by the tile's team, the rest in chunks of as many by the teams of a
   second dispatch, which add to y atomically after the first has stored it. Batches of 8
   measured 1.06-1.29x faster than batches of 4 on power-law rows of mean 16 to 64, 0.97x
   at mean 8 (H200; docs/linalg.md). */
#define LA_TILE_TEAM 256
#define LA_TILE_BATCH 8
#define LA_TILE_ENTRIES (LA_TILE_TEAM * LA_TILE_BATCH)
#define LA_TILE_ROWS 512
#define LA_LONG_CHUNK 8192
/* A tile's product p sits at LA_TILE_SLOT(p) in scratch: a gap after every LA_TILE_BATCH
   products, so that the threads of a warp reading the p-th product of their runs (which
   lie LA_TILE_BATCH apart in a full tile, fewer in a shorter one) hit distinct
   shared-memory banks. */
#define LA_TILE_SLOT(p) ((p) + (p) / LA_TILE_BATCH)
#define LA_TILE_SLOTS LA_TILE_SLOT(LA_TILE_ENTRIES)
/* The scratch a tile's team uses: its entries' products and rows' sums (of the value
   type), then its row offsets relative to the tile's first entry (int32). */
#define LA_TILE_SCRATCH(value_size) \
    ((size_t)(LA_TILE_SLOTS + LA_TILE_ROWS) * (value_size) + (LA_TILE_ROWS + 1) * 4)

/* y = alpha * A * x + beta * y for the rows a dispatch covers, and y += alpha * A^T * x (the
   transposed product: x of nrows elements, y of ncols). la_jacobi_args: one Jacobi step
   from x to x_new towards A x = b. TILES only: tile, the
   first row and first entry of each tile, then (nrows, nnz); chunk, for each chunk of a long row past its
   first, its row and first entry (2 per chunk). Every span restrict: the front end refuses
   x and y that share memory, and A's arrays are the library's own. */
#define LA_SPMV_ARGS(V, I)                                   \
    typedef struct la_spmv_args_##V##_##I {                  \
        px_span_##I##_1d_restrict row, col, tile, chunk;     \
        px_span_##V##_1d_restrict val, x, y;                 \
        double alpha, beta; /* rounded in the kernel: f32 */ \
    } la_spmv_args_##V##_##I;                                \
    typedef struct la_jacobi_args_##V##_##I {                \
        px_span_##I##_1d_restrict row, col;                  \
        px_span_##V##_1d_restrict val, x, b, x_new;          \
        double omega;                                        \
    } la_jacobi_args_##V##_##I;                              \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmv_rows_##V##_##I);      \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmv_tiles_##V##_##I);     \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmv_chunks_##V##_##I);    \
    PX_DECLARE_KERNEL(la_spmv_transposed_##V##_##I);         \
    PX_DECLARE_KERNEL(la_jacobi_##V##_##I)

LA_SPMV_ARGS(f32, i32);
LA_SPMV_ARGS(f32, i64);
LA_SPMV_ARGS(f64, i32);
LA_SPMV_ARGS(f64, i64);

#endif
