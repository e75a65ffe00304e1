/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Executable CUDA graphs: instantiating, launching in order on a stream, changing
 * parameters in place, and a profiling launch. */
#include "backends/cuda/graph/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/copy/fill.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver/driver.h"
#include "backends/services.h"

static const char *const instantiate_results[] = {
    [cudaGraphInstantiateSuccess] = "success",
    [cudaGraphInstantiateError] = "an unexpected error",
    [cudaGraphInstantiateInvalidStructure] =
        "a structure CUDA cannot run (a cycle, or an allocation node "
        "where it is not allowed)",
    [cudaGraphInstantiateNodeOperationNotSupported] =
        "a node CUDA does not allow there (e.g. a host node in a "
        "conditional body)",
    [cudaGraphInstantiateMultipleDevicesNotSupported] = "nodes on more than one device",
};

/* The index of top-level node `node` of g, or -1. */
static int index_of(const px__bgraph *g, cudaGraphNode_t node)
{
    for (int i = 0; node != NULL && i < g->n; ++i)
        if (g->nodes[i]->node == node) return i;
    return -1;
}

/* Instantiates `graph`; CUDA's refusal named, at a node of g when it says which. */
static px_status instantiate(const px__bgraph *g, cudaGraph_t graph, cudaGraphExec_t *out)
{
    cudaGraphInstantiateParams ip;
    memset(&ip, 0, sizeof ip);
    const cudaError_t err = cudaGraphInstantiateWithParams(out, graph, &ip);
    if (err == cudaSuccess) return PX_OK;
    (void)cudaGetLastError();
    const unsigned r = (unsigned)ip.result_out;
    const char *why =
        r < sizeof instantiate_results / sizeof instantiate_results[0] && instantiate_results[r]
            ? instantiate_results[r]
            : "an unknown reason";
    const int at = index_of(g, ip.errNode_out);
    char where[32] = "";
    if (at >= 0) snprintf(where, sizeof where, "; at node %d", at);
    return px__error(err == cudaErrorMemoryAllocation ? PX_ERR_OUT_OF_MEMORY : PX_ERR_UNSUPPORTED,
                     "CUDA cannot instantiate the graph: %s (%s)%s", why, cudaGetErrorName(err),
                     where);
}

static void drop_owners(px__bexec *e)
{
    for (int i = 0; i < e->nowners; ++i) {
        pthread_mutex_lock(&e->owners[i]->lock);
        e->owners[i]->users--;
        pthread_mutex_unlock(&e->owners[i]->lock);
    }
    free(e->owners);
    e->owners = NULL;
    e->nowners = 0;
}

/* e's launches use the scratch of g's owners from now on. */
static px_status take_owners(px__bexec *e, const px__bgraph *g)
{
    px__bgraph **owners = NULL;
    int n = 0;
    PX__TRY(px__cuda_graph_owners(g, &owners, &n));
    drop_owners(e);
    for (int i = 0; i < n; ++i) {
        pthread_mutex_lock(&owners[i]->lock);
        owners[i]->users++;
        pthread_mutex_unlock(&owners[i]->lock);
    }
    e->owners = owners;
    e->nowners = n;
    return PX_OK;
}

static px_status cuda_instantiate(px__bgraph *g, px__bexec **out)
{
    *out = NULL;
    px__bexec *e = px__calloc(1, sizeof *e);
    if (e == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the executable graph");
    int saved;
    px_status st = px__cuda_enter(g->device, &saved);
    if (st != PX_OK) {
        free(e);
        return st;
    }
    st = instantiate(g, g->graph, &e->exec);
    px__cuda_leave(saved);
    if (st != PX_OK) {
        free(e);
        return st;
    }
    e->graph = g;
    st = take_owners(e, g);
    if (st != PX_OK) {
        (void)cudaGraphExecDestroy(e->exec);
        free(e);
        return st;
    }
    *out = e;
    return PX_OK;
}

static px_status cuda_exec_destroy(px__bexec *e)
{
    px__bgraph *g = e->graph;
    int saved;
    px_status st = px__cuda_enter(g->device, &saved);
    if (st == PX_OK) {
        /* Its launches end, or CUDA reports the error that ended them. */
        if (e->launched) st = PX__CU(cudaEventSynchronize(e->done));
        (void)cudaGraphExecDestroy(e->exec);
        if (e->done) (void)cudaEventDestroy(e->done);
        (void)cudaGetLastError();
        px__cuda_leave(saved);
    }
    drop_owners(e);
    free(e);
    return st;
}

static px_status cuda_upload(px__bexec *e, px__queue *queue)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = PX__CU(cudaGraphUpload(e->exec, q->stream));
    px__cuda_leave(saved);
    return st;
}

