/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// What CUDA itself does on two GPUs, raw CUDA only, for the two-GPU hazard and fault tests:
//
//   two_gpu_probe enable        how long cudaDeviceEnablePeerAccess takes, each way, while a
//                               1 s kernel runs on GPU 1, and the same for
//                               cudaMemPoolSetAccess on GPU 1's default pool
//   two_gpu_probe trap peer     a kernel traps on GPU 0, peer access enabled both ways
//                               first: do a copy, a kernel and a stream memory operation
//                               on a GPU 1 stream still work?
//   two_gpu_probe trap nopeer   the same without peer access
//
// .ci/gpu-pass two-gpu-probe runs it (one process per trap case: a trap is sticky).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

#include "probe.h"

__global__ void spin(unsigned long long ns)
{
    unsigned long long t0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 >= ns) break;
    }
}

__global__ void trap_kernel() { __trap(); }

__global__ void add_one(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}

static double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

static int enable_probe()
{
    cudaStream_t s1;
    CK(cudaSetDevice(1));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    cudaEvent_t done;
    CK(cudaEventCreate(&done));
    spin<<<1, 1, 0, s1>>>(1000000000ull);
    CK(cudaEventRecord(done, s1));
    // The busy GPU's access to the other's memory first, then the other way.
    for (int way = 0; way < 2; ++way) {
        const int from = way == 0 ? 1 : 0, to = 1 - from;
        if (way == 1) {
            CK(cudaSetDevice(1));
            spin<<<1, 1, 0, s1>>>(1000000000ull);
            CK(cudaEventRecord(done, s1));
        }
        CK(cudaSetDevice(from));
        auto t0 = std::chrono::steady_clock::now();
        cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
        const double enable_ms = ms_since(t0);
        const bool busy = cudaEventQuery(done) == cudaErrorNotReady;
        printf("cudaDeviceEnablePeerAccess(%d -> %d) with a 1 s kernel on GPU 1: %s in %.1f ms; "
               "GPU 1's kernel %s\n",
               from, to, cudaGetErrorString(e), enable_ms, busy ? "still running" : "finished");
        (void)cudaGetLastError();
        CK(cudaSetDevice(1));
        CK(cudaStreamSynchronize(s1));
    }
    auto t0 = std::chrono::steady_clock::now();
    cudaError_t e;
    spin<<<1, 1, 0, s1>>>(1000000000ull);
    CK(cudaEventRecord(done, s1));
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 1));
    cudaMemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location.type = cudaMemLocationTypeDevice;
    d.location.id = 0;
    d.flags = cudaMemAccessFlagsProtReadWrite;
    t0 = std::chrono::steady_clock::now();
    e = cudaMemPoolSetAccess(pool, &d, 1);
    const double pool_ms = ms_since(t0);
    printf("cudaMemPoolSetAccess(GPU 1's pool, GPU 0) with a 1 s kernel on GPU 1: %s in %.1f ms; "
           "GPU 1's kernel %s\n",
           cudaGetErrorString(e), pool_ms,
           cudaEventQuery(done) == cudaErrorNotReady ? "still running" : "finished");
    (void)cudaGetLastError();
    CK(cudaStreamSynchronize(s1));
    return 0;
}

static int trap_probe(bool peer)
{
    if (peer) {
        CK(cudaSetDevice(0));
        CK(cudaDeviceEnablePeerAccess(1, 0));
        CK(cudaSetDevice(1));
        CK(cudaDeviceEnablePeerAccess(0, 0));
    }
    const int n = 1 << 20;
    int *d1 = nullptr, *h = nullptr;
    unsigned int *flag = nullptr;
    cudaStream_t s0, s1;
    CK(cudaSetDevice(1));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaMalloc(&d1, n * sizeof(int)));
    CK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocPortable));
    CK(cudaHostAlloc(&flag, sizeof *flag, cudaHostAllocMapped | cudaHostAllocPortable));
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    trap_kernel<<<1, 1, 0, s0>>>();
    cudaError_t e0 = cudaStreamSynchronize(s0);
    printf("GPU 0 (peer access %s): the trap gives %s\n", peer ? "on" : "off",
           cudaGetErrorString(e0));
    CK(cudaSetDevice(1));
    for (int i = 0; i < n; ++i) h[i] = i;
    cudaError_t a = cudaMemcpyAsync(d1, h, n * sizeof(int), cudaMemcpyHostToDevice, s1);
    add_one<<<(n + 255) / 256, 256, 0, s1>>>(d1, n);
    cudaError_t b = cudaGetLastError();
    CUdeviceptr fdev = 0;
    cudaError_t c0 = cudaHostGetDevicePointer((void **)&fdev, flag, 0);
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = fdev;
    op.writeValue.value = 7;
    CUresult c = cuStreamBatchMemOp(s1, 1, &op, 0);
    cudaError_t d = cudaMemcpyAsync(h, d1, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
    cudaError_t f = cudaStreamSynchronize(s1);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != i + 1;
    const char *cs = nullptr;
    cuGetErrorName(c, &cs);
    printf("GPU 1 after GPU 0's trap (peer access %s): copy in %s, kernel %s, host pointer %s, "
           "cuStreamBatchMemOp %s, copy out %s, sync %s; %d wrong elements, flag %u\n",
           peer ? "on" : "off", cudaGetErrorString(a), cudaGetErrorString(b),
           cudaGetErrorString(c0), cs, cudaGetErrorString(d), cudaGetErrorString(f), wrong, *flag);
    return 0;
}

int main(int argc, char **argv)
{
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("two_gpu_probe: needs two GPUs\n");
        return 77;
    }
    if (argc > 1 && !strcmp(argv[1], "enable")) return enable_probe();
    if (argc > 2 && !strcmp(argv[1], "trap")) return trap_probe(!strcmp(argv[2], "peer"));
    printf("usage: two_gpu_probe enable | trap peer | trap nopeer\n");
    return 2;
}
