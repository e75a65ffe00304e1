/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a capture in progress on an instance, as the runtime sees it. The graphs
 * module makes it (graphs/capture.c, px_graph_capture_begin) and says, through these
 * hooks, how the dispatches, copies and fills given to the instance are recorded: the
 * runtime asks the capture, never a graph, so that no arrow runs from runtime/ up to
 * graphs/. */
#ifndef PX_RUNTIME_CAPTURE_H
#define PX_RUNTIME_CAPTURE_H

#include <stdbool.h>

#include "backends/backend.h"
#include "runtime/instance.h"

typedef struct px__capture_ops {
    /* Records a dispatch as the next node; result: the view a reduction writes (held with
       the node), or NULL. */
    px_status (*kernel)(px__capture *c, const px__dispatch *d, px_view *result);
    /* Records a copy, or a fill (src NULL), as the next node. */
    px_status (*copy)(px__capture *c, const px__copy_op *op, px_view *dst, const px_view *src);
    /* What a native capture ran: noted for DOT and counts, its views' memory held by the
       graph (a: a copy's or fill's destination, or a reduction's result; b: a copy's
       source). */
    px_status (*note)(px__capture *c, const px__gnode_desc *desc, px_view *a, const px_view *b);
} px__capture_ops;

/* The graphs module's recorder embeds this as its first member. */
struct px__capture {
    const px__capture_ops *ops;
    /* The runtime hands each dispatch, copy and fill to ops instead of running it (a host
       backend's capture); false: the backend's queue records natively, the work runs as
       usual and ops->note notes what portex issued. */
    bool records;
};

/* Whether inst is being captured, and whether its work is to be recorded instead of run. */
static inline bool px__capture_active(const px_instance *inst) { return inst->capture != NULL; }
static inline bool px__capture_records(const px_instance *inst)
{
    return inst->capture != NULL && inst->capture->records;
}

static inline px_status px__capture_kernel(px_instance *inst, const px__dispatch *d,
                                           px_view *result)
{
    return inst->capture->ops->kernel(inst->capture, d, result);
}

static inline px_status px__capture_copy(px_instance *inst, const px__copy_op *op, px_view *dst,
                                         const px_view *src)
{
    return inst->capture->ops->copy(inst->capture, op, dst, src);
}

static inline px_status px__capture_note(px_instance *inst, const px__gnode_desc *desc, px_view *a,
                                         const px_view *b)
{
    return inst->capture->ops->note(inst->capture, desc, a, b);
}

#endif /* PX_RUNTIME_CAPTURE_H */
