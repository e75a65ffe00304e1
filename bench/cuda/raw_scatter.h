/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench_scatter_cuda's baseline: the histogram and the assembly of bench/bench_scatter_kernels.h
 * written as raw CUDA kernels with atomicAdd (raw_scatter.cu). Plain C interface. */
#ifndef RAW_SCATTER_H
#define RAW_SCATTER_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* counts[(int)(x[i] * nbins)] += 1 for i in [0, n): one index per thread. */
cudaError_t raw_scatter_hist(const double *x, int64_t n, double nbins, int32_t *counts,
                             cudaStream_t s);
/* The same kernel with x a plain pointer (no __restrict__: its loads are not ld.global.nc),
   as a span's data reads: the diagnostic row of bench_scatter_cuda. */
cudaError_t raw_scatter_hist_plain_loads(const double *x, int64_t n, double nbins, int32_t *counts,
                                         cudaStream_t s);
/* Each element of an nx x ny (x nz) mesh adds w[e] / 4 into its 4 nodes (dim 2, nz 1) or
   w[e] / 8 into its 8 (dim 3); one element per thread, numbered as bs_fem_args says. */
cudaError_t raw_scatter_fem(const double *w, int64_t nx, int64_t ny, int64_t nz, int dim,
                            double *nodes, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
