/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Host fences and events: nothing to wait for; an event is a timestamp from the
 * monotonic clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "backends/host/event.h"

#include <stdlib.h>
#include <time.h>

#include "backends/services.h"

px_status px__host_device_count(int *count)
{
    *count = 1;
    return PX_OK;
}

px_status px__host_fence(px__queue *q)
{
    (void)q;
    return PX_OK;
}

px_status px__host_fence_all(void) { return PX_OK; }

typedef struct host_event {
    struct timespec when;
} host_event;

px_status px__host_event_create(int device, unsigned flags, void **out)
{
    (void)device;
    (void)flags;
    host_event *e = px__calloc(1, sizeof *e);
    if (!e) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the event");
    *out = e;
    return PX_OK;
}

void px__host_event_destroy(void *ev) { free(ev); }

px_status px__host_event_record(void *ev, px__queue *q)
{
    (void)q;
    clock_gettime(CLOCK_MONOTONIC, &((host_event *)ev)->when);
    return PX_OK;
}

px_status px__host_event_wait(px__queue *q, void *ev)
{
    (void)q;
    (void)ev;
    return PX_OK;
}

px_status px__host_event_query(void *ev, bool *done)
{
    (void)ev;
    *done = true;
    return PX_OK;
}

px_status px__host_event_synchronize(void *ev)
{
    (void)ev;
    return PX_OK;
}

px_status px__host_event_elapsed(void *start, void *end, float *ms)
{
    const struct timespec *a = &((host_event *)start)->when;
    const struct timespec *b = &((host_event *)end)->when;
    *ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6);
    return PX_OK;
}
