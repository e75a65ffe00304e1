/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Copies between GPUs and peer access: see copy/peer.h. */
#include "backends/cuda/copy/peer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/device.h"

enum { PEER_UNKNOWN = 0, PEER_ON = 1, PEER_OFF = 2 };

/* [a][b]: whether device a reaches device b's memory. Written under g_peer_lock, read
   without it. Peer access belongs to the devices' primary contexts, which outlive
   px_finalize, so the answers stay valid for the process. */
static atomic_int g_peer[PX__MAX_DEVICES][PX__MAX_DEVICES];
static pthread_mutex_t g_peer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Lets device x reach device y's memory if the hardware allows; the state that results.
   The caller's current device is restored and no error is left pending. */
static int enable_one(int x, int y)
{
    int can = 0, saved = -1;
    if (cudaDeviceCanAccessPeer(&can, x, y) != cudaSuccess) {
        (void)cudaGetLastError();
        return PEER_OFF;
    }
    if (!can) return PEER_OFF;
    if (cudaGetDevice(&saved) != cudaSuccess) {
        (void)cudaGetLastError();
        return PEER_OFF;
    }
    int state = PEER_OFF;
    if (cudaSetDevice(x) == cudaSuccess) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(y, 0);
        if (e == cudaSuccess || e == cudaErrorPeerAccessAlreadyEnabled) state = PEER_ON;
        /* Already enabled (by the caller, say) is success; anything else (too many
           peers, unsupported) leaves the pair to the driver's staged copies. Either
           way the runtime's error is cleared. */
        if (e != cudaSuccess) (void)cudaGetLastError();
    } else {
        (void)cudaGetLastError();
    }
    if (cudaSetDevice(saved) != cudaSuccess) (void)cudaGetLastError();
    return state;
}

bool px__cuda_peer_access(int a, int b, bool probe)
{
    if (a == b) return true;
    if (a < 0 || b < 0 || a >= PX__MAX_DEVICES || b >= PX__MAX_DEVICES) return false;
    int s = atomic_load_explicit(&g_peer[a][b], memory_order_acquire);
    if (s != PEER_UNKNOWN || !probe) return s == PEER_ON;
    pthread_mutex_lock(&g_peer_lock);
    /* This way only: the other way is enabled when a copy or a kernel on b needs it.
       Enabling b's access while b runs a kernel blocks the caller (124 ms against 1 ms
       the other way, with a 1 s kernel on b, on two H100s: scripts/probes/two_gpu_probe.cu), and b
       may be busy with another instance's work. */
    if (atomic_load(&g_peer[a][b]) == PEER_UNKNOWN) atomic_store(&g_peer[a][b], enable_one(a, b));
    s = atomic_load(&g_peer[a][b]);
    pthread_mutex_unlock(&g_peer_lock);
    return s == PEER_ON;
}

px_status px__cuda_reach(const px__cuda_queue *q, const px__copy_side *side, bool capturing,
                         const char *what, void **out)
{
    *out = side->data;
    if (side->space.kind == PX_SPACE_DEVICE) {
        const int dev = side->space.device;
        if (dev == q->device || px__cuda_peer_access(q->device, dev, !capturing)) return PX_OK;
        return px__error(
            PX_ERR_UNSUPPORTED,
            "the %s is DEVICE(%d) memory, which a kernel on GPU %d (the instance's) cannot "
            "reach: the two GPUs have no peer access%s; copy through a contiguous view "
            "(a strided copy into a contiguous view on one GPU, then a flat copy between the "
            "GPUs), or use an instance of GPU %d",
            what, dev, q->device,
            capturing ? " enabled (portex does not enable it during a graph capture)" : "", dev);
    }
    if (side->space.kind == PX_SPACE_HOST_PINNED) {
        /* Unified addressing: pinned memory that portex allocated is mapped at its host
           address. Memory pinned elsewhere may be mapped at another address, or not for
           this device: ask (not during a capture, where the host address is taken). */
        if (capturing) return PX_OK;
        struct cudaPointerAttributes attr;
        memset(&attr, 0, sizeof attr);
        if (cudaPointerGetAttributes(&attr, side->data) != cudaSuccess) {
            (void)cudaGetLastError();
            return PX_OK;
        }
        if (attr.devicePointer != NULL) {
            *out = attr.devicePointer;
            return PX_OK;
        }
        return px__error(PX_ERR_UNSUPPORTED,
                         "the %s is pinned host memory that is not mapped for GPU %d; pin it with "
                         "px_host_register (or allocate it in HOST_PINNED), or copy through a "
                         "contiguous view",
                         what, q->device);
    }
    return px__error(PX_ERR_UNSUPPORTED,
                     "the %s is pageable host memory, which a kernel cannot reach; copy through a "
                     "HOST_PINNED view",
                     what);
}

px_status px__cuda_copy_peer(px__cuda_queue *q, const px__copy_op *op)
{
    const int sd = op->src.space.device, dd = op->dst.space.device;
    const bool capturing = px__cuda_capturing(q->stream);
    /* Direct (NVLink or PCIe) where the pair allows it; the driver stages the copy
       through host memory otherwise. The stream's device does the copy and reaches the
       other side: pushes from the source, pulls from the destination (both ways for a
       stream of a third device). */
    if (q->device == dd) {
        (void)px__cuda_peer_access(dd, sd, !capturing);
    } else {
        (void)px__cuda_peer_access(sd, dd, !capturing);
        if (q->device != sd) (void)px__cuda_peer_access(dd, sd, !capturing);
    }
    /* After every kernel and copy portex has queued on either GPU, on any instance: the
       copy cannot read what a kernel on the source GPU is still writing, nor overwrite
       what the destination GPU is still reading. A graph being captured orders its
       nodes by its own edges instead. */
    int captured =
        0; /* queues in a capture: their earlier work cannot be waited for (docs/cuda.md) */
    if (!capturing) PX__TRY(px__cuda_order_after(q->stream, sd, dd, &captured));
    /* cudaMemcpyPeerAsync cannot be captured (cudaErrorStreamCaptureUnsupported); in a
       capture the copy is a memcpy node, between unified addresses. */
    if (capturing)
        PX__CU_TRY(
            cudaMemcpyAsync(op->dst.data, op->src.data, op->bytes, cudaMemcpyDefault, q->stream));
    else
        PX__CU_TRY(cudaMemcpyPeerAsync(op->dst.data, dd, op->src.data, sd, op->bytes, q->stream));
    return PX_OK;
}
