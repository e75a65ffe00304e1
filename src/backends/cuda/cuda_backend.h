/* Internal: what the CUDA backend exports to the core (included under #if PX_HAVE_CUDA).
 *
 *   px__backend_cuda             the backend of PX_EXEC_CUDA (instances = streams, events,
 *                                launches, copies and fills on the device)
 *   px__space_ops_cuda_pinned    PX_SPACE_HOST_PINNED (cudaHostAlloc behind a cache)
 *   px__space_ops_cuda_device    PX_SPACE_DEVICE (portex's stream-ordered pool per GPU)
 *
 * docs/cuda.md describes how they work. */
#ifndef PX_CUDA_BACKEND_H
#define PX_CUDA_BACKEND_H

#include "backends/backend.h"

extern const px__backend px__backend_cuda;
extern const px__space_ops px__space_ops_cuda_pinned;
extern const px__space_ops px__space_ops_cuda_device;

#endif /* PX_CUDA_BACKEND_H */
