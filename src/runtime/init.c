/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Library lifetime: reference-counted px_init / px_finalize. */
#include <pthread.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/registry.h"
#include "base/state.h"
#include "base/topology.h"
#include "observability/profile.h"
#include "observability/tools_api.h"
#include "runtime/copy_path.h"
#include "runtime/exec_space.h"
#include "runtime/instance.h"
#include "px_config.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;

bool px_is_initialized(void) { return px__initialized(); }

px_status px_init(const px_init_options *opts)
{
    PX__ENTER;
    px_status st = PX_OK;
    pthread_mutex_lock(&init_lock);
    /* The default execution space first: a name refused leaves nothing to undo. */
    st = px__default_exec_init(opts, init_count == 0);
    if (st == PX_OK && init_count == 0) {
        if (!(opts && opts->skip_topology)) st = px__topology_load();
        if (st == PX_OK) {
            st = px__backends_init(opts);
            /* Observers last: a tool library is told of the devices the backends see. */
            if (st == PX_OK) st = px__profile_init(opts, px__fence_all_quiet);
            if (st != PX_OK) {
                px__backends_finalize();
                px__topology_unload();
            }
        }
        if (st == PX_OK) {
            px__copy_counts_reset();
            px__set_initialized(true);
        }
    }
    if (st == PX_OK) init_count++;
    pthread_mutex_unlock(&init_lock);
    return st;
}

/* The last reference: the default instances, then the backends' own state. */
static px_status teardown(void)
{
    char alive[512];
    if (px__live_describe(alive, sizeof alive) > 0)
        return px__error(PX_ERR_BUSY, "still alive: %s; release them and call px_finalize again",
                         alive);
    bool all_released = true;
    const px_status st = px__instances_finalize(&all_released);
    if (!all_released) return st; /* a default instance refused (a capture): try again later */
    /* The work is done: the timeline's events are complete, the tool library hears last. */
    const px_status written = px__profile_finalize();
    px__sections_forget();
    px__regions_forget();
    px__backends_finalize();
    px__topology_unload();
    px__set_initialized(false);
    init_count = 0;
    /* Torn down even if a queue reported an error while it drained, or the timeline could
       not be written; the caller hears of it. */
    return st != PX_OK ? st : written;
}

px_status px_finalize(void)
{
    PX__ENTER;
    px_status st = PX_OK;
    pthread_mutex_lock(&init_lock);
    if (init_count == 0)
        st = PX__FAIL(PX_ERR_NOT_INITIALIZED, "portex is not initialized");
    else if (init_count > 1)
        init_count--;
    else
        st = teardown();
    pthread_mutex_unlock(&init_lock);
    return st;
}

px_status px_version(int *major, int *minor, int *patch)
{
    PX__ENTER;
    PX__ARG(major && minor && patch, "major, minor and patch must not be NULL");
    *major = PX_VERSION_MAJOR;
    *minor = PX_VERSION_MINOR;
    *patch = PX_VERSION_PATCH;
    return PX_OK;
}

const char *px_version_string(void) { return PX_VERSION_STRING; }
