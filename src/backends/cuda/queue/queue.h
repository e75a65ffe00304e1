/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: setting up and closing a CUDA queue's resources (queue.c), for the queues
 * that partitions make (partition.c) as for those of queue.c. The queue object is
 * track.h's; the hooks that create, wrap, destroy and fence queues are in hooks.h. */
#ifndef PX_BACKENDS_CUDA_QUEUE_QUEUE_H
#define PX_BACKENDS_CUDA_QUEUE_QUEUE_H

#include "backends/cuda/queue/track.h"

/* Sets up a queue whose stream, device, SM count and label are set: its event and device
   buffer, its staging lane, its place among the live queues. Called with q's device
   current; on failure nothing is left behind (the stream stays the caller's). */
px_status px__cuda_queue_setup(px__cuda_queue *q);
/* Ends a set-up queue whose stream is idle (or dead: stream_dead): its staged copies
   settled, its buffers released, off the list; the stream and q go with the last
   reference. */
void px__cuda_queue_close(px__cuda_queue *q, bool stream_dead);

#endif /* PX_BACKENDS_CUDA_QUEUE_QUEUE_H */
