/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the objects behind px_instance and px_event handles. */
#ifndef PX_RUNTIME_INSTANCE_H
#define PX_RUNTIME_INSTANCE_H

#include <stdbool.h>

#include "portex.h"
#include "backends/backend.h"
#include "base/registry.h"
#include "observability/observed.h"

#define PX__INSTANCE_MAGIC 0x494e5354u /* "INST" */
#define PX__EVENT_MAGIC 0x45564e54u    /* "EVNT" */

/* A capture in progress on an instance (graphs/capture.c). */
typedef struct px__capture px__capture;

struct px_instance {
    uint32_t magic;
    const px__backend *be;
    px_exec_space exec;
    int device;
    int priority;
    bool is_default; /* owned by portex, destroyed at finalize */
    bool external;   /* wraps a queue the caller owns */
    uint32_t number; /* 1, 2, ... in creation order: Kokkos Tools' instance id */
    char *label;
    px__queue *queue;
    px__capture *capture; /* NULL unless px_graph_capture_begin */
    bool lent;            /* px_graph_add_captured's, lent to its callback: portex ends the
                               capture and destroys the instance when the callback returns */
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

px_status px__instance_check(const px_instance *inst);

/* inst as the observers see it (observability/observed.h), for the begin and end of an
   operation told to them. */
static inline px__observed px__instance_observed(const px_instance *inst)
{
    return (px__observed){.key = inst,
                          .number = inst->number,
                          .label = inst->label,
                          .be = inst->be,
                          .exec = inst->exec,
                          .device = inst->device,
                          .queue = inst->queue,
                          .captured = inst->capture != NULL};
}

/* A handle for a queue the backend is about to make: exec, device, priority and a copy of
   the label (or "<exec>:<device>" when NULL) set, not registered, no queue yet. */
px_status px__instance_alloc(px_instance **out, const px__backend *be, int device, int priority,
                             const char *label, bool is_default);
/* What the backend makes inst's queue with: its device, priority and label, and whether
   a tool that shows queues by name is on. */
px__queue_desc px__instance_queue_desc(const px_instance *inst);
/* Registers a handle whose queue is made (px_finalize counts it from now on). */
void px__instance_register(px_instance *inst);
/* Frees a handle whose queue is released (or was never made). */
void px__instance_free(px_instance *inst);

/* PX_ERR_CAPTURING naming `what` when inst is being captured into a graph, else PX_OK. */
px_status px__instance_refuse_capturing(const px_instance *inst, const char *what);

/* A new instance (registered). */
px_status px__instance_create(px_instance **out, px_exec_space exec, int device, const char *label);
/* Destroys inst unless it refuses (being captured); *released says which. */
px_status px__instance_destroy(px_instance *inst, bool *released);

/* A new instance over a native queue the caller owns (a cudaStream_t on `device`). */
px_status px__instance_wrap(px_instance **out, px_exec_space exec, int device, void *native,
                            const char *label);
/* The default instance of (exec, device), made on first use. */
px_status px__instance_default(px_exec_space exec, int device, px_instance **out);
/* Every instance of every execution space idle. Told to the observers (observability/profile.h)
   as a fence of every instance, named after the public call; the _quiet form is not. */
px_status px__fence_all(void);
px_status px__fence_all_quiet(void);
/* Destroys the default instances (px_finalize); returns the first error, and whether every
   one was released (one whose queue is being captured refuses and stays). */
px_status px__instances_finalize(bool *all_released);

#endif /* PX_RUNTIME_INSTANCE_H */
