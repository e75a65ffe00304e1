/* The DEVICE memory space: portex's stream-ordered pool per device, frees that wait for
 * queued work, and the library's own device buffers.
 *
 * Allocation runs on the device's internal stream and is synchronised before it returns,
 * so the memory is usable from any stream at once (and a reused block's previous frees
 * have completed). A free cannot know which streams still use the memory, so it orders
 * itself after everything queued so far on every live queue (events, no host wait) and
 * frees on the internal stream: releasing a view with work still queued is safe, and
 * the call returns at once. Freed memory stays in portex's pool (release threshold:
 * unlimited) for the next allocation; an allocation that fails trims the pool and tries
 * once more; px_finalize destroys the pools. */
#include "backends/cuda/cuda_memory.h"

#include <stdint.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"

/* Without creating a context: asking must stay cheap. */
static px_status device_available(px_space space)
{
    int count;
    PX__TRY(px__cuda_count(&count, "CUDA"));   /* the core names the caller */
    if (space.device >= count)
        return px__error(PX_ERR_NO_DEVICE, "CUDA", "device %d does not exist (%d device%s)", space.device,
                         count, count == 1 ? "" : "s");
    return PX_OK;
}

/* With the device current. */
static cudaError_t pool_alloc(px__cuda_device *d, void **p, size_t bytes)
{
    cudaError_t e = cudaMallocFromPoolAsync(p, bytes, d->pool, d->stream);
    if (e == cudaErrorMemoryAllocation) {
        /* Memory freed but not yet returned may be what is missing. */
        (void)cudaGetLastError();
        if (cudaStreamSynchronize(d->stream) == cudaSuccess && cudaMemPoolTrimTo(d->pool, 0) == cudaSuccess)
            e = cudaMallocFromPoolAsync(p, bytes, d->pool, d->stream);
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    return e;
}

static px_status device_alloc(px_space space, size_t bytes, void **out)
{
    px__cuda_device *d;
    int saved;
    *out = NULL;
    PX__TRY(px__cuda_device_get(space.device, &d, __func__));
    PX__TRY(px__cuda_enter(space.device, &saved));
    const size_t n = bytes > 0 ? bytes : 1;   /* a valid, distinct pointer even for 0 */
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(space, bytes);
    void *p = NULL;
    px_status st = d->pool ? px__cuda_check(pool_alloc(d, &p, n), "px_view_create",
                                            "cudaMallocFromPoolAsync(portex's pool)", &ctx)
                           : px__cuda_check(cudaMalloc(&p, n), "px_view_create", "cudaMalloc", &ctx);
    px__cuda_leave(saved);
    if (st == PX_OK) *out = p;
    return st;
}

static void device_free(px_space space, void *ptr, size_t bytes)
{
    (void)bytes;
    if (ptr == NULL) return;
    px__cuda_device *d = px__cuda_device_if_ready(space.device);
    int saved;
    if (d == NULL || px__cuda_enter(space.device, &saved) != PX_OK) return;
    if (px__cuda_order_after_all(d->stream) != PX_OK) {
        /* Without the events, wait for the whole device instead. */
        (void)PX__CU(cudaDeviceSynchronize());
    }
    if (d->pool) {
        (void)PX__CU(cudaFreeAsync(ptr, d->stream));
    } else {
        (void)PX__CU(cudaStreamSynchronize(d->stream));
        (void)PX__CU(cudaFree(ptr));
    }
    px__cuda_leave(saved);
}

static px_status device_zero(px_space space, void *ptr, size_t bytes)
{
    px__cuda_device *d;
    int saved;
    if (bytes == 0) return PX_OK;
    PX__TRY(px__cuda_device_get(space.device, &d, __func__));
    PX__TRY(px__cuda_enter(space.device, &saved));
    px_status st = PX__CU(cudaMemsetAsync(ptr, 0, bytes, d->stream));
    if (st == PX_OK) st = PX__CU(cudaStreamSynchronize(d->stream));
    px__cuda_leave(saved);
    return st;
}

const px__space_ops px__space_ops_cuda_device = {
    .name = "DEVICE",
    .available = device_available,
    .alloc = device_alloc,
    .free = device_free,
    .zero = device_zero,
};

/* ---- Library buffers ------------------------------------------------------------------ */

/* Called with q's device current. */
px_status px__cuda_buffer_alloc(px__cuda_queue *q, size_t bytes, void **out)
{
    px__cuda_device *d;
    *out = NULL;
    PX__TRY(px__cuda_device_get(q->device, &d, __func__));
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_device(q->device), bytes);
    void *p = NULL;
    px_status st;
    if (px__cuda_capturing(q->stream)) {
        /* A graph allocation node: the memory belongs to the graph. */
        st = PX__CU_AT(cudaMallocAsync(&p, bytes, q->stream), &ctx);
    } else if (d->pool) {
        st = PX__CU_AT(cudaMallocFromPoolAsync(&p, bytes, d->pool, q->stream), &ctx);
        if (st == PX_OK) px__memory_account_library(px_device(q->device), bytes, true);
    } else {
        /* cudaMalloc synchronises the device: rare (no pool support), and only on growth. */
        st = PX__CU_AT(cudaMalloc(&p, bytes), &ctx);
        if (st == PX_OK) px__memory_account_library(px_device(q->device), bytes, true);
    }
    if (st == PX_OK) *out = p;
    return st;
}

void px__cuda_buffer_free(px__cuda_queue *q, void *ptr, size_t bytes)
{
    if (ptr == NULL) return;
    px__cuda_device *d = px__cuda_device_if_ready(q->device);
    if (px__cuda_capturing(q->stream)) {
        (void)PX__CU(cudaFreeAsync(ptr, q->stream));
        return;
    }
    px__memory_account_library(px_device(q->device), bytes, false);
    if (d != NULL && d->pool) {
        (void)PX__CU(cudaFreeAsync(ptr, q->stream));
    } else {
        (void)PX__CU(cudaStreamSynchronize(q->stream));
        (void)PX__CU(cudaFree(ptr));
    }
}
