/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Memory spaces: availability, and the bytes portex holds in each. */
#include "spaces/space.h"

#include <stdio.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/memstats.h"

static px_status space_in_range(px_space space)
{
    if ((int)space.kind < 0 || space.kind >= PX_SPACE_KIND_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "space.kind is %d; expected HOST, HOST_PINNED or DEVICE", (int)space.kind);
    if (space.device < 0 || space.device >= PX__MAX_DEVICES ||
        (space.kind != PX_SPACE_DEVICE && space.device != 0))
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "space.device is %d; expected 0 for %s, 0 to %d for DEVICE", space.device,
                         px_space_kind_string(space.kind), PX__MAX_DEVICES - 1);
    return PX_OK;
}

px_status px__space_check(px_space space, const px__space_ops **ops_out)
{
    PX__TRY(space_in_range(space));
    const px__space_ops *ops = px__space_ops_get(space.kind);
    if (!ops)
        return px__error(
            PX_ERR_UNSUPPORTED,
            "memory space %s needs the CUDA backend, which is not compiled into this build",
            px_space_kind_string(space.kind));
    px_status st = ops->available(space);
    if (st != PX_OK) {
        /* Keep the backend's reason, in the caller's words. */
        char why[512];
        snprintf(why, sizeof why, "%s", px_last_error());
        return px__error(st, "memory space %s(%d) is not available: %s",
                         px_space_kind_string(space.kind), space.device, why);
    }
    if (ops_out) *ops_out = ops;
    return PX_OK;
}

px_status px_space_check(px_space space)
{
    PX__ENTER;
    return px__space_check(space, NULL);
}

bool px_space_available(px_space space)
{
    PX__ENTER;
    /* A question, not a failure: the caller's last error stays as it was. */
    px__saved_error saved;
    px__error_save(&saved);
    const bool yes = px__space_check(space, NULL) == PX_OK;
    px__error_restore(&saved);
    return yes;
}

px_status px_space_memory(px_space space, px_memory_stats *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__TRY(space_in_range(space));
    *out = px__memory_stats(space);
    return PX_OK;
}
