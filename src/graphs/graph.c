/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Graphs: making them, their nodes' bookkeeping (labels, dependencies, held memory), and
 * their lifetime. The nodes of each kind are added in nodes.c. */
#include "graphs/graph.h"

#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/state.h"
#include "base/util.h"

px_status px__graph_check(const px_graph *g, const char *what)
{
    if (g == NULL)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s is NULL (a destroyed graph?)", what);
    if (g->magic != PX__GRAPH_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s is not a live graph", what);
    return PX_OK;
}

px_status px__graph_node_check(const px_graph_node *n, const char *what)
{
    if (n == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "%s is NULL", what);
    if (n->magic != PX__GNODE_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s is not a node of a live graph", what);
    return PX_OK;
}

px_graph *px__graph_root(px_graph *g)
{
    while (g->owner != NULL) g = g->owner;
    return g;
}

static const char *const kind_names[PX__GNODE_KIND_COUNT] = {
    [PX__GNODE_KERNEL] = "kernel", [PX__GNODE_COPY] = "copy",   [PX__GNODE_FILL] = "fill",
    [PX__GNODE_HOST] = "host",     [PX__GNODE_EMPTY] = "empty", [PX__GNODE_CHILD] = "child",
    [PX__GNODE_WHILE] = "while",   [PX__GNODE_IF] = "if",
};

const char *px__graph_node_kind_name(const px_graph_node *n)
{
    if (n->kind == PX__GNODE_KERNEL) {
        switch (n->kernel->kind) {
        case PX_KERNEL_FOR: return "for";
        case PX_KERNEL_REDUCE: return "reduce";
        case PX_KERNEL_SCAN: return "scan";
        }
    }
    return (int)n->kind >= 0 && n->kind < PX__GNODE_KIND_COUNT ? kind_names[n->kind] : "unknown";
}

bool px__graph_any(const px_graph *g, int count,
                   bool (*visit)(const px_graph_node *n, const void *ctx), const void *ctx)
{
    for (int i = 0; i < count; ++i) {
        const px_graph_node *n = g->nodes[i];
        if (visit(n, ctx)) return true;
        if (n->child && px__graph_any(n->child, n->child_n, visit, ctx)) return true;
        if (n->body && px__graph_any(n->body, n->body->n, visit, ctx)) return true;
    }
    return false;
}

static bool is_conditional(const px_graph_node *n, const void *ctx)
{
    (void)ctx;
    return n->body != NULL;
}

bool px__graph_has_conditionals(const px_graph *g, int count)
{
    return px__graph_any(g, count, is_conditional, NULL);
}

/* ---- Lifetime ----------------------------------------------------------------------------- */

px_status px__graph_new(px_graph **out, const px__backend *be, int device, const char *label,
                        px__bgraph *bgraph)
{
    *out = NULL;
    char *copy = NULL;
    px_graph *g = px__calloc_labelled(sizeof *g, label ? label : "graph", &copy);
    if (!g) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
    g->magic = PX__GRAPH_MAGIC;
    atomic_init(&g->refs, 1);
    atomic_init(&g->nexec, 0);
    atomic_init(&g->copies, 0);
    g->be = be;
    g->exec = be->exec;
    g->device = device;
    g->label = copy;
    g->bgraph = bgraph;
    *out = g;
    return PX_OK;
}

void px__graph_retain(px_graph *g) { atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed); }

px_status px__graph_params_copy(px__dispatch *d, px__copy_op *op, const px__gnode_desc *desc)
{
    if (d != NULL) {
        const size_t bytes = desc->dispatch.kernel->args_size;
        void *args = bytes ? px__malloc(bytes) : NULL;
        if (bytes && args == NULL)
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for arguments");
        if (bytes) memcpy(args, desc->dispatch.args, bytes);
        *d = desc->dispatch;
        d->args = args;
    }
    if (op != NULL) {
        void *value = NULL;
        if (desc->kind == PX__GNODE_FILL) {
            value = px__malloc(desc->op.elem_size);
            if (value == NULL)
                return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the value");
            memcpy(value, desc->op.value, desc->op.elem_size);
        }
        *op = desc->op;
        memset(&op->dst.hold, 0, sizeof op->dst.hold);
        memset(&op->src.hold, 0, sizeof op->src.hold);
        op->value = value;
    }
    return PX_OK;
}

void px__graph_params_free(px__dispatch *d, px__copy_op *op)
{
    if (d != NULL) free((void *)d->args);
    if (op != NULL) free((void *)op->value);
}

static void node_free(px_graph_node *n)
{
    px__graph_params_free(&n->dispatch, &n->op);
    for (int i = 0; i < n->nheld; ++i) px__alloc_release(n->held[i]);
    free(n->held);
    if (n->child) {
        atomic_fetch_sub(&n->child->copies, 1);
        px__graph_release(n->child);
    }
    if (n->body) px__graph_release(n->body);
    if (n->cond) n->cond->magic = 0;
    free(n->cond);
    free(n->dst.label);
    free(n->src.label);
    free(n->deps);
    free(n->label);
    n->magic = 0;
    free(n);
}

void px__graph_release(px_graph *g)
{
    if (atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1) return;
    /* The backend's graph first: its work may name memory the nodes hold. A body's
       belongs to its node's graph in the backend. */
    if (g->owner == NULL && g->bgraph != NULL) g->be->graph->destroy(g->bgraph);
    for (int i = 0; i < g->n; ++i) node_free(g->nodes[i]);
    for (int i = 0; i < g->nheld; ++i) px__alloc_release(g->held[i]);
    free(g->held);
    free(g->nodes);
    px__live_remove(&g->live);
    free(g->label);
    g->magic = 0;
    free(g);
}

/* ---- Nodes -------------------------------------------------------------------------------- */

px_status px__graph_hold(px_graph *g, px_graph_node *n, px__alloc *alloc)
{
    px__alloc ***list = n ? &n->held : &g->held;
    int *count = n ? &n->nheld : &g->nheld, *cap = n ? &n->heldcap : &g->heldcap;
    px__alloc **more = px__grow(*list, *count, cap, 4, sizeof *more);
    if (more == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the graph");
    *list = more;
    px__alloc_retain(alloc);
    (*list)[(*count)++] = alloc;
    return PX_OK;
}

px_status px__graph_check_deps(const px_graph *g, px_graph_node *const *deps, int ndeps)
{
    if (ndeps < 0) return px__error(PX_ERR_INVALID_ARGUMENT, "ndeps is %d; expected >= 0", ndeps);
    if (ndeps > 0 && deps == NULL)
        return px__error(PX_ERR_INVALID_ARGUMENT, "deps is NULL but ndeps is %d", ndeps);
    for (int i = 0; i < ndeps; ++i) {
        char what[32];
        snprintf(what, sizeof what, "deps[%d]", i);
        PX__TRY(px__graph_node_check(deps[i], what));
        if (deps[i]->graph != g)
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "deps[%d] ('%s') is a node of graph '%s', not of graph '%s': a node depends only "
                "on nodes of its own graph",
                i, deps[i]->label, deps[i]->graph->label, g->label);
        for (int j = 0; j < i; ++j)
            if (deps[j] == deps[i])
                return px__error(PX_ERR_INVALID_ARGUMENT,
                                 "deps[%d] and deps[%d] are the same node ('%s')", j, i,
                                 deps[i]->label);
    }
    return PX_OK;
}

/* The node struct, its label and dependencies; not yet in g. */
static px_status node_new(px_graph *g, const px__gnode_desc *desc, px_graph_node *const *deps,
                          int ndeps, const px__gnode_views *views, px_graph_node **out)
{
    px_graph_node *n = px__calloc(1, sizeof *n);
    if (n == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
    n->magic = PX__GNODE_MAGIC;
    n->graph = g;
    n->kind = desc->kind;
    n->initial = desc->initial;
    n->label = px__strdup(desc->label);
    n->deps = px__malloc((size_t)(ndeps > 0 ? ndeps : 1) * sizeof *n->deps);
    if (n->label == NULL || n->deps == NULL) {
        node_free(n);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
    }
    for (int i = 0; i < ndeps; ++i) n->deps[i] = deps[i]->index;
    n->ndeps = ndeps;
    if (views != NULL) {
        const px_view *hold[3] = {views->dst, views->src, views->result};
        n->held = px__calloc(3, sizeof *n->held);
        n->heldcap = 3;
        if (n->held == NULL) {
            node_free(n);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
        }
        for (int i = 0; i < 3; ++i) {
            if (hold[i] == NULL) continue;
            px__alloc_retain(hold[i]->alloc);
            n->held[n->nheld++] = hold[i]->alloc;
        }
        if (views->dst) {
            n->dst.space = views->dst->alloc->space;
            n->dst.dtype = views->dst->dtype;
        }
        if (views->src) {
            n->src.space = views->src->alloc->space;
            n->src.dtype = views->src->dtype;
        }
        n->dst.label = views->dst ? px__strdup(views->dst->label) : NULL;
        n->src.label = views->src ? px__strdup(views->src->label) : NULL;
        if ((views->dst && !n->dst.label) || (views->src && !n->src.label)) {
            node_free(n);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
        }
    }
    if (desc->kind == PX__GNODE_KERNEL) {
        n->kernel = desc->dispatch.kernel;
        if (px__graph_params_copy(&n->dispatch, NULL, desc) != PX_OK) {
            node_free(n);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
        }
        n->dispatch.label = n->label;
    }
    if (desc->kind == PX__GNODE_COPY || desc->kind == PX__GNODE_FILL) {
        if (px__graph_params_copy(NULL, &n->op, desc) != PX_OK) {
            node_free(n);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
        }
    }
    *out = n;
    return PX_OK;
}

/* A WHILE or IF node's body graph and condition, before the backend gives them theirs. */
static px_status cond_parts(px_graph *g, px_graph_node *n)
{
    char *label = px__concat(n->label, " body");
    px_status st = label ? px__graph_new(&n->body, g->be, g->device, label, NULL)
                         : px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the body");
    free(label);
    if (st != PX_OK) return st;
    n->body->owner = g;
    n->cond = px__calloc(1, sizeof *n->cond);
    if (n->cond == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the condition");
    n->cond->magic = PX__GCOND_MAGIC;
    n->cond->node = n;
    return PX_OK;
}

px_status px__graph_append(px_graph *g, const px__gnode_desc *desc, px_graph_node *const *deps,
                           int ndeps, const px__gnode_views *views, px_graph_node **out)
{
    PX__TRY(px__graph_check_deps(g, deps, ndeps));
    px_graph_node **nodes = px__grow(g->nodes, g->n, &g->cap, 8, sizeof *nodes);
    if (nodes == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
    g->nodes = nodes;
    px_graph_node *n = NULL;
    PX__TRY(node_new(g, desc, deps, ndeps, views, &n));
    px_status st = PX_OK;
    if (desc->kind == PX__GNODE_WHILE || desc->kind == PX__GNODE_IF) st = cond_parts(g, n);
    if (st == PX_OK && !g->native) {
        px__bnode *bdeps_small[16];
        px__bnode **bdeps = ndeps <= 16 ? bdeps_small : px__malloc((size_t)ndeps * sizeof *bdeps);
        if (bdeps == NULL) st = px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node");
        for (int i = 0; st == PX_OK && i < ndeps; ++i) bdeps[i] = deps[i]->bnode;
        px__bgraph *body = NULL;
        uint64_t handle = 0;
        /* No backend runs a copy that moves nothing: it holds an empty node instead. */
        px__gnode_desc noop = {.kind = PX__GNODE_EMPTY, .label = desc->label};
        const bool is_op = desc->kind == PX__GNODE_COPY || desc->kind == PX__GNODE_FILL;
        const px__gnode_desc *bdesc = is_op && px__graph_op_is_noop(&desc->op) ? &noop : desc;
        if (st == PX_OK)
            st = g->be->graph->add(g->bgraph, bdesc, bdeps, ndeps, &n->bnode, &body, &handle);
        if (bdeps != bdeps_small) free(bdeps);
        if (st == PX_OK && n->body) {
            n->body->bgraph = body;
            n->cond->handle = handle;
        }
    }
    if (st != PX_OK) {
        node_free(n);
        return st;
    }
    n->index = g->n;
    g->nodes[g->n++] = n;
    if (out) *out = n;
    return PX_OK;
}

/* ---- Public: graphs and what they say about themselves ------------------------------------- */

px_status px_graph_create(px_graph **out, px_exec_space exec, int device, const char *label)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__require_init());
    PX__ARG((int)exec >= 0 && exec < PX_EXEC_COUNT, "exec is %d; expected a px_exec_space",
            (int)exec);
    const px__backend *be = px__backend_get(exec);
    if (be == NULL)
        return PX__FAIL(PX_ERR_UNSUPPORTED, "execution space %s is not compiled into this build",
                        px_exec_space_string(exec));
    if (be->graph == NULL)
        return PX__FAIL(PX_ERR_UNSUPPORTED, "the %s backend has no graphs", be->name);
    int count = 0;
    PX__TRY(be->device_count(&count));
    if (device < 0 || device >= count)
        return PX__FAIL(PX_ERR_NO_DEVICE, "device %d of %s does not exist (%d device(s) here)",
                        device, px_exec_space_string(exec), count);
    px__bgraph *bg = NULL;
    PX__TRY(be->graph->create(be, device, &bg));
    px_graph *g = NULL;
    const px_status st = px__graph_new(&g, be, device, label, bg);
    if (st != PX_OK) {
        be->graph->destroy(bg);
        return st;
    }
    px__live_add(&g->live, PX__OBJ_GRAPH, g->label);
    *out = g;
    return PX_OK;
}

px_status px_graph_destroy(px_graph **graph)
{
    PX__ENTER;
    PX__ARG(graph, "graph must not be NULL (pass the address of your handle)");
    PX__TRY(px__graph_check(*graph, "*graph"));
    px_graph *g = *graph;
    PX__ARG(g->owner == NULL, "graph '%s' is the body of a node of graph '%s' and goes with it",
            g->label, g->owner->label);
    *graph = NULL;
    g->dropped = true;
    px__live_remove(&g->live);
    px__graph_release(g);
    return PX_OK;
}

px_status px_graph_node_index(const px_graph_node *node, int *out)
{
    PX__ENTER;
    PX__TRY(px__graph_node_check(node, "node"));
    PX__ARG(out, "out must not be NULL");
    *out = node->index;
    return PX_OK;
}

px_status px_graph_node_label(const px_graph_node *node, const char **out)
{
    PX__ENTER;
    PX__TRY(px__graph_node_check(node, "node"));
    PX__ARG(out, "out must not be NULL");
    *out = node->label;
    return PX_OK;
}

px_status px_graph_node_count(const px_graph *graph, int *out)
{
    PX__ENTER;
    PX__TRY(px__graph_check(graph, "graph"));
    PX__ARG(out, "out must not be NULL");
    *out = graph->n;
    return PX_OK;
}

px_status px_graph_exec_space(const px_graph *graph, px_exec_space *exec, int *device)
{
    PX__ENTER;
    PX__TRY(px__graph_check(graph, "graph"));
    PX__ARG(exec && device, "exec and device must not be NULL");
    *exec = graph->exec;
    *device = graph->device;
    return PX_OK;
}

px_status px_graph_cond_value(const px_graph_cond_t *cond, px_cond *out)
{
    PX__ENTER;
    PX__ARG(cond && cond->magic == PX__GCOND_MAGIC,
            "cond is not the condition of a live WHILE or IF node");
    PX__ARG(out, "out must not be NULL");
    out->handle = cond->handle;
    return PX_OK;
}

px_status px_graph_node_uses(px_graph_node *node, px_view *const *views, int nviews)
{
    PX__ENTER;
    PX__TRY(px__graph_node_check(node, "node"));
    PX__ARG(nviews >= 0 && (views != NULL || nviews == 0), "views must hold nviews (%d) views",
            nviews);
    for (int i = 0; i < nviews; ++i) {
        char what[32];
        snprintf(what, sizeof what, "views[%d]", i);
        PX__TRY(px__view_check(views[i], what));
    }
    for (int i = 0; i < nviews; ++i) PX__TRY(px__graph_hold(node->graph, node, views[i]->alloc));
    return PX_OK;
}
