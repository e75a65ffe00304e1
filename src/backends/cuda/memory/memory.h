/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: device memory. The DEVICE space's hooks, and the library's own device
 * buffers (scratch, the reduction counter), which live in stream order on a queue. */
#ifndef PX_BACKENDS_CUDA_MEMORY_MEMORY_H
#define PX_BACKENDS_CUDA_MEMORY_MEMORY_H

#include <stddef.h>

#include "backends/cuda/queue/track.h"

/* PX_SPACE_DEVICE: portex's stream-ordered pool per GPU. */
extern const px__space_ops px__space_ops_cuda_device;

/* A library buffer of `bytes` on q's device, usable by work queued on q from now on
   (stream-ordered allocation on q's stream; counted as library memory). Inside a stream
   capture it becomes an allocation node of the graph. */
px_status px__cuda_buffer_alloc(px__cuda_queue *q, size_t bytes, void **out);
/* Frees a library buffer after the work queued on q so far. */
void px__cuda_buffer_free(px__cuda_queue *q, void *ptr, size_t bytes);
/* The queue's scratch, at least `bytes`, for work queued on q from now on (kernels'
   scratch, sorts' buffers): kept and reused, grown in stream order (never while q is
   being captured: a capture takes blocks of the graph's own). */
px_status px__cuda_scratch(px__cuda_queue *q, size_t bytes, void **out);

/* Lays buffers out in one scratch block: the offset of the next `bytes`, from *at, which
   moves past them to the next 256-byte boundary (what CUB and vector loads want). */
static inline size_t px__cuda_scratch_take(size_t *at, size_t bytes)
{
    const size_t here = *at;
    *at += (bytes + 255) / 256 * 256;
    return here;
}

#endif /* PX_BACKENDS_CUDA_MEMORY_MEMORY_H */
