/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The baselines of bench_team, as an expert would write them: cuSPARSE for SpMV and (for
 * bench_linalg) SpMM (handle, descriptors, work buffer and preprocessing made once),
 * shared-memory tiled stencils (5-point and radius 4) with static shared memory and
 * compile-time tile sizes, an empty kernel. */
#include "raw_team.h"

#include <cstdio>
#include <cstdlib>

#include <cusparse.h>

#include "stencil_tiled_kernels.h" /* stencil_point, wide_point: the same arithmetic as portex's */

/* ---- SpMV: cuSPARSE ----------------------------------------------------------------- */

struct raw_spmv {
    cusparseHandle_t handle;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t x, y;
    void *buffer;
};

static const char *spmv_error = "none";

#define SP(call)                                 \
    do {                                         \
        cusparseStatus_t sp_st_ = (call);        \
        if (sp_st_ != CUSPARSE_STATUS_SUCCESS) { \
            spmv_error = #call;                  \
            return 1;                            \
        }                                        \
    } while (0)

extern "C" const char *raw_spmv_error(void) { return spmv_error; }

extern "C" int raw_spmv_create(raw_spmv **out, int64_t nrows, int64_t nnz, int32_t *row,
                               int32_t *col, double *val, double *x, double *y, cudaStream_t st)
{
    raw_spmv *s = (raw_spmv *)calloc(1, sizeof *s);
    if (!s) return 1;
    *out = s;
    SP(cusparseCreate(&s->handle));
    SP(cusparseSetStream(s->handle, st));
    SP(cusparseCreateCsr(&s->a, nrows, nrows, nnz, row, col, val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    SP(cusparseCreateDnVec(&s->x, nrows, x, CUDA_R_64F));
    SP(cusparseCreateDnVec(&s->y, nrows, y, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    size_t bytes = 0;
    SP(cusparseSpMV_bufferSize(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero,
                               s->y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    if (bytes > 0 && cudaMalloc(&s->buffer, bytes) != cudaSuccess) {
        spmv_error = "cudaMalloc of the SpMV buffer";
        return 1;
    }
    /* The preprocessing cuSPARSE offers: done once, outside the timing, as a user would. */
    SP(cusparseSpMV_preprocess(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero,
                               s->y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, s->buffer));
    return 0;
}

extern "C" int raw_spmv_run(raw_spmv *s)
{
    const double one = 1.0, zero = 0.0;
    SP(cusparseSpMV(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero, s->y,
                    CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, s->buffer));
    return 0;
}

extern "C" void raw_spmv_destroy(raw_spmv *s)
{
    if (!s) return;
    if (s->y) cusparseDestroyDnVec(s->y);
    if (s->x) cusparseDestroyDnVec(s->x);
    if (s->a) cusparseDestroySpMat(s->a);
    if (s->handle) cusparseDestroy(s->handle);
    cudaFree(s->buffer);
    free(s);
}

/* ---- SpMM: cuSPARSE ----------------------------------------------------------------- */

struct raw_spmm {
    cusparseHandle_t handle;
    cusparseConstSpMatDescr_t a; /* its own: preprocessing binds one buffer to a descriptor */
    cusparseConstDnMatDescr_t x;
    cusparseDnMatDescr_t y;
    cusparseSpMMAlg_t alg;
    void *buffer;
};

static char spmm_error[192] = "none";

/* Records what failed (and cuSPARSE's name for why) for raw_spmm_error; returns 1. */
static int spmm_fail(const char *what, const char *why)
{
    snprintf(spmm_error, sizeof spmm_error, "%s (%s)", what, why);
    return 1;
}

#define SPM(what, call)                                            \
    do {                                                           \
        cusparseStatus_t spm_st_ = (call);                         \
        if (spm_st_ != CUSPARSE_STATUS_SUCCESS)                    \
            return spmm_fail(what, cusparseGetErrorName(spm_st_)); \
    } while (0)

extern "C" const char *raw_spmm_error(void) { return spmm_error; }

extern "C" const char *raw_spmm_alg_name(raw_spmm_alg alg)
{
    switch (alg) {
    case RAW_SPMM_DEFAULT: return "DEFAULT";
    case RAW_SPMM_CSR_ALG1: return "ALG1";
    case RAW_SPMM_CSR_ALG2: return "ALG2";
    case RAW_SPMM_CSR_ALG3: return "ALG3";
    default: return "?";
    }
}

static bool spmm_alg(raw_spmm_alg alg, cusparseSpMMAlg_t *out)
{
    switch (alg) {
    case RAW_SPMM_DEFAULT: *out = CUSPARSE_SPMM_ALG_DEFAULT; return true;
    case RAW_SPMM_CSR_ALG1: *out = CUSPARSE_SPMM_CSR_ALG1; return true;
    case RAW_SPMM_CSR_ALG2: *out = CUSPARSE_SPMM_CSR_ALG2; return true;
    case RAW_SPMM_CSR_ALG3: *out = CUSPARSE_SPMM_CSR_ALG3; return true;
    default: return false;
    }
}

/* The setup of raw_spmm_create; on failure the caller destroys what it made. */
static int spmm_setup(raw_spmm *s, int64_t nrows, int64_t ncols, int64_t nnz, int32_t *row,
                      int32_t *col, double *val, int64_t k, int row_major, double *x, double *y,
                      cudaStream_t st)
{
    const cusparseOrder_t order = row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    SPM("cusparseCreate", cusparseCreate(&s->handle));
    SPM("cusparseSetStream", cusparseSetStream(s->handle, st));
    SPM("cusparseCreateConstCsr",
        cusparseCreateConstCsr(&s->a, nrows, ncols, nnz, row, col, val, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    SPM("cusparseCreateConstDnMat (X)",
        cusparseCreateConstDnMat(&s->x, ncols, k, row_major ? k : ncols, x, CUDA_R_64F, order));
    SPM("cusparseCreateDnMat (Y)",
        cusparseCreateDnMat(&s->y, nrows, k, row_major ? k : nrows, y, CUDA_R_64F, order));
    const double one = 1.0, zero = 0.0;
    const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    SPM("cusparseSpMM_bufferSize", cusparseSpMM_bufferSize(s->handle, n, n, &one, s->a, s->x, &zero,
                                                           s->y, CUDA_R_64F, s->alg, &bytes));
    if (bytes > 0) {
        const cudaError_t e = cudaMalloc(&s->buffer, bytes);
        if (e != cudaSuccess) {
            s->buffer = NULL;
            (void)cudaGetLastError(); /* not left for the next launch's check to find */
            return spmm_fail("cudaMalloc of the SpMM buffer", cudaGetErrorName(e));
        }
    }
    /* The preprocessing cuSPARSE offers (it speeds up CSR_ALG1 and CSR_ALG3 and does nothing
       for the others): done once, outside the timing, as a user would. */
    SPM("cusparseSpMM_preprocess", cusparseSpMM_preprocess(s->handle, n, n, &one, s->a, s->x, &zero,
                                                           s->y, CUDA_R_64F, s->alg, s->buffer));
    return 0;
}

extern "C" int raw_spmm_create(raw_spmm **out, int64_t nrows, int64_t ncols, int64_t nnz,
                               int32_t *row, int32_t *col, double *val, int64_t k, int row_major,
                               double *x, double *y, raw_spmm_alg alg, cudaStream_t st)
{
    *out = NULL;
    raw_spmm *s = (raw_spmm *)calloc(1, sizeof *s);
    if (!s) return spmm_fail("calloc", "out of host memory");
    if (!spmm_alg(alg, &s->alg)) {
        free(s);
        return spmm_fail("raw_spmm_create", "unknown algorithm");
    }
    if (spmm_setup(s, nrows, ncols, nnz, row, col, val, k, row_major, x, y, st) != 0) {
        raw_spmm_destroy(s);
        return 1;
    }
    *out = s;
    return 0;
}

extern "C" int raw_spmm_run(raw_spmm *s)
{
    const double one = 1.0, zero = 0.0;
    const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
    SPM("cusparseSpMM", cusparseSpMM(s->handle, n, n, &one, s->a, s->x, &zero, s->y, CUDA_R_64F,
                                     s->alg, s->buffer));
    return 0;
}

extern "C" void raw_spmm_destroy(raw_spmm *s)
{
    if (!s) return;
    if (s->y) cusparseDestroyDnMat(s->y);
    if (s->x) cusparseDestroyDnMat(s->x);
    if (s->a) cusparseDestroySpMat(s->a);
    if (s->handle) cusparseDestroy(s->handle);
    cudaFree(s->buffer);
    free(s);
}

/* ---- Tiled stencil ------------------------------------------------------------------ */

namespace {

/* The points of the two stencils, on a tile whose rows are `row` elements apart. */
struct five_point_at {
    static __device__ double at(const double *t, int row, double alpha)
    {
        return stencil_point(t[0], t[-row], t[row], t[-1], t[1], alpha);
    }
};

struct wide_at {
    static __device__ double at(const double *t, int row, double alpha)
    {
        return wide_point(t, row, alpha);
    }
};

/* A TI x TJ tile of the interior and a halo of R staged in shared memory by a block of TJ x
 * TI threads (threadIdx.x: a column of the tile, threadIdx.y: a row), then one point per
 * thread: the same staging (rows over threads, columns over lanes) and the same arithmetic
 * as portex's stencil_tiled and wide_tiled. */
template <int R, int TI, int TJ, class Point>
__global__ void __launch_bounds__(TI *TJ)
    tiled_kernel(double *__restrict__ out, const double *__restrict__ in, int nx, int ny,
                 double alpha)
{
    __shared__ double tile[TI + 2 * R][TJ + 2 * R];
    const int i0 = R + (int)blockIdx.y * TI, j0 = R + (int)blockIdx.x * TJ;
    for (int r = threadIdx.y; r < TI + 2 * R; r += TI)
        for (int c = threadIdx.x; c < TJ + 2 * R; c += TJ) {
            const int i = i0 - R + r, j = j0 - R + c;
            if (i < nx && j < ny) tile[r][c] = in[(int64_t)i * ny + j];
        }
    __syncthreads();
    const int r = threadIdx.y + R, c = threadIdx.x + R;
    const int i = i0 + r - R, j = j0 + c - R;
    if (i < nx - R && j < ny - R)
        out[(int64_t)i * ny + j] = Point::at(&tile[r][c], TJ + 2 * R, alpha);
}

template <int R, int TI, int TJ, class Point>
cudaError_t launch_tiled(double *out, const double *in, int64_t nx, int64_t ny, double alpha,
                         cudaStream_t st)
{
    if (nx <= 2 * R || ny <= 2 * R || nx > 1 << 20 || ny > 1 << 20) return cudaErrorInvalidValue;
    const dim3 grid((unsigned)((ny - 2 * R + TJ - 1) / TJ), (unsigned)((nx - 2 * R + TI - 1) / TI));
    if (grid.y > 65535) return cudaErrorInvalidValue; /* the most blocks in y */
    tiled_kernel<R, TI, TJ, Point><<<grid, dim3(TJ, TI), 0, st>>>(out, in, (int)nx, (int)ny, alpha);
    return cudaGetLastError();
}

__global__ void empty_kernel() {}

} // namespace

extern "C" cudaError_t raw_stencil_tiled(double *out, const double *in, int64_t nx, int64_t ny,
                                         double alpha, cudaStream_t st)
{
    return launch_tiled<1, 8, 32, five_point_at>(out, in, nx, ny, alpha, st);
}

extern "C" cudaError_t raw_wide_tiled(double *out, const double *in, int64_t nx, int64_t ny,
                                      double alpha, cudaStream_t st)
{
    return launch_tiled<WIDE_R, 16, 32, wide_at>(out, in, nx, ny, alpha, st);
}

extern "C" cudaError_t raw_team_empty(int threads, cudaStream_t st)
{
    empty_kernel<<<1, threads, 0, st>>>();
    return cudaGetLastError();
}
