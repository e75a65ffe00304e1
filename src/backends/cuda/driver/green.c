/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The driver API behind SM partitions: entry points looked up through the runtime, and
 * the CUresult checkpoint. See driver/green.h. */
#include "backends/cuda/driver/green.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backends/cuda/check.h"
#include "backends/cuda/driver/driver.h"

#if CUDA_VERSION < 12050 || CUDART_VERSION < 12050
#error "SM partitions (green contexts) need the CUDA 12.5 toolkit or later"
#endif

/* The oldest driver with every call below (cuGreenCtxStreamCreate came in 12.5). */
#define GREEN_MIN_DRIVER 12050

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static px__cuda_driver g_drv;
static px_status g_status;
static char g_why[256];

#define LOOKUP(sym, ver, field) \
    px__cuda_driver_symbol(sym, ver, &g_drv.field, sizeof g_drv.field, g_why, sizeof g_why)

static void load_once(void)
{
    int drv = 0;
    const cudaError_t e = cudaDriverGetVersion(&drv);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(g_why, sizeof g_why, "cudaDriverGetVersion: %s: %s", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        g_status = PX_ERR_UNSUPPORTED;
        return;
    }
    if (drv < GREEN_MIN_DRIVER) {
        snprintf(
            g_why, sizeof g_why,
            "the driver supports CUDA %d.%d; SM partitions (green contexts) need %d.%d or later",
            drv / 1000, drv % 1000 / 10, GREEN_MIN_DRIVER / 1000, GREEN_MIN_DRIVER % 1000 / 10);
        g_status = PX_ERR_UNSUPPORTED;
        return;
    }
    const bool ok = LOOKUP("cuDeviceGet", 2000, device_get) &&
                    LOOKUP("cuDeviceGetDevResource", 12040, device_get_dev_resource) &&
                    LOOKUP("cuDevSmResourceSplitByCount", 12040, dev_sm_resource_split_by_count) &&
                    LOOKUP("cuDevResourceGenerateDesc", 12040, dev_resource_generate_desc) &&
                    LOOKUP("cuGreenCtxCreate", 12040, green_ctx_create) &&
                    LOOKUP("cuGreenCtxDestroy", 12040, green_ctx_destroy) &&
                    LOOKUP("cuGreenCtxGetDevResource", 12040, green_ctx_get_dev_resource) &&
                    LOOKUP("cuGreenCtxStreamCreate", 12050, green_ctx_stream_create) &&
                    LOOKUP("cuStreamDestroy", 4000, stream_destroy);
    if (!ok) {
        memset(&g_drv, 0, sizeof g_drv);
        g_status = PX_ERR_UNSUPPORTED;
        return;
    }
    g_status = PX_OK;
}

px_status px__cuda_green_load(const px__cuda_driver **out)
{
    *out = NULL;
    pthread_once(&g_once, load_once);
    if (g_status != PX_OK) return px__error(g_status, "SM partitions are not available: %s", g_why);
    *out = &g_drv;
    return PX_OK;
}

px_status px__cuda_green_release(px__cuda_queue *q)
{
    const px__cuda_driver *drv = &g_drv; /* loaded: the partition exists */
    px_status st = PX_OK;
    if (q->stream != NULL) {
        /* The queue's teardown may have queued stream-ordered frees: they run before the
           context goes. Then the stream, through the driver, before its context (which
           would leak it otherwise). */
        st = px__cuda_check(cudaStreamSynchronize(q->stream),
                            "cudaStreamSynchronize(stream of an SM partition)", NULL);
        const px_status st1 = px__cu_check(drv->stream_destroy((CUstream)q->stream),
                                           "cuStreamDestroy(stream of an SM partition)");
        if (st == PX_OK) st = st1;
        q->stream = NULL;
    }
    px__cuda_green *g = px__cuda_green_of(q);
    q->green = NULL;
    if (g != NULL && atomic_fetch_sub(&g->refs, 1) == 1) {
        const px_status st2 = px__cu_check(drv->green_ctx_destroy(g->ctx), "cuGreenCtxDestroy");
        if (st == PX_OK) st = st2;
        free(g);
    }
    return st;
}
