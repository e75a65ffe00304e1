/* Execution spaces: device counts, availability, and the default execution space. */
#include "core/exec_space.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/state.h"
#include "core/instance.h"

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

static px_status exec_check(px_exec_space exec, const char *func)
{
    int n = 0;
    PX__TRY(device_count(exec, &n, func));
    if (n < 1)
        return px__error(PX_ERR_NO_DEVICE, func, "execution space %s has no device on this machine",
                         px_exec_space_string(exec));
    return PX_OK;
}

px_status px_exec_space_check(px_exec_space exec) { return exec_check(exec, __func__); }

bool px_exec_space_available(px_exec_space exec)
{
    /* A question, not a failure: the caller's last error stays as it was. */
    px__saved_error saved;
    px__error_save(&saved);
    const bool yes = exec_check(exec, __func__) == PX_OK;
    px__error_restore(&saved);
    return yes;
}

/* ---- The default execution space ------------------------------------------------------ */

/* Named at the first px_init, or DEFAULT_AUTO: chosen by the first px_default_* call that
   needs it (so that px_init never asks CUDA anything unless CUDA was named). */
#define DEFAULT_AUTO (-1)
static atomic_int default_exec = DEFAULT_AUTO;

static const struct {
    const char *name;
    px_exec_space exec;
} exec_names[] = {{"serial", PX_EXEC_SERIAL}, {"openmp", PX_EXEC_OPENMP}, {"cuda", PX_EXEC_CUDA}};
#define PX__EXEC_NAMES "\"serial\", \"openmp\" or \"cuda\""

static bool same_name_ci(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

/* The execution space `name` names (case does not matter), or PX_ERR_INVALID_ARGUMENT
   saying where the name came from and which names there are. */
static px_status exec_parse(const char *name, const char *from, px_exec_space *out, const char *func)
{
    for (size_t k = 0; k < sizeof exec_names / sizeof exec_names[0]; ++k)
        if (same_name_ci(name, exec_names[k].name)) {
            *out = exec_names[k].exec;
            return PX_OK;
        }
    return px__error(PX_ERR_INVALID_ARGUMENT, func, "%s is \"%s\": not an execution space; expected " PX__EXEC_NAMES,
                     from, name);
}

/* The space with a device here first among CUDA, OpenMP, serial. */
static px_exec_space exec_auto(void)
{
    int n = 0;
    const px__backend *cuda = px__backend_get(PX_EXEC_CUDA);
    if (cuda && cuda->device_count(&n) == PX_OK && n > 0) return PX_EXEC_CUDA;
    if (px__backend_get(PX_EXEC_OPENMP)) return PX_EXEC_OPENMP;
    return PX_EXEC_SERIAL;
}

/* The default execution space, chosen now if it was left to portex. */
static px_exec_space default_get(void)
{
    int e = atomic_load(&default_exec);
    if (e == DEFAULT_AUTO) {
        /* Threads that race here compute the same answer; the first store wins. */
        int chosen = (int)exec_auto();
        e = atomic_compare_exchange_strong(&default_exec, &e, chosen) ? chosen : e;
    }
    return (px_exec_space)e;
}

px_status px__default_exec_init(const px_init_options *opts, bool first, const char *func)
{
    const char *name = opts ? opts->default_exec : NULL;
    const char *from = "px_init_options.default_exec";
    px_exec_space exec;
    if (!first) {
        /* portex runs already: a named space must be the one in effect. */
        if (!name) return PX_OK;
        PX__TRY(exec_parse(name, from, &exec, func));
        const px_exec_space now = default_get();
        if (exec != now)
            return px__error(PX_ERR_INVALID_ARGUMENT, func,
                             "%s is \"%s\", but portex is initialized already with the default execution "
                             "space %s (the first px_init chooses it; finalize every reference first)",
                             from, name, px_exec_space_string(now));
        return PX_OK;
    }
    if (!name) {
        const char *env = getenv("PX_DEFAULT_EXEC");
        if (env && *env) {
            name = env;
            from = "the environment's PX_DEFAULT_EXEC";
        }
    }
    if (name) {
        PX__TRY(exec_parse(name, from, &exec, func));
        /* Named: it must be usable here; never a silent fall back to another space. */
        const px__backend *be = px__backend_get(exec);
        int n = 0;
        if (!be)
            return px__error(PX_ERR_UNSUPPORTED, func,
                             "%s is \"%s\", but execution space %s is not compiled into this build", from,
                             name, px_exec_space_string(exec));
        PX__TRY(be->device_count(&n));
        if (n < 1)
            return px__error(PX_ERR_NO_DEVICE, func,
                             "%s is \"%s\", but execution space %s has no device on this machine", from,
                             name, px_exec_space_string(exec));
        atomic_store(&default_exec, (int)exec);
    } else {
        atomic_store(&default_exec, DEFAULT_AUTO);
    }
    return PX_OK;
}

px_status px_default_exec_space(px_exec_space *out)
{
    PX__ARG(out, "out must not be NULL");
    PX__TRY(px__require_init(__func__));
    *out = default_get();
    return PX_OK;
}

px_status px_default_space(px_space *out)
{
    PX__ARG(out, "out must not be NULL");
    PX__TRY(px__require_init(__func__));
    *out = default_get() == PX_EXEC_CUDA ? px_device(0) : px_host();
    return PX_OK;
}

px_status px_default_instance(px_instance **out)
{
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__require_init(__func__));
    return px__instance_default(default_get(), 0, out, __func__);
}
