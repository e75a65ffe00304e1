/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The CUDA backend's prefix sums (portex/prefix_sum.h): CUB's DeviceScan queued on the
 * instance's stream, its temporary storage in the queue's scratch. Nothing here waits for the
 * GPU. */
#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/hooks.h"
#include "backends/cuda/memory/memory.h"
#include "backends/cuda/prefix_sum/cub_scan.h"
#include "backends/cuda/queue/track.h"

static px_status prefix_sum_on(px__cuda_queue *q, const px__prefix_sum_op *op)
{
    const px__cuda_ctx ctx = px__cuda_ctx_kernel("prefix sum (CUB DeviceScan)");
    size_t bytes = 0;
    PX__TRY(PX__CU_AT(
        px__cub_prefix_sum(op->dtype, op->in, op->out, op->n, op->exclusive, NULL, &bytes, 0),
        &ctx));
    void *temp = NULL;
    PX__TRY(px__cuda_scratch(q, bytes, &temp));
    return PX__CU_AT(px__cub_prefix_sum(op->dtype, op->in, op->out, op->n, op->exclusive, temp,
                                        &bytes, q->stream),
                     &ctx);
}

px_status px__cuda_prefix_sum(px__queue *queue, const px__prefix_sum_op *op)
{
    px__cuda_queue *q = px__cuda_queue_of(queue);
    int saved;
    PX__TRY(px__cuda_enter(q->device, &saved));
    const px_status st = prefix_sum_on(q, op);
    px__cuda_leave(saved);
    return st;
}
