/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/** @file
 * portex — graphs: work recorded once and launched many times.
 *
 * A graph is a set of nodes (kernels, copies, fills, host functions, child graphs, work a
 * callback issues, WHILE and IF conditionals) and the dependencies between them, for one
 * execution space and device. Build one node by node (px_graph_add_*), or record what an
 * instance is given between px_graph_capture_begin and px_graph_capture_end.
 * px_graph_instantiate makes an executable graph, which px_graph_launch runs on any
 * instance of the graph's execution space and device, after that instance's earlier work
 * and before its later work, as often as wanted. Its nodes' parameters can be changed
 * between launches without instantiating again (px_graph_exec_set_*), or all at once from
 * a graph of the same shape (px_graph_exec_update).
 *
 * @code
 *   px_graph *g;
 *   px_graph_node *a, *b;
 *   px_graph_create(&g, exec, 0, "step");   // exec: px_default_exec_space's
 *   px_graph_add_for(g, NULL, 0, "stencil", policy, PX_KERNEL(stencil), &args, &a);
 *   px_graph_add_reduce(g, &a, 1, "residual", policy, PX_KERNEL(norm), &args, res, &b);
 *   px_graph_exec *e;
 *   px_graph_instantiate(g, &e);
 *   for (int s = 0; s < steps; ++s) px_graph_launch(e, inst);
 * @endcode
 *
 * Backends. On CUDA a graph is a CUDA graph: capture is CUDA stream capture (work other
 * libraries put on the instance's stream is captured too), conditionals are CUDA
 * conditional nodes whose conditions kernels set. On the host backends (serial, OpenMP, threads) a launch
 * runs the nodes one after another in the order they were added, which is a topological
 * order (a node depends only on nodes added before it), on the launching thread, and
 * evaluates conditions on the host: the same program runs, and is tested, without a GPU.
 *
 * Lifetimes. A graph keeps alive every view its copy, fill and reduce nodes name, and
 * those a kernel node is told about (px_graph_node_uses), until it, every graph it is a
 * child of and every executable graph made from it are gone; an executable graph keeps
 * its graph. Destroying an executable graph waits for its launches, so releasing
 * everything while a launch still runs frees nothing the launch uses.
 *
 * Sharing. On CUDA the executable graphs that use a graph's reductions and scans (made
 * from it, or from graphs holding it as a child) share their scratch memory, so each of
 * their launches waits for the previous launch of any of them (on the host backends launches are finished when they return). One
 * executable graph launched on two instances runs one launch after the other, as CUDA
 * runs launches of one executable graph. Handles are used from one thread at a time; a
 * graph and the executable graphs made from it count as one handle here (changing a node
 * records it again with its graph's resources). Different graphs from different
 * threads.
 *
 * Memory the library allocates for a graph: per reduce or scan node its scratch
 * (partials, a counter: a few KiB, more for large scans), allocated when the node is
 * added and freed with the graph; nothing per launch. */
#ifndef PORTEX_GRAPH_H
#define PORTEX_GRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "portex/core.h"
#include "portex/instance.h"
#include "portex/kernel.h"
#include "portex/policy.h"
#include "portex/team.h"
#include "portex/view.h"

PX_EXTERN_C_BEGIN

/** A graph: nodes and their dependencies, for one execution space and device (opaque). */
typedef struct px_graph px_graph;
/** An executable graph, made by px_graph_instantiate and run by px_graph_launch (opaque). */
typedef struct px_graph_exec px_graph_exec;
/** A node of a graph; valid while its graph lives. */
typedef struct px_graph_node px_graph_node;

/* ---- Building a graph node by node ----------------------------------------------------- */

/** An empty graph of (exec, device); label may be NULL. */
PX_API px_status px_graph_create(px_graph **out, px_exec_space exec, int device, const char *label);
/** Drops the caller's reference (executable graphs and parent graphs keep their own) and
 * sets *graph to NULL. A WHILE or IF body belongs to its node: it is not destroyed. */
PX_API px_status px_graph_destroy(px_graph **graph);

/** @name Adding nodes
 * Every px_graph_add_* takes the nodes the new node depends on (`deps`, `ndeps`; NULL, 0
 * for none: it may run first), all of this graph, and gives the new node in *out (out may
 * be NULL). `label` names the node in errors and in px_graph_dot (NULL: the kernel's
 * name, or the kind). Nothing runs until the graph is launched. A graph that came from a
 * capture takes no new nodes: make it a child of an explicit graph instead. */
