/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The DEVICE memory space: portex's stream-ordered pool per device, frees that wait for
 * queued work, and the library's own device buffers.
 *
 * Allocation runs on the device's alloc stream, which waits for nothing else, and is
 * synchronised before it returns, so the memory is usable from any stream at once and
 * creating a view never waits for unrelated work. A free cannot know which streams still
 * use the memory, so it orders itself after everything queued so far on every live queue
 * (events, no host wait) and frees on the release stream (queue/track.c): releasing a view
 * with work still queued is safe, and the call returns at once. The pool reuses only
 * memory whose free has run (no internal dependencies), so an allocation never inherits
 * the release stream's waits; only when memory runs out does it wait for pending frees.
 *
 * Two pools: allocations of 64 KiB or more take whole 64 KiB units from one, so each starts
 * on a 64 KiB boundary, as cudaMalloc's large allocations do; smaller ones come from the
 * other. A pool packs its allocations one after another, and behind a 4 KiB buffer every
 * later one started 4 KiB past a boundary: on an H200, atomic adds into a 256 KiB array
 * 4-16 KiB past a 64 KiB boundary took 10 % longer than into one on a boundary
 * (bench_scatter_cuda's diagnostics). The cost: less than 64 KiB per large allocation. */
#include "backends/cuda/memory/memory.h"

#include <stdint.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/services.h"

/* Without creating a context: asking must stay cheap. */
static px_status device_available(px_space space)
{
    int count;
    PX__TRY(px__cuda_count(&count));
    if (space.device >= count)
        return px__error(PX_ERR_NO_DEVICE, "device %d does not exist (%d device%s)", space.device,
                         count, count == 1 ? "" : "s");
    return PX_OK;
}

/* The pool an allocation of *bytes comes from; *bytes rounded up to whole units there. */
static cudaMemPool_t pool_for(const px__cuda_device *d, size_t *bytes)
{
    if (*bytes < PX__CUDA_POOL_UNIT) return d->small_pool;
    if (*bytes <= SIZE_MAX - PX__CUDA_POOL_UNIT)
        *bytes = (*bytes + PX__CUDA_POOL_UNIT - 1) / PX__CUDA_POOL_UNIT * PX__CUDA_POOL_UNIT;
    return d->pool;
}

/* With the device current, on stream st. Memory one pool keeps freed may be what the other
   lacks: trim both and try again; and with `wait`, as a last resort, wait for the frees
   still queued. */
static cudaError_t pool_take(px__cuda_device *d, void **p, size_t bytes, cudaStream_t st, bool wait)
{
    cudaMemPool_t pool = pool_for(d, &bytes);
    cudaError_t e = cudaMallocFromPoolAsync(p, bytes, pool, st);
    for (int attempt = 0; e == cudaErrorMemoryAllocation && attempt < (wait ? 2 : 1); ++attempt) {
        (void)cudaGetLastError();
        if (attempt == 1 && cudaStreamSynchronize(d->release) != cudaSuccess) break;
        if (cudaMemPoolTrimTo(d->pool, 0) != cudaSuccess ||
            cudaMemPoolTrimTo(d->small_pool, 0) != cudaSuccess)
            break;
        e = cudaMallocFromPoolAsync(p, bytes, pool, st);
    }
    return e;
}

/* A view's memory: on the alloc stream, synchronised, so usable from any stream. */
static cudaError_t pool_alloc(px__cuda_device *d, void **p, size_t bytes)
{
    cudaError_t e = pool_take(d, p, bytes, d->alloc, true);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->alloc);
    return e;
}

