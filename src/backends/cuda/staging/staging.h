/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: staged copies of pageable host memory (path CUDA_STAGED), as the rest of the
 * CUDA backend uses them. docs/cuda.md ("Staging pageable memory") describes what users
 * see; staging/state.h how it works. */
#ifndef PX_BACKENDS_CUDA_STAGING_STAGING_H
#define PX_BACKENDS_CUDA_STAGING_STAGING_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/cuda/queue/track.h"

/* A contiguous copy between DEVICE and pageable HOST memory in the same element order,
   ordered on q: returns once it is queued, the host part done by portex's threads. Where
   staging cannot run (no stream memory operations, no pinned buffer to be had) it takes
   the driver's own copy and waits for it, and says so in op->path (CUDA_PAGEABLE). The
   pageable side's hold moves into the copy until its host part is done. With q's device
   current; q's stream is not being captured. */
px_status px__cuda_staged_copy(px__cuda_queue *q, px__copy_op *op);

/* A new lane: what marks a queue's uses of the staging buffers. */
uint64_t px__cuda_staging_lane(void);

/* After q's stream was synchronised: waits until the host part of q's staged copies has
   let go of them (bounded: the stream's completion means their data has moved); with
   stream_dead (the synchronisation failed: the stream runs nothing more) abandons them
   instead, and makes the buffers they held reusable. */
void px__cuda_staging_settle(const px__cuda_queue *q, bool stream_dead);

/* px_finalize, after every queue is gone: stops the threads and frees the buffers. */
void px__cuda_staging_shutdown(void);

#endif /* PX_BACKENDS_CUDA_STAGING_STAGING_H */
