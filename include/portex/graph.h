/* portex — graphs: work recorded once and launched many times.
 *
 * A graph is a set of nodes (kernels, copies, fills, host functions, child graphs, work
 * that a callback issues, and WHILE/IF conditionals) and the dependencies between them,
 * for one execution space and device. Build one node by node (px_graph_add_*), or record
 * what an instance is given between px_graph_capture_begin and px_graph_capture_end.
 * px_graph_instantiate makes an executable graph, which px_graph_launch runs on any
 * instance of the graph's execution space and device, after that instance's earlier work
 * and before its later work, as often as wanted. Its nodes' parameters can be changed
 * between launches without instantiating again (px_graph_exec_set_*), or all at once from
 * a graph of the same shape (px_graph_exec_update).
 *
 * Backends. On CUDA a graph is a CUDA graph: capture is CUDA stream capture (so work other
 * libraries put on the instance's stream is captured too), conditionals are CUDA
 * conditional nodes set from kernels. On the host backends a graph runs its nodes in a
 * topological order on the launching thread and evaluates conditions on the host: the
 * same program runs, and is tested, without a GPU.
 *
 *   px_graph *g;
 *   px_graph_create(&g, PX_EXEC_CUDA, 0, "step");
 *   px_graph_node *a, *b;
 *   px_graph_add_for(g, NULL, 0, "stencil", policy, PX_KERNEL(stencil), &args, &a);
 *   px_graph_add_reduce(g, &a, 1, "residual", policy, PX_KERNEL(norm), &args, res, &b);
 *   px_graph_exec *e;
 *   px_graph_instantiate(g, &e);
 *   for (int s = 0; s < steps; ++s) px_graph_launch(e, inst);
 *
 * Lifetimes. A graph keeps every view its copy, fill and reduce nodes name alive, and
 * those a kernel node is told about (px_graph_node_uses), until it and every executable
 * graph made from it are gone; an executable graph keeps its graph; releasing everything
 * while a launch still runs frees nothing the launch uses. Destroying an executable graph
 * whose launches are still running waits for them. */
#ifndef PORTEX_GRAPH_H
#define PORTEX_GRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "portex/core.h"
#include "portex/instance.h"
#include "portex/kernel.h"
#include "portex/policy.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

typedef struct px_graph px_graph;
typedef struct px_graph_exec px_graph_exec;
/* A node of a graph; valid while its graph lives. */
typedef struct px_graph_node px_graph_node;

/* ---- Building a graph node by node ----------------------------------------------------- */

/* An empty graph of (exec, device); label may be NULL. */
PX_API px_status px_graph_create(px_graph **out, px_exec_space exec, int device, const char *label);
/* Drops the caller's reference (executable graphs keep their own) and sets *graph to NULL. */
PX_API px_status px_graph_destroy(px_graph **graph);

/* Every px_graph_add_* takes the nodes the new node depends on (`deps`, `ndeps`; NULL, 0
 * for none: it may run first), all of this graph, and gives the new node in *out (out may
 * be NULL). `label` names the node in errors and in px_graph_dot (NULL: the kernel's
 * name, or the kind). Nothing runs until the graph is launched. */

/* A PX_FOR kernel over policy; args are copied. */
PX_API px_status px_graph_add_for(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                  px_policy policy, const px_kernel *kernel, const void *args,
                                  px_graph_node **out);
/* A PX_REDUCE kernel into element 0 of `result` (a view the graph's device can write, as
 * for px_parallel_reduce_view): a result in host memory has no meaning at replay. */
PX_API px_status px_graph_add_reduce(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                     px_policy policy, const px_kernel *kernel, const void *args,
                                     px_view *result, px_graph_node **out);
/* A PX_SCAN kernel (no total). */
PX_API px_status px_graph_add_scan(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                   px_policy policy, const px_kernel *kernel, const void *args,
                                   px_graph_node **out);
