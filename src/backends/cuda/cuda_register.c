/* What memory a pointer is (px_pointer_space), and page-locking memory the caller already
 * has (px_host_register / px_host_unregister). */
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_hooks.h"

/* DEVICE(n), HOST_PINNED (allocated pinned or registered: the driver DMAs from it) or
   HOST (pageable, managed, or unknown to CUDA). Never an error: without a GPU, or when CUDA
   cannot say, the memory is HOST, and no CUDA error is left pending. */
px_status px__cuda_pointer_space(const void *ptr, px_space *out)
{
    *out = px_host();
    if (px__cuda_device_total(NULL) == 0) return PX_OK;   /* no driver, no device: never asked */
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return PX_OK;
    }
    switch (a.type) {
    case cudaMemoryTypeDevice: *out = px_device(a.device); break;
    case cudaMemoryTypeHost: *out = px_host_pinned(); break;
    /* Managed memory migrates on demand: copies take the host paths' rules (pageable). */
    case cudaMemoryTypeManaged:
    case cudaMemoryTypeUnregistered:
    default: break;
    }
    return PX_OK;
}

/* Registration errors in the caller's terms. */
static px_status register_fail(cudaError_t e, const char *func, const char *call, const void *ptr, size_t bytes)
{
    (void)cudaGetLastError();
    switch (e) {
    case cudaErrorHostMemoryAlreadyRegistered:
        return px__error(PX_ERR_INVALID_ARGUMENT, func,
                         "%p (%zu bytes) overlaps memory that is already page-locked (registered, or "
                         "allocated pinned)", ptr, bytes);
    case cudaErrorHostMemoryNotRegistered:
        return px__error(PX_ERR_INVALID_ARGUMENT, func,
                         "%p was not registered (pass the pointer given to px_host_register)", ptr);
    case cudaErrorInvalidValue:
        return px__error(PX_ERR_INVALID_ARGUMENT, func, "%s: %s: %s (%p, %zu bytes)", call, cudaGetErrorName(e),
                         cudaGetErrorString(e), ptr, bytes);
    case cudaErrorNotSupported:
        return px__error(PX_ERR_UNSUPPORTED, func, "%s: %s: %s", call, cudaGetErrorName(e), cudaGetErrorString(e));
    default: {
        const px__cuda_ctx ctx = px__cuda_ctx_alloc(px_host_pinned(), bytes);
        return px__cuda_fail(e, func, call, e == cudaErrorMemoryAllocation ? &ctx : NULL);
    }
    }
}

/* cudaHostRegisterDefault: with unified addressing the pages are also mapped and usable by
   every device. Locking costs about 58 ms per GiB (H200 machine), paid here once. */
px_status px__cuda_host_register(void *ptr, size_t bytes)
{
    int count;
    PX__TRY(px__cuda_count(&count, "px_host_register"));
    const cudaError_t e = cudaHostRegister(ptr, bytes, cudaHostRegisterDefault);
    if (e != cudaSuccess)
        return register_fail(e, "px_host_register", "cudaHostRegister(ptr, bytes, cudaHostRegisterDefault)", ptr,
                             bytes);
    return PX_OK;
}

px_status px__cuda_host_unregister(void *ptr)
{
    int count;
    PX__TRY(px__cuda_count(&count, "px_host_unregister"));
    const cudaError_t e = cudaHostUnregister(ptr);
    if (e != cudaSuccess) return register_fail(e, "px_host_unregister", "cudaHostUnregister(ptr)", ptr, 0);
    return PX_OK;
}
