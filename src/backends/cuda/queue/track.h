/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Internal: a CUDA queue (what a CUDA instance holds), and the list of live queues
 * (track.c). Every part of the backend uses the queue object; creating and closing a
 * queue is queue.c's (queue.h).
 *
 * Every queue is one stream: owned (non-blocking, created with the instance's priority)
 * or wrapped (the caller's; never destroyed). Beside it, the resources its dispatches
 * reuse in stream order: device scratch (grown on demand), a small device buffer with the
 * reduction counter and result slot, and a pinned buffer for results that go to host
 * memory.
 *
 * A queue is used by one host thread at a time (its scratch is reused in stream order).
 * The list of live queues (queue/track.c) lets a free wait for work still queued anywhere
 * and px_fence_all reach every stream; it holds a reference to each queue, and so does a
 * px_fence_all that is synchronising it, so that a queue destroyed meanwhile keeps its
 * stream until the last reference goes. */
#ifndef PX_BACKENDS_CUDA_QUEUE_TRACK_H
#define PX_BACKENDS_CUDA_QUEUE_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include <cuda_runtime_api.h>

#include "backends/backend.h"

/* The device buffer of a queue: the counter (unsigned int, zero between launches) at 0,
   the result slot at PX__CUDA_AUX_RESULT, aligned for any value type. */
#define PX__CUDA_AUX_RESULT 256u
#define PX__CUDA_AUX_BYTES 4096u

typedef struct px__cuda_queue {
    struct px__cuda_queue *prev, *next; /* (track lock) live queues */
    int refs; /* (track lock) the list's, and px_fence_all's while it syncs */
    cudaStream_t stream;
    cudaEvent_t mark; /* (track lock) recorded to order other streams after this one */
    int device;
    int sm_count;        /* the device's, or its SM partition's: launch shapes */
    size_t shared_optin; /* the device's (px__cuda_device): team launches */
    bool owned;
    const char *label; /* the instance's */
    bool tools_name;   /* px__queue_desc's: NVTX names the stream after the label */
    uint64_t lane;     /* staging: which buffers' uses are this queue's */
    /* Staged copies on one queue hand out buffer uses and queue their stream steps as one
       step, even from several threads (px_deep_copy uses the default instances from any
       thread): a wait queued before the steps it waits for would never end. */
    pthread_mutex_t staging;
    void *green; /* px__cuda_green of an SM partition (driver/green.h), or NULL */

    void *scratch; /* device, stream-ordered on `stream` */
    size_t scratch_bytes;
    px_status scratch_status; /* why the last scratch request failed */

    /* A launch being captured into a graph uses blocks of the graph's own (allocation
       and free nodes around it), never the queue's buffers: those may move or go while
       the graph lives on. */
    bool capturing;
    int capture_count;
    void *capture_blocks[2]; /* counter, scratch */
    /* Set while portex builds or captures a graph of its own on this queue: captured
       launches take plain blocks the graph keeps until it is destroyed, and no
       allocation node, so that the graph can be a child, a conditional body, and
       instantiated more than once (graph/graph.h). */
    struct px__cuda_gmem *gmem;

    unsigned char *aux; /* device, PX__CUDA_AUX_BYTES or more */
    size_t aux_bytes;

    void *host; /* pinned staging for host results */
    size_t host_bytes;
} px__cuda_queue;

static inline px__cuda_queue *px__cuda_queue_of(px__queue *q)
{
    return (px__cuda_queue *)(void *)q;
}

/* Graph-owned scratch blocks (graph/mem.c). */
typedef struct px__cuda_gmem_block {
    void *ptr;
    size_t bytes;
} px__cuda_gmem_block;

typedef struct px__cuda_gmem {
    int device;
    px__cuda_gmem_block *blocks;
    int n, cap;
    /* While a node is recorded again: its blocks [reuse_next, reuse_end), handed out
       again in order, so that changing a node does not allocate each time. */
    int reuse_next, reuse_end;
} px__cuda_gmem;

/* A block of `bytes` kept in m until px__cuda_gmem_free: the next block to reuse when it
   is large enough, else a new zero-initialised one. Allocated outside any capture's rules
   (relaxed), so it may be called while capturing. */
px_status px__cuda_gmem_alloc(px__cuda_gmem *m, size_t bytes, void **out);
/* Returns m's blocks, each after the work queued before on every queue. */
void px__cuda_gmem_free(px__cuda_gmem *m);

/* How a default stream is named in messages ("0 (the legacy default stream)",
   "cudaStreamLegacy", "cudaStreamPerThread"); NULL for any other stream. */
const char *px__cuda_default_stream_name(cudaStream_t s);

/* Whether work on s is being recorded into a graph rather than run (an invalidated
   capture counts: it still belongs to the capture). */
bool px__cuda_capturing(cudaStream_t s);

/* ---- The live queues ------------------------------------------------------------------ */

/* Adds q to the list of live queues with the list's reference. */
void px__cuda_track_add(px__cuda_queue *q);
/* Takes q off the list; returns whether that was the last reference (then the caller
   frees q's stream and q). */
bool px__cuda_track_remove(px__cuda_queue *q);
/* Every live queue, each with one more reference (px__cuda_queue_unref each), in a new
   array (free it); -1 when memory runs out. */
int px__cuda_track_snapshot(px__cuda_queue ***out);
/* Drops a snapshot's reference; true when it was the last (the caller frees q). */
bool px__cuda_queue_unref(px__cuda_queue *q);

/* Makes `target` wait, without blocking the host, for the work queued so far on the live
   queues of devices a and b (every device when a is -1), target's own queue excepted.
   A queue being captured into a graph cannot be waited for this way (its earlier work is
   not covered; an event recorded there would join target to the capture): *capturing
   counts those. */
px_status px__cuda_order_after(cudaStream_t target, int a, int b, int *capturing);

/* Memory release ordered after every queue's work: orders `device`'s release stream after
   all live queues and then calls then(ptr, bytes, device, release stream), or, while a
   queue is being captured, keeps the request and retries it at later releases, fences and
   queue destroys (px__cuda_release_retry), so that memory never returns while work queued
   before the capture may still use it. */
typedef void (*px__cuda_release_fn)(void *ptr, size_t bytes, int device, cudaStream_t ordered);
void px__cuda_release_after_work(void *ptr, size_t bytes, int device, px__cuda_release_fn then);
/* Retries kept releases; `all` (px_finalize, no queue left): runs every one. */
void px__cuda_release_retry(bool all);

#endif /* PX_BACKENDS_CUDA_QUEUE_TRACK_H */