/* A copy, its path chosen as px_deep_copy chooses it. Pageable host memory is refused on
 * CUDA (PX_ERR_CAPTURE_PAGEABLE: use HOST_PINNED): a graph replays from the same
 * addresses, which only pinned memory keeps DMA-able. */
PX_API px_status px_graph_add_copy(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *dst,
                                   const px_view *src, px_graph_node **out);
/* Every element of dst becomes *value (copied). */
PX_API px_status px_graph_add_fill(px_graph *graph, px_graph_node *const *deps, int ndeps, px_view *dst,
                                   const void *value, px_graph_node **out);
/* fn(data) on a host thread, in order with the graph's other nodes. fn must not call
 * portex or CUDA (on CUDA it runs on the driver's callback thread). */
PX_API px_status px_graph_add_host(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                   void (*fn)(void *data), void *data, px_graph_node **out);
/* A node that does nothing: joins its dependencies (Kokkos' when_all). */
PX_API px_status px_graph_add_empty(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                    px_graph_node **out);
/* `child` (same execution space and device) as one node. The child is copied as it is
 * now: later changes to it do not reach this node. A captured graph can be a child, which
 * is how work other libraries issued joins an explicit graph. */
PX_API px_status px_graph_add_child(px_graph *graph, px_graph_node *const *deps, int ndeps, px_graph *child,
                                    px_graph_node **out);
/* The work fn issues on the instance it is given (an instance of the graph's device whose
 * work is being recorded), recorded in place of this node. fn may also issue foreign work
 * on the instance's stream (portex/cuda.h). It runs once, now; its status is returned. */
PX_API px_status px_graph_add_captured(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                       px_status (*fn)(px_instance *inst, void *data), void *data,
                                       px_graph_node **out);

/* Views a kernel node reads or writes, kept alive by the graph (kernels see spans only). */
PX_API px_status px_graph_node_uses(px_graph_node *node, px_view *const *views, int nviews);

/* ---- Conditionals ------------------------------------------------------------------------- */

/* A condition: set by kernels with px_cond_set (portex/kernel.h), read by its WHILE or IF
 * node. Put the value px_graph_cond_value gives in the kernel's arguments. */
typedef struct px_graph_cond_t px_graph_cond_t;

/* WHILE: runs the body graph (made here, empty, in *body, to be filled) as long as the
 * condition is non-zero when checked: first before the body (initial: the value then),
 * then after each pass, as the body's kernels left it. IF: runs the body once when the
 * condition is non-zero. The node is *out; the condition *cond belongs to the graph. */
PX_API px_status px_graph_add_while(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                    unsigned initial, px_graph_cond_t **cond, px_graph **body,
                                    px_graph_node **out);
PX_API px_status px_graph_add_if(px_graph *graph, px_graph_node *const *deps, int ndeps, const char *label,
                                 unsigned initial, px_graph_cond_t **cond, px_graph **body, px_graph_node **out);
/* The handle kernels pass to px_cond_set. */
PX_API px_status px_graph_cond_value(const px_graph_cond_t *cond, px_cond *out);

typedef enum px_compare {
    PX_CMP_LT = 0, PX_CMP_LE, PX_CMP_GT, PX_CMP_GE, PX_CMP_EQ, PX_CMP_NE
} px_compare;

/* A ready-made loop condition: appends to `body` a node that sets cond to
 * (element 0 of `scalar` <cmp> threshold), scalar an F64 view the graph's device reads
 * (DEVICE of its GPU, HOST_PINNED; HOST on the host backends). */
PX_API px_status px_graph_cond_from_view(px_graph *body, px_graph_cond_t *cond, px_view *scalar, px_compare cmp,
                                         double threshold);

/* ---- Capture ------------------------------------------------------------------------------ */

typedef enum px_capture_mode {
    PX_CAPTURE_THREAD_LOCAL = 0, /* other threads may do anything meanwhile (the default) */
    PX_CAPTURE_GLOBAL,           /* calls that could implicitly synchronise are refused in
                                    every thread while the capture lasts (CUDA's default) */
    PX_CAPTURE_RELAXED           /* no such check anywhere */
} px_capture_mode;

