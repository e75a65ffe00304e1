/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what every backend implements, and what the layers above hand it.
 *
 * Layers, each using only itself and those below it (docs/design.md):
 *   graphs/         graphs, capture, executable graphs
 *   runtime/        init, instances, events, fences, partitions, dispatch, copies, fills
 *   spaces/         memory spaces, views, choosing a copy's path
 *   observability/  the observers: Kokkos Tools, NVTX, the timeline
 *   backends/       this interface, the tables compiled in (backends.h), a folder per
 *                   backend (host/: what the host backends share)
 *   base/           errors, library state, allocation, accounting, live objects, topology
 *
 * A backend exports one constant px__backend table (queues, events, launches, the copies
 * and fills it runs) and a px__space_ops table for each memory space it owns, filled with
 * designated initializers. A NULL hook means "not supported": callers say so, never follow
 * it. A hook's messages name the public function the user called without being told it
 * (base/error.h). Backends get their own queues (px__queue) and a validated description of
 * each call; they never see instances, views, graphs or the other handles of the layers
 * above, nor which observers are on, and they reach base/ through services.h only. */
#ifndef PX_BACKENDS_BACKEND_H
#define PX_BACKENDS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Of the public API, what a backend may use: the types of what it is handed. Not the
   entry points that orchestrate (parallel.h, graph.h, tools.h), which call backends. */
#include "portex/copy.h"
#include "portex/core.h"
#include "portex/instance.h"
#include "portex/kernel.h"
#include "portex/policy.h"
#include "portex/space.h"
#include "portex/team.h"
#include "portex/view.h"

/* A backend's in-order queue of work; each backend defines the struct. */
typedef struct px__queue px__queue;

/* What a queue is made with; validated by the core. */
typedef struct px__queue_desc {
    int device;
    int priority;
    const char *label; /* the instance's label; outlives the queue */
    /* Give the label to the tools that show queues by name (NVTX names a CUDA stream):
       the core says so when such a tool is on, so that no backend asks which observers
       are on. */
    bool tools_name;
} px__queue_desc;

/* ---- Memory ------------------------------------------------------------------------- */

typedef struct px__space_ops {
    const char *name;
    /* The CPU reads and writes this memory directly (HOST, HOST_PINNED). */
    bool host_access;
    /* The backend whose copy and fill hooks move this memory off the host paths. */
    px_exec_space owner;
    /* PX_OK or why not (no device, ...); `space` is in range. */
    px_status (*available)(px_space space);
    px_status (*alloc)(px_space space, size_t bytes, void **out);
    /* May be called from any thread, also a backend's own worker threads. */
    void (*free)(px_space space, void *ptr, size_t bytes);
    /* Zeroes `bytes` at ptr, finished when it returns. */
    px_status (*zero)(px_space space, void *ptr, size_t bytes);
} px__space_ops;

/* ---- Kernels -------------------------------------------------------------------------- */

typedef enum px__result_kind {
    PX__RESULT_NONE = 0, /* for, or scan without total */
    PX__RESULT_HOST,     /* host memory; the dispatch waits for the queue */
    PX__RESULT_VIEW      /* memory the backend writes in queue order */
} px__result_kind;

/* The kernel's entry of `kind` for the family of device code `target` (a backend's
   target), or NULL when the kernel was not compiled for it. A few rows at most. */
static inline px__entry_fn px__kernel_entry_of(const px_kernel *k, int target, px__entry_kind kind)
{
    for (int32_t i = 0; i < k->entry_count; ++i)
        if (k->entries[i].target == target && k->entries[i].kind == kind) return k->entries[i].fn;
    return NULL;
}

/* One kernel dispatch, validated by the core. A team kernel (kernel->team) runs `team`;
   its `policy` is then the league as a 1-D range. */
