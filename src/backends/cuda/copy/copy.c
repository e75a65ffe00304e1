/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Copies and fills involving CUDA memory: choosing the path (copy_path) and running it
 * on an instance's stream, plus the host paths a CUDA instance runs after its stream's
 * earlier work.
 *
 *   one side \ other      same element order      strided / differing layouts
 *   DEVICE - HOST_PINNED   CUDA_DMA                CUDA_STRIDED (kernel, pinned via UVA)
 *   DEVICE - HOST          CUDA_STAGED             CUDA_STRIDED_STAGED
 *   DEVICE(n) - (n)        CUDA_D2D                CUDA_STRIDED
 *   DEVICE(a) - (b)        CUDA_PEER               CUDA_STRIDED (peer access)
 *   fill of DEVICE         CUDA_FILL */
#include <string.h>

#include "backends/cuda/check.h"
#include "backends/cuda/copy/fill.h"
#include "backends/cuda/copy/peer.h"
#include "backends/cuda/copy/strided.h"
#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/pinned.h"
#include "backends/cuda/queue/track.h"
#include "backends/cuda/staging/staging.h"
#include "backends/host/copy.h"

_Static_assert(PX__CUDA_STRIDED_MAX_RANK == PX_MAX_RANK, "copy/strided.h must cover every rank");

px_status px__cuda_copy_path(const px__copy_op *op, px_copy_path *path)
{
    if (op->value != NULL) {
        *path = PX_COPY_CUDA_FILL;
        return PX_OK;
    }
    const px_space d = op->dst.space, s = op->src.space;
    if (d.kind == PX_SPACE_DEVICE && s.kind == PX_SPACE_DEVICE)
        *path = !op->flat              ? PX_COPY_CUDA_STRIDED
                : d.device == s.device ? PX_COPY_CUDA_D2D
                                       : PX_COPY_CUDA_PEER;
    else if ((d.kind == PX_SPACE_DEVICE ? s : d).kind == PX_SPACE_HOST_PINNED)
        *path = op->flat ? PX_COPY_CUDA_DMA : PX_COPY_CUDA_STRIDED;
    else
        *path = op->flat ? PX_COPY_CUDA_STAGED : PX_COPY_CUDA_STRIDED_STAGED;
    return PX_OK;
}

/* With the instance's device current: one flat block on the instance's stream. */
static px_status copy_flat(cudaStream_t s, const px__copy_op *op)
{
    /* Unified addressing: the driver knows each pointer's side. */
    return PX__CU(cudaMemcpyAsync(op->dst.data, op->src.data, op->bytes, cudaMemcpyDefault, s));
}

static bool side_is_local(const px__cuda_queue *q, const px__copy_side *s)
{
    return s->space.kind == PX_SPACE_DEVICE && s->space.device == q->device;
}

static int side_device(const px__copy_side *s)
{
    return s->space.kind == PX_SPACE_DEVICE ? s->space.device : -1;
}

/* The kernel's description of op, at the addresses the instance's device uses. */
static px__cuda_strided strided_desc(const px__copy_op *op, void *dst, const void *src)
{
    px__cuda_strided k;
    memset(&k, 0, sizeof k);
    k.rank = op->rank;
    for (int d = 0; d < op->rank; ++d) {
        k.extent[d] = op->extent[d];
        k.dst_stride[d] = op->dst.stride[d];
        k.src_stride[d] = op->src.stride[d];
    }
    k.elem_size = op->elem_size;
    k.dst = dst;
    k.src = src;
    k.value = op->value;
    return k;
}

/* Memory of another GPU is written or read: order after the pending work of both GPUs, as
   a flat copy between GPUs is (copy/peer.c). Not during a capture: the graph's edges
   order its nodes. */
static px_status order_for_peers(px__cuda_queue *q, const px__copy_op *op, bool capturing)
{
    const int dd = side_device(&op->dst), sd = op->value ? -1 : side_device(&op->src);
    if (capturing || !((dd >= 0 && dd != q->device) || (sd >= 0 && sd != q->device))) return PX_OK;
    int captured = 0;
    return px__cuda_order_after(q->stream, dd >= 0 ? dd : sd, sd >= 0 ? sd : dd, &captured);
}

