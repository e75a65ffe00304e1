/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The baselines portex is measured against, written as an expert would write them by hand
 * (restrict pointers, 32-bit indices where the counts allow, CUB for reductions and
 * scans with storage allocated once by the caller), and the harness kernels. */
#include "raw_kernels.h"

#include <cstring>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

namespace {

constexpr int block = 256;
constexpr int64_t max_count = INT32_MAX;

/* ---- Baselines ---------------------------------------------------------------------- */

__global__ void __launch_bounds__(block)
    triad_flat(double *__restrict__ a, const double *__restrict__ b, const double *__restrict__ c,
               double s, unsigned n)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    if (i < n) a[i] = b[i] + s * c[i];
}

__global__ void __launch_bounds__(block)
    triad_gridstride(double *__restrict__ a, const double *__restrict__ b,
                     const double *__restrict__ c, double s, unsigned n)
{
    const unsigned stride = gridDim.x * block;
    for (unsigned i = blockIdx.x * block + threadIdx.x; i < n; i += stride) a[i] = b[i] + s * c[i];
}

/* TransformReduce's transform: index -> x[i] * y[i]. */
struct dot_term {
    const double *x, *y;
    __device__ __forceinline__ double operator()(int i) const { return x[i] * y[i]; }
};

__global__ void __launch_bounds__(block)
    dot_small(const double *__restrict__ x, const double *__restrict__ y, int n, double *out)
{
    double acc = 0.0;
    for (int i = threadIdx.x; i < n; i += block) acc += x[i] * y[i];
    using reduce = cub::BlockReduce<double, block>;
    __shared__ typename reduce::TempStorage tmp;
    const double sum = reduce(tmp).Sum(acc);
    if (threadIdx.x == 0) *out = sum;
}

__global__ void __launch_bounds__(32 * 8)
    scale2d(double *__restrict__ out, const double *__restrict__ in, double s, int rows, int cols)
{
    const int j = blockIdx.x * 32 + threadIdx.x;
    const int i = blockIdx.y * 8 + threadIdx.y;
    if (i < rows && j < cols) {
        const size_t k = (size_t)i * (size_t)cols + (size_t)j;
        out[k] = s * in[k];
    }
}

__global__ void empty_kernel(int) {}

/* ---- Harness ------------------------------------------------------------------------ */

__device__ __forceinline__ uint64_t splitmix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

__device__ __forceinline__ uint64_t hash_at(uint64_t seed, int64_t i)
{
    return splitmix64(seed * 0x9e3779b97f4a7c15ull + (uint64_t)i * 0xd1b54a32d192ed03ull + 1);
}

__global__ void fill_f64(double *p, int64_t n, uint64_t seed)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = (double)((hash_at(seed, i) >> 11) + 1) * 0x1.0p-53;
}

__global__ void fill_i64(int64_t *p, int64_t n, uint64_t seed)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = (int64_t)(hash_at(seed, i) >> 44) + 1;
}

/* Non-negative doubles order as their bit patterns, so atomicMax on the bits is a max. */
__global__ void __launch_bounds__(block)
    max_rel_diff(const double *a, const double *ref, int64_t n, unsigned long long *out)
{
    double m = 0.0;
    for (int64_t i = blockIdx.x * (int64_t)block + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * block) {
        const double r = fabs(ref[i]);
        double d = fabs(a[i] - ref[i]) / (r > 0.0 ? r : 1.0);
        if (!(d <= 1.0e308)) d = INFINITY; /* NaN or infinity */
        m = fmax(m, d);
    }
    using reduce = cub::BlockReduce<double, block>;
    __shared__ typename reduce::TempStorage tmp;
    const double bm = reduce(tmp).Reduce(m, cuda::maximum<double>{});
    if (threadIdx.x == 0) atomicMax(out, (unsigned long long)__double_as_longlong(bm));
}

__global__ void __launch_bounds__(block)
    count_diff(const int64_t *a, const int64_t *ref, int64_t n, unsigned long long *out)
{
    unsigned long long c = 0;
    for (int64_t i = blockIdx.x * (int64_t)block + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * block)
        c += a[i] != ref[i];
    using reduce = cub::BlockReduce<unsigned long long, block>;
    __shared__ typename reduce::TempStorage tmp;
    const unsigned long long bc = reduce(tmp).Sum(c);
    if (threadIdx.x == 0 && bc != 0) atomicAdd(out, bc);
}

/* Harness grids: a few waves are plenty for kernels that are not timed. */
unsigned harness_blocks(int64_t n)
{
    const int64_t want = (n + block - 1) / block;
    return (unsigned)(want < 4096 ? (want > 0 ? want : 1) : 4096);
}

/* Runs a comparison kernel into a zeroed device word, then reads the word back. */
template <class Launch>
cudaError_t reduce_to_host(unsigned long long *host, cudaStream_t st, Launch launch)
{
    unsigned long long *d = nullptr;
    cudaError_t e = cudaMallocAsync(reinterpret_cast<void **>(&d), sizeof *d, st);
    if (e != cudaSuccess) return e;
    e = cudaMemsetAsync(d, 0, sizeof *d, st);
    if (e == cudaSuccess) {
        launch(d);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(host, d, sizeof *d, cudaMemcpyDeviceToHost, st);
    const cudaError_t f = cudaFreeAsync(d, st);
    if (e == cudaSuccess) e = f;
    const cudaError_t g = cudaStreamSynchronize(st);
    return e != cudaSuccess ? e : g;
}

} /* namespace */

