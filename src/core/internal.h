/* Internal: the objects behind the public handles and the backend ops table.
 *
 * Backends plug in through one constant table of hooks each (px__backend). The core keeps
 * the tables compiled in, indexed by execution space, and treats a NULL hook as "not
 * supported by this backend": a clear status, never a crash. */
#ifndef PX_CORE_INTERNAL_H
#define PX_CORE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "portex.h"
#include "core/error.h"
#include "core/registry.h"

#define PX__MAX_DEVICES 64

#define PX__VIEW_MAGIC 0x56494557u     /* "VIEW" */
#define PX__INSTANCE_MAGIC 0x494e5354u /* "INST" */
#define PX__EVENT_MAGIC 0x45564e54u    /* "EVNT" */

/* ---- Memory ------------------------------------------------------------------------- */

/* The memory behind one or more views; freed when the last view onto it goes. */
typedef struct px__alloc {
    atomic_int refs;
    px_space space;
    void *ptr;
    size_t bytes;
    bool owned;      /* false: wrapped user memory */
} px__alloc;

/* Hooks of one memory space kind. */
typedef struct px__space_ops {
    const char *name;
    px_status (*available)(px_space space);
    px_status (*alloc)(px_space space, size_t bytes, void **out);
    void (*free)(px_space space, void *ptr, size_t bytes);
    /* Zero `bytes` at ptr and have finished when it returns. */
    px_status (*zero)(px_space space, void *ptr, size_t bytes);
} px__space_ops;

/* NULL when the space's backend is not compiled in. */
const px__space_ops *px__space_ops_get(px_space_kind kind);

/* Validates space (kind in range, device ordinal in range) and its availability. */
px_status px__space_check(px_space space, const char *func);

/* Accounting (thread-safe). */
void px__memory_account(px_space space, size_t bytes, bool add);
void px__memory_account_library(px_space space, size_t bytes, bool add);

/* Host memory reachable from the CPU (HOST and HOST_PINNED). */
static inline bool px__space_is_host(px_space s)
{
    return s.kind == PX_SPACE_HOST || s.kind == PX_SPACE_HOST_PINNED;
}

/* ---- Views -------------------------------------------------------------------------- */

struct px_view {
    uint32_t magic;
    atomic_int refs;
    px__alloc *alloc;
    char *label;
    px_dtype dtype;
    size_t elem_size;
    int rank;
    int64_t extent[PX_MAX_RANK];
    int64_t stride[PX_MAX_RANK];
    px_layout layout;
    char *data;
    px__live live;
};

px_status px__view_check(const px_view *v, const char *func, const char *what);
int64_t px__view_size(const px_view *v);
bool px__view_contiguous(const px_view *v);

/* ---- Execution ---------------------------------------------------------------------- */

typedef enum px__result_kind {
    PX__RESULT_NONE = 0,   /* for, or scan without total */
    PX__RESULT_HOST,       /* host memory; the dispatch waits for the instance */
    PX__RESULT_VIEW        /* memory the backend writes in stream order */
} px__result_kind;

/* One kernel dispatch, validated by the core before it reaches a backend. */
typedef struct px__dispatch {
    const px_kernel *kernel;
    const char *label;
    px_policy policy;
    const void *args;
    px__result_kind result_kind;
    void *result;           /* host pointer, or the data of the result view */
    px_space result_space;  /* PX__RESULT_VIEW */
} px__dispatch;

struct px_instance;
struct px_event;

/* One side of a copy: where the first element is, which space, and the strides (in
   elements) of each dimension. */
typedef struct px__copy_side {
    char *data;
    px_space space;
    int64_t stride[PX_MAX_RANK];
} px__copy_side;

/* A copy or fill the core has validated and chosen a path for. Both sides share rank,
   extents and element size. `flat` means both sides hold their elements contiguously in
   the same order, so `bytes` bytes can move as one block. For fills, `value` points to one
   element and src is unused. */
typedef struct px__copy_op {
    px_copy_path path;
    int rank;
    int64_t extent[PX_MAX_RANK];
    size_t elem_size;
    int64_t count;          /* elements */
    size_t bytes;           /* count * elem_size */
    bool flat;
    px__copy_side dst, src;
    const void *value;
} px__copy_op;

/* Options a backend's partition hook receives, validated (weights normalised to sum 1). */
typedef struct px__partition_request {
    int n;
    const double *weights;   /* n, each > 0, summing to 1 */
    bool sm_partition;
    const int *priorities;   /* n, or NULL */
} px__partition_request;