typedef struct px__dispatch {
    const px_kernel *kernel;
    /* The kernel's entry for the backend's target, found by the core: RANGE, or LEAGUE for
       a team kernel; of the type its family gives (portex/impl/<family>/family.h). */
    px__entry_fn entry;
    const char *label; /* never NULL */
    px_policy policy;
    px_team_policy team; /* team kernels: checked, scratch sizes rounded to 16 bytes */
    /* A px_teams_rows league: the px__team_rows_run its kernels read (portex/impl/abi.h), in
       host memory (a device backend copies it into its launches); NULL otherwise. */
    const void *team_rows;
    const void *args;
    px__result_kind result_kind;
    void *result;          /* host pointer, or the data of the result view */
    px_space result_space; /* PX__RESULT_VIEW */
} px__dispatch;

/* ---- Copies and fills ------------------------------------------------------------------ */

/* Keeps memory alive after a copy call returns, for a backend that still reads or writes
   it then (a staged copy's pageable side). A backend that keeps it moves it out of the op
   (setting the op's to {0}) and calls drop(obj) once done, from any thread; the caller
   drops what is left in the op when the hook returns. */
typedef struct px__hold {
    void (*drop)(void *obj);
    void *obj;
} px__hold;

static inline void px__hold_drop(px__hold *h)
{
    if (h->drop) h->drop(h->obj);
    h->drop = NULL;
    h->obj = NULL;
}

/* One side of a copy: its first element, its space, its strides in elements. */
typedef struct px__copy_side {
    char *data;
    px_space space;
    int64_t stride[PX_MAX_RANK];
    px__hold hold;
} px__copy_side;

/* A copy or fill, validated and with its path chosen (spaces/copy_plan.h). Both sides
   share rank, extents and element size. `flat`: both hold their elements contiguously in
   the same order, so `bytes` bytes move as one block. Fills use `value` (one element) and
   not src. */
typedef struct px__copy_op {
    px_copy_path path;
    int rank;
    int64_t extent[PX_MAX_RANK];
    size_t elem_size;
    int64_t count; /* elements */
    size_t bytes;  /* count * elem_size */
    bool flat;
    px__copy_side dst, src;
    const void *value;
} px__copy_op;

/* ---- Sorts -------------------------------------------------------------------------------- */

/* A stable radix sort, validated by the core (portex/sort.h). Keys of a built-in type
   (key_size bytes) from keys_in to keys_out, which may be the same memory; keys_out NULL:
   the sorted keys are not wanted (a permutation), keys_in is left as it is. Values of
   value_size bytes (0: none) from values_in to values_out, which may be the same memory;
   values_in NULL with value_size 4 or 8: the values are the indices 0, 1, ... as int32_t
   or int64_t (a permutation). segments >= 0 with offsets (segments + 1 entries of
   offset_size 4 or 8 bytes, signed): each segment sorted alone, keys_out == keys_in and
   values_out == values_in; segments < 0: the whole of n. */
typedef struct px__sort_op {
    px_dtype key_dtype;
    size_t key_size;
    int64_t n;
    const void *keys_in;
    void *keys_out;
    size_t value_size;
    const void *values_in;
    void *values_out;
    bool descending;
    int64_t segments;
    const void *offsets;
    size_t offset_size;
} px__sort_op;

/* ---- Prefix sums ------------------------------------------------------------------------- */

/* A prefix sum (portex/prefix_sum.h), validated by the core: n > 0 elements of dtype (i32,
   i64, u32, u64, f32 or f64) from in to out, which may be the same memory. */
typedef struct px__prefix_sum_op {
    px_dtype dtype;
    int64_t n;
    const void *in;
    void *out;
    bool exclusive;
} px__prefix_sum_op;

/* ---- Partitions ------------------------------------------------------------------------- */

/* Validated by the core: weights normalised to sum 1. */
typedef struct px__partition_request {
    int n;
    const double *weights; /* n, each > 0 */
    bool sm_partition;
    const int *priorities; /* n, or NULL */
} px__partition_request;

/* ---- Graphs ------------------------------------------------------------------------------ */

struct px__backend;

/* A backend's graph, node and executable graph; each backend defines the structs. */
typedef struct px__bgraph px__bgraph;
typedef struct px__bnode px__bnode;
typedef struct px__bexec px__bexec;

