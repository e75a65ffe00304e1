/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Building CUDA graphs node by node (graph/graph.h says how each kind is made). */
#include "backends/cuda/graph/graph.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "backends/cuda/check.h"
#include "backends/cuda/copy/fill.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver/driver.h"
#include "backends/cuda/hooks.h"
#include "backends/services.h"

px_status px__cuda_graph_create(const struct px__backend *be, int device, px__bgraph **out)
{
    (void)be;
    *out = NULL;
    px__bgraph *g = px__calloc(1, sizeof *g);
    if (g == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
    int saved;
    px_status st = px__cuda_enter(device, &saved);
    if (st != PX_OK) {
        free(g);
        return st;
    }
    st = PX__CU(cudaGraphCreate(&g->graph, 0));
    if (st == PX_OK) {
        st = PX__CU(cudaEventCreateWithFlags(&g->last, cudaEventDisableTiming));
        if (st != PX_OK) (void)cudaGraphDestroy(g->graph);
    }
    px__cuda_leave(saved);
    if (st != PX_OK) {
        free(g);
        return st;
    }
    g->device = device;
    g->root = g;
    g->mem.device = device;
    pthread_mutex_init(&g->lock, NULL);
    *out = g;
    return PX_OK;
}

static void bgraph_free(px__bgraph *g);

static void node_free(px__bnode *n)
{
    if (n == NULL) return;
    if (n->body) bgraph_free(n->body);
    free(n->params);
    free(n->values);
    free(n);
}

/* The nodes, the builder and the scratch; the cudaGraph_t unless it is a body's. With the
   device current. */
static void bgraph_free(px__bgraph *g)
{
    for (int i = 0; i < g->n; ++i) node_free(g->nodes[i]);
    free(g->nodes);
    if (g->is_body) {
        free(g);
        return;
    }
    if (g->graph) (void)cudaGraphDestroy(g->graph);
    if (g->builder) {
        (void)cudaStreamDestroy(g->builder->stream);
        pthread_mutex_destroy(&g->builder->staging);
        free(g->builder);
    }
    px__cuda_gmem_free(&g->mem);
    if (g->last) (void)cudaEventDestroy(g->last);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void px__cuda_graph_destroy(px__bgraph *g)
{
    if (g == NULL) return;
    int saved;
    if (px__cuda_enter(g->device, &saved) != PX_OK) {
        px_clear_error();
        return;
    }
    bgraph_free(g);
    (void)cudaGetLastError();
    px__cuda_leave(saved);
}

/* Adds to set the owners of scratch that g's nodes use. */
static px_status collect_owners(const px__bgraph *g, px__bgraph ***set, int *n, int *cap)
{
    px__bgraph *root = g->root;
    bool known = root->mem.n == 0;
    for (int i = 0; !known && i < *n; ++i) known = (*set)[i] == root;
    if (!known) {
        px__bgraph **grown = px__grow(*set, *n, cap, 4, sizeof *grown);
        if (grown == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
        *set = grown;
        (*set)[(*n)++] = root;
    }
    for (int i = 0; i < g->n; ++i) {
        const px__bnode *x = g->nodes[i];
        if (x->child) PX__TRY(collect_owners(x->child, set, n, cap));
        if (x->body) PX__TRY(collect_owners(x->body, set, n, cap));
    }
    return PX_OK;
}

static int by_address(const void *a, const void *b)
{
    const uintptr_t x = (uintptr_t) * (px__bgraph *const *)a,
                    y = (uintptr_t) * (px__bgraph *const *)b;
    return (x > y) - (x < y);
}

px_status px__cuda_graph_owners(const px__bgraph *g, px__bgraph ***out, int *n)
{
    px__bgraph **set = NULL;
    int count = 0, cap = 0;
    const px_status st = collect_owners(g, &set, &count, &cap);
    if (st != PX_OK) {
        free(set);
        return st;
    }
    if (count > 1) qsort(set, (size_t)count, sizeof *set, by_address);
    *out = set;
    *n = count;
    return PX_OK;
}

bool px__cuda_graph_has_conditionals(const px__bgraph *g)
{
    /* Its own nodes only: a child node's graph is the one it copied, which may have gained
       nodes since, while the copy has none of them (and no conditional node: a graph
       holding one is no child). Nested conditionals are in the bodies of g's own. */
    for (int i = 0; i < g->n; ++i)
        if (g->nodes[i]->body) return true;
    return false;
}

/* ---- Recording the backend's own calls ------------------------------------------------- */

/* The root's builder: a queue of its own whose stream only ever captures. */
static px_status builder_of(px__bgraph *g, px__cuda_queue **out)
{
    px__bgraph *root = g->root;
    if (root->builder == NULL) {
        px__cuda_device *d = NULL;
        PX__TRY(px__cuda_device_get(root->device, &d));
        px__cuda_queue *b = px__calloc(1, sizeof *b);
        if (b == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
        b->device = root->device;
        b->sm_count = d->sm_count;
        b->shared_optin = d->shared_optin;
        b->owned = true;
        b->label = "graph builder";
        const px_status st = PX__CU(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
        if (st != PX_OK) {
            free(b);
            return st;
        }
        pthread_mutex_init(&b->staging, NULL);
        root->builder = b;
    }
    *out = root->builder;
    return PX_OK;
}

px_status px__cuda_graph_record(px__bgraph *g, const px__gnode_desc *desc, const px__bnode *again,
                                int *first, int *count, cudaGraph_t *out)
{
    *out = NULL;
    px__cuda_queue *b = NULL;
    PX__TRY(builder_of(g, &b));
    /* Relaxed: the builder's capture must not refuse what the launch does beside it (the
       scratch allocation), nor be disturbed by other threads. */
    PX__CU_TRY(cudaStreamBeginCapture(b->stream, cudaStreamCaptureModeRelaxed));
    px__cuda_gmem *m = &g->root->mem;
    if (again != NULL) {
        m->reuse_next = again->mem_first;
        m->reuse_end = again->mem_first + again->mem_count;
    }
    const int before = m->n;
    b->gmem = m;
    px_status st = PX_OK;
    px__copy_op op = desc->op;
    switch (desc->kind) {
    case PX__GNODE_KERNEL: st = px__cuda_launch((px__queue *)(void *)b, &desc->dispatch); break;
    case PX__GNODE_COPY: st = px__cuda_copy((px__queue *)(void *)b, &op); break;
    case PX__GNODE_FILL: st = px__cuda_fill((px__queue *)(void *)b, &op); break;
    default:
        st = px__error(PX_ERR_INVALID_ARGUMENT, "a %d node is not recorded", (int)desc->kind);
        break;
    }
    b->gmem = NULL;
    m->reuse_next = m->reuse_end = 0;
    *first = again != NULL && m->n == before ? again->mem_first : before;
    *count = again != NULL && m->n == before ? again->mem_count : m->n - before;
    cudaGraph_t tg = NULL;
    const cudaError_t end = cudaStreamEndCapture(b->stream, &tg);
    if (st == PX_OK && end != cudaSuccess)
        st = px__cuda_check(end, "cudaStreamEndCapture(graph builder)", NULL);
    if (end != cudaSuccess) (void)cudaGetLastError();
    if (st != PX_OK) {
        if (tg) (void)cudaGraphDestroy(tg);
        return st;
    }
    *out = tg;
    return PX_OK;
}

/* ---- Kernel nodes ------------------------------------------------------------------------ */

typedef CUresult (*param_info_fn)(CUfunction, size_t, size_t *, size_t *);
static param_info_fn g_param_info;
static pthread_once_t g_param_info_once = PTHREAD_ONCE_INIT;

static void param_info_load(void)
{
    char why[128];
    param_info_fn fn = NULL;
    if (px__cuda_driver_symbol("cuFuncGetParamInfo", 12040, &fn, sizeof fn, why, sizeof why))
        g_param_info = fn;
}

/* How many parameters a parallel_for kernel of `rank` takes: its Args, then begin and n
   (1-D) or the md_range (2-D to 6-D), as portex/impl/cuda/kernel_cuda.h defines them. Counted here,
   not asked of the driver: cuFuncGetParamInfo answers "how many" only with an error past
   the last one, which sanitizers report. */
static int for_param_count(int rank) { return rank == 1 ? 3 : 2; }

/* Kernel node k's launch (without `extra`) and the offsets and sizes of its first `count`
   parameters; false when the driver cannot say. */
static bool kernel_layout(cudaGraphNode_t k, int count, struct cudaKernelNodeParams *kp,
                          size_t *offs, size_t *sizes, size_t *total)
{
    pthread_once(&g_param_info_once, param_info_load);
    if (g_param_info == NULL) return false;
    if (cudaGraphKernelNodeGetParams(k, kp) != cudaSuccess || kp->extra != NULL) return false;
    cudaFunction_t f = NULL;
    if (cudaGetFuncBySymbol(&f, kp->func) != cudaSuccess) return false;
    *total = 0;
    for (int i = 0; i < count; ++i) {
        if (g_param_info((CUfunction)f, (size_t)i, &offs[i], &sizes[i]) != CUDA_SUCCESS) {
            (void)cudaGetLastError();
            return false;
        }
        if (offs[i] + sizes[i] > *total) *total = offs[i] + sizes[i];
    }
    return true;
}

/* n keeps kp, with its `count` parameter values copied into n's own memory. */
static bool keep_launch(px__bnode *n, const struct cudaKernelNodeParams *kp, int count,
                        const size_t *offs, const size_t *sizes, size_t total)
{
    n->params = px__calloc((size_t)count, sizeof *n->params);
    n->values = px__malloc(total);
    if (n->params == NULL || n->values == NULL) {
        free(n->params);
        free(n->values);
        n->params = NULL;
        n->values = NULL;
        return false;
    }
    for (int i = 0; i < count; ++i) {
        memcpy(n->values + offs[i], kp->kernelParams[i], sizes[i]);
        n->params[i] = n->values + offs[i];
    }
    n->nparams = count;
    n->kp = *kp;
    n->kp.kernelParams = n->params;
    return true;
}

/* n takes a copy of kernel node k's launch and parameter values when it is a
   parallel_for kernel whose parameter 0 is the kernel's Args, so that set_args can swap
   that one. false when it cannot be described (no cuFuncGetParamInfo, or a parameter
   list other than the expected one): the node stays a child graph then. */
static bool take_kernel(px__bnode *n, cudaGraphNode_t k, const px__dispatch *d)
{
    if (d->kernel->kind != PX_KERNEL_FOR || d->kernel->team) return false;
    const int count = for_param_count(d->policy.rank);
    struct cudaKernelNodeParams kp;
    size_t offs[3], sizes[3], total = 0;
    if (!kernel_layout(k, count, &kp, offs, sizes, &total) || sizes[0] != d->kernel->args_size ||
        !keep_launch(n, &kp, count, offs, sizes, total))
        return false;
    n->kernel = d->kernel;
    n->policy = d->policy;
    n->single = true;
    return true;
}

/* The same for a fill whose one kernel is the fill-value kernel: its parameters are the
   target, the count and the value (copy/fill.h). */
static bool take_fill(px__bnode *n, cudaGraphNode_t k, const px__copy_op *op)
{
    struct cudaKernelNodeParams kp;
    size_t offs[3], sizes[3], total = 0;
    const void *fn = px__cuda_fill_value_kernel(op->dst.data, op->elem_size);
    if (fn == NULL || !kernel_layout(k, 3, &kp, offs, sizes, &total) || kp.func != fn ||
        sizes[0] != sizeof(void *) || sizes[1] != sizeof(uint64_t) || sizes[2] != op->elem_size)
        return false;
    /* The view's own memory (not a peer mapping of it), which set_fill passes again. */
    void *dst;
    memcpy(&dst, kp.kernelParams[0], sizeof dst);
    return dst == op->dst.data && keep_launch(n, &kp, 3, offs, sizes, total);
}

/* n's launch as the driver holds it, its parameters pointing at n's own values as kp's do,
   so that set_args can update it through the driver. */
static void take_driver_params(px__bnode *n)
{
    const px__cuda_driver_calls *drv = px__cuda_driver_calls_get();
    n->has_dkp = drv->kernel_node_get != NULL && drv->exec_kernel_node_set != NULL &&
                 drv->kernel_node_get((CUgraphNode)n->node, &n->dkp) == CUDA_SUCCESS &&
                 n->dkp.extra == NULL;
    if (n->has_dkp) n->dkp.kernelParams = n->params;
}

/* The node for a recorded graph: a kernel node when it is one kernel that can be taken
   (a parallel_for's or a fill's), a memcpy node when a copy is one memcpy, an empty node
   when nothing was recorded (an empty range), a child graph otherwise. */
static px_status add_recorded(px__bgraph *g, px__bnode *n, cudaGraph_t tg,
                              const px__gnode_desc *desc, const cudaGraphNode_t *deps, size_t ndeps)
{
    size_t count = 0;
    PX__CU_TRY(cudaGraphGetNodes(tg, NULL, &count));
    if (count == 0) return PX__CU(cudaGraphAddEmptyNode(&n->node, g->graph, deps, ndeps));
    if (count == 1) {
        cudaGraphNode_t k = NULL;
        enum cudaGraphNodeType type;
        PX__CU_TRY(cudaGraphGetNodes(tg, &k, &count));
        PX__CU_TRY(cudaGraphNodeGetType(k, &type));
        const bool kernel = type == cudaGraphNodeTypeKernel;
        if ((kernel && desc->kind == PX__GNODE_KERNEL && take_kernel(n, k, &desc->dispatch)) ||
            (kernel && desc->kind == PX__GNODE_FILL && take_fill(n, k, &desc->op))) {
            PX__CU_TRY(cudaGraphAddKernelNode(&n->node, g->graph, deps, ndeps, &n->kp));
            take_driver_params(n);
            return PX_OK;
        }
        /* Conditional bodies hold memcpy nodes under rules of their own; theirs stay in a
           child graph, as recorded. */
        if (type == cudaGraphNodeTypeMemcpy && desc->kind == PX__GNODE_COPY && !g->is_body) {
            PX__CU_TRY(cudaGraphMemcpyNodeGetParams(k, &n->mp));
            PX__CU_TRY(cudaGraphAddMemcpyNode(&n->node, g->graph, deps, ndeps, &n->mp));
            n->is_memcpy = true;
            n->mp_dst = (uintptr_t)desc->op.dst.data;
            n->mp_src = (uintptr_t)desc->op.src.data;
            return PX_OK;
        }
    }
    return PX__CU(cudaGraphAddChildGraphNode(&n->node, g->graph, deps, ndeps, tg));
}

/* ---- Conditionals -------------------------------------------------------------------------- */

static px_status add_conditional(px__bgraph *g, px__bnode *n, const px__gnode_desc *desc,
                                 const cudaGraphNode_t *deps, size_t ndeps, px__bgraph **body,
                                 uint64_t *cond)
{
    px__bgraph *b = px__calloc(1, sizeof *b);
    if (b == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the body");
    cudaGraphConditionalHandle h = 0;
    px_status st = PX__CU(
        cudaGraphConditionalHandleCreate(&h, g->graph, desc->initial, cudaGraphCondAssignDefault));
    if (st == PX_OK) {
        struct cudaGraphNodeParams p;
        memset(&p, 0, sizeof p);
        p.type = cudaGraphNodeTypeConditional;
        p.conditional.handle = h;
        p.conditional.type =
            desc->kind == PX__GNODE_WHILE ? cudaGraphCondTypeWhile : cudaGraphCondTypeIf;
        p.conditional.size = 1;
        st = PX__CU(cudaGraphAddNode(&n->node, g->graph, deps, NULL, ndeps, &p));
        if (st == PX_OK) b->graph = p.conditional.phGraph_out[0];
    }
    if (st != PX_OK) {
        free(b);
        return st;
    }
    b->device = g->device;
    b->root = g->root;
    b->is_body = true;
    n->body = b;
    *body = b;
    *cond = (uint64_t)h;
    return PX_OK;
}

/* ---- Adding a node ----------------------------------------------------------------------- */

static px_status add_node(px__bgraph *g, px__bnode *n, const px__gnode_desc *desc,
                          const cudaGraphNode_t *deps, size_t ndeps, px__bgraph **body,
                          uint64_t *cond)
{
    switch (desc->kind) {
    case PX__GNODE_KERNEL:
    case PX__GNODE_COPY:
    case PX__GNODE_FILL: {
        cudaGraph_t tg = NULL;
        PX__TRY(px__cuda_graph_record(g, desc, NULL, &n->mem_first, &n->mem_count, &tg));
        const px_status st = add_recorded(g, n, tg, desc, deps, ndeps);
        (void)cudaGraphDestroy(tg);
        return st;
    }
    case PX__GNODE_HOST: {
        const struct cudaHostNodeParams hp = {desc->fn, desc->data};
        return PX__CU(cudaGraphAddHostNode(&n->node, g->graph, deps, ndeps, &hp));
    }
    case PX__GNODE_EMPTY: return PX__CU(cudaGraphAddEmptyNode(&n->node, g->graph, deps, ndeps));
    case PX__GNODE_CHILD:
        n->child = desc->child;
        return PX__CU(
            cudaGraphAddChildGraphNode(&n->node, g->graph, deps, ndeps, desc->child->graph));
    case PX__GNODE_WHILE:
    case PX__GNODE_IF: return add_conditional(g, n, desc, deps, ndeps, body, cond);
    case PX__GNODE_KIND_COUNT: break;
    }
    return px__error(PX_ERR_INVALID_ARGUMENT, "unknown graph node kind %d", (int)desc->kind);
}

px_status px__cuda_graph_add(px__bgraph *g, const px__gnode_desc *desc, px__bnode *const *deps,
                             int ndeps, px__bnode **out, px__bgraph **body, uint64_t *cond)
{
    px__bnode **nodes = px__grow(g->nodes, g->n, &g->cap, 8, sizeof *nodes);
    if (nodes == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a graph node");
    g->nodes = nodes;
    px__bnode *n = px__calloc(1, sizeof *n);
    cudaGraphNode_t small[16];
    cudaGraphNode_t *cdeps = ndeps <= 16 ? small : px__malloc((size_t)ndeps * sizeof *cdeps);
    if (n == NULL || cdeps == NULL) {
        free(n);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for a graph node");
    }
    for (int i = 0; i < ndeps; ++i) cdeps[i] = deps[i]->node;
    n->kind = desc->kind;
    n->owner = g;
    int saved;
    px_status st = px__cuda_enter(g->device, &saved);
    if (st == PX_OK) {
        st = add_node(g, n, desc, cdeps, (size_t)ndeps, body, cond);
        px__cuda_leave(saved);
    }
    if (cdeps != small) free(cdeps);
    if (st != PX_OK) {
        node_free(n);
        return st;
    }
    n->index = g->n;
    g->nodes[g->n++] = n;
    *out = n;
    return PX_OK;
}
