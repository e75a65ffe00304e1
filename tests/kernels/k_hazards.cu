/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Raw CUDA kernels of the hazard suites: see k_hazards.h. */
#include "k_hazards.h"

namespace {

__device__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ void wait_ns(unsigned long long ns)
{
    const unsigned long long t0 = global_ns();
    while (global_ns() - t0 < ns) __nanosleep(1000);
}

__global__ void k_spin(unsigned long long ns) { wait_ns(ns); }

__global__ void k_spin_trap(unsigned long long ns)
{
    wait_ns(ns);
    __trap();
}

__global__ void k_spin_checksum(unsigned long long ns, const uint64_t *v, long long n,
                                unsigned long long *sum)
{
    if (threadIdx.x == 0) wait_ns(ns);
    __syncthreads();
    unsigned long long acc = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += HZ_MIX(i, v[i]);
    atomicAdd(sum, acc);
}

/* Makes `device` current for one launch. */
struct on_device {
    int saved = -1;
    cudaError_t err = cudaSuccess;
    explicit on_device(int device)
    {
        int cur = -1;
        err = cudaGetDevice(&cur);
        if (err == cudaSuccess && cur != device) {
            err = cudaSetDevice(device);
            if (err == cudaSuccess) saved = cur;
        }
    }
    ~on_device()
    {
        if (saved >= 0) (void)cudaSetDevice(saved);
    }
};

} // namespace

extern "C" cudaError_t hz_spin(int device, cudaStream_t s, uint64_t ns)
{
    on_device d(device);
    if (d.err != cudaSuccess) return d.err;
    k_spin<<<1, 1, 0, s>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t hz_spin_trap(int device, cudaStream_t s, uint64_t ns)
{
    on_device d(device);
    if (d.err != cudaSuccess) return d.err;
    k_spin_trap<<<1, 1, 0, s>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t hz_spin_checksum(int device, cudaStream_t s, uint64_t ns, const uint64_t *v,
                                        int64_t n, unsigned long long *sum)
{
    on_device d(device);
    if (d.err != cudaSuccess) return d.err;
    int sms = 0;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    /* One block of 256 threads per SM (a block that starts late only reads later). The grid
       is a variable of its own: clang-format reads a conditional inside <<< >>> as shifts. */
    const int grid = sms > 0 ? sms : 1;
    k_spin_checksum<<<grid, 256, 0, s>>>(ns, v, (long long)n, sum);
    return cudaGetLastError();
}
