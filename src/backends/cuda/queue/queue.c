/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* CUDA queues: one stream each (owned or wrapped), with the resources their dispatches
 * reuse; destroying them; fences.
 *
 * A queue's end has two steps: px__cuda_queue_close (off the list of live queues, its
 * buffers and staged copies settled) and, when the last reference goes (the list's, or a
 * px_fence_all still synchronising the stream), queue_final (the stream itself). */
#include <stdlib.h>

/* NVTX's loader converts dlsym's pointer to a function pointer, which -Wpedantic flags. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <nvtx3/nvToolsExtCudaRt.h>
#pragma GCC diagnostic pop

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver/green.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/memory/pinned.h"
#include "backends/cuda/queue/queue.h"
#include "backends/cuda/staging/staging.h"
#include "backends/services.h"

/* With NVTX on (the core sets tools_name), Nsight shows the stream under the instance's
   label. Streams portex wraps keep the name their owner gave them. */
static void queue_name(const px__cuda_queue *q)
{
    if (q->tools_name && q->label) nvtxNameCudaStreamA(q->stream, q->label);
}

/* The event cross-queue ordering records, and the counter/result buffer. The buffer
   comes from the device's pool through the alloc stream, zeroed and synchronised: usable
   from q's stream even when the caller is capturing it. Called with q's device current. */
px_status px__cuda_queue_setup(px__cuda_queue *q)
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
    q->lane = px__cuda_staging_lane();
    pthread_mutex_init(&q->staging, NULL);
    px__memory_account_library(dev, q->aux_bytes, true);
    px__cuda_track_add(q);
    if (q->owned) queue_name(q);
    return PX_OK;
}

/* After the stream is idle (or dead): nothing of q's can still be in use. */
static void queue_release_buffers(px__cuda_queue *q)
{
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
}

/* The last reference: the stream (owned ones; an SM partition's through the driver), the
   mark, the struct. */
static void queue_final(px__cuda_queue *q)
{
    int saved;
    if (px__cuda_enter(q->device, &saved) == PX_OK) {
        if (q->owned) {
            if (q->green)
                (void)px__cuda_green_release(q);
            else
                (void)PX__CU(cudaStreamDestroy(q->stream));
        }
        if (q->mark) (void)PX__CU(cudaEventDestroy(q->mark));
        px__cuda_leave(saved);
    }
    pthread_mutex_destroy(&q->staging);
    free(q);
}

void px__cuda_queue_close(px__cuda_queue *q, bool stream_dead)
{
    px__cuda_staging_settle(q, stream_dead);
    queue_release_buffers(q);
    if (px__cuda_track_remove(q)) queue_final(q);
    /* A capture that ended may have held back releases. */
    px__cuda_release_retry(false);
}

static px_status queue_new(const px__queue_desc *desc, bool owned, px__cuda_device **d,
                           px__cuda_queue **out)
{
    PX__TRY(px__cuda_device_get(desc->device, d));
    px__cuda_queue *q = px__calloc(1, sizeof *q);
    if (q == NULL) return px__error(PX_ERR_OUT_OF_MEMORY, "no memory for the instance's state");
    q->device = desc->device;
    q->sm_count = (*d)->sm_count;
    q->shared_optin = (*d)->shared_optin;
    q->owned = owned;
    q->label = desc->label;
    q->tools_name = desc->tools_name;
    *out = q;
    return PX_OK;
}

px_status px__cuda_queue_create(const px__queue_desc *desc, px__queue **out)
{
    px__cuda_device *d = NULL;
    px__cuda_queue *q = NULL;
    PX__TRY(queue_new(desc, true, &d, &q));
    /* Lower numbers are higher priorities; the device allows [greatest, least]. */
    int prio = desc->priority;
    if (prio < d->priority_greatest) prio = d->priority_greatest;
    if (prio > d->priority_least) prio = d->priority_least;
    int saved;
    px_status st = px__cuda_enter(desc->device, &saved);
    if (st != PX_OK) {
        free(q);
        return st;
    }
    /* Non-blocking: never serialised against the legacy default stream. */
    st = PX__CU(cudaStreamCreateWithPriority(&q->stream, cudaStreamNonBlocking, prio));
    if (st == PX_OK) {
        st = px__cuda_queue_setup(q);
        if (st != PX_OK) (void)cudaStreamDestroy(q->stream);
    }
    px__cuda_leave(saved);
    if (st != PX_OK) {
        free(q);
        return st;
    }
    *out = (px__queue *)(void *)q;
    return PX_OK;
}