/* Path CUDA_STRIDED: a copy kernel on the instance's device, for any rank, strides and
   element size, between its own memory, mapped pinned memory and peers' memory. */
static px_status copy_strided(px__cuda_queue *q, const px__copy_op *op)
{
    const bool local = side_is_local(q, &op->dst) && side_is_local(q, &op->src);
    const bool capturing = !local && px__cuda_capturing(q->stream);
    void *dst = NULL, *src = NULL;
    PX__TRY(px__cuda_reach(q, &op->dst, capturing, "destination", &dst));
    PX__TRY(px__cuda_reach(q, &op->src, capturing, "source", &src));
    PX__TRY(order_for_peers(q, op, capturing));
    const px__cuda_strided k = strided_desc(op, dst, src);
    const px__cuda_ctx ctx = px__cuda_ctx_kernel(px__caller());
    return PX__CU_AT(px__cuda_strided_copy_launch(q->stream, q->device, &k), &ctx);
}

/* Path CUDA_STRIDED_STAGED: pageable memory with a layout the device side does not share.
   The host does the element-wise part between the pageable side and a pinned buffer laid
   out as the device side orders its elements; the device part moves the buffer (DMA, or
   the strided kernel). To the device, the host reads only after the stream's earlier
   work has run; from the device, it writes once the device part is done: both wait. */
static px_status copy_strided_staged(px__cuda_queue *q, px__copy_op *op)
{
    const bool to_device = op->dst.space.kind == PX_SPACE_DEVICE;
    const px__copy_side *dev = to_device ? &op->dst : &op->src;
    void *p = NULL;
    PX__TRY(px__cuda_pinned_alloc(op->bytes, &p));
    /* The buffer: contiguous, its dimensions in the device side's stride order. */
    px__copy_side tmp = {.data = p, .space = px_host_pinned()};
    int order[PX_MAX_RANK];
    px__dims_by_stride(op->rank, dev->stride, order);
    int64_t s = 1;
    for (int k = 0; k < op->rank; ++k) {
        tmp.stride[order[k]] = s;
        s *= op->extent[order[k]];
    }
    px__copy_op host = *op, device = *op;
    host.flat = false;
    host.dst.hold = host.src.hold = device.dst.hold = device.src.hold = (px__hold){NULL, NULL};
    if (to_device) {
        host.dst = tmp;
        device.src = tmp;
    } else {
        host.src = tmp;
        device.dst = tmp;
    }
    /* One block when the device side is contiguous (then it has the buffer's strides). */
    device.flat = true;
    for (int d = 0; d < op->rank; ++d)
        if (op->extent[d] > 1 && dev->stride[d] != tmp.stride[d]) device.flat = false;
    px_status st = PX_OK;
    if (to_device) {
        st = PX__CU(cudaStreamSynchronize(q->stream));
        if (st == PX_OK) px__host_copy(&host);
    }
    if (st == PX_OK) st = device.flat ? copy_flat(q->stream, &device) : copy_strided(q, &device);
    if (st == PX_OK && !to_device) {
        st = PX__CU(cudaStreamSynchronize(q->stream));
        if (st == PX_OK) px__host_copy(&host);
    }
    /* Freed after the queued device part (the pinned space orders its frees). */
    px__cuda_pinned_free(p, op->bytes);
    return st;
}

/* Host paths on a CUDA instance: after the stream's earlier work, on this thread. */
static px_status copy_host(px__cuda_queue *q, const px__copy_op *op, bool fill)
{
    PX__CU_TRY(cudaStreamSynchronize(q->stream));
    if (fill)
        px__host_fill(op);
    else
        px__host_copy(op);
    return PX_OK;
}

/* While the stream is being captured, refuse what a graph cannot hold: host work, and
   pageable memory (CUDA would answer error 906, or on a non-blocking stream silently
   leave the copy out of the graph). */
