/* The staging pool: its configuration, the pinned buffers, the worker threads (placed near
 * the GPU) and the per-device streams and events; built at the first staged copy, torn
 * down by px_staging_set (when idle) and at px_finalize. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <hwloc/cudart.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_staging.h"

px__stg_state px__stg = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .buf = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .setup = PTHREAD_MUTEX_INITIALIZER,
};

/* ---- Configuration ---------------------------------------------------------------------- */

/* A whole number from the environment within [lo, hi], or false. */
static bool env_number(const char *name, unsigned long long lo, unsigned long long hi,
                       unsigned long long *out)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return false;
    char *end = NULL;
    errno = 0;
    const unsigned long long x = strtoull(v, &end, 10);
    if (errno != 0 || end == NULL || *end != '\0' || x < lo || x > hi) return false;
    *out = x;
    return true;
}

void px__stg_config_load(void)
{
    if (px__stg.cfg_read) return;
    px_staging_config c = {PX__STG_DEFAULT_CHUNK, PX__STG_DEFAULT_BUFFERS, PX__STG_DEFAULT_THREADS};
    unsigned long long x;
    /* Malformed or out-of-range values are ignored: the defaults stand. */
    if (env_number("PX_STAGING_CHUNK_MB", 1, (unsigned long long)(SIZE_MAX >> 21), &x))
        c.chunk_bytes = (size_t)x << 20;
    if (env_number("PX_STAGING_BUFFERS", 2, 65536, &x)) c.buffers = (int)x;
    if (env_number("PX_STAGING_THREADS", 1, PX__STG_MAX_THREADS, &x)) c.threads = (int)x;
    /* The gate (cuda_staging.h) is on by default: the calling thread queues every GPU-side
       step and the workers make no CUDA call, so a thread of the program that calls
       cudaHostAlloc or cudaFree (which hold the driver's context lock while they wait for
       the device) cannot deadlock with them; an earlier form whose workers issued the
       DMAs did, on an H200 with driver 580. PX_STAGING_GATE=0 gives the synchronous
       staged copy. With a single hardware queue (CUDA_DEVICE_MAX_CONNECTIONS=1) the gate
       would block its own DMAs: synchronous there. */
    px__stg.gate_disabled = env_number("CUDA_DEVICE_MAX_CONNECTIONS", 1, 1, &x);
    if (env_number("PX_STAGING_GATE", 0, 1, &x) && x == 0) px__stg.gate_disabled = true;
    px__stg.cfg = c;
    px__stg.cfg_read = true;
}

px_status px__cuda_staging_get(px_staging_config *out)
{
    pthread_mutex_lock(&px__stg.setup);
    px__stg_config_load();
    *out = px__stg.cfg;
    pthread_mutex_unlock(&px__stg.setup);
    return PX_OK;
}

px_status px__cuda_staging_set(const px_staging_config *config)
{
    pthread_mutex_lock(&px__stg.setup);
    px__stg_config_load();
    px_staging_config c = px__stg.cfg;
    if (config->chunk_bytes) c.chunk_bytes = config->chunk_bytes;
    if (config->buffers) c.buffers = config->buffers;
    if (config->threads) c.threads = config->threads;
    size_t total;
    if (px__mul_overflows(c.chunk_bytes, (size_t)c.buffers, &total)) {
        pthread_mutex_unlock(&px__stg.setup);
        return px__error(PX_ERR_OVERFLOW, "px_staging_set", "%d buffers of %zu bytes overflow size_t",
                         c.buffers, c.chunk_bytes);
    }
    pthread_mutex_lock(&px__stg.lock);
    const int in_flight = px__stg.in_flight;
    pthread_mutex_unlock(&px__stg.lock);
    if (in_flight > 0) {
        pthread_mutex_unlock(&px__stg.setup);
        return px__error(PX_ERR_BUSY, "px_staging_set",
                         "%d staged cop%s in flight; fence the instances and try again", in_flight,
                         in_flight == 1 ? "y is" : "ies are");
    }
    const bool changed = c.chunk_bytes != px__stg.cfg.chunk_bytes || c.buffers != px__stg.cfg.buffers ||
                         c.threads != px__stg.cfg.threads;
    /* The next staged copy builds the pool again with the new shape. New copies cannot
       start meanwhile: they need `setup`. */
    if (changed && px__stg.built) px__stg_pool_teardown();
    px__stg.cfg = c;
    pthread_mutex_unlock(&px__stg.setup);
    return PX_OK;
}

