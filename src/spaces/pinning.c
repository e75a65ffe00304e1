/* What kind of memory a pointer is, pinning existing host memory, and the staging pool's
 * configuration: all answered by the CUDA backend when it is compiled in. */
#include "core/internal.h"

/* The CUDA backend, or an error naming func. */
static px_status cuda_backend(const px__backend **be, const char *func)
{
    *be = px__backend_get(PX_EXEC_CUDA);
    if (!*be)
        return px__error(PX_ERR_UNSUPPORTED, func, "this needs the CUDA backend, which is not "
                                                   "compiled into this build");
    return PX_OK;
}

px_status px_pointer_space(const void *ptr, px_space *out)
{
    PX__ARG(out, "out must not be NULL");
    PX__ARG(ptr, "ptr must not be NULL");
    *out = px_host();
    const px__backend *be = px__backend_get(PX_EXEC_CUDA);
    if (!be || !be->pointer_space) return PX_OK;
    return be->pointer_space(ptr, out);
}

px_status px_host_register(void *ptr, size_t bytes)
{
    PX__ARG(ptr, "ptr must not be NULL");
    PX__ARG(bytes > 0, "bytes is 0; expected the size of the memory to pin");
    PX__TRY(px__require_init(__func__));
    const px__backend *be;
    PX__TRY(cuda_backend(&be, __func__));
    return be->host_register(ptr, bytes);
}

px_status px_host_unregister(void *ptr)
{
    PX__ARG(ptr, "ptr must not be NULL");
    PX__TRY(px__require_init(__func__));
    const px__backend *be;
    PX__TRY(cuda_backend(&be, __func__));
    return be->host_unregister(ptr);
}

px_status px_staging_get(px_staging_config *out)
{
    PX__ARG(out, "out must not be NULL");
    const px__backend *be;
    PX__TRY(cuda_backend(&be, __func__));
    return be->staging_get(out);
}

px_status px_staging_set(const px_staging_config *config)
{
    PX__ARG(config, "config must not be NULL");
    PX__ARG(config->chunk_bytes == 0 || config->chunk_bytes >= ((size_t)64 << 10),
            "config->chunk_bytes is %zu; expected 0 (keep) or at least 64 KiB", config->chunk_bytes);
    PX__ARG(config->buffers == 0 || config->buffers >= 2,
            "config->buffers is %d; expected 0 (keep) or at least 2", config->buffers);
    PX__ARG(config->threads >= 0 && config->threads <= 64,
            "config->threads is %d; expected 0 (keep) to 64", config->threads);
    const px__backend *be;
    PX__TRY(cuda_backend(&be, __func__));
    return be->staging_set(config);
}
