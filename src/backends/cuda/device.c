/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Devices: lazy discovery, per-device state, the current-device bracket. */
#include "backends/cuda/device.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "backends/cuda/check.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_counted;
static int g_count;
static cudaError_t g_count_err;
static px__cuda_device g_dev[PX__MAX_DEVICES];

void px__cuda_lock(void) { pthread_mutex_lock(&g_lock); }
void px__cuda_unlock(void) { pthread_mutex_unlock(&g_lock); }

int px__cuda_device_total(cudaError_t *why)
{
    px__cuda_lock();
    if (!g_counted) {
        /* The count cannot change within a process (CUDA reads CUDA_VISIBLE_DEVICES once),
           so the answer, or the reason there is none, is kept. */
        int n = 0;
        g_count_err = cudaGetDeviceCount(&n);
        if (g_count_err != cudaSuccess) {
            (void)cudaGetLastError();
            n = 0;
        }
        g_count = n > PX__MAX_DEVICES ? PX__MAX_DEVICES : n;
        g_counted = true;
    }
    const int n = g_count;
    if (why) *why = g_count_err;
    px__cuda_unlock();
    return n;
}

px_status px__cuda_count(int *count)
{
    cudaError_t err;
    *count = px__cuda_device_total(&err);
    if (err != cudaSuccess)
        return px__error(PX_ERR_NO_DEVICE, "no CUDA device (cudaGetDeviceCount: %s: %s)",
                         cudaGetErrorName(err), cudaGetErrorString(err));
    if (*count == 0)
        return px__error(PX_ERR_NO_DEVICE, "no CUDA device (cudaGetDeviceCount found none)");
    return PX_OK;
}

enum cudaStreamCaptureMode px__cuda_relax(void)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    if (cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess) {
        (void)cudaGetLastError();
        mode = cudaStreamCaptureModeRelaxed;
    }
    return mode;
}

void px__cuda_unrelax(enum cudaStreamCaptureMode saved)
{
    if (cudaThreadExchangeStreamCaptureMode(&saved) != cudaSuccess) (void)cudaGetLastError();
}

/* *saved is the caller's device when enter switched away from it, else -1: leave then
   has nothing to do (one runtime call per dispatch fewer on the common path). */
px_status px__cuda_enter(int ordinal, int *saved)
{
    int cur = -1;
    *saved = -1;
    PX__CU_TRY(cudaGetDevice(&cur));
    if (cur != ordinal) {
        PX__CU_TRY(cudaSetDevice(ordinal));
        *saved = cur;
    }
    return PX_OK;
}

void px__cuda_leave(int saved)
{
    if (saved >= 0 && cudaSetDevice(saved) != cudaSuccess) (void)cudaGetLastError();
}

/* Lets every peer that can reach this device read and write memory from its pool (pool
   memory does not follow cudaDeviceEnablePeerAccess). A peer that refuses is left out:
   copies still work through the driver. */
static void pool_grant_peers(cudaMemPool_t pool, int ordinal, int count)
{
    for (int p = 0; p < count; ++p) {
        int can = 0;
        if (p == ordinal) continue;
        if (cudaDeviceCanAccessPeer(&can, p, ordinal) != cudaSuccess || !can) {
            (void)cudaGetLastError();
            continue;
        }
        struct cudaMemAccessDesc desc;
        memset(&desc, 0, sizeof desc);
        desc.location.type = cudaMemLocationTypeDevice;
        desc.location.id = p;
        desc.flags = cudaMemAccessFlagsProtReadWrite;
        if (cudaMemPoolSetAccess(pool, &desc, 1) != cudaSuccess) (void)cudaGetLastError();
    }
}

/* Portex's own pools, not the device's default one: their release threshold (keep freed
   memory for reuse instead of returning it at every synchronisation) is portex's choice
   and must not change what other libraries see. */
static px_status pool_create(const px__cuda_device *d, int count, cudaMemPool_t *out)
{
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = d->ordinal;
    cudaMemPool_t pool = NULL;
    PX__CU_TRY(cudaMemPoolCreate(&pool, &props));
    uint64_t keep = UINT64_MAX;
    /* Never let an allocation on the alloc stream wait for a free queued on the release
       stream (which waits for every queue): reuse only what is already free. */
    int no = 0;
    px_status st = PX__CU(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    if (st == PX_OK)
        st = PX__CU(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &no));
    if (st != PX_OK) {
        (void)cudaMemPoolDestroy(pool);
        return st;
    }
    pool_grant_peers(pool, d->ordinal, count);
    *out = pool;
    return PX_OK;
}

