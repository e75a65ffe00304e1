/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUDA events: ordering between queues without a host wait, and timing. An event belongs
 * to its device. */
#include <stdlib.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/queue/track.h"
#include "backends/services.h"

typedef struct px__cuda_event {
    cudaEvent_t ev;
    int device;
    bool timing;
} px__cuda_event;

px_status px__cuda_event_create(int device, unsigned flags, void **out)
{
    px__cuda_device *d;
    int saved;
    PX__TRY(px__cuda_device_get(device, &d));
    px__cuda_event *e = px__calloc(1, sizeof *e);
    if (e == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory for the event");
    e->device = device;
    e->timing = (flags & PX_EVENT_TIMING) != 0;
    px_status st = px__cuda_enter(device, &saved);
    if (st == PX_OK) {
        /* Timing costs a timestamp at every record: only when asked for. */
        st = PX__CU(cudaEventCreateWithFlags(&e->ev, e->timing ? cudaEventDefault
                                                               : cudaEventDisableTiming));
        px__cuda_leave(saved);
    }
    if (st != PX_OK) {
        free(e);
        return st;
    }
    *out = e;
    return PX_OK;
}

void px__cuda_event_destroy(void *ev)
{
    px__cuda_event *e = ev;
    int saved;
    if (px__cuda_enter(e->device, &saved) == PX_OK) {
        (void)PX__CU(cudaEventDestroy(e->ev));
        px__cuda_leave(saved);
    }
    free(e);
}

px_status px__cuda_event_record(void *ev, px__queue *queue)
{
    px__cuda_event *e = ev;
    const px__cuda_queue *q = px__cuda_queue_of(queue);
    if (q->device != e->device)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "the event is of CUDA device %d, instance '%s' of device %d", e->device,
                         q->label ? q->label : "?", q->device);
    int saved;
    PX__TRY(px__cuda_enter(e->device, &saved));
    const px_status st = PX__CU(cudaEventRecord(e->ev, q->stream));
    px__cuda_leave(saved);
    return st;
}

/* The event may be of another device: CUDA streams wait across devices. */
px_status px__cuda_event_wait(px__queue *queue, void *ev)
{
    const px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = PX__CU(cudaStreamWaitEvent(q->stream, ((px__cuda_event *)ev)->ev, 0));
    px__cuda_leave(saved);
    return st;
}

px_status px__cuda_event_query(void *ev, bool *done)
{
    const cudaError_t e = cudaEventQuery(((px__cuda_event *)ev)->ev);
    *done = e == cudaSuccess;
    if (e == cudaSuccess) return PX_OK;
    if (e == cudaErrorNotReady) { /* an answer, not an error: nothing pending is left behind */
        (void)cudaGetLastError();
        return PX_OK;
    }
    return px__cuda_fail(e, "cudaEventQuery(event)", NULL);
}

px_status px__cuda_event_synchronize(void *ev)
{
    return PX__CU(cudaEventSynchronize(((px__cuda_event *)ev)->ev));
}

px_status px__cuda_event_elapsed(void *start, void *end, float *ms)
{
    const px__cuda_event *a = start, *b = end;
    if (!a->timing || !b->timing)
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s event was created without PX_EVENT_TIMING",
                         !a->timing ? "the start" : "the end");
    const cudaError_t e = cudaEventElapsedTime(ms, a->ev, b->ev);
    if (e == cudaSuccess) return PX_OK;
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "an event has not completed yet (synchronize the end event first)");
    }
    return px__cuda_fail(e, "cudaEventElapsedTime(ms, start, end)", NULL);
}
