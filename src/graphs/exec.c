/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Executable graphs: instantiating, launching, and changing parameters between launches
 * (one node at a time, or every node from a graph of the same shape).
 *
 * The core keeps each changed node's parameters (px__exec_params) so that the next change
 * starts from what the executable graph runs now: a later px_graph_exec_set_policy keeps
 * the arguments an earlier px_graph_exec_set_args gave. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graphs/graph.h"
#include "observability/profile.h"
#include "runtime/dispatch.h"
#include "runtime/instance.h"
#include "spaces/space.h"

static px_status exec_check(const px_graph_exec *e)
{
    if (e == NULL)
        return px__error(PX_ERR_INVALID_ARGUMENT, "exec is NULL (a destroyed executable graph?)");
    if (e->magic != PX__GEXEC_MAGIC)
        return px__error(PX_ERR_INVALID_ARGUMENT, "exec is not a live executable graph");
    return PX_OK;
}

/* inst can run e: same backend and device, not being captured. */
static px_status check_instance(const px_graph_exec *e, px_instance *inst)
{
    PX__TRY(px__instance_check(inst));
    const px_graph *g = e->graph;
    if (inst->be != g->be || inst->device != g->device)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "graph '%s' belongs to %s:%d but instance '%s' to %s:%d", g->label,
                         px_exec_space_string(g->exec), g->device, inst->label,
                         px_exec_space_string(inst->exec), inst->device);
    return px__instance_refuse_capturing(inst,
                                         "a graph launch (make the graph a child node instead)");
}

static void params_drop(px__exec_params **pp)
{
    px__exec_params *p = *pp;
    if (p == NULL) return;
    px__graph_params_free(&p->dispatch, &p->op);
    if (p->dst) px__alloc_release(p->dst);
    if (p->src) px__alloc_release(p->src);
    free(p);
    *pp = NULL;
}

px_status px_graph_instantiate(px_graph *graph, px_graph_exec **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__graph_check(graph, "graph"));
    PX__ARG(graph->owner == NULL,
            "graph '%s' is the body of a node of graph '%s'; instantiate that graph", graph->label,
            graph->owner->label);
    /* CUDA instantiates a graph with conditional nodes once at a time; so does every
       backend, so that a program that runs on one runs on all. */
    if (px__graph_has_conditionals(graph, graph->n) && atomic_load(&graph->nexec) > 0)
        return PX__FAIL(
            PX_ERR_UNSUPPORTED,
            "graph '%s' holds WHILE or IF nodes and has an executable graph already: CUDA "
            "instantiates "
            "such a graph once at a time; destroy that one first, or build the graph twice",
            graph->label);
    px_graph_exec *e = px__calloc(1, sizeof *e);
    if (e != NULL) e->params = px__calloc(graph->n > 0 ? (size_t)graph->n : 1, sizeof *e->params);
    if (e == NULL || e->params == NULL) {
        if (e) free(e->params);
        free(e);
        return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory for the executable graph");
    }
    const px_status st = graph->be->graph->instantiate(graph->bgraph, &e->bexec);
    if (st != PX_OK) {
        free(e->params);
        free(e);
        return st;
    }
    e->magic = PX__GEXEC_MAGIC;
    e->graph = graph;
    e->n = graph->n;
    atomic_fetch_add(&graph->nexec, 1);
    px__graph_retain(graph);
    px__live_add(&e->live, PX__OBJ_GRAPH_EXEC, graph->label);
    *out = e;
    return PX_OK;
}

px_status px_graph_exec_destroy(px_graph_exec **exec)
{
    PX__ENTER;
    PX__ARG(exec, "exec must not be NULL (pass the address of your handle)");
    PX__TRY(exec_check(*exec));
    px_graph_exec *e = *exec;
    /* Waits for e's launches. A CUDA error met meanwhile is returned, and e is freed all
       the same: the memory it holds goes back only after the work queued before. */
    const px_status st = e->graph->be->graph->exec_destroy(e->bexec);
    *exec = NULL;
    for (int i = 0; i < e->n; ++i) params_drop(&e->params[i]);
    free(e->params);
    px__live_remove(&e->live);
    if (e->updated) px__graph_release(e->updated);
    atomic_fetch_sub(&e->graph->nexec, 1);
    px__graph_release(e->graph);
    e->magic = 0;
    free(e);
    return st;
}

