/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What kind of memory a pointer is, and pinning existing host memory: services of the
 * CUDA backend when it is compiled in; without it every pointer is HOST and pinning is
 * unsupported. */
#include "portex.h"
#include "px_config.h"
#include "base/error.h"
#include "base/state.h"
#include "spaces/space.h"
#if PX_HAVE_CUDA
#include "backends/cuda/api.h"
#endif

px_space px__pointer_space(const void *ptr)
{
#if PX_HAVE_CUDA
    return px__cuda_pointer_space(ptr);
#else
    (void)ptr;
    return px_host();
#endif
}

px_status px_pointer_space(const void *ptr, px_space *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__ARG(ptr, "ptr must not be NULL");
    *out = px__pointer_space(ptr);
    return PX_OK;
}

#if !PX_HAVE_CUDA
static px_status no_cuda(void)
{
    return px__error(PX_ERR_UNSUPPORTED,
                     "this needs the CUDA backend, which is not compiled into this build");
}
#endif

px_status px_host_register(void *ptr, size_t bytes)
{
    PX__ENTER;
    PX__ARG(ptr, "ptr must not be NULL");
    PX__ARG(bytes > 0, "bytes is 0; expected the size of the memory to pin");
    PX__TRY(px__require_init());
#if PX_HAVE_CUDA
    return px__cuda_host_register(ptr, bytes);
#else
    return no_cuda();
#endif
}

px_status px_host_unregister(void *ptr)
{
    PX__ENTER;
    PX__ARG(ptr, "ptr must not be NULL");
    PX__TRY(px__require_init());
#if PX_HAVE_CUDA
    return px__cuda_host_unregister(ptr);
#else
    return no_cuda();
#endif
}