/** @{ */

/** A PX_FOR kernel over policy, as px_parallel_for; args are copied. */
PX_API px_status px_graph_add_for(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                  const char *label, px_policy policy, const px_kernel *kernel,
                                  const void *args, px_graph_node **out);
/** A PX_REDUCE kernel into element 0 of `result`, as px_parallel_reduce_view (DEVICE of the
 * graph's GPU or HOST_PINNED for CUDA; HOST on the host backends): a result in a host variable has
 * no meaning at replay. */
PX_API px_status px_graph_add_reduce(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                     const char *label, px_policy policy, const px_kernel *kernel,
                                     const void *args, px_view *result, px_graph_node **out);
/** A PX_TEAM_FOR kernel over the league of `policy`, as px_parallel_for_team. */
PX_API px_status px_graph_add_for_team(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                       const char *label, px_team_policy policy,
                                       const px_kernel *kernel, const void *args,
                                       px_graph_node **out);
/** A PX_TEAM_REDUCE kernel into element 0 of `result`, as px_parallel_reduce_team_view. */
PX_API px_status px_graph_add_reduce_team(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                          const char *label, px_team_policy policy,
                                          const px_kernel *kernel, const void *args,
                                          px_view *result, px_graph_node **out);
/** A PX_SCAN kernel, as px_parallel_scan without a total. */
PX_API px_status px_graph_add_scan(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                   const char *label, px_policy policy, const px_kernel *kernel,
                                   const void *args, px_graph_node **out);
/** A copy, its path chosen as px_deep_copy chooses it. On CUDA, pageable host memory (HOST)
 * is refused with PX_ERR_CAPTURE_PAGEABLE: a graph replays from the same addresses, which
 * only pinned memory keeps DMA-able; use HOST_PINNED. Views that share memory otherwise
 * are refused (PX_ERR_INVALID_ARGUMENT: copy through a temporary view in two nodes).
 *
 * A copy or fill with nothing to move (views with no element; a view copied into itself,
 * whatever its layout) is a node like any other, checked the same way, and runs as
 * nothing (its path is PX_COPY_NONE). */
PX_API px_status px_graph_add_copy(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                   px_view *dst, const px_view *src, px_graph_node **out);
/** Every element of dst becomes *value (one element, copied); HOST refused on CUDA as for
 * copies. */
PX_API px_status px_graph_add_fill(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                   px_view *dst, const void *value, px_graph_node **out);
/** fn(data) on a host thread, in order with the graph's other nodes. fn must not call
 * portex or CUDA (on CUDA it runs on the driver's callback thread). */
PX_API px_status px_graph_add_host(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                   const char *label, void (*fn)(void *data), void *data,
                                   px_graph_node **out);
/** A node that does nothing but join its dependencies (Kokkos' when_all). */
PX_API px_status px_graph_add_empty(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                    px_graph_node **out);
/** `child` (same execution space and device, not a body) as one node. The child is copied
 * as it is now: nodes added to it later do not reach this node. The node keeps the child
 * alive, so no graph may hold itself: refused (PX_ERR_INVALID_ARGUMENT) when child is the
 * graph this node goes into (or the graph whose body that is), or holds it through child
 * nodes at any depth, nodes added to those children after they were copied included. So
 * the link that would close a circle is refused whenever it is made, and destroying every
 * handle frees every graph. A captured graph can be a child, which is how work other
 * libraries issued joins an explicit graph. A child holding WHILE or IF nodes is refused
 * (PX_ERR_UNSUPPORTED: CUDA cannot copy conditional nodes), and while this node exists
 * `child` takes none (see px_graph_add_while). In a WHILE or IF body a child
 * is refused (PX_ERR_INVALID_ARGUMENT) when it holds, at any depth, what the body refuses
 * as a node (see px_graph_add_while), and taken when it holds only what the body takes. */