px_status px_graph_upload(px_graph_exec *exec, px_instance *inst)
{
    PX__ENTER;
    PX__TRY(exec_check(exec));
    PX__TRY(check_instance(exec, inst));
    return exec->graph->be->graph->upload(exec->bexec, inst->queue);
}

px_status px_graph_launch(px_graph_exec *exec, px_instance *inst)
{
    PX__ENTER;
    PX__TRY(exec_check(exec));
    PX__TRY(check_instance(exec, inst));
    if (px__prof_on()) {
        px__prof p;
        const px__observed on = px__instance_observed(inst);
        px__prof_graph_begin(&p, &on, exec->graph->label);
        const px_status st = exec->graph->be->graph->launch(exec->bexec, inst->queue);
        px__prof_graph_end(&p, &on);
        PX__TRY(st);
    } else {
        PX__TRY(exec->graph->be->graph->launch(exec->bexec, inst->queue));
    }
    return px__take_bounds_violation(exec->graph->label);
}

/* ---- One node at a time ------------------------------------------------------------------- */

/* node is a top-level node of the graph exec was made from, of kind `kind`, that exec has. */
static px_status check_node(const px_graph_exec *e, const px_graph_node *node, px__gnode_kind kind,
                            const char *what)
{
    PX__TRY(exec_check(e));
    PX__TRY(px__graph_node_check(node, "node"));
    if (node->graph != e->graph)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "node '%s' is a node of graph '%s', not of graph '%s' that exec was made "
                         "from (nodes of "
                         "bodies and children are changed with px_graph_exec_update)",
                         node->label, node->graph->label, e->graph->label);
    if (e->graph->captured)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "graph '%s' came from a capture: change its nodes with px_graph_exec_update",
            e->graph->label);
    if (node->index >= e->n)
        return px__error(PX_ERR_INVALID_ARGUMENT, "node '%s' was added after exec was instantiated",
                         node->label);
    if (node->kind != kind)
        return px__error(PX_ERR_INVALID_ARGUMENT, "node '%s' is a %s node; %s changes %s nodes",
                         node->label, px__graph_node_kind_name(node), px__caller(), what);
    return PX_OK;
}

/* The node exec runs at node's place now: the one of the last whole-graph update, else
   node itself. */
static const px_graph_node *running_node(const px_graph_exec *e, const px_graph_node *node)
{
    return e->updated ? e->updated->nodes[node->index] : node;
}

static px__dispatch current_dispatch(const px_graph_exec *e, const px_graph_node *node)
{
    const px__exec_params *p = e->params[node->index];
    return p ? p->dispatch : running_node(e, node)->dispatch;
}

static px__copy_op current_op(const px_graph_exec *e, const px_graph_node *node)
{
    const px__exec_params *p = e->params[node->index];
    return p ? p->op : running_node(e, node)->op;
}

/* A copy or fill node changed before: its kept parameters become desc's in place (the
   fill's value into the same buffer: the element size cannot change), no allocation. */
static void reuse_op_params(px__exec_params *p, const px__gnode_desc *desc)
{
    void *value = (void *)p->op.value;
    if (value) memcpy(value, desc->op.value, desc->op.elem_size);
    p->op = desc->op;
    memset(&p->op.dst.hold, 0, sizeof p->op.dst.hold);
    memset(&p->op.src.hold, 0, sizeof p->op.src.hold);
    p->op.value = value;
}

/* Gives node's backend node the parameters of desc, then keeps copies of them as node's
   parameters in exec, with the memory a copy names (dst, src, else NULL): references the
   caller took, which exec owns from then on (on a failure they stay the caller's). */
