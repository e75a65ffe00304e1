/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: what the layers above call in the CUDA backend directly, beside its tables:
 * the CUDA-only services that have no place in the shared ops table (pointer queries,
 * pinning, the staging pool's configuration, streams for interop). Included only where
 * PX_HAVE_CUDA is 1. */
#ifndef PX_BACKENDS_CUDA_API_H
#define PX_BACKENDS_CUDA_API_H

#include <stddef.h>

#include "backends/backend.h"

/* DEVICE(n), HOST_PINNED or HOST; never an error (HOST when CUDA cannot say). */
px_space px__cuda_pointer_space(const void *ptr);
px_status px__cuda_host_register(void *ptr, size_t bytes);
px_status px__cuda_host_unregister(void *ptr);

px_status px__cuda_staging_get(px_staging_config *out);
px_status px__cuda_staging_set(const px_staging_config *config);

/* The device of a stream the caller owns (the current device for the legacy and
   per-thread default streams). */
px_status px__cuda_stream_device(void *stream, int *device);
/* The cudaStream_t of a CUDA queue. */
void *px__cuda_queue_stream(px__queue *q);

#endif /* PX_BACKENDS_CUDA_API_H */