/* Launches `exec` on s, after the previous launch of any other executable graph that uses
   the scratch of one of e's owners. The owners' locks are taken in address order and held
   only while work is queued. */
static px_status launch_ordered(px__bexec *e, cudaGraphExec_t exec, cudaStream_t s)
{
    const px__cuda_ctx ctx = px__cuda_ctx_kernel("graph launch");
    if (e->nowners == 0) return PX__CU_AT(cudaGraphLaunch(exec, s), &ctx);
    for (int i = 0; i < e->nowners; ++i) pthread_mutex_lock(&e->owners[i]->lock);
    px_status st = PX_OK;
    for (int i = 0; st == PX_OK && i < e->nowners; ++i)
        if (e->owners[i]->users > 1) st = PX__CU(cudaStreamWaitEvent(s, e->owners[i]->last, 0));
    if (st == PX_OK) st = PX__CU_AT(cudaGraphLaunch(exec, s), &ctx);
    for (int i = 0; st == PX_OK && i < e->nowners; ++i)
        if (e->owners[i]->users > 1) st = PX__CU(cudaEventRecord(e->owners[i]->last, s));
    for (int i = e->nowners - 1; i >= 0; --i) pthread_mutex_unlock(&e->owners[i]->lock);
    return st;
}

static px_status cuda_launch(px__bexec *e, px__queue *queue)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    /* The event destroy waits on, made at the first launch: an executable graph never
       launched costs no event. */
    px_status st =
        e->done ? PX_OK : PX__CU(cudaEventCreateWithFlags(&e->done, cudaEventDisableTiming));
    if (st == PX_OK) st = launch_ordered(e, e->exec, q->stream);
    if (st == PX_OK) st = PX__CU(cudaEventRecord(e->done, q->stream));
    if (st == PX_OK) e->launched = true;
    px__cuda_leave(saved);
    return st;
}

/* ---- Changing nodes in place ------------------------------------------------------------- */

static bool same_policy(const px_policy *a, const px_policy *b)
{
    if (a->rank != b->rank || a->iterate != b->iterate) return false;
    for (int d = 0; d < a->rank; ++d)
        if (a->begin[d] != b->begin[d] || a->end[d] != b->end[d] || a->tile[d] != b->tile[d])
            return false;
    return true;
}

static px_status refused(cudaError_t err, const px__bnode *n)
{
    (void)cudaGetLastError();
    return px__error(
        PX_ERR_UNSUPPORTED,
        "CUDA cannot apply this change to node %d in place (%s: %s); instantiate the graph again",
        n->index, cudaGetErrorName(err), cudaGetErrorString(err));
}