/* ---- Driver entry points ---------------------------------------------------------------- */

/* Through the runtime rather than by linking libcuda: the library must load (and report no
   device) on machines without a driver. */
static void *driver_symbol(const char *name)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return fn;
}

/* cuStreamWaitValue32/WriteValue32 (the v2 ABI of CUDA 12, which every device supports for
   32-bit values; the attributes of the v1 API are deprecated). A device that refuses the
   wait anyway is marked at its first copy and copies synchronously from then on. */
static void driver_resolve(void)
{
    if (px__stg.driver_resolved) return;
    void *w = driver_symbol("cuStreamWaitValue32");
    void *v = driver_symbol("cuStreamWriteValue32");
    px__stg.wait32 = NULL;
    px__stg.write32 = NULL;
    /* An object pointer to a function pointer: through memcpy, which ISO C allows. */
    if (w != NULL && v != NULL) {
        memcpy(&px__stg.wait32, &w, sizeof w);
        memcpy(&px__stg.write32, &v, sizeof v);
    }
    px__stg.driver_resolved = true;
}

/* ---- Threads ---------------------------------------------------------------------------- */

/* The cores nearest `device` (its PCI slot's local CPUs), or NULL when unknown. */
static hwloc_bitmap_t near_cpus(int device)
{
    hwloc_topology_t topo = px__topology_handle();
    if (topo == NULL) return NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == NULL) return NULL;
    if (hwloc_cudart_get_device_cpuset(topo, device, set) != 0 || hwloc_bitmap_iszero(set)) {
        (void)cudaGetLastError();
        hwloc_bitmap_free(set);
        return NULL;
    }
    return set;
}

/* Starts the workers with every signal blocked (the user's handlers run on the user's
   threads), each bound to the cores near the GPU: pageable memory there is the closest
   to the PCIe root, and the threads stay off the other sockets. Fewer threads than asked
   for when the system refuses more; none is an error. */
static px_status threads_start(int device, int n)
{
    px__stg.threads = calloc((size_t)n, sizeof *px__stg.threads);
    if (px__stg.threads == NULL) return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "no memory for the staging threads");
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = 0, err = 0;
    for (; started < n; ++started) {
        err = pthread_create(&px__stg.threads[started], NULL, px__stg_worker_main, NULL);
        if (err != 0) break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    px__stg.nthreads = started;
    if (started == 0) {
        free(px__stg.threads);
        px__stg.threads = NULL;
        return PX__FAIL(PX_ERR_SYSTEM, "pthread_create failed for the staging threads: %s", strerror(err));
    }
    hwloc_bitmap_t set = near_cpus(device);
    if (set != NULL) {
        hwloc_topology_t topo = px__topology_handle();
        /* Placement is an optimisation: a refusal (restricted cpuset, container) is fine. */
        for (int t = 0; t < started; ++t) (void)hwloc_set_thread_cpubind(topo, px__stg.threads[t], set, 0);
        hwloc_bitmap_free(set);
    }
    return PX_OK;
}

static void threads_stop(void)
{
    pthread_mutex_lock(&px__stg.lock);
    px__stg.stop = true;
    pthread_cond_broadcast(&px__stg.work);
    pthread_mutex_unlock(&px__stg.lock);
    for (int t = 0; t < px__stg.nthreads; ++t) pthread_join(px__stg.threads[t], NULL);
    free(px__stg.threads);
    px__stg.threads = NULL;
    px__stg.nthreads = 0;
    pthread_mutex_lock(&px__stg.lock);
    px__stg.stop = false;
    pthread_mutex_unlock(&px__stg.lock);
}

/* ---- Per-device resources --------------------------------------------------------------- */

