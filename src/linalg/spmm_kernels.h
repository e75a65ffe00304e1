/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The sparse matrix product with several vectors (SpMM), one kernel per group width (4, 8
 * vectors), value type and index type: la_spmm<width>_<value>_<index>. Included by C and,
 * with CUDA on, by CUDA C++. */
#ifndef PX_LINALG_SPMM_KERNELS_H
#define PX_LINALG_SPMM_KERNELS_H

#include <portex.h>

#include "spmv_kernels.h" /* LA_LONG_CHUNK, LA_TILE_TEAM: the long rows' chunks */

/* A row's sums for a group of vectors, folded over the row's lanes as one value (a nested
   reduction's value is at most PX_TEAM_VALUE_MAX, 64 bytes: 8 doubles). A group of 4 for k
   <= 4, so that a narrow product folds no unused sums across lanes. */
#define LA_SPMM_GROUP 8
#define LA_SPMM_NARROW 4
/* The scratch of a tiles team: each row's group sums (LA_TILE_ROWS x width of the value
   type), then the rows' offsets relative to the tile (int32). */
#define LA_SPMM_TILE_SCRATCH(width, value_size) \
    ((size_t)LA_TILE_ROWS * (width) * (value_size) + (LA_TILE_ROWS + 1) * 4)
#define LA_SPMM_SUMS(V, VT)       \
    typedef struct la_sum_4_##V { \
        VT v[4];                  \
    } la_sum_4_##V;               \
    typedef struct la_sum_8_##V { \
        VT v[8];                  \
    } la_sum_8_##V;
LA_SPMM_SUMS(f32, float)
LA_SPMM_SUMS(f64, double)

/* Y = alpha * A * X + beta * Y: X ncols x k, Y nrows x k, any strides (a strided span);
   the kernel's group of vectors is its width, taken k / width times (and once more for the
   rest). tile: the tiles of PX_SPMV_TILES (csr_tiles.c); chunk: A's long rows' chunks past their first LA_LONG_CHUNK entries, as
   (row, first entry) pairs (csr_tiles.c), which a second dispatch adds. Every span
   restrict: the front end refuses X and Y that share memory, and A's arrays are the
   library's own. */
#define LA_SPMM_ARGS(V, I)                                   \
    typedef struct la_spmm_args_##V##_##I {                  \
        px_span_##I##_1d_restrict row, col, tile, chunk;     \
        px_span_##V##_1d_restrict val;                       \
        px_span_##V##_restrict x, y;                         \
        double alpha, beta; /* rounded in the kernel: f32 */ \
    } la_spmm_args_##V##_##I;                                \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm4_##V##_##I);          \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm8_##V##_##I);          \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm_tiles4_##V##_##I);    \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm_tiles8_##V##_##I);    \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm_chunks4_##V##_##I);   \
    PX_DECLARE_KERNEL_TEAM_FOR(la_spmm_chunks8_##V##_##I)

LA_SPMM_ARGS(f32, i32);
LA_SPMM_ARGS(f32, i64);
LA_SPMM_ARGS(f64, i32);
LA_SPMM_ARGS(f64, i64);

#endif