PX_API px_status px_graph_add_child(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                    px_graph *child, px_graph_node **out);
/** The work fn issues on the instance it is given, recorded in place of this node: fn runs
 * once, now, between a px_graph_capture_begin and px_graph_capture_end of a temporary
 * instance of the graph's execution space and device (so on CUDA fn may also put foreign
 * work on that instance's stream, portex/cuda.h). fn's status is returned; on failure no
 * node is added. The instance is portex's, lent to fn: px_graph_capture_end and
 * px_instance_destroy refuse it (PX_ERR_CAPTURING; the capture goes on), and it is gone
 * when fn returns. If fn destroys `graph`, no node is added (PX_ERR_INVALID_ARGUMENT) and
 * the graph is freed. */
PX_API px_status px_graph_add_captured(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                       const char *label,
                                       px_status (*fn)(px_instance *inst, void *data), void *data,
                                       px_graph_node **out);
/** @} */

/** Views a kernel node reads or writes, kept alive by the graph (kernels see spans only). */
PX_API px_status px_graph_node_uses(px_graph_node *node, px_view *const *views, int nviews);

/* ---- Conditionals ------------------------------------------------------------------------- */

/** A WHILE or IF node's condition: set by kernels with px_cond_set (portex/kernel.h) through
 * the value px_graph_cond_value gives, read by its node. */
typedef struct px_graph_cond_t px_graph_cond_t;

/** @{ */
/** WHILE: runs the body graph (made here, empty, in `*body`, to be filled with `px_graph_add_*`)
 * as long as the condition is non-zero when checked: first when the node is reached, then
 * after each pass. At every launch the condition starts as `initial`; kernels of the body
 * (or of nodes before this one) change it. IF: runs the body once when the condition is
 * non-zero. The node is *out; *cond and *body belong to the node (do not destroy them).
 *
 * What a body may hold, on every backend (CUDA's rules for conditional bodies): kernel,
 * copy, fill, empty, child and conditional nodes; copies and fills only of the graph's
 * device memory (DEVICE on CUDA; on the host backends every space they run, HOST
 * included); no host functions and no captured work (px_graph_add_captured nodes, a
 * captured graph as a child). A child is held to the same rules at any depth: the body
 * takes a child holding what it takes as nodes, and refuses one holding anything else.
 * Anything else is refused when added (PX_ERR_INVALID_ARGUMENT), naming the node.
 *
 * Refused with PX_ERR_UNSUPPORTED, on every backend, while child nodes copy `graph` (or
 * the graph whose body it is): CUDA does not instantiate a graph holding conditional nodes
 * while a copy of it exists. A copy lasts as long as the graph holding the child node
 * does: its handle, the graphs holding it as a child, and the executable graphs made or
 * updated from it keep it. */
PX_API px_status px_graph_add_while(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                    const char *label, unsigned initial, px_graph_cond_t **cond,
                                    px_graph **body, px_graph_node **out);
PX_API px_status px_graph_add_if(px_graph *graph, px_graph_node *const *deps, int ndeps,
                                 const char *label, unsigned initial, px_graph_cond_t **cond,
                                 px_graph **body, px_graph_node **out);
/** @} */
/** The value kernels pass to px_cond_set. */
PX_API px_status px_graph_cond_value(const px_graph_cond_t *cond, px_cond *out);

/** How px_graph_cond_from_view compares its scalar with the threshold. */
typedef enum px_compare {
    PX_CMP_LT = 0,
    PX_CMP_LE,
    PX_CMP_GT,
    PX_CMP_GE,
    PX_CMP_EQ,
    PX_CMP_NE
} px_compare;
/** @var PX_CMP_LT
 * scalar less than threshold */
/** @var PX_CMP_LE
 * scalar less than or equal to threshold */
/** @var PX_CMP_GT
 * scalar greater than threshold */
/** @var PX_CMP_GE
 * scalar greater than or equal to threshold */
/** @var PX_CMP_EQ
 * scalar equal to threshold */
/** @var PX_CMP_NE
 * scalar not equal to threshold */

/** A ready-made loop condition: appends to `body` (after every node in it so far) a node
 * that sets cond to (element 0 of `scalar` `<cmp>` threshold). scalar: a PX_F64 view in
 * the graph's device memory (DEVICE on CUDA, HOST on the host backends), e.g. a reduction's result.
 * The node is *out (may be NULL). */
PX_API px_status px_graph_cond_from_view(px_graph *body, px_graph_cond_t *cond, px_view *scalar,
                                         px_compare cmp, double threshold, px_graph_node **out);