static px_status device_alloc(px_space space, size_t bytes, void **out)
{
    px__cuda_device *d;
    int saved;
    *out = NULL;
    PX__TRY(px__cuda_device_get(space.device, &d));
    PX__TRY(px__cuda_enter(space.device, &saved));
    const size_t n = bytes > 0 ? bytes : 1; /* a valid, distinct pointer even for 0 */
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(space, bytes);
    void *p = NULL;
    const px_status st = d->pool ? px__cuda_check(pool_alloc(d, &p, n),
                                                  "cudaMallocFromPoolAsync(portex's pool)", &ctx)
                                 : px__cuda_check(cudaMalloc(&p, n), "cudaMalloc", &ctx);
    px__cuda_leave(saved);
    if (st == PX_OK) *out = p;
    return st;
}

/* Ordered after every queue's work on `ordered` (NULL when the device is gone). */
static void free_now(void *ptr, size_t bytes, int device, cudaStream_t ordered)
{
    (void)bytes;
    (void)device;
    if (ordered == NULL) return;
    const px__cuda_device *d = px__cuda_device_if_ready(device);
    if (d != NULL && d->pool) {
        (void)PX__CU(cudaFreeAsync(ptr, ordered));
    } else {
        (void)PX__CU(cudaStreamSynchronize(ordered));
        (void)PX__CU(cudaFree(ptr));
    }
}

static void device_free(px_space space, void *ptr, size_t bytes)
{
    if (ptr != NULL) px__cuda_release_after_work(ptr, bytes, space.device, free_now);
}

static px_status device_zero(px_space space, void *ptr, size_t bytes)
{
    px__cuda_device *d;
    int saved;
    if (bytes == 0) return PX_OK;
    PX__TRY(px__cuda_device_get(space.device, &d));
    PX__TRY(px__cuda_enter(space.device, &saved));
    px_status st = PX__CU(cudaMemsetAsync(ptr, 0, bytes, d->alloc));
    if (st == PX_OK) st = PX__CU(cudaStreamSynchronize(d->alloc));
    px__cuda_leave(saved);
    return st;
}

const px__space_ops px__space_ops_cuda_device = {
    .name = "DEVICE",
    .host_access = false,
    .owner = PX_EXEC_CUDA,
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
    PX__TRY(px__cuda_device_get(q->device, &d));
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_device(q->device), bytes);
    void *p = NULL;
    px_status st;
    if (px__cuda_capturing(q->stream)) {
        /* A graph allocation node: the memory belongs to the graph. */
        st = PX__CU_AT(cudaMallocAsync(&p, bytes, q->stream), &ctx);
    } else if (d->pool) {
        /* In q's stream order, never waiting for the host. */
        st = px__cuda_check(pool_take(d, &p, bytes, q->stream, false),
                            "cudaMallocFromPoolAsync(portex's pool)", &ctx);
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
    const px__cuda_device *d = px__cuda_device_if_ready(q->device);
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

/* Scratch grows to at least this, in these steps: few regrowths, little waste. */
#define SCRATCH_GRAIN ((size_t)64 * 1024)

/* Grown in stream order: the old block is freed after the work queued before, the new one
   is valid for the work queued after. */
px_status px__cuda_scratch(px__cuda_queue *q, size_t bytes, void **out)
{
    *out = NULL;
    if (q->scratch != NULL && bytes <= q->scratch_bytes) {
        *out = q->scratch;
        return PX_OK;
    }
    size_t want = q->scratch_bytes * 2;
    if (want < bytes) want = bytes;
    if (want < SCRATCH_GRAIN) want = SCRATCH_GRAIN;
    want = (want + SCRATCH_GRAIN - 1) / SCRATCH_GRAIN * SCRATCH_GRAIN;
    px__cuda_buffer_free(q, q->scratch, q->scratch_bytes);
    q->scratch = NULL;
    q->scratch_bytes = 0;
    void *p = NULL;
    px_status st = px__cuda_buffer_alloc(q, want, &p);
    if (st != PX_OK && want > bytes) {
        px_clear_error();
        st = px__cuda_buffer_alloc(q, bytes, &p);
        want = bytes;
    }
    if (st != PX_OK) return st;
    q->scratch = p;
    q->scratch_bytes = want;
    *out = p;
    return PX_OK;
}
