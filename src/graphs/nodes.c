/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Adding nodes to a graph: each kind validated here the way the matching call on an
 * instance is validated, then appended (graph.c). */
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/util.h"
#include "graphs/graph.h"
#include "runtime/dispatch.h"
#include "spaces/copy_plan.h"

/* A graph that takes new nodes. */
static px_status check_open(const px_graph *g)
{
    PX__TRY(px__graph_check(g, "graph"));
    if (g->captured)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "graph '%s' came from a capture and takes no new nodes; make it a child of an "
            "explicit graph (px_graph_add_child)",
            g->label);
    return PX_OK;
}

static px__target graph_target(const px_graph *g) { return (px__target){"graph", g->label}; }

/* A prepared dispatch as a kernel node (a reduction's into its result view). */
static px_status append_kernel(px_graph *g, px__dispatch *d, px_view *result,
                               px_graph_node *const *deps, int ndeps, px_graph_node **out)
{
    if (d->kernel->kind == PX_KERNEL_REDUCE)
        PX__TRY(px__dispatch_result_view(d, g->be, g->device, graph_target(g), result));
    const px__gnode_desc desc = {.kind = PX__GNODE_KERNEL, .label = d->label, .dispatch = *d};
    const px__gnode_views views = {.result = result};
    return px__graph_append(g, &desc, deps, ndeps, &views, out);
}

px_status px__graph_add_kernel(px_graph *g, px_graph_node *const *deps, int ndeps,
                               const char *label, px_policy policy, const px_kernel *kernel,
                               const void *args, px_kernel_kind want, px_view *result,
                               px_graph_node **out)
{
    PX__TRY(check_open(g));
    px__dispatch d;
    PX__TRY(px__dispatch_prepare(&d, g->be, graph_target(g), label, policy, kernel, args, want));
    return append_kernel(g, &d, result, deps, ndeps, out);
}

px_status px_graph_add_for(px_graph *graph, px_graph_node *const *deps, int ndeps,
                           const char *label, px_policy policy, const px_kernel *kernel,
                           const void *args, px_graph_node **out)
{
    PX__ENTER;
    return px__graph_add_kernel(graph, deps, ndeps, label, policy, kernel, args, PX_KERNEL_FOR,
                                NULL, out);
}

px_status px_graph_add_reduce(px_graph *graph, px_graph_node *const *deps, int ndeps,
                              const char *label, px_policy policy, const px_kernel *kernel,
                              const void *args, px_view *result, px_graph_node **out)
{
    PX__ENTER;
    return px__graph_add_kernel(graph, deps, ndeps, label, policy, kernel, args, PX_KERNEL_REDUCE,
                                result, out);
}

px_status px_graph_add_scan(px_graph *graph, px_graph_node *const *deps, int ndeps,
                            const char *label, px_policy policy, const px_kernel *kernel,
                            const void *args, px_graph_node **out)
{
    PX__ENTER;
    return px__graph_add_kernel(graph, deps, ndeps, label, policy, kernel, args, PX_KERNEL_SCAN,
                                NULL, out);
}

static px_status add_team(px_graph *g, px_graph_node *const *deps, int ndeps, const char *label,
                          px_team_policy policy, const px_kernel *kernel, const void *args,
                          px_kernel_kind want, px_view *result, px_graph_node **out)
{
    PX__TRY(check_open(g));
    px__dispatch d;
    PX__TRY(px__dispatch_prepare_team(&d, g->be, g->device, graph_target(g), label, policy, kernel,
                                      args, want));
    return append_kernel(g, &d, result, deps, ndeps, out);
}

px_status px_graph_add_for_team(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                const char *label, px_team_policy policy, const px_kernel *kernel,
                                const void *args, px_graph_node **out)
{
    PX__ENTER;
    return add_team(graph, deps, ndeps, label, policy, kernel, args, PX_KERNEL_FOR, NULL, out);
}

