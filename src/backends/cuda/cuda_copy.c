/* Copies and fills on an instance's stream: the hooks deep_copy and px_fill reach once
 * the core has chosen the path. */
#include <string.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_fill.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"

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
        /* Not staged yet: the driver's pageable copy, reported as such. */
        op->path = PX_COPY_CUDA_PAGEABLE;
        st = copy_pageable(q->stream, op);
        break;
    case PX_COPY_CUDA_PAGEABLE: st = copy_pageable(q->stream, op); break;
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
    if (!op->flat)
        return px__error(PX_ERR_UNSUPPORTED, "px_fill",
                         "filling non-contiguous device memory is not implemented by the CUDA backend");
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st;
    const unsigned char *v = op->value;
    if (all_bytes_equal(v, op->elem_size)) {
        st = PX__CU(cudaMemsetAsync(op->dst.data, v[0], op->bytes, q->stream));
    } else {
        const px__cuda_ctx ctx = px__cuda_ctx_kernel("px_fill");
        st = PX__CU_AT(px__cuda_fill_launch(q->stream, q->device, op->dst.data, (size_t)op->count,
                                            op->elem_size, op->value),
                       &ctx);
    }
    px__cuda_leave(saved);
    return st;
}
