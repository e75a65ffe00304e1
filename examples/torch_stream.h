/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What the C sides of the PyTorch examples share (dlpack_torch.c, graph_interop_torch.c):
 * portex on, and an instance over the stream PyTorch hands over as an integer
 * (torch.cuda.current_stream().cuda_stream). CUDA builds only. */
#ifndef TORCH_STREAM_H
#define TORCH_STREAM_H

#include <stdint.h>

#include <portex/cuda.h>

/* px_init, then *inst over `stream` (a cudaStream_t as an integer). On a failure nothing
   is left: px_init's reference is dropped again, and px_last_error() says why. */
static inline px_status torch_stream_instance(uint64_t stream, px_instance **inst)
{
    px_status st = px_init(NULL);
    if (st != PX_OK) return st;
    st = px_instance_from_cuda_stream(inst, (cudaStream_t)(uintptr_t)stream, "torch stream");
    if (st != PX_OK) px_finalize();
    return st;
}

#endif /* TORCH_STREAM_H */