typedef enum px__gnode_kind {
    PX__GNODE_KERNEL = 0,
    PX__GNODE_COPY,
    PX__GNODE_FILL,
    PX__GNODE_HOST,
    PX__GNODE_EMPTY,
    PX__GNODE_CHILD, /* a copy of another graph (explicit or captured) */
    PX__GNODE_WHILE,
    PX__GNODE_IF,
    PX__GNODE_KIND_COUNT
} px__gnode_kind;

/* One node, validated by the core. Pointers are read during the call only: a backend
   copies what it keeps (arguments, a fill's value). The memory a copy, fill or reduction
   reaches is kept alive by the core as long as the graph and its executable graphs. */
typedef struct px__gnode_desc {
    px__gnode_kind kind;
    const char *label;      /* never NULL */
    px__dispatch dispatch;  /* KERNEL (result_kind NONE or VIEW) */
    px__copy_op op;         /* COPY, FILL (no holds: the core keeps the views) */
    void (*fn)(void *data); /* HOST */
    void *data;
    px__bgraph *child; /* CHILD */
    unsigned initial;  /* WHILE, IF: the condition at every launch */
} px__gnode_desc;

/* Why an update was refused: the node (index in the new graph, or -1) and the reason. */
typedef struct px__graph_update_error {
    int node;
    char reason[256];
} px__graph_update_error;

/* The graph capability of a backend. Nodes are added in a topological order (a node
   depends only on nodes added before it). */
typedef struct px__graph_ops {
    /* An empty graph for `device` (the backend's table comes along for host graphs). */
    px_status (*create)(const struct px__backend *be, int device, px__bgraph **out);
    /* Called once the graph, every graph that holds it as a child and every executable
       graph made from them are gone. Bodies go with their node's graph. */
    void (*destroy)(px__bgraph *g);
    /* Adds desc after deps. WHILE and IF also give the body graph (*body, owned by the
       node) and the handle kernels pass to px_cond_set (*cond). */
    px_status (*add)(px__bgraph *g, const px__gnode_desc *desc, px__bnode *const *deps, int ndeps,
                     px__bnode **out, px__bgraph **body, uint64_t *cond);
    px_status (*instantiate)(px__bgraph *g, px__bexec **out);
    /* Waits for the launches of e, then frees it. */
    px_status (*exec_destroy)(px__bexec *e);
    px_status (*upload)(px__bexec *e, px__queue *q);
    px_status (*launch)(px__bexec *e, px__queue *q);
    /* New parameters for node n of the graph e was made from (same kind; the core checked
       what must not change). */
    px_status (*set)(px__bexec *e, px__bnode *n, const px__gnode_desc *desc);
    /* As set for a kernel node whose arguments alone change (d: what the node runs now,
       with the new args): px_graph_exec_set_args, kept to a few hundred nanoseconds. */
    px_status (*set_args)(px__bexec *e, px__bnode *n, const px__dispatch *d);
    /* Every node's parameters from `from` (the core checked the shape it knows); on
       refusal e is unchanged and *why says where. */
    px_status (*update)(px__bexec *e, px__bgraph *from, px__graph_update_error *why);
    /* Launches e on q with its top-level nodes one after another, waits, and gives each
       node's time in microseconds (us[n], n the number of top-level nodes; a node left
       at -1 was not timed alone) and the whole run's (*total). */
    px_status (*profile)(px__bexec *e, px__queue *q, double *us, int n, double *total);

    /* Stream capture, for backends whose queues record work natively (NULL for the host
       backends, whose captures the core records node by node). begin refuses a queue that
       is being captured already (PX_ERR_CAPTURING) or cannot be (PX_ERR_UNSUPPORTED) and
       gives the graph the capture fills; end completes it, or answers PX_ERR_CAPTURING
       with the backend's reason, the capture ended either way (the caller destroys the
       graph then). */
    px_status (*capture_begin)(px__queue *q, int mode, px__bgraph **out);
    px_status (*capture_end)(px__queue *q, px__bgraph *g);
} px__graph_ops;

/* ---- The table --------------------------------------------------------------------------- */

