/* Library lifetime: reference-counted px_init / px_finalize. */
#include <pthread.h>
#include <stdatomic.h>

#include "core/internal.h"
#include "core/lifetime.h"
#include "px_config.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;
static atomic_bool initialized;

bool px__initialized(void) { return atomic_load_explicit(&initialized, memory_order_acquire); }

bool px_is_initialized(void) { return px__initialized(); }

px_status px__require_init(const char *func)
{
    if (px__initialized()) return PX_OK;
    return px__error(PX_ERR_NOT_INITIALIZED, func, "portex is not initialized; call px_init first");
}

px_status px_init(const px_init_options *opts)
{
    px_status st = PX_OK;
    pthread_mutex_lock(&init_lock);
    if (init_count == 0) {
        if (!(opts && opts->skip_topology)) st = px__topology_load();
        if (st == PX_OK) {
            px__copy_counts_reset();
            atomic_store_explicit(&initialized, true, memory_order_release);
        }
    }
    if (st == PX_OK) init_count++;
    pthread_mutex_unlock(&init_lock);
    return st;
}

px_status px_finalize(void)
{
    px_status st = PX_OK;
    pthread_mutex_lock(&init_lock);
    if (init_count == 0) {
        st = PX__FAIL(PX_ERR_NOT_INITIALIZED, "portex is not initialized");
    } else if (init_count > 1) {
        init_count--;
    } else {
        char alive[512];
        if (px__live_describe(alive, sizeof alive) > 0) {
            st = PX__FAIL(PX_ERR_BUSY, "still alive: %s; release them and call px_finalize again",
                          alive);
        } else {
            /* Default instances first: they may hold backend resources. */
            st = px__instances_finalize();
            px__backends_finalize();
            px__topology_unload();
            atomic_store_explicit(&initialized, false, memory_order_release);
            init_count = 0;
        }
    }
    pthread_mutex_unlock(&init_lock);
    return st;
}

px_status px_version(int *major, int *minor, int *patch)
{
    PX__ARG(major && minor && patch, "major, minor and patch must not be NULL");
    *major = PX_VERSION_MAJOR;
    *minor = PX_VERSION_MINOR;
    *patch = PX_VERSION_PATCH;
    return PX_OK;
}

const char *px_version_string(void) { return PX_VERSION_STRING; }
