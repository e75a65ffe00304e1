/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw baseline of bench_cg behind a C interface (raw_cg.cu defines it): the
 * conjugate-gradient method as an expert CUDA user writes it with cuSPARSE and cuBLAS and a
 * host loop (as NVIDIA's conjugateGradient sample), in exactly the arithmetic and order of
 * examples/cg_solve.c's host loop. Every function returns 0, or nonzero after the first
 * error it met (raw_cg_error names it). */
#ifndef RAW_CG_H
#define RAW_CG_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A solver for the square n x n CSR matrix on device arrays (32-bit offsets and indices,
 * double values; kept, not copied): _create makes, on stream `st`, a cuSPARSE handle, the
 * matrix's descriptor and those of p and Ap (cusparseSpMV, CUSPARSE_SPMV_ALG_DEFAULT: its
 * work buffer and cusparseSpMV_preprocess once, here), a cuBLAS handle in
 * CUBLAS_POINTER_MODE_HOST, and the vectors r, p and Ap on the device (cudaMalloc). Made
 * once, outside any timing. */
typedef struct raw_cg raw_cg;
int raw_cg_create(raw_cg **out, int64_t n, int64_t nnz, int32_t *row, int32_t *col, double *val,
                  cudaStream_t st);
void raw_cg_destroy(raw_cg *c);

/* Solves A x = b (b and x device arrays of n doubles) from x = 0 until r.r <= tol^2 b.b or
 * max_it iterations, on the stream:
 *   x = 0, r = b, p = b (cudaMemsetAsync, cudaMemcpyAsync), bb = b.b (cublasDdot: waits),
 *   then, timed on the host clock (*seconds; the stream idle at its start):
 *   rr = r.r; while (rr > tol^2 bb && it < max_it) { Ap = A p (cusparseSpMV);
 *   pap = p.Ap (cublasDdot: the scalar comes back to the host, which decides);
 *   alpha = rr / pap; x += alpha p, r -= alpha Ap (cublasDaxpy); rr_next = r.r (cublasDdot);
 *   p = r + (rr_next / rr) p (one kernel); rr = rr_next; ++it; }
 * The clock stops when the loop ends, as cg_solve.c's does (its last p update may still be
 * running then: in both). *iterations: the iterations done; *residual: sqrt(rr / bb), |r| /
 * |b| at the end (0 where b = 0). */
int raw_cg_solve(raw_cg *c, const double *b, double *x, double tol, int max_it, int *iterations,
                 double *residual, double *seconds);

/* What a raw_cg_* call that returned nonzero failed on, with the library's name for why. */
const char *raw_cg_error(void);

#ifdef __cplusplus
}
#endif

#endif
