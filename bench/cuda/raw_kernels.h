/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw-CUDA and CUB baselines of bench_kernels_cuda, and the harness kernels (random
 * fills, result comparison), behind a C interface: raw_kernels.cu defines them, the C
 * program calls them. Every function queues its work on `st` and returns the launch's
 * error (read with cudaGetLastError) unless it says otherwise. Counts must be below 2^31. */
#ifndef RAW_KERNELS_H
#define RAW_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* a[i] = b[i] + s * c[i]: one thread per element, 256-thread blocks. */
cudaError_t raw_triad_flat(double *a, const double *b, const double *c, double s, int64_t n,
                           cudaStream_t st);
/* The same as a grid-stride loop over `blocks` blocks of 256 threads. */
cudaError_t raw_triad_gridstride(double *a, const double *b, const double *c, double s, int64_t n,
                                 int blocks, cudaStream_t st);
/* Blocks of one full wave of the grid-stride triad on `device`: SMs times resident blocks. */
cudaError_t raw_triad_gridstride_blocks(int device, int *blocks);

/* *out = sum of x[i] * y[i] through cub::DeviceReduce::TransformReduce. CUB's two-phase
 * protocol: tmp == NULL sets *tmp_bytes and queues nothing. */
cudaError_t raw_dot_cub(void *tmp, size_t *tmp_bytes, const double *x, const double *y, int64_t n,
                        double *out, cudaStream_t st);
/* The same for a small n, by one block: what a round trip for a small reduction needs. */
cudaError_t raw_dot_small(const double *x, const double *y, int64_t n, double *out,
                          cudaStream_t st);

/* out[i][j] = s * in[i][j], row-major rows x cols: 32 x 8 blocks, j along threadIdx.x. */
cudaError_t raw_scale2d(double *out, const double *in, double s, int64_t rows, int64_t cols,
                        cudaStream_t st);

/* Inclusive prefix sum through cub::DeviceScan::InclusiveSum (two-phase like raw_dot_cub). */
cudaError_t raw_scan_cub(void *tmp, size_t *tmp_bytes, const int64_t *in, int64_t *out, int64_t n,
                         cudaStream_t st);
/* The same for int64 (f64 false) or double (f64 true) elements, inclusive or exclusive,
   through cub::DeviceScan::InclusiveSum / ExclusiveSum: what px_prefix_sum is measured
   against. */
cudaError_t raw_prefix_sum_cub(void *tmp, size_t *tmp_bytes, const void *in, void *out, int64_t n,
                               bool f64, bool exclusive, cudaStream_t st);

/* An empty kernel, one block of 256 threads: the shape portex launches for one element. */
cudaError_t raw_empty(cudaStream_t st);

/* ---- Harness ------------------------------------------------------------------------ */

/* Random doubles in (0, 1] (never zero), and random int64 in [1, 2^20], from a seed. */
cudaError_t raw_fill_f64(double *p, int64_t n, uint64_t seed, cudaStream_t st);
cudaError_t raw_fill_i64(int64_t *p, int64_t n, uint64_t seed, cudaStream_t st);

/* Synchronous: waits for st. The largest |a - ref| / |ref| (infinity for NaN), and the
 * number of elements where a != ref. */
cudaError_t raw_max_rel_diff_f64(const double *a, const double *ref, int64_t n, double *out,
                                 cudaStream_t st);
cudaError_t raw_count_diff_i64(const int64_t *a, const int64_t *ref, int64_t n, int64_t *out,
                               cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
