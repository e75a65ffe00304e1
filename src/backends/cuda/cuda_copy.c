/* Copies and fills on an instance's stream: the hooks deep_copy and px_fill reach once
 * the core has chosen the path. */
#include <string.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_fill.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_peer.h"
#include "backends/cuda/cuda_queue.h"
#include "backends/cuda/cuda_strided.h"

_Static_assert(PX__CUDA_STRIDED_MAX_RANK == PX_MAX_RANK, "cuda_strided.h must cover every rank");

/* With the instance's device current: one flat block on the instance's stream. */
static px_status copy_flat(cudaStream_t s, const px__copy_op *op)
{
    /* Unified addressing: the driver knows each pointer's side. */
    PX__CU_TRY(cudaMemcpyAsync(op->dst.data, op->src.data, op->bytes, cudaMemcpyDefault, s));
    return PX_OK;
}

/* The driver's own copy from or to pageable memory. It may return before it has read the
   source (it stages through its own buffers as the copy proceeds), and to pageable memory
   the data is there only at the end: either way the caller may touch the buffer once this
   returns, so wait for the stream. */
static px_status copy_pageable(cudaStream_t s, const px__copy_op *op)
{
    PX__TRY(copy_flat(s, op));
    return PX__CU(cudaStreamSynchronize(s));
}

/* Whether a side of a copy is memory of q's own device (nothing to ask CUDA about). */
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

/* Path CUDA_STRIDED: a copy kernel on the instance's device, for any rank, strides and
   element size, between its own memory, mapped pinned memory and peers' memory. With
   the instance's device current. */
static px_status copy_strided(px__cuda_queue *q, const px__copy_op *op)
{
    const bool local = side_is_local(q, &op->dst) && side_is_local(q, &op->src);
    const bool capturing = !local && px__cuda_capturing(q->stream);
    void *dst = NULL, *src = NULL;
    PX__TRY(px__cuda_reach(q, &op->dst, capturing, "destination", "px_deep_copy", &dst));
    PX__TRY(px__cuda_reach(q, &op->src, capturing, "source", "px_deep_copy", &src));
    /* Another GPU's memory: ordered as a flat copy between GPUs is (cuda_peer.c). */
    const int dd = side_device(&op->dst), sd = side_device(&op->src);
    if (!capturing && ((dd >= 0 && dd != q->device) || (sd >= 0 && sd != q->device)))
        PX__TRY(px__cuda_order_after_devices(q->stream, dd, sd));
    const px__cuda_strided k = strided_desc(op, dst, src);
    const px__cuda_ctx ctx = px__cuda_ctx_kernel("px_deep_copy");
    return PX__CU_AT(px__cuda_strided_copy_launch(q->stream, q->device, &k), &ctx);
}

px_status px__cuda_copy(struct px_instance *inst, px__copy_op *op)
{
    if (op->count == 0) return PX_OK;
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st;
    switch (op->path) {
    case PX_COPY_CUDA_DMA:
    case PX_COPY_CUDA_D2D: st = copy_flat(q->stream, op); break;
    case PX_COPY_CUDA_STAGED:
        /* Through portex's pinned buffers, off the caller's thread (cuda_staging.c); falls
           back to CUDA_PAGEABLE, and says so, where staging cannot run. */
        st = px__cuda_staged_copy(inst, op);
        break;
    case PX_COPY_CUDA_PAGEABLE: st = copy_pageable(q->stream, op); break;
    case PX_COPY_CUDA_PEER: st = px__cuda_copy_peer(q, op); break;
    case PX_COPY_CUDA_STRIDED: st = copy_strided(q, op); break;
    default:
        st = px__error(PX_ERR_UNSUPPORTED, "px_deep_copy", "path %s is not implemented by the CUDA backend",
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

px_status px__cuda_fill(struct px_instance *inst, const px__copy_op *op)
{
    if (op->count == 0) return PX_OK;
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    /* Another GPU's memory needs peer access, and is written by a kernel (never
       cudaMemsetAsync, which is meant for the stream's own device). */
    const bool local = side_is_local(q, &op->dst);
    const bool capturing = !local && px__cuda_capturing(q->stream);
    void *dst = NULL;
    px_status st = px__cuda_reach(q, &op->dst, capturing, "destination", "px_fill", &dst);
    const unsigned char *v = op->value;
    const px__cuda_ctx ctx = px__cuda_ctx_kernel("px_fill");
    if (st == PX_OK && !op->flat) {
        /* Strided: the fill kernels of cuda_strided.cu, any rank and element size. */
        const px__cuda_strided k = strided_desc(op, dst, NULL);
        st = PX__CU_AT(px__cuda_strided_fill_launch(q->stream, q->device, &k), &ctx);
    } else if (st == PX_OK && local && all_bytes_equal(v, op->elem_size)) {
        st = PX__CU(cudaMemsetAsync(dst, v[0], op->bytes, q->stream));
    } else if (st == PX_OK) {
        st = PX__CU_AT(px__cuda_fill_launch(q->stream, q->device, dst, (size_t)op->count, op->elem_size,
                                            op->value),
                       &ctx);
    }
    px__cuda_leave(saved);
    return st;
}
