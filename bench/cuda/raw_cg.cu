/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The baseline of bench_cg, as an expert would write the conjugate-gradient method with
 * cuSPARSE and cuBLAS (NVIDIA's conjugateGradient sample's shape): handles, descriptors,
 * SpMV buffer and preprocessing and the vectors made once; each iteration's scalars back on
 * the host through cublasDdot in host pointer mode; p = r + beta p by raw_blas.cu's axpby
 * kernel (cuBLAS has no axpby). The arithmetic and its order are examples/cg_solve.c's host loop. */
#include "raw_cg.h"

#include "raw_blas.h"

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>
#include <cusparse.h>

struct raw_cg {
    int n;
    cudaStream_t st;
    cusparseHandle_t sparse;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t p_vec, ap_vec; /* SpMV's x and y: p and Ap */
    void *buffer;                       /* SpMV's work buffer */
    cublasHandle_t blas;                /* CUBLAS_POINTER_MODE_HOST */
    double *r, *p, *ap;
};

static char cg_error[256] = "none";

static int fail(const char *call, const char *why)
{
    snprintf(cg_error, sizeof cg_error, "%s: %s", call, why);
    return 1;
}

#define CUDA(call)                                                                 \
    do {                                                                           \
        const cudaError_t cuda_e_ = (call);                                        \
        if (cuda_e_ != cudaSuccess) return fail(#call, cudaGetErrorName(cuda_e_)); \
    } while (0)

#define SP(call)                                                                                 \
    do {                                                                                         \
        const cusparseStatus_t sp_st_ = (call);                                                  \
        if (sp_st_ != CUSPARSE_STATUS_SUCCESS) return fail(#call, cusparseGetErrorName(sp_st_)); \
    } while (0)

#define CB(call)                                                                                \
    do {                                                                                        \
        const cublasStatus_t cb_st_ = (call);                                                   \
        if (cb_st_ != CUBLAS_STATUS_SUCCESS) return fail(#call, cublasGetStatusString(cb_st_)); \
    } while (0)

extern "C" const char *raw_cg_error(void) { return cg_error; }

extern "C" void raw_cg_destroy(raw_cg *c)
{
    if (!c) return;
    if (c->blas) cublasDestroy(c->blas);
    if (c->ap_vec) cusparseDestroyDnVec(c->ap_vec);
    if (c->p_vec) cusparseDestroyDnVec(c->p_vec);
    if (c->a) cusparseDestroySpMat(c->a);
    if (c->sparse) cusparseDestroy(c->sparse);
    cudaFree(c->buffer);
    cudaFree(c->r);
    cudaFree(c->p);
    cudaFree(c->ap);
    free(c);
}

static int create(raw_cg *c, int64_t n, int64_t nnz, int32_t *row, int32_t *col, double *val)
{
    /* cuBLAS's sizes are int here (the _64 entries are not what most code calls). */
    if (n < 1 || n > INT_MAX || nnz < 0 || nnz > INT_MAX) return fail("raw_cg_create", "size");
    c->n = (int)n;
    const size_t bytes = (size_t)n * sizeof(double);
    CUDA(cudaMalloc(&c->r, bytes));
    CUDA(cudaMalloc(&c->p, bytes));
    CUDA(cudaMalloc(&c->ap, bytes));

    SP(cusparseCreate(&c->sparse));
    SP(cusparseSetStream(c->sparse, c->st));
    SP(cusparseCreateCsr(&c->a, n, n, nnz, row, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    SP(cusparseCreateDnVec(&c->p_vec, n, c->p, CUDA_R_64F));
    SP(cusparseCreateDnVec(&c->ap_vec, n, c->ap, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    size_t work = 0;
    SP(cusparseSpMV_bufferSize(c->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->p_vec,
                               &zero, c->ap_vec, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &work));
    if (work > 0) CUDA(cudaMalloc(&c->buffer, work));
    /* The preprocessing cuSPARSE offers for Ap = A p: once, outside the timing. */
    SP(cusparseSpMV_preprocess(c->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->p_vec,
                               &zero, c->ap_vec, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, c->buffer));

    CB(cublasCreate(&c->blas));
    CB(cublasSetStream(c->blas, c->st));
    CB(cublasSetPointerMode(c->blas, CUBLAS_POINTER_MODE_HOST));
    CUDA(cudaStreamSynchronize(c->st));
    return 0;
}

extern "C" int raw_cg_create(raw_cg **out, int64_t n, int64_t nnz, int32_t *row, int32_t *col,
                             double *val, cudaStream_t st)
{
    *out = NULL;
    raw_cg *c = (raw_cg *)calloc(1, sizeof *c);
    if (!c) return fail("raw_cg_create", "out of host memory");
    c->st = st;
    if (create(c, n, nnz, row, col, val) != 0) {
        raw_cg_destroy(c);
        return 1;
    }
    *out = c;
    return 0;
}

namespace {

double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

/* The loop of cg_solve.c's host_loop, call for call. */
static int loop(raw_cg *c, double *x, double stop, int max_it, int *it_out, double *rr_out)
{
    const int n = c->n;
    const double one = 1.0, zero = 0.0;
    double rr;
    CB(cublasDdot(c->blas, n, c->r, 1, c->r, 1, &rr));
    int it = 0;
    while (rr > stop && it < max_it) {
        double pap, rr_next;
        SP(cusparseSpMV(c->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->p_vec, &zero,
                        c->ap_vec, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, c->buffer));
        CB(cublasDdot(c->blas, n, c->p, 1, c->ap, 1, &pap)); /* waits: the scalars steer */
        const double alpha = rr / pap, minus_alpha = -alpha;
        CB(cublasDaxpy(c->blas, n, &alpha, c->p, 1, x, 1));
        CB(cublasDaxpy(c->blas, n, &minus_alpha, c->ap, 1, c->r, 1));
        CB(cublasDdot(c->blas, n, c->r, 1, c->r, 1, &rr_next));
        CUDA(raw_axpby(n, 1.0, c->r, rr_next / rr, c->p, c->st)); /* p = r + beta p */
        rr = rr_next;
        ++it;
    }
    *it_out = it;
    *rr_out = rr;
    return 0;
}

extern "C" int raw_cg_solve(raw_cg *c, const double *b, double *x, double tol, int max_it,
                            int *iterations, double *residual, double *seconds)
{
    const size_t bytes = (size_t)c->n * sizeof(double);
    /* x = 0, r = b, p = b; bb = b.b (host pointer mode: the call waits for it). */
    CUDA(cudaMemsetAsync(x, 0, bytes, c->st));
    CUDA(cudaMemcpyAsync(c->r, b, bytes, cudaMemcpyDeviceToDevice, c->st));
    CUDA(cudaMemcpyAsync(c->p, b, bytes, cudaMemcpyDeviceToDevice, c->st));
    double bb = 0.0, rr = 0.0;
    CB(cublasDdot(c->blas, c->n, b, 1, b, 1, &bb));
    CUDA(cudaStreamSynchronize(c->st)); /* the dot waited already: the clock starts idle */
    const double t0 = now_s();
    const int st = loop(c, x, tol * tol * bb, max_it, iterations, &rr);
    *seconds = now_s() - t0;
    *residual = bb > 0 ? std::sqrt(rr / bb) : 0.0;
    return st;
}
