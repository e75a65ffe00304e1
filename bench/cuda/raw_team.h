/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw baselines of bench_team (and bench_linalg) behind a C interface (raw_team.cu
 * defines them): cuSPARSE's CSR SpMV and SpMM, hand-tiled shared-memory stencils (5-point
 * and radius 4), an empty kernel. Every function queues its work on `st` and returns the
 * first error it met. */
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

/* Y = A X for k vectors by cusparseSpMM (CSR, 32-bit offsets and indices, double, alpha 1,
 * beta 0, op N for A and X) on device arrays: X is ncols x k, Y nrows x k, both row-major
 * (CUSPARSE_ORDER_ROW, ld = k: a row's k values side by side) or both column-major
 * (CUSPARSE_ORDER_COL, ld = the rows: each vector contiguous). _create makes the handle,
 * the descriptors (its own of A: cusparseSpMM_preprocess keeps one active buffer per
 * matrix descriptor), the work buffer and the preprocessing (once: not timed); where
 * cuSPARSE refuses the algorithm for that order or shape it returns nonzero with nothing
 * left allocated and *out NULL. _run queues one product on the stream given at creation. */
typedef enum raw_spmm_alg {
    RAW_SPMM_DEFAULT = 0, /* CUSPARSE_SPMM_ALG_DEFAULT */
    RAW_SPMM_CSR_ALG1,    /* CUSPARSE_SPMM_CSR_ALG1 */
    RAW_SPMM_CSR_ALG2,    /* CUSPARSE_SPMM_CSR_ALG2 */
    RAW_SPMM_CSR_ALG3,    /* CUSPARSE_SPMM_CSR_ALG3 */
    RAW_SPMM_ALGS         /* how many */
} raw_spmm_alg;
typedef struct raw_spmm raw_spmm;
int raw_spmm_create(raw_spmm **out, int64_t nrows, int64_t ncols, int64_t nnz, int32_t *row,
                    int32_t *col, double *val, int64_t k, int row_major, double *x, double *y,
                    raw_spmm_alg alg, cudaStream_t st);
int raw_spmm_run(raw_spmm *s);
void raw_spmm_destroy(raw_spmm *s);
/* "DEFAULT", "ALG1", "ALG2", "ALG3" (the CSR algorithms); "?" outside raw_spmm_alg. */
const char *raw_spmm_alg_name(raw_spmm_alg alg);
/* What a raw_spmm_* call that returned nonzero failed on, with cuSPARSE's status name. */
const char *raw_spmm_error(void);

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
