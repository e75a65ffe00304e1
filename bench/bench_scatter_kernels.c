/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_scatter's kernel file (bench_scatter_kernels.h): compiled as C, or as CUDA where
 * CUDA is on. Each pair of kernels differs only in how it adds. */
#include "bench_scatter_kernels.h"

PX_FOR(bs_hist_scatter, bs_hist_args, a, i) { px_scatter_add(&a->counts, bs_bin(a, i), 1); }

PX_FOR(bs_hist_atomic, bs_hist_args, a, i) { px_atomic_add(&PX_AT1(a->counts_a, bs_bin(a, i)), 1); }

PX_FOR(bs_hist_plain, bs_hist_args, a, i) { PX_AT1(a->counts_a, bs_bin(a, i)) += 1; }

/* Element e of the mesh: (i, j) or (i, j, k), i fastest; its first node. */
PX_FUNCTION int64_t bs_node0(const bs_fem_args *a, int64_t e)
{
    const int64_t i = e % a->nx, j = e / a->nx % a->ny, k = e / a->nx / a->ny;
    return (k * (a->ny + 1) + j) * (a->nx + 1) + i;
}

PX_FOR(bs_fem2_scatter, bs_fem_args, a, e)
{
    const double v = 0.25 * PX_AT1(a->w, e);
    const int64_t row = a->nx + 1, n = bs_node0(a, e);
    px_scatter_add(&a->nodes, n, v);
    px_scatter_add(&a->nodes, n + 1, v);
    px_scatter_add(&a->nodes, n + row, v);
    px_scatter_add(&a->nodes, n + row + 1, v);
}

PX_FOR(bs_fem2_atomic, bs_fem_args, a, e)
{
    const double v = 0.25 * PX_AT1(a->w, e);
    const int64_t row = a->nx + 1, n = bs_node0(a, e);
    px_atomic_add(&PX_AT1(a->nodes_a, n), v);
    px_atomic_add(&PX_AT1(a->nodes_a, n + 1), v);
    px_atomic_add(&PX_AT1(a->nodes_a, n + row), v);
    px_atomic_add(&PX_AT1(a->nodes_a, n + row + 1), v);
}

PX_FOR(bs_fem3_scatter, bs_fem_args, a, e)
{
    const double v = 0.125 * PX_AT1(a->w, e);
    const int64_t row = a->nx + 1, plane = row * (a->ny + 1), n = bs_node0(a, e);
    for (int c = 0; c < 8; ++c)
        px_scatter_add(&a->nodes, n + (c & 1) + (c >> 1 & 1) * row + (c >> 2) * plane, v);
}

PX_FOR(bs_fem3_atomic, bs_fem_args, a, e)
{
    const double v = 0.125 * PX_AT1(a->w, e);
    const int64_t row = a->nx + 1, plane = row * (a->ny + 1), n = bs_node0(a, e);
    for (int c = 0; c < 8; ++c)
        px_atomic_add(&PX_AT1(a->nodes_a, n + (c & 1) + (c >> 1 & 1) * row + (c >> 2) * plane), v);
}
