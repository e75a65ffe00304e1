/* Internal: portex graphs as CUDA graphs.
 *
 * A px__bgraph is a cudaGraph_t. Kernel, copy and fill nodes are made by capturing the
 * backend's own launch, copy or fill on a builder stream of the graph (so a graph node
 * runs exactly what the same call runs on an instance) into a small graph: one kernel
 * node is copied in as a kernel node, whose arguments can then be changed in place for
 * the cost of one cudaGraphExecKernelNodeSetParams; anything else (a reduction's kernels
 * and memset) becomes a child graph node. WHILE and IF are CUDA conditional nodes, their
 * handles created on the graph holding them. Reductions and scans use scratch blocks the
 * graph owns (px__cuda_gmem), not allocation nodes: a graph with allocation nodes could
 * not be a child, a conditional body, or instantiated twice.
 *
 * The executable graphs made from one graph share that scratch: when a graph has scratch
 * and more than one executable graph, each launch waits for the previous launch of any
 * of them (an event of the graph's, under the graph's lock, which is never held across
 * a wait on the GPU). */
#ifndef PX_CUDA_GRAPH_H
#define PX_CUDA_GRAPH_H

#include <pthread.h>
#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "backends/backend.h"
#include "backends/cuda/cuda_queue.h"

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
    struct cudaKernelNodeParams kp;
    void **params;
    unsigned char *values;
    int nparams;
    px__bgraph *child;      /* CHILD: the graph copied (alive while this one is) */
    px__bgraph *body;       /* WHILE, IF: owned */
};

struct px__bgraph {
    int device;
    cudaGraph_t graph;      /* a body's belongs to its conditional node */
    px__bgraph *root;       /* the graph whose builder, scratch and lock bodies use */
    bool is_body;
    bool native;            /* from a stream capture */
    px__bnode **nodes;
    int n, cap;
    px__cuda_gmem mem;      /* root: scratch of every node of it and its bodies */
    px__cuda_queue *builder;/* root: the stream nodes are captured on, made when needed */
    /* root: launch ordering of its executable graphs when they share scratch */
    pthread_mutex_t lock;
    cudaEvent_t last;
    int nexec;
};

struct px__bexec {
    px__bgraph *graph;      /* the graph instantiated */
    cudaGraphExec_t exec;
    cudaEvent_t done;       /* recorded after each launch; made at the first */
    bool launched;
    bool shares_scratch;    /* reductions or scans, here or in children */
};

/* cuda_graph_build.c */
px_status px__cuda_graph_create(const struct px__backend *be, int device, px__bgraph **out, const char *func);
void px__cuda_graph_destroy(px__bgraph *g);
px_status px__cuda_graph_add(px__bgraph *g, const px__gnode_desc *desc, px__bnode *const *deps, int ndeps,
                             px__bnode **out, px__bgraph **body, uint64_t *cond, const char *func);
/* desc (KERNEL, COPY or FILL) captured on g's builder stream into a new graph *out. */
px_status px__cuda_graph_record(px__bgraph *g, const px__gnode_desc *desc, cudaGraph_t *out, const char *func);
/* Whether g holds conditional nodes, at any depth of its own nodes. */
bool px__cuda_graph_has_conditionals(const px__bgraph *g);
/* Whether g or a graph it holds has scratch. */
bool px__cuda_graph_has_scratch(const px__bgraph *g);

/* cuda_graph_capture.c */
px_status px__cuda_capture_begin(px__queue *q, int mode, px__bgraph **out, const char *func);
px_status px__cuda_capture_end(px__queue *q, px__bgraph *g, const char *func);

extern const px__graph_ops px__cuda_graph_ops;

#endif /* PX_CUDA_GRAPH_H */
