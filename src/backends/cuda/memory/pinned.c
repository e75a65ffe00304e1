/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The HOST_PINNED memory space: cudaHostAlloc behind a bounded size-class cache
 * (memory/pinned.h says why and how much). */
#include "backends/cuda/memory/pinned.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/queue/track.h"
#include "backends/services.h"

typedef struct pinned_block {
    void *ptr;
    size_t size;       /* the class size */
    cudaEvent_t ready; /* completes when the work queued before the free has run */
    uint64_t stamp;    /* when it was freed, for eviction */
} pinned_block;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned_block g_blocks[PX__PINNED_CACHE_SLOTS];
static int g_count;
static size_t g_bytes;
static uint64_t g_clock;
static bool g_limit_read;
static size_t g_limit;

/* The class of a request: 4 KiB, else rounded up to a quarter of the power of two below. */
static size_t class_size(size_t bytes)
{
    if (bytes <= 4096) return 4096;
    size_t p = 4096;
    while (p < bytes / 2 + 1 && p <= SIZE_MAX / 2) p *= 2; /* largest power of two < bytes */
    const size_t q = p / 4;
    if (bytes > SIZE_MAX - q) return bytes;
    return (bytes + q - 1) / q * q;
}

size_t px__cuda_pinned_cache_limit(void)
{
    pthread_mutex_lock(&g_lock);
    if (!g_limit_read) {
        size_t mb = PX__PINNED_CACHE_DEFAULT_MB;
        const char *v = getenv("PX_CUDA_PINNED_CACHE_MB");
        if (v != NULL && *v != '\0') {
            char *end = NULL;
            const unsigned long long x = strtoull(v, &end, 10);
            if (end != NULL && *end == '\0')
                mb = x > SIZE_MAX / (1024 * 1024) ? SIZE_MAX / (1024 * 1024) : (size_t)x;
        }
        g_limit = mb * 1024 * 1024;
        g_limit_read = true;
    }
    const size_t limit = g_limit;
    pthread_mutex_unlock(&g_lock);
    return limit;
}

static void free_host(void *ptr)
{
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    (void)PX__CU(cudaFreeHost(ptr));
    px__cuda_unrelax(mode);
}

/* Waits for a block's queued work and frees it (no lock held). */
static void block_release(pinned_block *b)
{
    if (b->ready) {
        (void)PX__CU(cudaEventSynchronize(b->ready));
        (void)PX__CU(cudaEventDestroy(b->ready));
    }
    free_host(b->ptr);
}

/* Removes slot i (lock held). */
static pinned_block take_slot(int i)
{
    pinned_block b = g_blocks[i];
    g_blocks[i] = g_blocks[g_count - 1];
    --g_count;
    g_bytes -= b.size;
    px__memory_account_library(px_host_pinned(), b.size, false);
    return b;
}

void px__cuda_pinned_trim(void)
{
    for (;;) {
        pthread_mutex_lock(&g_lock);
        if (g_count == 0) {
            pthread_mutex_unlock(&g_lock);
            return;
        }
        pinned_block b = take_slot(g_count - 1);
        pthread_mutex_unlock(&g_lock);
        block_release(&b);
    }
}

/* Whether the work queued before a block's free has run. A context that died will run
   nothing more: its blocks are free too. Lock held; queries only. */
static bool block_done(const pinned_block *b)
{
    if (b->ready == NULL) return true;
    const cudaError_t e = cudaEventQuery(b->ready);
    if (e == cudaErrorNotReady) return false;
    if (e != cudaSuccess) (void)cudaGetLastError();
    return true;
}

/* The most recently freed idle block of the class whose work is done, or NULL. */
static bool take_cached(size_t size, void **out)
{
    pthread_mutex_lock(&g_lock);
    int best = -1;
    for (int i = 0; i < g_count; ++i)
        if (g_blocks[i].size == size && (best < 0 || g_blocks[i].stamp > g_blocks[best].stamp) &&
            block_done(&g_blocks[i]))
            best = i;
    pinned_block b = {0};
    if (best >= 0) b = take_slot(best);
    pthread_mutex_unlock(&g_lock);
    if (best < 0) return false;
    if (b.ready) (void)cudaEventDestroy(b.ready);
    *out = b.ptr;
    return true;
}

