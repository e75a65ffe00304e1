/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// A control for compute-sanitizer's synccheck on conditional graph nodes, raw CUDA only:
// the same two kernels with block-wide barriers (__syncthreads, cub::BlockReduce) at the
// top level of a graph ("top") and inside a WHILE body ("while"). On CUDA 13.0 with
// driver 580 synccheck reports "Barrier error ... divergent threads in warp" for every
// block in the WHILE body and nothing at the top level, so the same reports about
// portex's reductions inside WHILE bodies are the tool's, not portex's
// (.ci/gpu-pass synccheck-control runs it).
#include <cstdio>
#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>

#include "probe.h"

__global__ void reduce_kernel(const double *x, int n, double *out)
{
    using BR = cub::BlockReduce<double, 256>;
    __shared__ typename BR::TempStorage tmp;
    double v = 0;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) v += x[i];
    double s = BR(tmp).Sum(v);
    if (threadIdx.x == 0) atomicAdd(out, s);
}
__global__ void sync_kernel(int *y)
{
    __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    y[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
__global__ void cond_kernel(cudaGraphConditionalHandle h, int *count, int iters)
{
    if (++*count >= iters) cudaGraphSetConditional(h, 0);
}

static int add_kernels(cudaGraph_t g, double *x, int n, double *out, int *y, cudaGraphNode_t *last)
{
    cudaGraphNode_t a, b;
    cudaKernelNodeParams p = {};
    void *sa[] = {&y};
    p.func = (void *)sync_kernel;
    p.gridDim = dim3(64);
    p.blockDim = dim3(256);
    p.kernelParams = sa;
    CK(cudaGraphAddKernelNode(&a, g, nullptr, 0, &p));
    void *ra[] = {&x, &n, &out};
    p.func = (void *)reduce_kernel;
    p.kernelParams = ra;
    CK(cudaGraphAddKernelNode(&b, g, &a, 1, &p));
    *last = b;
    return 0;
}

int main(int argc, char **argv)
{
    const bool in_while = argc > 1 && argv[1][0] == 'w';
    const int n = 1 << 16;
    double *x, *out;
    int *y, *count;
    CK(cudaMalloc(&x, n * sizeof(double)));
    CK(cudaMemset(x, 0, n * sizeof(double)));
    CK(cudaMalloc(&out, sizeof(double)));
    CK(cudaMemset(out, 0, sizeof(double)));
    CK(cudaMalloc(&y, 64 * 256 * sizeof(int)));
    CK(cudaMalloc(&count, sizeof(int)));
    CK(cudaMemset(count, 0, sizeof(int)));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t last;
    if (!in_while) {
        if (add_kernels(g, x, n, out, y, &last)) return 1;
    } else {
        cudaGraphConditionalHandle h;
        cudaGraph_t body;
        cudaGraphNode_t w;
        CK(add_conditional(g, cudaGraphCondTypeWhile, &h, &body, &w));
        if (add_kernels(body, x, n, out, y, &last)) return 1;
        cudaGraphNode_t c;
        cudaKernelNodeParams p = {};
        int iters = 5;
        void *ca[] = {&h, &count, &iters};
        p.func = (void *)cond_kernel;
        p.gridDim = dim3(1);
        p.blockDim = dim3(1);
        p.kernelParams = ca;
        CK(cudaGraphAddKernelNode(&c, body, &last, 1, &p));
    }
    cudaGraphExec_t e;
    CK(cudaGraphInstantiate(&e, g, 0));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaGraphLaunch(e, s));
    CK(cudaStreamSynchronize(s));
    int c = 0;
    CK(cudaMemcpy(&c, count, sizeof c, cudaMemcpyDeviceToHost));
    printf("%s: ok, body ran %d times\n", in_while ? "while" : "top", in_while ? c : 1);
    return 0;
}
