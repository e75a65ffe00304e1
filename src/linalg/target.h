/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Where a call's kernels go: dispatched on an instance (px_csr_spmv), or added as nodes to a
 * graph (px_graph_add_csr_spmv), one after the other. The calls are written once against
 * this, so that a graph node runs the same kernels with the same choices as the call.
 * Included by C and, from the BLAS kernel file, by CUDA C++. */
#ifndef PX_LINALG_TARGET_H
#define PX_LINALG_TARGET_H

#include "portex/linalg.h"
#include "portex/parallel.h"
#include "portex/team.h"

PX_EXTERN_C_BEGIN

/* The most views one call's nodes read or write (the graph keeps them alive). */
#define LA_TARGET_USES 8

typedef struct la_target {
    px_instance *inst; /* the kernels run here; NULL: they go into graph */
    px_graph *graph;
    px_graph_node *const *deps; /* the first node's dependencies */
    int ndeps;
    px_graph_node *last; /* the node added last (NULL before the first) */
    px_view *uses[LA_TARGET_USES];
    int nuses;
} la_target;

/* Kernels dispatched on inst. */
la_target la_on_instance(px_instance *inst);

/* Kernels added to graph after deps (checked: graph alive, ndeps >= 0, deps given when
   ndeps > 0); *space receives the memory the graph's kernels use (DEVICE of its GPU, or
   HOST). */
px_status la_in_graph(const char *func, px_graph *graph, px_graph_node *const *deps, int ndeps,
                      la_target *t, px_space *space);

/* The view v is read or written by the nodes to come (kept alive by the graph). */
void la_target_uses(la_target *t, px_view *v);

/* An instance of the target's backend and device: its own, or the graph's backend's
   default instance (for what must be shaped on a backend once, px_team_rows). */
px_status la_target_instance(const la_target *t, px_instance **inst);

/* The end of a call into a graph: *out (when not NULL) receives the node after which the
   call's work is done; a call with nothing to do adds an empty node after deps. */
px_status la_target_done(la_target *t, px_graph_node **out);

/* px_parallel_for, px_parallel_for_team and px_parallel_reduce_view, or the graph's node. */
px_status la_for(la_target *t, const char *label, px_policy policy, const px_kernel *kernel,
                 const void *args);
px_status la_for_team(la_target *t, const char *label, px_team_policy policy,
                      const px_kernel *kernel, const void *args);
px_status la_reduce_view(la_target *t, const char *label, px_policy policy, const px_kernel *kernel,
                         const void *args, px_view *result);

PX_EXTERN_C_END

#endif
