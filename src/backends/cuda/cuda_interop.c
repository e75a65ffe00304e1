/* The public CUDA interop of portex/cuda.h: instances over the caller's streams, and the
 * stream behind an instance. */
#include "portex/cuda.h"

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_queue.h"

static const char *refused_stream(cudaStream_t s)
{
    if (s == NULL) return "0 (the legacy default stream)";
    if (s == cudaStreamLegacy) return "cudaStreamLegacy";
    if (s == cudaStreamPerThread) return "cudaStreamPerThread";
    return NULL;
}

PX_API px_status px_instance_from_cuda_stream(px_instance **out, cudaStream_t stream, const char *label)
{
    PX__ARG(out != NULL, "out is NULL");
    *out = NULL;
    PX__TRY(px__require_init(__func__));
    const char *refused = refused_stream(stream);
    if (refused != NULL)
        return PX__FAIL(PX_ERR_INVALID_ARGUMENT,
                        "stream is %s: it would serialise against every other stream; wrap a stream "
                        "made with cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)",
                        refused);
    int count;
    PX__TRY(px__cuda_count(&count, __func__));
    int dev = -1;
    const cudaError_t e = cudaStreamGetDevice(stream, &dev);
    if (e != cudaSuccess)
        return px__cuda_fail(e, __func__, "cudaStreamGetDevice(stream) (is the stream alive?)", NULL);
    /* The core makes the handle and calls px__cuda_instance_wrap. */
    return px__instance_wrap(out, PX_EXEC_CUDA, dev, (void *)stream, label, __func__);
}

PX_API px_status px_instance_cuda_stream(const px_instance *inst, cudaStream_t *out)
{
    PX__TRY(px__instance_check(inst, __func__));
    PX__ARG(out != NULL, "out is NULL");
    PX__ARG(inst->exec == PX_EXEC_CUDA, "instance '%s' runs on %s, not CUDA: it has no stream",
            inst->label ? inst->label : "?", px_exec_space_string(inst->exec));
    *out = px__cuda_queue_of(inst)->stream;
    return PX_OK;
}