/* The new parameters recorded again, and given to the node as a whole. */
static px_status set_recorded(px__bexec *e, px__bnode *n, const px__gnode_desc *desc)
{
    cudaGraph_t tg = NULL;
    int first = 0, taken = 0; /* n keeps the blocks it was made with */
    PX__TRY(px__cuda_graph_record(n->owner, desc, n, &first, &taken, &tg));
    size_t count = 0;
    cudaError_t err = cudaGraphGetNodes(tg, NULL, &count);
    if (err == cudaSuccess && (n->nparams > 0 || n->is_memcpy)) {
        /* A kernel or memcpy node of its own: the one node recorded, of the same type. */
        cudaGraphNode_t k = NULL;
        if (count != 1) err = cudaErrorInvalidValue;
        if (err == cudaSuccess) err = cudaGraphGetNodes(tg, &k, &count);
        if (err == cudaSuccess && n->nparams > 0) {
            struct cudaKernelNodeParams kp;
            err = cudaGraphKernelNodeGetParams(k, &kp);
            if (err == cudaSuccess) err = cudaGraphExecKernelNodeSetParams(e->exec, n->node, &kp);
        } else if (err == cudaSuccess) {
            struct cudaMemcpy3DParms mp;
            err = cudaGraphMemcpyNodeGetParams(k, &mp);
            if (err == cudaSuccess) err = cudaGraphExecMemcpyNodeSetParams(e->exec, n->node, &mp);
        }
    } else if (err == cudaSuccess) {
        enum cudaGraphNodeType type;
        err = cudaGraphNodeGetType(n->node, &type);
        if (err == cudaSuccess && type == cudaGraphNodeTypeGraph)
            err = cudaGraphExecChildGraphNodeSetParams(e->exec, n->node, tg);
        else if (err == cudaSuccess && count != 0)
            err = cudaErrorInvalidValue; /* an empty range's node cannot become work */
    }
    (void)cudaGraphDestroy(tg);
    return err == cudaSuccess ? PX_OK : refused(err, n);
}

/* A kept kernel launch (single kernels, fills) with parameters `which` made `values`, the
   rest as recorded: one driver call, which acts on the executable graph's own context, or
   the runtime's, which says why should the driver refuse. */
static cudaError_t set_params(px__bexec *e, px__bnode *n, int count, const int *which,
                              void *const *values)
{
    void *params[32];
    memcpy(params, n->params, (size_t)n->nparams * sizeof *params);
    for (int i = 0; i < count; ++i) params[which[i]] = values[i];
    if (n->has_dkp) {
        /* About 0.15 us less than the runtime's call. */
        CUDA_KERNEL_NODE_PARAMS dkp = n->dkp;
        dkp.kernelParams = params;
        if (px__cuda_driver_calls_get()->exec_kernel_node_set(
                (CUgraphExec)e->exec, (CUgraphNode)n->node, &dkp) == CUDA_SUCCESS)
            return cudaSuccess;
    }
    struct cudaKernelNodeParams kp = n->kp;
    kp.kernelParams = params;
    return cudaGraphExecKernelNodeSetParams(e->exec, n->node, &kp);
}

/* A fill node of one fill-value kernel: its target (the node's, or after an update the
   graph's it came from) and count, and the new value, as parameters; the grid-stride
   kernel covers any count with the grid it has. cudaErrorInvalidValue when another kernel
   would fill this target (it is recorded then). */
static cudaError_t set_fill_value(px__bexec *e, px__bnode *n, const px__copy_op *op)
{
    if (px__cuda_fill_value_kernel(op->dst.data, op->elem_size) != n->kp.func)
        return cudaErrorInvalidValue;
    void *dst = op->dst.data;
    uint64_t count = (uint64_t)op->count;
    const int which[3] = {0, 1, 2};
    void *const values[3] = {&dst, &count, (void *)op->value};
    return set_params(e, n, 3, which, values);
}

/* A memcpy node: its recorded parameters with both pointers moved by as far as the new
   views' memory is from the memory it was recorded with (same layouts: the core checked). */
static cudaError_t set_memcpy(px__bexec *e, px__bnode *n, const px__copy_op *op)
{
    struct cudaMemcpy3DParms p = n->mp;
    if (p.dstPtr.ptr)
        p.dstPtr.ptr = (void *)((uintptr_t)p.dstPtr.ptr - n->mp_dst + (uintptr_t)op->dst.data);
    if (p.srcPtr.ptr)
        p.srcPtr.ptr = (void *)((uintptr_t)p.srcPtr.ptr - n->mp_src + (uintptr_t)op->src.data);
    return cudaGraphExecMemcpyNodeSetParams(e->exec, n->node, &p);
}

