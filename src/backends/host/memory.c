/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The HOST space: pageable memory from the C library, aligned to a cache line. */
#include "backends/host/memory.h"

#include <stdlib.h>
#include <string.h>

#include "backends/services.h"

static px_status host_available(px_space space)
{
    (void)space;
    return PX_OK;
}

static px_status host_alloc(px_space space, size_t bytes, void **out)
{
    (void)space;
    /* No message: the caller words it, knowing the view. */
    void *p = px__aligned_alloc(PX__HOST_ALIGNMENT, bytes);
    if (!p) return PX_ERR_OUT_OF_MEMORY;
    *out = p;
    return PX_OK;
}

static void host_free(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    (void)bytes;
    free(ptr);
}

static px_status host_zero(px_space space, void *ptr, size_t bytes)
{
    (void)space;
    memset(ptr, 0, bytes);
    return PX_OK;
}

const px__space_ops px__space_ops_host = {
    .name = "HOST",
    .host_access = true,
    .owner = PX_EXEC_SERIAL,
    .available = host_available,
    .alloc = host_alloc,
    .free = host_free,
    .zero = host_zero,
};
