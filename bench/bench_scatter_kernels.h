/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_scatter's kernels (bench/bench_scatter.c, and bench/cuda/bench_scatter_cuda.c, which
 * compiles the kernel file as CUDA): a histogram and finite-element assembly on a structured
 * mesh, each written twice, with a scatter (px_scatter_add) and with plain atomics
 * (px_atomic_add), and the histogram once more with plain adds for one thread. Valid C11
 * and CUDA C++. */
#ifndef BENCH_SCATTER_KERNELS_H
#define BENCH_SCATTER_KERNELS_H

#include <portex.h>

/* Histogram: value i (in [0, 1)) counted in bin x * nbins. */
typedef struct bs_hist_args {
    px_span_f64_1d x;
    double nbins;
    px_scatter_i32 counts;   /* the scatter's kernels */
    px_span_i32_1d counts_a; /* the atomics' and the plain adds' */
} bs_hist_args;

PX_FUNCTION int64_t bs_bin(const bs_hist_args *a, int64_t i)
{
    return (int64_t)(PX_AT1(a->x, i) * a->nbins);
}

/* Assembly: element e = (i, j) of an nx x ny mesh of quads (2-D: nz = 1) adds w(e) / 4 to
   each of its 4 nodes, element (i, j, k) of an nx x ny x nz mesh of hexahedra (3-D) w(e) / 8
   to each of its 8; elements and nodes are numbered with i fastest (nodes on the (nx + 1) x
   (ny + 1) [x (nz + 1)] grid). One index per element. */
typedef struct bs_fem_args {
    px_span_f64_1d w; /* one value per element, row-major */
    int64_t nx, ny, nz;
    px_scatter_f64 nodes;   /* the scatter's kernels */
    px_span_f64_1d nodes_a; /* the atomics' */
} bs_fem_args;

PX_DECLARE_KERNEL_FOR(bs_hist_scatter);
PX_DECLARE_KERNEL_FOR(bs_hist_atomic);
PX_DECLARE_KERNEL_FOR(bs_hist_plain);
PX_DECLARE_KERNEL_FOR(bs_fem2_scatter);
PX_DECLARE_KERNEL_FOR(bs_fem2_atomic);
PX_DECLARE_KERNEL_FOR(bs_fem3_scatter);
PX_DECLARE_KERNEL_FOR(bs_fem3_atomic);

/* The benchmarks' cases, on the host and on the GPU. */
enum { BS_HIST, BS_FEM2, BS_FEM3 };

typedef struct bs_case {
    const char *name;
    int kind;   /* BS_HIST, BS_FEM2 or BS_FEM3 */
    int64_t n;  /* histogram: values; assembly: elements per dimension */
    int nbins;  /* histogram */
    bool check; /* the target applies (contention; the host benchmark) */
} bs_case;

#endif
