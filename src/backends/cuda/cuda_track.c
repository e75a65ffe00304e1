/* The live queues: ordering frees after queued work, and px_fence_all. */
#include "backends/cuda/cuda_queue.h"

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"

/* Guarded by px__cuda_lock. */
static px__cuda_queue *g_head;

void px__cuda_track_add(px__cuda_queue *q)
{
    px__cuda_lock();
    q->prev = NULL;
    q->next = g_head;
    if (g_head) g_head->prev = q;
    g_head = q;
    px__cuda_unlock();
}

void px__cuda_track_remove(px__cuda_queue *q)
{
    px__cuda_lock();
    if (q->prev) q->prev->next = q->next;
    else if (g_head == q) g_head = q->next;
    if (q->next) q->next->prev = q->prev;
    q->prev = q->next = NULL;
    px__cuda_unlock();
}

bool px__cuda_capturing(cudaStream_t s)
{
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &cs) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return cs != cudaStreamCaptureStatusNone;
}

px_status px__cuda_order_after_all(cudaStream_t target)
{
    px_status st = PX_OK;
    px__cuda_lock();
    for (px__cuda_queue *q = g_head; q != NULL && st == PX_OK; q = q->next) {
        /* Recording into a capture would add nodes to the user's graph; a graph keeps
           the memory it uses alive by itself. */
        if (q->stream == target || px__cuda_capturing(q->stream)) continue;
        st = PX__CU(cudaEventRecord(q->mark, q->stream));
        if (st == PX_OK) st = PX__CU(cudaStreamWaitEvent(target, q->mark, 0));
    }
    px__cuda_unlock();
    return st;
}

px_status px__cuda_order_after_devices(cudaStream_t target, int a, int b)
{
    px_status st = PX_OK;
    px__cuda_lock();
    for (px__cuda_queue *q = g_head; q != NULL && st == PX_OK; q = q->next) {
        if (q->device != a && q->device != b) continue;
        if (q->stream == target || px__cuda_capturing(q->stream)) continue;
        st = PX__CU(cudaEventRecord(q->mark, q->stream));
        if (st == PX_OK) st = PX__CU(cudaStreamWaitEvent(target, q->mark, 0));
    }
    px__cuda_unlock();
    return st;
}

px_status px__cuda_sync_all(void)
{
    px_status first = PX_OK;
    px__cuda_lock();
    for (px__cuda_queue *q = g_head; q != NULL; q = q->next) {
        if (px__cuda_capturing(q->stream)) continue;
        int saved;
        px_status st = px__cuda_enter(q->device, &saved);
        if (st == PX_OK) {
            st = PX__CU(cudaStreamSynchronize(q->stream));
            px__cuda_leave(saved);
        }
        if (first == PX_OK) first = st;
    }
    px__cuda_unlock();
    return first;
}
