/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// graph_interop: plain CUDA, no portex: what another library or the user's own code puts
// on a stream. graph_interop.c launches it on the stream it wrapped in a portex instance.
#include "graph_interop_raw.h"

static __global__ void raw_add(double *x, int64_t n, double v)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += v;
}

extern "C" int graph_interop_raw_add(cudaStream_t stream, double *x, int64_t n, double v)
{
    if (n <= 0) return (int)cudaSuccess;
    const unsigned threads = 256;
    const unsigned blocks = (unsigned)((n + threads - 1) / threads);
    raw_add<<<blocks, threads, 0, stream>>>(x, n, v);
    return (int)cudaGetLastError();
}