static px_status check_capture(const px__cuda_queue *q, const px__copy_op *op)
{
    const px_copy_path p = op->path;
    const bool host =
        p == PX_COPY_HOST_MEMCPY || p == PX_COPY_HOST_STRIDED || p == PX_COPY_HOST_FILL;
    const bool pageable = p == PX_COPY_CUDA_STAGED || p == PX_COPY_CUDA_STRIDED_STAGED;
    if (!(host || pageable) || !px__cuda_capturing(q->stream)) return PX_OK;
    if (host)
        return px__error(PX_ERR_CAPTURING,
                         "instance '%s' is being captured and path %s runs on the host, which a "
                         "graph cannot hold",
                         q->label ? q->label : "?", px_copy_path_string(p));
    return px__error(
        PX_ERR_CAPTURE_PAGEABLE,
        "instance '%s' is being captured and the copy involves pageable host memory (path %s), "
        "which a graph cannot hold; allocate that view in HOST_PINNED (or px_host_register the "
        "memory and wrap it again)",
        q->label ? q->label : "?", px_copy_path_string(p));
}

px_status px__cuda_copy(px__queue *queue, px__copy_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    if (op->count == 0) return PX_OK;
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st = check_capture(q, op);
    if (st == PX_OK) switch (op->path) {
        case PX_COPY_HOST_MEMCPY:
        case PX_COPY_HOST_STRIDED: st = copy_host(q, op, false); break;
        case PX_COPY_CUDA_DMA:
        case PX_COPY_CUDA_D2D: st = copy_flat(q->stream, op); break;
        case PX_COPY_CUDA_STAGED: st = px__cuda_staged_copy(q, op); break;
        case PX_COPY_CUDA_PEER: st = px__cuda_copy_peer(q, op); break;
        case PX_COPY_CUDA_STRIDED: st = copy_strided(q, op); break;
        case PX_COPY_CUDA_STRIDED_STAGED: st = copy_strided_staged(q, op); break;
        default:
            st = px__error(PX_ERR_UNSUPPORTED, "path %s is not run by the CUDA backend",
                           px_copy_path_string(op->path));
            break;
        }
    px__cuda_leave(saved);
    return st;
}

static bool all_bytes_equal(const unsigned char *v, size_t n)
{
    for (size_t i = 1; i < n; ++i)
        if (v[i] != v[0]) return false;
    return true;
}

px_status px__cuda_fill(px__queue *queue, px__copy_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    if (op->count == 0) return PX_OK;
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st = check_capture(q, op);
    if (st == PX_OK && op->path == PX_COPY_HOST_FILL) {
        st = copy_host(q, op, true);
        px__cuda_leave(saved);
        return st;
    }
    /* Another GPU's memory needs peer access, is ordered after that GPU's work, and is
       written by a kernel (never cudaMemsetAsync, which is meant for the stream's own
       device). */
    const bool local = side_is_local(q, &op->dst);
    const bool capturing = !local && px__cuda_capturing(q->stream);
    void *dst = NULL;
    if (st == PX_OK) st = px__cuda_reach(q, &op->dst, capturing, "destination", &dst);
    if (st == PX_OK) st = order_for_peers(q, op, capturing);
    const unsigned char *v = op->value;
    const px__cuda_ctx ctx = px__cuda_ctx_kernel(px__caller());
    if (st == PX_OK && !op->flat) {
        /* Strided: the fill kernels of copy/strided.cu, any rank and element size. */
        const px__cuda_strided k = strided_desc(op, dst, NULL);
        st = PX__CU_AT(px__cuda_strided_fill_launch(q->stream, q->device, &k), &ctx);
    } else if (st == PX_OK && local && q->gmem == NULL && all_bytes_equal(v, op->elem_size)) {
        /* Not while portex records a graph (gmem set): there a fill is always the kernel
           below. A memset node could not become the kernel node another value needs (nor
           back), and CUDA refuses an in-place change that alters a node's type, so
           px_graph_exec_set_fill and px_graph_exec_update could not change the value. */
        st = PX__CU(cudaMemsetAsync(dst, v[0], op->bytes, q->stream));
    } else if (st == PX_OK) {
        st = PX__CU_AT(px__cuda_fill_launch(q->stream, q->device, dst, (size_t)op->count,
                                            op->elem_size, op->value),
                       &ctx);
    }
    px__cuda_leave(saved);
    return st;
}