/* ---- Capture ------------------------------------------------------------------------------ */

/** What else a capture refuses while it lasts (CUDA's stream capture modes). */
typedef enum px_capture_mode {
    PX_CAPTURE_THREAD_LOCAL = 0, /**< the default: other threads may do anything meanwhile */
    PX_CAPTURE_GLOBAL,           /**< CUDA: calls that may synchronise implicitly are refused
                                    in every thread while the capture lasts */
    PX_CAPTURE_RELAXED           /**< no such check anywhere; may end from another thread */
} px_capture_mode;

/** From now on, work given to inst is recorded, not run, until px_graph_capture_end.
 * Everything portex issues on inst is recorded (kernels, copies, fills); on CUDA so is
 * whatever else is issued on inst's stream (raw kernels, cuBLAS, PyTorch). Refused during
 * a capture, each with a status and the instance left capturing: what must wait for
 * results on the host (px_instance_fence, px_parallel_reduce and px_parallel_scan into
 * host variables; px_deep_copy and px_fill when inst is the default instance they run
 * on; other instances' work, px_fence_all included, goes on and does not wait for inst's
 * recorded work), events (px_event_record,
 * px_instance_wait_event: order work in a graph with dependencies), pageable host memory
 * on CUDA (PX_ERR_CAPTURE_PAGEABLE), and px_instance_destroy (PX_ERR_CAPTURING).
 * Refused (nothing changed): a capture already in progress on inst, a foreign one on a
 * wrapped stream included (PX_ERR_CAPTURING); a stream CUDA cannot capture (the legacy
 * default stream: PX_ERR_UNSUPPORTED). */
PX_API px_status px_graph_capture_begin(px_instance *inst, px_capture_mode mode);
/** The recorded work as a new graph in *out. Refused: no capture in progress on inst
 * (PX_ERR_INVALID_ARGUMENT); a thread-local or global capture ended from another thread
 * than the one that began it (PX_ERR_CAPTURING; the capture goes on, end it there); the
 * instance px_graph_add_captured lends its callback (PX_ERR_CAPTURING: that capture ends
 * when the callback returns). A
 * capture CUDA invalidated, for example by an operation that touched the legacy default
 * stream (CUDA's error 906), ends with PX_ERR_CAPTURING and CUDA's reason, no graph, and
 * the instance usable again. */
PX_API px_status px_graph_capture_end(px_instance *inst, px_graph **out);

/* ---- Instantiating, launching, updating -------------------------------------------------- */

/** An executable graph of graph (not a body). A graph holding WHILE or IF nodes has one
 * executable graph at a time (CUDA's rule, kept on every backend): a second is refused
 * with PX_ERR_UNSUPPORTED until the first is destroyed. */
PX_API px_status px_graph_instantiate(px_graph *graph, px_graph_exec **out);
/** Waits for the executable graph's launches, then frees it and sets *exec to NULL. */
PX_API px_status px_graph_exec_destroy(px_graph_exec **exec);
/** Makes the next launch cheaper (CUDA: uploads the graph to the device, ordered on inst;
 * nothing on the host backends). */
PX_API px_status px_graph_upload(px_graph_exec *exec, px_instance *inst);
/** Runs the graph on inst (of the graph's execution space and device), after inst's earlier
 * work and before its later work: asynchronous on CUDA, finished when it returns on the
 * host backends. */
PX_API px_status px_graph_launch(px_graph_exec *exec, px_instance *inst);

/** @{ */
/** Between launches (launches already queued keep the old values), in place: a kernel
 * node's arguments (copied) or policy, a copy node's views, a fill node's value. `node` is
 * a node of the graph exec was made from (not of a body or child), added before exec was
 * instantiated. New views must match the old ones in space, element type (the type, not
 * only its size), extents, layout and copy path; exec keeps them alive. Refused with
 * PX_ERR_INVALID_ARGUMENT (exec unchanged): another node, a node of another kind, views
 * that do not match, a node of a captured graph (change those with px_graph_exec_update).
 * On CUDA a change of the node's launch shape that CUDA cannot apply in place is refused
 * with PX_ERR_UNSUPPORTED and the reason; instantiate again. A fill node takes any value:
 * on CUDA a fill in a graph is always a kernel (never a memset node, which could not
 * become the kernel another value needs). */
