/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The baselines of bench_graph, written as an expert would by hand: kernel nodes added
 * with cudaGraphAddKernelNode, kernels with restrict pointers and 32-bit indices. */
#include "raw_graph.h"

namespace {

constexpr int block = 256;

/* The arguments travel as one struct, as portex's kernels take theirs. */
struct axpy_args {
    double a;
    const double *__restrict__ x;
    double *__restrict__ y;
};

__global__ void empty_kernel(int) {}

__global__ void __launch_bounds__(block)
    axpy_kernel(const __grid_constant__ axpy_args p, unsigned n)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    if (i < n) p.y[i] += p.a * p.x[i];
}

/* The k-parameter kernels: as many pointers as a kernel of k arguments takes. */
__global__ void __launch_bounds__(block) args1(double *__restrict__ y)
{
    y[blockIdx.x * block + threadIdx.x] += 1.0;
}

__global__ void __launch_bounds__(block) args2(double *__restrict__ y, const double *__restrict__ a)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    y[i] += a[i];
}

__global__ void __launch_bounds__(block)
    args4(double *__restrict__ y, const double *__restrict__ a, const double *__restrict__ b,
          const double *__restrict__ c)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    y[i] += a[i] + b[i] + c[i];
}

__global__ void __launch_bounds__(block)
    args8(double *__restrict__ y, const double *__restrict__ a, const double *__restrict__ b,
          const double *__restrict__ c, const double *__restrict__ d, const double *__restrict__ e,
          const double *__restrict__ f, const double *__restrict__ g)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    y[i] += a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i];
}

__global__ void __launch_bounds__(block) fill_kernel(double *__restrict__ y, double v, unsigned n)
{
    const unsigned i = blockIdx.x * block + threadIdx.x;
    if (i < n) y[i] = v;
}

void *args_kernel(int k)
{
    switch (k) {
    case 1: return reinterpret_cast<void *>(args1);
    case 2: return reinterpret_cast<void *>(args2);
    case 4: return reinterpret_cast<void *>(args4);
    case 8: return reinterpret_cast<void *>(args8);
    default: return nullptr;
    }
}

cudaKernelNodeParams launch_params(void *func, void **params, unsigned n)
{
    cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3((n + block - 1) / block);
    kp.blockDim = dim3(block);
    kp.kernelParams = params;
    return kp;
}

/* One node of params in a new graph. */
cudaError_t one_node_graph(const cudaKernelNodeParams &kp, cudaGraph_t *out, cudaGraphNode_t *node)
{
    cudaGraph_t g = nullptr;
    cudaError_t e = cudaGraphCreate(&g, 0);
    if (e == cudaSuccess) e = cudaGraphAddKernelNode(node, g, nullptr, 0, &kp);
    if (e != cudaSuccess) {
        (void)cudaGraphDestroy(g);
        return e;
    }
    *out = g;
    return cudaSuccess;
}

cudaKernelNodeParams axpy_params(void **params, unsigned n)
{
    return launch_params(reinterpret_cast<void *>(axpy_kernel), params, n);
}

/* The k-parameter kernels' parameter array: params[j] points at q[j] = p[j]. */
void args_params(int k, double *const *p, double **q, void **params)
{
    for (int j = 0; j < k; ++j) {
        q[j] = p[j];
        params[j] = &q[j];
    }
}

} // namespace

extern "C" cudaError_t raw_graph_empty_chain(int count, cudaGraph_t *out)
{
    cudaGraph_t g = nullptr;
    cudaError_t e = cudaGraphCreate(&g, 0);
    if (e != cudaSuccess) return e;
    int unused = 0;
    void *params[1] = {&unused};
    const cudaKernelNodeParams kp =
        launch_params(reinterpret_cast<void *>(empty_kernel), params, block); /* one block */
    cudaGraphNode_t prev = nullptr;
    for (int k = 0; k < count && e == cudaSuccess; ++k) {
        cudaGraphNode_t node = nullptr;
        e = cudaGraphAddKernelNode(&node, g, prev ? &prev : nullptr, prev ? 1 : 0, &kp);
        prev = node;
    }
    if (e != cudaSuccess) {
        (void)cudaGraphDestroy(g);
        return e;
    }
    *out = g;
    return cudaSuccess;
}

extern "C" cudaError_t raw_axpy(double a, const double *x, double *y, int n, cudaStream_t st)
{
    const axpy_args p = {a, x, y};
    axpy_kernel<<<(unsigned)(n + block - 1) / block, block, 0, st>>>(p, (unsigned)n);
    return cudaGetLastError();
}

extern "C" cudaError_t raw_graph_axpy_chain(int count, const double *a, const double *x, double *y,
                                            int n, cudaGraph_t *out, cudaGraphNode_t *nodes)
{
    cudaGraph_t g = nullptr;
    cudaError_t e = cudaGraphCreate(&g, 0);
    if (e != cudaSuccess) return e;
    unsigned un = (unsigned)n;
    for (int k = 0; k < count && e == cudaSuccess; ++k) {
        axpy_args p = {a[k], x, y};
        void *params[2] = {&p, &un};
        const cudaKernelNodeParams kp = axpy_params(params, un);
        e = cudaGraphAddKernelNode(&nodes[k], g, k ? &nodes[k - 1] : nullptr, k ? 1 : 0, &kp);
    }
    if (e != cudaSuccess) {
        (void)cudaGraphDestroy(g);
        return e;
    }
    *out = g;
    return cudaSuccess;
}

extern "C" cudaError_t raw_graph_axpy_set(cudaGraphExec_t exec, cudaGraphNode_t node, double a,
                                          const double *x, double *y, int n)
{
    axpy_args p = {a, x, y};
    unsigned un = (unsigned)n;
    void *params[2] = {&p, &un};
    const cudaKernelNodeParams kp = axpy_params(params, un);
    return cudaGraphExecKernelNodeSetParams(exec, node, &kp);
}

extern "C" cudaError_t raw_graph_args_node(int k, double *const *p, int n, cudaGraph_t *out,
                                           cudaGraphNode_t *node)
{
    if (args_kernel(k) == nullptr || n % block != 0) return cudaErrorInvalidValue;
    double *q[8];
    void *params[8];
    args_params(k, p, q, params);
    return one_node_graph(launch_params(args_kernel(k), params, (unsigned)n), out, node);
}

extern "C" cudaError_t raw_graph_args_set(int k, cudaGraphExec_t exec, cudaGraphNode_t node,
                                          double *const *p, int n)
{
    if (args_kernel(k) == nullptr) return cudaErrorInvalidValue;
    double *q[8];
    void *params[8];
    args_params(k, p, q, params);
    const cudaKernelNodeParams kp = launch_params(args_kernel(k), params, (unsigned)n);
    return cudaGraphExecKernelNodeSetParams(exec, node, &kp);
}

extern "C" cudaError_t raw_graph_fill_node(double *y, double v, int n, cudaGraph_t *out,
                                           cudaGraphNode_t *node)
{
    unsigned un = (unsigned)n;
    void *params[3] = {&y, &v, &un};
    return one_node_graph(launch_params(reinterpret_cast<void *>(fill_kernel), params, un), out,
                          node);
}

extern "C" cudaError_t raw_graph_fill_set(cudaGraphExec_t exec, cudaGraphNode_t node, double *y,
                                          double v, int n)
{
    unsigned un = (unsigned)n;
    void *params[3] = {&y, &v, &un};
    const cudaKernelNodeParams kp =
        launch_params(reinterpret_cast<void *>(fill_kernel), params, un);
    return cudaGraphExecKernelNodeSetParams(exec, node, &kp);
}
