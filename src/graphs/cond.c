/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* px_graph_cond_from_view: a loop condition from a scalar the graph computes. */
#include <stdlib.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/util.h"
#include "graphs/cond_kernel.h"
#include "graphs/graph.h"

static const char *const cmp_names[] = {"<", "<=", ">", ">=", "==", "!="};

/* Memory the kernels of g's backend read: host memory for a host backend, the graph's
   device's own memory for a device backend. */
static bool readable_by(const px_graph *g, px_space s)
{
    const px__space_ops *ops = px__space_ops_get(s.kind);
    if (g->be->runs_on_host) return ops->host_access;
    return ops->owner == g->exec && !ops->host_access && s.device == g->device;
}

px_status px_graph_cond_from_view(px_graph *body, px_graph_cond_t *cond, px_view *scalar,
                                  px_compare cmp, double threshold, px_graph_node **out)
{
    PX__ENTER;
    PX__TRY(px__graph_check(body, "body"));
    PX__ARG(cond && cond->magic == PX__GCOND_MAGIC,
            "cond is not the condition of a live WHILE or IF node");
    PX__TRY(px__view_check(scalar, "scalar"));
    PX__ARG((int)cmp >= PX_CMP_LT && cmp <= PX_CMP_NE, "cmp is %d; expected a px_compare",
            (int)cmp);
    PX__ARG(!body->captured, "graph '%s' came from a capture and takes no new nodes", body->label);
    PX__ARG(px__graph_root(body) == px__graph_root(cond->node->graph),
            "cond belongs to node '%s' of graph '%s', which graph '%s' is not part of: a condition "
            "is set from "
            "its own graph",
            cond->node->label, px__graph_root(cond->node->graph)->label, body->label);
    PX__ARG(scalar->dtype == PX_F64 && px__view_size(scalar) >= 1,
            "scalar view '%s' must be a PX_F64 view with an element", scalar->label);
    PX__ARG(readable_by(body, scalar->alloc->space),
            "scalar view '%s' lives in %s(%d), which the kernels of graph '%s' (%s:%d) do not "
            "read; use %s",
            scalar->label, px_space_kind_string(scalar->alloc->space.kind),
            scalar->alloc->space.device, body->label, px_exec_space_string(body->exec),
            body->device, body->be->runs_on_host ? "HOST" : "DEVICE of its GPU");

    /* After every node so far: the leaves (nodes nothing depends on) cover them all. */
    unsigned char *inner = px__calloc(body->n > 0 ? (size_t)body->n : 1, 1);
    px_graph_node **leaves = px__calloc(body->n > 0 ? (size_t)body->n : 1, sizeof *leaves);
    if (inner == NULL || leaves == NULL) {
        free(inner);
        free(leaves);
        return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    for (int i = 0; i < body->n; ++i)
        for (int d = 0; d < body->nodes[i]->ndeps; ++d) inner[body->nodes[i]->deps[d]] = 1;
    int nleaves = 0;
    for (int i = 0; i < body->n; ++i)
        if (!inner[i]) leaves[nleaves++] = body->nodes[i];
    free(inner);

    char label[96];
    snprintf(label, sizeof label, "%s %s %g", scalar->label, cmp_names[cmp], threshold);
    const px__cond_from_scalar_args args = {.cond = {cond->handle},
                                            .scalar = (const double *)(const void *)scalar->data,
                                            .threshold = threshold,
                                            .cmp = (int)cmp};
    px_graph_node *n = NULL;
    /* scalar goes as the node's view (held with it from the start; a parallel_for writes
       no result). */
    const px_status st =
        px__graph_add_kernel(body, leaves, nleaves, label, px_range(0, 1),
                             PX_KERNEL(px__cond_from_scalar), &args, PX_KERNEL_FOR, scalar, &n);
    free(leaves);
    if (st != PX_OK) return st;
    if (out) *out = n;
    return PX_OK;
}
