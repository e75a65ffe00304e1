/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The thread count asked of a host backend with teams, from the options or the
 * environment. */
#include "backends/host/thread_count.h"

#include <stdlib.h>

#include "backends/services.h"

/* A positive thread count from the environment variable `name`: 0 when unset. */
static px_status env_threads(const char *name, int *out)
{
    const char *v = getenv(name);
    *out = 0;
    if (!v || !*v) return PX_OK;
    char *end = NULL;
    const long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 1 || n > PX__HOST_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "%s is '%s'; expected a thread count from 1 to %d", name, v,
                         PX__HOST_MAX_THREADS);
    *out = (int)n;
    return PX_OK;
}

px_status px__host_threads_asked(const px_init_options *opts, int *n, const char **from)
{
    *n = opts ? opts->num_threads : 0;
    if (*n < 0 || *n > PX__HOST_MAX_THREADS)
        return px__error(PX_ERR_INVALID_ARGUMENT,
                         "opts->num_threads is %d; expected 0 (choose) or 1 to %d", *n,
                         PX__HOST_MAX_THREADS);
    *from = "px_init_options.num_threads";
    if (*n == 0) {
        PX__TRY(env_threads("PX_NUM_THREADS", n));
        *from = "PX_NUM_THREADS";
    }
    return PX_OK;
}
