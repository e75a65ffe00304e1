/* The tables compiled in: execution backends and memory spaces. */
#include "core/internal.h"
#include "core/lifetime.h"
#include "px_config.h"
#include "backends/serial/serial.h"
#include "spaces/host.h"
#if PX_HAVE_CUDA
#  include "backends/cuda/cuda_backend.h"
#endif

static const px__backend *const backends[PX_EXEC_COUNT] = {
    [PX_EXEC_SERIAL] = &px__backend_serial,
#if PX_HAVE_CUDA
    [PX_EXEC_CUDA] = &px__backend_cuda,
#endif
};

static const px__space_ops *const spaces[PX_SPACE_KIND_COUNT] = {
    [PX_SPACE_HOST] = &px__space_ops_host,
#if PX_HAVE_CUDA
    [PX_SPACE_HOST_PINNED] = &px__space_ops_cuda_pinned,
    [PX_SPACE_DEVICE] = &px__space_ops_cuda_device,
#endif
};

const px__backend *px__backend_get(px_exec_space exec)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT) return NULL;
    return backends[exec];
}

const px__space_ops *px__space_ops_get(px_space_kind kind)
{
    if ((int)kind < 0 || kind >= PX_SPACE_KIND_COUNT) return NULL;
    return spaces[kind];
}

void px__backends_finalize(void)
{
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        if (backends[e] && backends[e]->finalize) backends[e]->finalize();
}

const char *px_exec_space_string(px_exec_space exec)
{
    switch (exec) {
    case PX_EXEC_SERIAL: return "SERIAL";
    case PX_EXEC_CUDA: return "CUDA";
    case PX_EXEC_COUNT: break;
    }
    return "UNKNOWN";
}

static px_status device_count(px_exec_space exec, int *count, const char *func)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, func, "exec is %d; expected a px_exec_space",
                         (int)exec);
    const px__backend *be = backends[exec];
    if (!be)
        return px__error(PX_ERR_UNSUPPORTED, func,
                         "execution space %s is not compiled into this build",
                         px_exec_space_string(exec));
    return be->device_count(count);
}

px_status px_exec_space_device_count(px_exec_space exec, int *count)
{
    PX__ARG(count, "count must not be NULL");
    *count = 0;
    px_status st = device_count(exec, count, __func__);
    if (st == PX_ERR_NO_DEVICE) { /* no GPU is a count of 0, not a failure */
        *count = 0;
        px_clear_error();
        return PX_OK;
    }
    return st;
}

px_status px_exec_space_available(px_exec_space exec)
{
    int n = 0;
    PX__TRY(device_count(exec, &n, __func__));
    if (n < 1)
        return PX__FAIL(PX_ERR_NO_DEVICE, "execution space %s has no device on this machine",
                        px_exec_space_string(exec));
    return PX_OK;
}
