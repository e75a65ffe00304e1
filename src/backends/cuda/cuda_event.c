/* CUDA events: ordering between instances without a host wait, and timing. An event
 * belongs to its device; px_event.impl holds the cudaEvent_t itself. */
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"

static cudaEvent_t event_of(const struct px_event *ev) { return (cudaEvent_t)ev->impl; }

px_status px__cuda_event_create(struct px_event *ev)
{
    px__cuda_device *d;
    int saved;
    PX__TRY(px__cuda_device_get(ev->device, &d, "px_event_create"));
    PX__TRY(px__cuda_enter(ev->device, &saved));
    /* Timing costs a timestamp at every record: only when asked for. */
    const unsigned flags = (ev->flags & PX_EVENT_TIMING) ? cudaEventDefault : cudaEventDisableTiming;
    cudaEvent_t e = NULL;
    const px_status st = PX__CU(cudaEventCreateWithFlags(&e, flags));
    px__cuda_leave(saved);
    if (st == PX_OK) ev->impl = e;
    return st;
}

void px__cuda_event_destroy(struct px_event *ev)
{
    if (ev->impl == NULL) return;
    int saved;
    if (px__cuda_enter(ev->device, &saved) == PX_OK) {
        (void)PX__CU(cudaEventDestroy(event_of(ev)));
        px__cuda_leave(saved);
    }
    ev->impl = NULL;
}

px_status px__cuda_event_record(struct px_event *ev, struct px_instance *inst)
{
    if (inst->device != ev->device)
        return px__error(PX_ERR_INVALID_ARGUMENT, "px_event_record",
                         "the event is of CUDA device %d, instance '%s' of device %d", ev->device,
                         inst->label ? inst->label : "?", inst->device);
    int saved;
    PX__TRY(px__cuda_enter(ev->device, &saved));
    const px_status st = PX__CU(cudaEventRecord(event_of(ev), px__cuda_queue_of(inst)->stream));
    px__cuda_leave(saved);
    return st;
}

/* The event may be of another device: CUDA streams wait across devices. */
px_status px__cuda_event_wait(struct px_instance *inst, struct px_event *ev)
{
    int saved;
    PX__TRY(px__cuda_enter(inst->device, &saved));
    const px_status st = PX__CU(cudaStreamWaitEvent(px__cuda_queue_of(inst)->stream, event_of(ev), 0));
    px__cuda_leave(saved);
    return st;
}

px_status px__cuda_event_query(struct px_event *ev, bool *done)
{
    const cudaError_t e = cudaEventQuery(event_of(ev));
    if (e == cudaSuccess) {
        *done = true;
        return PX_OK;
    }
    if (e == cudaErrorNotReady) {   /* not an error: nothing pending is left behind */
        *done = false;
        return PX_OK;
    }
    *done = false;
    return px__cuda_fail(e, "px_event_query", "cudaEventQuery(event)", NULL);
}

px_status px__cuda_event_synchronize(struct px_event *ev)
{
    const cudaError_t e = cudaEventSynchronize(event_of(ev));
    return e == cudaSuccess ? PX_OK : px__cuda_fail(e, "px_event_synchronize", "cudaEventSynchronize(event)", NULL);
}

px_status px__cuda_event_elapsed(struct px_event *start, struct px_event *end, float *ms)
{
    if (!(start->flags & PX_EVENT_TIMING) || !(end->flags & PX_EVENT_TIMING))
        return px__error(PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms",
                         "%s event was created without PX_EVENT_TIMING",
                         !(start->flags & PX_EVENT_TIMING) ? "the start" : "the end");
    const cudaError_t e = cudaEventElapsedTime(ms, event_of(start), event_of(end));
    if (e == cudaSuccess) return PX_OK;
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return px__error(PX_ERR_INVALID_ARGUMENT, "px_event_elapsed_ms",
                         "an event has not completed yet (synchronize the end event first)");
    }
    return px__cuda_fail(e, "px_event_elapsed_ms", "cudaEventElapsedTime(ms, start, end)", NULL);
}
