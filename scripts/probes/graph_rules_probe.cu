/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// What CUDA itself does with two graph patterns portex's rules are about, raw CUDA only
// (.ci/gpu-pass graph-probe runs it, with CUDA_LOG_FILE=stderr for the driver's reasons).
// One line per case: its name, then what each step returned.
//
// Conditional nodes and clones (px_graph_add_while and _if refuse a graph that child
// nodes copy):
//   clone        G is copied into H by cudaGraphAddChildGraphNode, then G gains an IF
//                node: instantiate G while H exists, and again after H is destroyed.
//   clone_exec   the same, H instantiated and destroyed, its executable graph kept.
//   clone_plain  the control: G gains a kernel node instead of an IF node.
//   clone_twice  H's child node made from a clone of G (cudaGraphClone, destroyed at once)
//                instead of G itself.
//   second_exec  G (with an IF node, never copied) instantiated twice, both kept.
// In-place changes of a child graph node (fills in a graph are always kernels):
//   memset_to_kernel  a child graph of one memset node given, in place
//                     (cudaGraphExecChildGraphNodeSetParams), one of a kernel node;
//   memset_to_memset, kernel_to_kernel  the same node type with another value.
#include <cstdio>
#include <cuda_runtime.h>

#include "probe.h"

__global__ void add_kernel(int *p, int d) { p[threadIdx.x] += d; }

static int *g_buf;

static const char *name(cudaError_t e) { return e == cudaSuccess ? "ok" : cudaGetErrorName(e); }

static cudaError_t add_kernel_node(cudaGraph_t g, int d, cudaGraphNode_t *out)
{
    cudaKernelNodeParams p = {};
    void *args[] = {&g_buf, &d};
    p.func = (void *)add_kernel;
    p.gridDim = dim3(1);
    p.blockDim = dim3(32);
    p.kernelParams = args;
    return cudaGraphAddKernelNode(out, g, nullptr, 0, &p);
}

static cudaError_t add_memset_node(cudaGraph_t g, int value, cudaGraphNode_t *out)
{
    cudaMemsetParams p = {};
    p.dst = g_buf;
    p.value = (unsigned)value;
    p.elementSize = 4;
    p.width = 32;
    p.height = 1;
    return cudaGraphAddMemsetNode(out, g, nullptr, 0, &p);
}

static cudaError_t add_if(cudaGraph_t g)
{
    cudaGraphConditionalHandle h;
    cudaGraph_t body;
    cudaGraphNode_t n;
    cudaError_t e = add_conditional(g, cudaGraphCondTypeIf, &h, &body, &n);
    if (e != cudaSuccess) return e;
    cudaGraphNode_t k;
    return add_kernel_node(body, 10, &k);
}

static cudaError_t try_instantiate(cudaGraph_t g, cudaGraphExec_t *keep)
{
    cudaGraphExec_t e = nullptr;
    const cudaError_t err = cudaGraphInstantiate(&e, g, 0);
    (void)cudaGetLastError();
    if (err == cudaSuccess && keep)
        *keep = e;
    else if (err == cudaSuccess)
        (void)cudaGraphExecDestroy(e);
    return err;
}

/* mode: 0 clone, 1 clone_exec, 2 clone_plain, 3 clone_twice */
static void clone_case(const char *label, int mode)
{
    cudaGraph_t g, h, tmp = nullptr;
    cudaGraphNode_t n;
    cudaGraphExec_t he = nullptr;
    cudaGraphCreate(&g, 0);
    cudaGraphCreate(&h, 0);
    add_kernel_node(g, 1, &n);
    cudaError_t copy;
    if (mode == 3) {
        copy = cudaGraphClone(&tmp, g);
        if (copy == cudaSuccess) copy = cudaGraphAddChildGraphNode(&n, h, nullptr, 0, tmp);
        if (tmp) cudaGraphDestroy(tmp);
    } else {
        copy = cudaGraphAddChildGraphNode(&n, h, nullptr, 0, g);
    }
    const cudaError_t grow = mode == 2 ? add_kernel_node(g, 2, &n) : add_if(g);
    const cudaError_t holder = mode == 1 ? try_instantiate(h, &he) : cudaSuccess;
    const cudaError_t with_copy = try_instantiate(g, nullptr);
    cudaGraphDestroy(h);
    const cudaError_t after = try_instantiate(g, nullptr);
    printf("%s: copy %s, grow %s, holder exec %s, instantiate G while H exists: %s, after H "
           "is destroyed%s: %s\n",
           label, name(copy), name(grow), name(holder), name(with_copy),
           he ? " (its exec kept)" : "", name(after));
    if (he) cudaGraphExecDestroy(he);
    cudaGraphDestroy(g);
}

static void second_exec_case(void)
{
    cudaGraph_t g;
    cudaGraphNode_t n;
    cudaGraphExec_t first = nullptr;
    cudaGraphCreate(&g, 0);
    add_kernel_node(g, 1, &n);
    const cudaError_t grow = add_if(g);
    const cudaError_t a = try_instantiate(g, &first);
    const cudaError_t b = try_instantiate(g, nullptr);
    printf("second_exec: grow %s, first %s, second while the first exists: %s\n", name(grow),
           name(a), name(b));
    if (first) cudaGraphExecDestroy(first);
    cudaGraphDestroy(g);
}

/* A graph of one child node made of `from` (0: a memset node, 1: a kernel node),
   instantiated, then given a child graph of `to` in place. */
static void set_case(const char *label, int from, int to)
{
    cudaGraph_t g, c0, c1;
    cudaGraphNode_t n, k;
    cudaGraphExec_t e = nullptr;
    cudaGraphCreate(&g, 0);
    cudaGraphCreate(&c0, 0);
    cudaGraphCreate(&c1, 0);
    if (from == 0)
        add_memset_node(c0, 0, &k);
    else
        add_kernel_node(c0, 1, &k);
    if (to == 0)
        add_memset_node(c1, 7, &k);
    else
        add_kernel_node(c1, 5, &k);
    cudaGraphAddChildGraphNode(&n, g, nullptr, 0, c0);
    const cudaError_t inst = try_instantiate(g, &e);
    cudaError_t set = cudaErrorInvalidValue;
    if (e) set = cudaGraphExecChildGraphNodeSetParams(e, n, c1);
    (void)cudaGetLastError();
    printf("%s: instantiate %s, in-place change %s\n", label, name(inst), name(set));
    if (e) cudaGraphExecDestroy(e);
    cudaGraphDestroy(c0);
    cudaGraphDestroy(c1);
    cudaGraphDestroy(g);
}

int main()
{
    int v = 0;
    cudaRuntimeGetVersion(&v);
    int d = 0;
    cudaDriverGetVersion(&d);
    printf("runtime %d, driver %d\n", v, d);
    if (cudaMalloc(&g_buf, 32 * sizeof(int)) != cudaSuccess) {
        printf("no device memory\n");
        return 1;
    }
    clone_case("clone", 0);
    clone_case("clone_exec", 1);
    clone_case("clone_plain", 2);
    clone_case("clone_twice", 3);
    second_exec_case();
    set_case("memset_to_kernel", 0, 1);
    set_case("memset_to_memset", 0, 0);
    set_case("kernel_to_kernel", 1, 1);
    cudaFree(g_buf);
    return 0;
}
