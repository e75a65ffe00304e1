/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The serial backend: work runs on the calling thread the moment it is issued, so a
 * queue is always drained and events are complete as soon as they are recorded. */
#include "backends/serial/backend.h"

#include "backends/host/copy.h"
#include "backends/host/event.h"
#include "backends/host/graph.h"
#include "backends/host/launch.h"
#include "backends/host/prefix_sum.h"
#include "backends/host/sort.h"
#include "backends/host/team.h"
#include "backends/services.h"

/* Serial queues hold nothing: every one is this object. */
static char serial_queue;
#define SERIAL_QUEUE ((px__queue *)(void *)&serial_queue)

static px_status serial_queue_create(const px__queue_desc *desc, px__queue **out)
{
    (void)desc;
    *out = SERIAL_QUEUE;
    return PX_OK;
}

static px_status serial_queue_destroy(px__queue *q, bool *released)
{
    (void)q;
    *released = true;
    return PX_OK;
}

/* One part, the whole dispatch: part 0 (host/launch.h) while it runs. */
static px_status serial_launch(px__queue *q, const px__dispatch *d)
{
    (void)q;
    if (d->kernel->team) {
        px__host_team t;
        PX__TRY(px__host_team_begin(&t, d, 1));
        const int was = px__host_part_enter(0);
        px__host_team_part(&t, 0);
        px__host_part_leave(was);
        px__host_team_end(&t);
        return PX_OK;
    }
    const int was = px__host_part_enter(0);
    ((px__host_range_fn)d->entry)(d->args, &d->policy, d->result);
    px__host_part_leave(was);
    return PX_OK;
}

/* Only host paths reach the serial backend (it owns HOST memory alone). */
static px_status serial_copy(px__queue *q, px__copy_op *op)
{
    (void)q;
    if (op->path != PX_COPY_HOST_MEMCPY && op->path != PX_COPY_HOST_STRIDED)
        return px__error(PX_ERR_UNSUPPORTED, "the serial backend cannot run copy path %s",
                         px_copy_path_string(op->path));
    px__host_copy(op);
    return PX_OK;
}

static px_status serial_fill(px__queue *q, px__copy_op *op)
{
    (void)q;
    if (op->path != PX_COPY_HOST_FILL)
        return px__error(PX_ERR_UNSUPPORTED, "the serial backend cannot run fill path %s",
                         px_copy_path_string(op->path));
    px__host_fill(op);
    return PX_OK;
}

static px_status serial_sort(px__queue *q, const px__sort_op *op)
{
    (void)q;
    return px__host_sort(NULL, op);
}

static px_status serial_prefix_sum(px__queue *q, const px__prefix_sum_op *op)
{
    (void)q;
    return px__host_prefix_sum(NULL, op);
}

/* Serial partitions are more serial queues. */
static px_status serial_partition(px__queue *parent, const px__partition_request *req,
                                  const px__queue_desc *descs, px__queue **children)
{
    (void)parent;
    (void)descs;
    for (int i = 0; i < req->n; ++i) children[i] = SERIAL_QUEUE;
    return PX_OK;
}

const px__backend px__backend_serial = {
    .name = "serial",
    .exec = PX_EXEC_SERIAL,
    .target = PX__TARGET_HOST,
    .runs_on_host = true,
    .device_count = px__host_device_count,
    .queue_create = serial_queue_create,
    .queue_destroy = serial_queue_destroy,
    .fence = px__host_fence,
    .fence_all = px__host_fence_all,
    .event_create = px__host_event_create,
    .event_destroy = px__host_event_destroy,
    .event_record = px__host_event_record,
    .event_wait = px__host_event_wait,
    .event_query = px__host_event_query,
    .event_synchronize = px__host_event_synchronize,
    .event_elapsed = px__host_event_elapsed,
    .launch = serial_launch,
    .copy = serial_copy,
    .fill = serial_fill,
    .sort = serial_sort,
    .prefix_sum = serial_prefix_sum,
    .partition = serial_partition,
    .graph = &px__host_graph_ops,
};