px_status px_graph_add_reduce_team(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                   const char *label, px_team_policy policy,
                                   const px_kernel *kernel, const void *args, px_view *result,
                                   px_graph_node **out)
{
    PX__ENTER;
    return add_team(graph, deps, ndeps, label, policy, kernel, args, PX_KERNEL_REDUCE, result, out);
}

/* ---- Copies and fills --------------------------------------------------------------------- */

px_status px__graph_check_op(const px_graph *g, const px__copy_op *op,
                             const px__copy_plan_info *info, bool fill)
{
    const char *what = fill ? "fill" : "copy";
    if (info->overlap)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "the %s's two views share memory; copy through a temporary view in two nodes", what);
    if (info->owner != PX_EXEC_COUNT && info->owner != g->exec)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "the %s involves memory that %s graph '%s' cannot reach; use a %s graph",
                         what, px_exec_space_string(g->exec), g->label,
                         px_exec_space_string(info->owner));
    if (g->be->runs_on_host) return PX_OK;
    const px__copy_side *sides[2] = {&op->dst, &op->src};
    for (int i = 0; i < (fill ? 1 : 2); ++i) {
        const char *side = i == 0 ? "destination" : "source";
        if (sides[i]->space.kind == PX_SPACE_HOST)
            return px__error(
                PX_ERR_CAPTURE_PAGEABLE,
                "the %s's %s is pageable host memory (HOST), which a %s graph cannot replay from: "
                "the addresses are fixed and only pinned memory stays DMA-able; use HOST_PINNED",
                what, side, px_exec_space_string(g->exec));
        if (g->owner != NULL && px__space_ops_get(sides[i]->space.kind)->host_access)
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "graph '%s' is the body of a WHILE or IF node, whose copies and fills stay in the "
                "device's memory (CUDA runs bodies on the device alone); the %s's %s is %s: copy "
                "it "
                "before or after the loop",
                g->label, what, side, px_space_kind_string(sides[i]->space.kind));
    }
    if (info->owner == PX_EXEC_COUNT)
        return px__error(PX_ERR_UNSUPPORTED,
                         "both sides of the %s are host memory: a %s graph moves device memory; %s "
                         "them on the host",
                         what, px_exec_space_string(g->exec), what);
    return PX_OK;
}

/* dst and src (same rank and extents) name the same elements in the same places. */
static bool same_elements(const px_view *dst, const px_view *src)
{
    if (dst->data != src->data) return false;
    for (int d = 0; d < dst->rank; ++d)
        if (dst->extent[d] > 1 && dst->stride[d] != src->stride[d]) return false;
    return true;
}

px_status px__graph_plan_copy(px__copy_op *op, px__copy_plan_info *info, px_view *dst,
                              const px_view *src)
{
    PX__TRY(px__copy_plan(op, info, dst, src));
    /* A non-contiguous view into itself: px_deep_copy goes through a temporary (its sides
       overlap), which a node cannot; every element stays where it is, so nothing moves. */
    if (op->path != PX_COPY_NONE && same_elements(dst, src)) {
        op->path = PX_COPY_NONE;
        info->overlap = false;
    }
    return PX_OK;
}

/* A copy (src) or fill (value) node: planned as px_deep_copy plans it, checked for
   replay, appended. One with nothing to move (no element, a view into itself) is checked
   the same way and runs as nothing. */
static px_status add_op(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *dst,
                        const px_view *src, const void *value, px_graph_node **out)
{
    PX__TRY(check_open(graph));
    const bool fill = src == NULL;
    px__copy_op op;
    px__copy_plan_info info;
    PX__TRY(fill ? px__fill_plan(&op, &info, dst, value)
                 : px__graph_plan_copy(&op, &info, dst, src));
    px_status st = px__graph_check_op(graph, &op, &info, fill);
    if (st == PX_OK) {
        char label[96];
        snprintf(label, sizeof label, "%s %s", fill ? "fill" : "copy",
                 px_copy_path_string(op.path));
        const px__gnode_desc desc = {
            .kind = fill ? PX__GNODE_FILL : PX__GNODE_COPY, .label = label, .op = op};
        const px__gnode_views views = {.dst = dst, .src = src};
        st = px__graph_append(graph, &desc, deps, ndeps, &views, out);
    }
    px__copy_op_release(&op);
    return st;
}