/* With the device current. */
static void device_release(px__stg_device *d)
{
    if (d->h2d) (void)PX__CU(cudaStreamSynchronize(d->h2d));
    if (d->d2h) (void)PX__CU(cudaStreamSynchronize(d->d2h));
    if (d->ev) {
        for (int b = 0; b < px__stg.nbuf; ++b)
            if (d->ev[b]) (void)PX__CU(cudaEventDestroy(d->ev[b]));
        free(d->ev);
    }
    if (d->h2d) (void)PX__CU(cudaStreamDestroy(d->h2d));
    if (d->d2h) (void)PX__CU(cudaStreamDestroy(d->d2h));
    memset(d, 0, sizeof *d);
}

/* Non-blocking streams: the DMAs never serialise against the legacy default stream, and
   they are portex's own, never the device's internal stream (a free queued there waits
   for every instance, gates included: the DMAs would wait for themselves). */
static px_status device_build(int device)
{
    px__stg_device *d = &px__stg.dev[device];
    if (d->ready) return PX_OK;
    int saved;
    PX__TRY(px__cuda_enter(device, &saved));
    px_status st = PX__CU(cudaStreamCreateWithFlags(&d->h2d, cudaStreamNonBlocking));
    if (st == PX_OK) st = PX__CU(cudaStreamCreateWithFlags(&d->d2h, cudaStreamNonBlocking));
    if (st == PX_OK) {
        d->ev = calloc((size_t)px__stg.nbuf, sizeof *d->ev);
        if (d->ev == NULL) st = PX__FAIL(PX_ERR_OUT_OF_MEMORY, "no memory for the staging events");
    }
    /* Default events (spin while waited for): a worker waits for one DMA of one chunk. */
    for (int b = 0; st == PX_OK && b < px__stg.nbuf; ++b)
        st = PX__CU(cudaEventCreateWithFlags(&d->ev[b], cudaEventDisableTiming));
    if (st == PX_OK)
        d->ready = true;
    else
        device_release(d);
    px__cuda_leave(saved);
    return st;
}

/* ---- The pool --------------------------------------------------------------------------- */

static px_status pool_alloc(void)
{
    const px_staging_config c = px__stg.cfg;
    /* Buffers start on page boundaries whatever the chunk size: full-speed memcpy and DMA. */
    const size_t page = 4096;
    const size_t stride = (c.chunk_bytes + page - 1) / page * page;
    size_t total;
    if (stride < c.chunk_bytes || px__mul_overflows(stride, (size_t)c.buffers, &total))
        return PX__FAIL(PX_ERR_OVERFLOW, "%d staging buffers of %zu bytes overflow size_t", c.buffers,
                        c.chunk_bytes);
    const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), total);
    void *p = NULL;
    PX__TRY(PX__CU_AT(cudaHostAlloc(&p, total, cudaHostAllocPortable), &ctx));
    px__stg.slab = p;
    px__stg.slab_bytes = total;
    px__memory_account_library(px_host_pinned(), total, true);
    px__stg.stride = stride;
    px__stg.chunk_max = c.chunk_bytes;
    px__stg.nbuf = c.buffers;
    px__stg.free_stack = malloc((size_t)c.buffers * sizeof(int));
    px__stg.pend_buf = malloc((size_t)c.buffers * sizeof(int));
    px__stg.pend_dev = malloc((size_t)c.buffers * sizeof(int));
    if (!px__stg.free_stack || !px__stg.pend_buf || !px__stg.pend_dev)
        return PX__FAIL(PX_ERR_OUT_OF_MEMORY, "no memory for the staging pool's lists");
    for (int b = 0; b < c.buffers; ++b) px__stg.free_stack[b] = c.buffers - 1 - b;
    px__stg.nfree = c.buffers;
    px__stg.pend_head = px__stg.pend_count = 0;
    return PX_OK;
}

