/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Raw CUDA histogram and assembly with atomicAdd (raw_scatter.h): what a CUDA programmer
 * writes without portex. */
#include "raw_scatter.h"

namespace {

constexpr int block = 256;

__global__ void __launch_bounds__(block)
    hist(const double *__restrict__ x, long long n, double nbins, int *counts)
{
    const long long i = (long long)blockIdx.x * block + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&counts[(long long)(x[i] * nbins)], 1);
}

__global__ void __launch_bounds__(block)
    hist_plain_loads(const double *x, long long n, double nbins, int *counts)
{
    const long long i = (long long)blockIdx.x * block + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&counts[(long long)(x[i] * nbins)], 1);
}

template <int Dim>
__global__ void __launch_bounds__(block)
    fem(const double *__restrict__ w, long long nx, long long ny, long long n, double *nodes)
{
    const long long e = (long long)blockIdx.x * block + threadIdx.x;
    if (e >= n) return;
    const long long i = e % nx, j = e / nx % ny, k = e / nx / ny;
    const long long row = nx + 1, plane = row * (ny + 1), n0 = (k * (ny + 1) + j) * row + i;
    const double v = (Dim == 2 ? 0.25 : 0.125) * w[e];
#pragma unroll
    for (int c = 0; c < (Dim == 2 ? 4 : 8); ++c)
        atomicAdd(&nodes[n0 + (c & 1) + (c >> 1 & 1) * row + (c >> 2) * plane], v);
}

unsigned grid_of(long long n) { return (unsigned)((n + block - 1) / block); }

} // namespace

extern "C" cudaError_t raw_scatter_hist(const double *x, int64_t n, double nbins, int32_t *counts,
                                        cudaStream_t s)
{
    if (n <= 0) return cudaSuccess;
    hist<<<grid_of(n), block, 0, s>>>(x, n, nbins, counts);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_scatter_hist_plain_loads(const double *x, int64_t n, double nbins,
                                                    int32_t *counts, cudaStream_t s)
{
    if (n <= 0) return cudaSuccess;
    hist_plain_loads<<<grid_of(n), block, 0, s>>>(x, n, nbins, counts);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_scatter_fem(const double *w, int64_t nx, int64_t ny, int64_t nz, int dim,
                                       double *nodes, cudaStream_t s)
{
    const long long n = (long long)nx * ny * nz;
    if (n <= 0) return cudaSuccess;
    if (dim == 2)
        fem<2><<<grid_of(n), block, 0, s>>>(w, nx, ny, n, nodes);
    else
        fem<3><<<grid_of(n), block, 0, s>>>(w, nx, ny, n, nodes);
    return cudaGetLastError();
}