typedef struct px__backend {
    const char *name;
    px_exec_space exec;
    /* The family of device code whose kernel entries it runs (portex/impl/targets.h). */
    px__kernel_target target;
    /* Kernels run on the CPU, so they reach every host_access space. */
    bool runs_on_host;

    /* At px_init (the first reference), with the user's options; NULL when there is
       nothing to set up. */
    px_status (*init)(const px_init_options *opts);
    /* Devices of this execution space; 0 is an answer, not a failure. */
    px_status (*device_count)(int *count);
    /* The last px_finalize, after every queue is gone: release the backend's own state. */
    void (*finalize)(void);

    px_status (*queue_create)(const px__queue_desc *desc, px__queue **out);
    /* A queue over a native one the caller owns (a cudaStream_t for CUDA). */
    px_status (*queue_wrap)(const px__queue_desc *desc, void *native, px__queue **out);
    /* Waits for the queue's work and frees it. Either it refuses and changes nothing
       (*released false: the queue still works; for example while it is being captured),
       or it releases everything (*released true), returning the error the wait met, if
       any: never half of each. */
    px_status (*queue_destroy)(px__queue *q, bool *released);
    px_status (*fence)(px__queue *q);
    px_status (*fence_all)(void);

    px_status (*event_create)(int device, unsigned flags, void **out);
    void (*event_destroy)(void *ev);
    px_status (*event_record)(void *ev, px__queue *q);
    px_status (*event_wait)(px__queue *q, void *ev);
    px_status (*event_query)(void *ev, bool *done);
    px_status (*event_synchronize)(void *ev);
    px_status (*event_elapsed)(void *start, void *end, float *ms);

    px_status (*launch)(px__queue *q, const px__dispatch *d);
    /* The most scratch bytes a team may have at `level` (0 or 1) on `device`; NULL: the
       host backends' limits (PX_TEAM_SCRATCH0_HOST_MAX, PX_TEAM_SCRATCH1_MAX). */
    px_status (*team_scratch_max)(int device, int level, size_t *bytes);

    /* The path of a copy (or, with op->value set, a fill) that involves memory this backend
       owns and the CPU cannot reach (op->path is unset). */
    px_status (*copy_path)(const px__copy_op *op, px_copy_path *path);
    /* Runs op->path on q: host paths (HOST_*) after q's earlier work, the backend's own
       paths ordered on q. A backend that falls back to another path says so in op->path. */
    px_status (*copy)(px__queue *q, px__copy_op *op);
    /* HOST_FILL after q's earlier work, or the backend's own fill ordered on q. */
    px_status (*fill)(px__queue *q, px__copy_op *op);
    /* Zeroes `bytes` of new host memory (a view's allocation, elements of elem_size bytes)
       on the threads of this backend's default queue, each its share of the elements as
       the backend's 1-D loops over them would give it, so that first touch puts each page
       near the thread that will use it; finished when it returns. NULL: the backend has no
       threads of its own (the space's zero runs on the calling thread). */
    px_status (*zero_host)(void *ptr, size_t bytes, size_t elem_size);

    /* Runs op on q, ordered after q's earlier work (the host backends: finished when it
       returns); NULL: the backend cannot sort. */
    px_status (*sort)(px__queue *q, const px__sort_op *op);
    /* Runs op on q, as sort does; NULL: the backend has no prefix sum. */
    px_status (*prefix_sum)(px__queue *q, const px__prefix_sum_op *op);

    /* req->n new queues of parent's device, described by descs; on failure none is left. */
    px_status (*partition)(px__queue *parent, const px__partition_request *req,
                           const px__queue_desc *descs, px__queue **children);
    /* SMs the queue's kernels may use. */
    px_status (*sm_count)(px__queue *q, int *count);
    /* Threads the queue's kernels may run on at once; NULL: one. */
    px_status (*concurrency)(px__queue *q, int *count);

    px_status (*print_configuration)(FILE *out);

    /* Graphs; NULL when the backend has none. */
    const px__graph_ops *graph;
} px__backend;

#endif /* PX_BACKENDS_BACKEND_H */