static px_status pools_create(px__cuda_device *d, int count)
{
    PX__TRY(pool_create(d, count, &d->pool));
    const px_status st = pool_create(d, count, &d->small_pool);
    if (st != PX_OK) {
        (void)cudaMemPoolDestroy(d->pool);
        d->pool = NULL;
    }
    return st;
}

/* Called with the lock held and the device current. */
static px_status device_init(px__cuda_device *d, int ordinal, int count)
{
    int pools = 0;
    memset(d, 0, sizeof *d);
    d->ordinal = ordinal;
    PX__CU_TRY(cudaDeviceGetAttribute(&d->sm_count, cudaDevAttrMultiProcessorCount, ordinal));
    PX__CU_TRY(cudaDeviceGetAttribute(&d->threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                      ordinal));
    int optin = 0;
    PX__CU_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal));
    d->shared_optin = optin > 0 ? (size_t)optin : 0;
    PX__CU_TRY(cudaDeviceGetStreamPriorityRange(&d->priority_least, &d->priority_greatest));
    PX__CU_TRY(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, ordinal));
    if (pools) PX__TRY(pools_create(d, count));
    px_status st = PX__CU(cudaStreamCreateWithFlags(&d->alloc, cudaStreamNonBlocking));
    if (st == PX_OK) st = PX__CU(cudaStreamCreateWithFlags(&d->release, cudaStreamNonBlocking));
    if (st != PX_OK) {
        if (d->alloc) (void)cudaStreamDestroy(d->alloc);
        if (d->pool) (void)cudaMemPoolDestroy(d->pool);
        if (d->small_pool) (void)cudaMemPoolDestroy(d->small_pool);
        memset(d, 0, sizeof *d);
        (void)cudaGetLastError();
        return st;
    }
    d->ready = true;
    return PX_OK;
}

px_status px__cuda_device_get(int ordinal, px__cuda_device **out)
{
    int count = 0;
    *out = NULL;
    PX__TRY(px__cuda_count(&count));
    if (ordinal < 0 || ordinal >= count)
        return px__error(PX_ERR_NO_DEVICE, "CUDA device %d does not exist (%d device%s: 0 to %d)",
                         ordinal, count, count == 1 ? "" : "s", count - 1);
    px__cuda_device *d = &g_dev[ordinal];
    px_status st = PX_OK;
    px__cuda_lock();
    if (!d->ready) {
        int saved;
        st = px__cuda_enter(ordinal, &saved);
        if (st == PX_OK) {
            st = device_init(d, ordinal, count);
            px__cuda_leave(saved);
        }
    }
    px__cuda_unlock();
    if (st != PX_OK) return st;
    *out = d;
    return PX_OK;
}

px__cuda_device *px__cuda_device_if_ready(int ordinal)
{
    if (ordinal < 0 || ordinal >= PX__MAX_DEVICES) return NULL;
    px__cuda_lock();
    px__cuda_device *d = g_dev[ordinal].ready ? &g_dev[ordinal] : NULL;
    px__cuda_unlock();
    return d;
}

int px__cuda_home_device(void)
{
    int home = -1;
    px__cuda_lock();
    for (int i = 0; i < PX__MAX_DEVICES && home < 0; ++i)
        if (g_dev[i].ready) home = i;
    px__cuda_unlock();
    if (home < 0 && cudaGetDevice(&home) != cudaSuccess) {
        (void)cudaGetLastError();
        home = 0;
    }
    return home;
}

void px__cuda_devices_release(void)
{
    px__cuda_device gone[PX__MAX_DEVICES];
    /* Taken out under the lock, released outside it: no lock is held while a stream drains. */
    px__cuda_lock();
    for (int i = 0; i < PX__MAX_DEVICES; ++i) {
        gone[i] = g_dev[i];
        memset(&g_dev[i], 0, sizeof g_dev[i]);
    }
    px__cuda_unlock();
    for (int i = 0; i < PX__MAX_DEVICES; ++i) {
        px__cuda_device *d = &gone[i];
        int saved;
        if (!d->ready || px__cuda_enter(i, &saved) != PX_OK) continue;
        /* The frees queued on the release stream run before the pool goes (every queue is
           gone by now, so they wait for nothing else; a dead context answers at once). */
        (void)PX__CU(cudaStreamSynchronize(d->release));
        (void)PX__CU(cudaStreamSynchronize(d->alloc));
        (void)PX__CU(cudaStreamDestroy(d->release));
        (void)PX__CU(cudaStreamDestroy(d->alloc));
        if (d->pool) (void)PX__CU(cudaMemPoolDestroy(d->pool));
        if (d->small_pool) (void)PX__CU(cudaMemPoolDestroy(d->small_pool));
        px__cuda_leave(saved);
    }
}
