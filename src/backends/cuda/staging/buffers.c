/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The staging buffers: pinned memory with three flags each, made on demand up to the
 * pool's bound (staging/state.h). */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/staging/state.h"
#include "backends/services.h"

#define PAGE ((size_t)4096)

static size_t made_bytes(const px__stg_buffer *b)
{
    return (b->bytes + PAGE - 1) / PAGE * PAGE + PAGE;
}

/* One buffer of `bytes`, its flags (all 0) on the page after it. Portable: every device
   uses it. Mapped: the GPU reads and writes the flags. No lock held: this calls CUDA. */
static px_status buffer_make(size_t bytes, px__stg_buffer *b)
{
    memset(b, 0, sizeof *b);
    b->bytes = bytes;
    const size_t total = made_bytes(b);
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), total);
    void *p = NULL;
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    const cudaError_t e =
        px__fault_hit() ? cudaErrorMemoryAllocation
                        : cudaHostAlloc(&p, total, cudaHostAllocPortable | cudaHostAllocMapped);
    px__cuda_unrelax(mode);
    PX__TRY(px__cuda_check(
        e, "cudaHostAlloc(staging buffer, cudaHostAllocPortable | cudaHostAllocMapped)", &ctx));
    char *flags = (char *)p + (total - PAGE);
    memset(flags, 0, PAGE);
    void *dptr = NULL;
    /* With unified addressing this is the host address itself; asked all the same. */
    const px_status st = PX__CU(cudaHostGetDevicePointer(&dptr, flags, 0));
    if (st != PX_OK) {
        (void)cudaFreeHost(p);
        return st;
    }
    b->data = p;
    b->flags = (volatile uint32_t *)(void *)flags;
    b->flags_dev = (CUdeviceptr)(uintptr_t)dptr;
    px__memory_account_library(px_host_pinned(), total, true);
    return PX_OK;
}

bool px__stg_buffer_usable(const px__stg_buffer *b, uint64_t lane)
{
    return b->lane == lane || px__stg_idle(b);
}

void px__stg_buffers_grow(uint64_t lane, int want)
{
    pthread_mutex_lock(&px__stg.lock);
    int usable = 0;
    for (int i = 0; i < px__stg.nbuf; ++i) usable += px__stg_buffer_usable(&px__stg.bufs[i], lane);
    int have = px__stg.nbuf;
    const int cap = px__stg.cap;
    const size_t bytes = px__stg.cfg.chunk_bytes;
    pthread_mutex_unlock(&px__stg.lock);
    /* Only `setup`'s holder adds buffers, so the count read above stays right. */
    for (; usable < want && have < cap; ++usable, ++have) {
        px__stg_buffer b;
        if (buffer_make(bytes, &b) != PX_OK) {
            px_clear_error(); /* fewer buffers, or the driver's copy: not an error */
            return;
        }
        pthread_mutex_lock(&px__stg.lock);
        px__stg.bufs[px__stg.nbuf++] = b;
        pthread_mutex_unlock(&px__stg.lock);
    }
}

void px__stg_buffers_reset_lane(uint64_t lane)
{
    for (int i = 0; i < px__stg.nbuf; ++i) {
        px__stg_buffer *b = &px__stg.bufs[i];
        if (b->lane != lane || px__stg_idle(b)) continue;
        px__stg_flag_store(b, PX__STG_FULL, b->use);
        px__stg_flag_store(b, PX__STG_GO, b->use);
        px__stg_flag_store(b, PX__STG_FREE, b->use);
    }
}

bool px__stg_buffers_idle(void)
{
    for (int i = 0; i < px__stg.nbuf; ++i)
        if (!px__stg_idle(&px__stg.bufs[i])) return false;
    return true;
}

/* Buffers of an earlier shape (px_staging_set), given back at px_finalize: cudaFreeHost
   waits for the whole device, which a reshape must not. (setup) */
static px__stg_buffer *g_retired;
static int g_nretired;

static void free_buffers(px__stg_buffer *bufs, int n)
{
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    for (int i = 0; i < n; ++i) {
        /* Every lane is settled by now; a buffer still in use (unreachable) is left alone
           rather than freed under a copy. */
        if (!px__stg_idle(&bufs[i])) continue;
        (void)PX__CU(cudaFreeHost(bufs[i].data));
        px__memory_account_library(px_host_pinned(), made_bytes(&bufs[i]), false);
    }
    px__cuda_unrelax(mode);
}

void px__stg_buffers_release(bool final)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg_buffer *bufs = px__stg.bufs;
    const int n = px__stg.nbuf;
    px__stg.bufs = NULL;
    px__stg.nbuf = px__stg.cap = 0;
    pthread_mutex_unlock(&px__stg.lock);
    if (n > 0) {
        px__stg_buffer *all = px__realloc(g_retired, (size_t)(g_nretired + n) * sizeof *all);
        if (all != NULL) {
            memcpy(all + g_nretired, bufs, (size_t)n * sizeof *bufs);
            g_retired = all;
            g_nretired += n;
        } else {
            free_buffers(bufs, n); /* no memory to keep them: give them back now */
        }
    }
    free(bufs);
    if (final) {
        free_buffers(g_retired, g_nretired);
        free(g_retired);
        g_retired = NULL;
        g_nretired = 0;
    }
}