static px_status apply(px_graph_exec *e, const px_graph_node *node, const px__gnode_desc *desc,
                       px__alloc *dst, px__alloc *src)
{
    const bool kernel = desc->kind == PX__GNODE_KERNEL;
    px__exec_params *kept = e->params[node->index];
    /* A copy or fill changed before keeps its parameters' memory: changing one in a loop
       allocates nothing. */
    const bool reuse = !kernel && kept != NULL;
    px__exec_params *fresh = reuse ? kept : px__calloc(1, sizeof *fresh);
    if (fresh == NULL)
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the node's parameters");
    px_status st = reuse ? PX_OK
                         : px__graph_params_copy(kernel ? &fresh->dispatch : NULL,
                                                 kernel ? NULL : &fresh->op, desc);
    /* A copy or fill that moves nothing is an empty node in the backend (and stays one:
       the new views match the old in extents and path): nothing to give it. */
    const bool noop = !kernel && px__graph_op_is_noop(&desc->op);
    if (st == PX_OK && !noop) st = e->graph->be->graph->set(e->bexec, node->bnode, desc);
    if (st != PX_OK) {
        if (!reuse) params_drop(&fresh);
        return st;
    }
    if (reuse) {
        /* The memory of the previous change is let go: device frees wait for the work
           queued before them, launches of exec included. */
        if (kept->dst) px__alloc_release(kept->dst);
        if (kept->src) px__alloc_release(kept->src);
        reuse_op_params(kept, desc);
    } else {
        if (kernel) fresh->dispatch.label = node->label;
        params_drop(&e->params[node->index]);
        e->params[node->index] = fresh;
    }
    fresh->dst = dst;
    fresh->src = src;
    return PX_OK;
}

/* The kernel node's parameters in exec, made from those it runs now on the first change:
   later changes of the arguments reuse the copy (no allocation per call). */
static px_status kernel_params(px_graph_exec *e, const px_graph_node *node, px__exec_params **out)
{
    px__exec_params *p = e->params[node->index];
    if (p == NULL) {
        const px__dispatch cur = running_node(e, node)->dispatch;
        const size_t bytes = cur.kernel->args_size;
        p = px__calloc(1, sizeof *p);
        void *args = p && bytes ? px__malloc(bytes) : NULL;
        if (p == NULL || (bytes && args == NULL)) {
            free(p);
            return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for arguments");
        }
        if (bytes) memcpy(args, cur.args, bytes);
        p->dispatch = cur;
        p->dispatch.args = args;
        p->dispatch.label = node->label;
        e->params[node->index] = p;
    }
    *out = p;
    return PX_OK;
}

px_status px_graph_exec_set_args(px_graph_exec *exec, px_graph_node *node, const void *args)
{
    PX__ENTER;
    PX__TRY(check_node(exec, node, PX__GNODE_KERNEL, "kernel"));
    PX__ARG(args || node->kernel->args_size == 0, "args must not be NULL (kernel '%s')",
            node->kernel->name);
    px__exec_params *p = NULL;
    PX__TRY(kernel_params(exec, node, &p));
    px__dispatch d = p->dispatch;
    d.args = args;
    PX__TRY(exec->graph->be->graph->set_args(exec->bexec, node->bnode, &d));
    if (node->kernel->args_size) memcpy((void *)p->dispatch.args, args, node->kernel->args_size);
    return PX_OK;
}

/* Node's kernel parameters become d, a dispatch prepared from cur (its current ones) under
   a new policy: the result goes where it went. */
static px_status apply_policy(px_graph_exec *exec, px_graph_node *node, const px__dispatch *cur,
                              px__dispatch d)
{
    d.result_kind = cur->result_kind;
    d.result = cur->result;
    d.result_space = cur->result_space;
    const px__gnode_desc desc = {.kind = PX__GNODE_KERNEL, .label = node->label, .dispatch = d};
    return apply(exec, node, &desc, NULL, NULL);
}

px_status px_graph_exec_set_policy(px_graph_exec *exec, px_graph_node *node, px_policy policy)
{
    PX__ENTER;
    PX__TRY(check_node(exec, node, PX__GNODE_KERNEL, "kernel"));
    const px__dispatch cur = current_dispatch(exec, node);
    const px__target target = {"graph", exec->graph->label};
    px__dispatch d;
    PX__TRY(px__dispatch_prepare(&d, exec->graph->be, target, node->label, policy, cur.kernel,
                                 cur.args, cur.kernel->kind));
    return apply_policy(exec, node, &cur, d);
}

px_status px_graph_exec_set_team_policy(px_graph_exec *exec, px_graph_node *node,
                                        px_team_policy policy)
{
    PX__ENTER;
    PX__TRY(check_node(exec, node, PX__GNODE_KERNEL, "kernel"));
    const px__dispatch cur = current_dispatch(exec, node);
    const px__target target = {"graph", exec->graph->label};
    px__dispatch d;
    PX__TRY(px__dispatch_prepare_team(&d, exec->graph->be, exec->graph->device, target, node->label,
                                      policy, cur.kernel, cur.args, cur.kernel->kind));
    return apply_policy(exec, node, &cur, d);
}

