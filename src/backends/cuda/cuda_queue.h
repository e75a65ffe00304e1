/* Internal: what a CUDA instance holds (px_instance.impl), and the list of live queues.
 *
 * Every instance is one stream: owned (non-blocking, created with the instance's
 * priority) or wrapped (the caller's; never destroyed). Beside it, the resources its
 * dispatches reuse in stream order: device scratch (grown on demand), a small device
 * buffer with the reduction counter and result slot, and a pinned buffer for results
 * that go to host memory.
 *
 * An instance is used by one host thread at a time (its scratch is reused in stream
 * order). The list of live queues lets a free wait for work still queued anywhere
 * (cuda_memory.c, cuda_pinned.c) and px_fence_all reach every stream. */
#ifndef PX_CUDA_QUEUE_H
#define PX_CUDA_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "core/internal.h"

/* The device buffer of a queue: the counter (unsigned int, zero between launches) at 0,
   the result slot at PX__CUDA_AUX_RESULT, aligned for any value type. */
#define PX__CUDA_AUX_RESULT 256u
#define PX__CUDA_AUX_BYTES 4096u

typedef struct px__cuda_queue {
    struct px__cuda_queue *prev, *next;   /* live queues (cuda_track.c) */
    cudaStream_t stream;
    cudaEvent_t mark;          /* recorded by frees to wait for this stream's work */
    int device;
    int sm_count;              /* the device's, or its SM partition's: launch shapes */
    bool owned;
    void *green;               /* px__cuda_green of an SM partition (cuda_green.h), or NULL */

    void *scratch;             /* device, stream-ordered on `stream` */
    size_t scratch_bytes;
    px_status scratch_status;  /* why the last scratch request failed */

    /* A launch being captured into a graph uses blocks of the graph's own (allocation
       and free nodes around it), never the queue's buffers: those may move or go while
       the graph lives on. */
    bool capturing;
    int capture_count;
    void *capture_blocks[2];   /* counter, scratch */

    unsigned char *aux;        /* device, PX__CUDA_AUX_BYTES or more */
    size_t aux_bytes;

    void *host;                /* pinned staging for host results */
    size_t host_bytes;
} px__cuda_queue;

static inline px__cuda_queue *px__cuda_queue_of(const struct px_instance *inst)
{
    return (px__cuda_queue *)inst->impl;
}

/* Sets up a queue whose stream, device and SM count are set (an SM partition's): its
   event and device buffer, and its place in the list of live queues. Called with q's
   device current; on failure nothing is left behind. px__cuda_instance_destroy ends it. */
px_status px__cuda_queue_setup(px__cuda_queue *q);

/* Whether work on s is being recorded into a graph rather than run. */
bool px__cuda_capturing(cudaStream_t s);

/* The list of live queues. */
void px__cuda_track_add(px__cuda_queue *q);
void px__cuda_track_remove(px__cuda_queue *q);

/* Makes `target` wait (without blocking the host) for all work queued so far on every
   live queue that is not being captured: what a free needs before memory can be reused. */
px_status px__cuda_order_after_all(cudaStream_t target);

/* As px__cuda_order_after_all, for the live queues of devices a and b only (a copy
   between two GPUs, cuda_peer.c). */
px_status px__cuda_order_after_devices(cudaStream_t target, int a, int b);

/* Blocks until every live queue is idle; streams being captured are skipped (their work
   is recorded, not run). */
px_status px__cuda_sync_all(void);

#endif /* PX_CUDA_QUEUE_H */
