/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw baselines of bench_team behind a C interface (raw_team.cu defines them):
 * cuSPARSE's CSR SpMV, hand-tiled shared-memory stencils (5-point and radius 4), an empty
 * kernel. Every function queues its work on `st` and returns the first error it met. */
#ifndef RAW_TEAM_H
#define RAW_TEAM_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A x by cusparseSpMV (CSR, 32-bit offsets and indices, double,
 * CUSPARSE_SPMV_ALG_DEFAULT) on device arrays. _create makes the handle, descriptors and
 * work buffer (once: not timed), _run queues one product on the stream given at creation. */
typedef struct raw_spmv raw_spmv;
int raw_spmv_create(raw_spmv **out, int64_t nrows, int64_t nnz, int32_t *row, int32_t *col,
                    double *val, double *x, double *y, cudaStream_t st);
int raw_spmv_run(raw_spmv *s);
void raw_spmv_destroy(raw_spmv *s);
/* What a raw_spmv_* call that returned nonzero failed on. */
const char *raw_spmv_error(void);

/* One step of the 5-point stencil of examples/stencil_tiled_kernels.h over the interior of
 * an nx x ny row-major grid, 8 x 32 tiles staged with a one-point halo in shared memory:
 * one block of 32 x 8 threads per tile, what stencil_tiled does with a team of 8 x 32. */
cudaError_t raw_stencil_tiled(double *out, const double *in, int64_t nx, int64_t ny, double alpha,
                              cudaStream_t st);

/* One step of the wide (radius 4, 17-point) stencil of examples/stencil_tiled_kernels.h
 * (wide_point) over the interior [4, nx-4) x [4, ny-4), 16 x 32 tiles staged with a halo
 * of 4 in shared memory: one block of 32 x 16 threads per tile, what wide_tiled does with
 * a team of 16 x 32. */
cudaError_t raw_wide_tiled(double *out, const double *in, int64_t nx, int64_t ny, double alpha,
                           cudaStream_t st);

/* An empty kernel, one block of `threads` threads. */
cudaError_t raw_team_empty(int threads, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
