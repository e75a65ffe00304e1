/* Execution spaces: device counts, availability. */
#include "backends/backends.h"
#include "base/error.h"

static px_status device_count(px_exec_space exec, int *count, const char *func)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, func, "exec is %d; expected a px_exec_space", (int)exec);
    const px__backend *be = px__backend_get(exec);
    if (!be)
        return px__error(PX_ERR_UNSUPPORTED, func, "execution space %s is not compiled into this build",
                         px_exec_space_string(exec));
    return be->device_count(count);
}

px_status px_exec_space_device_count(px_exec_space exec, int *count)
{
    PX__ARG(count, "count must not be NULL");
    *count = 0;
    return device_count(exec, count, __func__);
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