/* ---- The C interface ------------------------------------------------------------------ */

extern "C" cudaError_t raw_triad_flat(double *a, const double *b, const double *c, double s,
                                      int64_t n, cudaStream_t st)
{
    if (n < 0 || n > max_count) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    triad_flat<<<(unsigned)((n + block - 1) / block), block, 0, st>>>(a, b, c, s, (unsigned)n);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_triad_gridstride(double *a, const double *b, const double *c, double s,
                                            int64_t n, int blocks, cudaStream_t st)
{
    if (n < 0 || n > max_count || blocks <= 0) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    /* A wave, or fewer blocks when the range does not need them all. */
    const int64_t need = (n + block - 1) / block;
    const unsigned grid = (unsigned)(need < blocks ? need : blocks);
    triad_gridstride<<<grid, block, 0, st>>>(a, b, c, s, (unsigned)n);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_triad_gridstride_blocks(int device, int *blocks)
{
    int sms = 0, per_sm = 0;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, triad_gridstride, block, 0);
    if (e == cudaSuccess) *blocks = sms * (per_sm > 0 ? per_sm : 1);
    return e;
}

extern "C" cudaError_t raw_dot_cub(void *tmp, size_t *tmp_bytes, const double *x, const double *y,
                                   int64_t n, double *out, cudaStream_t st)
{
    if (n < 0 || n > max_count) return cudaErrorInvalidValue;
    const cudaError_t e = cub::DeviceReduce::TransformReduce(
        tmp, *tmp_bytes, thrust::counting_iterator<int>(0), out, (int)n, cuda::std::plus<double>{},
        dot_term{x, y}, 0.0, st);
    return e != cudaSuccess ? e : cudaGetLastError();
}

extern "C" cudaError_t raw_dot_small(const double *x, const double *y, int64_t n, double *out,
                                     cudaStream_t st)
{
    if (n < 0 || n > max_count) return cudaErrorInvalidValue;
    dot_small<<<1, block, 0, st>>>(x, y, (int)n, out);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_scale2d(double *out, const double *in, double s, int64_t rows,
                                   int64_t cols, cudaStream_t st)
{
    if (rows <= 0 || cols <= 0 || rows > max_count || cols > max_count || (rows + 7) / 8 > 65535)
        return cudaErrorInvalidValue;
    const dim3 grid((unsigned)((cols + 31) / 32), (unsigned)((rows + 7) / 8));
    scale2d<<<grid, dim3(32, 8), 0, st>>>(out, in, s, (int)rows, (int)cols);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_scan_cub(void *tmp, size_t *tmp_bytes, const int64_t *in, int64_t *out,
                                    int64_t n, cudaStream_t st)
{
    if (n < 0 || n > max_count) return cudaErrorInvalidValue;
    const cudaError_t e = cub::DeviceScan::InclusiveSum(tmp, *tmp_bytes, in, out, (int)n, st);
    return e != cudaSuccess ? e : cudaGetLastError();
}

template <class T>
static cudaError_t prefix_sum_cub(void *tmp, size_t *tmp_bytes, const void *in, void *out, int n,
                                  bool exclusive, cudaStream_t st)
{
    const T *x = static_cast<const T *>(in);
    T *y = static_cast<T *>(out);
    return exclusive ? cub::DeviceScan::ExclusiveSum(tmp, *tmp_bytes, x, y, n, st)
                     : cub::DeviceScan::InclusiveSum(tmp, *tmp_bytes, x, y, n, st);
}

extern "C" cudaError_t raw_prefix_sum_cub(void *tmp, size_t *tmp_bytes, const void *in, void *out,
                                          int64_t n, bool f64, bool exclusive, cudaStream_t st)
{
    if (n < 0 || n > max_count) return cudaErrorInvalidValue;
    const cudaError_t e =
        f64 ? prefix_sum_cub<double>(tmp, tmp_bytes, in, out, (int)n, exclusive, st)
            : prefix_sum_cub<int64_t>(tmp, tmp_bytes, in, out, (int)n, exclusive, st);
    return e != cudaSuccess ? e : cudaGetLastError();
}

extern "C" cudaError_t raw_empty(cudaStream_t st)
{
    empty_kernel<<<1, block, 0, st>>>(0);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_fill_f64(double *p, int64_t n, uint64_t seed, cudaStream_t st)
{
    fill_f64<<<harness_blocks(n), block, 0, st>>>(p, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_fill_i64(int64_t *p, int64_t n, uint64_t seed, cudaStream_t st)
{
    fill_i64<<<harness_blocks(n), block, 0, st>>>(p, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_max_rel_diff_f64(const double *a, const double *ref, int64_t n,
                                            double *out, cudaStream_t st)
{
    unsigned long long bits = 0;
    const cudaError_t e = reduce_to_host(&bits, st, [&](unsigned long long *d) {
        max_rel_diff<<<harness_blocks(n), block, 0, st>>>(a, ref, n, d);
    });
    double v;
    memcpy(&v, &bits, sizeof v);
    *out = v;
    return e;
}

extern "C" cudaError_t raw_count_diff_i64(const int64_t *a, const int64_t *ref, int64_t n,
                                          int64_t *out, cudaStream_t st)
{
    unsigned long long count = 0;
    const cudaError_t e = reduce_to_host(&count, st, [&](unsigned long long *d) {
        count_diff<<<harness_blocks(n), block, 0, st>>>(a, ref, n, d);
    });
    *out = (int64_t)count;
    return e;
}
