/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the objects behind px_graph, px_graph_node, px_graph_exec and
 * px_graph_cond_t handles, and what capture, execution and export share.
 *
 * The core keeps what every backend needs said the same way: labels, kinds, dependencies
 * (checked, so no cycle can form), the memory nodes reach (held until the last user is
 * gone), and the shape an update is checked against. The backend's graph (px__bgraph)
 * does the work: on the host a list the launch runs, on CUDA a CUDA graph.
 *
 * Ownership. A graph is reference counted: its creator, every CHILD node that copies it,
 * every executable graph made from it or updated from it. A WHILE or IF body belongs to
 * its node (no count of its own; its nodes' holds go with it). Counting works because no
 * graph ever holds itself: px_graph_add_child refuses the link that would close a circle,
 * looking at every node each graph holds now, not only those a child node copied. */
#ifndef PX_GRAPHS_GRAPH_H
#define PX_GRAPHS_GRAPH_H

#include <stdatomic.h>
#include <stdbool.h>

#include "portex.h"
#include "portex/graph.h"
#include "backends/backend.h"
#include "base/registry.h"
#include "spaces/copy_plan.h"
#include "spaces/view.h"

#define PX__GRAPH_MAGIC 0x47524150u /* "GRAP" */
#define PX__GNODE_MAGIC 0x474e4f44u /* "GNOD" */
#define PX__GEXEC_MAGIC 0x47455845u /* "GEXE" */
#define PX__GCOND_MAGIC 0x47434f4eu /* "GCON" */

struct px_graph_cond_t {
    uint32_t magic;
    px_graph_node *node;
    uint64_t handle; /* what px_cond_set takes */
};

/* One side of a copy or fill: what DOT shows, and the element type px_graph_exec_set_copy
   holds new views to. */
typedef struct px__gnode_side {
    char *label;
    px_space space;
    px_dtype dtype;
} px__gnode_side;

struct px_graph_node {
    uint32_t magic;
    px_graph *graph;
    int index;
    px__gnode_kind kind;
    char *label;
    int *deps; /* indices of earlier nodes of graph */
    int ndeps;
    /* KERNEL: the dispatch, its arguments copied (dispatch.args) */
    const px_kernel *kernel;
    px__dispatch dispatch;
    /* COPY, FILL: the planned op (no holds; its data pointers into held memory), a fill's
       value copied (op.value) */
    px__copy_op op;
    px__gnode_side dst, src;
    /* Memory kept alive: copy and fill sides, a reduction's result, px_graph_node_uses */
    px__alloc **held;
    int nheld, heldcap;
    px_graph *child;       /* CHILD: a reference */
    int child_n;           /* CHILD: the child's nodes when it was copied (later ones are
                                not part of this node) */
    px_graph *body;        /* WHILE, IF: owned */
    px_graph_cond_t *cond; /* WHILE, IF: owned */
    unsigned initial;      /* WHILE, IF */
    px__bnode *bnode;      /* NULL for what a native capture recorded (the backend's
                                graph holds that work itself) */
};

struct px_graph {
    uint32_t magic;
    atomic_int refs;
    const px__backend *be;
    px_exec_space exec;
    int device;
    char *label;
    px_graph_node **nodes;
    int n, cap;
    /* From a capture: no new nodes. native: the backend recorded the work itself and
       nodes list what portex issued, for DOT and counts. */
    bool captured, native;
    px_graph *owner;    /* a body: the graph holding its WHILE/IF node */
    px__bgraph *bgraph; /* a body's belongs to its node in the backend */
    px__alloc **held;   /* memory a native capture's work reaches */
    int nheld, heldcap;
    atomic_int nexec; /* executable graphs made from it, alive */
    /* Child nodes that copy it, alive (each holds a reference). On CUDA each is a clone of
       its CUDA graph, and CUDA does not instantiate a graph holding conditional nodes
       while a clone of it exists: px_graph_add_while and _if refuse such a graph. */
    atomic_int copies;
    bool dropped;  /* px_graph_destroy took the caller's reference */
    px__live live; /* graphs made by the user (not bodies) */
};

/* A node's parameters in an executable graph, once px_graph_exec_set_* changed them. */
typedef struct px__exec_params {
    px__dispatch dispatch; /* dispatch.args: a copy */
    px__copy_op op;        /* op.value: a copy */
    px__alloc *dst, *src;  /* held: the views of px_graph_exec_set_copy */
} px__exec_params;

struct px_graph_exec {
    uint32_t magic;
    px_graph *graph;   /* a reference: its nodes name exec's */
    px_graph *updated; /* a reference: the graph of the last px_graph_exec_update */
    px__bexec *bexec;
    int n;                    /* top-level nodes when instantiated */
    px__exec_params **params; /* n; NULL for a node not changed */
    px__live live;
};

px_status px__graph_check(const px_graph *g, const char *what);
px_status px__graph_node_check(const px_graph_node *n, const char *what);

/* A new graph with one reference (the caller's); registered unless it is a body. */
px_status px__graph_new(px_graph **out, const px__backend *be, int device, const char *label,
                        px__bgraph *bgraph);
void px__graph_retain(px_graph *g);
/* Drops one reference; the last frees the graph (bodies with their nodes). */
void px__graph_release(px_graph *g);
/* The graph at the top of g's chain of bodies. */
px_graph *px__graph_root(px_graph *g);

/* The views a node names: copy and fill sides (their memory held and their labels kept
   for DOT), a reduction's result (held). Any may be NULL. */
typedef struct px__gnode_views {
    const px_view *dst, *src, *result;
} px__gnode_views;

/* A node appended to g after deps (validated: nodes of g), the backend's node made from
   desc (unless g is native: recorded only); label copied, the views' memory held. On
   failure nothing is added. out may be NULL. */
px_status px__graph_append(px_graph *g, const px__gnode_desc *desc, px_graph_node *const *deps,
                           int ndeps, const px__gnode_views *views, px_graph_node **out);
/* Copies of desc's parameters that the core keeps: the dispatch with its arguments (d),
   the op with a fill's value and no holds (op); either may be NULL. Freed with
   px__graph_params_free. */
px_status px__graph_params_copy(px__dispatch *d, px__copy_op *op, const px__gnode_desc *desc);
void px__graph_params_free(px__dispatch *d, px__copy_op *op);

/* A kernel node (px_graph_add_for, _reduce with its result view, _scan), validated;
   `result` (may be NULL) is held with the node, and is what a reduction writes. */
px_status px__graph_add_kernel(px_graph *g, px_graph_node *const *deps, int ndeps,
                               const char *label, px_policy policy, const px_kernel *kernel,
                               const void *args, px_kernel_kind want, px_view *result,
                               px_graph_node **out);
/* deps (ndeps of them) are distinct nodes of g. */
px_status px__graph_check_deps(const px_graph *g, px_graph_node *const *deps, int ndeps);
/* A planned copy or fill (`fill`) that g can replay: no overlap, a path g's backend runs,
   and on a device backend no side pageable (PX_ERR_CAPTURE_PAGEABLE) or both on the host. */
px_status px__graph_check_op(const px_graph *g, const px__copy_op *op,
                             const px__copy_plan_info *info, bool fill);
/* px__copy_plan for a copy node: a view copied into itself (the same elements, whatever
   its layout) moves nothing (PX_COPY_NONE), where px_deep_copy would go through a
   temporary. */
px_status px__graph_plan_copy(px__copy_op *op, px__copy_plan_info *info, px_view *dst,
                              const px_view *src);
/* A copy or fill node with nothing to move (no element, or a view into itself): the
   backend holds an empty node in its place, and launches run nothing for it. */
static inline bool px__graph_op_is_noop(const px__copy_op *op) { return op->path == PX_COPY_NONE; }

/* Keeps alloc alive with node n (or with g, for native captures: n NULL). */
px_status px__graph_hold(px_graph *g, px_graph_node *n, px__alloc *alloc);

/* Whether visit(n, ctx) holds for a node n among the first `count` nodes of g, or, at any
   depth, of the bodies of those nodes and of the children as they were copied. */
bool px__graph_any(const px_graph *g, int count,
                   bool (*visit)(const px_graph_node *n, const void *ctx), const void *ctx);
/* Whether g's first `count` nodes hold a WHILE or IF node, at any depth. */
bool px__graph_has_conditionals(const px_graph *g, int count);

/* A node's kind in words ("kernel", "copy", ...; a kernel by its kind: "for", "reduce"). */
const char *px__graph_node_kind_name(const px_graph_node *n);

#endif /* PX_GRAPHS_GRAPH_H */
