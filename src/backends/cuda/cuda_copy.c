/* Copies and fills on an instance's stream: the hooks deep_copy and px_fill reach once
 * the core has chosen the path. */
#include <string.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_fill.h"
#include "backends/cuda/cuda_hooks.h"
#include "backends/cuda/cuda_queue.h"

/* With the instance's device current. */
static px_status copy_async(cudaStream_t s, void *dst, px_space dst_space, const void *src,
                            px_space src_space, size_t bytes)
{
    if (dst_space.kind == PX_SPACE_DEVICE && src_space.kind == PX_SPACE_DEVICE &&
        dst_space.device != src_space.device) {
        /* Between GPUs: direct over NVLink/PCIe when peers can reach each other, staged by
           the driver otherwise. Ordering after the source device's own work is the
           caller's (events); this copy is ordered on s only. */
        PX__CU_TRY(cudaMemcpyPeerAsync(dst, dst_space.device, src, src_space.device, bytes, s));
        return PX_OK;
    }
    /* Unified addressing: the driver knows each pointer's side. */
    PX__CU_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
    return PX_OK;
}

px_status px__cuda_copy(struct px_instance *inst, void *dst, px_space dst_space, const void *src,
                        px_space src_space, size_t bytes, px_copy_path path)
{
    if (bytes == 0) return PX_OK;
    if (path != PX_COPY_CUDA_DMA && path != PX_COPY_CUDA_D2D && path != PX_COPY_CUDA_PAGEABLE)
        return px__error(PX_ERR_INVALID_ARGUMENT, "px_deep_copy",
                         "path %s is not a CUDA copy (CUDA_DMA, CUDA_D2D or CUDA_PAGEABLE)",
                         px_copy_path_string(path));
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st = copy_async(q->stream, dst, dst_space, src, src_space, bytes);
    /* From pageable memory the driver may return before it has read the source (it stages
       through its own buffers as the copy proceeds), and to pageable memory the data is
       there only at the end: either way the caller may touch the buffer once this
       returns, so wait for the stream. */
    if (st == PX_OK && path == PX_COPY_CUDA_PAGEABLE) st = PX__CU(cudaStreamSynchronize(q->stream));
    px__cuda_leave(saved);
    return st;
}

static bool all_bytes_equal(const unsigned char *v, size_t n)
{
    for (size_t i = 1; i < n; ++i)
        if (v[i] != v[0]) return false;
    return true;
}

px_status px__cuda_fill(struct px_instance *inst, void *dst, px_space space, size_t count,
                        size_t elem_size, const void *value)
{
    size_t bytes;
    (void)space;
    if (count == 0 || elem_size == 0) return PX_OK;
    if (value == NULL) return px__error(PX_ERR_INVALID_ARGUMENT, "px_fill", "value is NULL");
    if (px__mul_overflows(count, elem_size, &bytes))
        return px__error(PX_ERR_OVERFLOW, "px_fill", "%zu elements of %zu bytes overflow size_t", count,
                         elem_size);
    px__cuda_queue *q = px__cuda_queue_of(inst);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    px_status st;
    const unsigned char *v = value;
    if (all_bytes_equal(v, elem_size)) {
        st = PX__CU(cudaMemsetAsync(dst, v[0], bytes, q->stream));
    } else {
        const px__cuda_ctx ctx = px__cuda_ctx_kernel("px_fill");
        st = PX__CU_AT(px__cuda_fill_launch(q->stream, q->device, dst, count, elem_size, value), &ctx);
    }
    px__cuda_leave(saved);
    return st;
}