px_status px_graph_add_copy(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *dst,
                            const px_view *src, px_graph_node **out)
{
    PX__ENTER;
    PX__ARG(src, "src must not be NULL");
    return add_op(graph, deps, ndeps, dst, src, NULL, out);
}

px_status px_graph_add_fill(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *dst,
                            const void *value, px_graph_node **out)
{
    PX__ENTER;
    PX__ARG(value, "value must not be NULL");
    return add_op(graph, deps, ndeps, dst, NULL, value, out);
}

/* ---- Host functions, joins, children ------------------------------------------------------ */

px_status px_graph_add_host(px_graph *graph, px_graph_node *const *deps, int ndeps,
                            const char *label, void (*fn)(void *data), void *data,
                            px_graph_node **out)
{
    PX__ENTER;
    PX__TRY(check_open(graph));
    PX__ARG(fn, "fn must not be NULL");
    PX__ARG(graph->owner == NULL,
            "graph '%s' is the body of a WHILE or IF node, which cannot hold host functions (CUDA "
            "runs bodies on "
            "the device alone)",
            graph->label);
    const px__gnode_desc desc = {
        .kind = PX__GNODE_HOST, .label = label ? label : "host", .fn = fn, .data = data};
    return px__graph_append(graph, &desc, deps, ndeps, NULL, out);
}

px_status px_graph_add_empty(px_graph *graph, px_graph_node *const *deps, int ndeps,
                             px_graph_node **out)
{
    PX__ENTER;
    PX__TRY(check_open(graph));
    const px__gnode_desc desc = {.kind = PX__GNODE_EMPTY, .label = "join"};
    return px__graph_append(graph, &desc, deps, ndeps, NULL, out);
}

/* A reduction, scan or team kernel: its scratch is shared by every copy of its graph. */
static bool uses_scratch(const px_graph_node *n, const void *ctx)
{
    (void)ctx;
    return n->kind == PX__GNODE_KERNEL && (n->kernel->kind != PX_KERNEL_FOR || n->kernel->team);
}

/* What a conditional body cannot hold, node by node (the rules px_graph_add_host,
   px_graph_add_captured and px__graph_check_op apply to the body's own nodes, so that a
   body refuses a child holding what it refuses as a node, and takes a child holding what
   it takes): a host function; captured work; on a device backend (ctx: the body's
   backend) a copy or fill of memory the host reaches. On a host backend the graph's
   device memory is host memory. */
static bool host_function(const px_graph_node *n, const void *ctx)
{
    (void)ctx;
    return n->kind == PX__GNODE_HOST;
}

static bool captured_work(const px_graph_node *n, const void *ctx)
{
    (void)ctx;
    return n->child != NULL && n->child->captured;
}

static bool host_memory_op(const px_graph_node *n, const void *ctx)
{
    const px__backend *be = ctx;
    if (be->runs_on_host || (n->kind != PX__GNODE_COPY && n->kind != PX__GNODE_FILL)) return false;
    return px__space_ops_get(n->op.dst.space.kind)->host_access ||
           (n->kind == PX__GNODE_COPY && px__space_ops_get(n->op.src.space.kind)->host_access);
}

/* Why body `g` cannot hold `child` as a node, or NULL when it can. */
static const char *body_refuses(const px_graph *g, const px_graph *child)
{
    if (child->captured) return "came from a capture";
    if (px__graph_any(child, child->n, captured_work, NULL)) return "holds captured work";
    if (px__graph_any(child, child->n, host_function, NULL)) return "holds host functions";
    if (px__graph_any(child, child->n, host_memory_op, g->be))
        return "holds copies or fills of host memory";
    return NULL;
}

/* Adds g (none where NULL) to the graphs of a walk, *seen (*n of them, room for *cap),
   unless it is there already. */
