/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The raw-CUDA baselines of bench_graph behind a C interface: raw_graph.cu defines them,
 * the C program calls them (and the CUDA runtime's graph functions directly). Kernels are
 * shaped as portex launches them: 256-thread blocks, one thread per element. Every
 * function returns the first CUDA error it met. Counts must be below 2^31. */
#ifndef RAW_GRAPH_H
#define RAW_GRAPH_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out: a new graph of `count` empty-kernel nodes (one block of 256 threads), each
 * depending on the one before (cudaGraphAddKernelNode). */
cudaError_t raw_graph_empty_chain(int count, cudaGraph_t *out);

/* y[i] += a * x[i] for i < n: one launch on st. */
cudaError_t raw_axpy(double a, const double *x, double *y, int n, cudaStream_t st);

/* *out: a new graph of `count` axpy nodes, node k with a[k] (same x, y, n), each depending
 * on the one before; nodes[k] (count of them) are the nodes. */
cudaError_t raw_graph_axpy_chain(int count, const double *a, const double *x, double *y, int n,
                                 cudaGraph_t *out, cudaGraphNode_t *nodes);

/* Changes the arguments of axpy node `node` of exec in place
 * (cudaGraphExecKernelNodeSetParams), as a raw-CUDA user does: the parameter block built
 * on the stack, the launch shape unchanged. */
cudaError_t raw_graph_axpy_set(cudaGraphExec_t exec, cudaGraphNode_t node, double a,
                               const double *x, double *y, int n);

/* Kernels of k = 1, 2, 4 or 8 parameters, each a double pointer: p[0][i] += 1 (k = 1) or
 * p[0][i] += p[1][i] + ... + p[k-1][i], i < n (n a multiple of 256). *out: a new graph of
 * one such node over p; *node: the node. */
cudaError_t raw_graph_args_node(int k, double *const *p, int n, cudaGraph_t *out,
                                cudaGraphNode_t *node);

/* The k-parameter node's parameters made p, as a raw-CUDA user changes them: the
 * parameter array built on the stack, cudaGraphExecKernelNodeSetParams. */
cudaError_t raw_graph_args_set(int k, cudaGraphExec_t exec, cudaGraphNode_t node, double *const *p,
                               int n);

/* *out: a new graph of one node, y[i] = v for i < n (a kernel: CUDA's memset nodes set
 * bytes, not doubles); *node: the node. */
cudaError_t raw_graph_fill_node(double *y, double v, int n, cudaGraph_t *out,
                                cudaGraphNode_t *node);

/* The fill node's value made v (cudaGraphExecKernelNodeSetParams). */
cudaError_t raw_graph_fill_set(cudaGraphExec_t exec, cudaGraphNode_t node, double *y, double v,
                               int n);

#ifdef __cplusplus
}
#endif

#endif
