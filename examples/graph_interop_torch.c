/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* graph_interop_torch: the C side of graph_interop_torch.py, built as the shared library
 * libgraph_interop_torch.so (CUDA builds only) and called through ctypes.
 *
 * Python hands over what PyTorch has: its current stream as an integer
 * (torch.cuda.current_stream().cuda_stream) and tensors' device pointers
 * (tensor.data_ptr()) with their sizes. This file wraps the stream in a portex instance,
 * runs a portex kernel over the tensors' memory, and captures, instantiates and replays
 * a graph on that stream. Every function returns a px_status (0: PX_OK);
 * gitorch_last_error() says what went wrong. */
#include <stdint.h>
#include <stdlib.h>

#include <portex/cuda.h>
#include <portex/graph.h>

#include "graph_interop_kernels.h"
#include "torch_stream.h"

#if defined(__GNUC__)
#define GITORCH_API __attribute__((visibility("default")))
#else
#define GITORCH_API
#endif

/* One wrapped stream and what was captured on it. */
typedef struct gitorch {
    px_instance *inst;
    px_graph *graph;
    px_graph_exec *exec;
} gitorch;

GITORCH_API const char *gitorch_last_error(void);
GITORCH_API int gitorch_open(uint64_t stream, gitorch **out);
GITORCH_API int gitorch_affine(gitorch *h, double a, uint64_t x, uint64_t y, int64_t n);
GITORCH_API int gitorch_capture_begin(gitorch *h, int mode);
GITORCH_API int gitorch_capture_end(gitorch *h, int *nodes);
GITORCH_API int gitorch_replay(gitorch *h);
GITORCH_API int gitorch_close(gitorch *h);

const char *gitorch_last_error(void) { return px_last_error(); }

/* portex on, and an instance over `stream` (a cudaStream_t as an integer; never 0, the
 * legacy default stream, which portex refuses). */
int gitorch_open(uint64_t stream, gitorch **out)
{
    *out = NULL;
    gitorch *h = calloc(1, sizeof *h);
    if (!h) return PX_ERR_OUT_OF_MEMORY;
    const px_status st = torch_stream_instance(stream, &h->inst);
    if (st != PX_OK) {
        free(h);
        return st;
    }
    *out = h;
    return PX_OK;
}

/* y(i) = a * x(i) + i over two float64 CUDA tensors of n elements, on the instance: run
 * in stream order, or recorded while a capture is on. The views only wrap PyTorch's
 * memory (the kernel sees spans; the pointers are baked into a captured graph, so the
 * tensors must outlive its replays). */
int gitorch_affine(gitorch *h, double a, uint64_t x, uint64_t y, int64_t n)
{
    int dev = 0;
    px_status st = px_instance_device(h->inst, &dev);
    if (st != PX_OK) return st;
    px_view_desc desc = {
        .label = "torch x", .space = px_device(dev), .dtype = PX_F64, .rank = 1, .extent = {n}};
    px_view *xv = NULL, *yv = NULL;
    st = px_view_wrap(&xv, &desc, (void *)(uintptr_t)x);
    desc.label = "torch y";
    if (st == PX_OK) st = px_view_wrap(&yv, &desc, (void *)(uintptr_t)y);
    interop_affine_args args = {.a = a};
    if (st == PX_OK) st = px_view_get_span(xv, &args.x);
    if (st == PX_OK) st = px_view_get_span(yv, &args.y);
    if (st == PX_OK)
        st = px_parallel_for(h->inst, "y = a x + i", px_range(0, n), PX_KERNEL(interop_affine),
                             &args);
    if (xv) px_view_release(&xv);
    if (yv) px_view_release(&yv);
    return st;
}

/* From now on everything issued on the stream is recorded, PyTorch's kernels included.
 * mode: a px_capture_mode (0: thread-local). */
int gitorch_capture_begin(gitorch *h, int mode)
{
    return px_graph_capture_begin(h->inst, (px_capture_mode)mode);
}

/* Ends the capture, instantiates the graph and uploads it; *nodes: the operations portex
 * recorded itself (PyTorch's kernels are in the graph but not counted). */
int gitorch_capture_end(gitorch *h, int *nodes)
{
    if (h->exec) px_graph_exec_destroy(&h->exec);
    if (h->graph) px_graph_destroy(&h->graph);
    px_status st = px_graph_capture_end(h->inst, &h->graph);
    if (st == PX_OK) st = px_graph_node_count(h->graph, nodes);
    if (st == PX_OK) st = px_graph_instantiate(h->graph, &h->exec);
    if (st == PX_OK) st = px_graph_upload(h->exec, h->inst);
    return st;
}

/* One replay, on the stream, in its order with PyTorch's work: asynchronous. */
int gitorch_replay(gitorch *h)
{
    if (!h->exec) return PX_ERR_INVALID_ARGUMENT;
    return px_graph_launch(h->exec, h->inst);
}

/* Waits for portex's work, frees everything (never the stream) and drops portex. */
int gitorch_close(gitorch *h)
{
    if (!h) return PX_OK;
    px_status st = PX_OK, s;
    if (h->exec && (s = px_graph_exec_destroy(&h->exec)) != PX_OK) st = s;
    if (h->graph && (s = px_graph_destroy(&h->graph)) != PX_OK && st == PX_OK) st = s;
    if ((s = px_instance_destroy(&h->inst)) != PX_OK && st == PX_OK) st = s;
    free(h);
    if ((s = px_finalize()) != PX_OK && st == PX_OK) st = s;
    return st;
}