/* `native` is a cudaStream_t the caller owns, checked by the core (px__cuda_stream_device);
   desc->device is the stream's device. */
px_status px__cuda_queue_wrap(const px__queue_desc *desc, void *native, px__queue **out)
{
    px__cuda_device *d = NULL;
    px__cuda_queue *q = NULL;
    PX__TRY(queue_new(desc, false, &d, &q));
    q->stream = (cudaStream_t)native;
    int saved;
    px_status st = px__cuda_enter(desc->device, &saved);
    if (st == PX_OK) {
        st = px__cuda_queue_setup(q);
        px__cuda_leave(saved);
    }
    if (st != PX_OK) {
        free(q);
        return st;
    }
    *out = (px__queue *)(void *)q;
    return PX_OK;
}

/* Synchronises q's stream; the failure names the instance. With q's device current. */
static px_status sync_stream(const px__cuda_queue *q)
{
    const cudaError_t e = cudaStreamSynchronize(q->stream);
    if (e == cudaSuccess) return PX_OK;
    char call[192];
    snprintf(call, sizeof call, "cudaStreamSynchronize(stream of instance '%s')",
             q->label ? q->label : "?");
    return px__cuda_fail(e, call, NULL);
}

px_status px__cuda_queue_destroy(px__queue *queue, bool *released)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    *released = false;
    if (px__cuda_capturing(q->stream))
        return px__error(
            PX_ERR_CAPTURING,
            "the stream of instance '%s' is being captured into a graph; end the capture first "
            "(the instance is left as it was)",
            q->label ? q->label : "?");
    PX__TRY(px__cuda_enter(q->device, &saved));
    /* Waits for what was queued, portex's work included, then releases everything even if
       the wait failed (a dead stream runs nothing more; the error is returned). A wrapped
       stream is never destroyed. */
    const px_status st = sync_stream(q);
    px__cuda_queue_close(q, st != PX_OK);
    px__cuda_leave(saved);
    *released = true;
    return st;
}

px_status px__cuda_fence(px__queue *queue)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = sync_stream(q);
    /* Done: the staged copies' hosts parts let go of their memory too. Failed: the stream
       runs nothing more and its staged copies will not finish. */
    if (st == PX_OK || !px__cuda_capturing(q->stream)) px__cuda_staging_settle(q, st != PX_OK);
    px__cuda_leave(saved);
    px__cuda_release_retry(false);
    return st;
}

/* Every live queue idle. The list's lock is not held while a stream drains: each queue is
   held by a reference instead, so one stream that never drains blocks only this call. */
px_status px__cuda_fence_all(void)
{
    px__cuda_queue **qs = NULL;
    const int n = px__cuda_track_snapshot(&qs);
    if (n < 0) return px__error(PX_ERR_OUT_OF_MEMORY, "out of host memory");
    px_status first = PX_OK;
    for (int i = 0; i < n; ++i) {
        px__cuda_queue *q = qs[i];
        /* A stream being captured records its work instead of running it. */
        if (!px__cuda_capturing(q->stream)) {
            int saved;
            px_status st = px__cuda_enter(q->device, &saved);
            if (st == PX_OK) {
                st = sync_stream(q);
                px__cuda_staging_settle(q, st != PX_OK);
                px__cuda_leave(saved);
            }
            if (first == PX_OK) first = st;
        }
        if (px__cuda_queue_unref(q)) queue_final(q);
    }
    free(qs);
    px__cuda_release_retry(false);
    return first;
}
