/* Internal: the CUDA driver API calls behind SM partitions (green contexts), and the
 * checkpoint that turns a CUresult into a portex status.
 *
 * The driver functions are looked up at run time through the runtime
 * (cudaGetDriverEntryPointByVersion), never linked: libcuda.so.1 comes with the NVIDIA
 * driver, so a library linked against it would not even load on a machine without one,
 * where portex must still run on the serial backend. A driver too old for green contexts
 * (they need CUDA 12.5 for cuGreenCtxStreamCreate) gives PX_ERR_UNSUPPORTED, with the
 * versions in the message. */
#ifndef PX_CUDA_GREEN_H
#define PX_CUDA_GREEN_H

#include <stdatomic.h>
#include <stdbool.h>

#include <cuda.h>

#include "backends/cuda/cuda_queue.h"

/* Driver calls, filled by px__cuda_green_load. */
typedef struct px__cuda_driver {
    CUresult (*get_error_name)(CUresult, const char **);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_get_dev_resource)(CUdevice, CUdevResource *, CUdevResourceType);
    CUresult (*dev_sm_resource_split_by_count)(CUdevResource *, unsigned int *, const CUdevResource *,
                                               CUdevResource *, unsigned int, unsigned int);
    CUresult (*dev_resource_generate_desc)(CUdevResourceDesc *, CUdevResource *, unsigned int);
    CUresult (*green_ctx_create)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned int);
    CUresult (*green_ctx_destroy)(CUgreenCtx);
    CUresult (*green_ctx_get_dev_resource)(CUgreenCtx, CUdevResource *, CUdevResourceType);
    CUresult (*green_ctx_stream_create)(CUstream *, CUgreenCtx, unsigned int, int);
    CUresult (*stream_destroy)(CUstream);
} px__cuda_driver;

/* The driver's green-context calls, looked up once (thread-safe). PX_ERR_UNSUPPORTED when
   the driver or this build cannot have them; the message, recorded in the name of `func`,
   says why. */
px_status px__cuda_green_load(const px__cuda_driver **out, const char *func);

/* Records the failure of driver call `call` in `func` ("func: call: CUDA_ERROR_X:
   description") and returns the status it maps to: PX_ERR_OUT_OF_MEMORY,
   PX_ERR_NO_DEVICE, PX_ERR_UNSUPPORTED (not supported, a resource configuration the
   device refuses) or PX_ERR_BACKEND. */
px_status px__cu_fail(CUresult res, const char *func, const char *call);

static inline px_status px__cu_check(CUresult res, const char *func, const char *call)
{
    return res == CUDA_SUCCESS ? PX_OK : px__cu_fail(res, func, call);
}

/* The CUresult checkpoint, beside PX__CU for the runtime (cuda_check.h). */
#define PX__DRV(call) px__cu_check((call), __func__, #call)

/* A green context and the queues that use it (px__cuda_queue.green points to one): an SM
   partition's own queue, and the plain partitions made from it, which share its SMs. The
   last queue to go destroys the context. */
typedef struct px__cuda_green {
    atomic_int refs;
    CUgreenCtx ctx;
} px__cuda_green;

static inline px__cuda_green *px__cuda_green_of(const px__cuda_queue *q)
{
    return (px__cuda_green *)q->green;
}

/* Destroys a queue's stream (a green context's, through the driver) and drops its
   reference to the green context, destroying the context with the last one. Called
   after the stream is idle (px__cuda_instance_destroy). Returns the first error. */
px_status px__cuda_green_release(px__cuda_queue *q);

#endif /* PX_CUDA_GREEN_H */