static void pool_free(void)
{
    if (px__stg.slab) {
        (void)PX__CU(cudaFreeHost(px__stg.slab));
        px__memory_account_library(px_host_pinned(), px__stg.slab_bytes, false);
    }
    free(px__stg.free_stack);
    free(px__stg.pend_buf);
    free(px__stg.pend_dev);
    px__stg.slab = NULL;
    px__stg.slab_bytes = 0;
    px__stg.free_stack = px__stg.pend_buf = px__stg.pend_dev = NULL;
    px__stg.nfree = px__stg.pend_head = px__stg.pend_count = 0;
}

/* ---- Gate v2: the buffers' flags ---------------------------------------------------------- */

static void v2_free(void)
{
    if (px__stg.bflags) {
        (void)PX__CU(cudaFreeHost(px__stg.bflags));
        px__memory_account_library(px_host_pinned(), px__stg.bflags_bytes, false);
    }
    free(px__stg.use);
    px__stg.use = NULL;
    px__stg.bflags = NULL;
    px__stg.bflags_dev = 0;
    px__stg.bflags_bytes = 0;
    px__stg.rr = 0;
    px__stg.v2 = false;
}

/* The flags of gate v2, all at 0 (no use yet). Without them (or without the driver's stream
   memory operations) copies stay synchronous: no error. */
static void v2_alloc(void)
{
    if (px__stg.gate_disabled || px__stg.wait32 == NULL || px__stg.write32 == NULL) return;
    const size_t bytes = (size_t)px__stg.nbuf * 2 * PX__STG_FLAG_WORDS * sizeof(uint32_t);
    void *p = NULL;
    /* Mapped: the GPU polls and writes them. Portable: instances of every device use them. */
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    memset(p, 0, bytes);
    px__stg.bflags = p;
    px__stg.bflags_bytes = bytes;
    px__memory_account_library(px_host_pinned(), bytes, true);
    void *dptr = NULL;
    px__stg.use = calloc((size_t)px__stg.nbuf, sizeof *px__stg.use);
    if (px__stg.use == NULL || cudaHostGetDevicePointer(&dptr, p, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        v2_free();
        return;
    }
    px__stg.bflags_dev = (CUdeviceptr)(uintptr_t)dptr;
    px__stg.v2 = true;
}

px_status px__stg_pool_build(int device, const char *func)
{
    (void)func;
    px__stg_config_load();
    if (!px__stg.built) {
        driver_resolve();
        px_status st = pool_alloc();
        if (st == PX_OK) st = threads_start(device, px__stg.cfg.threads);
        if (st != PX_OK) {
            pool_free();
            return st;
        }
        v2_alloc();
        px__stg.built = true;
    }
    return device_build(device);
}

void px__stg_pool_teardown(void)
{
    if (!px__stg.built) return;
    threads_stop();
    if (px__stg.v2) {
        /* Every job has finished on the host side, so every wait on the flags can pass; the
           streams may still be about to read or write them. */
        for (int i = 0; i < PX__MAX_DEVICES; ++i) {
            if (!px__stg.dev[i].v2_used) continue;
            px__stg.dev[i].v2_used = false;
            int saved;
            if (px__cuda_enter(i, &saved) != PX_OK) continue;
            (void)PX__CU(cudaDeviceSynchronize());
            px__cuda_leave(saved);
        }
        v2_free();
    }
    for (int i = 0; i < PX__MAX_DEVICES; ++i) {
        px__stg_device *d = &px__stg.dev[i];
        if (!d->ready) continue;
        int saved;
        if (px__cuda_enter(i, &saved) != PX_OK) continue;
        device_release(d);
        px__cuda_leave(saved);
    }
    pool_free();
    px__stg.built = false;
}

/* px_finalize: every instance is gone, and with it (px__cuda_staging_instance_destroy)
   every job; wait anyway, then free all. Touches CUDA only if staging ever ran. */
void px__cuda_staging_shutdown(void)
{
    pthread_mutex_lock(&px__stg.setup);
    pthread_mutex_lock(&px__stg.lock);
    while (px__stg.in_flight > 0) pthread_cond_wait(&px__stg.done, &px__stg.lock);
    pthread_mutex_unlock(&px__stg.lock);
    px__stg_pool_teardown();
    px__stg_lanes_release();
    pthread_mutex_unlock(&px__stg.setup);
}