static px_status enqueue_once(const px_graph ***seen, int *n, int *cap, const px_graph *g)
{
    if (g == NULL) return PX_OK;
    for (int j = 0; j < *n; ++j)
        if ((*seen)[j] == g) return PX_OK;
    const px_graph **more = px__grow(*seen, *n, cap, 16, sizeof *more);
    if (more == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    *seen = more;
    (*seen)[(*n)++] = g;
    return PX_OK;
}

/* Whether `from` holds `target` through child nodes and bodies at any depth, counting
   every node each graph has now, also those added after a child node copied the graph:
   these references keep graphs alive, so a circle among them would never be freed. A
   walk without recursion (children nest deep), each graph visited once (graphs may share
   children). */
static px_status holds_now(const px_graph *from, const px_graph *target, bool *out)
{
    *out = false;
    const px_graph **seen = NULL;
    int nseen = 0, cap = 0;
    /* seen is also the queue: entries [top, nseen) are still to visit. */
    px_status st = enqueue_once(&seen, &nseen, &cap, from);
    for (int top = 0; st == PX_OK && !*out && top < nseen; ++top) {
        const px_graph *g = seen[top];
        for (int i = 0; st == PX_OK && !*out && i < g->n; ++i) {
            const px_graph_node *n = g->nodes[i];
            *out = n->child == target || n->body == target;
            if (!*out) st = enqueue_once(&seen, &nseen, &cap, n->child);
            if (st == PX_OK && !*out) st = enqueue_once(&seen, &nseen, &cap, n->body);
        }
    }
    free(seen);
    return st;
}

/* Whether node `to` of g depends on node `from`, directly or through others: a walk back
   along dependencies with an explicit stack (graphs may be long chains). seen and stack
   have room for g->n entries; seen starts cleared. */
static bool reaches(const px_graph *g, int from, int to, unsigned char *seen, int *stack)
{
    int top = 0;
    stack[top++] = to;
    seen[to] = 1;
    while (top > 0) {
        const int at = stack[--top];
        if (at == from) return true;
        const px_graph_node *n = g->nodes[at];
        for (int i = 0; i < n->ndeps; ++i)
            if (!seen[n->deps[i]]) {
                seen[n->deps[i]] = 1;
                stack[top++] = n->deps[i];
            }
    }
    return false;
}

/* g (its first n nodes) holds a reduction or scan of its own. */
static bool has_own_scratch(const px_graph *g, int n)
{
    for (int i = 0; i < n; ++i)
        if (uses_scratch(g->nodes[i], NULL)) return true;
    return false;
}

/* y is g, or a child g copies (in its first n nodes, at any depth). */
static bool copies_graph(const px_graph *g, int n, const px_graph *y)
{
    if (g == y) return true;
    for (int i = 0; i < n; ++i) {
        const px_graph_node *c = g->nodes[i];
        if (c->child && copies_graph(c->child, c->child_n, y)) return true;
    }
    return false;
}

/* Copies of a (its first an nodes) and of b share scratch memory: a graph with reductions
   of its own is in both, at any depth of children (a child node copies its children too). */
static bool share_scratch(const px_graph *a, int an, const px_graph *b, int bn)
{
    if (has_own_scratch(a, an) && copies_graph(b, bn, a)) return true;
    for (int i = 0; i < an; ++i) {
        const px_graph_node *c = a->nodes[i];
        if (c->child && share_scratch(c->child, c->child_n, b, bn)) return true;
    }
    return false;
}

/* How deep g is below its root (bodies count one level each). */
static int depth(const px_graph *g)
{
    int d = 0;
    for (; g->owner; g = g->owner) ++d;
    return d;
}

/* The graph both a and b are in or below, nearest to them. */
static const px_graph *common_graph(const px_graph *a, const px_graph *b)
{
    int da = depth(a), db = depth(b);
    for (; da > db; --da) a = a->owner;
    for (; db > da; --db) b = b->owner;
    while (a != b) {
        a = a->owner;
        b = b->owner;
    }
    return a;
}

/* The node of `anc` whose body holds g (g is below anc): the WHILE or IF node that runs it. */
static int holder_in(const px_graph *anc, const px_graph *g)
{
    while (g->owner != anc) g = g->owner;
    for (int i = 0; i < anc->n; ++i)
        if (anc->nodes[i]->body == g) return i;
    return -1; /* not reached: a body is the body of a node of its owner */
}

/* Node `from` of g runs before node `to`, or (both_ways) either before the other. */
static px_status ordered(const px_graph *g, int from, int to, bool both_ways, bool *out)
{
    unsigned char *seen = px__calloc((size_t)g->n, 1);
    int *stack = px__calloc((size_t)g->n, sizeof *stack);
    if (seen == NULL || stack == NULL) {
        free(seen);
        free(stack);
        return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    *out = reaches(g, from, to, seen, stack);
    if (!*out && both_ways) {
        memset(seen, 0, (size_t)g->n);
        *out = reaches(g, to, from, seen, stack);
    }
    free(seen);
    free(stack);
    return PX_OK;
}

/* The new node (into g after deps) and node i of h, both copies of one child, run one
   after the other within a launch: in the graph that holds them both (or the conditional
   nodes that run their bodies), one reaches the other. */
static px_status copies_ordered(const px_graph *g, px_graph_node *const *deps, int ndeps,
                                const px_graph *h, int i, bool *out)
{
    const px_graph *l = common_graph(g, h);
    const int a = h == l ? i : holder_in(l, h);
    *out = false;
    if (g != l) return ordered(l, a, holder_in(l, g), true, out);
    for (int d = 0; d < ndeps && !*out; ++d) PX__TRY(ordered(l, a, deps[d]->index, false, out));
    return PX_OK;
}

/* Every node in g's tree (its root and every body below it) that copies reductions the
   new child copies too runs apart from the new node; `at` the graph searched. */
static px_status check_copies_in(const px_graph *at, const px_graph *g, const px_graph *child,
                                 px_graph_node *const *deps, int ndeps)
{
    for (int i = 0; i < at->n; ++i) {
        const px_graph_node *n = at->nodes[i];
        if (n->body) PX__TRY(check_copies_in(n->body, g, child, deps, ndeps));
        if (!n->child || !share_scratch(child, child->n, n->child, n->child_n)) continue;
        bool ok = false;
        PX__TRY(copies_ordered(g, deps, ndeps, at, i, &ok));
        if (!ok)
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "graph '%s' and node %d ('%s') of graph '%s' copy the same reductions, whose "
                "scratch "
                "memory their copies share: make this node run after that one (a dependency%s), or "
                "use a second graph",
                child->label, i, n->label, at->label,
                at == g ? "" : ", here or between the WHILE or IF nodes that run them");
    }
    return PX_OK;
}

/* Two copies of a child with reductions share its scratch: they must not run at once,
   wherever they are in one graph and its bodies. */
static px_status check_shared_child(px_graph *g, const px_graph *child, px_graph_node *const *deps,
                                    int ndeps)
{
    if (!px__graph_any(child, child->n, uses_scratch, NULL)) return PX_OK;
    return check_copies_in(px__graph_root(g), g, child, deps, ndeps);
}

px_status px_graph_add_child(px_graph *graph, px_graph_node *const *deps, int ndeps,
                             px_graph *child, px_graph_node **out)
{
    PX__ENTER;
    PX__TRY(check_open(graph));
    PX__TRY(px__graph_check(child, "child"));
    PX__ARG(child->exec == graph->exec && child->device == graph->device,
            "child '%s' belongs to %s:%d but graph '%s' to %s:%d", child->label,
            px_exec_space_string(child->exec), child->device, graph->label,
            px_exec_space_string(graph->exec), graph->device);
    PX__ARG(child->owner == NULL,
            "child '%s' is the body of a WHILE or IF node; its kernels set that node's condition",
            child->label);
    const char *refused = graph->owner != NULL ? body_refuses(graph, child) : NULL;
    if (refused != NULL)
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT,
                        "graph '%s' is the body of a WHILE or IF node, and child '%s' %s, which a "
                        "body cannot hold "
                        "(CUDA runs bodies on the device alone)",
                        graph->label, child->label, refused);
    /* No circle: child must not be, or hold, the graph this node goes into (its root: a
       body's nodes belong to its root's tree), through links made before or after. */
    const px_graph *root = px__graph_root(graph);
    bool circle = child == root;
    if (!circle) PX__TRY(holds_now(child, root, &circle));
    PX__ARG(!circle,
            "graph '%s' is graph '%s' or holds it through child nodes (at any depth, nodes added "
            "to a child after it "
            "was copied included): a graph cannot hold itself",
            child->label, root->label);
    if (px__graph_has_conditionals(child, child->n))
        return PX__FAIL(PX_ERR_UNSUPPORTED,
                        "child '%s' holds WHILE or IF nodes: a child node is a copy of its graph, "
                        "and CUDA cannot "
                        "copy conditional nodes; add them to graph '%s' itself",
                        child->label, graph->label);
    PX__TRY(px__graph_check_deps(graph, deps, ndeps));
    PX__TRY(check_shared_child(graph, child, deps, ndeps));
    const px__gnode_desc desc = {
        .kind = PX__GNODE_CHILD, .label = child->label, .child = child->bgraph};
    px_graph_node *n = NULL;
    PX__TRY(px__graph_append(graph, &desc, deps, ndeps, NULL, &n));
    px__graph_retain(child);
    atomic_fetch_add(&child->copies, 1);
    n->child = child;
    n->child_n = child->n;
    if (out) *out = n;
    return PX_OK;
}