px_status px_graph_exec_set_fill(px_graph_exec *exec, px_graph_node *node, const void *value)
{
    PX__ENTER;
    PX__TRY(check_node(exec, node, PX__GNODE_FILL, "fill"));
    PX__ARG(value, "value must not be NULL");
    px__gnode_desc desc = {
        .kind = PX__GNODE_FILL, .label = node->label, .op = current_op(exec, node)};
    desc.op.value = value;
    return apply(exec, node, &desc, NULL, NULL);
}


/* The new op moves the same elements the same way as the old one, between other memory. */
static px_status check_same_copy(const px__copy_op *was, const px__copy_op *now,
                                 const px_graph_node *node)
{
    const char *what = NULL;
    if (!px__space_same(was->dst.space, now->dst.space) ||
        !px__space_same(was->src.space, now->src.space))
        what = "memory spaces";
    else if (was->elem_size != now->elem_size)
        what = "element sizes";
    else if (was->rank != now->rank || memcmp(was->extent, now->extent, sizeof was->extent) != 0)
        what = "extents";
    else if (was->flat != now->flat ||
             memcmp(was->dst.stride, now->dst.stride, sizeof was->dst.stride) != 0 ||
             memcmp(was->src.stride, now->src.stride, sizeof was->src.stride) != 0)
        what = "layouts";
    else if (was->path != now->path)
        what = "copy paths";
    if (what == NULL) return PX_OK;
    return px__error(
        PX_ERR_INVALID_ARGUMENT,
        "the new views differ from those of copy node '%s' in their %s; instantiate again for a "
        "different copy",
        node->label, what);
}

/* The new views have the element types of those the node copies now (its own, or those of
   the node at its place in the graph of the last update: px_graph_exec_set_copy keeps
   the types, so its views have them too). */
static px_status check_same_types(const px_graph_exec *e, const px_graph_node *node,
                                  const px_view *dst, const px_view *src)
{
    const px_graph_node *now = running_node(e, node);
    if (dst->dtype == now->dst.dtype && src->dtype == now->src.dtype) return PX_OK;
    return px__error(PX_ERR_INVALID_ARGUMENT,
                     "the new views hold %s (dst '%s') and %s (src '%s') where copy node '%s' "
                     "copies %s into %s: "
                     "the element types must match; instantiate again for a different copy",
                     px_dtype_string(dst->dtype), dst->label, px_dtype_string(src->dtype),
                     src->label, node->label, px_dtype_string(now->src.dtype),
                     px_dtype_string(now->dst.dtype));
}

px_status px_graph_exec_set_copy(px_graph_exec *exec, px_graph_node *node, px_view *dst,
                                 const px_view *src)
{
    PX__ENTER;
    PX__TRY(check_node(exec, node, PX__GNODE_COPY, "copy"));
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(px__graph_plan_copy(&op, &info, dst, src));
    const px__copy_op was = current_op(exec, node);
    px_status st = px__graph_check_op(exec->graph, &op, &info, false);
    if (st == PX_OK) st = check_same_types(exec, node, dst, src);
    if (st == PX_OK) st = check_same_copy(&was, &op, node);
    if (st == PX_OK) {
        /* The plan's references to the views' memory become exec's. */
        const px__gnode_desc desc = {.kind = PX__GNODE_COPY, .label = node->label, .op = op};
        st = apply(exec, node, &desc, op.dst.hold.obj, op.src.hold.obj);
    }
    if (st == PX_OK) {
        memset(&op.dst.hold, 0, sizeof op.dst.hold);
        memset(&op.src.hold, 0, sizeof op.src.hold);
    }
    px__copy_op_release(&op);
    return st;
}

/* ---- Every node from another graph -------------------------------------------------------- */

static void report_set(px_graph_update_report *r, int node, const char *fmt, const char *a,
                       const char *b)
{
    if (r == NULL) return;
    r->node = node;
    snprintf(r->reason, sizeof r->reason, fmt, a, b);
}

/* Whether `now` has the shape of `was` (kinds, kernels, dependencies, bodies and children,
   recursively); where not, *r says so at top-level node `top` (-1: at each node's own
   index). */