PX_API px_status px_graph_exec_set_args(px_graph_exec *exec, px_graph_node *node, const void *args);
PX_API px_status px_graph_exec_set_policy(px_graph_exec *exec, px_graph_node *node,
                                          px_policy policy);
/** A team kernel node's team policy (px_graph_add_for_team, px_graph_add_reduce_team),
 * checked as a dispatch checks it; px_graph_exec_set_policy refuses team nodes. */
PX_API px_status px_graph_exec_set_team_policy(px_graph_exec *exec, px_graph_node *node,
                                               px_team_policy policy);
PX_API px_status px_graph_exec_set_copy(px_graph_exec *exec, px_graph_node *node, px_view *dst,
                                        const px_view *src);
PX_API px_status px_graph_exec_set_fill(px_graph_exec *exec, px_graph_node *node,
                                        const void *value);
/** @} */

/** Why an update was refused. */
typedef struct px_graph_update_report {
    int node;         /**< index (px_graph_node_index) in the new graph of the node that
                           differs, or -1 when the graphs differ as a whole */
    char reason[256]; /**< what differs, or CUDA's reason */
} px_graph_update_report;

/** Every node's parameters from `graph`, which must have the same shape as the graph exec
 * was made from (its nodes when exec was instantiated: later ones are not part of exec):
 * the same kinds of nodes, added in the same order with the same dependencies and
 * kernels, copies and fills that move nothing in the same places (for captured graphs:
 * the same work captured the same way, the usual "capture each step, update" pattern).
 * exec keeps `graph` alive from then on, in place of the graph of any earlier update, and
 * px_graph_exec_set_* changes made before are dropped. Refused, exec unchanged, report
 * (may be NULL) saying which node (or -1) and why:
 * - PX_ERR_INVALID_ARGUMENT: another shape; another execution space or device; a body;
 *   on CUDA, what cudaGraphExecUpdate refuses (with CUDA's reason);
 * - PX_ERR_UNSUPPORTED: `graph` is not exec's own graph and it, or what exec runs, holds
 *   WHILE or IF nodes (their conditions belong to their own graph on CUDA: update from
 *   the graph itself, or instantiate again). */
PX_API px_status px_graph_exec_update(px_graph_exec *exec, px_graph *graph,
                                      px_graph_update_report *report);

/* ---- Seeing a graph ----------------------------------------------------------------------- */

/** @{ */
/** A node's place in its graph (0 for the first added), its label, and how many nodes a
 * graph has (a captured graph: the operations portex recorded). */
PX_API px_status px_graph_node_index(const px_graph_node *node, int *out);
PX_API px_status px_graph_node_label(const px_graph_node *node, const char **out);
PX_API px_status px_graph_node_count(const px_graph *graph, int *out);
/** The execution space and device the graph was made for (a body: its graph's; a captured
 * graph: the capturing instance's). */
PX_API px_status px_graph_exec_space(const px_graph *graph, px_exec_space *exec, int *device);
/** @} */

/** The graph in Graphviz DOT (`dot -Tsvg`): each node with its label, kind, range or copy
 * path, the dependencies as edges, WHILE/IF bodies and child graphs as clusters. */
PX_API px_status px_graph_dot(const px_graph *graph, FILE *out);
/** Launches exec once on inst with its top-level nodes run one at a time, in the order they
 * were added, timing each (a child or conditional node as a whole), waits for it, and
 * writes JSON: {"graph": label, "backend": name, "total_us": t, "nodes": [{"index": i,
 * "label": l, "kind": k, "us": t}, ...]}. Timing serialises the graph: the sum exceeds a
 * normal launch's time when nodes can overlap. On CUDA a captured graph, and a graph
 * holding WHILE or IF nodes (those added after instantiation count), are timed as a whole
 * ("us": null for each node): CUDA cannot copy them to time their nodes apart. On CUDA a
 * graph timed node by node runs a copy of the graph as instantiated or last updated
 * (px_graph_exec_update), without px_graph_exec_set_* changes; a graph timed as a whole
 * runs the executable graph itself, with them, as every graph does on the host backends. */
PX_API px_status px_graph_profile(px_graph_exec *exec, px_instance *inst, FILE *json);

PX_EXTERN_C_END

#endif /* PORTEX_GRAPH_H */