/* ---- Conditionals ------------------------------------------------------------------------- */

static px_status add_cond(px_graph *g, px_graph_node *const *deps, int ndeps, const char *label,
                          unsigned initial, px__gnode_kind kind, px_graph_cond_t **cond,
                          px_graph **body, px_graph_node **out)
{
    if (cond == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "cond must not be NULL");
    if (body == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "body must not be NULL");
    *cond = NULL;
    *body = NULL;
    PX__TRY(check_open(g));
    /* CUDA refuses to instantiate a graph holding conditional nodes while a clone of it
       exists, and a child node holds one. The copies were made before: a graph holding
       conditional nodes is no child (px_graph_add_child). */
    const px_graph *root = px__graph_root(g);
    const int copies = atomic_load(&root->copies);
    if (copies > 0)
        return px__error(PX_ERR_UNSUPPORTED,
                         "graph '%s' is copied by %d child node%s that still exist%s: CUDA cannot "
                         "instantiate a graph holding WHILE or IF nodes while a copy of it "
                         "exists; destroy the graphs holding those copies first, or add the node "
                         "to a graph that no child node copies",
                         root->label, copies, copies == 1 ? "" : "s", copies == 1 ? "s" : "");
    const px__gnode_desc desc = {.kind = kind,
                                 .label =
                                     label ? label : (kind == PX__GNODE_WHILE ? "while" : "if"),
                                 .initial = initial};
    px_graph_node *n = NULL;
    PX__TRY(px__graph_append(g, &desc, deps, ndeps, NULL, &n));
    *cond = n->cond;
    *body = n->body;
    if (out) *out = n;
    return PX_OK;
}

px_status px_graph_add_while(px_graph *graph, px_graph_node *const *deps, int ndeps,
                             const char *label, unsigned initial, px_graph_cond_t **cond,
                             px_graph **body, px_graph_node **out)
{
    PX__ENTER;
    return add_cond(graph, deps, ndeps, label, initial, PX__GNODE_WHILE, cond, body, out);
}

px_status px_graph_add_if(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                          unsigned initial, px_graph_cond_t **cond, px_graph **body,
                          px_graph_node **out)
{
    PX__ENTER;
    return add_cond(graph, deps, ndeps, label, initial, PX__GNODE_IF, cond, body, out);
}