static px_status cuda_set(px__bexec *e, px__bnode *n, const px__gnode_desc *desc)
{
    /* Copies and fills of one node change in place without recording; should CUDA refuse,
       the recorded path says why. */
    cudaError_t err = cudaErrorInvalidValue;
    if (desc->kind == PX__GNODE_COPY && n->is_memcpy)
        err = set_memcpy(e, n, &desc->op);
    else if (desc->kind == PX__GNODE_FILL && n->nparams > 0) /* kept: one fill-value kernel */
        err = set_fill_value(e, n, &desc->op);
    if (err == cudaSuccess) return PX_OK;
    (void)cudaGetLastError();
    int saved;
    PX__TRY(px__cuda_enter(e->graph->device, &saved));
    const px_status st = set_recorded(e, n, desc);
    px__cuda_leave(saved);
    return st;
}

static px_status cuda_set_args(px__bexec *e, px__bnode *n, const px__dispatch *d)
{
    if (n->single && d->kernel == n->kernel && same_policy(&d->policy, &n->policy)) {
        /* Parameter 0 (the kernel's Args) new, the rest as captured. */
        const int which[1] = {0};
        void *const values[1] = {(void *)d->args};
        const cudaError_t err = set_params(e, n, 1, which, values);
        return err == cudaSuccess ? PX_OK : refused(err, n);
    }
    const px__gnode_desc desc = {.kind = PX__GNODE_KERNEL, .label = d->label, .dispatch = *d};
    return cuda_set(e, n, &desc);
}

static const char *update_reason(enum cudaGraphExecUpdateResult r)
{
    switch (r) {
    case cudaGraphExecUpdateErrorTopologyChanged: return "the dependencies differ";
    case cudaGraphExecUpdateErrorNodeTypeChanged: return "a node's type differs";
    case cudaGraphExecUpdateErrorFunctionChanged:
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange:
        return "a kernel node runs another kernel";
    case cudaGraphExecUpdateErrorParametersChanged:
        return "a node's parameters changed in a way CUDA cannot apply";
    case cudaGraphExecUpdateErrorNotSupported: return "CUDA does not update a node of this kind";
    case cudaGraphExecUpdateErrorAttributesChanged: return "a node's attributes differ";
    default: return "an unexpected error";
    }
}

static px_status cuda_update(px__bexec *e, px__bgraph *from, px__graph_update_error *why)
{
    int saved;
    PX__TRY(px__cuda_enter(e->graph->device, &saved));
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    const cudaError_t err = cudaGraphExecUpdate(e->exec, from->graph, &info);
    px_status st = PX_OK;
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        why->node = index_of(from, info.errorNode);
        snprintf(why->reason, sizeof why->reason, "%s (%s)", update_reason(info.result),
                 cudaGetErrorName(err));
        st = px__error(PX_ERR_INVALID_ARGUMENT, "CUDA refused the update at node %d: %s", why->node,
                       why->reason);
    } else {
        /* Its kernels now use from's scratch, and profiling runs from. */
        st = take_owners(e, from);
        e->current = from;
    }
    px__cuda_leave(saved);
    return st;
}

/* ---- Profiling ---------------------------------------------------------------------------- */

/* A copy of g with its first `count` top-level nodes in a chain (those added after it are
   left out), an event recorded before the first and after each (ev[0..count]). */
