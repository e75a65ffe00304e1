/* CUDA instances: one stream each (owned or wrapped), with the resources their
 * dispatches reuse; fences. */
#include <stdlib.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_green.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_pinned.h"
#include "backends/cuda/cuda_queue.h"

/* The event frees use, and the counter/result buffer. The buffer comes from the device's
   pool through the internal stream, zeroed and synchronised: usable from q's stream even
   when the caller is capturing it. Called with q's device current. */
static px_status queue_setup(px__cuda_queue *q)
{
    PX__CU_TRY(cudaEventCreateWithFlags(&q->mark, cudaEventDisableTiming));
    const px_space dev = px_device(q->device);
    void *aux = NULL;
    px_status st = px__space_ops_cuda_device.alloc(dev, PX__CUDA_AUX_BYTES, &aux);
    if (st == PX_OK) st = px__space_ops_cuda_device.zero(dev, aux, PX__CUDA_AUX_BYTES);
    if (st != PX_OK) {
        if (aux) px__space_ops_cuda_device.free(dev, aux, PX__CUDA_AUX_BYTES);
        (void)cudaEventDestroy(q->mark);
        q->mark = NULL;
        return st;
    }
    q->aux = aux;
    q->aux_bytes = PX__CUDA_AUX_BYTES;
    px__memory_account_library(dev, q->aux_bytes, true);
    px__cuda_track_add(q);
    return PX_OK;
}

px_status px__cuda_queue_setup(px__cuda_queue *q) { return queue_setup(q); }

/* After the stream is idle: nothing of q's can still be in use. */
static void queue_teardown(px__cuda_queue *q)
{
    px__cuda_track_remove(q);
    px__cuda_buffer_free(q, q->scratch, q->scratch_bytes);
    q->scratch = NULL;
    q->scratch_bytes = 0;
    if (q->aux) {
        px__memory_account_library(px_device(q->device), q->aux_bytes, false);
        px__space_ops_cuda_device.free(px_device(q->device), q->aux, q->aux_bytes);
        q->aux = NULL;
    }
    if (q->host) {
        px__memory_account_library(px_host_pinned(), q->host_bytes, false);
        px__cuda_pinned_free(q->host, q->host_bytes);
        q->host = NULL;
    }
    if (q->mark) (void)PX__CU(cudaEventDestroy(q->mark));
    q->mark = NULL;
}

px_status px__cuda_instance_create(struct px_instance *inst)
{
    px__cuda_device *d;
    int saved;
    PX__TRY(px__cuda_device_get(inst->device, &d, "px_instance_create"));
    /* Lower numbers are higher priorities; the device allows [greatest, least]. */
    int prio = inst->priority;
    if (prio < d->priority_greatest) prio = d->priority_greatest;
    if (prio > d->priority_least) prio = d->priority_least;
    px__cuda_queue *q = calloc(1, sizeof *q);
    if (q == NULL) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "no memory for the instance's state");
    q->device = inst->device;
    q->sm_count = d->sm_count;
    q->owned = true;
    px_status st = px__cuda_enter(inst->device, &saved);
    if (st != PX_OK) {
        free(q);
        return st;
    }
    /* Non-blocking: never serialised against the legacy default stream. */
    st = PX__CU(cudaStreamCreateWithPriority(&q->stream, cudaStreamNonBlocking, prio));
    if (st == PX_OK) {
        st = queue_setup(q);
        if (st != PX_OK) (void)cudaStreamDestroy(q->stream);
    }
    px__cuda_leave(saved);
    if (st != PX_OK) {
        free(q);
        return st;
    }
    inst->priority = prio;
    inst->impl = q;
    return PX_OK;
}

/* `native` is a cudaStream_t the caller owns, already checked by
   px_instance_from_cuda_stream; inst->device is the stream's device. */
px_status px__cuda_instance_wrap(struct px_instance *inst, void *native)
{
    px__cuda_device *d;
    int saved;
    PX__TRY(px__cuda_device_get(inst->device, &d, "px_instance_from_cuda_stream"));
    px__cuda_queue *q = calloc(1, sizeof *q);
    if (q == NULL) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "no memory for the instance's state");
    q->device = inst->device;
    q->sm_count = d->sm_count;
    q->owned = false;
    q->stream = (cudaStream_t)native;
    int prio = 0;
    px_status st = PX__CU(cudaStreamGetPriority(q->stream, &prio));
    if (st != PX_OK) {
        free(q);
        return st;
    }
    inst->priority = prio;
    st = px__cuda_enter(inst->device, &saved);
    if (st == PX_OK) {
        st = queue_setup(q);
        px__cuda_leave(saved);
    }
    if (st != PX_OK) {
        free(q);
        return st;
    }
    inst->impl = q;
    return PX_OK;
}

static px_status sync_stream(const struct px_instance *inst, const char *func)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);
    const cudaError_t e = cudaStreamSynchronize(q->stream);
    if (e == cudaSuccess) return PX_OK;
    char call[160];
    snprintf(call, sizeof call, "cudaStreamSynchronize(stream of instance '%s')",
             inst->label ? inst->label : "?");
    return px__cuda_fail(e, func, call, NULL);
}

px_status px__cuda_instance_destroy(struct px_instance *inst)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    if (q == NULL) return PX_OK;
    px_status st = px__cuda_enter(q->device, &saved);
    if (st != PX_OK) return st;
    /* Waits for what was queued, portex's work included, then releases everything even
       if the wait failed (the error is returned). A wrapped stream is never destroyed. */
    st = sync_stream(inst, "px_instance_destroy");
    queue_teardown(q);
    if (q->owned) {
        /* An SM partition's stream and green context go through the driver. */
        px_status st2 = q->green ? px__cuda_green_release(q) : PX__CU(cudaStreamDestroy(q->stream));
        if (st == PX_OK) st = st2;
    }
    px__cuda_leave(saved);
    free(q);
    inst->impl = NULL;
    return st;
}

px_status px__cuda_fence(struct px_instance *inst)
{
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = sync_stream(inst, "px_instance_fence");
    px__cuda_leave(saved);
    return st;
}

px_status px__cuda_fence_all(void)
{
    /* Only streams portex knows: CUDA is not touched when it never was. */
    return px__cuda_sync_all();
}
