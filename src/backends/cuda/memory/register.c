/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What memory a pointer is (px_pointer_space), page-locking memory the caller already has
 * (px_host_register / px_host_unregister), and the streams of interop. */
#include "backends/cuda/api.h"
#include "backends/cuda/check.h"
#include "backends/cuda/device.h"
#include "backends/cuda/queue/track.h"

/* DEVICE(n), HOST_PINNED (allocated pinned or registered: the driver DMAs from it) or
   HOST (pageable, managed, or unknown to CUDA). Never an error: without a GPU, or when CUDA
   cannot say, the memory is HOST, and no CUDA error is left pending. */
px_space px__cuda_pointer_space(const void *ptr)
{
    if (px__cuda_device_total(NULL) == 0) return px_host(); /* no driver, no device: never asked */
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return px_host();
    }
    switch (a.type) {
    case cudaMemoryTypeDevice: return px_device(a.device);
    case cudaMemoryTypeHost: return px_host_pinned();
    /* Managed memory migrates on demand: copies take the host paths' rules (pageable). */
    case cudaMemoryTypeManaged:
    case cudaMemoryTypeUnregistered:
    default: return px_host();
    }
}

/* Registration errors in the caller's terms. */
static px_status register_fail(cudaError_t e, const char *call, const void *ptr, size_t bytes)
{
    (void)cudaGetLastError();
    switch (e) {
    case cudaErrorHostMemoryAlreadyRegistered:
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "%p (%zu bytes) overlaps memory that is already page-locked (registered, or "
            "allocated pinned)",
            ptr, bytes);
    case cudaErrorHostMemoryNotRegistered:
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%p was not registered (pass the pointer given to px_host_register)", ptr);
    case cudaErrorInvalidValue:
        return px__error(PX_ERR_INVALID_ARGUMENT, "%s: %s: %s (%p, %zu bytes)", call,
                         cudaGetErrorName(e), cudaGetErrorString(e), ptr, bytes);
    case cudaErrorNotSupported:
        return px__error(PX_ERR_UNSUPPORTED, "%s: %s: %s", call, cudaGetErrorName(e),
                         cudaGetErrorString(e));
    default: {
        const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), bytes);
        return px__cuda_fail(e, call, e == cudaErrorMemoryAllocation ? &ctx : NULL);
    }
    }
}

/* cudaHostRegisterDefault: with unified addressing the pages are also mapped and usable by
   every device. Locking costs about 58 ms per GiB (H200 machine), paid here once. */
px_status px__cuda_host_register(void *ptr, size_t bytes)
{
    int count;
    PX__TRY(px__cuda_count(&count));
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    const cudaError_t e = cudaHostRegister(ptr, bytes, cudaHostRegisterDefault);
    px__cuda_unrelax(mode);
    if (e != cudaSuccess)
        return register_fail(e, "cudaHostRegister(ptr, bytes, cudaHostRegisterDefault)", ptr,
                             bytes);
    return PX_OK;
}

px_status px__cuda_host_unregister(void *ptr)
{
    int count;
    PX__TRY(px__cuda_count(&count));
    const enum cudaStreamCaptureMode mode = px__cuda_relax();
    const cudaError_t e = cudaHostUnregister(ptr);
    px__cuda_unrelax(mode);
    if (e != cudaSuccess) return register_fail(e, "cudaHostUnregister(ptr)", ptr, 0);
    return PX_OK;
}

/* ---- Streams of interop ------------------------------------------------------------------ */

const char *px__cuda_default_stream_name(cudaStream_t s)
{
    if (s == NULL) return "0 (the legacy default stream)";
    if (s == cudaStreamLegacy) return "cudaStreamLegacy";
    if (s == cudaStreamPerThread) return "cudaStreamPerThread";
    return NULL;
}

px_status px__cuda_stream_device(void *stream, int *device)
{
    int count;
    PX__TRY(px__cuda_count(&count));
    /* A default stream belongs to the current device. */
    const cudaError_t e = px__cuda_default_stream_name((cudaStream_t)stream) != NULL
                              ? cudaGetDevice(device)
                              : cudaStreamGetDevice((cudaStream_t)stream, device);
    if (e != cudaSuccess)
        return px__cuda_fail(e, "cudaStreamGetDevice(stream) (is the stream alive?)", NULL);
    return PX_OK;
}

void *px__cuda_queue_stream(px__queue *q) { return (void *)px__cuda_queue_of(q)->stream; }
