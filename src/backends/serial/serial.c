/* The serial backend: work runs on the calling thread the moment it is issued, so an
 * instance's queue is always drained and events are complete as soon as they are
 * recorded. Event timestamps come from the monotonic clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdlib.h>
#include <time.h>

#include "backends/serial/serial.h"

typedef struct serial_event {
    struct timespec when;
} serial_event;

static px_status serial_device_count(int *count)
{
    *count = 1;
    return PX_OK;
}

static px_status serial_instance_create(px_instance *inst)
{
    inst->impl = NULL;
    return PX_OK;
}

static px_status serial_instance_destroy(px_instance *inst)
{
    (void)inst;
    return PX_OK;
}

static px_status serial_fence(px_instance *inst)
{
    (void)inst;
    return PX_OK;
}

static px_status serial_fence_all(void) { return PX_OK; }

static px_status serial_event_create(px_event *ev)
{
    ev->impl = calloc(1, sizeof(serial_event));
    if (!ev->impl) return px__error(PX_ERR_OUT_OF_MEMORY, "px_event_create", "out of host memory");
    return PX_OK;
}

static void serial_event_destroy(px_event *ev) { free(ev->impl); }

static px_status serial_event_record(px_event *ev, px_instance *inst)
{
    (void)inst;
    clock_gettime(CLOCK_MONOTONIC, &((serial_event *)ev->impl)->when);
    return PX_OK;
}

static px_status serial_event_wait(px_instance *inst, px_event *ev)
{
    (void)inst;
    (void)ev;
    return PX_OK;
}

static px_status serial_event_query(px_event *ev, bool *done)
{
    (void)ev;
    *done = true;
    return PX_OK;
}

static px_status serial_event_synchronize(px_event *ev)
{
    (void)ev;
    return PX_OK;
}

static px_status serial_event_elapsed(px_event *start, px_event *end, float *ms)
{
    const struct timespec *a = &((serial_event *)start->impl)->when;
    const struct timespec *b = &((serial_event *)end->impl)->when;
    *ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6);
    return PX_OK;
}

static px_status serial_launch(px_instance *inst, const px__dispatch *d)
{
    (void)inst;
    d->kernel->host(d->args, &d->policy, d->result);
    return PX_OK;
}

/* Serial partitions are more serial instances: nothing to set up. */
static px_status serial_partition(px_instance *parent, const px__partition_request *req,
                                  px_instance **children)
{
    (void)parent;
    for (int i = 0; i < req->n; ++i) children[i]->impl = NULL;
    return PX_OK;
}

const px__backend px__backend_serial = {
    .name = "serial",
    .exec = PX_EXEC_SERIAL,
    .device_count = serial_device_count,
    .instance_create = serial_instance_create,
    .instance_destroy = serial_instance_destroy,
    .fence = serial_fence,
    .fence_all = serial_fence_all,
    .event_create = serial_event_create,
    .event_destroy = serial_event_destroy,
    .event_record = serial_event_record,
    .event_wait = serial_event_wait,
    .event_query = serial_event_query,
    .event_synchronize = serial_event_synchronize,
    .event_elapsed = serial_event_elapsed,
    .launch = serial_launch,
    .partition = serial_partition,
};
