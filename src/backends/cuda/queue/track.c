/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The live queues: ordering one stream after the others' work (frees, copies between
 * GPUs), releases kept while a queue is being captured, and snapshots for px_fence_all.
 *
 * One lock guards the list, the queues' references and their mark events; nothing done
 * under it waits for the GPU (event records and stream waits only queue work). */
#include "backends/cuda/queue/track.h"

#include <pthread.h>
#include <stdlib.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/services.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static px__cuda_queue *g_head;

/* A release kept while a queue was being captured. */
typedef struct kept_release {
    struct kept_release *next;
    void *ptr;
    size_t bytes;
    int device;
    px__cuda_release_fn then;
} kept_release;

static kept_release *g_kept; /* (g_lock) */

bool px__cuda_capturing(cudaStream_t s)
{
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &cs) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return cs != cudaStreamCaptureStatusNone;
}

void px__cuda_track_add(px__cuda_queue *q)
{
    pthread_mutex_lock(&g_lock);
    q->refs = 1;
    q->prev = NULL;
    q->next = g_head;
    if (g_head) g_head->prev = q;
    g_head = q;
    pthread_mutex_unlock(&g_lock);
}

bool px__cuda_track_remove(px__cuda_queue *q)
{
    pthread_mutex_lock(&g_lock);
    if (q->prev)
        q->prev->next = q->next;
    else if (g_head == q)
        g_head = q->next;
    if (q->next) q->next->prev = q->prev;
    q->prev = q->next = NULL;
    const bool last = --q->refs == 0;
    pthread_mutex_unlock(&g_lock);
    return last;
}

int px__cuda_track_snapshot(px__cuda_queue ***out)
{
    *out = NULL;
    pthread_mutex_lock(&g_lock);
    int n = 0;
    for (px__cuda_queue *q = g_head; q != NULL; q = q->next) n++;
    px__cuda_queue **all = n > 0 ? px__malloc((size_t)n * sizeof *all) : NULL;
    if (n > 0 && all == NULL) {
        pthread_mutex_unlock(&g_lock);
        return -1;
    }
    n = 0;
    for (px__cuda_queue *q = g_head; q != NULL; q = q->next) {
        q->refs++;
        all[n++] = q;
    }
    pthread_mutex_unlock(&g_lock);
    *out = all;
    return n;
}

bool px__cuda_queue_unref(px__cuda_queue *q)
{
    pthread_mutex_lock(&g_lock);
    const bool last = --q->refs == 0;
    pthread_mutex_unlock(&g_lock);
    return last;
}

/* One queue: record its mark and make target wait for it, unless it is being captured
   (before the record, or from then on: the record may belong to the capture, and
   waiting for it would pull target into the user's graph). g_lock held. */
static px_status order_one(cudaStream_t target, px__cuda_queue *q, int *capturing)
{
    if (px__cuda_capturing(q->stream)) {
        ++*capturing;
        return PX_OK;
    }
    PX__CU_TRY(cudaEventRecord(q->mark, q->stream));
    if (px__cuda_capturing(q->stream)) {
        ++*capturing;
        return PX_OK;
    }
    const cudaError_t e = cudaStreamWaitEvent(target, q->mark, 0);
    if (e == cudaErrorCapturedEvent || e == cudaErrorStreamCaptureIsolation) {
        /* A capture began and ended between the record and the check. */
        (void)cudaGetLastError();
        ++*capturing;
        return PX_OK;
    }
    return px__cuda_check(e, "cudaStreamWaitEvent(target, mark of a live queue)", NULL);
}

static px_status order_after_locked(cudaStream_t target, int a, int b, int *capturing)
{
    px_status st = PX_OK;
    for (px__cuda_queue *q = g_head; q != NULL && st == PX_OK; q = q->next) {
        if (q->stream == target) continue;
        if (a >= 0 && q->device != a && q->device != b) continue;
        st = order_one(target, q, capturing);
    }
    return st;
}

px_status px__cuda_order_after(cudaStream_t target, int a, int b, int *capturing)
{
    pthread_mutex_lock(&g_lock);
    const px_status st = order_after_locked(target, a, b, capturing);
    pthread_mutex_unlock(&g_lock);
    return st;
}

/* Orders the device's release stream after every queue; false when a queue is being
   captured (or the ordering failed: then the device is waited for instead, which a
   capture forbids too). With the device current. */
static bool ordered(px__cuda_device *d)
{
    int capturing = 0;
    pthread_mutex_lock(&g_lock);
    px_status st = order_after_locked(d->release, -1, -1, &capturing);
    pthread_mutex_unlock(&g_lock);
    if (capturing > 0) return false;
    if (st != PX_OK && cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
    return true;
}

static bool keep(void *ptr, size_t bytes, int device, px__cuda_release_fn then)
{
    kept_release *k = px__malloc(sizeof *k);
    if (k == NULL) return false;
    *k = (kept_release){NULL, ptr, bytes, device, then};
    pthread_mutex_lock(&g_lock);
    k->next = g_kept;
    g_kept = k;
    pthread_mutex_unlock(&g_lock);
    return true;
}

/* One release: ordered and run, or kept (false) while a queue is being captured. */
static bool try_release(void *ptr, size_t bytes, int device, px__cuda_release_fn then, bool all)
{
    px__cuda_device *d = px__cuda_device_if_ready(device);
    int saved;
    if (d == NULL || px__cuda_enter(device, &saved) != PX_OK) {
        then(ptr, bytes, device, NULL); /* the device is gone: nothing can use the memory */
        return true;
    }
    const bool ok = ordered(d) || all;
    if (ok) then(ptr, bytes, device, d->release);
    px__cuda_leave(saved);
    return ok;
}

void px__cuda_release_retry(bool all)
{
    pthread_mutex_lock(&g_lock);
    kept_release *list = g_kept;
    g_kept = NULL;
    pthread_mutex_unlock(&g_lock);
    while (list != NULL) {
        kept_release *k = list;
        list = k->next;
        if (try_release(k->ptr, k->bytes, k->device, k->then, all)) {
            free(k);
            continue;
        }
        pthread_mutex_lock(&g_lock);
        k->next = g_kept;
        g_kept = k;
        pthread_mutex_unlock(&g_lock);
    }
}

void px__cuda_release_after_work(void *ptr, size_t bytes, int device, px__cuda_release_fn then)
{
    px__cuda_release_retry(false);
    if (try_release(ptr, bytes, device, then, false)) return;
    /* Without memory to remember it, release now: the rare risk of a pre-capture kernel
       still using it beats a leak that grows with every such free. */
    if (!keep(ptr, bytes, device, then)) (void)try_release(ptr, bytes, device, then, true);
}
