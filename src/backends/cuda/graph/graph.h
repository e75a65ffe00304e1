/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: portex graphs as CUDA graphs.
 *
 * A px__bgraph is a cudaGraph_t. Kernel, copy and fill nodes are made by capturing the
 * backend's own launch, copy or fill on a builder stream of the graph (so a graph node
 * runs exactly what the same call runs on an instance) into a small graph: a
 * parallel_for's one kernel node, or a fill's one fill-value kernel, is copied in as a
 * kernel node, and a copy's one memcpy as a memcpy node (outside conditional bodies), each
 * then changed in place with one CUDA call; anything else (a reduction's kernels and
 * memset, a strided or staged copy) becomes a child graph node, changed by recording the
 * call again. WHILE and IF are CUDA conditional nodes, their
 * handles created on the graph holding them. Reductions and scans use scratch blocks the
 * graph owns (px__cuda_gmem), not allocation nodes: a graph with allocation nodes could
 * not be a child, a conditional body, or instantiated twice.
 *
 * The executable graphs that use a graph's scratch (made from it, or from a graph that
 * holds it as a child) share it: when more than one does, each launch waits for the
 * previous launch of any of them (an event of the graph's, under the graph's lock, which
 * is never held across a wait on the GPU).
 *
 * A graph's builder stream and scratch list are used by px_graph_add_* and by
 * px_graph_exec_set_* of its executable graphs: the graph.h rule "a handle from one
 * thread at a time" covers a graph and its executable graphs together. */
#ifndef PX_BACKENDS_CUDA_GRAPH_GRAPH_H
#define PX_BACKENDS_CUDA_GRAPH_GRAPH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "backends/backend.h"
#include "backends/cuda/queue/track.h"

struct px__bnode {
    px__gnode_kind kind;
    int index;
    px__bgraph *owner;
    cudaGraphNode_t node;
    /* A single kernel node: its launch (kp.kernelParams -> params -> values) and what
       it was made from; set_args changes parameter 0 (the kernel's Args) alone. */
    bool single;
    const px_kernel *kernel;
    px_policy policy;
    /* A copy that is one memcpy node: its parameters as recorded and the two sides'
       memory then; set moves the pointers by as far as the new views are from the old
       (their layouts match). Top-level nodes only (bodies are never changed in place). */
    bool is_memcpy;
    struct cudaMemcpy3DParms mp;
    uintptr_t mp_dst, mp_src;
    /* The kept kernel launch (nparams > 0) of a single kernel, or of a fill node that is
       one fill-value kernel (copy/fill.h), to which set gives a target, count and value. */
    struct cudaKernelNodeParams kp;
    /* The same launch as the driver holds it, for updates through the driver's call
       (driver/driver.h); has_dkp false when the driver could not give it. */
    CUDA_KERNEL_NODE_PARAMS dkp;
    bool has_dkp;
    void **params;
    unsigned char *values;
    int nparams;
    px__bgraph *child;        /* CHILD: the graph copied (alive while this one is) */
    int mem_first, mem_count; /* the blocks of the root's scratch its recording took */
    px__bgraph *body;         /* WHILE, IF: owned */
};

struct px__bgraph {
    int device;
    cudaGraph_t graph; /* a body's belongs to its conditional node */
    px__bgraph *root;  /* the graph whose builder, scratch and lock bodies use */
    bool is_body;
    bool native; /* from a stream capture */
    px__bnode **nodes;
    int n, cap;
    px__cuda_gmem mem;       /* root: scratch of every node of it and its bodies */
    px__cuda_queue *builder; /* root: the stream nodes are captured on, made when needed */
    /* root: launch ordering of the executable graphs that use its scratch */
    pthread_mutex_t lock;
    cudaEvent_t last;
    int users; /* (lock) executable graphs whose launches use its scratch */
};

struct px__bexec {
    px__bgraph *graph; /* the graph instantiated */
    cudaGraphExec_t exec;
    cudaEvent_t done; /* recorded after each launch; made at the first */
    bool launched;
    /* The graphs whose scratch its launches use (its own, its children's; after an
       update, those of the graph it was updated from), in address order: a launch waits
       for the previous launch of any other executable graph that uses one of them. */
    px__bgraph **owners;
    int nowners;
    px__bgraph *current; /* the graph of the last update, or NULL: what profiling runs */
};

/* graph/build.c */
px_status px__cuda_graph_create(const struct px__backend *be, int device, px__bgraph **out);
void px__cuda_graph_destroy(px__bgraph *g);
px_status px__cuda_graph_add(px__bgraph *g, const px__gnode_desc *desc, px__bnode *const *deps,
                             int ndeps, px__bnode **out, px__bgraph **body, uint64_t *cond);
/* desc (KERNEL, COPY or FILL) captured on g's builder stream into a new graph *out; the
   scratch it takes is the root's blocks from index *first on (*count of them). When
   `again` is a node recorded before, its blocks are reused where large enough. */
px_status px__cuda_graph_record(px__bgraph *g, const px__gnode_desc *desc, const px__bnode *again,
                                int *first, int *count, cudaGraph_t *out);
/* Whether g holds conditional nodes (its own top-level nodes: nested ones are in their bodies). */
bool px__cuda_graph_has_conditionals(const px__bgraph *g);
/* The graphs whose scratch g's nodes use (g's root's, its children's, at any depth),
   each once, in address order, in a new array (*out, *n; free it). */
px_status px__cuda_graph_owners(const px__bgraph *g, px__bgraph ***out, int *n);

/* graph/capture.c */
px_status px__cuda_capture_begin(px__queue *q, int mode, px__bgraph **out);
px_status px__cuda_capture_end(px__queue *q, px__bgraph *g);

extern const px__graph_ops px__cuda_graph_ops;

#endif /* PX_BACKENDS_CUDA_GRAPH_GRAPH_H */
