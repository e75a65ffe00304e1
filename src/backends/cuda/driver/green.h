/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: the CUDA driver API calls behind SM partitions (green contexts).
 *
 * The driver functions are looked up at run time (driver/driver.h). A driver too old for green contexts
 * (they need CUDA 12.5 for cuGreenCtxStreamCreate) gives PX_ERR_UNSUPPORTED, with the
 * versions in the message. */
#ifndef PX_BACKENDS_CUDA_DRIVER_GREEN_H
#define PX_BACKENDS_CUDA_DRIVER_GREEN_H

#include <stdatomic.h>
#include <stdbool.h>

#include <cuda.h>

#include "backends/cuda/driver/driver.h"
#include "backends/cuda/queue/track.h"

/* Driver calls, filled by px__cuda_green_load. */
typedef struct px__cuda_driver {
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_get_dev_resource)(CUdevice, CUdevResource *, CUdevResourceType);
    CUresult (*dev_sm_resource_split_by_count)(CUdevResource *, unsigned int *,
                                               const CUdevResource *, CUdevResource *, unsigned int,
                                               unsigned int);
    CUresult (*dev_resource_generate_desc)(CUdevResourceDesc *, CUdevResource *, unsigned int);
    CUresult (*green_ctx_create)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned int);
    CUresult (*green_ctx_destroy)(CUgreenCtx);
    CUresult (*green_ctx_get_dev_resource)(CUgreenCtx, CUdevResource *, CUdevResourceType);
    CUresult (*green_ctx_stream_create)(CUstream *, CUgreenCtx, unsigned int, int);
    CUresult (*stream_destroy)(CUstream);
} px__cuda_driver;

/* The driver's green-context calls, looked up once (thread-safe). PX_ERR_UNSUPPORTED when
   the driver or this build cannot have them; the message says why. */
px_status px__cuda_green_load(const px__cuda_driver **out);

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
   with the last reference to the queue (queue/queue.c). Returns the first error. */
px_status px__cuda_green_release(px__cuda_queue *q);

#endif /* PX_BACKENDS_CUDA_DRIVER_GREEN_H */
