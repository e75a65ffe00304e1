/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The baselines of bench_linalg's BLAS rows, as a user would call them: cuBLAS (handles made
 * once, on the stream portex uses) for axpy, scal, dot, nrm2 and gemv, and a plain CUDA
 * kernel for axpby, which cuBLAS lacks. */
#include "raw_blas.h"

#include <climits>
#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>

struct raw_blas {
    cublasHandle_t host; /* CUBLAS_POINTER_MODE_HOST */
    cublasHandle_t dev;  /* CUBLAS_POINTER_MODE_DEVICE */
};

static char blas_error[256] = "none";

static int fail(const char *call, cublasStatus_t st)
{
    snprintf(blas_error, sizeof blas_error, "%s: %s (%d)", call, cublasGetStatusString(st),
             (int)st);
    return 1;
}

#define CB(call)                                                         \
    do {                                                                 \
        const cublasStatus_t cb_st_ = (call);                            \
        if (cb_st_ != CUBLAS_STATUS_SUCCESS) return fail(#call, cb_st_); \
    } while (0)

/* cuBLAS's sizes are int here (the _64 entries are not what most code calls). */
#define FITS_INT(n)                                                                     \
    do {                                                                                \
        if ((n) < 0 || (n) > INT_MAX) {                                                 \
            snprintf(blas_error, sizeof blas_error, "%s = %lld: past cuBLAS's int", #n, \
                     (long long)(n));                                                   \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

extern "C" const char *raw_blas_error(void) { return blas_error; }

extern "C" int raw_blas_create(raw_blas **out, cudaStream_t st)
{
    raw_blas *b = (raw_blas *)calloc(1, sizeof *b);
    *out = b;
    if (!b) {
        snprintf(blas_error, sizeof blas_error, "raw_blas_create: out of host memory");
        return 1;
    }
    CB(cublasCreate(&b->host));
    CB(cublasSetStream(b->host, st));
    CB(cublasSetPointerMode(b->host, CUBLAS_POINTER_MODE_HOST));
    CB(cublasCreate(&b->dev));
    CB(cublasSetStream(b->dev, st));
    CB(cublasSetPointerMode(b->dev, CUBLAS_POINTER_MODE_DEVICE));
    return 0;
}

extern "C" void raw_blas_destroy(raw_blas *b)
{
    if (!b) return;
    if (b->dev) cublasDestroy(b->dev);
    if (b->host) cublasDestroy(b->host);
    free(b);
}

extern "C" int raw_blas_axpy(raw_blas *b, int64_t n, double a, const double *x, double *y)
{
    FITS_INT(n);
    CB(cublasDaxpy(b->host, (int)n, &a, x, 1, y, 1));
    return 0;
}

extern "C" int raw_blas_scal(raw_blas *b, int64_t n, double a, double *x)
{
    FITS_INT(n);
    CB(cublasDscal(b->host, (int)n, &a, x, 1));
    return 0;
}

extern "C" int raw_blas_dot_host(raw_blas *b, int64_t n, const double *x, const double *y,
                                 double *result)
{
    FITS_INT(n);
    CB(cublasDdot(b->host, (int)n, x, 1, y, 1, result));
    return 0;
}

extern "C" int raw_blas_dot_device(raw_blas *b, int64_t n, const double *x, const double *y,
                                   double *result)
{
    FITS_INT(n);
    CB(cublasDdot(b->dev, (int)n, x, 1, y, 1, result));
    return 0;
}

extern "C" int raw_blas_nrm2_host(raw_blas *b, int64_t n, const double *x, double *result)
{
    FITS_INT(n);
    CB(cublasDnrm2(b->host, (int)n, x, 1, result));
    return 0;
}

extern "C" int raw_blas_nrm2_device(raw_blas *b, int64_t n, const double *x, double *result)
{
    FITS_INT(n);
    CB(cublasDnrm2(b->dev, (int)n, x, 1, result));
    return 0;
}

extern "C" int raw_blas_gemv_rowmajor(raw_blas *b, int transposed, int64_t m, int64_t n,
                                      double alpha, const double *A, const double *x, double beta,
                                      double *y)
{
    FITS_INT(m);
    FITS_INT(n);
    /* Column-major, A's memory is the n x m matrix A^T (leading dimension n): A x is
       op T of it, A^T x op N. */
    const cublasOperation_t op = transposed ? CUBLAS_OP_N : CUBLAS_OP_T;
    CB(cublasDgemv(b->host, op, (int)n, (int)m, &alpha, A, n > 0 ? (int)n : 1, x, 1, &beta, y, 1));
    return 0;
}

namespace {

__global__ void __launch_bounds__(256)
    axpby_kernel(int64_t n, double a, const double *__restrict__ x, double b,
                 double *__restrict__ y)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = b == 0.0 ? a * x[i] : a * x[i] + b * y[i]; /* b = 0 ignores y */
}

} // namespace

extern "C" cudaError_t raw_axpby(int64_t n, double a, const double *x, double b, double *y,
                                 cudaStream_t st)
{
    if (n <= 0) return cudaSuccess;
    const int64_t blocks = (n + 255) / 256;
    if (blocks > INT_MAX) return cudaErrorInvalidValue;
    axpby_kernel<<<(unsigned)blocks, 256, 0, st>>>(n, a, x, b, y);
    return cudaGetLastError();
}
