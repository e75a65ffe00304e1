/* Memory spaces: names, availability, and the bytes portex holds in each. */
#include <pthread.h>
#include <string.h>

#include "core/internal.h"

const char *px_space_kind_string(px_space_kind kind)
{
    switch (kind) {
    case PX_SPACE_HOST: return "HOST";
    case PX_SPACE_HOST_PINNED: return "HOST_PINNED";
    case PX_SPACE_DEVICE: return "DEVICE";
    case PX_SPACE_KIND_COUNT: break;
    }
    return "UNKNOWN";
}

px_status px__space_check(px_space space, const char *func)
{
    if ((int)space.kind < 0 || space.kind >= PX_SPACE_KIND_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, func,
                         "space.kind is %d; expected HOST, HOST_PINNED or DEVICE", (int)space.kind);
    if (space.device < 0 || space.device >= PX__MAX_DEVICES ||
        (space.kind != PX_SPACE_DEVICE && space.device != 0))
        return px__error(PX_ERR_INVALID_ARGUMENT, func,
                         "space.device is %d; expected 0 for %s, 0 to %d for DEVICE", space.device,
                         px_space_kind_string(space.kind), PX__MAX_DEVICES - 1);
    const px__space_ops *ops = px__space_ops_get(space.kind);
    if (!ops)
        return px__error(PX_ERR_UNSUPPORTED, func,
                         "memory space %s needs the CUDA backend, which is not compiled into this build",
                         px_space_kind_string(space.kind));
    px_status st = ops->available(space);
    if (st != PX_OK) {
        /* Keep the backend's reason but name the caller. */
        char why[512];
        snprintf(why, sizeof why, "%s", px_last_error());
        return px__error(st, func, "memory space %s(%d) is not available: %s",
                         px_space_kind_string(space.kind), space.device, why);
    }
    return PX_OK;
}

px_status px_space_available(px_space space) { return px__space_check(space, __func__); }

/* ---- Accounting ----------------------------------------------------------------------- */

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static px_memory_stats stats[PX_SPACE_KIND_COUNT][PX__MAX_DEVICES];

void px__memory_account(px_space space, size_t bytes, bool add)
{
    pthread_mutex_lock(&stats_lock);
    px_memory_stats *s = &stats[space.kind][space.device];
    if (add) {
        s->bytes_in_use += bytes;
        s->allocations++;
        if (s->bytes_in_use > s->high_water) s->high_water = s->bytes_in_use;
    } else {
        s->bytes_in_use -= bytes;
    }
    pthread_mutex_unlock(&stats_lock);
}

void px__memory_account_library(px_space space, size_t bytes, bool add)
{
    pthread_mutex_lock(&stats_lock);
    px_memory_stats *s = &stats[space.kind][space.device];
    if (add)
        s->library_bytes += bytes;
    else
        s->library_bytes -= bytes;
    pthread_mutex_unlock(&stats_lock);
}

px_status px_space_memory(px_space space, px_memory_stats *out)
{
    PX__ARG(out, "out must not be NULL");
    PX__ARG((int)space.kind >= 0 && space.kind < PX_SPACE_KIND_COUNT,
            "space.kind is %d; expected HOST, HOST_PINNED or DEVICE", (int)space.kind);
    PX__ARG(space.device >= 0 && space.device < PX__MAX_DEVICES,
            "space.device is %d; expected 0 to %d", space.device, PX__MAX_DEVICES - 1);
    pthread_mutex_lock(&stats_lock);
    *out = stats[space.kind][space.device];
    pthread_mutex_unlock(&stats_lock);
    return PX_OK;
}