static px_status profile_graph(const px__bgraph *g, int count, cudaEvent_t *ev, cudaGraph_t *out)
{
    cudaGraph_t c = NULL;
    PX__CU_TRY(cudaGraphClone(&c, g->graph));
    size_t m = 0;
    cudaError_t err = cudaGraphGetEdges(c, NULL, NULL, NULL, &m);
    cudaGraphNode_t *from = NULL, *to = NULL;
    if (err == cudaSuccess && m > 0) {
        from = px__malloc(m * sizeof *from);
        to = px__malloc(m * sizeof *to);
        if (from == NULL || to == NULL) err = cudaErrorMemoryAllocation;
        if (err == cudaSuccess) err = cudaGraphGetEdges(c, from, to, NULL, &m);
        if (err == cudaSuccess) err = cudaGraphRemoveDependencies(c, from, to, NULL, m);
    }
    free(from);
    free(to);
    cudaGraphNode_t prev = NULL;
    if (err == cudaSuccess) err = cudaGraphAddEventRecordNode(&prev, c, NULL, 0, ev[0]);
    for (int i = 0; err == cudaSuccess && i < g->n; ++i) {
        cudaGraphNode_t node = NULL, rec = NULL;
        if (i >= count) { /* added after instantiation: not part of the executable graph */
            err = cudaGraphNodeFindInClone(&node, g->nodes[i]->node, c);
            if (err == cudaSuccess) err = cudaGraphDestroyNode(node);
            continue;
        }
        err = cudaGraphNodeFindInClone(&node, g->nodes[i]->node, c);
        if (err == cudaSuccess) err = cudaGraphAddDependencies(c, &prev, &node, NULL, 1);
        if (err == cudaSuccess) err = cudaGraphAddEventRecordNode(&rec, c, &node, 1, ev[i + 1]);
        prev = rec;
    }
    if (err != cudaSuccess) {
        (void)cudaGraphDestroy(c);
        return px__cuda_check(err, "building the profiling graph", NULL);
    }
    *out = c;
    return PX_OK;
}

static px_status cuda_profile(px__bexec *e, px__queue *queue, double *us, int n, double *total)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    px__bgraph *g = e->current ? e->current : e->graph;
    /* Timed as a whole: a captured graph (its nodes are CUDA's, not portex's), and a
       graph with conditional nodes (CUDA cannot copy those to chain them). */
    const bool whole = g->native || px__cuda_graph_has_conditionals(g);
    const int timed = whole ? 0 : (n < g->n ? n : g->n);
    cudaEvent_t *ev = px__calloc((size_t)timed + 2, sizeof *ev);
    if (ev == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    int saved;
    px_status st = px__cuda_enter(q->device, &saved);
    if (st != PX_OK) {
        free(ev);
        return st;
    }
    int made = 0;
    for (; st == PX_OK && made < timed + 2; ++made) st = PX__CU(cudaEventCreate(&ev[made]));
    cudaGraph_t pg = NULL;
    cudaGraphExec_t pe = NULL;
    if (st == PX_OK && !whole) st = profile_graph(g, timed, ev, &pg);
    if (st == PX_OK && pg) st = PX__CU(cudaGraphInstantiate(&pe, pg, 0));
    /* ev[timed + 1] frames the whole run with ev[0] for a captured graph. */
    cudaEvent_t first = ev[0], last = whole ? ev[timed + 1] : ev[timed];
    if (st == PX_OK && whole) st = PX__CU(cudaEventRecord(first, q->stream));
    if (st == PX_OK) st = launch_ordered(e, pe ? pe : e->exec, q->stream);
    if (st == PX_OK && whole) st = PX__CU(cudaEventRecord(last, q->stream));
    if (st == PX_OK) st = PX__CU(cudaEventSynchronize(last));
    float ms = 0;
    if (st == PX_OK) st = PX__CU(cudaEventElapsedTime(&ms, first, last));
    if (st == PX_OK) *total = 1e3 * ms;
    for (int i = 0; st == PX_OK && i < timed; ++i) {
        st = PX__CU(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
        us[i] = 1e3 * ms;
    }
    if (pe) (void)cudaGraphExecDestroy(pe);
    if (pg) (void)cudaGraphDestroy(pg);
    for (int i = 0; i < made; ++i) (void)cudaEventDestroy(ev[i]);
    px__cuda_leave(saved);
    free(ev);
    return st;
}

const px__graph_ops px__cuda_graph_ops = {
    .create = px__cuda_graph_create,
    .destroy = px__cuda_graph_destroy,
    .add = px__cuda_graph_add,
    .instantiate = cuda_instantiate,
    .exec_destroy = cuda_exec_destroy,
    .upload = cuda_upload,
    .launch = cuda_launch,
    .set = cuda_set,
    .set_args = cuda_set_args,
    .update = cuda_update,
    .profile = cuda_profile,
    .capture_begin = px__cuda_capture_begin,
    .capture_end = px__cuda_capture_end,
};