px_status px__cuda_pinned_alloc(size_t bytes, void **out)
{
    const size_t size = class_size(bytes);
    *out = NULL;
    if (take_cached(size, out)) return PX_OK;
    int count;
    PX__TRY(px__cuda_count(&count));
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), bytes);
    void *p = NULL;
    /* Portable: usable from every device's context. Mapped: kernels may write results
       straight into it (implied with unified addressing; said explicitly). */
    const unsigned flags = cudaHostAllocPortable | cudaHostAllocMapped;
    /* In the home device's context (device.h), not whichever is current: the calling
       thread's current device is 0 unless it chose one. */
    int saved;
    PX__TRY(px__cuda_enter(px__cuda_home_device(), &saved));
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    cudaError_t e = px__fault_hit() ? cudaErrorMemoryAllocation : cudaHostAlloc(&p, size, flags);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        px__cuda_pinned_trim(); /* idle blocks of other sizes may be what is missing */
        e = cudaHostAlloc(&p, size, flags);
    }
    px__cuda_unrelax(mode);
    px__cuda_leave(saved);
    PX__TRY(px__cuda_check(
        e, "cudaHostAlloc(&p, size, cudaHostAllocPortable | cudaHostAllocMapped)", &ctx));
    *out = p;
    return PX_OK;
}

/* Ordered after every queue's work on `ordered` (the home device's release stream): the block
   goes to the cache with an event recorded there, or back to CUDA. */
static void cache_insert(void *ptr, size_t size, int device, cudaStream_t ordered)
{
    (void)device;
    pinned_block b = {ptr, size, NULL, 0};
    if (ordered == NULL ||
        PX__CU(cudaEventCreateWithFlags(&b.ready, cudaEventDisableTiming)) != PX_OK ||
        PX__CU(cudaEventRecord(b.ready, ordered)) != PX_OK) {
        /* No way to know when queued copies are done: wait for them all instead. */
        if (b.ready) (void)cudaEventDestroy(b.ready);
        b.ready = NULL;
        if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
    }
    if (size > px__cuda_pinned_cache_limit()) {
        block_release(&b);
        return;
    }
    pinned_block evicted[PX__PINNED_CACHE_SLOTS];
    int n_evicted = 0;
    pthread_mutex_lock(&g_lock);
    while (g_count > 0 && (g_count == PX__PINNED_CACHE_SLOTS || g_bytes + size > g_limit)) {
        int oldest = 0;
        for (int i = 1; i < g_count; ++i)
            if (g_blocks[i].stamp < g_blocks[oldest].stamp) oldest = i;
        evicted[n_evicted++] = take_slot(oldest);
    }
    b.stamp = ++g_clock;
    g_blocks[g_count++] = b;
    g_bytes += size;
    px__memory_account_library(px_host_pinned(), size, true);
    pthread_mutex_unlock(&g_lock);
    for (int i = 0; i < n_evicted; ++i) block_release(&evicted[i]);
}

void px__cuda_pinned_free(void *ptr, size_t bytes)
{
    if (ptr == NULL) return;
    /* The home device's release stream orders the free (any device's would do: the
       waits cross devices; device.h says why not device 0's); pinned memory exists,
       so CUDA is initialised. */
    const int home = px__cuda_home_device();
    px__cuda_device *d;
    if (px__cuda_device_get(home, &d) != PX_OK) {
        px_clear_error();
        cache_insert(ptr, class_size(bytes), home, NULL);
        return;
    }
    px__cuda_release_after_work(ptr, class_size(bytes), home, cache_insert);
}

static px_status pinned_available(px_space space)
{
    (void)space;
    int count;
    return px__cuda_count(&count);
}

static px_status pinned_alloc(px_space space, size_t bytes, void **out)
{
    (void)space;
    return px__cuda_pinned_alloc(bytes, out);
}

static void pinned_free(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    px__cuda_pinned_free(ptr, bytes);
}

static px_status pinned_zero(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    if (bytes > 0) memset(ptr, 0, bytes);
    return PX_OK;
}

const px__space_ops px__space_ops_cuda_pinned = {
    .name = "HOST_PINNED",
    .host_access = true,
    .owner = PX_EXEC_CUDA,
    .available = pinned_available,
    .alloc = pinned_alloc,
    .free = pinned_free,
    .zero = pinned_zero,
};