static bool same_shape(const px_graph *was, int wn, const px_graph *now, int nn, int top,
                       px_graph_update_report *r)
{
    char a[32], b[32];
    if (was->native != now->native) {
        report_set(r, top, "%s where the executable graph's is %s",
                   now->native ? "a captured graph" : "an explicit graph",
                   was->native ? "captured" : "explicit");
        return false;
    }
    if (wn != nn) {
        snprintf(a, sizeof a, "%d", nn);
        snprintf(b, sizeof b, "%d", wn);
        report_set(r, top, "%s nodes where the executable graph has %s", a, b);
        return false;
    }
    for (int i = 0; i < wn; ++i) {
        const px_graph_node *x = was->nodes[i], *y = now->nodes[i];
        const int at = top >= 0 ? top : i;
        if (x->kind != y->kind || (x->kernel && y->kernel && x->kernel->kind != y->kernel->kind)) {
            report_set(r, at, "a %s node where the executable graph has a %s node",
                       px__graph_node_kind_name(y), px__graph_node_kind_name(x));
            return false;
        }
        if (x->kernel != y->kernel) {
            report_set(r, at, "kernel '%s' where the executable graph runs '%s'", y->kernel->name,
                       x->kernel->name);
            return false;
        }
        const bool op = x->kind == PX__GNODE_COPY || x->kind == PX__GNODE_FILL;
        if (op && px__graph_op_is_noop(&x->op) != px__graph_op_is_noop(&y->op)) {
            report_set(r, at, "a %s node that %s (one that moves nothing is an empty node)",
                       px__graph_node_kind_name(y),
                       px__graph_op_is_noop(&y->op)
                           ? "moves nothing where the executable graph's moves data"
                           : "moves data where the executable graph's moves nothing");
            return false;
        }
        bool deps = x->ndeps == y->ndeps;
        for (int d = 0; deps && d < x->ndeps; ++d) deps = x->deps[d] == y->deps[d];
        if (!deps) {
            report_set(r, at, "node '%s' has other dependencies than '%s' in the executable graph",
                       y->label, x->label);
            return false;
        }
        if (x->child && !same_shape(x->child, x->child_n, y->child, y->child_n, at, r))
            return false;
        if (x->body && !same_shape(x->body, x->body->n, y->body, y->body->n, at, r)) return false;
    }
    return true;
}

px_status px_graph_exec_update(px_graph_exec *exec, px_graph *graph, px_graph_update_report *report)
{
    PX__ENTER;
    if (report) {
        report->node = -1;
        report->reason[0] = '\0';
    }
    PX__TRY(exec_check(exec));
    PX__TRY(px__graph_check(graph, "graph"));
    const px_graph *was = exec->graph;
    PX__ARG(graph->owner == NULL, "graph '%s' is the body of a node of graph '%s'", graph->label,
            graph->owner->label);
    if (graph->be != was->be || graph->device != was->device) {
        report_set(report, -1, "the graph belongs to another execution space or device%s%s", "",
                   "");
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT, "graph '%s' belongs to %s:%d but exec to %s:%d",
                        graph->label, px_exec_space_string(graph->exec), graph->device,
                        px_exec_space_string(was->exec), was->device);
    }
    px_graph_update_report local;
    px_graph_update_report *r = report ? report : &local;
    /* Conditions belong to their own graph on CUDA. What exec runs counts: nodes added to
       its graph after it was instantiated are not part of it. */
    if (graph != was &&
        (px__graph_has_conditionals(graph, graph->n) || px__graph_has_conditionals(was, exec->n))) {
        report_set(report, -1, "graphs with WHILE or IF nodes are updated from themselves only%s%s",
                   "", "");
        return PX__FAIL(
            PX_ERR_UNSUPPORTED,
            "graph '%s' or '%s' holds WHILE or IF nodes, whose conditions belong to their own "
            "graph "
            "(CUDA): update such an executable graph from its own graph only, or instantiate again",
            graph->label, was->label);
    }
    if (!same_shape(was, exec->n, graph, graph->n, -1, r))
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT,
                        "graph '%s' differs from graph '%s' at node %d: %s", graph->label,
                        was->label, r->node, r->reason);
    px__graph_update_error why = {.node = -1};
    const px_status st = was->be->graph->update(exec->bexec, graph->bgraph, &why);
    if (st != PX_OK) {
        if (report) {
            report->node = why.node;
            snprintf(report->reason, sizeof report->reason, "%s", why.reason);
        }
        return st;
    }
    px__graph_retain(graph);
    if (exec->updated) px__graph_release(exec->updated);
    exec->updated = graph;
    for (int i = 0; i < exec->n; ++i) params_drop(&exec->params[i]);
    return PX_OK;
}