typedef struct px__backend {
    const char *name;
    px_exec_space exec;

    px_status (*device_count)(int *count);
    /* Called once at the last px_finalize; must release the backend's own resources. */
    void (*finalize)(void);

    /* Fill inst->impl for inst->exec / device / priority. */
    px_status (*instance_create)(struct px_instance *inst);
    /* Wrap a native queue (a cudaStream_t for CUDA). */
    px_status (*instance_wrap)(struct px_instance *inst, void *native);
    px_status (*instance_destroy)(struct px_instance *inst);
    px_status (*fence)(struct px_instance *inst);
    px_status (*fence_all)(void);

    px_status (*event_create)(struct px_event *ev);
    void (*event_destroy)(struct px_event *ev);
    px_status (*event_record)(struct px_event *ev, struct px_instance *inst);
    px_status (*event_wait)(struct px_instance *inst, struct px_event *ev);
    px_status (*event_query)(struct px_event *ev, bool *done);
    px_status (*event_synchronize)(struct px_event *ev);
    px_status (*event_elapsed)(struct px_event *start, struct px_event *end, float *ms);

    px_status (*launch)(struct px_instance *inst, const px__dispatch *d);

    /* A copy involving the backend's memory on the path the core chose (CUDA_DMA, D2D,
       PAGEABLE, STAGED, PEER, STRIDED), ordered on inst. A backend that falls back to
       another path (STAGED to PAGEABLE) sets op->path to the one it took. */
    px_status (*copy)(struct px_instance *inst, px__copy_op *op);
    /* A fill (op->value) of device or pinned memory, contiguous or strided, ordered on inst. */
    px_status (*fill)(struct px_instance *inst, const px__copy_op *op);
    /* Whether inst's queue is being captured into a graph right now. */
    px_status (*is_capturing)(struct px_instance *inst, bool *capturing);

    /* Fill children[i]->impl for req->n instances of parent's device; on failure leave
       none behind. children[i] have exec, device, priority and label set. */
    px_status (*partition)(struct px_instance *parent, const px__partition_request *req,
                           struct px_instance **children);
    /* SMs an instance may use. */
    px_status (*sm_count)(struct px_instance *inst, int *count);

    /* The space `ptr` belongs to (DEVICE, HOST_PINNED or HOST). */
    px_status (*pointer_space)(const void *ptr, px_space *out);
    px_status (*host_register)(void *ptr, size_t bytes);
    px_status (*host_unregister)(void *ptr);
    /* Staging configuration (CUDA_STAGED). */
    px_status (*staging_get)(px_staging_config *out);
    px_status (*staging_set)(const px_staging_config *config);

    px_status (*print_configuration)(FILE *out);
} px__backend;

/* NULL when the execution space is not compiled in. */
const px__backend *px__backend_get(px_exec_space exec);

struct px_instance {
    uint32_t magic;
    const px__backend *be;
    px_exec_space exec;
    int device;
    int priority;
    bool is_default;   /* owned by portex, destroyed at finalize */
    bool external;     /* wraps a queue the caller owns */
    char *label;
    void *impl;
    px__live live;
};

struct px_event {
    uint32_t magic;
    const px__backend *be;
    px_exec_space exec;
    int device;
    unsigned flags;
    bool recorded;
    void *impl;
    px__live live;
};

px_status px__instance_check(const px_instance *inst, const char *func);

/* A new instance over a native queue (for CUDA a cudaStream_t on `device`) that the caller
   owns; the backend's instance_wrap hook fills impl. */
px_status px__instance_wrap(px_instance **out, px_exec_space exec, int device, void *native,
                            const char *label, const char *func);

/* The default instance for a device's memory (CUDA default instance of that GPU, or the
   serial one for host spaces). */
px_status px__instance_for_space(px_space space, px_instance **out);

/* ---- Library state ------------------------------------------------------------------ */

bool px__initialized(void);
px_status px__require_init(const char *func);

/* Copy-path counters. */
void px__copy_count(px_copy_path path);
void px__copy_counts_reset(void);

/* Topology (hwloc), loaded at init. */
px_status px__topology_load(void);
void px__topology_unload(void);
void px__topology_print(FILE *out);

/* Safe string duplicate; NULL on allocation failure. */
char *px__strdup(const char *s);
/* a followed by b in a new string; NULL on allocation failure. */
char *px__concat(const char *a, const char *b);

/* Bytes = a * b without overflow. */
static inline bool px__mul_overflows(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return true;
    *out = a * b;
    return false;
}

#endif /* PX_CORE_INTERNAL_H */
