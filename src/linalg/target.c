/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
#include "target.h"

la_target la_on_instance(px_instance *inst)
{
    la_target t = {0};
    t.inst = inst;
    return t;
}

px_status la_in_graph(const char *func, px_graph *graph, px_graph_node *const *deps, int ndeps,
                      la_target *t, px_space *space)
{
    px_exec_space exec;
    int device;
    if (!graph) return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "graph is NULL");
    if (ndeps < 0 || (ndeps > 0 && !deps))
        return px_set_error(PX_ERR_INVALID_ARGUMENT, func, "ndeps is %d with deps %s", ndeps,
                            deps ? "given" : "NULL");
    const px_status st = px_graph_exec_space(graph, &exec, &device);
    if (st != PX_OK) return st;
    *t = (la_target){0};
    t->graph = graph;
    t->deps = deps;
    t->ndeps = ndeps;
    *space = exec == PX_EXEC_CUDA ? px_device(device) : px_host();
    return PX_OK;
}

void la_target_uses(la_target *t, px_view *v)
{
    if (t->nuses < LA_TARGET_USES) t->uses[t->nuses++] = v;
}

px_status la_target_instance(const la_target *t, px_instance **inst)
{
    if (t->inst) {
        *inst = t->inst;
        return PX_OK;
    }
    px_exec_space exec;
    int device;
    const px_status st = px_graph_exec_space(t->graph, &exec, &device);
    return st != PX_OK ? st : px_instance_default(exec, device, inst);
}

/* After a node is added (st: how the adding went): it is the last, and it holds the call's
   views. */
static px_status added(la_target *t, px_status st, px_graph_node *const *node)
{
    if (st != PX_OK) return st;
    t->last = *node;
    return t->nuses > 0 ? px_graph_node_uses(*node, t->uses, t->nuses) : PX_OK;
}

/* The dependencies of the next node: the one before it, or the call's. */
#define LA_DEPS(t) (t)->last ? &(t)->last : (t)->deps, (t)->last ? 1 : (t)->ndeps

px_status la_for(la_target *t, const char *label, px_policy policy, const px_kernel *kernel,
                 const void *args)
{
    if (t->inst) return px_parallel_for(t->inst, label, policy, kernel, args);
    px_graph_node *node = NULL;
    return added(t, px_graph_add_for(t->graph, LA_DEPS(t), label, policy, kernel, args, &node),
                 &node);
}

px_status la_for_team(la_target *t, const char *label, px_team_policy policy,
                      const px_kernel *kernel, const void *args)
{
    if (t->inst) return px_parallel_for_team(t->inst, label, policy, kernel, args);
    px_graph_node *node = NULL;
    return added(t, px_graph_add_for_team(t->graph, LA_DEPS(t), label, policy, kernel, args, &node),
                 &node);
}

px_status la_reduce_view(la_target *t, const char *label, px_policy policy, const px_kernel *kernel,
                         const void *args, px_view *result)
{
    if (t->inst) return px_parallel_reduce_view(t->inst, label, policy, kernel, args, result);
    px_graph_node *node = NULL;
    return added(
        t, px_graph_add_reduce(t->graph, LA_DEPS(t), label, policy, kernel, args, result, &node),
        &node);
}

px_status la_target_done(la_target *t, px_graph_node **out)
{
    if (t->inst) return PX_OK;
    if (!t->last) {
        const px_status st = px_graph_add_empty(t->graph, t->deps, t->ndeps, &t->last);
        if (st != PX_OK) return st;
    }
    if (out) *out = t->last;
    return PX_OK;
}
