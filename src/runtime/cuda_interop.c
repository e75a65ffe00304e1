/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The public CUDA interop of portex/cuda.h: instances over the caller's streams, and the
 * stream behind an instance. Compiled only with the CUDA backend. */
#include "portex/cuda.h"

#include "backends/cuda/api.h"
#include "base/error.h"
#include "base/state.h"
#include "runtime/instance.h"

PX_API px_status px_instance_from_cuda_stream(px_instance **out, cudaStream_t stream,
                                              const char *label)
{
    PX__ENTER;
    PX__ARG(out != NULL, "out is NULL");
    *out = NULL;
    PX__TRY(px__require_init());
    /* 0 names the legacy default stream; the queue keeps its explicit handle (a NULL
       native queue would mean "make one"). */
    if (stream == NULL) stream = cudaStreamLegacy;
    int dev = -1;
    PX__TRY(px__cuda_stream_device((void *)stream, &dev));
    return px__instance_wrap(out, PX_EXEC_CUDA, dev, (void *)stream, label);
}

PX_API px_status px_instance_cuda_stream(const px_instance *inst, cudaStream_t *out)
{
    PX__ENTER;
    PX__TRY(px__instance_check(inst));
    PX__ARG(out != NULL, "out is NULL");
    PX__ARG(inst->exec == PX_EXEC_CUDA, "instance '%s' runs on %s, not CUDA: it has no stream",
            inst->label, px_exec_space_string(inst->exec));
    *out = (cudaStream_t)px__cuda_queue_stream(inst->queue);
    return PX_OK;
}
