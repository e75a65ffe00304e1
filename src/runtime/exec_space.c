/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Execution spaces: device counts, availability, and the default execution space. */
#include "runtime/exec_space.h"

#include <ctype.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/backends.h"
#include "base/error.h"
#include "base/state.h"
#include "runtime/instance.h"

static px_status device_count(px_exec_space exec, int *count)
{
    if ((int)exec < 0 || exec >= PX_EXEC_COUNT)
        return px__error(PX_ERR_INVALID_ARGUMENT, "exec is %d; expected a px_exec_space",
                         (int)exec);
    const px__backend *be = px__backend_get(exec);
    if (!be)
        return px__error(PX_ERR_UNSUPPORTED, "execution space %s is not compiled into this build",
                         px_exec_space_string(exec));
    return be->device_count(count);
}

px_status px_exec_space_device_count(px_exec_space exec, int *count)
{
    PX__ENTER;
    PX__ARG(count, "count must not be NULL");
    *count = 0;
    return device_count(exec, count);
}

static px_status exec_check(px_exec_space exec)
{
    int n = 0;
    PX__TRY(device_count(exec, &n));
    if (n < 1)
        return px__error(PX_ERR_NO_DEVICE, "execution space %s has no device on this machine",
                         px_exec_space_string(exec));
    return PX_OK;
}

px_status px_exec_space_check(px_exec_space exec)
{
    PX__ENTER;
    return exec_check(exec);
}

bool px_exec_space_available(px_exec_space exec)
{
    PX__ENTER;
    /* A question, not a failure: the caller's last error stays as it was. */
    px__saved_error saved;
    px__error_save(&saved);
    const bool yes = exec_check(exec) == PX_OK;
    px__error_restore(&saved);
    return yes;
}

/* ---- The default execution space ------------------------------------------------------ */

/* Named at the first px_init, or DEFAULT_AUTO: chosen by the first px_default_* call that
   needs it (so that px_init never asks CUDA anything unless CUDA was named). */
#define DEFAULT_AUTO (-1)
static atomic_int default_exec = DEFAULT_AUTO;
/* The default space's and instance's device, checked against the default execution space
   at the first px_init (0 unless one was asked for). */
static atomic_int default_device;

