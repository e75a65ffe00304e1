/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// What the raw-CUDA probes of this folder share (each is one nvcc program, built and run
// by .ci/gpu-pass): a check of CUDA runtime calls that ends main, and a WHILE or IF node
// added to a graph.
#ifndef PX_PROBE_H
#define PX_PROBE_H

#include <cstdio>
#include <cuda_runtime.h>

// x (a cudaError_t) must be cudaSuccess; else prints where and why, and returns 1.
#define CK(x)                                                                         \
    do {                                                                              \
        cudaError_t e_ = (x);                                                         \
        if (e_ != cudaSuccess) {                                                      \
            printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

// A conditional node of `type` in g, after nothing, its condition's default value 1: *h is
// its condition, *body the graph it runs, *node the node.
static inline cudaError_t add_conditional(cudaGraph_t g, cudaGraphConditionalNodeType type,
                                          cudaGraphConditionalHandle *h, cudaGraph_t *body,
                                          cudaGraphNode_t *node)
{
    cudaError_t e = cudaGraphConditionalHandleCreate(h, g, 1, cudaGraphCondAssignDefault);
    if (e != cudaSuccess) return e;
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = *h;
    cp.conditional.type = type;
    cp.conditional.size = 1;
    e = cudaGraphAddNode(node, g, nullptr, nullptr, 0, &cp);
    if (e == cudaSuccess) *body = cp.conditional.phGraph_out[0];
    return e;
}

#endif // PX_PROBE_H