/* From now on, work given to inst is recorded, not run, until px_graph_capture_end on the
 * same thread (thread-local and global modes). Refused (instance left as it was):
 * a capture already in progress on inst (PX_ERR_CAPTURING). */
PX_API px_status px_graph_capture_begin(px_instance *inst, px_capture_mode mode);
/* The recorded work as a new graph. Refused: no capture in progress on inst
 * (PX_ERR_INVALID_ARGUMENT); a thread-local capture ended from another thread; a capture
 * CUDA invalidated (an operation that touched the legacy default stream, CUDA's error
 * 906): PX_ERR_CAPTURING with CUDA's reason, the capture then ended and the instance
 * usable again. */
PX_API px_status px_graph_capture_end(px_instance *inst, px_graph **out);

/* ---- Instantiating, launching, updating -------------------------------------------------- */

/* Cycles were refused when nodes were added (a node depends only on earlier ones). */
PX_API px_status px_graph_instantiate(px_graph *graph, px_graph_exec **out);
/* Waits for the executable graph's launches, then frees it. */
PX_API px_status px_graph_exec_destroy(px_graph_exec **exec);
/* Makes the next launch cheaper (CUDA: uploads the graph to the device on inst's stream). */
PX_API px_status px_graph_upload(px_graph_exec *exec, px_instance *inst);
/* Runs the graph on inst, after inst's earlier work and before its later work. */
PX_API px_status px_graph_launch(px_graph_exec *exec, px_instance *inst);

/* Between launches, in place: a kernel node's arguments (copied) or policy, a copy node's
 * views (same spaces, extents and layouts as before), a fill node's value. node is a node
 * of the graph exec was made from. */
PX_API px_status px_graph_exec_set_args(px_graph_exec *exec, px_graph_node *node, const void *args);
PX_API px_status px_graph_exec_set_policy(px_graph_exec *exec, px_graph_node *node, px_policy policy);
PX_API px_status px_graph_exec_set_copy(px_graph_exec *exec, px_graph_node *node, px_view *dst, const px_view *src);
PX_API px_status px_graph_exec_set_fill(px_graph_exec *exec, px_graph_node *node, const void *value);

/* Why an update was refused. */
typedef struct px_graph_update_report {
    int node;           /* index of the first node that differs (px_graph_node_index), or -1 */
    char reason[256];   /* what differs, or CUDA's reason */
} px_graph_update_report;

/* All nodes' parameters from `graph`, which must have the same shape (the same kinds of
 * nodes with the same dependencies, added in the same order) as the graph exec was made
 * from. Refused (PX_ERR_INVALID_ARGUMENT, exec unchanged): report says which node and why.
 * report may be NULL. */
PX_API px_status px_graph_exec_update(px_graph_exec *exec, px_graph *graph, px_graph_update_report *report);

/* ---- Seeing a graph ----------------------------------------------------------------------- */

/* A node's place in its graph (0 for the first added), its label, and how many nodes a
 * graph has (a captured graph: the operations portex recorded). */
PX_API px_status px_graph_node_index(const px_graph_node *node, int *out);
PX_API px_status px_graph_node_label(const px_graph_node *node, const char **out);
PX_API px_status px_graph_node_count(const px_graph *graph, int *out);

/* The graph in Graphviz DOT: portex's labels, node kinds, ranges, copy paths,
 * dependencies; conditionals with their bodies as clusters. */
PX_API px_status px_graph_dot(const px_graph *graph, FILE *out);
/* Launches exec once on inst, timing every node (nodes run one at a time for this), and
 * writes the times in microseconds as JSON: {"graph": label, "nodes": [{"index", "label",
 * "kind", "us"}...]}. */
PX_API px_status px_graph_profile(px_graph_exec *exec, px_instance *inst, FILE *json);

PX_EXTERN_C_END

#endif /* PORTEX_GRAPH_H */