static bool same_name_ci(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

/* The execution space `name` names (px_exec_space_string's names, in any case), or
   PX_ERR_INVALID_ARGUMENT saying where the name came from and which names there are. */
static px_status exec_parse(const char *name, const char *from, px_exec_space *out)
{
    for (int e = 0; e < PX_EXEC_COUNT; ++e)
        if (same_name_ci(name, px_exec_space_string((px_exec_space)e))) {
            *out = (px_exec_space)e;
            return PX_OK;
        }
    /* "serial", "cuda", ... or "threads" */
    char names[128] = "";
    size_t k = 0;
    for (int e = 0; e < PX_EXEC_COUNT && k < sizeof names; ++e) {
        const char *sep = e == 0 ? "" : e == PX_EXEC_COUNT - 1 ? " or " : ", ";
        k += (size_t)snprintf(names + k, sizeof names - k, "%s\"%s\"", sep,
                              px_exec_space_string((px_exec_space)e));
    }
    for (char *c = names; *c; ++c) *c = (char)tolower((unsigned char)*c);
    return px__error(PX_ERR_INVALID_ARGUMENT, "%s is \"%s\": not an execution space; expected %s",
                     from, name, names);
}

/* The default execution space, chosen now if it was left to portex. */
static px_exec_space default_get(void)
{
    int e = atomic_load(&default_exec);
    if (e == DEFAULT_AUTO) {
        /* Threads that race here compute the same answer; the first store wins. */
        int chosen = (int)px__backend_auto();
        e = atomic_compare_exchange_strong(&default_exec, &e, chosen) ? chosen : e;
    }
    return (px_exec_space)e;
}

/* Programs built against earlier headers pass a px_init_options without use_device and
   device; on LP64 the two sit in what was its tail padding, so that its size, and what
   those programs pass, stay the same. */
_Static_assert(sizeof(void *) != 8 || sizeof(px_init_options) == 48,
               "px_init_options must keep its LP64 size");

/* The device asked for: opts->device when opts->use_device, else the environment's
   PX_DEVICE, else none (*device -1). *from says which, for the messages. */
static px_status device_requested(const px_init_options *opts, int *device, const char **from)
{
    *device = -1;
    if (opts && opts->use_device) {
        *from = "px_init_options.device";
        if (opts->device < 0)
            return px__error(
                PX_ERR_INVALID_ARGUMENT,
                "px_init_options.device is %d (use_device is true); expected a device ordinal >= 0",
                opts->device);
        *device = opts->device;
        return PX_OK;
    }
    const char *env = getenv("PX_DEVICE");
    if (!env || !*env) return PX_OK;
    *from = "the environment's PX_DEVICE";
    /* Digits only: "-1", " 1", "1x" and "0x1" are mistakes, not device 1. */
    long n = 0;
    bool digits = true;
    for (const char *c = env; *c && digits; ++c) {
        digits = *c >= '0' && *c <= '9';
        if (digits && n <= INT_MAX) n = n * 10 + (*c - '0');
    }
    if (!digits || n > INT_MAX)
        return px__error(
            PX_ERR_INVALID_ARGUMENT,
            "the environment's PX_DEVICE is \"%s\": not a device ordinal; expected a decimal "
            "number >= 0 (0 is the first device)",
            env);
    *device = (int)n;
    return PX_OK;
}

/* A device asked for must be one of exec's: no fall back to another device or space. */
static px_status device_check(px_exec_space exec, int device, const char *from)
{
    const px__backend *be = px__backend_get(exec);
    int n = 0;
    PX__TRY(be->device_count(&n));
    if (device < n) return PX_OK;
    char ordinals[48] = "device 0";
    if (n > 1) snprintf(ordinals, sizeof ordinals, "devices 0 to %d", n - 1);
    return px__error(PX_ERR_NO_DEVICE, "%s is %d, but the default execution space, %s, has %s%s",
                     from, device, px_exec_space_string(exec), ordinals,
                     be->runs_on_host
                         ? " (serial, OpenMP and threads have device 0 alone: a GPU is chosen "
                           "only where the default execution space is CUDA)"
                         : "");
}

px_status px__default_exec_init(const px_init_options *opts, bool first)
{
    const char *name = opts ? opts->default_exec : NULL;
    const char *from = "px_init_options.default_exec";
    px_exec_space exec = PX_EXEC_SERIAL;
    if (!first) {
        /* portex runs already: a named space or device must be the one in effect. */
        if (name) {
            PX__TRY(exec_parse(name, from, &exec));
            const px_exec_space now = default_get();
            if (exec != now)
                return px__error(
                    PX_ERR_INVALID_ARGUMENT,
                    "%s is \"%s\", but portex is initialized already with the default execution "
                    "space %s (the first px_init chooses it; finalize every reference first)",
                    from, name, px_exec_space_string(now));
        }
        if (opts && opts->use_device) {
            int device;
            const char *device_from;
            PX__TRY(device_requested(opts, &device, &device_from));
            const int now = atomic_load(&default_device);
            if (device != now)
                return px__error(
                    PX_ERR_INVALID_ARGUMENT,
                    "px_init_options.device is %d, but portex is initialized already with the "
                    "default device %d (the first px_init chooses it; finalize every reference "
                    "first)",
                    opts->device, now);
        }
        return PX_OK;
    }
    int device;
    const char *device_from = NULL;
    PX__TRY(device_requested(opts, &device, &device_from));
    if (!name) {
        const char *env = getenv("PX_DEFAULT_EXEC");
        if (env && *env) {
            name = env;
            from = "the environment's PX_DEFAULT_EXEC";
        }
    }
    if (name) {
        PX__TRY(exec_parse(name, from, &exec));
        /* Named: it must be usable here; never a silent fall back to another space. */
        const px__backend *be = px__backend_get(exec);
        int n = 0;
        if (!be)
            return px__error(PX_ERR_UNSUPPORTED,
                             "%s is \"%s\", but execution space %s is not compiled into this build",
                             from, name, px_exec_space_string(exec));
        PX__TRY(be->device_count(&n));
        if (n < 1)
            return px__error(PX_ERR_NO_DEVICE,
                             "%s is \"%s\", but execution space %s has no device on this machine",
                             from, name, px_exec_space_string(exec));
    } else if (device >= 0) {
        /* A device can be checked only against a space: choose it now (a CUDA build asks
           cudaGetDeviceCount). */
        exec = px__backend_auto();
    }
    if (device >= 0) PX__TRY(device_check(exec, device, device_from));
    /* Only now: a refusal above leaves the previous choice as it was. */
    atomic_store(&default_exec, name || device >= 0 ? (int)exec : DEFAULT_AUTO);
    /* Host work no instance was named for runs on the named space's threads (if it has). */
    px__backends_named_default(name || device >= 0 ? exec : PX_EXEC_COUNT);
    atomic_store(&default_device, device >= 0 ? device : 0);
    return PX_OK;
}

px_status px_default_exec_space(px_exec_space *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__TRY(px__require_init());
    *out = default_get();
    return PX_OK;
}

px_status px_default_space(px_space *out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    PX__TRY(px__require_init());
    *out = default_get() == PX_EXEC_CUDA ? px_device(atomic_load(&default_device)) : px_host();
    return PX_OK;
}

px_status px_default_instance(px_instance **out)
{
    PX__ENTER;
    PX__ARG(out, "out must not be NULL");
    *out = NULL;
    PX__TRY(px__require_init());
    /* A host space's default device is 0: px_init accepted no other. */
    return px__instance_default(default_get(), atomic_load(&default_device), out);
}
