/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw baselines of bench_linalg behind a C interface (raw_blas.cu defines them): cuBLAS's
 * double-precision BLAS-1 and GEMV, and a plain CUDA kernel for y = a x + b y (cuBLAS has no
 * axpby). Every function queues its work on the stream given at creation (raw_axpby: on
 * `st`) and returns 0, or nonzero after the first error it met (raw_blas_error names it). */
#ifndef RAW_BLAS_H
#define RAW_BLAS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Two cuBLAS handles on one stream: one in CUBLAS_POINTER_MODE_HOST (scalars and results
 * in host memory: dot and nrm2 wait for their result), one in CUBLAS_POINTER_MODE_DEVICE
 * (results in device memory: asynchronous). Made once, outside any timing. */
typedef struct raw_blas raw_blas;
int raw_blas_create(raw_blas **out, cudaStream_t st);
void raw_blas_destroy(raw_blas *b);
/* The call a raw_blas_* function that returned nonzero failed on, and cuBLAS's status. */
const char *raw_blas_error(void);

/* y = a x + y (cublasDaxpy). */
int raw_blas_axpy(raw_blas *b, int64_t n, double a, const double *x, double *y);
/* x = a x (cublasDscal). */
int raw_blas_scal(raw_blas *b, int64_t n, double a, double *x);
/* *result = x . y (cublasDdot): _host into host memory (waits), _device into device
 * memory (asynchronous). */
int raw_blas_dot_host(raw_blas *b, int64_t n, const double *x, const double *y, double *result);
int raw_blas_dot_device(raw_blas *b, int64_t n, const double *x, const double *y, double *result);
/* *result = ||x||_2 (cublasDnrm2), the same two ways. */
int raw_blas_nrm2_host(raw_blas *b, int64_t n, const double *x, double *result);
int raw_blas_nrm2_device(raw_blas *b, int64_t n, const double *x, double *result);
/* y = alpha op(A) x + beta y for a ROW-major m x n matrix A (cublasDgemv, which reads
 * column-major: A's memory is, to it, the n x m matrix A^T with leading dimension n, so
 * transposed = 0, y = A x, is its CUBLAS_OP_T, and transposed = 1, y = A^T x, its
 * CUBLAS_OP_N). x holds n elements (m transposed), y the other count. */
int raw_blas_gemv_rowmajor(raw_blas *b, int transposed, int64_t m, int64_t n, double alpha,
                           const double *A, const double *x, double beta, double *y);

/* y = a x + b y, one element a thread, blocks of 256: what one writes for axpby in plain
 * CUDA. */
cudaError_t raw_axpby(int64_t n, double a, const double *x, double b, double *y, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
